// parser.h — recursive-descent parser for tape scripts (a Python 3 subset) producing ast.h.
//
// Usage:
//   Module m = parse_module(text, "script.py");   // throws ScriptException
//   for (const StmtPtr& s : m.body) ...
//   unparse(*call.args[0])                         // "x", "self.w": the source as written
//
// Errors are ScriptException{ScriptError}: SyntaxError / IndentationError / TabError with
// Python's messages and the 1-based line:col of the offending token, ResourceError for a
// script over 1 MiB. Constructs outside the subset are refused by name:
// "'lambda' is not supported in tape scripts".
//
// Limits (script.md): nesting depth <= kMaxNestingDepth (100) counting brackets, indented
// blocks, unary operators, `not`, `**` and chained conditional expressions — error
// "too many nested parentheses or blocks (limit 100)" where level 101 opens; tree height
// <= kMaxTreeHeight (1000) for long left-leaning chains (`a+b+...`, `x.a.b...`, elif chains).
#pragma once

#include <memory>
#include <string>

#include "ast.h"
#include "lexer.h"

namespace ts::script {

inline constexpr int kMaxTreeHeight = 1000;

// A generator expression `(e for ...)` parses as a call of kGenExprName with the list
// comprehension `[e for ...]` as its argument; a dict comprehension `{k: v for ...}` as a
// call of kDictCompName with `[(k, v) for ...]`. No identifier spells these names.
inline constexpr const char* kGenExprName = "<genexpr>";
inline constexpr const char* kDictCompName = "<dictcomp>";

// Parses a whole script. `text` is checked against the size limit first (ResourceError).
Module parse_module(std::string text, std::string file_name = "script.py");
Module parse_module(std::shared_ptr<const SourceText> source);

// Reads and parses a file; `display_name` (default: the path) is used in messages. A file
// that cannot be read raises FileNotFoundError / OSError; one over 1 MiB a ResourceError
// before it is read.
Module parse_file(const std::string& path, std::string display_name = {});

// Parses one expression (or an unparenthesised tuple `a, b`); newlines inside are allowed.
ParsedExpression parse_expression(std::string text, std::string file_name = "<expr>");

// A compact, deterministic rendering of the tree for tests and debugging, e.g.
// "Assign([Name(x)], BinOp(Add, Name(a), Constant(1)))"; a module is one statement per line.
std::string dump(const Expr& e);
std::string dump(const Stmt& s);
std::string dump(const Module& m);

}  // namespace ts::script

// parser.cpp — recursive-descent parser for tape scripts (see parser.h).
//
// The grammar is Python 3.11's (python.gram), restricted to the subset of script.md; the
// precedence climbing goes expression > disjunction > conjunction > inversion > comparison >
// | > ^ > & > shifts > + - > * / // % @ > unary > ** > primary > atom.
//
// Stack safety: every path that recurses without bound in the input (brackets, blocks, unary
// operators, `not`, `**`, chained `x if c else ...`, f-string fields) passes through a Nest
// guard that counts toward kMaxNestingDepth, and every node records its height so long
// left-leaning chains (`a+b+...`, `x.a.b...`, `elif`s) stop at kMaxTreeHeight.
//
// [SECTION] Helpers
// [SECTION] Parser: token stream, errors, node construction
// [SECTION] Statements
// [SECTION] Compound statements
// [SECTION] Targets
// [SECTION] Expressions
// [SECTION] Atoms, strings and f-strings
// [SECTION] Public entry points
// [SECTION] dump
#include "parser.h"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <unordered_set>
#include <utility>

namespace ts::script {

// ---------------------------------------------------------------------------------------------
// [SECTION] Helpers
// ---------------------------------------------------------------------------------------------

namespace {

const std::string& nesting_message() {
    static const std::string message =
        "too many nested parentheses or blocks (limit " + std::to_string(kMaxNestingDepth) + ")";
    return message;
}

std::string not_supported(std::string_view construct) {
    return std::string(construct) + " is not supported in tape scripts";
}

std::string are_not_supported(std::string_view constructs) {
    return std::string(constructs) + " are not supported in tape scripts";
}

std::string quoted_not_supported(std::string_view construct) {
    // Built with += : GCC 12 at -O3 warns falsely (-Wrestrict) on "'" + std::string(...).
    std::string out = "'";
    out += construct;
    out += "' is not supported in tape scripts";
    return out;
}

struct Mark {
    SourceLoc loc;
    std::uint32_t offset = 0;
};

enum class TargetUse { Assign, For, With, Comprehension, Delete };

// How Python names an expression that cannot be assigned to ("cannot assign to function call").
std::string describe(const Expr& e) {
    switch (e.kind()) {
        case ExprKind::Constant: {
            const auto& v = e.as<Constant>()->value;
            if (std::holds_alternative<NoneValue>(v)) return "None";
            if (const bool* b = std::get_if<bool>(&v)) return *b ? "True" : "False";
            return "literal";
        }
        case ExprKind::FString: return "f-string expression";
        case ExprKind::Name: return "name";
        case ExprKind::Attribute: return "attribute";
        case ExprKind::Subscript: return "subscript";
        case ExprKind::Slice: return "slice";
        case ExprKind::Call: {
            // Generator expressions and dict comprehensions are calls of a reserved name.
            const Name* n = e.as<Call>()->func->as<Name>();
            if (n && n->id == kGenExprName) return "generator expression";
            if (n && n->id == kDictCompName) return "dict comprehension";
            return "function call";
        }
        case ExprKind::BinOp:
        case ExprKind::UnaryOp:
        case ExprKind::BoolOp: return "expression";
        case ExprKind::Compare: return "comparison";
        case ExprKind::IfExp: return "conditional expression";
        case ExprKind::List: return "list";
        case ExprKind::Tuple: return "tuple";
        case ExprKind::Dict: return "dict literal";
        case ExprKind::ListComp: return "list comprehension";
        case ExprKind::Starred: return "starred";
    }
    return "expression";
}

bool is_keyword_constant(const Expr& e) {
    const Constant* c = e.as<Constant>();
    return c && (std::holds_alternative<NoneValue>(c->value) || std::holds_alternative<bool>(c->value));
}

bool is_dotted_name(const Expr* e) {
    while (const Attribute* a = e->as<Attribute>()) e = a->value.get();
    return e->is<Name>();
}

// Maps increasing byte offsets inside a token to source positions.
class LocCursor {
public:
    LocCursor(std::string_view text, std::uint32_t offset, SourceLoc loc) : text_(text), offset_(offset), loc_(loc) {}
    SourceLoc at(std::uint32_t offset) {
        while (offset_ < offset && offset_ < text_.size()) {
            unsigned char c = static_cast<unsigned char>(text_[offset_++]);
            if (c == '\n') {
                ++loc_.line;
                loc_.col = 1;
            } else if ((c & 0xC0) != 0x80) {
                ++loc_.col;
            }
        }
        return loc_;
    }

private:
    std::string_view text_;
    std::uint32_t offset_;
    SourceLoc loc_;
};

void append_literal(std::vector<FStringPart>& parts, std::string_view text) {
    if (text.empty()) return;
    if (!parts.empty() && !parts.back().is_field()) {
        parts.back().literal += text;
        return;
    }
    FStringPart part;
    part.literal = std::string(text);
    parts.push_back(std::move(part));
}

std::optional<BinOpKind> augassign_op(TokenKind k) {
    switch (k) {
        case TokenKind::PlusEqual: return BinOpKind::Add;
        case TokenKind::MinusEqual: return BinOpKind::Sub;
        case TokenKind::StarEqual: return BinOpKind::Mult;
        case TokenKind::SlashEqual: return BinOpKind::Div;
        case TokenKind::DoubleSlashEqual: return BinOpKind::FloorDiv;
        case TokenKind::PercentEqual: return BinOpKind::Mod;
        case TokenKind::DoubleStarEqual: return BinOpKind::Pow;
        case TokenKind::AtEqual: return BinOpKind::MatMult;
        case TokenKind::AmperEqual: return BinOpKind::BitAnd;
        case TokenKind::VBarEqual: return BinOpKind::BitOr;
        case TokenKind::CircumflexEqual: return BinOpKind::BitXor;
        case TokenKind::LeftShiftEqual: return BinOpKind::LShift;
        case TokenKind::RightShiftEqual: return BinOpKind::RShift;
        default: return std::nullopt;
    }
}

// Binary operators by precedence level, loosest first: | ^ & shifts +- */ //%@.
constexpr int kBinaryLevels = 6;
std::optional<BinOpKind> binary_op(TokenKind k, int level) {
    switch (level) {
        case 0: if (k == TokenKind::VBar) return BinOpKind::BitOr; break;
        case 1: if (k == TokenKind::Circumflex) return BinOpKind::BitXor; break;
        case 2: if (k == TokenKind::Amper) return BinOpKind::BitAnd; break;
        case 3:
            if (k == TokenKind::LeftShift) return BinOpKind::LShift;
            if (k == TokenKind::RightShift) return BinOpKind::RShift;
            break;
        case 4:
            if (k == TokenKind::Plus) return BinOpKind::Add;
            if (k == TokenKind::Minus) return BinOpKind::Sub;
            break;
        case 5:
            if (k == TokenKind::Star) return BinOpKind::Mult;
            if (k == TokenKind::Slash) return BinOpKind::Div;
            if (k == TokenKind::DoubleSlash) return BinOpKind::FloorDiv;
            if (k == TokenKind::Percent) return BinOpKind::Mod;
            if (k == TokenKind::At) return BinOpKind::MatMult;
            break;
        default: break;
    }
    return std::nullopt;
}

// The precedence level of a binary operator token, or -1.
int binary_level(TokenKind k) {
    for (int level = 0; level < kBinaryLevels; ++level) {
        if (binary_op(k, level)) return level;
    }
    return -1;
}

// Tokens that can begin an expression (used to tell a trailing comma from a next element).
bool starts_expression(TokenKind k) {
    switch (k) {
        case TokenKind::Name: case TokenKind::Int: case TokenKind::Float: case TokenKind::String:
        case TokenKind::FString: case TokenKind::KwTrue: case TokenKind::KwFalse: case TokenKind::KwNone:
        case TokenKind::LeftParen: case TokenKind::LeftBracket: case TokenKind::LeftBrace:
        case TokenKind::Minus: case TokenKind::Plus: case TokenKind::Tilde: case TokenKind::KwNot:
        case TokenKind::Star: case TokenKind::KwLambda: case TokenKind::KwAwait: case TokenKind::KwYield:
        case TokenKind::Ellipsis:
            return true;
        default:
            return false;
    }
}

// Tokens after a complete element inside brackets that suggest a missing comma.
bool suggests_missing_comma(TokenKind k) {
    switch (k) {
        case TokenKind::Name: case TokenKind::Int: case TokenKind::Float: case TokenKind::String:
        case TokenKind::FString: case TokenKind::KwTrue: case TokenKind::KwFalse: case TokenKind::KwNone:
            return true;
        default:
            return false;
    }
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Parser: token stream, errors, node construction
// ---------------------------------------------------------------------------------------------

class Parser {
public:
    Parser(const SourceText& source, LexerOptions options, int base_nesting)
        : source_(source),
          lexer_(source, options),
          prev_end_{options.start, std::min<std::uint32_t>(options.begin, static_cast<std::uint32_t>(source.text.size()))},
          nesting_(base_nesting),
          expression_mode_(options.expression_mode) {}

    Body parse_file_input();
    ExprPtr parse_lone_expression();  // an f-string field or parse_expression(): expression mode

private:
    // Counts one level of nesting for the lifetime of the guard.
    class Nest {
    public:
        Nest(Parser& p, SourceLoc loc) : p_(p) {
            if (p_.nesting_ + 1 > kMaxNestingDepth) p_.fail(loc, nesting_message());
            ++p_.nesting_;
        }
        ~Nest() { --p_.nesting_; }
        Nest(const Nest&) = delete;
        Nest& operator=(const Nest&) = delete;

    private:
        Parser& p_;
    };

    // Where `return`, `break` and `continue` are allowed; saved and reset by def/class.
    struct Context {
        int function_depth = 0;
        int loop_depth = 0;
        int scope_depth = 0;  // functions and classes
    };

    // Token stream.
    const Token& peek(std::size_t k = 0) {
        while (tokens_.size() <= k) tokens_.push_back(lexer_.next());
        return tokens_[k];
    }
    TokenKind kind(std::size_t k = 0) { return peek(k).kind; }
    bool at(TokenKind k) { return kind() == k; }
    Token take() {
        peek();
        Token t = std::move(tokens_.front());
        tokens_.pop_front();
        note_consumed(t);
        return t;
    }
    // Consumes the next token and returns where it began. Cheaper than take() on the
    // recursive paths, where every byte of stack frame counts 100 times.
    SourceLoc skip() {
        const Token& t = peek();
        SourceLoc begin = t.span.begin;
        note_consumed(t);
        tokens_.pop_front();
        return begin;
    }
    void note_consumed(const Token& t) {
        // Layout tokens do not end a node: spans stop at the last real token.
        if (t.kind != TokenKind::Newline && t.kind != TokenKind::Indent && t.kind != TokenKind::Dedent &&
            t.kind != TokenKind::EndMarker) {
            prev_end_ = {t.span.end, t.end};
        }
    }
    bool accept(TokenKind k) {
        if (!at(k)) return false;
        skip();
        return true;
    }
    Mark start() {
        const Token& t = peek();
        return {t.span.begin, t.begin};
    }

    // Errors.
    [[noreturn]] void fail(SourceLoc loc, std::string message, const char* type = "SyntaxError") const {
        throw ScriptException(ScriptError{type, std::move(message), source_.file, loc.line, loc.col});
    }
    [[noreturn]] void fail_unexpected(const Token& t);
    [[noreturn]] void fail_unexpected() { fail_unexpected(peek()); }
    void expect(TokenKind k) {
        if (!accept(k)) fail_unexpected();
    }
    std::string expect_name() {
        if (!at(TokenKind::Name)) fail_unexpected();
        return take().value;
    }
    void expect_colon(bool after_expression);
    void check_missing_comma(Mark element_start);

    // Node construction: the span runs from `begin` to the end of the last token taken.
    ExprPtr make_expr(Mark begin, Expr::Node node, std::optional<SourceLoc> height_loc = std::nullopt);
    StmtPtr make_stmt(Mark begin, Stmt::Node node);

    // Statements.
    void parse_statement(Body& out);
    void parse_simple_statements(Body& out);
    StmtPtr parse_simple_statement();
    StmtPtr parse_expression_statement();
    StmtPtr parse_import();
    StmtPtr parse_from_import();
    Alias parse_alias(bool dotted);
    Body parse_block(const std::string& header, int header_line);
    StmtPtr parse_if();
    StmtPtr parse_for();
    StmtPtr parse_while();
    StmtPtr parse_with();
    StmtPtr parse_try();
    StmtPtr parse_decorated();
    StmtPtr parse_funcdef(Mark begin, std::vector<ExprPtr> decorators);
    StmtPtr parse_classdef(Mark begin, std::vector<ExprPtr> decorators);
    std::vector<Param> parse_params();
    bool looks_like_match_statement();
    bool parenthesized_with_items();

    // Targets.
    ExprPtr parse_target_list();  // for-loop and comprehension targets: a, (b, *c)
    ExprPtr parse_target_item();
    void validate_target(const Expr& e, TargetUse use, bool assignment_hint);

    // Expressions.
    ExprPtr parse_star_expressions();  // a, *b, c  (a Tuple when there is a comma)
    ExprPtr parse_star_expression();   // *a or an expression
    ExprPtr parse_expression();        // a conditional expression
    ExprPtr parse_disjunction();
    ExprPtr parse_conjunction();
    ExprPtr parse_inversion();
    ExprPtr parse_comparison();
    ExprPtr parse_binary();
    ExprPtr parse_binary_tail(Mark begin, ExprPtr left, int min_level);
    ExprPtr parse_factor();
    ExprPtr parse_power();
    ExprPtr parse_primary();
    void parse_call_arguments(std::vector<ExprPtr>& args, std::vector<Keyword>& keywords);
    ExprPtr parse_slices();
    ExprPtr parse_slice_item();
    ExprPtr parse_atom();
    // Kept out of parse_atom so its stack frame stays small on the recursive path.
    [[gnu::noinline]] ExprPtr parse_paren();
    [[gnu::noinline]] ExprPtr parse_list();
    [[gnu::noinline]] ExprPtr parse_brace();
    std::vector<Comprehension> parse_comprehension_clauses();
    ExprPtr make_comprehension(Mark begin, const char* kind, ExprPtr elt, std::vector<Comprehension> generators);
    [[gnu::noinline]] ExprPtr parse_strings();
    void parse_fstring(const Token& t, std::vector<FStringPart>& parts);
    std::uint32_t parse_fstring_field(const Token& t, std::uint32_t open, LocCursor& cursor,
                                      std::vector<FStringPart>& parts);

    const SourceText& source_;
    Lexer lexer_;
    std::deque<Token> tokens_;  // lookahead; deque keeps references stable on push_back
    Mark prev_end_;
    int nesting_;
    bool expression_mode_;
    Context context_;
};

void Parser::fail_unexpected(const Token& t) {
    switch (t.kind) {
        case TokenKind::EndMarker:
            fail(t.span.begin, expression_mode_ ? "invalid syntax" : "unexpected EOF while parsing");
        case TokenKind::Indent: fail(t.span.begin, "unexpected indent", "IndentationError");
        case TokenKind::KwLambda: fail(t.span.begin, quoted_not_supported("lambda"));
        case TokenKind::KwYield: fail(t.span.begin, quoted_not_supported("yield"));
        case TokenKind::KwAwait: fail(t.span.begin, quoted_not_supported("await"));
        case TokenKind::KwAsync: fail(t.span.begin, quoted_not_supported("async"));
        case TokenKind::ColonEqual: fail(t.span.begin, quoted_not_supported(":="));
        default: break;
    }
    // As CPython does for a generic error: read on, and if the rest of the input holds a
    // lexical error (typically a bracket never closed), report that instead.
    for (;;) {
        if (lexer_.next().kind == TokenKind::EndMarker) break;
    }
    fail(t.span.begin, "invalid syntax");
}

// Python says "expected ':'" when the header is complete, and "invalid syntax" when an
// expression in it is followed by something that cannot continue it (`if x y:`).
void Parser::expect_colon(bool after_expression) {
    if (accept(TokenKind::Colon)) return;
    if (after_expression && !at(TokenKind::Newline)) fail_unexpected();
    fail(peek().span.begin, "expected ':'");
}

void Parser::check_missing_comma(Mark element_start) {
    if (suggests_missing_comma(kind())) fail(element_start.loc, "invalid syntax. Perhaps you forgot a comma?");
}

ExprPtr Parser::make_expr(Mark begin, Expr::Node node, std::optional<SourceLoc> height_loc) {
    auto e = std::make_unique<Expr>();
    e->node = std::move(node);
    e->span = {begin.loc, prev_end_.loc};
    e->text_begin = begin.offset;
    e->text_end = std::max(begin.offset, prev_end_.offset);
    e->source = &source_;
    int height = 0;
    for_each_child(*e, [&](const Expr& c) { height = std::max(height, c.height); });
    e->height = height + 1;
    if (e->height > kMaxTreeHeight) {
        fail(height_loc.value_or(begin.loc),
             "expression nested too deeply (limit " + std::to_string(kMaxTreeHeight) + " levels)");
    }
    return e;
}

StmtPtr Parser::make_stmt(Mark begin, Stmt::Node node) {
    auto s = std::make_unique<Stmt>();
    s->node = std::move(node);
    s->span = {begin.loc, prev_end_.loc};
    int height = 0;
    for_each_body(*s, [&](const Body& body) {
        for (const auto& child : body) height = std::max(height, child->height);
    });
    s->height = height + 1;
    if (s->height > kMaxTreeHeight) {
        fail(begin.loc, "blocks and 'elif' branches nested too deeply (limit " + std::to_string(kMaxTreeHeight) +
                            " levels)");
    }
    return s;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Statements
// ---------------------------------------------------------------------------------------------

Body Parser::parse_file_input() {
    Body body;
    while (!at(TokenKind::EndMarker)) {
        if (accept(TokenKind::Newline)) continue;
        if (at(TokenKind::Indent)) fail_unexpected();
        parse_statement(body);
    }
    return body;
}

ExprPtr Parser::parse_lone_expression() {
    Mark begin = start();
    ExprPtr e = parse_star_expressions();
    if (!at(TokenKind::EndMarker)) {
        check_missing_comma(begin);
        fail_unexpected();
    }
    if (e->is<Starred>()) fail(e->span.begin, "can't use starred expression here");
    return e;
}

void Parser::parse_statement(Body& out) {
    switch (kind()) {
        case TokenKind::KwIf: out.push_back(parse_if()); return;
        case TokenKind::KwFor: out.push_back(parse_for()); return;
        case TokenKind::KwWhile: out.push_back(parse_while()); return;
        case TokenKind::KwWith: out.push_back(parse_with()); return;
        case TokenKind::KwTry: out.push_back(parse_try()); return;
        case TokenKind::KwDef: out.push_back(parse_funcdef(start(), {})); return;
        case TokenKind::KwClass: out.push_back(parse_classdef(start(), {})); return;
        case TokenKind::At: out.push_back(parse_decorated()); return;
        case TokenKind::KwAsync: fail_unexpected();
        case TokenKind::Name:
            if (looks_like_match_statement()) fail(peek().span.begin, quoted_not_supported("match"));
            break;
        default: break;
    }
    parse_simple_statements(out);
}

// `match subject:` is a soft-keyword statement: a line that starts with the name `match`,
// continues like an expression and ends with ':' cannot be anything else.
bool Parser::looks_like_match_statement() {
    if (peek().value != "match") return false;
    switch (kind(1)) {
        case TokenKind::Name: case TokenKind::Int: case TokenKind::Float: case TokenKind::String:
        case TokenKind::FString: case TokenKind::LeftParen: case TokenKind::LeftBracket: case TokenKind::LeftBrace:
        case TokenKind::Minus: case TokenKind::KwTrue: case TokenKind::KwFalse: case TokenKind::KwNone:
        case TokenKind::Star: case TokenKind::Tilde: case TokenKind::KwNot:
            break;
        default:
            return false;
    }
    for (std::size_t k = 2;; ++k) {
        TokenKind kk = kind(k);
        if (kk == TokenKind::Newline || kk == TokenKind::EndMarker) return kind(k - 1) == TokenKind::Colon;
    }
}

void Parser::parse_simple_statements(Body& out) {
    for (;;) {
        out.push_back(parse_simple_statement());
        if (!accept(TokenKind::Semicolon)) break;
        if (at(TokenKind::Newline)) break;
    }
    if (!at(TokenKind::Newline)) fail_unexpected();
    skip();
}

StmtPtr Parser::parse_simple_statement() {
    Mark begin = start();
    auto at_statement_end = [&] {
        return at(TokenKind::Newline) || at(TokenKind::Semicolon) || at(TokenKind::EndMarker);
    };
    switch (kind()) {
        case TokenKind::KwPass: skip(); return make_stmt(begin, Pass{});
        case TokenKind::KwBreak:
            if (context_.loop_depth == 0) fail(begin.loc, "'break' outside loop");
            skip();
            return make_stmt(begin, Break{});
        case TokenKind::KwContinue:
            if (context_.loop_depth == 0) fail(begin.loc, "'continue' not properly in loop");
            skip();
            return make_stmt(begin, Continue{});
        case TokenKind::KwReturn: {
            if (context_.function_depth == 0) fail(begin.loc, "'return' outside function");
            skip();
            Return r;
            if (!at_statement_end()) {
                r.value = parse_star_expressions();
                if (r.value->is<Starred>()) fail(r.value->span.begin, "can't use starred expression here");
            }
            return make_stmt(begin, std::move(r));
        }
        case TokenKind::KwRaise: {
            skip();
            Raise r;
            if (!at_statement_end()) {
                r.exc = parse_expression();
                if (accept(TokenKind::KwFrom)) r.cause = parse_expression();
            }
            return make_stmt(begin, std::move(r));
        }
        case TokenKind::KwGlobal:
        case TokenKind::KwNonlocal: {
            bool is_global = at(TokenKind::KwGlobal);
            if (!is_global && context_.scope_depth == 0) {
                fail(begin.loc, "nonlocal declaration not allowed at module level");
            }
            skip();
            std::vector<std::string> names;
            do {
                names.push_back(expect_name());
            } while (accept(TokenKind::Comma));
            if (is_global) return make_stmt(begin, Global{std::move(names)});
            return make_stmt(begin, Nonlocal{std::move(names)});
        }
        case TokenKind::KwDel: {
            skip();
            Delete d;
            do {
                if (!starts_expression(kind()) && !d.targets.empty()) break;  // trailing comma
                if (at(TokenKind::Star)) fail(peek().span.begin, "cannot delete starred");
                ExprPtr t = parse_binary();
                validate_target(*t, TargetUse::Delete, false);
                d.targets.push_back(std::move(t));
            } while (accept(TokenKind::Comma));
            return make_stmt(begin, std::move(d));
        }
        case TokenKind::KwAssert: {
            skip();
            Assert a;
            a.test = parse_expression();
            if (accept(TokenKind::Comma)) a.msg = parse_expression();
            return make_stmt(begin, std::move(a));
        }
        case TokenKind::KwImport: return parse_import();
        case TokenKind::KwFrom: return parse_from_import();
        case TokenKind::Name:
            // Python 2's print statement, common in pasted snippets.
            if (peek().value == "print") {
                switch (kind(1)) {
                    case TokenKind::String: case TokenKind::FString: case TokenKind::Int: case TokenKind::Float:
                    case TokenKind::Name: case TokenKind::KwTrue: case TokenKind::KwFalse: case TokenKind::KwNone:
                        fail(begin.loc, "Missing parentheses in call to 'print'. Did you mean print(...)?");
                    default: break;
                }
            }
            break;
        default: break;
    }
    return parse_expression_statement();
}

StmtPtr Parser::parse_expression_statement() {
    Mark begin = start();
    ExprPtr first = parse_star_expressions();
    if (at(TokenKind::Equal)) {
        // Each target is checked when its '=' is seen, so `x = 1 =` blames the literal.
        std::vector<ExprPtr> items;
        items.push_back(std::move(first));
        while (at(TokenKind::Equal)) {
            validate_target(*items.back(), TargetUse::Assign, items.size() == 1);
            skip();
            if (at(TokenKind::KwYield)) fail_unexpected();
            items.push_back(parse_star_expressions());
        }
        ExprPtr value = std::move(items.back());
        items.pop_back();
        if (value->is<Starred>()) fail(value->span.begin, "can't use starred expression here");
        return make_stmt(begin, Assign{std::move(items), std::move(value)});
    }
    if (std::optional<BinOpKind> op = augassign_op(kind())) {
        if (!first->is<Name>() && !first->is<Attribute>() && !first->is<Subscript>()) {
            fail(first->span.begin, "'" + describe(*first) + "' is an illegal expression for augmented assignment");
        }
        skip();
        if (at(TokenKind::KwYield)) fail_unexpected();
        ExprPtr value = parse_star_expressions();
        if (value->is<Starred>()) fail(value->span.begin, "can't use starred expression here");
        return make_stmt(begin, AugAssign{std::move(first), *op, std::move(value)});
    }
    if (at(TokenKind::Colon)) fail(peek().span.begin, are_not_supported("variable annotations"));
    if (first->is<Starred>()) fail(first->span.begin, "can't use starred expression here");
    return make_stmt(begin, ExprStmt{std::move(first)});
}

Alias Parser::parse_alias(bool dotted) {
    Mark begin = start();
    Alias a;
    a.name = expect_name();
    while (dotted && accept(TokenKind::Dot)) {
        a.name += '.';
        a.name += expect_name();
    }
    if (accept(TokenKind::KwAs)) a.asname = expect_name();
    a.span = {begin.loc, prev_end_.loc};
    return a;
}

StmtPtr Parser::parse_import() {
    Mark begin = start();
    skip();
    Import imp;
    do {
        imp.names.push_back(parse_alias(true));
    } while (accept(TokenKind::Comma));
    return make_stmt(begin, std::move(imp));
}

StmtPtr Parser::parse_from_import() {
    Mark begin = start();
    skip();
    ImportFrom imp;
    for (;;) {
        if (accept(TokenKind::Dot)) {
            imp.level += 1;
        } else if (accept(TokenKind::Ellipsis)) {
            imp.level += 3;
        } else {
            break;
        }
    }
    if (at(TokenKind::Name)) {
        imp.module = expect_name();
        while (accept(TokenKind::Dot)) {
            imp.module += '.';
            imp.module += expect_name();
        }
    } else if (imp.level == 0) {
        fail_unexpected();
    }
    expect(TokenKind::KwImport);
    if (at(TokenKind::Star)) fail(peek().span.begin, quoted_not_supported("from ... import *"));
    if (at(TokenKind::LeftParen)) {
        SourceLoc open = skip();
        Nest nest(*this, open);
        do {
            if (at(TokenKind::RightParen) && !imp.names.empty()) break;
            imp.names.push_back(parse_alias(false));
        } while (accept(TokenKind::Comma));
        expect(TokenKind::RightParen);
    } else {
        for (;;) {
            imp.names.push_back(parse_alias(false));
            if (!at(TokenKind::Comma)) break;
            skip();
            if (!at(TokenKind::Name)) {
                fail(peek().span.begin, "trailing comma not allowed without surrounding parentheses");
            }
        }
    }
    return make_stmt(begin, std::move(imp));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Compound statements
// ---------------------------------------------------------------------------------------------

// The body after a header's ':' — an indented block, or simple statements on the same line.
Body Parser::parse_block(const std::string& header, int header_line) {
    Body body;
    if (!at(TokenKind::Newline)) {
        parse_simple_statements(body);
        return body;
    }
    skip();
    if (!at(TokenKind::Indent)) {
        fail(peek().span.begin,
             "expected an indented block after " + header + " on line " + std::to_string(header_line),
             "IndentationError");
    }
    Nest nest(*this, skip());
    while (!at(TokenKind::Dedent) && !at(TokenKind::EndMarker)) {
        if (at(TokenKind::Indent)) fail_unexpected();
        parse_statement(body);
    }
    accept(TokenKind::Dedent);
    return body;
}

StmtPtr Parser::parse_if() {
    struct Branch {
        Mark begin;
        ExprPtr test;
        Body body;
    };
    std::vector<Branch> branches;
    Body orelse;
    {
        Mark begin = start();
        int line = skip().line;
        ExprPtr test = parse_expression();
        expect_colon(true);
        Body body = parse_block("'if' statement", line);
        branches.push_back({begin, std::move(test), std::move(body)});
    }
    while (at(TokenKind::KwElif)) {
        Mark begin = start();
        int line = skip().line;
        ExprPtr test = parse_expression();
        expect_colon(true);
        Body body = parse_block("'elif' statement", line);
        branches.push_back({begin, std::move(test), std::move(body)});
    }
    if (at(TokenKind::KwElse)) {
        int line = skip().line;
        expect_colon(false);
        orelse = parse_block("'else' statement", line);
    }
    // Build the elif chain from the inside out: each elif is an If alone in an orelse.
    StmtPtr node;
    for (std::size_t i = branches.size(); i-- > 0;) {
        Body else_body;
        if (node) {
            else_body.push_back(std::move(node));
        } else {
            else_body = std::move(orelse);
        }
        node = make_stmt(branches[i].begin,
                         If{std::move(branches[i].test), std::move(branches[i].body), std::move(else_body)});
    }
    return node;
}

StmtPtr Parser::parse_for() {
    Mark begin = start();
    int line = skip().line;
    For f;
    f.target = parse_target_list();
    if (!accept(TokenKind::KwIn)) fail_unexpected();
    f.iter = parse_star_expressions();
    if (f.iter->is<Starred>()) fail(f.iter->span.begin, "can't use starred expression here");
    expect_colon(true);
    ++context_.loop_depth;
    f.body = parse_block("'for' statement", line);
    --context_.loop_depth;
    if (at(TokenKind::KwElse)) {
        int else_line = skip().line;
        expect_colon(false);
        f.orelse = parse_block("'else' statement", else_line);
    }
    return make_stmt(begin, std::move(f));
}

StmtPtr Parser::parse_while() {
    Mark begin = start();
    int line = skip().line;
    While w;
    w.test = parse_expression();
    expect_colon(true);
    ++context_.loop_depth;
    w.body = parse_block("'while' statement", line);
    --context_.loop_depth;
    if (at(TokenKind::KwElse)) {
        int else_line = skip().line;
        expect_colon(false);
        w.orelse = parse_block("'else' statement", else_line);
    }
    return make_stmt(begin, std::move(w));
}

StmtPtr Parser::parse_with() {
    Mark begin = start();
    int line = skip().line;
    if (at(TokenKind::KwAsync)) fail_unexpected();
    With w;
    auto parse_item = [&] {
        WithItem item;
        item.context_expr = parse_expression();
        if (accept(TokenKind::KwAs)) {
            item.optional_vars = parse_target_item();
            validate_target(*item.optional_vars, TargetUse::With, false);
        }
        w.items.push_back(std::move(item));
    };
    if (parenthesized_with_items()) {
        // Python 3.9+: `with (a as x, b as y):` lists items inside parentheses.
        SourceLoc open = skip();
        Nest nest(*this, open);
        do {
            if (at(TokenKind::RightParen) && !w.items.empty()) break;
            parse_item();
        } while (accept(TokenKind::Comma));
        expect(TokenKind::RightParen);
    } else {
        do {
            parse_item();
        } while (accept(TokenKind::Comma));
    }
    expect_colon(true);
    w.body = parse_block("'with' statement", line);
    return make_stmt(begin, std::move(w));
}

// After `with`: is it `( ... ):`, i.e. a parenthesised list of items rather than an
// expression that starts with a parenthesis (`with (a) as b:`, `with (a).b():`)?
bool Parser::parenthesized_with_items() {
    if (!at(TokenKind::LeftParen)) return false;
    int depth = 0;
    for (std::size_t k = 0;; ++k) {
        switch (kind(k)) {
            case TokenKind::LeftParen: case TokenKind::LeftBracket: case TokenKind::LeftBrace: ++depth; break;
            case TokenKind::RightParen: case TokenKind::RightBracket: case TokenKind::RightBrace:
                if (--depth == 0) return kind(k + 1) == TokenKind::Colon;
                break;
            case TokenKind::Newline: case TokenKind::EndMarker: return false;
            default: break;
        }
    }
}

StmtPtr Parser::parse_try() {
    Mark begin = start();
    int line = skip().line;
    expect_colon(false);
    Try t;
    t.body = parse_block("'try' statement", line);
    std::optional<SourceLoc> bare_except;
    while (at(TokenKind::KwExcept)) {
        Mark handler_begin = start();
        int handler_line = skip().line;
        if (bare_except) fail(*bare_except, "default 'except:' must be last");
        if (at(TokenKind::Star)) fail(handler_begin.loc, quoted_not_supported("except*"));
        ExceptHandler h;
        if (!at(TokenKind::Colon)) {
            h.type = parse_expression();
            if (at(TokenKind::Comma)) fail(h.type->span.begin, "multiple exception types must be parenthesized");
            if (accept(TokenKind::KwAs)) h.name = expect_name();
        } else {
            bare_except = handler_begin.loc;
        }
        expect_colon(h.type != nullptr && h.name.empty());
        h.body = parse_block("'except' statement", handler_line);
        h.span = {handler_begin.loc, prev_end_.loc};
        t.handlers.push_back(std::move(h));
    }
    if (at(TokenKind::KwElse)) {
        if (t.handlers.empty()) fail(peek().span.begin, "expected 'except' or 'finally' block");
        int else_line = skip().line;
        expect_colon(false);
        t.orelse = parse_block("'else' statement", else_line);
    }
    bool has_finally = false;
    if (at(TokenKind::KwFinally)) {
        has_finally = true;
        int finally_line = skip().line;
        expect_colon(false);
        t.finalbody = parse_block("'finally' statement", finally_line);
    }
    if (t.handlers.empty() && !has_finally) fail(peek().span.begin, "expected 'except' or 'finally' block");
    return make_stmt(begin, std::move(t));
}

StmtPtr Parser::parse_decorated() {
    std::vector<ExprPtr> decorators;
    while (at(TokenKind::At)) {
        skip();
        ExprPtr d = parse_expression();
        const Call* call = d->as<Call>();
        if (!is_dotted_name(d.get()) && !(call && is_dotted_name(call->func.get()))) {
            fail(d->span.begin, not_supported("this decorator form") + " (use @name, @a.b or @a.b(...))");
        }
        decorators.push_back(std::move(d));
        if (!at(TokenKind::Newline)) fail_unexpected();
        skip();
    }
    if (at(TokenKind::KwDef)) return parse_funcdef(start(), std::move(decorators));
    if (at(TokenKind::KwClass)) return parse_classdef(start(), std::move(decorators));
    fail_unexpected();
}

StmtPtr Parser::parse_funcdef(Mark begin, std::vector<ExprPtr> decorators) {
    int line = skip().line;
    FunctionDef f;
    f.name = expect_name();
    f.decorators = std::move(decorators);
    if (!at(TokenKind::LeftParen)) fail_unexpected();
    {
        SourceLoc open = skip();
        Nest nest(*this, open);
        f.params = parse_params();
        expect(TokenKind::RightParen);
    }
    if (accept(TokenKind::Arrow)) f.returns = parse_expression();
    expect_colon(f.returns != nullptr);
    Context saved = context_;
    context_.function_depth += 1;
    context_.loop_depth = 0;
    context_.scope_depth += 1;
    f.body = parse_block("function definition", line);
    context_ = saved;
    return make_stmt(begin, std::move(f));
}

std::vector<Param> Parser::parse_params() {
    std::vector<Param> params;
    std::unordered_set<std::string> seen;
    bool seen_default = false, seen_star = false, seen_double_star = false;
    std::optional<SourceLoc> bare_star;  // a bare '*' still waiting for a keyword-only parameter
    auto add = [&](Param p, SourceLoc loc) {
        if (!seen.insert(p.name).second) fail(loc, "duplicate argument '" + p.name + "' in function definition");
        params.push_back(std::move(p));
    };
    while (!at(TokenKind::RightParen)) {
        Mark begin = start();
        if (seen_double_star) fail(begin.loc, "arguments cannot follow var-keyword argument");
        if (at(TokenKind::Slash)) fail(begin.loc, are_not_supported("positional-only parameters ('/')"));
        Param p;
        if (accept(TokenKind::DoubleStar)) {
            SourceLoc name_loc = peek().span.begin;
            p.name = expect_name();
            p.kind = ParamKind::VarKeyword;
            if (accept(TokenKind::Colon)) p.annotation = parse_expression();
            if (at(TokenKind::Equal)) fail(peek().span.begin, "var-keyword argument cannot have default value");
            seen_double_star = true;
            p.span = {begin.loc, prev_end_.loc};
            add(std::move(p), name_loc);
        } else if (accept(TokenKind::Star)) {
            if (seen_star) fail(begin.loc, "* argument may appear only once");
            seen_star = true;
            if (at(TokenKind::Name)) {
                SourceLoc name_loc = peek().span.begin;
                p.name = expect_name();
                p.kind = ParamKind::VarPositional;
                if (accept(TokenKind::Colon)) p.annotation = parse_expression();
                if (at(TokenKind::Equal)) fail(peek().span.begin, "var-positional argument cannot have default value");
                p.span = {begin.loc, prev_end_.loc};
                add(std::move(p), name_loc);
            } else {
                bare_star = begin.loc;
            }
        } else {
            SourceLoc name_loc = peek().span.begin;
            p.name = expect_name();
            p.kind = seen_star ? ParamKind::KeywordOnly : ParamKind::Positional;
            if (accept(TokenKind::Colon)) p.annotation = parse_expression();
            if (accept(TokenKind::Equal)) {
                p.default_value = parse_expression();
                if (!seen_star) seen_default = true;
            } else if (seen_default && !seen_star) {
                fail(name_loc, "non-default argument follows default argument");
            }
            if (seen_star) bare_star.reset();
            p.span = {begin.loc, prev_end_.loc};
            add(std::move(p), name_loc);
        }
        if (!accept(TokenKind::Comma)) break;
    }
    if (bare_star) fail(*bare_star, "named arguments must follow bare *");
    return params;
}

StmtPtr Parser::parse_classdef(Mark begin, std::vector<ExprPtr> decorators) {
    int line = skip().line;
    ClassDef c;
    c.name = expect_name();
    c.decorators = std::move(decorators);
    if (at(TokenKind::LeftParen)) {
        SourceLoc open = skip();
        Nest nest(*this, open);
        parse_call_arguments(c.bases, c.keywords);
        // One base class: a second one would be dropped silently at run time.
        if (c.bases.size() > 1) fail(c.bases[1]->span.begin, not_supported("multiple inheritance"));
    }
    expect_colon(false);
    Context saved = context_;
    context_.function_depth = 0;
    context_.loop_depth = 0;
    context_.scope_depth += 1;
    c.body = parse_block("class definition", line);
    context_ = saved;
    return make_stmt(begin, std::move(c));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Targets
// ---------------------------------------------------------------------------------------------

ExprPtr Parser::parse_target_item() {
    if (at(TokenKind::Star)) {
        Mark begin = start();
        skip();
        ExprPtr value = parse_binary();
        return make_expr(begin, Starred{std::move(value)});
    }
    return parse_binary();  // stops before `in`, `=` and `as`
}

ExprPtr Parser::parse_target_list() {
    Mark begin = start();
    ExprPtr first = parse_target_item();
    if (!at(TokenKind::Comma)) {
        validate_target(*first, TargetUse::For, false);
        return first;
    }
    std::vector<ExprPtr> elts;
    elts.push_back(std::move(first));
    while (accept(TokenKind::Comma)) {
        if (!starts_expression(kind())) break;
        elts.push_back(parse_target_item());
    }
    ExprPtr tuple = make_expr(begin, Tuple{std::move(elts), false});
    validate_target(*tuple, TargetUse::For, false);
    return tuple;
}

void Parser::validate_target(const Expr& e, TargetUse use, bool assignment_hint) {
    switch (e.kind()) {
        case ExprKind::Name:
        case ExprKind::Attribute:
        case ExprKind::Subscript:
            return;
        case ExprKind::Tuple:
        case ExprKind::List: {
            const auto& elts = e.is<Tuple>() ? e.as<Tuple>()->elts : e.as<List>()->elts;
            int starred = 0;
            for (const auto& elt : elts) {
                if (const Starred* s = elt->as<Starred>()) {
                    if (use == TargetUse::Delete) fail(elt->span.begin, "cannot delete starred");
                    if (++starred > 1) fail(e.span.begin, "multiple starred expressions in assignment");
                    validate_target(*s->value, use, false);
                } else {
                    validate_target(*elt, use, false);
                }
            }
            return;
        }
        case ExprKind::Starred:
            if (use == TargetUse::Delete) fail(e.span.begin, "cannot delete starred");
            fail(e.span.begin, "starred assignment target must be in a list or tuple");
        default: break;
    }
    if (use == TargetUse::Delete) fail(e.span.begin, "cannot delete " + describe(e));
    std::string message = "cannot assign to " + describe(e);
    // (CPython gives no hint for a generator expression: its parentheses are its own.)
    if (assignment_hint && !is_keyword_constant(e) && describe(e) != "generator expression")
        message += " here. Maybe you meant '==' instead of '='?";
    fail(e.span.begin, message);
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Expressions
// ---------------------------------------------------------------------------------------------

ExprPtr Parser::parse_star_expressions() {
    Mark begin = start();
    ExprPtr first = parse_star_expression();
    if (!at(TokenKind::Comma)) return first;
    std::vector<ExprPtr> elts;
    elts.push_back(std::move(first));
    while (accept(TokenKind::Comma)) {
        if (!starts_expression(kind())) break;
        elts.push_back(parse_star_expression());
    }
    return make_expr(begin, Tuple{std::move(elts), false});
}

ExprPtr Parser::parse_star_expression() {
    if (!at(TokenKind::Star)) return parse_expression();
    Mark begin = start();
    skip();
    ExprPtr value = parse_binary();
    return make_expr(begin, Starred{std::move(value)});
}

ExprPtr Parser::parse_expression() {
    if (at(TokenKind::KwLambda)) fail_unexpected();
    Mark begin = start();
    ExprPtr body = parse_disjunction();
    if (at(TokenKind::KwIf)) {
        skip();
        ExprPtr test = parse_disjunction();
        if (!at(TokenKind::KwElse)) fail(begin.loc, "expected 'else' after 'if' expression");
        SourceLoc else_loc = skip();
        // `a if b else c if d else ...` recurses once per `else`.
        Nest nest(*this, else_loc);
        ExprPtr orelse = parse_expression();
        body = make_expr(begin, IfExp{std::move(test), std::move(body), std::move(orelse)});
    }
    if (at(TokenKind::ColonEqual)) fail_unexpected();  // the walrus operator
    return body;
}

ExprPtr Parser::parse_disjunction() {
    Mark begin = start();
    ExprPtr first = parse_conjunction();
    if (!at(TokenKind::KwOr)) return first;
    std::vector<ExprPtr> values;
    values.push_back(std::move(first));
    while (accept(TokenKind::KwOr)) values.push_back(parse_conjunction());
    return make_expr(begin, BoolOp{BoolOpKind::Or, std::move(values)});
}

ExprPtr Parser::parse_conjunction() {
    Mark begin = start();
    ExprPtr first = parse_inversion();
    if (!at(TokenKind::KwAnd)) return first;
    std::vector<ExprPtr> values;
    values.push_back(std::move(first));
    while (accept(TokenKind::KwAnd)) values.push_back(parse_inversion());
    return make_expr(begin, BoolOp{BoolOpKind::And, std::move(values)});
}

ExprPtr Parser::parse_inversion() {
    if (!at(TokenKind::KwNot)) return parse_comparison();
    Mark begin = start();
    Nest nest(*this, skip());
    ExprPtr operand = parse_inversion();
    return make_expr(begin, UnaryOp{UnaryOpKind::Not, std::move(operand)});
}

ExprPtr Parser::parse_comparison() {
    Mark begin = start();
    ExprPtr left = parse_binary();
    Compare cmp;
    for (;;) {
        std::optional<CmpOpKind> op;
        switch (kind()) {
            case TokenKind::Less: op = CmpOpKind::Lt; break;
            case TokenKind::Greater: op = CmpOpKind::Gt; break;
            case TokenKind::LessEqual: op = CmpOpKind::LtE; break;
            case TokenKind::GreaterEqual: op = CmpOpKind::GtE; break;
            case TokenKind::EqEqual: op = CmpOpKind::Eq; break;
            case TokenKind::NotEqual: op = CmpOpKind::NotEq; break;
            case TokenKind::KwIn: op = CmpOpKind::In; break;
            case TokenKind::KwNot:
                if (kind(1) == TokenKind::KwIn) op = CmpOpKind::NotIn;
                break;
            case TokenKind::KwIs: op = kind(1) == TokenKind::KwNot ? CmpOpKind::IsNot : CmpOpKind::Is; break;
            default: break;
        }
        if (!op) break;
        skip();
        if (*op == CmpOpKind::NotIn || *op == CmpOpKind::IsNot) skip();
        cmp.ops.push_back(*op);
        cmp.comparators.push_back(parse_binary());
    }
    if (cmp.ops.empty()) return left;
    cmp.left = std::move(left);
    return make_expr(begin, std::move(cmp));
}

// The six left-associative binary levels (| ^ & shifts +- */%//@) by precedence climbing:
// one loop per level actually in use, instead of one stack frame per level for every operand.
ExprPtr Parser::parse_binary() {
    Mark begin = start();
    ExprPtr left = parse_factor();
    return parse_binary_tail(begin, std::move(left), 0);
}

ExprPtr Parser::parse_binary_tail(Mark begin, ExprPtr left, int min_level) {
    for (;;) {
        int level = binary_level(kind());
        if (level < min_level) return left;
        BinOpKind op = *binary_op(kind(), level);
        SourceLoc op_loc = skip();
        Mark right_begin = start();
        ExprPtr right = parse_factor();
        while (binary_level(kind()) > level) right = parse_binary_tail(right_begin, std::move(right), level + 1);
        left = make_expr(begin, BinOp{std::move(left), op, std::move(right)}, op_loc);
    }
}

ExprPtr Parser::parse_factor() {
    UnaryOpKind op;
    switch (kind()) {
        case TokenKind::Minus: op = UnaryOpKind::Neg; break;
        case TokenKind::Plus: op = UnaryOpKind::Pos; break;
        case TokenKind::Tilde: op = UnaryOpKind::Invert; break;
        default: return parse_power();
    }
    Mark begin = start();
    Nest nest(*this, skip());
    ExprPtr operand = parse_factor();
    return make_expr(begin, UnaryOp{op, std::move(operand)});
}

ExprPtr Parser::parse_power() {
    if (at(TokenKind::KwAwait)) fail_unexpected();
    Mark begin = start();
    ExprPtr base = parse_primary();
    if (!at(TokenKind::DoubleStar)) return base;
    SourceLoc op_loc = skip();
    Nest nest(*this, op_loc);  // `**` is right-associative: it recurses
    ExprPtr exponent = parse_factor();
    return make_expr(begin, BinOp{std::move(base), BinOpKind::Pow, std::move(exponent)}, op_loc);
}

ExprPtr Parser::parse_primary() {
    Mark begin = start();
    ExprPtr e = parse_atom();
    for (;;) {
        if (at(TokenKind::Dot)) {
            SourceLoc loc = skip();
            std::string attr = expect_name();
            e = make_expr(begin, Attribute{std::move(e), std::move(attr)}, loc);
        } else if (at(TokenKind::LeftParen)) {
            SourceLoc open = skip();
            Call call;
            {
                Nest nest(*this, open);
                parse_call_arguments(call.args, call.keywords);
            }
            call.func = std::move(e);
            e = make_expr(begin, std::move(call), open);
        } else if (at(TokenKind::LeftBracket)) {
            SourceLoc open = skip();
            ExprPtr index;
            {
                Nest nest(*this, open);
                index = parse_slices();
                expect(TokenKind::RightBracket);
            }
            e = make_expr(begin, Subscript{std::move(e), std::move(index)}, open);
        } else {
            return e;
        }
    }
}

// After '(' of a call or class header, through the closing ')'.
void Parser::parse_call_arguments(std::vector<ExprPtr>& args, std::vector<Keyword>& keywords) {
    bool seen_keyword = false, seen_double_star = false;
    std::unordered_set<std::string> keyword_names;
    while (!at(TokenKind::RightParen)) {
        Mark begin = start();
        if (at(TokenKind::Star)) {
            skip();
            ExprPtr value = parse_expression();
            if (seen_double_star) fail(begin.loc, "iterable argument unpacking follows keyword argument unpacking");
            args.push_back(make_expr(begin, Starred{std::move(value)}));
        } else if (at(TokenKind::DoubleStar)) {
            skip();
            Keyword k;
            k.value = parse_expression();
            k.span = {begin.loc, prev_end_.loc};
            keywords.push_back(std::move(k));
            seen_double_star = true;
        } else if (at(TokenKind::Name) && kind(1) == TokenKind::Equal) {
            Keyword k;
            k.name = take().value;
            skip();
            if (!keyword_names.insert(k.name).second) fail(begin.loc, "keyword argument repeated: " + k.name);
            k.value = parse_expression();
            k.span = {begin.loc, prev_end_.loc};
            keywords.push_back(std::move(k));
            seen_keyword = true;
        } else {
            ExprPtr value = parse_expression();
            if (at(TokenKind::KwFor) || at(TokenKind::KwAsync)) {
                // `f(x for x in xs)`: a generator expression as the only argument.
                if (value->is<Starred>()) fail(value->span.begin, "iterable unpacking cannot be used in comprehension");
                value = make_comprehension(begin, kGenExprName, std::move(value), parse_comprehension_clauses());
                if (!args.empty() || !keywords.empty() || !at(TokenKind::RightParen))
                    fail(begin.loc, "Generator expression must be parenthesized");
            }
            if (at(TokenKind::Equal)) fail(begin.loc, "expression cannot contain assignment, perhaps you meant \"==\"?");
            if (seen_double_star) fail(begin.loc, "positional argument follows keyword argument unpacking");
            if (seen_keyword) fail(begin.loc, "positional argument follows keyword argument");
            args.push_back(std::move(value));
        }
        check_missing_comma(begin);
        if (!accept(TokenKind::Comma)) break;
    }
    expect(TokenKind::RightParen);
}

ExprPtr Parser::parse_slices() {
    Mark begin = start();
    ExprPtr first = parse_slice_item();
    if (!at(TokenKind::Comma) && !first->is<Starred>()) {
        check_missing_comma(begin);
        return first;
    }
    std::vector<ExprPtr> elts;
    elts.push_back(std::move(first));
    while (accept(TokenKind::Comma)) {
        if (at(TokenKind::RightBracket)) break;
        Mark item = start();
        elts.push_back(parse_slice_item());
        check_missing_comma(item);
    }
    return make_expr(begin, Tuple{std::move(elts), false});
}

ExprPtr Parser::parse_slice_item() {
    Mark begin = start();
    if (at(TokenKind::Star)) return parse_star_expression();
    Slice s;
    if (!at(TokenKind::Colon)) {
        ExprPtr lower = parse_expression();
        if (!at(TokenKind::Colon)) return lower;
        s.lower = std::move(lower);
    }
    skip();  // ':'
    auto ends_part = [&] {
        return at(TokenKind::Colon) || at(TokenKind::Comma) || at(TokenKind::RightBracket);
    };
    if (!ends_part()) s.upper = parse_expression();
    if (accept(TokenKind::Colon)) {
        if (!at(TokenKind::Comma) && !at(TokenKind::RightBracket)) s.step = parse_expression();
    }
    return make_expr(begin, std::move(s));
}

// ---------------------------------------------------------------------------------------------
// [SECTION] Atoms, strings and f-strings
// ---------------------------------------------------------------------------------------------

ExprPtr Parser::parse_atom() {
    Mark begin = start();
    switch (kind()) {
        case TokenKind::Name: {
            std::string id = take().value;
            return make_expr(begin, Name{std::move(id)});
        }
        case TokenKind::Int: {
            std::int64_t v = take().int_value;
            return make_expr(begin, Constant{v});
        }
        case TokenKind::Float: {
            double v = take().float_value;
            return make_expr(begin, Constant{v});
        }
        case TokenKind::KwTrue: skip(); return make_expr(begin, Constant{true});
        case TokenKind::KwFalse: skip(); return make_expr(begin, Constant{false});
        case TokenKind::KwNone: skip(); return make_expr(begin, Constant{NoneValue{}});
        case TokenKind::Ellipsis: skip(); return make_expr(begin, Name{"Ellipsis"});
        case TokenKind::String:
        case TokenKind::FString: return parse_strings();
        case TokenKind::LeftParen: return parse_paren();
        case TokenKind::LeftBracket: return parse_list();
        case TokenKind::LeftBrace: return parse_brace();
        default: fail_unexpected();
    }
}

ExprPtr Parser::parse_paren() {
    Mark begin = start();
    Nest nest(*this, skip());
    if (accept(TokenKind::RightParen)) return make_expr(begin, Tuple{{}, true});
    if (at(TokenKind::KwYield)) fail_unexpected();
    Mark first_begin = start();
    ExprPtr first = parse_star_expression();
    if (at(TokenKind::KwFor) || at(TokenKind::KwAsync)) {
        if (first->is<Starred>()) fail(first->span.begin, "iterable unpacking cannot be used in comprehension");
        std::vector<Comprehension> generators = parse_comprehension_clauses();
        expect(TokenKind::RightParen);
        return make_comprehension(begin, kGenExprName, std::move(first), std::move(generators));
    }
    if (at(TokenKind::Equal)) fail(first_begin.loc, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
    check_missing_comma(first_begin);
    if (!at(TokenKind::Comma)) {
        expect(TokenKind::RightParen);
        if (first->is<Starred>()) fail(first->span.begin, "cannot use starred expression here");
        return first;  // a parenthesised expression keeps its own span
    }
    std::vector<ExprPtr> elts;
    elts.push_back(std::move(first));
    while (accept(TokenKind::Comma)) {
        if (at(TokenKind::RightParen)) break;
        Mark item = start();
        elts.push_back(parse_star_expression());
        check_missing_comma(item);
    }
    expect(TokenKind::RightParen);
    return make_expr(begin, Tuple{std::move(elts), true});
}

ExprPtr Parser::parse_list() {
    Mark begin = start();
    Nest nest(*this, skip());
    if (accept(TokenKind::RightBracket)) return make_expr(begin, List{});
    Mark first_begin = start();
    ExprPtr first = parse_star_expression();
    if (at(TokenKind::KwFor) || at(TokenKind::KwAsync)) {
        if (first->is<Starred>()) fail(first->span.begin, "iterable unpacking cannot be used in comprehension");
        std::vector<Comprehension> generators = parse_comprehension_clauses();
        expect(TokenKind::RightBracket);
        return make_expr(begin, ListComp{std::move(first), std::move(generators)});
    }
    check_missing_comma(first_begin);
    std::vector<ExprPtr> elts;
    elts.push_back(std::move(first));
    while (accept(TokenKind::Comma)) {
        if (at(TokenKind::RightBracket)) break;
        Mark item = start();
        elts.push_back(parse_star_expression());
        check_missing_comma(item);
    }
    expect(TokenKind::RightBracket);
    return make_expr(begin, List{std::move(elts)});
}

// A generator expression or dict comprehension: a call of the reserved name `kind`
// (no identifier can spell it) with the list comprehension as its argument.
ExprPtr Parser::make_comprehension(Mark begin, const char* kind, ExprPtr elt, std::vector<Comprehension> generators) {
    Call c;
    c.func = make_expr(begin, Name{kind});
    c.args.push_back(make_expr(begin, ListComp{std::move(elt), std::move(generators)}));
    return make_expr(begin, std::move(c));
}

std::vector<Comprehension> Parser::parse_comprehension_clauses() {
    std::vector<Comprehension> generators;
    while (at(TokenKind::KwFor) || at(TokenKind::KwAsync)) {
        if (at(TokenKind::KwAsync)) fail_unexpected();
        skip();
        Comprehension c;
        c.target = parse_target_list();
        if (!accept(TokenKind::KwIn)) fail_unexpected();
        c.iter = parse_disjunction();
        while (accept(TokenKind::KwIf)) c.ifs.push_back(parse_disjunction());
        generators.push_back(std::move(c));
    }
    return generators;
}

ExprPtr Parser::parse_brace() {
    Mark begin = start();
    Nest nest(*this, skip());
    if (accept(TokenKind::RightBrace)) return make_expr(begin, Dict{});
    auto refuse_double_star = [&] {
        if (at(TokenKind::DoubleStar)) fail(peek().span.begin, not_supported("'**' unpacking in dict literals"));
    };
    refuse_double_star();
    if (at(TokenKind::Star)) fail(begin.loc, are_not_supported("set literals"));
    Dict d;
    ExprPtr key = parse_expression();
    if (!at(TokenKind::Colon)) {
        if (at(TokenKind::KwFor) || at(TokenKind::KwAsync)) fail(begin.loc, are_not_supported("set comprehensions"));
        fail(begin.loc, are_not_supported("set literals"));
    }
    skip();
    ExprPtr value = parse_expression();
    if (at(TokenKind::KwFor) || at(TokenKind::KwAsync)) {
        // {k: v for ...}: the comprehension of (k, v) pairs, made a dict.
        std::vector<ExprPtr> pair;
        pair.push_back(std::move(key));
        pair.push_back(std::move(value));
        ExprPtr elt = make_expr(begin, Tuple{std::move(pair), false});
        std::vector<Comprehension> generators = parse_comprehension_clauses();
        expect(TokenKind::RightBrace);
        return make_comprehension(begin, kDictCompName, std::move(elt), std::move(generators));
    }
    d.keys.push_back(std::move(key));
    d.values.push_back(std::move(value));
    while (accept(TokenKind::Comma)) {
        if (at(TokenKind::RightBrace)) break;
        refuse_double_star();
        Mark key_begin = start();
        key = parse_expression();
        if (!at(TokenKind::Colon)) fail(key_begin.loc, "':' expected after dictionary key");
        skip();
        d.keys.push_back(std::move(key));
        d.values.push_back(parse_expression());
    }
    expect(TokenKind::RightBrace);
    return make_expr(begin, std::move(d));
}

// Adjacent string literals concatenate; any f-string among them makes the result an FString.
ExprPtr Parser::parse_strings() {
    Mark begin = start();
    bool any_fstring = false;
    std::vector<FStringPart> parts;
    while (at(TokenKind::String) || at(TokenKind::FString)) {
        Token t = take();
        if (t.kind == TokenKind::String) {
            append_literal(parts, t.value);
        } else {
            any_fstring = true;
            parse_fstring(t, parts);
        }
    }
    if (!any_fstring) return make_expr(begin, Constant{parts.empty() ? std::string() : std::move(parts[0].literal)});
    return make_expr(begin, FString{std::move(parts)});
}

// Splits an f-string's raw text into literal parts and replacement fields (Python 3.11 rules:
// no backslash or '#' inside a field; `{{`/`}}` are literal braces).
void Parser::parse_fstring(const Token& t, std::vector<FStringPart>& parts) {
    std::string_view text = source_.text;
    const std::uint32_t end = std::min<std::uint32_t>(t.content_end, static_cast<std::uint32_t>(text.size()));
    LocCursor cursor(text, t.content_begin, t.content_loc);
    std::string pending;  // raw literal text not yet decoded
    auto flush = [&] {
        if (pending.empty()) return;
        if (t.raw) {
            append_literal(parts, pending);
        } else {
            std::string decoded, error;
            if (!decode_escapes(pending, decoded, error)) fail(t.span.begin, error);
            append_literal(parts, decoded);
        }
        pending.clear();
    };
    std::uint32_t i = t.content_begin;
    while (i < end) {
        char c = text[i];
        if (c == '\\' && !t.raw) {
            if (i + 2 < end && text[i + 1] == 'N' && text[i + 2] == '{') {
                fail(cursor.at(i), "'\\N{...}' escapes are not supported in tape scripts");
            }
            // Keep an escape pair together, except before a brace: "\{" is a backslash and a field.
            if (i + 1 < end && text[i + 1] != '{' && text[i + 1] != '}') {
                pending.append(text.substr(i, 2));
                i += 2;
            } else {
                pending += '\\';
                i += 1;
            }
            continue;
        }
        if (c == '{') {
            if (i + 1 < end && text[i + 1] == '{') {
                pending += '{';
                i += 2;
                continue;
            }
            flush();
            i = parse_fstring_field(t, i, cursor, parts);
            continue;
        }
        if (c == '}') {
            if (i + 1 < end && text[i + 1] == '}') {
                pending += '}';
                i += 2;
                continue;
            }
            fail(cursor.at(i), "f-string: single '}' is not allowed");
        }
        pending += c;
        ++i;
    }
    flush();
}

// Parses the field whose '{' is at `open`; returns the offset after its '}'.
std::uint32_t Parser::parse_fstring_field(const Token& t, std::uint32_t open, LocCursor& cursor,
                                          std::vector<FStringPart>& parts) {
    std::string_view text = source_.text;
    const std::uint32_t end = std::min<std::uint32_t>(t.content_end, static_cast<std::uint32_t>(text.size()));
    const SourceLoc open_loc = cursor.at(open);
    Nest nest(*this, open_loc);
    auto expecting = [&]() { fail(open_loc, "f-string: expecting '}'"); };

    // Find where the expression ends: at depth 0, '}', '!' (not '!='), ':' or a '=' specifier.
    const std::uint32_t expr_begin = open + 1;
    std::uint32_t k = expr_begin;
    std::optional<std::uint32_t> debug_equal;  // f'{x=}'
    int depth = 0;
    for (;;) {
        if (k >= end) expecting();
        char ch = text[k];
        if (ch == '\\') fail(cursor.at(k), "f-string expression part cannot include a backslash");
        if (ch == '#') fail(cursor.at(k), "f-string expression part cannot include '#'");
        if (ch == '\'' || ch == '"') {
            bool triple = k + 2 < end && text[k + 1] == ch && text[k + 2] == ch;
            std::uint32_t q = k + (triple ? 3 : 1);
            for (;; ++q) {
                if (q >= end) fail(cursor.at(k), "f-string: unterminated string");
                if (text[q] == ch && (!triple || (q + 2 < end && text[q + 1] == ch && text[q + 2] == ch))) break;
            }
            k = q + (triple ? 3 : 1);
            continue;
        }
        if (ch == '(' || ch == '[' || ch == '{') {
            ++depth;
        } else if (ch == ')' || ch == ']' || ch == '}') {
            if (depth == 0) {
                if (ch == '}') break;
                fail(cursor.at(k), std::string("f-string: unmatched '") + ch + "'");
            }
            --depth;
        } else if (depth == 0) {
            bool next_is_equal = k + 1 < end && text[k + 1] == '=';
            if (ch == '!' && !next_is_equal) break;
            if (ch == ':') break;
            if (ch == '=' && !next_is_equal && !(k > expr_begin && std::strchr("=!<>", text[k - 1]) != nullptr)) {
                debug_equal = k;
                ++k;
                while (k < end && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\f')) ++k;
                if (k >= end) expecting();
                break;
            }
        }
        ++k;
    }
    const std::uint32_t expr_end = debug_equal.value_or(k);
    std::string_view expr_text = text.substr(expr_begin, expr_end - expr_begin);
    if (expr_text.find_first_not_of(" \t\n\f") == std::string_view::npos) {
        fail(open_loc, "f-string: empty expression not allowed");
    }

    FStringPart part;
    {
        LexerOptions options;
        options.begin = expr_begin;
        options.end = expr_end;
        options.start = cursor.at(expr_begin);
        options.expression_mode = true;
        options.base_depth = nesting_;
        Parser sub(source_, options, nesting_);
        try {
            part.value = sub.parse_lone_expression();
        } catch (const ScriptException& ex) {
            ScriptError error = ex.error();
            if (error.type == "SyntaxError" && error.message.rfind("f-string", 0) != 0 &&
                error.message != nesting_message()) {
                error.message = "f-string: " + error.message;
            }
            throw ScriptException(std::move(error));
        }
    }
    if (debug_equal) {
        // Python prints the text up to and including '=' (and the spaces after it), then repr.
        append_literal(parts, text.substr(expr_begin, k - expr_begin));
    }
    if (text[k] == '!') {
        ++k;
        if (k >= end) expecting();
        char conversion = text[k];
        if (conversion != 's' && conversion != 'r' && conversion != 'a') {
            fail(cursor.at(k), "f-string: invalid conversion character: expected 's', 'r', or 'a'");
        }
        part.conversion = conversion;
        ++k;
        if (k >= end || (text[k] != ':' && text[k] != '}')) expecting();
    }
    if (text[k] == ':') {
        ++k;
        std::uint32_t spec_begin = k;
        for (;; ++k) {
            if (k >= end) expecting();
            if (text[k] == '{') fail(cursor.at(k), are_not_supported("nested replacement fields in f-string format specs"));
            if (text[k] == '}') break;
        }
        std::string_view spec = text.substr(spec_begin, k - spec_begin);
        if (t.raw) {
            part.format_spec = std::string(spec);
        } else {
            std::string error;
            if (!decode_escapes(spec, part.format_spec, error)) fail(t.span.begin, error);
        }
    }
    if (debug_equal && part.conversion == 0 && part.format_spec.empty()) part.conversion = 'r';
    parts.push_back(std::move(part));
    return k + 1;  // past '}'
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// [SECTION] Public entry points
// ---------------------------------------------------------------------------------------------

Module parse_module(std::shared_ptr<const SourceText> source) {
    Module m;
    m.source = std::move(source);
    Parser parser(*m.source, LexerOptions{}, 0);
    m.body = parser.parse_file_input();
    return m;
}

Module parse_module(std::string text, std::string file_name) {
    return parse_module(make_source(std::move(text), std::move(file_name)));
}

Module parse_file(const std::string& path, std::string display_name) {
    if (display_name.empty()) display_name = path;
    auto os_error = [&](const char* type, const std::string& message) {
        return ScriptException(ScriptError{type, message, display_name, 0, 0});
    };
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        throw os_error("FileNotFoundError", "[Errno 2] No such file or directory: '" + path + "'");
    }
    if (std::filesystem::is_directory(path, ec)) {
        throw os_error("IsADirectoryError", "[Errno 21] Is a directory: '" + path + "'");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw os_error("OSError", "cannot open '" + path + "'");
    in.seekg(0, std::ios::end);
    std::streamoff size = in.tellg();
    // Refuse before reading: a huge file should cost nothing.
    if (size > static_cast<std::streamoff>(kMaxScriptBytes)) {
        throw os_error("ResourceError", "script too large (" + std::to_string(size) + " bytes; the limit is " +
                                            std::to_string(kMaxScriptBytes) + ")");
    }
    in.seekg(0, std::ios::beg);
    std::string text(static_cast<std::size_t>(std::max<std::streamoff>(size, 0)), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(std::max<std::streamsize>(in.gcount(), 0)));
    return parse_module(make_source(std::move(text), std::move(display_name)));
}

ParsedExpression parse_expression(std::string text, std::string file_name) {
    ParsedExpression out;
    out.source = make_source(std::move(text), std::move(file_name));
    LexerOptions options;
    options.expression_mode = true;
    Parser parser(*out.source, options, 0);
    out.expr = parser.parse_lone_expression();
    return out;
}

// ---------------------------------------------------------------------------------------------
// [SECTION] dump
// ---------------------------------------------------------------------------------------------

namespace {

const char* op_name(BinOpKind op) {
    switch (op) {
        case BinOpKind::Add: return "Add";
        case BinOpKind::Sub: return "Sub";
        case BinOpKind::Mult: return "Mult";
        case BinOpKind::Div: return "Div";
        case BinOpKind::FloorDiv: return "FloorDiv";
        case BinOpKind::Mod: return "Mod";
        case BinOpKind::Pow: return "Pow";
        case BinOpKind::MatMult: return "MatMult";
        case BinOpKind::LShift: return "LShift";
        case BinOpKind::RShift: return "RShift";
        case BinOpKind::BitOr: return "BitOr";
        case BinOpKind::BitXor: return "BitXor";
        case BinOpKind::BitAnd: return "BitAnd";
    }
    return "?";
}

const char* op_name(UnaryOpKind op) {
    switch (op) {
        case UnaryOpKind::Neg: return "USub";
        case UnaryOpKind::Pos: return "UAdd";
        case UnaryOpKind::Not: return "Not";
        case UnaryOpKind::Invert: return "Invert";
    }
    return "?";
}

const char* op_name(CmpOpKind op) {
    switch (op) {
        case CmpOpKind::Eq: return "Eq";
        case CmpOpKind::NotEq: return "NotEq";
        case CmpOpKind::Lt: return "Lt";
        case CmpOpKind::LtE: return "LtE";
        case CmpOpKind::Gt: return "Gt";
        case CmpOpKind::GtE: return "GtE";
        case CmpOpKind::Is: return "Is";
        case CmpOpKind::IsNot: return "IsNot";
        case CmpOpKind::In: return "In";
        case CmpOpKind::NotIn: return "NotIn";
    }
    return "?";
}

// Quoted with printable ASCII kept and every other byte as \xNN.
void dump_string(std::string& out, std::string_view s) {
    out += '\'';
    for (char c : s) {
        auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7F && c != '\\' && c != '\'') {
            out += c;
        } else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", u);
            out += buf;
        }
    }
    out += '\'';
}

class Dumper {
public:
    std::string out;

    void expr(const Expr* e) {
        if (!e) {
            out += '-';
            return;
        }
        std::visit([&](const auto& n) { node(n); }, e->node);
    }
    void exprs(const std::vector<ExprPtr>& v) {
        out += '[';
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) out += ", ";
            expr(v[i].get());
        }
        out += ']';
    }
    void keywords(const std::vector<Keyword>& v) {
        out += '[';
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) out += ", ";
            out += v[i].name.empty() ? "**" : v[i].name + "=";
            expr(v[i].value.get());
        }
        out += ']';
    }

    void node(const Constant& n) {
        out += "Constant(";
        std::visit(
            [&](const auto& v) {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, NoneValue>) {
                    out += "None";
                } else if constexpr (std::is_same_v<T, bool>) {
                    out += v ? "True" : "False";
                } else if constexpr (std::is_same_v<T, std::int64_t>) {
                    out += std::to_string(v);
                } else if constexpr (std::is_same_v<T, double>) {
                    char buf[40];
                    std::snprintf(buf, sizeof buf, "%.17g", v);
                    out += buf;
                    // Keep floats apart from ints: 1.0 dumps as "1.0", not "1".
                    if (std::strpbrk(buf, ".eni") == nullptr) out += ".0";
                } else {
                    dump_string(out, v);
                }
            },
            n.value);
        out += ')';
    }
    void node(const FString& n) {
        out += "FString(";
        for (std::size_t i = 0; i < n.parts.size(); ++i) {
            if (i) out += ", ";
            const FStringPart& p = n.parts[i];
            if (!p.is_field()) {
                dump_string(out, p.literal);
                continue;
            }
            out += "Field(";
            expr(p.value.get());
            out += ", ";
            out += p.conversion ? p.conversion : '-';
            out += ", ";
            dump_string(out, p.format_spec);
            out += ')';
        }
        out += ')';
    }
    void node(const Name& n) { out += "Name(" + n.id + ")"; }
    void node(const Attribute& n) {
        out += "Attribute(";
        expr(n.value.get());
        out += ", " + n.attr + ")";
    }
    void node(const Subscript& n) {
        out += "Subscript(";
        expr(n.value.get());
        out += ", ";
        expr(n.index.get());
        out += ')';
    }
    void node(const Slice& n) {
        out += "Slice(";
        expr(n.lower.get());
        out += ", ";
        expr(n.upper.get());
        out += ", ";
        expr(n.step.get());
        out += ')';
    }
    void node(const Call& n) {
        out += "Call(";
        expr(n.func.get());
        out += ", ";
        exprs(n.args);
        out += ", ";
        keywords(n.keywords);
        out += ')';
    }
    void node(const BinOp& n) {
        out += std::string("BinOp(") + op_name(n.op) + ", ";
        expr(n.left.get());
        out += ", ";
        expr(n.right.get());
        out += ')';
    }
    void node(const UnaryOp& n) {
        out += std::string("UnaryOp(") + op_name(n.op) + ", ";
        expr(n.operand.get());
        out += ')';
    }
    void node(const Compare& n) {
        out += "Compare(";
        expr(n.left.get());
        out += ", [";
        for (std::size_t i = 0; i < n.ops.size(); ++i) {
            if (i) out += ", ";
            out += op_name(n.ops[i]);
        }
        out += "], ";
        exprs(n.comparators);
        out += ')';
    }
    void node(const BoolOp& n) {
        out += n.op == BoolOpKind::And ? "BoolOp(And, " : "BoolOp(Or, ";
        exprs(n.values);
        out += ')';
    }
    void node(const IfExp& n) {
        out += "IfExp(";
        expr(n.test.get());
        out += ", ";
        expr(n.body.get());
        out += ", ";
        expr(n.orelse.get());
        out += ')';
    }
    void node(const List& n) {
        out += "List(";
        exprs(n.elts);
        out += ')';
    }
    void node(const Tuple& n) {
        out += "Tuple(";
        exprs(n.elts);
        out += ')';
    }
    void node(const Dict& n) {
        out += "Dict([";
        for (std::size_t i = 0; i < n.keys.size(); ++i) {
            if (i) out += ", ";
            expr(n.keys[i].get());
            out += ": ";
            expr(n.values[i].get());
        }
        out += "])";
    }
    void node(const ListComp& n) {
        out += "ListComp(";
        expr(n.elt.get());
        for (const auto& g : n.generators) {
            out += ", for ";
            expr(g.target.get());
            out += " in ";
            expr(g.iter.get());
            for (const auto& c : g.ifs) {
                out += " if ";
                expr(c.get());
            }
        }
        out += ')';
    }
    void node(const Starred& n) {
        out += "Starred(";
        expr(n.value.get());
        out += ')';
    }

    void stmt(const Stmt& s) {
        std::visit([&](const auto& n) { node(n); }, s.node);
    }
    void body(const Body& b) {
        out += '[';
        for (std::size_t i = 0; i < b.size(); ++i) {
            if (i) out += ", ";
            stmt(*b[i]);
        }
        out += ']';
    }

    void node(const ExprStmt& n) {
        out += "Expr(";
        expr(n.value.get());
        out += ')';
    }
    void node(const Assign& n) {
        out += "Assign(";
        exprs(n.targets);
        out += ", ";
        expr(n.value.get());
        out += ')';
    }
    void node(const AugAssign& n) {
        out += "AugAssign(";
        expr(n.target.get());
        out += std::string(", ") + op_name(n.op) + ", ";
        expr(n.value.get());
        out += ')';
    }
    void node(const If& n) {
        out += "If(";
        expr(n.test.get());
        out += ", ";
        body(n.body);
        out += ", ";
        body(n.orelse);
        out += ')';
    }
    void node(const For& n) {
        out += "For(";
        expr(n.target.get());
        out += ", ";
        expr(n.iter.get());
        out += ", ";
        body(n.body);
        out += ", ";
        body(n.orelse);
        out += ')';
    }
    void node(const While& n) {
        out += "While(";
        expr(n.test.get());
        out += ", ";
        body(n.body);
        out += ", ";
        body(n.orelse);
        out += ')';
    }
    void node(const Break&) { out += "Break"; }
    void node(const Continue&) { out += "Continue"; }
    void node(const Pass&) { out += "Pass"; }
    void node(const With& n) {
        out += "With([";
        for (std::size_t i = 0; i < n.items.size(); ++i) {
            if (i) out += ", ";
            expr(n.items[i].context_expr.get());
            out += " as ";
            expr(n.items[i].optional_vars.get());
        }
        out += "], ";
        body(n.body);
        out += ')';
    }
    void node(const FunctionDef& n) {
        out += "FunctionDef(" + n.name + ", [";
        for (std::size_t i = 0; i < n.params.size(); ++i) {
            if (i) out += ", ";
            const Param& p = n.params[i];
            switch (p.kind) {
                case ParamKind::Positional: break;
                case ParamKind::VarPositional: out += '*'; break;
                case ParamKind::KeywordOnly: out += "kw:"; break;
                case ParamKind::VarKeyword: out += "**"; break;
            }
            out += p.name;
            if (p.annotation) {
                out += ": ";
                expr(p.annotation.get());
            }
            if (p.default_value) {
                out += '=';
                expr(p.default_value.get());
            }
        }
        out += "], ";
        body(n.body);
        out += ", ";
        exprs(n.decorators);
        out += ", ";
        expr(n.returns.get());
        out += ')';
    }
    void node(const Return& n) {
        out += "Return(";
        expr(n.value.get());
        out += ')';
    }
    void node(const ClassDef& n) {
        out += "ClassDef(" + n.name + ", ";
        exprs(n.bases);
        out += ", ";
        keywords(n.keywords);
        out += ", ";
        body(n.body);
        out += ", ";
        exprs(n.decorators);
        out += ')';
    }
    void node(const Try& n) {
        out += "Try(";
        body(n.body);
        out += ", [";
        for (std::size_t i = 0; i < n.handlers.size(); ++i) {
            if (i) out += ", ";
            out += "ExceptHandler(";
            expr(n.handlers[i].type.get());
            out += ", " + (n.handlers[i].name.empty() ? std::string("-") : n.handlers[i].name) + ", ";
            body(n.handlers[i].body);
            out += ')';
        }
        out += "], ";
        body(n.orelse);
        out += ", ";
        body(n.finalbody);
        out += ')';
    }
    void node(const Raise& n) {
        out += "Raise(";
        expr(n.exc.get());
        out += ", ";
        expr(n.cause.get());
        out += ')';
    }
    void node(const Assert& n) {
        out += "Assert(";
        expr(n.test.get());
        out += ", ";
        expr(n.msg.get());
        out += ')';
    }
    void node(const Delete& n) {
        out += "Delete(";
        exprs(n.targets);
        out += ')';
    }
    void aliases(const std::vector<Alias>& v) {
        out += '[';
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) out += ", ";
            out += v[i].name;
            if (!v[i].asname.empty()) out += " as " + v[i].asname;
        }
        out += ']';
    }
    void node(const Import& n) {
        out += "Import(";
        aliases(n.names);
        out += ')';
    }
    void node(const ImportFrom& n) {
        out += "ImportFrom(" + std::string(static_cast<std::size_t>(n.level), '.') + n.module + ", ";
        aliases(n.names);
        out += ')';
    }
    void names(const char* what, const std::vector<std::string>& v) {
        out += what;
        out += "([";
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) out += ", ";
            out += v[i];
        }
        out += "])";
    }
    void node(const Global& n) { names("Global", n.names); }
    void node(const Nonlocal& n) { names("Nonlocal", n.names); }
};

}  // namespace

std::string dump(const Expr& e) {
    Dumper d;
    d.expr(&e);
    return std::move(d.out);
}

std::string dump(const Stmt& s) {
    Dumper d;
    d.stmt(s);
    return std::move(d.out);
}

std::string dump(const Module& m) {
    Dumper d;
    for (const auto& s : m.body) {
        d.stmt(*s);
        d.out += '\n';
    }
    return std::move(d.out);
}

}  // namespace ts::script

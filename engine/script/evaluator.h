// Evaluator: walks the syntax tree of a tape script. Statements set the current line
// (the engine stamps every event with it), assignments report name bindings, and a
// tensor that decides an `if`/`while`/`and`/`or`/conditional is logged as a branch
// with a control edge to what runs under it. Library code (the prelude) runs without
// moving the line, so the learner sees the line of their own call.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ast.h"
#include "interpreter.h"

namespace ts::script {

struct Frame {
  std::shared_ptr<Scope> scope;
  bool prelude = false;
  std::shared_ptr<ClassObj> owner;  // class of the running method (for super())
  Value self;                       // its first argument
  bool has_self = false;
  const FunctionObj* function = nullptr;
};

struct Interpreter::FrozenCaptures {
  std::unordered_map<std::string, Value> values;  // global names read while tracing
  // What the trace's own code read from objects older than the call (attributes,
  // items, next() of an iterator), per expression in order; nullopt = read live
  // (a variable, a function, a container: references, not values).
  std::unordered_map<const void*, std::vector<std::optional<Value>>> reads;
};

class Evaluator {
 public:
  explicit Evaluator(Interpreter& in);

  void install_language_builtins();
  void load_prelude();
  void run_module(const Module& m);
  Value eval_expression(const std::string& expr);

  Value call(const Value& fn, std::vector<Value> args, std::vector<std::pair<std::string, Value>> kwargs);
  Value getattr(const Value& obj, const std::string& name);
  Value getitem(const Value& obj, const Value& key);
  Value call_traced(const Value& fn, std::vector<Value> args, std::vector<std::pair<std::string, Value>> kwargs,
                    bool tracing, std::shared_ptr<Interpreter::FrozenCaptures>& captures);

  // tf.function: its body is being traced (recording) or a trace replayed (frozen).
  bool in_graph_function() const { return recording_ || frozen_; }
  bool tracing_graph_function() const { return recording_ != nullptr; }

  std::string call_arg_text(size_t index) const;
  std::vector<std::string> call_arg_element_texts(size_t index) const;
  std::string keyword_arg_text(const std::string& name) const;
  std::string& output_buffer() { return output_buffer_; }
  std::string str_format(const std::string& fmt, const CallArgs& args);  // fmt.format(*args, **kwargs)
  std::string percent_format(const std::string& fmt, const std::vector<Value>& vals);
  std::string format_spec(const Value& v, const std::string& spec);
  std::vector<int64_t> slice_positions(const SliceObj& s, int64_t n);

 private:
  // statements
  void exec_body(const Body& body, Frame& f) { exec_range(body, 0, f); }
  // Statements [from, end) of `body`; in a traced tf.function, an `if` on a tensor one of
  // whose branches always returns takes the statements after it into its other branch
  // (AutoGraph's ConditionalReturnRewriter).
  void exec_range(const Body& body, size_t from, Frame& f);
  void exec(const Stmt& s, Frame& f);
  void exec_if(const If& s, Frame& f, int line);
  // The statements after an `if` that a traced `if` takes into one of its branches.
  struct IfRest {
    const Body* body = nullptr;
    size_t from = 0;
    bool into_else = true;  // the main branch always returns: the rest joins the else branch
  };
  void exec_traced_if(const If& s, Frame& f, bool taken, const IfRest& rest);
  void exec_for(const For& s, Frame& f);
  void exec_while(const While& s, Frame& f);
  std::vector<std::pair<std::string, Value>> graph_loop_vars(const Body& body, const Expr* test, Frame& f);
  void mark_zero_trip(const Body& body, Frame& f);
  void trace_zero_trip_loop(const Body& body, const Expr* test, const Expr* target, const Value& element, Frame& f);
  void verify_graph_loop_vars(std::vector<std::pair<std::string, Value>>& carried, Frame& f);
  void exec_with(const With& s, size_t item, Frame& f);
  void exec_try(const Try& s, Frame& f);
  void exec_def(const FunctionDef& d, Frame& f);
  void exec_class(const ClassDef& d, Frame& f);
  void exec_import(const Stmt& s, Frame& f);
  void assign(const Expr& target, const Value& v, Frame& f);
  void bind(const std::string& name, const Value& v, Frame& f, const std::string& label);
  void delete_target(const Expr& target, Frame& f);

  // expressions
  Value eval(const Expr& e, Frame& f);
  Value eval_call(const Expr& e, const Call& c, Frame& f);
  Value eval_compare(const Compare& c, Frame& f);
  Value eval_boolop(const BoolOp& b, Frame& f);
  Value eval_subscript_index(const Expr& index, Frame& f);
  Value eval_listcomp(const ListComp& lc, size_t gen, Frame& f, std::vector<Value>& out);
  // Binds one element of clause `gen`'s iterable and, when its conditions hold, adds
  // what the inner clauses make of it to `out`.
  void comprehension_item(const ListComp& lc, size_t gen, const Value& x, Frame& f, std::vector<Value>& out);
  Value eval_comprehension_call(const Call& c, Frame& f);  // a generator expression or dict comprehension
  Value lookup(const std::string& name, Frame& f, const void* node = nullptr);

  // a value used as a condition; a tensor decision is logged as a branch
  bool decide(const Value& v, const std::string& what, int untaken_line, const Body* untaken);
  bool decide(const Value& v, const std::string& what, int untaken_line, const std::vector<std::string>& untaken_names);

  Value call_function(const FunctionObj& fn, std::vector<Value> args, std::vector<std::pair<std::string, Value>> kwargs,
                      const Value* self);
  Value instantiate(const std::shared_ptr<ClassObj>& cls, std::vector<Value> args,
                    std::vector<std::pair<std::string, Value>> kwargs);
  Value bind_class_attr(const Value& attr, const Value& self, const std::shared_ptr<ClassObj>& cls);
  void set_line(int line, Frame& f);
  [[noreturn]] void name_error(const std::string& name);
  void check_imports(const Body& body);

  // tf.function replay (a call after the trace): Python does not run in TF then, so
  // the user's code reads what the trace read from objects older than the call and
  // leaves them unchanged (no attribute, item or container writes).
  bool replaying_user_code(const Frame& f) const { return frozen_ && !f.prelude && prelude_depth_ == 0; }
  bool made_before_call(const Value& v) const { return v.obj && v.obj->serial() < call_serial_; }
  template <class Read>
  Value replayed_read(const void* node, const Value& from, const Frame& f, Read&& read);
  const std::optional<Value>* traced_read(const void* node);  // replay: the trace's read here, if any
  void record_read(const void* node, const Value& v);         // trace: remember a read

  Interpreter& in_;
  std::vector<const Call*> call_stack_;  // calls being evaluated (argument texts)
  std::vector<std::shared_ptr<const Module>> kept_;  // parsed modules and expressions
  std::vector<std::shared_ptr<ParsedExpression>> kept_exprs_;
  std::string output_buffer_;
  IfRest if_rest_;             // offered by exec_range to the `if` it is about to run
  bool if_rest_taken_ = false;  // that `if` ran the rest: exec_range stops there
  // While an `if`/`while`/`a if c else b` evaluates its condition: every tensor decision
  // made on the way (`and`/`or`, `not`, a comparison chain) is collected, and what runs
  // under the statement gets a control edge from each of them, not just from the test.
  std::vector<std::vector<TensorId>*> decision_collectors_;
  std::unordered_map<const Body*, std::vector<std::string>> body_names_;  // names a body mentions
  // The names a def binds anywhere in its body (its locals, as Python decides them at
  // compile time), without those it declares global or nonlocal.
  const std::unordered_set<std::string>& local_names(const FunctionDef& d);
  std::unordered_map<const FunctionDef*, std::unordered_set<std::string>> local_names_;
  // Evaluates `test` and decides it, collecting every tensor decision made meanwhile.
  template <class DecideTest>
  bool decide_collecting(const Expr& test, Frame& f, Value& value, std::vector<TensorId>& decisions,
                         DecideTest&& decide_test);
  std::shared_ptr<Interpreter::FrozenCaptures> frozen_;  // active while replaying a tf.function
  std::shared_ptr<Interpreter::FrozenCaptures> recording_;  // active while tracing one
  uint64_t call_serial_ = 0;  // heap serial when that tf.function call began
  std::unordered_map<const void*, size_t> read_cursor_;  // replay: next frozen read per expression
  std::unordered_set<const Object*> live_args_;  // structures passed to the tf.function call
  int prelude_depth_ = 0;
};

// The Python source of the library part of the tf module (keras, data, optimizers).
extern const char* const kPreludeSource;

}  // namespace ts::script

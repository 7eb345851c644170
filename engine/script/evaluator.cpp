#include "evaluator.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <cstdio>
#include <map>
#include <set>
#include <unordered_set>

#include "../format.h"
#include "builtin_signatures.h"
#include "cond_v2.h"
#include "py_format.h"
#include "scoped_count.h"
#include "str_methods.h"
#include "unsupported_names.h"
#include "parser.h"

namespace ts::script {

// tf_util.h (not included: its is_tensorish differs from this file's).
std::optional<std::string> graph_tensor_name(Interpreter& in, TensorId t);
int& shadow_branch_depth(Interpreter& in);
void flatten_nest(Interpreter& in, const Value& v, std::vector<Value>& out);
Value pack_nest(Interpreter& in, const Value& structure, const std::vector<Value>& flat, size_t& pos);

namespace {

// BaseResourceVariable's in-place operators raise (a tf.Variable is not rebound to a
// tensor); `//=` and `%=` have none, so they fall back to the binary operator.
const char* variable_inplace_error(BinOpKind op) {
  const char* text = nullptr;
  switch (op) {
    case BinOpKind::Add:
      text = "`variable += value` with `tf.Variable`s is not supported. Use `variable.assign_add(value)` to modify the "
             "variable, or `out = variable + value` if you need to get a new output Tensor.";
      break;
    case BinOpKind::Sub:
      text = "`variable -= value` with `tf.Variable`s is not supported. Use `variable.assign_sub(value)` to modify the "
             "variable, or `out = variable * value` if you need to get a new output Tensor.";
      break;
    case BinOpKind::Mult:
      text = "`var *= value` with `tf.Variable`s is not supported. Use `var.assign(var * value)` to modify the "
             "variable, or `out = var * value` if you need to get a new output Tensor.";
      break;
    case BinOpKind::Div:
      text = "`var /= value` with `tf.Variable`s is not supported. Use `var.assign(var / value)` to modify the "
             "variable, or `out = var / value` if you need to get a new output Tensor.";
      break;
    case BinOpKind::Pow:
      text = "`var **= value` with `tf.Variable`s is not supported. Use `var.assign(var ** value)` to modify the "
             "variable, or `out = var ** value` if you need to get a new output Tensor.";
      break;
    default:
      break;
  }
  return text;
}

constexpr int kMaxCallDepth = 200;

struct CallGuard {
  std::vector<const Call*>& stack;
  CallGuard(std::vector<const Call*>& s, const Call* c) : stack(s) { stack.push_back(c); }
  ~CallGuard() { stack.pop_back(); }
};

struct DepthGuard {
  int& d;
  explicit DepthGuard(int& x) : d(x) { ++d; }
  ~DepthGuard() { --d; }
};

void collect_names(const Expr& e, std::vector<std::string>& out) {
  if (auto* n = e.as<Name>()) out.push_back(n->id);
  for_each_child(e, [&](const Expr& c) { collect_names(c, out); });
}

void collect_names(const Body& body, std::vector<std::string>& out);
void collect_names(const Stmt& s, std::vector<std::string>& out) {
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, ExprStmt>) collect_names(*n.value, out);
        else if constexpr (std::is_same_v<T, Assign>) {
          for (auto& t : n.targets) collect_names(*t, out);
          collect_names(*n.value, out);
        } else if constexpr (std::is_same_v<T, AugAssign>) {
          collect_names(*n.target, out);
          collect_names(*n.value, out);
        } else if constexpr (std::is_same_v<T, If> || std::is_same_v<T, While>) {
          collect_names(*n.test, out);
          collect_names(n.body, out);
          collect_names(n.orelse, out);
        } else if constexpr (std::is_same_v<T, For>) {
          collect_names(*n.iter, out);
          collect_names(n.body, out);
        } else if constexpr (std::is_same_v<T, With>) {
          for (auto& it : n.items) collect_names(*it.context_expr, out);
          collect_names(n.body, out);
        } else if constexpr (std::is_same_v<T, Return>) {
          if (n.value) collect_names(*n.value, out);
        }
      },
      s.node);
}
void collect_names(const Body& body, std::vector<std::string>& out) {
  for (const auto& s : body) collect_names(*s, out);
}

// The names a function body mentions outside one `if` statement's branches (its
// test included): AutoGraph's liveness, approximately — a name assigned in a branch
// is an output of the conditional when the code around it mentions it.
void collect_names_outside(const Body& body, const If& skip, std::vector<std::string>& out,
                           const std::vector<const Stmt*>& skip_stmts = {});
void collect_names_outside(const Stmt& s, const If& skip, std::vector<std::string>& out,
                           const std::vector<const Stmt*>& skip_stmts = {}) {
  if (std::find(skip_stmts.begin(), skip_stmts.end(), &s) != skip_stmts.end()) return;
  std::visit(
      [&](const auto& n) {
        using T = std::decay_t<decltype(n)>;
        if constexpr (std::is_same_v<T, If>) {
          collect_names(*n.test, out);
          if (&n == &skip) return;
          collect_names_outside(n.body, skip, out, skip_stmts);
          collect_names_outside(n.orelse, skip, out, skip_stmts);
        } else if constexpr (std::is_same_v<T, While>) {
          collect_names(*n.test, out);
          collect_names_outside(n.body, skip, out, skip_stmts);
          collect_names_outside(n.orelse, skip, out, skip_stmts);
        } else if constexpr (std::is_same_v<T, For>) {
          collect_names(*n.target, out);
          collect_names(*n.iter, out);
          collect_names_outside(n.body, skip, out, skip_stmts);
        } else if constexpr (std::is_same_v<T, With>) {
          for (auto& it : n.items) collect_names(*it.context_expr, out);
          collect_names_outside(n.body, skip, out, skip_stmts);
        } else {
          collect_names(s, out);
        }
      },
      s.node);
}
void collect_names_outside(const Body& body, const If& skip, std::vector<std::string>& out,
                           const std::vector<const Stmt*>& skip_stmts) {
  for (const auto& s : body) collect_names_outside(*s, skip, out, skip_stmts);
}

// AutoGraph's "definitely returns" (return_statements.py): a block with a `return` at its
// top level, a `with` whose body definitely returns, or an `if` both of whose branches do.
bool definitely_returns(const Body& body) {
  for (const auto& s : body) {
    if (s->is<Return>()) return true;
    if (const With* w = std::get_if<With>(&s->node); w && definitely_returns(w->body)) return true;
    if (const If* i = std::get_if<If>(&s->node); i && definitely_returns(i->body) && definitely_returns(i->orelse))
      return true;
  }
  return false;
}

bool is_tensorish(const Value& v) { return v.kind == VKind::Tensor || v.kind == VKind::Variable || v.kind == VKind::NdArray; }

// The elements of a dict view as they are now.
std::vector<Value> dict_view_items(Interpreter& in, const DictViewPayload& view) {
  std::vector<Value> out;
  for (const auto& [k, v] : view.dict->items)
    out.push_back(view.kind == DictViewPayload::Items  ? in.make_tuple({k, v})
                  : view.kind == DictViewPayload::Keys ? k
                                                       : v);
  return out;
}

// d.keys() / d.values() / d.items(): a view that follows the dict, printed as
// dict_keys([...]); keys and items views compare as sets, values views by identity.
Value make_dict_view(Interpreter& in, const std::shared_ptr<DictObj>& d, const std::string& which) {
  auto view = std::make_shared<DictViewPayload>();
  view->dict = d;
  view->kind = which == "keys" ? DictViewPayload::Keys : which == "values" ? DictViewPayload::Values : DictViewPayload::Items;
  auto o = std::make_shared<NativeObj>("dict_view");
  o->type_name = "dict_" + which;
  o->payload = view;
  const DictViewPayload* v = view.get();
  Interpreter* inp = &in;
  o->repr = [inp, v, tname = o->type_name] {
    std::string s = tname + "([";
    const std::vector<Value> items = dict_view_items(*inp, *v);
    for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + inp->repr(items[i]);
    return s + "])";
  };
  o->attrs.set("__iter__", in.builtin(o->type_name + ".__iter__", [v](Interpreter& in2, CallArgs&) {
    return in2.make_iterator(in2.make_list(dict_view_items(in2, *v)));
  }));
  o->attrs.set("__len__", in.builtin(o->type_name + ".__len__", [v](Interpreter&, CallArgs&) {
    return Value::integer(static_cast<int64_t>(v->dict->items.size()));
  }));
  const Object* self = o.get();
  o->attrs.set("__eq__", in.builtin(o->type_name + ".__eq__", [v, self](Interpreter& in2, CallArgs& a) {
      const auto* other = a.args.empty() ? nullptr : a.args[0].as<NativeObj>();
      if (v->kind == DictViewPayload::Values) return Value::boolean(other == self);
      if (!other || other->tag != "dict_view") return Value::boolean(false);
      const auto* ov = static_cast<const DictViewPayload*>(other->payload.get());
      if (ov->kind == DictViewPayload::Values || ov->dict->items.size() != v->dict->items.size())
        return Value::boolean(false);
      const std::vector<Value> mine = dict_view_items(in2, *v), theirs = dict_view_items(in2, *ov);
      for (const Value& x : mine)
        if (std::none_of(theirs.begin(), theirs.end(), [&](const Value& y) { return in2.equals(x, y); }))
          return Value::boolean(false);
      return Value::boolean(true);
    }));
  return Value::object(o);
}

std::string bin_op_str(BinOpKind k) { return to_string(k); }

}  // namespace

// control_flow_ops.cpp: the names a script function's body mentions and the line of its
// first statement (tf.cond's untaken branch, for UNCONNECTED's message); none for
// natives.
void function_body_names(const Value& fn, std::vector<std::string>& names, int& first_line) {
  const FunctionObj* f = fn.as<FunctionObj>();
  if (!f) {
    if (auto* b = fn.as<BoundMethodObj>()) f = b->func.as<FunctionObj>();
  }
  if (!f || !f->def) return;
  collect_names(f->def->body, names);
  if (!f->def->body.empty()) first_line = f->def->body.front()->span.begin.line;
}

Evaluator::Evaluator(Interpreter& in) : in_(in) {}

void Evaluator::set_line(int line, Frame& f) {
  if (f.prelude || prelude_depth_ > 0) return;
  in_.set_line(line);
}

[[noreturn]] void Evaluator::name_error(const std::string& name) { in_.raise("NameError", "name '" + name + "' is not defined"); }

// --- modules ---
void Evaluator::check_imports(const Body& body) {
  for (const auto& s : body) {
    if (auto* imp = s->as<Import>()) {
      for (const auto& a : imp->names) {
        static const std::unordered_set<std::string> ok = {"tensorflow", "numpy", "matplotlib.pyplot", "matplotlib", "math"};
        if (!ok.count(a.name))
          throw ScriptException(ScriptError{"ModuleNotFoundError",
                                            "No module named '" + a.name + "' (tape scripts can import tensorflow, numpy, matplotlib.pyplot and math)",
                                            in_.file(), a.span.begin.line, a.span.begin.col});
      }
    } else if (auto* imp = s->as<ImportFrom>()) {
      const bool ok = imp->module == "tensorflow" || imp->module == "tensorflow.keras" || imp->module == "matplotlib" ||
                      imp->module == "numpy" || imp->module == "tensorflow.keras.layers" || imp->module == "math";
      if (!ok)
        throw ScriptException(ScriptError{"ModuleNotFoundError",
                                          "No module named '" + imp->module + "' (tape scripts can import tensorflow, numpy, matplotlib.pyplot and math)",
                                          in_.file(), s->span.begin.line, s->span.begin.col});
    }
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, If> || std::is_same_v<T, While> || std::is_same_v<T, For>) {
            check_imports(n.body);
            check_imports(n.orelse);
          } else if constexpr (std::is_same_v<T, With> || std::is_same_v<T, FunctionDef> || std::is_same_v<T, ClassDef>) {
            check_imports(n.body);
          } else if constexpr (std::is_same_v<T, Try>) {
            check_imports(n.body);
            for (auto& h : n.handlers) check_imports(h.body);
            check_imports(n.orelse);
            check_imports(n.finalbody);
          }
        },
        s->node);
  }
}

void Evaluator::run_module(const Module& m) {
  check_imports(m.body);
  // The guide's setup imports are implied: `import tensorflow as tf`, `import numpy as np`
  // and `import matplotlib.pyplot as plt` (its plot snippet uses `plt` without importing it).
  if (!in_.globals()->vars.count("tf")) in_.globals()->vars["tf"] = Value::object(in_.module("tensorflow"));
  if (!in_.globals()->vars.count("np")) in_.globals()->vars["np"] = Value::object(in_.module("numpy"));
  if (!in_.globals()->vars.count("plt")) in_.globals()->vars["plt"] = Value::object(in_.module("matplotlib.pyplot"));
  Frame f;
  f.scope = in_.globals();
  try {
    exec_body(m.body, f);
  } catch (...) {
    if (!output_buffer_.empty()) {
      in_.engine().output(output_buffer_);
      output_buffer_.clear();
    }
    throw;
  }
  if (!output_buffer_.empty()) {
    in_.engine().output(output_buffer_);
    output_buffer_.clear();
  }
}

Value Evaluator::eval_expression(const std::string& expr) {
  auto pe = std::make_shared<ParsedExpression>(parse_expression(expr, "<expect>"));
  kept_exprs_.push_back(pe);
  Frame f;
  f.scope = in_.globals();
  f.prelude = true;  // expectations do not move the line or log statements
  return eval(*pe->expr, f);
}

void Evaluator::load_prelude() {
  auto m = std::make_shared<Module>(parse_module(kPreludeSource, "<tapescope prelude>"));
  kept_.push_back(m);
  auto scope = std::make_shared<Scope>();
  scope->parent = in_.builtins();
  scope->vars["tf"] = Value::object(in_.module("tensorflow"));
  scope->vars["np"] = Value::object(in_.module("numpy"));
  Frame f;
  f.scope = scope;
  f.prelude = true;
  ++prelude_depth_;
  exec_body(m->body, f);
  --prelude_depth_;
}

// --- statements ---
void Evaluator::exec_range(const Body& body, size_t from, Frame& f) {
  for (size_t i = from; i < body.size(); ++i) {
    const Stmt& s = *body[i];
    if (in_graph_function() && i + 1 < body.size()) {
      if (const If* n = std::get_if<If>(&s.node)) {
        const bool main_returns = definitely_returns(n->body), else_returns = definitely_returns(n->orelse);
        if (main_returns != else_returns) if_rest_ = IfRest{&body, i + 1, main_returns};
      }
    }
    if_rest_taken_ = false;
    exec(s, f);
    if (std::exchange(if_rest_taken_, false)) return;
  }
}

void Evaluator::exec(const Stmt& s, Frame& f) {
  const int line = s.span.begin.line;
  if (!f.prelude && prelude_depth_ == 0) {
    in_.set_line(line);
    in_.tick();
    if (!s.is<FunctionDef>() && !s.is<ClassDef>()) in_.engine().statement(line);
  } else {
    in_.tick();
  }
  try {
    std::visit(
        [&](const auto& n) {
          using T = std::decay_t<decltype(n)>;
          if constexpr (std::is_same_v<T, ExprStmt>) {
            eval(*n.value, f);
          } else if constexpr (std::is_same_v<T, Assign>) {
            // `tp = tf.GradientTape()` names the tape as `with ... as tp` does.
            const bool named = n.targets.size() == 1 && n.value->template is<Call>() &&
                               (n.targets[0]->template is<Name>() || n.targets[0]->template is<Attribute>());
            const std::string outer = in_.pending_with_name();
            if (named) in_.set_with_name(unparse(*n.targets[0]));
            Value v;
            try {
              v = eval(*n.value, f);
            } catch (...) {
              if (named) in_.set_with_name(outer);
              throw;
            }
            if (named) in_.set_with_name(outer);
            for (const auto& t : n.targets) assign(*t, v, f);
          } else if constexpr (std::is_same_v<T, AugAssign>) {
            // `xs[i()] += v`: the container and index are evaluated once, for the read and the write.
            const Subscript* sub = n.target->template as<Subscript>();
            Value sub_obj, sub_index;
            Value cur;
            if (sub) {
              sub_obj = eval(*sub->value, f);
              sub_index = eval_subscript_index(*sub->index, f);
              cur = replayed_read(n.target.get(), sub_obj, f, [&] { return getitem(sub_obj, sub_index); });
            } else {
              cur = eval(*n.target, f);
            }
            Value rhs = eval(*n.value, f);
            if (cur.kind == VKind::Variable && !in_.engine().variable(cur.id).keras)
              if (const char* why = variable_inplace_error(n.op)) in_.raise("RuntimeError", why);
            Value res;
            auto* l = cur.as<ListObj>();
            if (n.op == BinOpKind::Add && l && cur.obj->okind == OKind::List) {
              if (!(replaying_user_code(f) && made_before_call(cur)))
                for (const Value& x : in_.iterate(rhs)) l->items.push_back(x);  // list += extends in place
              res = cur;
            } else {
              res = in_.binary(bin_op_str(n.op), cur, rhs);
            }
            if (sub) {
              if (!(replaying_user_code(f) && made_before_call(sub_obj) && (sub_obj.as<ListObj>() || sub_obj.as<DictObj>())))
                in_.setitem(sub_obj, sub_index, res);
            } else {
              assign(*n.target, res, f);
            }
          } else if constexpr (std::is_same_v<T, If>) {
            exec_if(n, f, line);
          } else if constexpr (std::is_same_v<T, For>) {
            exec_for(n, f);
          } else if constexpr (std::is_same_v<T, While>) {
            exec_while(n, f);
          } else if constexpr (std::is_same_v<T, Break>) {
            throw BreakSignal{};
          } else if constexpr (std::is_same_v<T, Continue>) {
            throw ContinueSignal{};
          } else if constexpr (std::is_same_v<T, Pass>) {
          } else if constexpr (std::is_same_v<T, With>) {
            exec_with(n, 0, f);
          } else if constexpr (std::is_same_v<T, FunctionDef>) {
            exec_def(n, f);
          } else if constexpr (std::is_same_v<T, Return>) {
            throw ReturnSignal{n.value ? eval(*n.value, f) : Value::none()};
          } else if constexpr (std::is_same_v<T, ClassDef>) {
            exec_class(n, f);
          } else if constexpr (std::is_same_v<T, Try>) {
            exec_try(n, f);
          } else if constexpr (std::is_same_v<T, Raise>) {
            if (!n.exc) {
              const Value* cur = f.scope->vars.count("__current_exception__") ? &f.scope->vars["__current_exception__"] : nullptr;
              if (cur) in_.raise_value(*cur);
              in_.raise("RuntimeError", "No active exception to reraise");
            }
            Value e = eval(*n.exc, f);
            if (auto* c = e.as<ClassObj>()) {
              auto cls = std::static_pointer_cast<ClassObj>(e.obj);
              e = instantiate(cls, {}, {});
              (void)c;
            }
            in_.raise_value(e);
          } else if constexpr (std::is_same_v<T, Assert>) {
            if (!in_.truthy(eval(*n.test, f))) in_.raise("AssertionError", n.msg ? in_.str(eval(*n.msg, f)) : "");
          } else if constexpr (std::is_same_v<T, Delete>) {
            for (const auto& t : n.targets) delete_target(*t, f);
          } else if constexpr (std::is_same_v<T, Import> || std::is_same_v<T, ImportFrom>) {
            exec_import(s, f);
          } else if constexpr (std::is_same_v<T, Global>) {
            for (const auto& nm : n.names) f.scope->globals.push_back(nm);
          } else if constexpr (std::is_same_v<T, Nonlocal>) {
            for (const auto& nm : n.names) {
              // The nearest enclosing function scope that binds it (Python checks this when compiling).
              bool found = false;
              for (Scope* p = f.scope->parent.get(); p && p != in_.globals().get() && !found; p = p->parent.get())
                found = !p->is_class && p->vars.count(nm);
              if (!found) in_.raise("SyntaxError", "no binding for nonlocal '" + nm + "' found");
              f.scope->nonlocals.push_back(nm);
            }
          }
        },
        s.node);
  } catch (PyException& e) {
    if (e.line == 0) e.line = in_.line();
    throw;
  } catch (const TfError& e) {
    // An engine error surfaces as the Python exception TF raises.
    throw PyException{in_.make_exception(e.type(), e.what()), e.type(), e.what(), in_.line()};
  }
}

void Evaluator::exec_import(const Stmt& s, Frame& f) {
  if (auto* imp = s.as<Import>()) {
    for (const auto& a : imp->names) {
      std::string target = a.asname;
      Value mod;
      if (a.name == "tensorflow") mod = Value::object(in_.module("tensorflow"));
      else if (a.name == "numpy") mod = Value::object(in_.module("numpy"));
      else if (a.name == "matplotlib.pyplot") mod = Value::object(in_.module("matplotlib.pyplot"));
      else if (a.name == "matplotlib") mod = Value::object(in_.module("matplotlib"));
      else if (a.name == "math") mod = Value::object(in_.module("math"));
      if (!mod.obj) in_.raise("ModuleNotFoundError", "No module named '" + a.name + "'");
      if (target.empty()) target = a.name.substr(0, a.name.find('.'));
      if (target == "matplotlib" && a.asname.empty()) mod = Value::object(in_.module("matplotlib"));
      f.scope->vars[target] = mod;
    }
    return;
  }
  auto* imp = s.as<ImportFrom>();
  Value base;
  if (imp->module == "tensorflow") base = Value::object(in_.module("tensorflow"));
  else if (imp->module == "tensorflow.keras") base = getattr(Value::object(in_.module("tensorflow")), "keras");
  else if (imp->module == "tensorflow.keras.layers") base = getattr(getattr(Value::object(in_.module("tensorflow")), "keras"), "layers");
  else if (imp->module == "matplotlib") base = Value::object(in_.module("matplotlib"));
  else if (imp->module == "numpy") base = Value::object(in_.module("numpy"));
  else if (imp->module == "math") base = Value::object(in_.module("math"));
  for (const auto& a : imp->names) {
    Value v;
    try {
      v = getattr(base, a.name);
    } catch (const PyException& e) {
      // A name the module lacks is an ImportError here (a name refused as unsupported
      // keeps its own message).
      if (e.type != "AttributeError" || e.message.find("has no attribute") == std::string::npos) throw;
      in_.raise("ImportError", "cannot import name '" + a.name + "' from '" + imp->module + "' (unknown location)");
    }
    f.scope->vars[a.asname.empty() ? a.name : a.asname] = v;
  }
}

bool Evaluator::decide(const Value& v, const std::string& what, int untaken_line, const Body* untaken) {
  if (!untaken) return decide(v, what, untaken_line, std::vector<std::string>{});
  auto it = body_names_.find(untaken);  // a loop's `if` skips the same body many times
  if (it == body_names_.end()) {
    std::vector<std::string> names;
    collect_names(*untaken, names);
    it = body_names_.emplace(untaken, std::move(names)).first;
  }
  return decide(v, what, untaken_line, it->second);
}

bool Evaluator::decide(const Value& v, const std::string& what, int untaken_line, const std::vector<std::string>& names) {
  const bool t = in_.truthy(v);
  // A host value decides too: a NumPy array, or a Python number or bool made from a
  // tensor (`if x.numpy() > 0`, `if float(x) > 0`). Its control edge lets the diagnosis
  // see that the tensor only chose a branch.
  TensorId host_cond = kNoId;
  if (v.kind == VKind::NdArray) host_cond = v.id;
  else if ((v.kind == VKind::Bool || v.is_number()) && v.origin > 0 && in_.engine().log().tensor(v.origin))
    host_cond = v.origin;
  if (v.kind == VKind::Tensor || v.kind == VKind::Variable || host_cond != kNoId) {
    TensorId cond = host_cond != kNoId ? host_cond : v.kind == VKind::Variable ? in_.engine().read_variable(v.id) : v.id;
    in_.engine().branch_taken(cond, what + (t ? " (true)" : " (false)"), untaken_line, names);
    if (!decision_collectors_.empty()) decision_collectors_.back()->push_back(cond);
  } else if (!names.empty() && untaken_line > 0) {
    in_.engine().untaken_branch(untaken_line, names);
  }
  return t;
}

template <class DecideTest>
bool Evaluator::decide_collecting(const Expr& test, Frame& f, Value& value, std::vector<TensorId>& decisions,
                                  DecideTest&& decide_test) {
  decision_collectors_.push_back(&decisions);
  struct Pop {
    std::vector<std::vector<TensorId>*>& stack;
    ~Pop() { stack.pop_back(); }
  } pop{decision_collectors_};
  value = eval(test, f);
  return decide_test(value);
}

namespace {
// Pops the controls a statement pushed for the decisions under which its body runs.
struct PopControls {
  Interpreter& in;
  size_t n;
  ~PopControls() {
    for (size_t i = 0; i < n; ++i) in.engine().pop_control();
  }
};
}  // namespace

void Evaluator::exec_if(const If& s, Frame& f, int line) {
  IfRest rest = std::exchange(if_rest_, IfRest{});
  if (rest.body && std::get_if<If>(&(*rest.body)[rest.from - 1]->node) != &s) rest = IfRest{};  // offered to another if
  Value test;
  std::vector<TensorId> decisions;
  const bool has_else = !s.orelse.empty();
  const bool taken = decide_collecting(*s.test, f, test, decisions, [&](const Value& t) {
    // The line of the branch that does not run, for UNCONNECTED's message.
    const bool t0 = in_.truthy(t);
    int untaken_line = 0;
    if (t0) untaken_line = has_else ? s.orelse.front()->span.begin.line : 0;
    else untaken_line = s.body.empty() ? line : s.body.front()->span.begin.line;
    return decide(t, "if", untaken_line, t0 ? (has_else ? &s.orelse : nullptr) : &s.body);
  });
  const bool tensor = test.kind == VKind::Tensor || test.kind == VKind::Variable;
  for (TensorId c : decisions) in_.engine().push_control(c);
  PopControls pop{in_, decisions.size()};
  // Traced (or a replay of the trace): AutoGraph's cond, both branches traced.
  if (tensor && (recording_ || frozen_)) {
    exec_traced_if(s, f, taken, rest);
    if (rest.body) if_rest_taken_ = true;  // the statements after it ran in a branch
    return;
  }
  if (taken) exec_body(s.body, f);
  else exec_body(s.orelse, f);
}

// AutoGraph's `if` on a tensor inside a traced tf.function (control_flow.py's
// _tf_if_stmt): both branches are traced, the main one first, each from the state
// before the `if`; a name the code after it uses must be set by both branches
// (or before). The branch the condition takes gives the values; the other runs only
// as a trace: its Python side effects happen, its variable updates do not.
void Evaluator::exec_traced_if(const If& s, Frame& f, bool taken, const IfRest& rest) {
  auto& vars = f.scope->vars;
  const std::unordered_map<std::string, Value> init = vars;
  struct Outcome {
    std::unordered_map<std::string, Value> vars;
    std::optional<Value> ret;
    bool brk = false, cont = false;
    bool failed = false;  // a shadow run that hit a runtime kernel error (shadow_swallows)
    size_t tensors_begin = 0, tensors_end = 0;  // the log's tensors this branch made
  };
  auto same = [](const Value& a, const Value& b) {
    if (a.kind != b.kind) return false;
    switch (a.kind) {
      case VKind::None: return true;
      case VKind::Bool: return a.b == b.b;
      case VKind::Int: return a.i == b.i;
      case VKind::Float: return a.f == b.f;
      case VKind::Str: return a.s == b.s;
      case VKind::Object: return a.obj == b.obj;
      default: return a.id == b.id && a.b == b.b;
    }
  };
  // Names the code outside this `if` mentions (all of them at module level).
  std::vector<std::string> outside;
  const bool have_scope = f.function && f.function->def;
  std::vector<const Stmt*> rest_stmts;  // now inside the `if`, not after it
  if (rest.body)
    for (size_t k = rest.from; k < rest.body->size(); ++k) rest_stmts.push_back((*rest.body)[k].get());
  if (have_scope) collect_names_outside(f.function->def->body, s, outside, rest_stmts);
  auto live = [&](const std::string& n) {
    return !have_scope || std::find(outside.begin(), outside.end(), n) != outside.end();
  };
  auto run = [&](const Body& body, bool real, bool with_rest) {
    vars = init;
    Outcome o;
    o.tensors_begin = in_.engine().log().tensors.size();
    ScopedCount shadow;
    if (!real) shadow.start(shadow_branch_depth(in_));
    auto trace = [&] {
      exec_body(body, f);
      if (with_rest) exec_range(*rest.body, rest.from, f);
    };
    try {
      if (real) trace();
      else o.failed = !run_in_shadow(trace);
    } catch (ReturnSignal& r) {
      o.ret = r.value;
    } catch (BreakSignal&) {
      o.brk = true;
    } catch (ContinueSignal&) {
      o.cont = true;
    }
    o.vars = vars;
    o.tensors_end = in_.engine().log().tensors.size();
    return o;
  };
  auto modified = [&](const Outcome& o, std::vector<std::string>& names) {
    for (const auto& [k, v] : o.vars) {
      auto it = init.find(k);
      if ((it == init.end() || !same(it->second, v)) && std::find(names.begin(), names.end(), k) == names.end())
        names.push_back(k);
    }
  };
  auto verify = [&](const Outcome& o, const std::vector<std::string>& names, const std::string& branch, int line) {
    for (const std::string& n : names)
      if (live(n) && !o.vars.count(n)) {
        in_.set_line(line);
        in_.raise("ValueError", "'" + n + "' must also be initialized in the " + branch + " branch");
      }
  };
  const int if_line = in_.line();
  Outcome main = run(s.body, taken, rest.body && !rest.into_else);
  std::vector<std::string> names;
  modified(main, names);
  if (!main.failed) verify(main, names, "main", if_line);
  Outcome other = run(s.orelse, !taken, rest.body && rest.into_else);
  modified(other, names);
  if (!main.failed) verify(main, names, "main", if_line);
  if (!other.failed) verify(other, names, "else", if_line);
  if (!main.failed && !other.failed && main.ret.has_value() != other.ret.has_value()) {
    in_.set_line(if_line);
    in_.raise("ValueError", std::string("the ") + (main.ret ? "else" : "main") + " branch must also have a return statement.");
  }
  for (const std::string& n : names) {
    auto a = main.vars.find(n), b = other.vars.find(n);
    if (a == main.vars.end() || b == other.vars.end() || !live(n)) continue;
    const Value& x = a->second;
    const Value& y = b->second;
    // AutoGraph's _verify_single_cond_var: a None output cannot be a cond output.
    if (x.is_none() || y.is_none()) {
      in_.set_line(if_line);
      in_.raise("ValueError", "'" + n + "' is None at the end of the " + (x.is_none() ? "main" : "else") + " branch.");
    }
    if ((x.kind == VKind::Tensor || x.kind == VKind::Variable) && (y.kind == VKind::Tensor || y.kind == VKind::Variable)) {
      const DType dx = in_.engine().dtype_of(x.id), dy = in_.engine().dtype_of(y.id);
      if (dx != dy) {
        in_.set_line(if_line);
        in_.raise("TypeError", "'" + n + "' has dtype " + std::string(dtype_name(dx)) + " in the main branch, but dtype " +
                                   std::string(dtype_name(dy)) + " in the else branch");
      }
    }
  }
  Outcome& chosen = taken ? main : other;
  const Outcome& untaken = taken ? other : main;
  // The outputs of the cond: the names both branches set that the code after the `if`
  // uses, then the returned value. They go through one If op whose gradient gives
  // zeros to what the other branch used differentiably (cond_v2's _IfGrad).
  std::vector<std::string> out_names;
  std::vector<Value> outs, other_outs;
  for (const std::string& n : names) {
    const auto a = chosen.vars.find(n);
    const auto b = untaken.vars.find(n);
    if (a == chosen.vars.end() || b == untaken.vars.end() || !live(n)) continue;
    out_names.push_back(n);
    outs.push_back(a->second);
    other_outs.push_back(b->second);
  }
  std::vector<Value> ret_flat;
  if (chosen.ret) flatten_nest(in_, *chosen.ret, ret_flat);
  if (untaken.ret) other_outs.push_back(*untaken.ret);
  const size_t n_named = outs.size();
  outs.insert(outs.end(), ret_flat.begin(), ret_flat.end());
  const bool any_tensor = std::any_of(outs.begin(), outs.end(), [](const Value& v) {
    return v.kind == VKind::Tensor || v.kind == VKind::Variable;
  });
  const BranchCaptures captures =
      any_tensor ? cond_branch_captures(in_, untaken.tensors_begin, untaken.tensors_end, other_outs) : BranchCaptures{};
  const std::vector<Value> routed = any_tensor ? cond_route_outputs(in_, outs, captures) : outs;
  for (size_t i = 0; i < n_named; ++i) chosen.vars[out_names[i]] = routed[i];
  if (chosen.ret && any_tensor) {
    const std::vector<Value> ret_routed(routed.begin() + static_cast<std::ptrdiff_t>(n_named), routed.end());
    size_t pos = 0;
    chosen.ret = pack_nest(in_, *chosen.ret, ret_routed, pos);
  }
  vars = chosen.vars;
  if (chosen.ret) throw ReturnSignal{*chosen.ret};
  if (chosen.brk) throw BreakSignal{};
  if (chosen.cont) throw ContinueSignal{};
}

namespace {

void bound_in(const Body& body, std::unordered_set<std::string>& out, std::unordered_set<std::string>& declared);
void bound_by_target(const Expr& t, std::unordered_set<std::string>& out);

// The names a loop body reads before it assigns them (in statement order; an
// assignment inside a branch or a nested loop does not count as made): with the names
// it binds, AutoGraph's loop variables, approximately (its liveness also looks after
// the loop). A temporary the body sets before using is not one.
void loaded_names(const Body& body, std::unordered_set<std::string> assigned, std::unordered_set<std::string>& out) {
  auto reads = [&](const Expr& e) {
    std::vector<std::string> names;
    collect_names(e, names);
    for (const std::string& n : names)
      if (!assigned.count(n)) out.insert(n);
  };
  for (const auto& sp : body) {
    const Stmt& st = *sp;
    if (const Assign* a = st.as<Assign>()) {
      reads(*a->value);
      std::unordered_set<std::string> targets;
      for (const auto& t : a->targets) bound_by_target(*t, targets);
      assigned.insert(targets.begin(), targets.end());
    } else if (const AugAssign* a = st.as<AugAssign>()) {
      reads(*a->target);
      reads(*a->value);
    } else if (const If* i = st.as<If>()) {
      reads(*i->test);
      loaded_names(i->body, assigned, out);
      loaded_names(i->orelse, assigned, out);
    } else if (const While* w = st.as<While>()) {
      reads(*w->test);
      loaded_names(w->body, assigned, out);
    } else if (const For* fo = st.as<For>()) {
      reads(*fo->iter);
      loaded_names(fo->body, assigned, out);
    } else if (!st.is<FunctionDef>() && !st.is<ClassDef>()) {
      std::vector<std::string> names;
      collect_names(st, names);
      for (const std::string& n : names)
        if (!assigned.count(n)) out.insert(n);
    }
  }
}

}  // namespace

// The loop variables of an AutoGraph loop traced as a tf.while_loop: names the body
// binds that it (or the condition) reads and that exist before the loop. They enter as
// tensors (a Python number becomes one) and must keep their dtype and shape through an
// iteration (control_flow.py's _verify_single_loop_var).
std::vector<std::pair<std::string, Value>> Evaluator::graph_loop_vars(const Body& body, const Expr* test, Frame& f) {
  std::vector<std::pair<std::string, Value>> carried;
  std::unordered_set<std::string> bound, declared, read;
  bound_in(body, bound, declared);
  loaded_names(body, {}, read);
  if (test) {
    std::vector<std::string> names;
    collect_names(*test, names);
    read.insert(names.begin(), names.end());
  }
  for (const std::string& n : bound) {
    auto v = f.scope->vars.find(n);
    if (!read.count(n) || v == f.scope->vars.end()) continue;
    if (v->second.kind == VKind::Int || v->second.kind == VKind::Float || v->second.kind == VKind::Bool)
      v->second = Value::tensor(in_.to_tensor(v->second));
    carried.emplace_back(n, v->second);
  }
  std::sort(carried.begin(), carried.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return carried;
}

void Evaluator::verify_graph_loop_vars(std::vector<std::pair<std::string, Value>>& carried, Frame& f) {
  for (const auto& [n, entry] : carried) {
    auto v = f.scope->vars.find(n);
    if (v == f.scope->vars.end()) continue;
    Value exit = v->second;
    if (exit.is_none()) in_.raise("ValueError", "'" + n + "' is None at the end of the iteration.");
    if (exit.kind == VKind::Int || exit.kind == VKind::Float || exit.kind == VKind::Bool)
      exit = Value::tensor(in_.to_tensor(exit));
    const bool tensors = (entry.kind == VKind::Tensor || entry.kind == VKind::Variable) &&
                         (exit.kind == VKind::Tensor || exit.kind == VKind::Variable);
    if (!tensors) continue;
    Engine& e = in_.engine();
    const DType d0 = e.dtype_of(entry.id), d1 = e.dtype_of(exit.id);
    if (d0 != d1)
      in_.raise("TypeError", "'" + n + "' has dtype " + std::string(dtype_name(d0)) + " before the loop, but dtype " +
                                 std::string(dtype_name(d1)) + " after one iteration");
    const Shape& s0 = e.shape_of(entry.id);
    const Shape& s1 = e.shape_of(exit.id);
    if (s0 != s1)
      in_.raise("ValueError", "'" + n + "' has shape " + shape_str(s0) + " before the loop, but shape " + shape_str(s1) +
                                  " after one iteration. Use tf.autograph.experimental.set_loop_options to set shape "
                                  "invariants.");
  }
  carried.clear();
}

// A traced loop over a tensor that ran no iteration: what its body binds and nothing
// bound before stays unset, as TF's loop would have needed one iteration to set it.
void Evaluator::mark_zero_trip(const Body& body, Frame& f) {
  std::unordered_set<std::string> bound, declared;
  bound_in(body, bound, declared);
  for (const std::string& n : bound)
    if (!f.scope->vars.count(n) &&
        std::find(f.scope->zero_trip.begin(), f.scope->zero_trip.end(), n) == f.scope->zero_trip.end())
      f.scope->zero_trip.push_back(n);
}

// A traced loop that ran no iteration: AutoGraph's while_v2 still traces its body once
// (Python side effects included), and its loop variables come out of a While op whose
// inputs include what the body captured, so a capture gets a zero gradient, not None.
// The body runs in shadow (no state changes) and the names it bound are put back.
void Evaluator::trace_zero_trip_loop(const Body& body, const Expr* test, const Expr* target, const Value& element,
                                     Frame& f) {
  Engine& e = in_.engine();
  std::vector<std::pair<std::string, Value>> carried = graph_loop_vars(body, test, f);
  const size_t ops_begin = e.log().ops.size(), tensors_begin = e.log().tensors.size();
  const auto saved = f.scope->vars;
  {
    ScopedCount shadow(shadow_branch_depth(in_));
    run_in_shadow([&] {
      try {
        if (target) assign(*target, element, f);
        exec_body(body, f);
      } catch (const BreakSignal&) {
      } catch (const ContinueSignal&) {
      }
    });
  }
  f.scope->vars = saved;
  std::vector<Value> initial;
  std::vector<TensorId> ins;
  for (const auto& [n, v] : carried)
    if (v.kind == VKind::Tensor) {
      initial.push_back(v);
      ins.push_back(v.id);
    }
  if (ins.empty()) return;
  const size_t n = ins.size();
  for (TensorId c : while_captures(in_, ops_begin, tensors_begin, initial)) ins.push_back(c);
  if (ins.size() == n) return;
  const std::vector<TensorId> outs = e.execute("While", ins, Attrs{{"num_outputs", static_cast<int64_t>(n)}}, "while");
  size_t k = 0;
  for (const auto& [name, v] : carried)
    if (v.kind == VKind::Tensor) f.scope->vars[name] = Value::tensor(outs.at(k++));
}

void Evaluator::exec_for(const For& s, Frame& f) {
  Value it = eval(*s.iter, f);
  // Taking the next element and binding the target happen on the header line, every
  // iteration (an IteratorGetNext, a branch on a tensor are that line's).
  const int header = s.iter->span.begin.line;
  // AutoGraph turns a loop over a tensor inside a traced tf.function into a
  // tf.while_loop whose body is traced once: its Python side effects (print) happen
  // once, though the loop runs for every element.
  const bool graph_loop = recording_ && (it.kind == VKind::Tensor || it.kind == VKind::Variable);
  size_t iteration = 0, ran = 0;
  ScopedCount quiet;  // started once the body's Python side effects have run
  std::vector<std::pair<std::string, Value>> carried;
  if (graph_loop) carried = graph_loop_vars(s.body, nullptr, f);
  auto verify_carried = [&] {
    if (!carried.empty()) set_line(header, f);  // raised by the loop statement
    verify_graph_loop_vars(carried, f);
  };
  auto run_body = [&](const Value& x) -> bool {
    if (graph_loop && iteration++ == 1) quiet.start(in_.replay_depth());
    ++ran;
    set_line(header, f);
    assign(*s.target, x, f);
    bool go_on = true;
    try {
      exec_body(s.body, f);
    } catch (const BreakSignal&) {
      go_on = false;
    } catch (const ContinueSignal&) {
    }
    if (iteration == 1) verify_carried();  // the body as traced, however often it runs
    return go_on;
  };
  bool broke = false;
  if (auto* r = it.as<RangeObj>()) {
    const int64_t n = r->size();
    for (int64_t i = 0; i < n; ++i)
      if (!run_body(Value::integer(r->start + i * r->step))) {
        broke = true;
        break;
      }
  } else if (auto* lst = it.as<ListObj>()) {
    // As CPython's list iterator: by index over the live list, so the body's appends and
    // removals change what the loop sees (`it` keeps the list alive).
    for (size_t i = 0; i < lst->items.size(); ++i)
      if (!run_body(Value(lst->items[i]))) {
        broke = true;
        break;
      }
  } else if (auto* d = it.as<DictObj>()) {
    const std::vector<Value> keys = in_.iterate(it);
    const size_t size = d->items.size();
    for (const Value& x : keys) {
      if (!run_body(x)) {
        broke = true;
        break;
      }
      if (d->items.size() != size) {
        set_line(header, f);
        in_.raise("RuntimeError", "dictionary changed size during iteration");
      }
    }
  } else if (it.kind == VKind::Str || is_tensorish(it)) {
    const std::vector<Value> items = in_.iterate(it);
    for (const Value& x : items)
      if (!run_body(x)) {
        broke = true;
        break;
      }
  } else {
    Value iter = in_.make_iterator(it);
    while (true) {
      set_line(header, f);
      auto x = in_.next(iter);
      if (!x) break;
      if (!run_body(*x)) {
        broke = true;
        break;
      }
    }
  }
  if (ran == 0 && in_graph_function() && (it.kind == VKind::Tensor || it.kind == VKind::Variable)) {
    // The element a traced body sees: zeros of the iterated tensor's element type.
    Engine& e = in_.engine();
    Shape elem = e.shape_of(it.id);
    if (!elem.empty()) elem.erase(elem.begin());
    const Value element = Value::tensor(e.constant(make_filled(e.dtype_of(it.id), elem, 0.0)));
    trace_zero_trip_loop(s.body, nullptr, s.target.get(), element, f);
    mark_zero_trip(s.body, f);
  }
  if (!broke) exec_body(s.orelse, f);
}

void Evaluator::exec_while(const While& s, Frame& f) {
  // A `while` on a tensor inside a traced tf.function is a tf.while_loop: its body is
  // traced once (Python side effects once), then runs as often as the condition says.
  size_t iteration = 0;
  size_t runs = 0;  // times the body ran
  ScopedCount quiet;  // started once the body's Python side effects have run
  std::vector<std::pair<std::string, Value>> carried;  // AutoGraph's loop variables, traced
  while (true) {
    set_line(s.test->span.begin.line, f);  // the condition is the header's, every time round
    Value test;
    std::vector<TensorId> decisions;
    if (!decide_collecting(*s.test, f, test, decisions, [&](const Value& t) {
          // A body that never runs is a branch not taken.
          if (runs == 0 && !s.body.empty() && !in_.truthy(t))
            return decide(t, "while", s.body.front()->span.begin.line, &s.body);
          return decide(t, "while", in_.line(), nullptr);
        })) {
      if (runs == 0 && in_graph_function() && test.kind == VKind::Tensor) {
        trace_zero_trip_loop(s.body, s.test.get(), nullptr, Value::none(), f);
        mark_zero_trip(s.body, f);
      }
      break;
    }
    const bool tensor = test.kind == VKind::Tensor;
    if (tensor && recording_ && iteration == 0) carried = graph_loop_vars(s.body, s.test.get(), f);
    if (tensor && recording_ && iteration++ == 1) quiet.start(in_.replay_depth());
    for (TensorId c : decisions) in_.engine().push_control(c);
    ++runs;
    bool stop = false;
    {
      PopControls pop{in_, decisions.size()};
      try {
        exec_body(s.body, f);
      } catch (const BreakSignal&) {
        stop = true;
      } catch (const ContinueSignal&) {
      }
    }
    if (runs == 1 && !carried.empty()) {  // the body as traced, however often it runs
      set_line(s.test->span.begin.line, f);
      verify_graph_loop_vars(carried, f);
    }
    if (stop) return;
  }
  exec_body(s.orelse, f);
}

void Evaluator::exec_with(const With& s, size_t item, Frame& f) {
  if (item >= s.items.size()) {
    exec_body(s.body, f);
    return;
  }
  const WithItem& wi = s.items[item];
  in_.set_with_name(wi.optional_vars ? unparse(*wi.optional_vars) : "");
  Value ctx = eval(*wi.context_expr, f);
  in_.set_with_name("");
  Value enter = getattr(ctx, "__enter__");
  Value exit = getattr(ctx, "__exit__");
  Value bound = call(enter, {}, {});
  if (wi.optional_vars) assign(*wi.optional_vars, bound, f);
  try {
    exec_with(s, item + 1, f);
  } catch (PyException& e) {
    if (e.line == 0) e.line = in_.line();
    Value suppress = call(exit, {Value::object(std::static_pointer_cast<Object>(in_.exception_class(e.type))), e.exc, Value::none()}, {});
    if (!in_.truthy(suppress)) throw;
    return;
  } catch (...) {
    call(exit, {Value::none(), Value::none(), Value::none()}, {});
    throw;
  }
  call(exit, {Value::none(), Value::none(), Value::none()}, {});
}

void Evaluator::exec_try(const Try& s, Frame& f) {
  auto run_finally = [&] { exec_body(s.finalbody, f); };
  try {
    try {
      exec_body(s.body, f);
    } catch (PyException& e) {
      for (const auto& h : s.handlers) {
        bool match = !h.type;
        if (h.type) {
          Value t = eval(*h.type, f);
          std::vector<Value> classes;
          if (auto* tup = t.as<ListObj>()) classes = tup->items;
          else classes.push_back(t);
          auto* inst = e.exc.as<InstanceObj>();
          for (const Value& c : classes)
            if (auto* cls = c.as<ClassObj>(); cls && inst && (inst->cls->is_subclass_of(cls) || inst->cls->is_subclass_of(cls->name)))
              match = true;
        }
        if (!match) continue;
        if (!h.name.empty()) bind(h.name, e.exc, f, h.name);
        Value saved = f.scope->vars.count("__current_exception__") ? f.scope->vars["__current_exception__"] : Value::none();
        f.scope->vars["__current_exception__"] = e.exc;
        exec_body(h.body, f);
        f.scope->vars["__current_exception__"] = saved;
        run_finally();
        return;
      }
      throw;
    }
    exec_body(s.orelse, f);
  } catch (...) {
    run_finally();
    throw;
  }
  run_finally();
}

void Evaluator::exec_def(const FunctionDef& d, Frame& f) {
  auto fn = std::make_shared<FunctionObj>();
  fn->name = d.name;
  fn->def = &d;
  fn->closure = f.scope;
  fn->prelude = f.prelude;
  if (f.scope->is_class) fn->owner = f.owner;
  for (const auto& p : d.params)
    if (p.default_value) fn->defaults.push_back(eval(*p.default_value, f));
  Value v = Value::object(fn);
  for (auto it = d.decorators.rbegin(); it != d.decorators.rend(); ++it) v = call(eval(**it, f), {v}, {});
  f.scope->vars[d.name] = v;
  if (f.scope->is_class && f.owner) f.owner->attrs.set(d.name, v);
}

void Evaluator::exec_class(const ClassDef& d, Frame& f) {
  auto cls = std::make_shared<ClassObj>();
  cls->name = d.name;
  if (!d.bases.empty()) {
    Value b = eval(*d.bases[0], f);
    if (auto* bc = b.as<ClassObj>()) {
      // A builtin type's instances are not instances of a script class here.
      if (bc->module == "builtins" && bc->attrs.find("__new_native__"))
        in_.raise("TypeError", "subclassing the builtin type '" + bc->name + "' is not supported in tape scripts");
      if (bc->name != "object" || bc->module != "builtins") cls->base = std::static_pointer_cast<ClassObj>(b.obj);
    } else {
      in_.raise("TypeError", "a class can only inherit from a class (got " + in_.type_name(b) + ")");
    }
  }
  auto scope = std::make_shared<Scope>();
  scope->parent = f.scope;
  scope->is_class = true;
  Frame cf;
  cf.scope = scope;
  cf.prelude = f.prelude;
  cf.owner = cls;
  exec_body(d.body, cf);
  for (const auto& [k, v] : scope->vars)
    if (!cls->attrs.find(k)) cls->attrs.set(k, v);
  if (const Value* m = cls->attrs.find("__module__"); m && m->kind == VKind::Str) cls->module = m->as_str();
  Value v = Value::object(cls);
  for (auto it = d.decorators.rbegin(); it != d.decorators.rend(); ++it) v = call(eval(**it, f), {v}, {});
  bind(d.name, v, f, d.name);
}

namespace {
// ascii(): repr with every non-ASCII code point escaped (\xNN, \uNNNN, \UNNNNNNNN).
std::string ascii_escape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    const int len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    uint32_t cp = c & (len == 4 ? 0x07 : len == 3 ? 0x0F : 0x1F);
    for (int k = 1; k < len && i + static_cast<size_t>(k) < s.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<size_t>(k)]) & 0x3F);
    i += static_cast<size_t>(len);
    char buf[16];
    if (cp <= 0xFF) std::snprintf(buf, sizeof buf, "\\x%02x", cp);
    else if (cp <= 0xFFFF) std::snprintf(buf, sizeof buf, "\\u%04x", cp);
    else std::snprintf(buf, sizeof buf, "\\U%08x", cp);
    out += buf;
  }
  return out;
}
}  // namespace

void Evaluator::bind(const std::string& name, const Value& v, Frame& f, const std::string& label) {
  std::shared_ptr<Scope> target = f.scope;
  for (const auto& g : f.scope->globals)
    if (g == name) target = in_.globals();
  for (const auto& g : f.scope->nonlocals)
    if (g == name)  // the enclosing function scope that binds it
      for (std::shared_ptr<Scope> p = f.scope->parent; p && p != in_.globals(); p = p->parent)
        if (!p->is_class && p->vars.count(name)) {
          target = p;
          break;
        }
  if (target == in_.globals() && target != f.scope && replaying_user_code(f)) return;  // `global x` in a replay
  target->vars[name] = v;
  if (f.prelude || prelude_depth_ > 0) return;
  const bool engine_value = v.kind == VKind::Tensor || v.kind == VKind::Variable;
  const std::string key = "s" + std::to_string(target->serial) + ":" + name;
  in_.engine().bind_name(label, engine_value ? v.id : kNoId, in_.type_name(v), key);
  if (engine_value) in_.engine().control_use(v.id);
  // The elements of a small list, tuple or str-keyed dict are slots too (`params[0]`,
  // `my_vars['w']`): rebuilding the list from tensors replaces the variables it held.
  constexpr size_t kMaxElementSlots = 32;
  auto element = [&](const std::string& index, const Value& x) {
    if (x.kind == VKind::Tensor || x.kind == VKind::Variable)
      in_.engine().bind_name(label + "[" + index + "]", x.id, in_.type_name(x), key + "[" + index + "]");
  };
  if (const auto* l = v.as<ListObj>(); l && l->items.size() <= kMaxElementSlots) {
    for (size_t i = 0; i < l->items.size(); ++i) element(std::to_string(i), l->items[i]);
  } else if (const auto* d = v.as<DictObj>(); d && d->items.size() <= kMaxElementSlots) {
    for (const auto& [k, x] : d->items)
      if (k.kind == VKind::Str) element(in_.repr(k), x);
  }
}

void Evaluator::assign(const Expr& target, const Value& v, Frame& f) {
  if (auto* n = target.as<Name>()) {
    bind(n->id, v, f, n->id);
    return;
  }
  if (auto* a = target.as<Attribute>()) {
    Value obj = eval(*a->value, f);
    if (replaying_user_code(f) && made_before_call(obj)) return;
    in_.setattr(obj, a->attr, v);
    if (!f.prelude && prelude_depth_ == 0) {
      const bool engine_value = v.kind == VKind::Tensor || v.kind == VKind::Variable;
      // Keyed by the object, so `self.w` in a method and `model.w` outside are one slot.
      const std::string key =
          obj.kind == VKind::Object ? "o" + std::to_string(reinterpret_cast<uintptr_t>(obj.obj.get())) + "." + a->attr : "";
      in_.engine().bind_name(unparse(target), engine_value ? v.id : kNoId, in_.type_name(v), key);
    }
    return;
  }
  if (auto* s = target.as<Subscript>()) {
    Value obj = eval(*s->value, f);
    const Value index = eval_subscript_index(*s->index, f);
    if (replaying_user_code(f) && made_before_call(obj) && (obj.as<ListObj>() || obj.as<DictObj>())) return;
    in_.setitem(obj, index, v);
    // `params[0] = ...` / `my_vars['w'] = ...` rebinds that element's slot (see bind()).
    const auto* n = s->value->as<Name>();
    if (n && !f.prelude && prelude_depth_ == 0 && (v.kind == VKind::Tensor || v.kind == VKind::Variable) &&
        (index.kind == VKind::Int || index.kind == VKind::Str)) {
      for (Scope* sc = f.scope.get(); sc; sc = sc->parent.get())
        if (sc->vars.count(n->id)) {
          const std::string idx = index.kind == VKind::Int ? std::to_string(index.i) : in_.repr(index);
          in_.engine().bind_name(unparse(target), v.id, in_.type_name(v),
                                 "s" + std::to_string(sc->serial) + ":" + n->id + "[" + idx + "]");
          break;
        }
    }
    return;
  }
  const std::vector<ExprPtr>* elts = nullptr;
  if (auto* t = target.as<Tuple>()) elts = &t->elts;
  else if (auto* l = target.as<List>()) elts = &l->elts;
  if (!elts) in_.raise("SyntaxError", "cannot assign to " + unparse(target));
  std::vector<Value> items = in_.iterate(v);
  size_t star = elts->size();
  for (size_t i = 0; i < elts->size(); ++i)
    if ((*elts)[i]->is<Starred>()) star = i;
  if (star == elts->size()) {
    if (items.size() < elts->size())
      in_.raise("ValueError", "not enough values to unpack (expected " + std::to_string(elts->size()) + ", got " +
                                  std::to_string(items.size()) + ")");
    if (items.size() > elts->size())
      in_.raise("ValueError", "too many values to unpack (expected " + std::to_string(elts->size()) + ")");
    for (size_t i = 0; i < elts->size(); ++i) assign(*(*elts)[i], items[i], f);
    return;
  }
  const size_t fixed = elts->size() - 1;
  if (items.size() < fixed)
    in_.raise("ValueError", "not enough values to unpack (expected at least " + std::to_string(fixed) + ", got " +
                                std::to_string(items.size()) + ")");
  const size_t rest = items.size() - fixed;
  size_t k = 0;
  for (size_t i = 0; i < elts->size(); ++i) {
    if (i == star) {
      std::vector<Value> mid(items.begin() + static_cast<long>(k), items.begin() + static_cast<long>(k + rest));
      assign(*(*elts)[i]->as<Starred>()->value, in_.make_list(std::move(mid)), f);
      k += rest;
    } else {
      assign(*(*elts)[i], items[k++], f);
    }
  }
}

void Evaluator::delete_target(const Expr& target, Frame& f) {
  if (auto* n = target.as<Name>()) {
    if (!f.scope->vars.erase(n->id)) name_error(n->id);
    return;
  }
  if (auto* s = target.as<Subscript>()) {
    Value obj = eval(*s->value, f);
    Value key = eval_subscript_index(*s->index, f);
    if (replaying_user_code(f) && made_before_call(obj) && (obj.as<DictObj>() || obj.as<ListObj>())) return;
    if (auto* d = obj.as<DictObj>()) {
      auto it = d->index.find(in_.dict_key(key));
      if (it == d->index.end()) in_.raise_key_error(key);
      d->items.erase(d->items.begin() + static_cast<long>(it->second));
      d->index.clear();
      for (size_t i = 0; i < d->items.size(); ++i) d->index[in_.dict_key(d->items[i].first)] = i;
      return;
    }
    if (auto* l = obj.as<ListObj>(); l && obj.obj->okind == OKind::List) {
      const int64_t n = static_cast<int64_t>(l->items.size());
      if (auto* sl = key.as<SliceObj>()) {  // del xs[a:b:c]: the positions the slice picks
        std::vector<int64_t> positions = slice_positions(*sl, n);
        std::sort(positions.begin(), positions.end());
        std::vector<Value> kept;
        size_t p = 0;
        for (int64_t i = 0; i < n; ++i) {
          if (p < positions.size() && positions[p] == i) {
            ++p;
            continue;
          }
          kept.push_back(l->items[static_cast<size_t>(i)]);
        }
        l->items = std::move(kept);
        return;
      }
      const std::optional<int64_t> index = in_.index_value(key);
      if (!index) in_.raise("TypeError", "list indices must be integers or slices, not " + in_.type_name(key));
      const int64_t i = *index < 0 ? *index + n : *index;
      if (i < 0 || i >= n) in_.raise("IndexError", "list assignment index out of range");
      l->items.erase(l->items.begin() + i);
      return;
    }
    if (auto m = in_.try_getattr(obj, "__delitem__"); m && obj.as<InstanceObj>()) {
      call(*m, {key}, {});
      return;
    }
    in_.raise("TypeError", "'" + in_.type_name(obj) + "' object doesn't support item deletion");
  }
  if (auto* a = target.as<Attribute>()) {
    Value obj = eval(*a->value, f);
    if (replaying_user_code(f) && made_before_call(obj)) return;
    if (auto* inst = obj.as<InstanceObj>(); inst && inst->attrs.erase(a->attr)) return;
    in_.raise("AttributeError", a->attr);
  }
  if (auto* t = target.as<Tuple>()) {
    for (const auto& e : t->elts) delete_target(*e, f);
    return;
  }
}

// --- expressions ---
namespace {

void bound_by_target(const Expr& t, std::unordered_set<std::string>& out) {
  if (const Name* n = t.as<Name>()) {
    out.insert(n->id);
  } else if (const Tuple* tu = t.as<Tuple>()) {
    for (const auto& e : tu->elts) bound_by_target(*e, out);
  } else if (const List* l = t.as<List>()) {
    for (const auto& e : l->elts) bound_by_target(*e, out);
  } else if (const Starred* st = t.as<Starred>()) {
    bound_by_target(*st->value, out);
  }
}

void bound_in(const Body& body, std::unordered_set<std::string>& out, std::unordered_set<std::string>& declared) {
  for (const auto& sp : body) {
    const Stmt& s = *sp;
    if (const Assign* a = s.as<Assign>()) {
      for (const auto& t : a->targets) bound_by_target(*t, out);
    } else if (const AugAssign* a = s.as<AugAssign>()) {
      bound_by_target(*a->target, out);
    } else if (const For* fo = s.as<For>()) {
      bound_by_target(*fo->target, out);
    } else if (const With* w = s.as<With>()) {
      for (const auto& item : w->items)
        if (item.optional_vars) bound_by_target(*item.optional_vars, out);
    } else if (const FunctionDef* d = s.as<FunctionDef>()) {
      out.insert(d->name);
      continue;  // its body is another scope
    } else if (const ClassDef* c = s.as<ClassDef>()) {
      out.insert(c->name);
      continue;
    } else if (const Try* t = s.as<Try>()) {
      for (const auto& h : t->handlers)
        if (!h.name.empty()) out.insert(h.name);
    } else if (const Delete* d = s.as<Delete>()) {
      for (const auto& t : d->targets) bound_by_target(*t, out);
    } else if (const Import* im = s.as<Import>()) {
      for (const auto& a : im->names) out.insert(a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname);
    } else if (const ImportFrom* im = s.as<ImportFrom>()) {
      for (const auto& a : im->names) out.insert(a.asname.empty() ? a.name : a.asname);
    } else if (const Global* g = s.as<Global>()) {
      declared.insert(g->names.begin(), g->names.end());
    } else if (const Nonlocal* n = s.as<Nonlocal>()) {
      declared.insert(n->names.begin(), n->names.end());
    }
    for_each_body(s, [&](const Body& b) { bound_in(b, out, declared); });
  }
}

}  // namespace

const std::unordered_set<std::string>& Evaluator::local_names(const FunctionDef& d) {
  auto it = local_names_.find(&d);
  if (it != local_names_.end()) return it->second;
  std::unordered_set<std::string> out, declared;
  for (const auto& p : d.params) out.insert(p.name);
  bound_in(d.body, out, declared);
  for (const std::string& n : declared) out.erase(n);
  return local_names_.emplace(&d, std::move(out)).first->second;
}

Value Evaluator::lookup(const std::string& name, Frame& f, const void* node) {
  bool in_function = false;  // passed the innermost def's scope
  for (Scope* s = f.scope.get(); s; s = s->parent.get()) {
    if (s->is_class && s != f.scope.get()) continue;  // class bodies do not enclose methods
    auto it = s->vars.find(name);
    if (it == s->vars.end() && s->function && local_names(*s->function).count(name)) {
      // Python decides a def's locals when it compiles it: a name the def binds
      // anywhere is local throughout, and reading it before it is bound fails.
      if (!in_function && std::find(s->zero_trip.begin(), s->zero_trip.end(), name) != s->zero_trip.end())
        in_.raise("InvalidArgumentError", "assertion failed: [loop must iterate at least once to initialize " + name + "]");
      if (!in_function)
        in_.raise("UnboundLocalError", "cannot access local variable '" + name + "' where it is not associated with a value");
      in_.raise("NameError", "cannot access free variable '" + name +
                                 "' where it is not associated with a value in enclosing scope");
    }
    if (s->function) in_function = true;
    if (it != s->vars.end()) {
      // Inside a tf.function replay, globals read while tracing keep their traced value:
      // the value this expression read in the trace, else the name's first traced read.
      if (s == in_.globals().get()) {
        if (frozen_) {
          if (const std::optional<Value>* v = node ? traced_read(node) : nullptr) {
            if (*v) return **v;
          } else if (auto fz = frozen_->values.find(name); fz != frozen_->values.end()) {
            return fz->second;
          }
        } else if (recording_) {
          const Value& v = it->second;
          if (v.is_number() || v.kind == VKind::Str || v.kind == VKind::Tensor || v.kind == VKind::NdArray)
            recording_->values.emplace(name, v);
          if (node) record_read(node, v);
        }
      }
      return it->second;
    }
  }
  name_error(name);
}

Value Evaluator::eval(const Expr& e, Frame& f) {
  switch (e.kind()) {
    case ExprKind::Constant: {
      const auto& c = e.as<Constant>()->value;
      if (std::holds_alternative<NoneValue>(c)) return Value::none();
      if (auto* b = std::get_if<bool>(&c)) return Value::boolean(*b);
      if (auto* i = std::get_if<std::int64_t>(&c)) return Value::integer(*i);
      if (auto* d = std::get_if<double>(&c)) return Value::number(*d);
      return Value::str(std::get<std::string>(c));
    }
    case ExprKind::FString: {
      std::string out;
      for (const auto& p : e.as<FString>()->parts) {
        if (!p.is_field()) {
          out += p.literal;
          continue;
        }
        Value v = eval(*p.value, f);
        std::string s;
        if (p.conversion == 0) {
          s = format_spec(v, p.format_spec);
        } else {
          // !r / !s / !a convert first; a format spec then formats that string.
          s = p.conversion == 's' ? in_.str(v) : in_.repr(v);
          if (p.conversion == 'a') s = ascii_escape(s);
          if (!p.format_spec.empty()) s = format_spec(Value::str(s), p.format_spec);
        }
        out += s;
      }
      return Value::str(out);
    }
    case ExprKind::Name:
      try {
        return lookup(e.as<Name>()->id, f, &e);
      } catch (PyException& ex) {
        // In a statement over several lines, Python names the line of the name.
        if (!f.prelude && prelude_depth_ == 0 && ex.line == in_.line() && e.span.begin.line > 0)
          ex.line = e.span.begin.line;
        throw;
      }
    case ExprKind::Attribute: {
      auto* a = e.as<Attribute>();
      const Value obj = eval(*a->value, f);
      return replayed_read(&e, obj, f, [&] { return getattr(obj, a->attr); });
    }
    case ExprKind::Subscript: {
      auto* s = e.as<Subscript>();
      const Value obj = eval(*s->value, f);
      const Value index = eval_subscript_index(*s->index, f);
      return replayed_read(&e, obj, f, [&] { return getitem(obj, index); });
    }
    case ExprKind::Slice: {
      auto* s = e.as<Slice>();
      auto so = std::make_shared<SliceObj>();
      if (s->lower) so->start = eval(*s->lower, f);
      if (s->upper) so->stop = eval(*s->upper, f);
      if (s->step) so->step = eval(*s->step, f);
      return Value::object(so);
    }
    case ExprKind::Call: return eval_call(e, *e.as<Call>(), f);
    case ExprKind::BinOp: {
      auto* b = e.as<BinOp>();
      Value l = eval(*b->left, f);
      Value r = eval(*b->right, f);
      return in_.binary(bin_op_str(b->op), l, r);
    }
    case ExprKind::UnaryOp: {
      auto* u = e.as<UnaryOp>();
      Value v = eval(*u->operand, f);
      if (u->op == UnaryOpKind::Not) return Value::boolean(!decide(v, "not", 0, nullptr));
      return in_.unary(to_string(u->op), v);
    }
    case ExprKind::Compare: return eval_compare(*e.as<Compare>(), f);
    case ExprKind::BoolOp: return eval_boolop(*e.as<BoolOp>(), f);
    case ExprKind::IfExp: {
      auto* x = e.as<IfExp>();
      Value t;
      std::vector<TensorId> decisions;
      const bool taken = decide_collecting(*x->test, f, t, decisions, [&](const Value& tv) {
        std::vector<std::string> names;
        if (tv.kind == VKind::Tensor) collect_names(in_.truthy(tv) ? *x->orelse : *x->body, names);
        return decide(tv, "conditional expression", e.span.begin.line, names);
      });
      for (TensorId c : decisions) in_.engine().push_control(c);
      PopControls pop{in_, decisions.size()};
      Value r = eval(taken ? *x->body : *x->orelse, f);
      if (!decisions.empty() && (r.kind == VKind::Tensor || r.kind == VKind::Variable)) in_.engine().control_use(r.id);
      return r;
    }
    case ExprKind::List: case ExprKind::Tuple: {
      const auto& elts = e.is<List>() ? e.as<List>()->elts : e.as<Tuple>()->elts;
      std::vector<Value> items;
      for (const auto& x : elts) {
        if (auto* st = x->as<Starred>()) {
          for (const Value& v : in_.iterate(eval(*st->value, f))) items.push_back(v);
        } else {
          items.push_back(eval(*x, f));
        }
      }
      return e.is<List>() ? in_.make_list(std::move(items)) : in_.make_tuple(std::move(items));
    }
    case ExprKind::Dict: {
      auto* d = e.as<Dict>();
      Value out = in_.make_dict();
      auto* dd = out.as<DictObj>();
      for (size_t i = 0; i < d->keys.size(); ++i) {
        if (!d->keys[i]) {
          if (auto* src = eval(*d->values[i], f).as<DictObj>())
            for (const auto& [k, v] : src->items) in_.dict_set(*dd, k, v);
          continue;
        }
        Value k = eval(*d->keys[i], f);
        in_.dict_set(*dd, k, eval(*d->values[i], f));
      }
      return out;
    }
    case ExprKind::ListComp: {
      std::vector<Value> out;
      // Comprehension variables live in their own scope, as in Python 3.
      Frame cf = f;
      cf.scope = std::make_shared<Scope>();
      cf.scope->parent = f.scope;
      eval_listcomp(*e.as<ListComp>(), 0, cf, out);
      return in_.make_list(std::move(out));
    }
    case ExprKind::Starred: in_.raise("SyntaxError", "can't use starred expression here");
  }
  return Value::none();
}

Value Evaluator::eval_listcomp(const ListComp& lc, size_t gen, Frame& f, std::vector<Value>& out) {
  if (gen == lc.generators.size()) {
    out.push_back(eval(*lc.elt, f));
    if (out.size() > 10'000'000) in_.raise("ResourceError", "list comprehension too large");
    return Value::none();
  }
  const Comprehension& c = lc.generators[gen];
  Value it = eval(*c.iter, f);
  if (auto* r = it.as<RangeObj>()) {
    for (int64_t i = 0, n = r->size(); i < n; ++i) comprehension_item(lc, gen, Value::integer(r->start + i * r->step), f, out);
  } else {
    for (const Value& x : in_.iterate(it)) comprehension_item(lc, gen, x, f, out);
  }
  return Value::none();
}

void Evaluator::comprehension_item(const ListComp& lc, size_t gen, const Value& x, Frame& f, std::vector<Value>& out) {
  const Comprehension& c = lc.generators[gen];
  in_.tick();
  assign(*c.target, x, f);
  std::vector<TensorId> decisions;
  for (const auto& cond : c.ifs) {
    Value v;
    if (!decide_collecting(*cond, f, v, decisions,
                           [&](const Value& cv) { return decide(cv, "comprehension if", 0, nullptr); }))
      return;
  }
  // The element is computed because its conditions held: control edges from them.
  for (TensorId d : decisions) in_.engine().push_control(d);
  PopControls pop{in_, decisions.size()};
  eval_listcomp(lc, gen + 1, f, out);
}

Value Evaluator::eval_comprehension_call(const Call& c, Frame& f) {
  const ListComp& lc = *c.args[0]->as<ListComp>();
  // Comprehension variables live in their own scope, as in Python 3.
  auto cf = std::make_shared<Frame>(f);
  cf->scope = std::make_shared<Scope>();
  cf->scope->parent = f.scope;
  if (c.func->as<Name>()->id == kDictCompName) {
    std::vector<Value> pairs;
    eval_listcomp(lc, 0, *cf, pairs);
    Value d = in_.make_dict();
    for (const Value& kv : pairs) {
      const auto& items = kv.as<ListObj>()->items;
      in_.dict_set(*d.as<DictObj>(), items[0], items[1]);
    }
    return d;
  }
  // A generator: Python evaluates the outermost iterable at once, the rest as the
  // generator is consumed (`any(...)` stops at the first true element). Elements of
  // inner `for` clauses are computed together, one outer element at a time.
  struct GenState {
    Value iter;
    std::vector<Value> pending;
    size_t pos = 0;
    bool done = false;
  };
  auto st = std::make_shared<GenState>();
  st->iter = in_.make_iterator(eval(*lc.generators[0].iter, f));
  auto gen = std::make_shared<NativeObj>("generator");
  gen->type_name = "generator";
  const Object* self = gen.get();
  gen->repr = [self] { return "<generator object <genexpr> at " + fake_address(self) + ">"; };
  // Only __next__: make_iterator() takes the object as its own iterator.
  gen->attrs.set("__next__", in_.builtin("generator.__next__", [this, &lc, cf, st](Interpreter& in, CallArgs&) {
    // A chain of generators recurses here: Python's RecursionError, not a stack overflow.
    Interpreter::NestGuard guard(in, " while calling a Python object");
    while (st->pos >= st->pending.size()) {
      if (st->done) in.raise("StopIteration", "");
      st->pending.clear();
      st->pos = 0;
      std::optional<Value> x = in.next(st->iter);
      if (!x) {
        st->done = true;
        st->iter = Value::none();
        continue;
      }
      comprehension_item(lc, 0, *x, *cf, st->pending);
    }
    return st->pending[st->pos++];
  }));
  return Value::object(gen);
}

Value Evaluator::eval_subscript_index(const Expr& index, Frame& f) { return eval(index, f); }

Value Evaluator::eval_compare(const Compare& c, Frame& f) {
  Value left = eval(*c.left, f);
  Value result = Value::boolean(true);
  for (size_t i = 0; i < c.ops.size(); ++i) {
    Value right = eval(*c.comparators[i], f);
    Value r;
    switch (c.ops[i]) {
      case CmpOpKind::Eq: r = in_.compare("==", left, right); break;
      case CmpOpKind::NotEq: r = in_.compare("!=", left, right); break;
      case CmpOpKind::Lt: r = in_.compare("<", left, right); break;
      case CmpOpKind::LtE: r = in_.compare("<=", left, right); break;
      case CmpOpKind::Gt: r = in_.compare(">", left, right); break;
      case CmpOpKind::GtE: r = in_.compare(">=", left, right); break;
      case CmpOpKind::Is: case CmpOpKind::IsNot: {
        bool same;
        if (left.kind != right.kind) same = false;
        else if (left.kind == VKind::None) same = true;
        else if (left.kind == VKind::Bool) same = left.b == right.b;
        else if (left.kind == VKind::Object) same = left.obj == right.obj;
        else if (left.kind == VKind::Int) same = left.i == right.i;
        else if (is_tensorish(left)) same = left.id == right.id;
        else same = false;
        r = Value::boolean(c.ops[i] == CmpOpKind::Is ? same : !same);
        break;
      }
      case CmpOpKind::In: case CmpOpKind::NotIn: {
        bool found = false;
        if (right.kind == VKind::Str) {
          if (left.kind != VKind::Str) in_.raise("TypeError", "'in <string>' requires string as left operand, not " + in_.type_name(left));
          found = right.as_str().find(left.as_str()) != std::string::npos;
        } else if (auto* d = right.as<DictObj>()) {
          found = in_.dict_get(*d, left) != nullptr;
        } else if (auto* n = right.as<NativeObj>();
                   n && n->tag == "dict_view" && static_cast<DictViewPayload*>(n->payload.get())->kind == DictViewPayload::Keys) {
          found = in_.dict_get(*static_cast<DictViewPayload*>(n->payload.get())->dict, left) != nullptr;
        } else {
          for (const Value& x : in_.iterate(right))
            if (in_.equals(left, x)) {
              found = true;
              break;
            }
        }
        r = Value::boolean(c.ops[i] == CmpOpKind::In ? found : !found);
        break;
      }
    }
    if (c.ops.size() == 1) return r;
    if (!decide(r, "comparison chain", 0, nullptr)) return r;
    result = r;
    left = right;
  }
  return result;
}

Value Evaluator::eval_boolop(const BoolOp& b, Frame& f) {
  // Each operand decided on selects between itself and the rest: the rest is evaluated,
  // and the result chosen, under that decision (control edges, as for `a if c else b`).
  Value v;
  PopControls pop{in_, 0};  // one control per tensor decided on
  for (size_t i = 0; i < b.values.size(); ++i) {
    v = eval(*b.values[i], f);
    if (i + 1 == b.values.size()) break;
    const bool t = decide(v, b.op == BoolOpKind::And ? "and" : "or", 0, nullptr);
    if (v.kind == VKind::Tensor || v.kind == VKind::Variable) {
      in_.engine().push_control(in_.engine().log().events.back().subject);  // the decided tensor (a variable's read)
      ++pop.n;
    }
    if (b.op == BoolOpKind::And ? !t : t) break;
  }
  if (pop.n > 0 && (v.kind == VKind::Tensor || v.kind == VKind::Variable)) in_.engine().control_use(v.id);
  return v;
}

Value Evaluator::eval_call(const Expr& e, const Call& c, Frame& f) {
  if (auto* n = c.func->as<Name>(); n && (n->id == kGenExprName || n->id == kDictCompName))
    return eval_comprehension_call(c, f);
  // super() without arguments: the method's class and its first argument.
  if (auto* n = c.func->as<Name>(); n && n->id == "super" && c.args.empty()) {
    if (!f.owner || !f.has_self) in_.raise("RuntimeError", "super(): no arguments");
    return Value::object(std::make_shared<SuperObj>(f.owner, f.self));
  }
  Value owner;  // the object a method is called on (`owner.append(x)`)
  Value fn;
  if (auto* m = c.func->as<Attribute>()) {
    owner = eval(*m->value, f);
    fn = replayed_read(c.func.get(), owner, f, [&] { return getattr(owner, m->attr); });
  } else {
    fn = eval(*c.func, f);
  }
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> kwargs;
  for (const auto& a : c.args) {
    if (auto* st = a->as<Starred>()) {
      for (const Value& v : in_.iterate(eval(*st->value, f))) args.push_back(v);
    } else {
      args.push_back(eval(*a, f));
    }
  }
  for (const auto& k : c.keywords) {
    Value v = eval(*k.value, f);
    if (k.name.empty()) {
      auto* d = v.as<DictObj>();
      if (!d) in_.raise("TypeError", "argument after ** must be a mapping, not " + in_.type_name(v));
      for (const auto& [kk, vv] : d->items) kwargs.emplace_back(in_.str(kk), vv);
    } else {
      kwargs.emplace_back(k.name, v);
    }
  }
  (void)e;
  CallGuard g(call_stack_, &c);
  if (frozen_ || recording_) {
    // tf.function: next() of an iterator older than the call gives, in a replay, what
    // the trace got (TF's graph holds that element); a replay leaves older lists and
    // dicts as they are.
    // (A tf.data iterator is not one: its next() is an IteratorGetNext op in the graph.)
    if (auto* b = fn.as<BuiltinObj>(); b && b->name == "next" && !args.empty()) {
      const auto* it = args[0].as<NativeObj>();
      if (it && it->tag == "iterator") return replayed_read(&e, args[0], f, [&] { return call(fn, args, kwargs); });
    }
    if (auto* m = c.func->as<Attribute>(); m && (owner.as<ListObj>() || owner.as<DictObj>())) {
      // Methods that take a value out: what the trace took, without taking it again.
      if (m->attr == "pop" || m->attr == "popitem" || m->attr == "setdefault")
        return replayed_read(&e, owner, f, [&] { return call(fn, args, kwargs); });
      static const char* const kMutators[] = {"append", "extend", "insert", "clear", "reverse", "remove", "sort",
                                              "update"};
      if (replaying_user_code(f) && made_before_call(owner) &&
          std::any_of(std::begin(kMutators), std::end(kMutators), [&](const char* n) { return m->attr == n; }))
        return Value::none();
    }
  }
  return call(fn, std::move(args), std::move(kwargs));
}

std::string Evaluator::call_arg_text(size_t index) const {
  if (call_stack_.empty()) return {};
  const Call* c = call_stack_.back();
  if (index < c->args.size()) return unparse(*c->args[index]);
  return {};
}

std::vector<std::string> Evaluator::call_arg_element_texts(size_t index) const {
  std::vector<std::string> out;
  if (call_stack_.empty()) return out;
  const Call* c = call_stack_.back();
  const Expr* arg = index < c->args.size() ? c->args[index].get() : nullptr;
  if (!arg) {
    static const char* kNames[] = {"target", "sources", "output_gradients"};
    for (const auto& k : c->keywords)
      if (index < 3 && k.name == kNames[index]) arg = k.value.get();
  }
  if (!arg) return out;
  if (auto* l = arg->as<List>()) {
    for (const auto& x : l->elts) out.push_back(unparse(*x));
  } else if (auto* t = arg->as<Tuple>()) {
    for (const auto& x : t->elts) out.push_back(unparse(*x));
  } else if (auto* d = arg->as<Dict>()) {
    for (const auto& x : d->values) out.push_back(unparse(*x));
  } else {
    out.push_back(unparse(*arg));
  }
  return out;
}

std::string Evaluator::keyword_arg_text(const std::string& name) const {
  if (call_stack_.empty()) return {};
  for (const auto& k : call_stack_.back()->keywords)
    if (k.name == name) return unparse(*k.value);
  return {};
}

// --- calls ---
Value Evaluator::call(const Value& fn, std::vector<Value> args, std::vector<std::pair<std::string, Value>> kwargs) {
  if (fn.kind != VKind::Object) {
    in_.raise("TypeError", "'" + in_.type_name(fn) + "' object is not callable");
  }
  switch (fn.obj->okind) {
    case OKind::Function: return call_function(*static_cast<FunctionObj*>(fn.obj.get()), std::move(args), std::move(kwargs), nullptr);
    case OKind::BoundMethod: {
      auto* b = static_cast<BoundMethodObj*>(fn.obj.get());
      if (auto* f = b->func.as<FunctionObj>()) return call_function(*f, std::move(args), std::move(kwargs), &b->self);
      args.insert(args.begin(), b->self);
      return call(b->func, std::move(args), std::move(kwargs));
    }
    case OKind::Builtin: {
      auto* b = static_cast<BuiltinObj*>(fn.obj.get());
      CallArgs ca{std::move(args), std::move(kwargs)};
      check_builtin_args(in_, b->name, ca);
      try {
        return b->fn(in_, ca);
      } catch (const TfError& e) {
        throw PyException{in_.make_exception(e.type(), e.what()), e.type(), e.what(), in_.line()};
      }
    }
    case OKind::Class: return instantiate(std::static_pointer_cast<ClassObj>(fn.obj), std::move(args), std::move(kwargs));
    case OKind::Instance: case OKind::Native: {
      Value m = getattr(fn, "__call__");
      return call(m, std::move(args), std::move(kwargs));
    }
    case OKind::StaticMethod: return call(static_cast<WrapperObj*>(fn.obj.get())->func, std::move(args), std::move(kwargs));
    default: break;
  }
  in_.raise("TypeError", "'" + in_.type_name(fn) + "' object is not callable");
}

Value Evaluator::call_function(const FunctionObj& fn, std::vector<Value> args,
                               std::vector<std::pair<std::string, Value>> kwargs, const Value* self) {
  if (self) args.insert(args.begin(), *self);
  DepthGuard dg(in_.call_depth());
  if (in_.call_depth() > kMaxCallDepth) in_.raise("RecursionError", "maximum recursion depth exceeded (limit " + std::to_string(kMaxCallDepth) + " calls)");
  const FunctionDef& d = *fn.def;
  auto scope = std::make_shared<Scope>();
  scope->parent = fn.closure;
  scope->function = &d;
  Frame f;
  f.scope = scope;
  f.prelude = fn.prelude;
  f.function = &fn;
  f.owner = fn.owner.lock();
  size_t ai = 0, di = 0;
  Value var_args, var_kw;
  // Python names a method by its qualified name: "Model.call() takes ...".
  const auto owner = fn.owner.lock();
  const std::string fname = (owner ? owner->name + "." : std::string()) + fn.name + "()";
  // CPython's order of complaints (initialize_locals): each keyword in turn, unexpected
  // or given twice; then too many positional arguments; then all that are missing.
  bool has_var_positional = false, has_var_keyword = false;
  size_t npos = 0, required = 0;
  for (const auto& p : d.params) {
    has_var_positional = has_var_positional || p.kind == ParamKind::VarPositional;
    has_var_keyword = has_var_keyword || p.kind == ParamKind::VarKeyword;
    npos += p.kind == ParamKind::Positional;
    required += p.kind == ParamKind::Positional && !p.default_value;
  }
  for (const auto& kv : kwargs) {
    const std::string& k = kv.first;  // (clang 14 cannot capture a structured binding)
    size_t pos_index = 0;
    const Param* match = nullptr;
    for (const Param& p : d.params) {
      if (p.name == k && (p.kind == ParamKind::Positional || p.kind == ParamKind::KeywordOnly)) {
        match = &p;
        break;
      }
      pos_index += p.kind == ParamKind::Positional;
    }
    if (!match && !has_var_keyword) in_.raise("TypeError", fname + " got an unexpected keyword argument '" + k + "'");
    if (match && match->kind == ParamKind::Positional && pos_index < args.size())
      in_.raise("TypeError", fname + " got multiple values for argument '" + k + "'");
  }
  if (!has_var_positional && args.size() > npos) {
    const std::string takes = required == npos ? std::to_string(npos) : "from " + std::to_string(required) + " to " + std::to_string(npos);
    size_t kwonly_given = 0;
    for (const auto& kv : kwargs)
      for (const Param& p : d.params) kwonly_given += p.kind == ParamKind::KeywordOnly && p.name == kv.first;
    const std::string given =
        kwonly_given == 0 ? std::to_string(args.size()) + (args.size() == 1 ? " was" : " were")
                          : std::to_string(args.size()) + " positional argument" + (args.size() == 1 ? "" : "s") + " (and " +
                                std::to_string(kwonly_given) + " keyword-only argument" + (kwonly_given == 1 ? "" : "s") +
                                ")" + (args.size() == 1 ? " was" : " were");
    in_.raise("TypeError", fname + " takes " + takes + " positional argument" + (npos == 1 ? "" : "s") + " but " + given +
                               " given");
  }
  for (const ParamKind kind : {ParamKind::Positional, ParamKind::KeywordOnly}) {
    std::vector<std::string> missing;
    size_t pos_index = 0;
    for (const Param& p : d.params) {
      if (p.kind != kind) continue;
      const bool by_position = kind == ParamKind::Positional && pos_index++ < args.size();
      const bool by_name = std::any_of(kwargs.begin(), kwargs.end(), [&](const auto& kv) { return kv.first == p.name; });
      if (!p.default_value && !by_position && !by_name) missing.push_back("'" + p.name + "'");
    }
    if (missing.empty()) continue;
    std::string names = missing[0];  // 'a', 'a' and 'b', 'a', 'b', and 'c'
    for (size_t k = 1; k < missing.size(); ++k)
      names += (k + 1 < missing.size() ? ", " : missing.size() > 2 ? ", and " : " and ") + missing[k];
    in_.raise("TypeError", fname + " missing " + std::to_string(missing.size()) + " required " +
                               (kind == ParamKind::KeywordOnly ? "keyword-only" : "positional") + " argument" +
                               (missing.size() == 1 ? "" : "s") + ": " + names);
  }
  for (const auto& p : d.params) {
    if (p.kind == ParamKind::VarPositional) {
      std::vector<Value> rest;
      while (ai < args.size()) rest.push_back(args[ai++]);
      scope->vars[p.name] = in_.make_tuple(std::move(rest));
      continue;
    }
    if (p.kind == ParamKind::VarKeyword) {
      Value d2 = in_.make_dict();
      for (auto& [k, v] : kwargs) in_.dict_set(*d2.as<DictObj>(), Value::str(k), v);
      kwargs.clear();
      scope->vars[p.name] = d2;
      continue;
    }
    const Value* def = p.default_value ? &fn.defaults[di++] : nullptr;
    bool got = false;
    if (p.kind == ParamKind::Positional && ai < args.size()) {
      scope->vars[p.name] = args[ai++];
      got = true;
    }
    for (auto it = kwargs.begin(); it != kwargs.end(); ++it)
      if (it->first == p.name) {
        if (got) in_.raise("TypeError", fname + " got multiple values for argument '" + p.name + "'");
        scope->vars[p.name] = it->second;
        kwargs.erase(it);
        got = true;
        break;
      }
    if (!got) {
      if (!def)
        in_.raise("TypeError", fname + " missing 1 required " + (p.kind == ParamKind::KeywordOnly ? "keyword-only" : "positional") +
                                   " argument: '" + p.name + "'");
      scope->vars[p.name] = *def;
    }
  }

  // A parameter that received a tensor or variable is a name binding, as an assignment
  // is: `x = x + 1` in the body then replaces what the caller passed (REPLACED_VARIABLE).
  if (!fn.prelude && prelude_depth_ == 0)
    for (const Param& p : d.params) {
      auto v = scope->vars.find(p.name);
      if (v == scope->vars.end() || (v->second.kind != VKind::Tensor && v->second.kind != VKind::Variable)) continue;
      in_.engine().bind_name(p.name, v->second.id, in_.type_name(v->second),
                             "s" + std::to_string(scope->serial) + ":" + p.name);
    }
  if (!d.params.empty() && !args.empty()) {
    f.self = scope->vars[d.params[0].name];
    f.has_self = true;
  }
  const int saved_line = in_.line();
  try {
    exec_body(d.body, f);
  } catch (ReturnSignal& r) {
    if (!fn.prelude && prelude_depth_ == 0) in_.set_line(saved_line);
    return r.value;
  }
  if (!fn.prelude && prelude_depth_ == 0) in_.set_line(saved_line);
  return Value::none();
}

Value Evaluator::instantiate(const std::shared_ptr<ClassObj>& cls, std::vector<Value> args,
                             std::vector<std::pair<std::string, Value>> kwargs) {
  const Value* init = cls->lookup("__init__");
  const auto* native_init = init ? init->as<BuiltinObj>() : nullptr;
  if (cls->is_subclass_of("BaseException") && (!init || (native_init && native_init->name == "BaseException.__init__"))) {
    // BaseException.__new__ and __init__: args are the positional arguments.
    if (!kwargs.empty()) in_.raise("TypeError", cls->name + "() takes no keyword arguments");
    auto inst = std::make_shared<InstanceObj>(cls);
    inst->attrs.set("args", in_.make_tuple(args));
    return Value::object(inst);
  }
  if (const Value* nw = cls->lookup("__new_native__")) {
    // A native-backed class (e.g. a builtin type name used as a constructor).
    return call(*nw, std::move(args), std::move(kwargs));
  }
  auto inst = std::make_shared<InstanceObj>(cls);
  Value self = Value::object(inst);
  if (cls->is_subclass_of("BaseException")) inst->attrs.set("args", in_.make_tuple(args));
  if (init) {
    Value bound = bind_class_attr(*init, self, cls);
    call(bound, std::move(args), std::move(kwargs));
  } else if (!args.empty() || !kwargs.empty()) {
    in_.raise("TypeError", cls->name + "() takes no arguments");
  }
  return self;
}

Value Evaluator::bind_class_attr(const Value& attr, const Value& self, const std::shared_ptr<ClassObj>& cls) {
  if (attr.kind != VKind::Object) return attr;
  switch (attr.obj->okind) {
    case OKind::Function: case OKind::Builtin:
      return Value::object(std::make_shared<BoundMethodObj>(self, attr));
    case OKind::StaticMethod: return static_cast<WrapperObj*>(attr.obj.get())->func;
    case OKind::ClassMethod:
      return Value::object(std::make_shared<BoundMethodObj>(Value::object(cls), static_cast<WrapperObj*>(attr.obj.get())->func));
    case OKind::Property: {
      const Value& fns = static_cast<WrapperObj*>(attr.obj.get())->func;
      auto* l = fns.as<ListObj>();
      return call(l->items[0], {self}, {});
    }
    case OKind::Native: {
      // tf.function objects bind like functions.
      auto* n = static_cast<NativeObj*>(attr.obj.get());
      if (n->tag == "tf.function") return Value::object(std::make_shared<BoundMethodObj>(self, attr));
      // Natives with a __get__ bind themselves (tf.custom_gradient's wrapper).
      if (const Value* get = n->attrs.find("__get__")) return call(*get, {self}, {});
      return attr;
    }
    default: return attr;
  }
}

Value Evaluator::getattr(const Value& obj, const std::string& name) {
  auto missing = [&]() -> Value {
    if (auto* c = obj.as<ClassObj>())
      in_.raise("AttributeError", "type object '" + c->name + "' has no attribute '" + name + "'");
    if (auto* m = obj.as<ModuleObj>()) {
      // A name real TensorFlow, Keras or NumPy has but tape scripts do not: say so, rather
      // than claim the library lacks it.
      if (known_unsupported(m->name, name))
        in_.raise("AttributeError", "module '" + m->name + "' has no attribute '" + name + "': " + m->name + "." + name +
                                        " is not supported in tape scripts");
      in_.raise("AttributeError", "module '" + m->name + "' has no attribute '" + name + "'");
    }
    // EagerTensor is a C type: Python names it by its full dotted name.
    const std::string tname = obj.kind == VKind::Tensor ? "tensorflow.python.framework.ops.EagerTensor" : in_.type_name(obj);
    // Members a tf.Variable has in TF that tape scripts leave out.
    static const std::set<std::string> kVariableMembers = {
        "scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_max", "scatter_min",
        "scatter_nd_update", "scatter_nd_add", "scatter_nd_sub", "batch_scatter_update", "sparse_read", "gather_nd",
        "handle", "synchronization", "aggregation", "count_up_to", "load", "initial_value", "initializer", "constraint",
        "save_counter", "to_proto", "from_proto", "set_shape", "experimental_ref"};
    if (obj.kind == VKind::Variable && tname == "ResourceVariable" && kVariableMembers.count(name))
      in_.raise("AttributeError", "'" + tname + "' object has no attribute '" + name + "': tf.Variable." + name +
                                      " is not supported in tape scripts");
    // What a tf.function's Function has in TF that tape scripts leave out (its graphs).
    static const std::set<std::string> kFunctionMembers = {
        "get_concrete_function", "pretty_printed_concrete_signatures", "experimental_get_compiler_ir",
        "function_spec", "variables", "trainable_variables"};
    if (auto* n = obj.as<NativeObj>(); n && n->tag == "tf.function" && kFunctionMembers.count(name))
      in_.raise("AttributeError", "'Function' object has no attribute '" + name + "': Function." + name +
                                      " is not supported in tape scripts");
    in_.raise("AttributeError", "'" + tname + "' object has no attribute '" + name + "'");
  };
  switch (obj.kind) {
    case VKind::Tensor: case VKind::Variable: case VKind::NdArray:
      if (in_.hooks().tensor_getattr)
        if (auto v = in_.hooks().tensor_getattr(in_, obj, name)) return *v;
      return missing();
    case VKind::Object: break;
    case VKind::Float:
      if (name == "is_integer") {
        const double x = obj.f;
        return in_.builtin("float.is_integer", [x](Interpreter&, CallArgs&) {
          return Value::boolean(std::isfinite(x) && x == std::floor(x));
        });
      }
      return missing();
    case VKind::Str: {
      const std::string s = obj.as_str();
      if (name == "format")
        return in_.builtin("str.format", [this, s](Interpreter&, CallArgs& a) { return Value::str(str_format(s, a)); });
      if (name == "join")
        return in_.builtin("str.join", [s](Interpreter& in, CallArgs& a) {
          std::string out;
          bool first = true;
          size_t index = 0;
          for (const Value& v : in.iterate(a.get_or(0, "iterable", in.make_list({})))) {
            if (v.kind != VKind::Str)
              in.raise("TypeError", "sequence item " + std::to_string(index) + ": expected str instance, " + in.type_name(v) + " found");
            ++index;
            if (!first) out += s;
            out += v.as_str();
            first = false;
            if (out.size() > (64u << 20))
              in.raise("ResourceError", "string too large (tape scripts allow 64 MiB per string and 10^7 items per list)");
          }
          return Value::str(out);
        });
      if (auto m = str_method(in_, s, name)) return *m;
      return missing();
    }
    default: return missing();
  }
  Object* o = obj.obj.get();
  switch (o->okind) {
    case OKind::Instance: {
      auto* inst = static_cast<InstanceObj*>(o);
      // Data descriptors (properties) on the class win over instance attributes.
      const Value* ca = inst->cls->lookup(name);
      if (ca && ca->kind == VKind::Object && ca->obj->okind == OKind::Property) return bind_class_attr(*ca, obj, inst->cls);
      if (const Value* v = inst->attrs.find(name)) return *v;
      if (ca) return bind_class_attr(*ca, obj, inst->cls);
      if (name == "__class__") return Value::object(inst->cls);
      if (name == "__dict__") {
        Value d = in_.make_dict();
        for (const auto& [k, v] : inst->attrs.items()) in_.dict_set(*d.as<DictObj>(), Value::str(k), v);
        return d;
      }
      if (const Value* ga = inst->cls->lookup("__getattr__")) return call(bind_class_attr(*ga, obj, inst->cls), {Value::str(name)}, {});
      return missing();
    }
    case OKind::Class: {
      auto* c = static_cast<ClassObj*>(o);
      if (const Value* v = c->lookup(name)) {
        if (v->kind == VKind::Object && v->obj->okind == OKind::StaticMethod) return static_cast<WrapperObj*>(v->obj.get())->func;
        if (v->kind == VKind::Object && v->obj->okind == OKind::ClassMethod)
          return Value::object(std::make_shared<BoundMethodObj>(obj, static_cast<WrapperObj*>(v->obj.get())->func));
        return *v;
      }
      if (name == "__name__") return Value::str(c->name);
      if (name == "__qualname__") return Value::str(c->name);
      if (name == "__module__") return Value::str(c->module);
      if (c->module == "builtins" && c->attrs.find("__new_native__")) {
        // An unbound method of a builtin type (`str.upper`, `list.append`): the method
        // of its first argument.
        static const std::map<std::string, int> kSamples = {{"str", 0}, {"list", 1}, {"tuple", 2}, {"dict", 3},
                                                            {"int", 4}, {"float", 5}};
        auto sample = kSamples.find(c->name);
        if (sample != kSamples.end()) {
          const Value probe = sample->second == 0   ? Value::str("")
                              : sample->second == 1 ? in_.make_list({})
                              : sample->second == 2 ? in_.make_tuple({})
                              : sample->second == 3 ? in_.make_dict()
                              : sample->second == 4 ? Value::integer(0)
                                                    : Value::number(0);
          if (in_.try_getattr(probe, name)) {
            const std::string tname = c->name;
            // Not named `str.upper`: the bound method it calls checks the arguments.
            Value m = in_.builtin("unbound " + tname + "." + name, [tname, name](Interpreter& in, CallArgs& a) {
              if (a.args.empty() || in.type_name(a.args[0]) != tname)
                in.raise("TypeError", "unbound method " + tname + "." + name + "() needs an argument");
              const Value self = a.args[0];
              a.args.erase(a.args.begin());
              return in.call(in.getattr(self, name), std::move(a.args), std::move(a.kwargs));
            });
            static_cast<BuiltinObj*>(m.obj.get())->repr_text = "<method '" + name + "' of '" + tname + "' objects>";
            return m;
          }
        }
      }
      return missing();
    }
    case OKind::Module: {
      auto* m = static_cast<ModuleObj*>(o);
      if (const Value* v = m->attrs.find(name)) return *v;
      if (name == "__name__") return Value::str(m->name);
      return missing();
    }
    case OKind::Native: {
      auto* n = static_cast<NativeObj*>(o);
      if (const Value* v = n->attrs.find(name)) return *v;
      if (name == "__name__") return Value::str(n->type_name);
      return missing();
    }
    case OKind::Super: {
      auto* s = static_cast<SuperObj*>(o);
      for (ClassObj* c = s->start->base.get(); c; c = c->base.get())
        if (const Value* v = c->attrs.find(name)) return bind_class_attr(*v, s->self, s->start);
      if (name == "__init__") return in_.builtin("object.__init__", [](Interpreter&, CallArgs&) { return Value::none(); });
      return missing();
    }
    case OKind::Function: {
      auto* fn = static_cast<FunctionObj*>(o);
      if (name == "__name__") return Value::str(fn->name);
      return missing();
    }
    case OKind::Property: {
      // `@x.setter`: a new property with the same getter and this setter.
      const Value fns = static_cast<WrapperObj*>(o)->func;
      auto* l = fns.as<ListObj>();
      if (name == "fget" && l) return l->items[0];
      if (name == "fset" && l) return l->items[1];
      if (name == "setter" && l)
        return in_.builtin("property.setter", [fns](Interpreter& in, CallArgs& a) {
          if (a.args.size() != 1) in.raise("TypeError", "setter() takes exactly one argument");
          auto* items = fns.as<ListObj>();
          return Value::object(std::make_shared<WrapperObj>(OKind::Property, in.make_list({items->items[0], a.args[0]})));
        });
      return missing();
    }
    case OKind::Builtin: {
      if (name == "__name__") {
        const std::string& n = static_cast<BuiltinObj*>(o)->name;
        return Value::str(n.substr(n.rfind('.') + 1));
      }
      return missing();
    }
    case OKind::List: case OKind::Tuple: {
      auto lst = std::static_pointer_cast<ListObj>(obj.obj);
      const bool is_list = o->okind == OKind::List;
      if (is_list && name == "append")
        return in_.builtin("list.append", [lst](Interpreter& in, CallArgs& a) {
          if (a.args.size() != 1) in.raise("TypeError", "list.append() takes exactly one argument (" + std::to_string(a.args.size()) + " given)");
          lst->items.push_back(a.args[0]);
          return Value::none();
        });
      if (is_list && name == "extend")
        return in_.builtin("list.extend", [lst](Interpreter& in, CallArgs& a) {
          for (const Value& v : in.iterate(a.get_or(0, "iterable", in.make_list({})))) lst->items.push_back(v);
          return Value::none();
        });
      if (is_list && name == "pop")
        return in_.builtin("list.pop", [lst](Interpreter& in, CallArgs& a) {
          if (lst->items.empty()) in.raise("IndexError", "pop from empty list");
          int64_t i = a.args.empty() ? static_cast<int64_t>(lst->items.size()) - 1 : a.args[0].i;
          if (i < 0) i += static_cast<int64_t>(lst->items.size());
          if (i < 0 || i >= static_cast<int64_t>(lst->items.size())) in.raise("IndexError", "pop index out of range");
          Value v = lst->items[static_cast<size_t>(i)];
          lst->items.erase(lst->items.begin() + i);
          return v;
        });
      if (is_list && name == "insert")
        return in_.builtin("list.insert", [lst](Interpreter& in, CallArgs& a) {
          int64_t i = a.get_or(0, "index", Value::integer(0)).i;
          const int64_t n = static_cast<int64_t>(lst->items.size());
          if (i < 0) i = std::max<int64_t>(0, i + n);
          i = std::min(i, n);
          lst->items.insert(lst->items.begin() + i, a.get_or(1, "object", Value::none()));
          return Value::none();
        });
      if (is_list && name == "clear")
        return in_.builtin("list.clear", [lst](Interpreter&, CallArgs&) { lst->items.clear(); return Value::none(); });
      if (is_list && name == "reverse")
        return in_.builtin("list.reverse", [lst](Interpreter&, CallArgs&) {
          std::reverse(lst->items.begin(), lst->items.end());
          return Value::none();
        });
      if (is_list && name == "copy")
        return in_.builtin("list.copy", [lst](Interpreter& in, CallArgs&) { return in.make_list(lst->items); });
      if (name == "index")
        return in_.builtin(is_list ? "list.index" : "tuple.index", [lst, is_list](Interpreter& in, CallArgs& a) {
          if (a.args.empty()) in.raise("TypeError", "index expected at least 1 argument, got 0");
          // start/end clip as a slice's bounds do.
          const int64_t n = static_cast<int64_t>(lst->items.size());
          auto bound = [&](size_t pos, int64_t def) {
            if (pos >= a.args.size()) return def;
            const auto i = in.index_value(a.args[pos]);
            if (!i) in.raise("TypeError", "slice indices must be integers or have an __index__ method");
            return std::clamp<int64_t>(*i < 0 ? *i + n : *i, 0, n);
          };
          const int64_t from = bound(1, 0), to = bound(2, n);
          // The list's live length each time: an __eq__ may shrink it.
          for (int64_t i = from; i < to && i < static_cast<int64_t>(lst->items.size()); ++i) {
            const Value item = lst->items[static_cast<size_t>(i)];
            if (in.equals(item, a.args[0])) return Value::integer(i);
          }
          if (!is_list) in.raise("ValueError", "tuple.index(x): x not in tuple");
          in.raise("ValueError", in.repr(a.args[0]) + " is not in list");
        });
      if (is_list && name == "remove")
        return in_.builtin("list.remove", [lst](Interpreter& in, CallArgs& a) {
          if (a.args.size() != 1)
            in.raise("TypeError", "list.remove() takes exactly one argument (" + std::to_string(a.args.size()) + " given)");
          for (size_t i = 0; i < lst->items.size(); ++i) {
            const Value item = lst->items[i];  // an __eq__ may change the list under us
            if (in.equals(item, a.args[0])) {
              if (i < lst->items.size()) lst->items.erase(lst->items.begin() + static_cast<std::ptrdiff_t>(i));
              return Value::none();
            }
          }
          in.raise("ValueError", "list.remove(x): x not in list");
        });
      if (is_list && name == "sort")
        return in_.builtin("list.sort", [lst](Interpreter& in, CallArgs& a) {
          if (!a.args.empty()) in.raise("TypeError", "sort() takes no positional arguments");
          for (const auto& [k, v] : a.kwargs)
            if (k != "key" && k != "reverse") in.raise("TypeError", "sort() got an unexpected keyword argument '" + k + "'");
          // sorted()'s stable sort, written back in place.
          const Value sorted = in.call(in.builtins()->vars["sorted"], {in.make_list(lst->items)}, a.kwargs);
          lst->items = sorted.as<ListObj>()->items;
          return Value::none();
        });
      if (name == "count")
        return in_.builtin("list.count", [lst](Interpreter& in, CallArgs& a) {
          int64_t n = 0;
          for (const auto& x : lst->items) n += in.equals(x, a.get_or(0, "value", Value::none()));
          return Value::integer(n);
        });
      return missing();
    }
    case OKind::Dict: {
      auto d = std::static_pointer_cast<DictObj>(obj.obj);
      if (name == "items" || name == "keys" || name == "values")
        return in_.builtin("dict." + name, [d, name](Interpreter& in, CallArgs&) { return make_dict_view(in, d, name); });
      if (name == "get")
        return in_.builtin("dict.get", [d](Interpreter& in, CallArgs& a) {
          const Value* v = in.dict_get(*d, a.get_or(0, "key", Value::none()));
          return v ? *v : a.get_or(1, "default", Value::none());
        });
      if (name == "update")
        return in_.builtin("dict.update", [d](Interpreter& in, CallArgs& a) {
          if (a.args.size() > 1) in.raise("TypeError", "update expected at most 1 argument, got " + std::to_string(a.args.size()));
          if (!a.args.empty()) in.dict_update(*d, a.args[0]);
          for (const auto& [k, v] : a.kwargs) in.dict_set(*d, Value::str(k), v);
          return Value::none();
        });
      if (name == "clear")
        return in_.builtin("dict.clear", [d](Interpreter&, CallArgs&) {
          d->items.clear();
          d->index.clear();
          return Value::none();
        });
      if (name == "copy")
        return in_.builtin("dict.copy", [d](Interpreter& in, CallArgs&) {
          Value c = in.make_dict();
          in.dict_update(*c.as<DictObj>(), Value::object(d));
          return c;
        });
      if (name == "popitem")
        return in_.builtin("dict.popitem", [d](Interpreter& in, CallArgs&) {
          if (d->items.empty()) in.raise_key_error(Value::str("popitem(): dictionary is empty"));
          auto last = d->items.back();
          d->index.erase(in.dict_key(last.first));
          d->items.pop_back();
          return in.make_tuple({last.first, last.second});
        });
      if (name == "fromkeys") return getattr(in_.builtins()->vars["dict"], "fromkeys");
      if (name == "pop")
        return in_.builtin("dict.pop", [d](Interpreter& in, CallArgs& a) {
          const Value k = a.get_or(0, "key", Value::none());
          auto it = d->index.find(in.dict_key(k));
          if (it == d->index.end()) {
            if (a.args.size() > 1) return a.args[1];
            in.raise_key_error(k);
          }
          Value v = d->items[it->second].second;
          d->items.erase(d->items.begin() + static_cast<long>(it->second));
          d->index.clear();
          for (size_t i = 0; i < d->items.size(); ++i) d->index[in.dict_key(d->items[i].first)] = i;
          return v;
        });
      if (name == "setdefault")
        return in_.builtin("dict.setdefault", [d](Interpreter& in, CallArgs& a) {
          const Value k = a.get_or(0, "key", Value::none());
          if (const Value* v = in.dict_get(*d, k)) return *v;
          in.dict_set(*d, k, a.get_or(1, "default", Value::none()));
          return *in.dict_get(*d, k);
        });
      return missing();
    }
    case OKind::BoundMethod: {
      if (name == "__self__") return static_cast<BoundMethodObj*>(o)->self;
      if (name == "__name__") return getattr(static_cast<BoundMethodObj*>(o)->func, "__name__");
      // A tf.function method bound to an instance is a Function (Function.__get__): its
      // own members (experimental_get_tracing_count, python_function, ...) are reachable.
      const Value& func = static_cast<BoundMethodObj*>(o)->func;
      if (auto* n = func.as<NativeObj>(); n && n->tag == "tf.function" && name != "__call__")
        if (const Value* v = n->attrs.find(name)) return *v;
      return missing();
    }
    default: return missing();
  }
}

// slice.indices(n) walked: the positions obj[start:stop:step] picks from n items.
std::vector<int64_t> Evaluator::slice_positions(const SliceObj& s, int64_t n) {
  auto as_index = [&](const Value& v) {
    if (const auto i = in_.index_value(v)) return *i;
    in_.raise("TypeError", "slice indices must be integers or None or have an __index__ method");
  };
  const int64_t step = s.step.is_none() ? 1 : as_index(s.step);
  if (step == 0) in_.raise("ValueError", "slice step cannot be zero");
  auto norm = [&](const Value& v, int64_t def) {
    if (v.is_none()) return def;
    int64_t i = as_index(v);
    if (i < 0) i += n;
    return step > 0 ? std::clamp<int64_t>(i, 0, n) : std::clamp<int64_t>(i, -1, n - 1);
  };
  const int64_t a = norm(s.start, step > 0 ? 0 : n - 1), b = norm(s.stop, step > 0 ? n : -1);
  std::vector<int64_t> out;
  for (int64_t i = a; step > 0 ? i < b : i > b; i += step) out.push_back(i);
  return out;
}

Value Evaluator::getitem(const Value& obj, const Value& key) {
  if (is_tensorish(obj)) {
    if (!in_.hooks().tensor_getitem) in_.raise("TypeError", "tensors cannot be indexed here");
    return in_.hooks().tensor_getitem(in_, obj, key);
  }
  if (auto* l = obj.as<ListObj>()) {
    const int64_t n = static_cast<int64_t>(l->items.size());
    if (auto* s = key.as<SliceObj>()) {
      std::vector<Value> out;
      for (int64_t i : slice_positions(*s, n)) out.push_back(l->items[static_cast<size_t>(i)]);
      return Value::object(std::make_shared<ListObj>(std::move(out), obj.obj->okind));
    }
    const std::optional<int64_t> index = in_.index_value(key);
    if (!index)
      in_.raise("TypeError", std::string(obj.obj->okind == OKind::Tuple ? "tuple" : "list") +
                                 " indices must be integers or slices, not " + in_.type_name(key));
    int64_t i = *index;
    if (i < 0) i += n;
    if (i < 0 || i >= n)
      in_.raise("IndexError", std::string(obj.obj->okind == OKind::Tuple ? "tuple" : "list") + " index out of range");
    return l->items[static_cast<size_t>(i)];
  }
  if (auto* d = obj.as<DictObj>()) {
    if (const Value* v = in_.dict_get(*d, key)) return *v;
    in_.raise_key_error(key);
  }
  if (obj.kind == VKind::Str) {
    const std::string& s = obj.as_str();
    if (auto* sl = key.as<SliceObj>()) {
      std::string out;
      for (int64_t i : slice_positions(*sl, static_cast<int64_t>(s.size()))) out += s[static_cast<size_t>(i)];
      return Value::str(std::move(out));
    }
    const std::optional<int64_t> index = in_.index_value(key);  // operator.index: ints, bools, int tensors
    if (!index) in_.raise("TypeError", "string indices must be integers, not '" + in_.type_name(key) + "'");
    int64_t i = *index < 0 ? *index + static_cast<int64_t>(s.size()) : *index;
    if (i < 0 || i >= static_cast<int64_t>(s.size())) in_.raise("IndexError", "string index out of range");
    return Value::str(s.substr(static_cast<size_t>(i), 1));
  }
  if (auto* r = obj.as<RangeObj>(); r && !key.as<SliceObj>()) {
    const std::optional<int64_t> index = in_.index_value(key);
    if (!index) in_.raise("TypeError", "range indices must be integers or slices, not " + in_.type_name(key));
    int64_t i = *index < 0 ? *index + r->size() : *index;
    if (i < 0 || i >= r->size()) in_.raise("IndexError", "range object index out of range");
    return Value::integer(r->start + i * r->step);
  }
  if (auto m = in_.try_getattr(obj, "__getitem__")) return call(*m, {key}, {});
  in_.raise("TypeError", "'" + in_.type_name(obj) + "' object is not subscriptable");
}

// --- tf.function support ---
const std::optional<Value>* Evaluator::traced_read(const void* node) {
  auto it = frozen_->reads.find(node);
  if (it == frozen_->reads.end()) return nullptr;
  // A loop running more often than in the trace repeats its last traced read.
  size_t& c = read_cursor_[node];
  return c < it->second.size() ? &it->second[c++] : &it->second.back();
}

void Evaluator::record_read(const void* node, const Value& v) {
  // Values are baked into the graph; references (variables, objects) stay live.
  const bool value = v.is_number() || v.is_none() || v.kind == VKind::Str || v.kind == VKind::Tensor ||
                     v.kind == VKind::NdArray;
  recording_->reads[node].push_back(value ? std::optional<Value>(v) : std::nullopt);
}

template <class Read>
Value Evaluator::replayed_read(const void* node, const Value& from, const Frame& f, Read&& read) {
  if ((!frozen_ && !recording_) || f.prelude || prelude_depth_ > 0 || !made_before_call(from) ||
      (from.obj && live_args_.count(from.obj.get())))
    return read();
  if (frozen_) {
    if (const std::optional<Value>* v = traced_read(node); v && *v) return **v;
    return read();
  }
  Value v = read();
  record_read(node, v);
  return v;
}

Value Evaluator::call_traced(const Value& fn, std::vector<Value> args, std::vector<std::pair<std::string, Value>> kwargs,
                             bool tracing, std::shared_ptr<Interpreter::FrozenCaptures>& captures) {
  auto saved_frozen = frozen_;
  auto saved_recording = recording_;
  const uint64_t saved_serial = call_serial_;
  auto saved_cursor = std::move(read_cursor_);
  read_cursor_.clear();
  // A tf.function called inside another is part of the outer graph: what the outer
  // call made is not older than it.
  if (!saved_frozen && !saved_recording) call_serial_ = in_.heap_serial();
  // Lists, tuples and dicts passed in are flattened into the graph's inputs: reading
  // them reads this call's values, in a replay too.
  auto saved_live = live_args_;
  std::vector<Value> stack(args.begin(), args.end());
  for (const auto& kv : kwargs) stack.push_back(kv.second);
  while (!stack.empty() && live_args_.size() < 100000) {
    const Value v = stack.back();
    stack.pop_back();
    const ListObj* l = v.as<ListObj>();
    const DictObj* d = v.as<DictObj>();
    if ((!l && !d) || !live_args_.insert(v.obj.get()).second) continue;
    if (l) stack.insert(stack.end(), l->items.begin(), l->items.end());
    if (d)
      for (const auto& kv : d->items) stack.push_back(kv.second);
  }
  if (tracing) {
    captures = std::make_shared<Interpreter::FrozenCaptures>();
    recording_ = captures;
    frozen_ = nullptr;
  } else {
    frozen_ = captures;
    recording_ = nullptr;
    ++in_.replay_depth();
  }
  struct Restore {
    Evaluator& e;
    std::shared_ptr<Interpreter::FrozenCaptures> f, r;
    bool replay;
    uint64_t serial;
    std::unordered_map<const void*, size_t> cursor;
    std::unordered_set<const Object*> live;
    ~Restore() {
      e.live_args_ = std::move(live);
      e.frozen_ = f;
      e.recording_ = r;
      e.call_serial_ = serial;
      e.read_cursor_ = std::move(cursor);
      if (replay) --e.in_.replay_depth();
    }
  } restore{*this, saved_frozen, saved_recording, !tracing, saved_serial, std::move(saved_cursor), std::move(saved_live)};
  return call(fn, std::move(args), std::move(kwargs));
}

// --- formatting ---
// format(v, spec), as f-strings and str.format call it.
std::string Evaluator::format_spec(const Value& v0, const std::string& spec) {
  Value v = v0;
  // format(v, '') is str(v) for everything but an EagerTensor (its NumPy value's str);
  // a symbolic tensor (tf.function's graph) has object.__format__.
  const bool symbolic = v.kind == VKind::Tensor && graph_tensor_name(in_, v.id);
  if (spec.empty() && ((v.kind != VKind::Tensor && v.kind != VKind::NdArray) || symbolic)) return in_.str(v);
  if (symbolic) in_.raise("TypeError", "unsupported format string passed to SymbolicTensor.__format__");
  if (is_tensorish(v)) {
    // A tf.Variable (and a Keras Variable) has object.__format__: str() for an empty
    // spec, TypeError otherwise.
    if (v.kind == VKind::Variable) {
      if (spec.empty()) return in_.str(v);
      in_.raise("TypeError", "unsupported format string passed to " + in_.type_name(v) + ".__format__");
    }
    // An EagerTensor formats as its NumPy value (EagerTensor.__format__), a host array
    // as itself: the array's str() for an empty spec; a spec needs a NumPy scalar.
    const TensorValue& t = in_.engine().value(v.id);
    if (spec.empty()) return format_numpy_default(t);
    if (t.rank() != 0) in_.raise("TypeError", "unsupported format string passed to numpy.ndarray.__format__");
    if (t.dtype == DType::String) v = Value::str(t.strings[0]);
    else if (t.dtype == DType::Bool) v = Value::boolean(t.data[0] != 0);
    else v = is_integer(t.dtype) ? Value::integer(static_cast<int64_t>(t.data[0])) : Value::number(t.data[0]);
  }
  try {
    if (v.kind == VKind::Str) return format_str(v.as_str(), spec);
    if (v.kind == VKind::Float) return format_float(v.f, spec);
    if (v.kind == VKind::Int) return format_int(v.i, spec);
    if (v.kind == VKind::Bool) return format_int(v.b ? 1 : 0, spec, "bool");
  } catch (const FormatError& e) {
    in_.raise(e.type, e.what());
  }
  // object.__format__: str() for an empty spec, nothing else.
  if (spec.empty()) return in_.str(v);
  in_.raise("TypeError", "unsupported format string passed to " + in_.type_name(v) + ".__format__");
}

// str.format: replacement fields {name[key].attr!conv:spec}, spec fields nested one level.
std::string Evaluator::str_format(const std::string& s, const CallArgs& a) {
  int auto_idx = 0;  // -1 once a field is numbered by hand
  auto field_value = [&](const std::string& field) -> Value {
    size_t end = field.find_first_of(".[");
    const std::string head = field.substr(0, end);
    Value v;
    if (head.empty() || std::all_of(head.begin(), head.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
      size_t index;
      if (head.empty()) {
        if (auto_idx < 0) in_.raise("ValueError", "cannot switch from manual field specification to automatic field numbering");
        index = static_cast<size_t>(auto_idx++);
      } else {
        if (auto_idx > 0) in_.raise("ValueError", "cannot switch from automatic field numbering to manual field specification");
        auto_idx = -1;
        index = static_cast<size_t>(std::stoul(head));
      }
      if (index >= a.args.size())
        in_.raise("IndexError", "Replacement index " + std::to_string(index) + " out of range for positional args tuple");
      v = a.args[index];
    } else {
      const Value* kw = a.kw(head.c_str());
      if (!kw) in_.raise_key_error(Value::str(head));
      v = *kw;
    }
    while (end < field.size()) {
      if (field[end] == '.') {
        const size_t next = field.find_first_of(".[", end + 1);
        const std::string attr = field.substr(end + 1, next == std::string::npos ? std::string::npos : next - end - 1);
        if (attr.empty()) in_.raise("ValueError", "Empty attribute in format string");
        v = getattr(v, attr);
        end = next == std::string::npos ? field.size() : next;
      } else {
        const size_t close = field.find(']', end);
        if (close == std::string::npos) in_.raise("ValueError", "Missing ']' in format string");
        const std::string key = field.substr(end + 1, close - end - 1);
        if (key.empty()) in_.raise("ValueError", "Empty attribute in format string");
        const bool digits = std::all_of(key.begin(), key.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
        v = getitem(v, digits ? Value::integer(std::stoll(key)) : Value::str(key));
        end = close + 1;
        if (end < field.size() && field[end] != '.' && field[end] != '[')
          in_.raise("ValueError", "Only '.' or '[' may follow ']' in format field specifier");
      }
    }
    return v;
  };
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if (ch == '}') {
      if (i + 1 < s.size() && s[i + 1] == '}') {
        out += '}';
        ++i;
        continue;
      }
      in_.raise("ValueError", "Single '}' encountered in format string");
    }
    if (ch != '{') {
      out += ch;
      continue;
    }
    if (i + 1 < s.size() && s[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    // The field runs to its matching '}' (a spec may hold nested fields).
    size_t j = i + 1;
    int depth = 1;
    for (; j < s.size(); ++j) {
      if (s[j] == '[') {  // a key may hold braces
        const size_t close = s.find(']', j);
        if (close != std::string::npos && s.find_first_of(":!", j) > close) j = close;
        continue;
      }
      if (s[j] == '{') ++depth;
      else if (s[j] == '}' && --depth == 0) break;
    }
    if (j >= s.size()) in_.raise("ValueError", i + 1 == s.size() ? "Single '{' encountered in format string"
                                                                  : "expected '}' before end of string");
    const std::string body = s.substr(i + 1, j - i - 1);
    i = j;
    // field_name, then !conversion, then :spec (a key in brackets may hold ':' or '!').
    size_t k = 0;
    while (k < body.size() && body[k] != '!' && body[k] != ':') {
      if (body[k] == '[') {
        const size_t close = body.find(']', k);
        if (close == std::string::npos) break;
        k = close;
      }
      ++k;
    }
    const std::string field = body.substr(0, k);
    char conversion = 0;
    if (k < body.size() && body[k] == '!') {
      if (k + 1 >= body.size()) in_.raise("ValueError", "end of string while looking for conversion specifier");
      conversion = body[k + 1];
      k += 2;
      if (k < body.size() && body[k] != ':') in_.raise("ValueError", "expected ':' after conversion specifier");
      if (conversion != 'r' && conversion != 's' && conversion != 'a')
        in_.raise("ValueError", std::string("Unknown conversion specifier ") + conversion);
    }
    std::string spec = k < body.size() ? body.substr(k + 1) : "";
    const Value v = field_value(field);
    if (spec.find('{') != std::string::npos) {  // nested fields in the spec: {:{width}}
      std::string expanded;
      for (size_t p = 0; p < spec.size(); ++p) {
        if (spec[p] != '{') {
          expanded += spec[p];
          continue;
        }
        const size_t q = spec.find('}', p);
        if (q == std::string::npos) in_.raise("ValueError", "unmatched '{' in format spec");
        expanded += in_.str(field_value(spec.substr(p + 1, q - p - 1)));
        p = q;
      }
      spec = expanded;
    }
    if (conversion == 0) {
      out += format_spec(v, spec);
    } else {
      std::string text = conversion == 's' ? in_.str(v) : in_.repr(v);
      if (conversion == 'a') text = ascii_escape(text);
      out += format_spec(Value::str(text), spec);
    }
    if (out.size() > (64u << 20))
      in_.raise("ResourceError", "string too large (tape scripts allow 64 MiB per string and 10^7 items per list)");
  }
  return out;
}

std::string Evaluator::percent_format(const std::string& fmt, const std::vector<Value>& vals) {
  std::string out;
  size_t k = 0;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < fmt.size() && !std::isalpha(static_cast<unsigned char>(fmt[j]))) ++j;
    if (j >= fmt.size()) in_.raise("ValueError", "incomplete format");
    const std::string flags = fmt.substr(i + 1, j - i - 1);
    const char t = fmt[j];
    if (k >= vals.size()) in_.raise("TypeError", "not enough arguments for format string");
    Value v = vals[k++];
    try {
      if (t == 's' || t == 'r' || t == 'a') {
        out += percent_text(t == 's' ? in_.str(v) : in_.repr(v), flags);
      } else if (std::string("diuoxXeEfFgGc").find(t) != std::string::npos) {
        if (is_tensorish(v)) v = call(in_.builtins()->vars["float"], {v}, {});  // as float(t): it leaves the engine
        if (t == 'c' && v.kind == VKind::Str && v.as_str().size() == 1) {
          out += percent_text(v.as_str(), flags);
        } else if (!v.is_number()) {
          const std::string what = std::string("%") + t + " format: ";
          in_.raise("TypeError", t == 'c' ? "%c requires int or char"
                                 : std::string("eEfFgG").find(t) != std::string::npos
                                     ? "must be real number, not " + in_.type_name(v)
                                     : what + (std::string("oxX").find(t) != std::string::npos ? "an integer" : "a real number") +
                                           " is required, not " + in_.type_name(v));
        } else if (std::string("eEfFgG").find(t) != std::string::npos) {
          out += percent_float(v.as_double(), flags, t);
        } else {
          if (v.kind == VKind::Float && std::string("oxXc").find(t) != std::string::npos)
            in_.raise("TypeError", t == 'c' ? std::string("%c requires int or char")
                                             : std::string("%") + t + " format: an integer is required, not float");
          const double d = v.as_double();
          if (v.kind == VKind::Float && !std::isfinite(d))
            in_.raise(std::isnan(d) ? "ValueError" : "OverflowError",
                      std::isnan(d) ? "cannot convert float NaN to integer" : "cannot convert float infinity to integer");
          const int64_t n = v.kind == VKind::Float ? static_cast<int64_t>(std::trunc(std::clamp(d, -9.2e18, 9.2e18)))
                                                   : (v.kind == VKind::Bool ? v.b : v.i);
          out += percent_int(n, flags, t == 'i' || t == 'u' ? 'd' : t);
        }
      } else {
        in_.raise("ValueError", std::string("unsupported format character '") + t + "'");
      }
    } catch (const FormatError& e) {
      in_.raise(e.type, e.what());
    }
    i = j;
  }
  if (k < vals.size()) in_.raise("TypeError", "not all arguments converted during string formatting");
  return out;
}

// --- language builtins that need the evaluator ---
void Evaluator::install_language_builtins() {
  auto& b = in_.builtins()->vars;
  auto wrap = [&](const char* name, OKind kind) {
    b[name] = in_.builtin(name, [kind](Interpreter& in, CallArgs& a) {
      if (a.args.empty()) in.raise("TypeError", "decorator needs a function");
      if (kind == OKind::Property) {
        // A property holds [getter, setter].
        return Value::object(std::make_shared<WrapperObj>(kind, in.make_list({a.args[0], Value::none()})));
      }
      return Value::object(std::make_shared<WrapperObj>(kind, a.args[0]));
    });
  };
  wrap("property", OKind::Property);
  wrap("staticmethod", OKind::StaticMethod);
  wrap("classmethod", OKind::ClassMethod);
  b["super"] = in_.builtin("super", [](Interpreter& in, CallArgs& a) {
    if (a.args.size() != 2) in.raise("RuntimeError", "super(): no arguments");
    auto* c = a.args[0].as<ClassObj>();
    if (!c) in.raise("TypeError", "super() argument 1 must be a type");
    return Value::object(std::make_shared<SuperObj>(std::static_pointer_cast<ClassObj>(a.args[0].obj), a.args[1]));
  });
  b["format"] = in_.builtin("format", [this](Interpreter& in, CallArgs& a) {
    return Value::str(format_spec(a.get_or(0, "value", Value::none()), in.str(a.get_or(1, "format_spec", Value::str("")))));
  });
  {
    // The singleton a binary dunder returns to let the other operand try (and `==` fall
    // back to identity).
    auto ni = std::make_shared<NativeObj>("NotImplementedType");
    ni->type_name = "NotImplementedType";
    ni->repr = [] { return std::string("NotImplemented"); };
    b["NotImplemented"] = Value::object(ni);
  }
  b["__name__"] = Value::str("__main__");
}

}  // namespace ts::script

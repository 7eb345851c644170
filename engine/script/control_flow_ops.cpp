// tf.cond and tf.while_loop (TF 2.17's cond.py / cond_v2.py, while_loop.py / while_v2.py).
//
// Eagerly, tf.cond calls only the branch its predicate picks and returns what that branch
// returned; tf.while_loop runs the Python loop `while cond(*vars): vars = body(*vars)`.
// The tape records only the ops that ran, so the decision is logged as a tensor `if` or
// `while` is (a BranchTaken event, control edges to what ran under it): a source used
// only by the untaken branch gets None (UNCONNECTED, naming the branch's line), one that
// only decided the predicate gets CONTROL_FLOW_ONLY.
//
// Inside a tf.function (its trace, or a replay of it), tf.cond is cond_v2: both branches
// are traced (the one the predicate does not take in shadow: its variable updates and
// tf.print do not run), their outputs must have the same structure and dtypes, and the
// outputs go through the If op of cond_v2.cpp, whose gradient gives zeros to what only
// the untaken branch used. tf.while_loop is while_v2's checks and result structure over
// an unrolled run of the loop (its Python side effects happen once while tracing, as
// the body and the condition are traced once).
#include <algorithm>
#include <optional>

#include "../engine.h"
#include "../format.h"
#include "../op_registry.h"
#include "cond_v2.h"
#include "scoped_count.h"
#include "tf_util.h"

namespace ts::script {

// evaluator.cpp
void function_body_names(const Value& fn, std::vector<std::string>& names, int& first_line);

namespace {


// Pushes a control edge source for what runs until it goes.
struct Control {
  Engine& e;
  bool on;
  Control(Engine& eng, std::optional<TensorId> cond) : e(eng), on(cond.has_value()) {
    if (on) e.push_control(*cond);
  }
  ~Control() {
    if (on) e.pop_control();
  }
  Control(const Control&) = delete;
  Control& operator=(const Control&) = delete;
};

bool callable(Interpreter& in, const Value& v) {
  return v.as<FunctionObj>() || v.as<BuiltinObj>() || v.as<BoundMethodObj>() || v.as<ClassObj>() ||
         (v.kind == VKind::Object && in.try_getattr(v, "__call__"));
}

// ---------------------------------------------------------------------------------
// nest.assert_same_structure (util.cc's AssertSameStructureHelper, nest_util.py's wrapper)

const ListObj* as_list(const Value& v) {
  const ListObj* l = v.as<ListObj>();
  return l && l->okind == OKind::List ? l : nullptr;
}
const ListObj* as_tuple(const Value& v) {
  const ListObj* l = v.as<ListObj>();
  return l && l->okind == OKind::Tuple ? l : nullptr;
}
bool nested(const Value& v) { return is_sequence(v) || v.as<DictObj>(); }

std::vector<Value> nest_children(Interpreter& in, const Value& v) {
  if (is_sequence(v)) return seq_items(v);
  std::vector<Value> out;
  if (auto* d = v.as<DictObj>())
    for (size_t i : sorted_dict_order(in, *d)) out.push_back(d->items[i].second);
  return out;
}

// PyObjectToString: "type=list str=[1, 2]".
std::string object_string(Interpreter& in, const Value& v) {
  const bool symbolic = v.kind == VKind::Tensor && graph_tensor_name(in, v.id);
  return "type=" + (symbolic ? std::string("SymbolicTensor") : in.type_name(v)) + " str=" + in.str(v);
}

// str(map_structure(lambda _: _DOT, v)): "[., (., .)]".
std::string dots(Interpreter& in, const Value& v) {
  if (auto* l = as_list(v)) {
    std::string s = "[";
    for (size_t i = 0; i < l->items.size(); ++i) s += (i ? ", " : "") + dots(in, l->items[i]);
    return s + "]";
  }
  if (auto* t = as_tuple(v)) {
    std::string s = "(";
    for (size_t i = 0; i < t->items.size(); ++i) s += (i ? ", " : "") + dots(in, t->items[i]);
    return s + (t->items.size() == 1 ? ",)" : ")");
  }
  if (auto* d = v.as<DictObj>()) {
    std::string s = "{";
    for (size_t i = 0; i < d->items.size(); ++i)
      s += (i ? ", " : "") + in.repr(d->items[i].first) + ": " + dots(in, d->items[i].second);
    return s + "}";
  }
  return ".";
}

bool structure_mismatch(Interpreter& in, const Value& a, const Value& b, bool check_types, std::string& msg,
                        bool& type_error) {
  const bool sa = nested(a), sb = nested(b);
  if (sa != sb) {
    msg = "Substructure \"" + object_string(in, sa ? a : b) + "\" is a sequence, while substructure \"" +
          object_string(in, sa ? b : a) + "\" is not";
    type_error = false;
    return true;
  }
  if (!sa) return false;
  if (check_types && a.obj->okind != b.obj->okind) {
    type_error = true;
    msg = "The two namedtuples don't have the same sequence type. First structure " + object_string(in, a) +
          " has type " + in.type_name(a) + ", while second structure " + object_string(in, b) + " has type " +
          in.type_name(b);
    return true;
  }
  if (check_types && a.as<DictObj>() && b.as<DictObj>()) {
    const auto* da = a.as<DictObj>();
    const auto* db = b.as<DictObj>();
    bool same = da->items.size() == db->items.size();
    for (size_t i = 0; same && i < da->items.size(); ++i) same = in.dict_get(*db, da->items[i].first) != nullptr;
    if (!same) {
      std::string ka = "[", kb = "[";
      for (size_t i = 0; i < da->items.size(); ++i) ka += (i ? ", " : "") + in.repr(da->items[i].first);
      for (size_t i = 0; i < db->items.size(); ++i) kb += (i ? ", " : "") + in.repr(db->items[i].first);
      type_error = false;
      msg = "The two dictionaries don't have the same set of keys. First structure has keys type=list str=" + ka +
            "], while second structure has keys type=list str=" + kb + "]";
      return true;
    }
  }
  const std::vector<Value> ca = nest_children(in, a), cb = nest_children(in, b);
  for (size_t i = 0; i < std::min(ca.size(), cb.size()); ++i) {
    Interpreter::NestGuard guard(in, " in assert_same_structure");
    if (structure_mismatch(in, ca[i], cb[i], check_types, msg, type_error)) return true;
  }
  if (ca.size() != cb.size()) {
    type_error = false;
    msg = "The two structures don't have the same number of elements. First structure: " + object_string(in, a) +
          ". Second structure: " + object_string(in, b);
    return true;
  }
  return false;
}

// The error nest.assert_same_structure raises, or nullopt: {type, message}.
std::optional<std::pair<std::string, std::string>> same_structure_error(Interpreter& in, const Value& a,
                                                                        const Value& b, bool check_types) {
  std::string msg;
  bool type_error = false;
  if (!structure_mismatch(in, a, b, check_types, msg, type_error)) return std::nullopt;
  return std::pair{std::string(type_error ? "TypeError" : "ValueError"),
                   "The two structures don't have the same nested structure.\n\nFirst structure: " +
                       object_string(in, a) + "\n\nSecond structure: " + object_string(in, b) +
                       "\n\nMore specifically: " + msg + "\nEntire first structure:\n" + dots(in, a) +
                       "\nEntire second structure:\n" + dots(in, b)};
}

void assert_same_structure(Interpreter& in, const Value& a, const Value& b, bool check_types) {
  if (auto e = same_structure_error(in, a, b, check_types)) in.raise(e->first, e->second);
}

// Rebuilds a nest with each leaf mapped.
template <class F>
Value map_nest(Interpreter& in, const Value& v, F&& f) {
  std::vector<Value> leaves;
  flatten_nest(in, v, leaves);
  for (Value& x : leaves) x = f(x);
  size_t pos = 0;
  return pack_nest(in, v, leaves, pos);
}

// A tf.TensorArray (the prelude's class): a loop variable that stays what it is.
bool is_tensor_array(const Value& v) {
  const auto* inst = v.as<InstanceObj>();
  return inst && inst->cls && inst->cls->name == "TensorArray";
}

// type_spec.type_spec_from_value: a TensorSpec leaf (what while_loop's eager structure
// check prints).
Value type_spec_from_value(Interpreter& in, const Value& v) {
  Shape shape;
  DType d;
  if (is_tensor_array(v)) {
    auto [obj, n] = new_native(in, "TensorArraySpec", "TensorArraySpec");
    n->repr = [] { return std::string("TensorArraySpec(TensorShape(None), tf.float32, True, True)"); };
    return obj;
  }
  if (is_tensorish(v)) {
    shape = value_shape(in, v);
    d = value_dtype(in, v);
  } else if (v.is_none()) {
    auto [obj, n] = new_native(in, "NoneTensorSpec", "NoneTensorSpec");
    n->repr = [] { return std::string("NoneTensorSpec()"); };
    return obj;
  } else {
    const TensorValue t = python_to_value(in, v, std::nullopt, DTypeFlavor::Tf).value;
    shape = t.shape;
    d = t.dtype;
  }
  auto [obj, n] = new_native(in, "TensorSpec", "TensorSpec");
  const std::string text = tensor_spec_repr(shape, d);
  n->repr = [text] { return text; };
  return obj;
}

Value unpack_call(Interpreter& in, const Value& fn, const Value& vars) { return in.call(fn, in.iterate(vars)); }

// The tensor a condition decided with, if it is one (a variable is read).
std::optional<TensorId> condition_tensor(Interpreter& in, const Value& v) {
  if (v.kind == VKind::Tensor) return v.id;
  if (v.kind == VKind::Variable) return in.engine().read_variable(v.id);
  return std::nullopt;
}

// Logs a tensor decision as a branch (what the evaluator does for `if`/`while`).
bool decide(Interpreter& in, const Value& v, std::optional<TensorId>& cond, const std::string& what, int untaken_line,
            const std::vector<std::string>& untaken_names) {
  const bool t = in.truthy(v);
  cond = condition_tensor(in, v);
  if (cond) in.engine().branch_taken(*cond, what + (t ? " (true)" : " (false)"), untaken_line, untaken_names);
  return t;
}

// ---------------------------------------------------------------------------------
// tf.cond

bool is_tensor_array(const Value& v);

// func_graph's conversion of a branch's outputs: numbers, arrays and variables become
// tensors of the branch; None stays.
Value branch_outputs(Interpreter& in, const Value& out) {
  return map_nest(in, out, [&in](const Value& x) -> Value {
    if (x.is_none() || x.kind == VKind::Tensor || is_tensor_array(x)) return x;
    return Value::tensor(in.to_tensor(x));
  });
}

Value cond_eager(Interpreter& in, const Value& pred, const Value& true_fn, const Value& false_fn) {
  std::optional<TensorId> cond;
  bool taken;
  Value p = pred;
  if (!is_tensorish(p)) p = Value::tensor(in.to_tensor(pred));  // ops.convert_to_tensor(pred)
  const Value& untaken_fn = in.truthy(p) ? false_fn : true_fn;
  std::vector<std::string> names;
  int untaken_line = in.line();
  function_body_names(untaken_fn, names, untaken_line);
  if (is_tensorish(pred)) {
    taken = decide(in, p, cond, "tf.cond", untaken_line, names);
  } else {
    taken = in.truthy(p);  // a Python predicate decides nothing the tape could follow
  }
  Control control(in.engine(), cond);
  return in.call(taken ? true_fn : false_fn, {});
}

Value cond_graph(Interpreter& in, const Value& pred, const Value& true_fn, const Value& false_fn) {
  if (pred.kind == VKind::Bool)
    in.raise("TypeError", "('pred must not be a Python bool', " + std::string(pred.b ? "True" : "False") + ")");
  Value p = is_tensorish(pred) ? pred : Value::tensor(in.to_tensor(pred));
  std::optional<TensorId> cond;
  const bool taken = decide(in, p, cond, "tf.cond", in.line(), {});
  Control control(in.engine(), cond);
  struct Branch {
    Value out;
    size_t begin = 0, end = 0;
    bool failed = false;  // the shadow run hit a runtime kernel error (shadow_swallows)
  };
  auto trace = [&](const Value& fn, bool real) {
    Branch b;
    b.begin = in.engine().log().tensors.size();
    auto call = [&] { b.out = branch_outputs(in, in.call(fn, {})); };
    if (real) {
      call();
    } else {
      ScopedCount shadow(shadow_branch_depth(in));
      b.failed = !run_in_shadow(call);
    }
    b.end = in.engine().log().tensors.size();
    return b;
  };
  // cond_v2 traces the true branch, then the false one.
  const Branch t = trace(true_fn, taken);
  const Branch f = trace(false_fn, !taken);
  auto error = [&](const std::string& detail) {
    in.raise("TypeError",
             "true_fn and false_fn arguments to tf.cond must have the same number, type, and overall structure of "
             "return values.\n\ntrue_fn output: " + in.str(t.out) + "\nfalse_fn output: " + in.str(f.out) +
                 "\n\nError details:\n" + detail);
  };
  const bool checkable = !t.failed && !f.failed;
  if (checkable)
    if (auto e = same_structure_error(in, t.out, f.out, true)) error(e->second);
  std::vector<Value> tflat, fflat;
  if (!t.failed) flatten_nest(in, t.out, tflat);
  if (!f.failed) flatten_nest(in, f.out, fflat);
  if (checkable) {
    // The branch graphs' outputs are the leaves that are not None, zipped in order.
    std::vector<Value> touts, fouts;
    for (const Value& v : tflat)
      if (!v.is_none()) touts.push_back(v);
    for (const Value& v : fflat)
      if (!v.is_none()) fouts.push_back(v);
    if (touts.size() != fouts.size())
      in.raise("ValueError", "Lengths of branch outputs of cond must match.\nlen(graphs[0].outputs): " +
                                 std::to_string(touts.size()) + "\nlen(graphs[1].outputs): " +
                                 std::to_string(fouts.size()) + "\n");
    for (size_t i = 0; i < touts.size(); ++i)
      if (!is_tensor_array(touts[i]) && !is_tensor_array(fouts[i]) && value_dtype(in, touts[i]) != value_dtype(in, fouts[i]))
        error(in.str(touts[i]) + " and " + in.str(fouts[i]) + " have different types");
  }
  const Branch& chosen = taken ? t : f;
  const Branch& other = taken ? f : t;
  const std::vector<Value>& chosen_flat = taken ? tflat : fflat;
  const std::vector<Value>& other_flat = taken ? fflat : tflat;
  const bool any_tensor = std::any_of(chosen_flat.begin(), chosen_flat.end(), [](const Value& v) { return is_tensorish(v); });
  if (!any_tensor) return chosen.out;
  const BranchCaptures captures = cond_branch_captures(in, other.begin, other.end, other_flat);
  const std::vector<Value> routed = cond_route_outputs(in, chosen_flat, captures);
  size_t pos = 0;
  // _build_cond packs into the true branch's structure (the taken one's, if the other failed).
  return pack_nest(in, other.failed ? chosen.out : t.out, routed, pos);
}

Value tf_cond(Interpreter& in, CallArgs& a) {
  Args args(in, a, "cond_for_tf_v2", {"pred", "true_fn", "false_fn", "name"}, 1);
  const Value true_fn = args.get(1, Value::none());
  const Value false_fn = args.get(2, Value::none());
  if (true_fn.is_none()) in.raise("TypeError", "cond(): 'true_fn' argument required");
  if (false_fn.is_none()) in.raise("TypeError", "cond(): 'false_fn' argument required");
  if (!callable(in, true_fn)) in.raise("TypeError", "'true_fn' must be callable.");
  if (!callable(in, false_fn)) in.raise("TypeError", "'false_fn' must be callable.");
  if (in.in_tf_function()) return cond_graph(in, args[0], true_fn, false_fn);
  return cond_eager(in, args[0], true_fn, false_fn);
}

// ---------------------------------------------------------------------------------
// tf.while_loop

Value convert_variables_to_tensors(Interpreter& in, const Value& v) {
  return map_nest(in, v, [&in](const Value& x) -> Value {
    return x.kind == VKind::Variable ? Value::tensor(in.engine().read_variable(x.id)) : x;
  });
}

// while_loop.py's eager path: the Python loop, with TF's checks in TF's order.
Value while_eager(Interpreter& in, const Value& cond, const Value& body, Value loop_vars,
                  const std::optional<int64_t>& maximum_iterations) {
  const bool counted = maximum_iterations.has_value();
  int64_t counter = 0;
  if (counted) loop_vars = in.make_tuple({Value::integer(0), loop_vars});
  auto listed = [&](const Value& v) { return in.make_list(in.iterate(v)); };
  const Value structure = map_nest(in, listed(loop_vars), [&in](const Value& x) { return type_spec_from_value(in, x); });
  const Value logical_and = in.getattr(Value::object(in.module("tf")), "logical_and");
  const int line = in.line();
  while (true) {
    Value c;
    if (counted) {
      const std::vector<Value> parts = in.iterate(loop_vars);
      const Value r = unpack_call(in, cond, parts.at(1));
      c = in.call(logical_and, {Value::boolean(counter < *maximum_iterations), r});
    } else {
      c = unpack_call(in, cond, loop_vars);
    }
    std::optional<TensorId> cond_tensor;
    if (!decide(in, c, cond_tensor, "tf.while_loop", line, {})) break;
    {
      Control control(in.engine(), cond_tensor);
      if (counted) {
        const std::vector<Value> parts = in.iterate(loop_vars);
        const Value out = unpack_call(in, body, parts.at(1));
        loop_vars = in.make_tuple({Value::integer(++counter), out});
      } else {
        loop_vars = unpack_call(in, body, loop_vars);
      }
    }
    // tf.while_loop passes return_same_structure=True: a body that returns a bare tensor
    // is not packed into a list; list() of it iterates it (a scalar raises).
    assert_same_structure(in, structure, listed(loop_vars), true);
  }
  // while_loop.py's convert(): a TensorArray is kept, the rest become tensors.
  loop_vars = map_nest(in, loop_vars, [&in](const Value& x) -> Value {
    return x.kind == VKind::Tensor || is_tensor_array(x) ? x : Value::tensor(in.to_tensor(x));
  });
  if (counted) return in.iterate(loop_vars).at(1);
  return loop_vars;
}

// while_v2's checks of the traced body against the loop vars: the shapes first
// (_check_shapes_compat, no shape_invariants), then the dtypes
// (_check_inputs_outputs_types_match). Eager loops check neither; given shape_invariants
// (not modelled: shapes here are always the run's), the shapes go unchecked.
void check_first_iteration(Interpreter& in, const Value& vars, const std::vector<Value>& outs, bool check_shapes) {
  std::vector<Value> ins;
  flatten_nest(in, vars, ins);
  Engine& e = in.engine();
  auto name = [&](const Value& v) { return graph_tensor_name(in, v.id).value_or("loop_var:0"); };
  for (size_t i = 0; i < ins.size() && i < outs.size(); ++i) {
    if (ins[i].kind != VKind::Tensor || outs[i].kind != VKind::Tensor) continue;
    const Shape& a = e.value(ins[i].id).shape;
    const Shape& b = e.value(outs[i].id).shape;
    if (check_shapes && a != b)
      in.raise("ValueError", "Input tensor `" + name(ins[i]) + "` enters the loop with shape " + format_shape(a) +
                                 ", but has shape " + format_shape(b) +
                                 " after one iteration. To allow the shape to vary across iterations, use the "
                                 "`shape_invariants` argument of tf.while_loop to specify a less-specific shape.");
  }
  for (size_t i = 0; i < ins.size() && i < outs.size(); ++i) {
    if (ins[i].kind != VKind::Tensor || outs[i].kind != VKind::Tensor) continue;
    const DType a = e.value(ins[i].id).dtype, b = e.value(outs[i].id).dtype;
    if (a != b)
      in.raise("TypeError", "Loop var " + name(ins[i]) + " enters the loop with type <dtype: '" + std::string(dtype_name(a)) +
                                "'> but has type <dtype: '" + std::string(dtype_name(b)) + "'> after 1 iteration. " + name(ins[i]) +
                                " type should remain constant.");
  }
}

// while_v2 (inside a tf.function): its structure rules over an unrolled run. The result
// has the structure of loop_vars (return_same_structure); the body's Python side effects
// happen once while tracing (it is traced once), and a loop that does not run still
// traces its body (in shadow: its state changes do not happen).
Value while_graph(Interpreter& in, const Value& cond, const Value& body, Value loop_vars,
                  const std::optional<int64_t>& maximum_iterations, bool back_prop, bool shape_invariants) {
  const Value orig = loop_vars;
  in.call(in.builtins()->vars.at("len"), {orig});  // len(orig_loop_vars)
  // A TensorArray rides through as itself (in TF its flow tensor is the loop variable).
  loop_vars = map_nest(in, loop_vars, [&in](const Value& x) -> Value {
    return x.is_none() || x.kind == VKind::Tensor || is_tensor_array(x) ? x : Value::tensor(in.to_tensor(x));
  });
  const Value logical_and = in.getattr(Value::object(in.module("tf")), "logical_and");
  const int line = in.line();
  const bool tracing = in.tracing_tf_function();
  trace_flush_names(in);
  const size_t body_begin = in.engine().log().tensors.size();
  const size_t ops_begin = in.engine().log().ops.size();
  std::vector<Value> initial;
  flatten_nest(in, loop_vars, initial);
  int64_t counter = 0;
  size_t iterations = 0;
  bool checked = false;
  ScopedCount quiet;  // a traced body runs its Python once
  auto run_body = [&](const Value& vars) {
    Value out = unpack_call(in, body, vars);
    if (!nested(out)) out = in.make_list({out});
    if (auto e = same_structure_error(in, out, orig, false)) {
      const Value v1 = convert_variables_to_tensors(in, out);
      const Value v2 = convert_variables_to_tensors(in, orig);
      assert_same_structure(in, v1, v2, false);
    }
    std::vector<Value> flat;
    flatten_nest(in, out, flat);
    for (Value& x : flat)
      if (x.kind != VKind::Tensor && !x.is_none() && !is_tensor_array(x)) x = Value::tensor(in.to_tensor(x));
    if (tracing && !checked) {
      checked = true;
      check_first_iteration(in, vars, flat, !shape_invariants);
    }
    size_t pos = 0;
    return pack_nest(in, orig, flat, pos);  // packed as loop_vars_signature
  };
  while (true) {
    Value c = unpack_call(in, cond, loop_vars);
    if (is_tensorish(c) && !value_shape(in, c).empty()) {
      const Value squeeze = in.getattr(Value::object(in.module("tf")), "squeeze");
      c = in.call(squeeze, {c});
    }
    if (maximum_iterations) c = in.call(logical_and, {Value::boolean(counter < *maximum_iterations), c});
    std::optional<TensorId> cond_tensor;
    if (!decide(in, c, cond_tensor, "tf.while_loop", line, {})) break;
    Control control(in.engine(), cond_tensor);
    loop_vars = run_body(loop_vars);
    ++counter;
    if (tracing && iterations++ == 0) quiet.start(in.replay_depth());
  }
  // Every call of the function, not only its trace, runs the While op its graph has, so
  // a replay finds the captures as the trace did.
  const bool graph = in.in_tf_function();
  if (iterations == 0 && graph) {
    ScopedCount shadow(shadow_branch_depth(in));
    run_in_shadow([&] { run_body(loop_vars); });  // traced all the same: its checks and side effects
  }
  // The loop's outputs come out of one While op (named while:2, ... in the function's
  // graph); what the body made is named inside the loop's scope.
  trace_scope_names(in, body_begin, in.engine().log().tensors.size(), "while");
  {
    std::vector<Value> flat;
    flatten_nest(in, loop_vars, flat);
    std::vector<TensorId> ins;
    for (const Value& x : flat)
      if (x.kind == VKind::Tensor) ins.push_back(x.id);
    if (!ins.empty()) {
      const size_t n = ins.size();
      if (graph)
        for (TensorId c : while_captures(in, ops_begin, body_begin, initial)) ins.push_back(c);
      const std::vector<TensorId> outs =
          in.engine().execute("While", ins, Attrs{{"num_outputs", static_cast<int64_t>(n)}}, "tf.while_loop");
      size_t k = 0;
      for (Value& x : flat)
        if (x.kind == VKind::Tensor) x = Value::tensor(outs.at(k++));
      size_t pos = 0;
      loop_vars = pack_nest(in, loop_vars, flat, pos);
    }
  }
  if (!back_prop) {
    const Value stop = in.getattr(Value::object(in.module("tf")), "stop_gradient");
    loop_vars = map_nest(in, loop_vars, [&](const Value& x) { return x.is_none() ? x : in.call(stop, {x}); });
  }
  return loop_vars;
}

Value tf_while_loop(Interpreter& in, CallArgs& a) {
  Args args(in, a, "while_loop_v2",
            {"cond", "body", "loop_vars", "shape_invariants", "parallel_iterations", "back_prop", "swap_memory",
             "maximum_iterations", "name"},
            3);
  const Value& cond = args[0];
  const Value& body = args[1];
  if (!callable(in, cond)) in.raise("TypeError", "'cond' must be callable.");
  if (!callable(in, body)) in.raise("TypeError", "'body' must be callable.");
  if (args.has(4) && int_arg(in, args[4], "parallel_iterations") < 1)
    in.raise("TypeError", "'parallel_iterations' must be a positive integer.");
  const bool back_prop = !args.given(5) || in.truthy(args[5]);
  if (args.given(5) && args[5].kind == VKind::Bool && !back_prop) {
    // @deprecation.deprecated_arg_values(..., warn_once=True, back_prop=False)
    const EventLog& log = in.engine().log();
    const std::string text = "calling while_loop_v2 (from tensorflow.python.ops.while_loop) with back_prop=False is "
                             "deprecated and will be removed in a future version.\nInstructions for updating:\n"
                             "back_prop=False is deprecated. Consider using tf.stop_gradient instead.\nInstead of:\n"
                             "results = tf.while_loop(c, b, vars, back_prop=False)\nUse:\n"
                             "results = tf.nest.map_structure(tf.stop_gradient, tf.while_loop(c, b, vars))";
    auto st = module_state(in);
    if (!st->while_back_prop_warned) in.engine().warning_tf("From " + log.file + ":" + std::to_string(in.line()) + ": " + text);
    st->while_back_prop_warned = true;
  }
  const Value loop_vars = convert_variables_to_tensors(in, args[2]);
  std::optional<int64_t> maximum_iterations;
  auto read_maximum = [&] {
    if (!args.has(7)) return;
    const TensorId m = in.to_tensor(args[7]);
    const Shape s = in.engine().value(m).shape;
    if (!s.empty()) in.raise("ValueError", "'maximum_iterations' must be a scalar. Received shape: " + format_shape(s));
    maximum_iterations = int_arg(in, Value::tensor(m), "maximum_iterations");
  };
  if (in.in_tf_function()) {
    read_maximum();
    return while_graph(in, cond, body, loop_vars, maximum_iterations, back_prop, args.has(3));
  }
  // Eagerly `not loop_vars` comes before maximum_iterations is read.
  if (!in.truthy(loop_vars)) in.raise("ValueError", "'loop_vars' must be provided.");
  in.call(in.builtins()->vars.at("len"), {loop_vars});
  read_maximum();
  return while_eager(in, cond, body, loop_vars, maximum_iterations);
}

}  // namespace

void install_control_flow_ops(Interpreter& in, ModuleObj& tf) {
  tf.attrs.set("cond", native_fn(in, "tf.cond", tf_cond));
  tf.attrs.set("while_loop", native_fn(in, "tf.while_loop", tf_while_loop));
}

}  // namespace ts::script

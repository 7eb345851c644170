// cond_v2's gradient for AutoGraph's `if` on a tensor inside a traced tf.function.
//
// In a tf.function, an `if` on a tensor becomes one If op (cond_v2) whose inputs are
// what either branch captured. Its gradient (cond_v2.py's _IfGrad) differentiates both
// branches and, where one branch has no gradient for an input that the other has one
// for, gives zeros (_create_zeros_for_none_grads): a variable read only in the branch
// that did not run gets a zero gradient, not None. The branch that runs gives the
// values; the other one runs as a trace (shadow) only, and what it used differentiably
// is found on the engine's log. The outputs of the `if` then go through one "If" op:
// the taken branch's outputs pass through, the other branch's captures get zeros.
#include "cond_v2.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "../engine.h"
#include "../op_registry.h"  // the If op: engine/ops/control_ops.cpp
#include "tf_util.h"

namespace ts::script {

namespace {

bool trainable_tensor(Engine& e, TensorId t) {
  if (e.is_variable(t)) return is_floating(e.variable(t).dtype);
  return is_floating(e.value(t).dtype);
}

}  // namespace

// A branch the condition does not take is traced in TF, never run: the errors a kernel
// raises only on values it sees (an index out of range, an integer division by zero)
// cannot come from it. Here it runs in shadow on real values, so such an error ends the
// shadow run instead of the call. Errors of the trace itself (Python's, dtype and
// structure checks) still surface.
bool shadow_swallows(const std::string& error_type) {
  static const char* const kRuntime[] = {"InvalidArgumentError", "OutOfRangeError", "FailedPreconditionError",
                                         "UnimplementedError",   "NotFoundError",   "AbortedError",
                                         "UnknownError",         "DataLossError"};
  for (const char* t : kRuntime)
    if (error_type == t) return true;
  return false;
}

namespace {

// Ops whose gradient does not read the values of their inputs: differentiating their
// gradient again reaches no capture.
bool linear_op(const std::string& t) {
  static const char* const kLinear[] = {"Identity",  "AddV2",   "Add",      "Sub",       "Neg",       "AddN",
                                        "Reshape",   "Transpose", "ExpandDims", "Squeeze", "Sum",       "Mean",
                                        "ConcatV2",  "Pack",    "Unpack",   "StridedSlice", "Slice",   "Tile",
                                        "Cast",      "If",      "While",    "BroadcastTo", "ZerosLike", "OnesLike",
                                        "ReadVariableOp"};
  for (const char* k : kLinear)
    if (t == k) return true;
  return false;
}

}  // namespace

BranchCaptures cond_branch_captures(Interpreter& in, size_t tensors_begin, size_t tensors_end,
                                    const std::vector<Value>& outputs) {
  Engine& e = in.engine();
  const EventLog& log = e.log();
  std::unordered_set<TensorId> made;
  for (size_t k = tensors_begin; k < tensors_end && k < log.tensors.size(); ++k) made.insert(log.tensors[k].id);
  std::vector<Value> flat;
  for (const Value& v : outputs) flatten_nest(in, v, flat);
  std::vector<TensorId> stack;
  BranchCaptures out;
  for (const Value& v : flat)
    if (is_tensorish(v) && trainable_tensor(e, v.id)) stack.push_back(v.id);
  // The differentiable ops between the captures and the outputs, and each tensor's
  // differentiable inputs on that path.
  std::unordered_set<TensorId> seen;
  std::vector<const OpInfo*> path_ops;
  while (!stack.empty()) {
    const TensorId t = stack.back();
    stack.pop_back();
    if (!seen.insert(t).second) continue;
    if (!made.count(t)) {
      out.all.push_back(t);  // made before the branch: a capture of it
      continue;
    }
    const TensorInfo& ti = e.tensor(t);
    if (ti.producer == kNoId) continue;  // a constant of the branch
    const OpInfo* op = log.op(ti.producer);
    if (!op) continue;
    if (op->category != OpCategory::Math && op->category != OpCategory::VariableRead &&
        op->category != OpCategory::FunctionCall)
      continue;  // state and host values carry no gradient
    const OpDef* d = OpRegistry::instance().find(op->type);
    if (op->category != OpCategory::FunctionCall && (!d || d->grad_kind != GradKind::Function)) continue;
    path_ops.push_back(op);
    for (size_t i = 0; i < op->inputs.size(); ++i) {
      if (d && d->returns_none && d->returns_none(*op, i)) continue;
      const TensorId x = op->inputs[i];
      if (trainable_tensor(e, x)) stack.push_back(x);
    }
  }
  // The captures upstream of each tensor on the path, producers first (an op's id is
  // below its outputs' and above its inputs'), without recursion: a branch may be long.
  std::unordered_map<TensorId, std::vector<TensorId>> memo;
  for (TensorId c : out.all) memo[c] = {c};
  std::vector<const OpInfo*> order = path_ops;
  std::sort(order.begin(), order.end(), [](const OpInfo* a, const OpInfo* b) { return a->id < b->id; });
  order.erase(std::unique(order.begin(), order.end()), order.end());
  static const std::vector<TensorId> kNone;
  auto ups = [&](TensorId t) -> const std::vector<TensorId>& {
    auto it = memo.find(t);
    return it == memo.end() ? kNone : it->second;
  };
  for (const OpInfo* op : order) {
    std::vector<TensorId> r;
    for (TensorId x : op->inputs)
      for (TensorId c : ups(x))
        if (std::find(r.begin(), r.end(), c) == r.end()) r.push_back(c);
    for (TensorId o : op->outputs) memo[o] = r;
  }
  // A capture whose value an op's gradient reads (a product of two captured values, a
  // sin of one): the branch's gradient depends on it, so differentiating that gradient
  // gives it a gradient, zeros at least (_IfGrad's _create_zeros_for_none_grads).
  auto mark = [&](TensorId x) {
    for (TensorId c : ups(x))
      if (std::find(out.nonlinear.begin(), out.nonlinear.end(), c) == out.nonlinear.end()) out.nonlinear.push_back(c);
  };
  for (const OpInfo* op : path_ops) {
    if (linear_op(op->type)) continue;
    std::vector<size_t> live;
    for (size_t i = 0; i < op->inputs.size(); ++i)
      if (!ups(op->inputs[i]).empty()) live.push_back(i);
    const bool bilinear = op->type == "Mul" || op->type == "MatMul" || op->type == "BatchMatMulV2";
    if (bilinear && live.size() < 2) continue;  // times a constant: linear
    if (op->type == "RealDiv" && (live.empty() || (live.size() == 1 && live[0] == 0))) continue;  // over a constant
    for (size_t i : live) mark(op->inputs[i]);
  }
  return out;
}

std::vector<Value> cond_route_outputs(Interpreter& in, const std::vector<Value>& outputs,
                                      const BranchCaptures& zero_captures) {
  Engine& e = in.engine();
  std::vector<TensorId> inputs;
  for (const Value& v : outputs) {
    if (v.kind == VKind::Tensor) inputs.push_back(v.id);
    else if (v.kind == VKind::Variable) inputs.push_back(e.read_variable(v.id));
  }
  if (inputs.empty()) return outputs;
  const size_t n = inputs.size();
  std::vector<int64_t> grad_captures;  // inputs the gradient's own If takes (see the If op)
  for (TensorId c : zero_captures.all) {
    if (std::find(zero_captures.nonlinear.begin(), zero_captures.nonlinear.end(), c) != zero_captures.nonlinear.end())
      grad_captures.push_back(static_cast<int64_t>(inputs.size()));
    inputs.push_back(e.is_variable(c) ? e.read_variable(c) : c);
  }
  const std::vector<TensorId> outs = e.execute(
      "If", inputs, Attrs{{"num_outputs", static_cast<int64_t>(n)}, {"grad_captures", grad_captures}}, "if");
  std::vector<Value> routed;
  size_t k = 0;
  for (const Value& v : outputs) {
    if (v.kind == VKind::Tensor || v.kind == VKind::Variable) routed.push_back(Value::tensor(outs.at(k++)));
    else routed.push_back(v);
  }
  return routed;
}

// What a traced loop's cond and body captured from outside: the floating tensors and
// variables made before the loop that its ops (in the iterations or the shadow run of
// a loop that did not run) took as inputs, the loop variables' first values aside.
// while_v2 passes them into the While op, so each has a gradient: zeros at least.
std::vector<TensorId> while_captures(Interpreter& in, size_t ops_begin, size_t tensors_begin,
                                     const std::vector<Value>& initial) {
  Engine& e = in.engine();
  const EventLog& log = e.log();
  const int64_t first_new = tensors_begin < log.tensors.size() ? log.tensors[tensors_begin].id : INT64_MAX;
  std::vector<TensorId> out;
  for (size_t k = ops_begin; k < log.ops.size(); ++k) {
    const OpInfo& op = log.ops[k];
    for (TensorId x : op.inputs) {
      if (x >= first_new || std::find(out.begin(), out.end(), x) != out.end()) continue;
      if (std::any_of(initial.begin(), initial.end(), [x](const Value& v) { return v.id == x && is_tensorish(v); }))
        continue;
      const bool var = e.is_variable(x);
      if (!var && !log.tensor(x)) continue;
      if (!is_floating(var ? e.variable(x).dtype : e.value(x).dtype)) continue;
      out.push_back(x);
    }
  }
  for (TensorId& x : out)
    if (e.is_variable(x)) x = e.read_variable(x);
  return out;
}

}  // namespace ts::script

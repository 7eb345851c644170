// The op registry: for every op type (TensorFlow's name: "Mul", "MatMul", ...) its
// forward kernel, and either a gradient function built from engine ops, or a named
// reason why there is none ("not differentiable", "no gradient registered").
// Forward and gradient of one op sit side by side in engine/ops/<family>.cpp.
#pragma once
#include <deque>
#include <functional>
#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

#include "attrs.h"
#include "ids.h"
#include "small_vector.h"
#include "tensor.h"
#include "tensor_list.h"

namespace ts {

class Engine;
struct OpInfo;

// What kind of edge an op is on the trace graph; decides whether tapes may record it
// and which None cause a broken path through it gets.
enum class OpCategory {
  Math,          // ordinary differentiable-or-not tensor op
  VariableRead,  // ReadVariableOp: handle -> value
  Stateful,      // Assign*VariableOp, IteratorGetNext: a value goes through state
  HostCompute,   // np.* on host arrays: outside the engine
  HostOut,       // a tensor leaves the engine (.numpy(), np.asarray, float())
  HostIn,        // a host value comes back as a constant tensor
  FunctionCall,  // a tf.function call (its traced ops are grouped under it)
};

enum class GradKind {
  Function,           // has a gradient function
  NotDifferentiable,  // registered not differentiable: passes no gradient, silently
  NotRegistered,      // no gradient registered: the backward pass raises LookupError
};

using ForwardFn = std::function<TensorList(const std::vector<const TensorValue*>& in, const Attrs& attrs)>;

// Context a gradient function gets: the forward op and the upstream gradients.
class GradContext {
 public:
  // `received` bit i: output i got a gradient from its consumers (the others get zeros).
  // `needed`: whether a gradient for a tensor is kept by this backward pass (TF's
  // unneeded_gradients: on the tape or a source); null keeps every gradient.
  GradContext(Engine& e, const OpInfo& op, const std::vector<TensorId>& upstream, uint64_t received = ~0ull,
              const std::function<bool(TensorId)>* needed = nullptr)
      : engine_(e), op_(op), upstream_(upstream), received_(received), needed_(needed) {}

  Engine& engine() { return engine_; }
  const OpInfo& op() const { return op_; }
  TensorId input(size_t i) const;
  TensorId output(size_t i) const;
  TensorId grad(size_t i = 0) const { return upstream_.at(i); }  // gradient w.r.t. output i
  // Whether grad(i) came from a consumer rather than being zeros filled in for an unused
  // output (TF's _is_zeros_tensor check).
  bool received(size_t i) const { return i >= 64 || ((received_ >> i) & 1) != 0; }
  // Whether the pass keeps a gradient for input i (TF's skip_input_indices, inverted).
  bool needed(size_t i) const { return !needed_ || (*needed_)(input(i)); }
  const Attrs& attrs() const;
  const TensorValue& value(TensorId id) const;
  const Shape& shape(TensorId id) const;
  DType dtype(TensorId id) const;

  // Runs an engine op (recorded by any enclosing tape: higher-order gradients).
  TensorId op(const std::string& type, const std::vector<TensorId>& inputs, const Attrs& attrs = {});
  TensorId op(const std::string& type, std::initializer_list<TensorId> inputs, const Attrs& attrs = {});
  // An engine op with several outputs.
  std::vector<TensorId> ops(const std::string& type, const std::vector<TensorId>& inputs, const Attrs& attrs = {});
  // A constant of the given value broadcast to nothing (scalar) with dtype of `like`.
  TensorId scalar_like(TensorId like, double v);
  TensorId constant(const TensorValue& v);
  // Reduces a broadcast gradient back to the shape of `target` (Sum + Reshape).
  TensorId reduce_to(TensorId grad, TensorId target);

 private:
  Engine& engine_;
  const OpInfo& op_;
  const std::vector<TensorId>& upstream_;
  uint64_t received_;
  const std::function<bool(TensorId)>* needed_;
};

// One entry per op input: a gradient tensor id, or kNoId for "None" (held inline: an
// op has one or two inputs, and a gradient function runs once per op in a backward pass).
using Grads = SmallVector<TensorId, 2>;
using GradFn = std::function<Grads(GradContext& ctx)>;

struct OpDef {
  std::string type;            // TF op type, e.g. "Mul"
  OpCategory category = OpCategory::Math;
  ForwardFn forward;           // empty for ops the engine itself implements (variables)
  GradKind grad_kind = GradKind::Function;
  GradFn grad;
  std::string rule;            // the gradient rule in words, for the inspector: "d(a*b)/da = b"
  // True when the gradient function returns None for this input whatever the upstream
  // (Round; Cast to or from a non-floating dtype). Lets the diagnosis name the break.
  std::function<bool(const OpInfo&, size_t input)> returns_none;
};

class OpRegistry {
 public:
  static OpRegistry& instance();
  void add(OpDef def);
  const OpDef* find(const std::string& type) const;
  std::vector<const OpDef*> all() const;

 private:
  std::deque<OpDef> defs_;  // stable addresses
  std::unordered_map<std::string, OpDef*> by_type_;
};

// Registers every op family; called once by the Engine (explicit, so static-library
// linking never drops a family).
void register_all_ops();

// Op families (engine/ops/*.cpp).
void register_math_ops();       // element-wise unary/binary arithmetic, activations
void register_reduction_ops();  // Sum, Mean, Max, ArgMax, Softmax
void register_array_ops();      // Reshape, Transpose, ConcatV2, Pack, Squeeze, ExpandDims, Identity, ...
void register_linalg_ops();     // MatMul
void register_control_ops();    // comparisons, SelectV2, StopGradient, Round, Cast, ClipByValue
void register_image_ops();      // AdjustContrastv2
void register_state_ops();      // ReadVariableOp, Assign*VariableOp, IteratorGetNext, host ops
void register_scatter_ops();    // GatherNd, ScatterNd, TensorScatterUpdate/Add, segment sums
void register_nn_ops();         // BiasAdd, BiasAddGrad
void register_einsum_ops();     // Einsum
void register_activation_ops(); // Elu, Selu, Relu6, LeakyRelu and their fused gradients
void register_diag_ops();       // MatrixDiagV3, MatrixDiagPartV3, MatrixSetDiagV3
void register_matrix_ops();     // MatrixDeterminant, MatrixInverse, MatrixBandPart
void register_special_ops();    // Erfc, Lgamma, Digamma, Polygamma
void register_sort_ops();       // TopKV2
void register_manip_ops();      // Roll
void register_conv_ops();       // Conv2D, Conv2DBackpropInput, Conv2DBackpropFilter
void register_pooling_ops();    // MaxPool, MaxPoolGrad, MaxPoolGradGrad, AvgPool, AvgPoolGrad
void register_mirror_pad_ops(); // MirrorPad, MirrorPadGrad

}  // namespace ts

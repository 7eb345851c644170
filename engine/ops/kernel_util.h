// Helpers shared by the op kernels in engine/ops/*.cpp: TF's error texts (dtype
// mismatch, allowed dtypes, incompatible shapes), element-wise loops over broadcast
// shapes with fast paths for the common layouts, integer arithmetic that wraps as
// TF's does, axis handling for reductions, and small builders gradient functions use.
//
// Kernels compute in double and hand their result to make_tensor, which rounds it to
// the dtype (float32 values are what TF would print; int32 wraps).
#pragma once
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "../attrs.h"
#include "../errors.h"
#include "../event_log.h"  // OpInfo, for gradient functions
#include "../op_registry.h"
#include "../tensor.h"

namespace ts::kernels {

using Inputs = std::vector<const TensorValue*>;
using Outputs = TensorList;

// Registers an op with a gradient function (`returns_none`: see OpDef).
void add_op(std::string type, ForwardFn forward, GradFn grad, std::string rule,
            std::function<bool(const OpInfo&, size_t)> returns_none = {});
// Registers an op without one: GradKind::NotDifferentiable or GradKind::NotRegistered.
void add_op(std::string type, ForwardFn forward, GradKind kind, std::string rule);

// ---------------------------------------------------------------------------------
// Errors with TF's wording. Every message ends in " [Op:<type>]" as eager TF's do.

// Throws when the number of inputs is not `n` (the interpreter's bug, not the user's).
void expect_arity(std::string_view op, const Inputs& in, size_t n);
void expect_min_arity(std::string_view op, const Inputs& in, size_t n);

// All inputs [first, last) must have the dtype of input `first`:
// "cannot compute Mul as input #1(zero-based) was expected to be a float tensor but is a int32 tensor [Op:Mul]".
void expect_same_dtype(std::string_view op, const Inputs& in, size_t first = 0, size_t last = SIZE_MAX);

// The dtypes an op's attr T accepts, as TF's op definitions list them.
enum class TypeSet {
  Float,         // half, bfloat16, float, double (Softplus, Softmax, ...)
  FloatComplex,  // + complex (Sqrt, Exp, Log, Sin, Cos, Tanh, Sigmoid)
  Real,          // real number types: comparisons, Maximum, Relu, FloorMod, ...
  Number,        // numbers incl. complex: Add, Mul, Neg, Abs, Sum, MatMul, ...
  Any,           // every dtype but resource
};
// "Value for attr 'T' of int32 is not in the list of allowed values: ..." when `d` is
// not in `set`. `signature` is the op's signature as TF prints it ("x:T -> y:T").
void expect_type(std::string_view op, DType d, TypeSet set, std::string_view signature = "x:T -> y:T");

// broadcast_shapes with " [Op:<type>]" appended to its error; the result passes
// check_output_shape.
Shape broadcast_for(std::string_view op, const Shape& a, const Shape& b);

// Refuses, before anything is allocated, an output shape with a negative dim
// (InvalidArgumentError) or more than kMaxOutputElements elements (ResourceError):
// [100000, 1] * [1, 100000] must fail, not exhaust memory. The engine applies its
// own, usually lower, limit to what a kernel returns.
constexpr int64_t kMaxOutputElements = 100'000'000;
void check_output_shape(std::string_view op, const Shape& shape);
// Dim arithmetic on attrs that cannot overflow (the result then fails the check above).
inline int64_t saturating_mul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}
inline int64_t saturating_add(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

[[noreturn]] void invalid_argument(std::string_view op, const std::string& message);

// ---------------------------------------------------------------------------------
// Integers: values are stored as doubles; arithmetic on them goes through int64 with
// two's-complement wrap-around, then wraps to the dtype's width.

int64_t to_i64(double v);  // saturating, NaN -> 0 (never UB)
inline int64_t wrap_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrap_sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t wrap_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
inline int64_t wrap_neg(int64_t a) { return static_cast<int64_t>(0 - static_cast<uint64_t>(a)); }
// The int64 `v` as the dtype holds it (int32: low 32 bits, signed), as a double.
double int_result(int64_t v, DType d);

// ---------------------------------------------------------------------------------
// Element-wise loops over a broadcast. An Access says how output index i finds its
// element in one input: the same index, always element 0, cycling over a trailing
// block (bias add: [n, k] + [k]), repeating a leading block ([n, k] + [n, 1]), or an
// explicit index map for everything else.

struct Access {
  enum class Kind { Same, Scalar, Cycle, Repeat, Map };
  Kind kind = Kind::Same;
  int64_t n = 1;              // Cycle: block size; Repeat: repeat count
  std::vector<int64_t> map;   // Map
  int64_t operator()(int64_t i) const {
    switch (kind) {
      case Kind::Same: return i;
      case Kind::Scalar: return 0;
      case Kind::Cycle: return i % n;
      case Kind::Repeat: return i / n;
      case Kind::Map: return map[static_cast<size_t>(i)];
    }
    return i;
  }
};
Access access_for(const Shape& in, const Shape& out);

// out[i] = f(a[.], b[.]) over shape `out` (the broadcast of a and b), on raw doubles.
template <class F>
Eigen::ArrayXd broadcast_apply(const TensorValue& a, const TensorValue& b, const Shape& out, F f) {
  const int64_t n = num_elements(out);
  Eigen::ArrayXd r(n);
  const double* pa = a.data.data();
  const double* pb = b.data.data();
  double* pr = r.data();
  const int64_t na = a.data.size(), nb = b.data.size();
  if (na == n && nb == n) {
    for (int64_t i = 0; i < n; ++i) pr[i] = f(pa[i], pb[i]);
  } else if (na == n && nb == 1) {
    const double vb = pb[0];
    for (int64_t i = 0; i < n; ++i) pr[i] = f(pa[i], vb);
  } else if (na == 1 && nb == n) {
    const double va = pa[0];
    for (int64_t i = 0; i < n; ++i) pr[i] = f(va, pb[i]);
  } else {
    const Access ia = access_for(a.shape, out), ib = access_for(b.shape, out);
    for (int64_t i = 0; i < n; ++i) pr[i] = f(pa[ia(i)], pb[ib(i)]);
  }
  return r;
}

// A binary arithmetic op: same dtypes, broadcasting, result of the input dtype.
// `ff` computes floats (in double), `fi` integers (int64, wrapping; may throw).
template <class FF, class FI>
TensorValue binary_arith(std::string_view op, const Inputs& in, TypeSet allowed, FF ff, FI fi) {
  expect_arity(op, in, 2);
  expect_same_dtype(op, in);
  const TensorValue& a = *in[0];
  const TensorValue& b = *in[1];
  expect_type(op, a.dtype, allowed, "x:T, y:T -> z:T");
  Shape out = a.shape == b.shape ? a.shape : broadcast_for(op, a.shape, b.shape);
  // The data first: an argument list that moves `out` and reads it is evaluated in an
  // unspecified order (clang moved it away before broadcast_apply read it).
  if (is_integer(a.dtype)) {
    const DType d = a.dtype;
    Eigen::ArrayXd data = broadcast_apply(a, b, out, [&](double x, double y) { return int_result(fi(to_i64(x), to_i64(y)), d); });
    return make_tensor(d, std::move(out), std::move(data));
  }
  if (a.dtype == DType::Float32) {  // rounded in the same pass
    Eigen::ArrayXd data = broadcast_apply(a, b, out, [&](double x, double y) {
      return static_cast<double>(static_cast<float>(ff(x, y)));
    });
    return make_tensor_rounded(a.dtype, std::move(out), std::move(data));
  }
  Eigen::ArrayXd data = broadcast_apply(a, b, out, ff);
  return make_tensor(a.dtype, std::move(out), std::move(data));
}

// A binary op on floats only (TF's fused gradient ops).
template <class FF>
TensorValue binary_float(std::string_view op, const Inputs& in, FF ff) {
  return binary_arith(op, in, TypeSet::Float, ff, [](int64_t, int64_t) { return int64_t{0}; });
}

// A unary op on floats (and, when `fi` is given, integers): result of the input dtype.
template <class FF>
TensorValue unary_float(std::string_view op, const Inputs& in, TypeSet allowed, FF ff) {
  expect_arity(op, in, 1);
  const TensorValue& x = *in[0];
  expect_type(op, x.dtype, allowed);
  Eigen::ArrayXd r(x.data.size());
  for (Eigen::Index i = 0; i < r.size(); ++i) r[i] = ff(x.data[i]);
  return make_tensor(x.dtype, x.shape, std::move(r));
}
template <class FF, class FI>
TensorValue unary_arith(std::string_view op, const Inputs& in, TypeSet allowed, FF ff, FI fi) {
  expect_arity(op, in, 1);
  const TensorValue& x = *in[0];
  expect_type(op, x.dtype, allowed);
  Eigen::ArrayXd r(x.data.size());
  if (is_integer(x.dtype)) {
    for (Eigen::Index i = 0; i < r.size(); ++i) r[i] = int_result(fi(to_i64(x.data[i])), x.dtype);
  } else {
    for (Eigen::Index i = 0; i < r.size(); ++i) r[i] = ff(x.data[i]);
  }
  return make_tensor(x.dtype, x.shape, std::move(r));
}

inline Outputs one(TensorValue v) {
  Outputs o;
  o.push_back(std::move(v));
  return o;
}

// ---------------------------------------------------------------------------------
// Axes.

// `axis` in [-rank, rank) made non-negative; else InvalidArgumentError(`what`).
int64_t normalize_axis(int64_t axis, int64_t rank, std::string_view op, const std::string& what);

// A reduction over `axes` (attr "axis": empty = all; negative allowed) of `shape`.
struct Reduction {
  std::vector<bool> reduced;  // per input dim
  Shape kept_shape;           // input shape with reduced dims set to 1 (keepdims)
  Shape out_shape;            // kept_shape, or without the reduced dims
  int64_t count = 1;          // elements summed into each output element
  // Output index of input element i (empty when every element goes to output 0).
  std::vector<int64_t> out_index;
};
Reduction plan_reduction(std::string_view op, const Shape& shape, const Attrs& attrs, bool build_index = true);

// Row-major index arithmetic: calls f(flat index) for the element at each position of
// `counts` with start/step per dim in a tensor of strides `strides` (slicing, tiling).
std::vector<int64_t> strided_indices(const Shape& counts, const std::vector<int64_t>& start,
                                     const std::vector<int64_t>& step, const std::vector<int64_t>& strides);

// ---------------------------------------------------------------------------------
// Gradient builders (every one made of engine ops, so enclosing tapes record them).

// Whether input i of the op being differentiated can need a gradient: it is on the tape
// being differentiated (watched, or made by a recorded op) or one of the call's sources.
// Like TF's skip_input_indices, gradient functions return None for the other inputs
// instead of computing what nobody asked for (the data side of x @ w, the constant
// exponent of x**2); the pass would drop those gradients anyway.
bool needs_grad(GradContext& c, size_t i);
// f() for input i when it can need a gradient, else None.
template <class F>
TensorId if_needed(GradContext& c, size_t i, F f) {
  return needs_grad(c, i) ? f() : kNoId;
}

// The gradient `g` (of a broadcast result) summed back to the shape of input `x`.
TensorId unbroadcast(GradContext& c, TensorId g, TensorId x);
// The upstream gradient of a reduction of `x`, brought back to x's shape.
TensorId broadcast_back(GradContext& c, TensorId g, const Reduction& r, const Shape& x_shape);
TensorId reshape(GradContext& c, TensorId t, const Shape& shape);
// A scalar zero of g's dtype: SelectV2 broadcasts it (TF's `zeros = zeros([], dtype)`).
TensorId zero_like_scalar(GradContext& c, TensorId like);

}  // namespace ts::kernels

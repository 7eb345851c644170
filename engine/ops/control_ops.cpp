// Comparisons, logic, selection and the ops that end a gradient path on purpose:
// each forward kernel with its gradient function (or its "not differentiable" mark)
// beside it.
//
// Attrs: Cast "DstT" = dtype (optional "SrcT" = the input's dtype, used only to name
// a None break without looking at the input); the rest take none. ClipByValue's
// bounds are scalars or of x's shape.
//
// What passes no gradient, and how TF says so:
//   not differentiable (registered so): comparisons, logical ops, StopGradient;
//   a gradient function that returns None: Round; Cast to or from a non-floating dtype.
#include <algorithm>
#include <cmath>

#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {


// A comparison: same dtypes, broadcasting, a bool result.
template <class Cmp>
TensorValue compare(std::string_view op, const Inputs& in, TypeSet allowed, Cmp cmp) {
  expect_arity(op, in, 2);
  expect_same_dtype(op, in);
  const TensorValue& a = *in[0];
  const TensorValue& b = *in[1];
  expect_type(op, a.dtype, allowed, "x:T, y:T -> z:bool");
  const Shape out = a.shape == b.shape ? a.shape : broadcast_for(op, a.shape, b.shape);
  if (a.dtype == DType::String) {
    const Access ia = access_for(a.shape, out), ib = access_for(b.shape, out);
    Eigen::ArrayXd r(num_elements(out));
    for (Eigen::Index i = 0; i < r.size(); ++i)
      r[i] = cmp(a.strings[static_cast<size_t>(ia(i))].compare(b.strings[static_cast<size_t>(ib(i))]), 0) ? 1.0 : 0.0;
    return make_tensor(DType::Bool, out, std::move(r));
  }
  return make_tensor(DType::Bool, out,
                     broadcast_apply(a, b, out, [&](double x, double y) { return cmp(x, y) ? 1.0 : 0.0; }));
}

void add_comparison(const char* type, TypeSet allowed, bool (*cmp)(double, double), const char* rule) {
  add_op(type,
         [type, allowed, cmp](const Inputs& in, const Attrs&) {
           return one(compare(type, in, allowed, [cmp](auto x, auto y) {
             return cmp(static_cast<double>(x), static_cast<double>(y));
           }));
         },
         GradKind::NotDifferentiable, std::string(rule) + " gives a bool: not differentiable");
}

TensorValue logical(std::string_view op, const Inputs& in, bool (*f)(bool, bool)) {
  expect_arity(op, in, 2);
  for (size_t i = 0; i < 2; ++i)
    if (in[i]->dtype != DType::Bool)
      invalid_argument(op, "cannot compute " + std::string(op) + " as input #" + std::to_string(i) +
                               "(zero-based) was expected to be a bool tensor but is a " + dtype_kernel_name(in[i]->dtype) +
                               " tensor");
  const TensorValue& a = *in[0];
  const TensorValue& b = *in[1];
  const Shape out = a.shape == b.shape ? a.shape : broadcast_for(op, a.shape, b.shape);
  return make_tensor(DType::Bool, out,
                     broadcast_apply(a, b, out, [f](double x, double y) { return f(x != 0, y != 0) ? 1.0 : 0.0; }));
}

TensorValue select(const Inputs& in) {
  const char* op = "SelectV2";
  expect_arity(op, in, 3);
  const TensorValue& c = *in[0];
  const TensorValue& a = *in[1];
  const TensorValue& b = *in[2];
  if (c.dtype != DType::Bool)
    invalid_argument(op, "cannot compute SelectV2 as input #0(zero-based) was expected to be a bool tensor but is a " +
                             dtype_kernel_name(c.dtype) + " tensor");
  expect_same_dtype(op, in, 1, 3);
  Shape out;
  try {
    out = broadcast_shapes(broadcast_shapes(c.shape, a.shape), b.shape);
  } catch (const TfError&) {
    invalid_argument(op, "condition " + shape_list_str(c.shape) + ", then " + shape_list_str(a.shape) + ", and else " +
                             shape_list_str(b.shape) + " must be broadcastable");
  }
  check_output_shape(op, out);
  const int64_t n = num_elements(out);
  const bool same = c.size() == n && a.size() == n && b.size() == n;
  const Access ic = access_for(c.shape, out), ia = access_for(a.shape, out), ib = access_for(b.shape, out);
  if (a.dtype == DType::String) {
    std::vector<std::string> s(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      s[static_cast<size_t>(i)] =
          c.data[ic(i)] != 0 ? a.strings[static_cast<size_t>(ia(i))] : b.strings[static_cast<size_t>(ib(i))];
    return make_string_tensor(out, std::move(s));
  }
  Eigen::ArrayXd r(n);
  if (same) {
    for (int64_t i = 0; i < n; ++i) r[i] = c.data[i] != 0 ? a.data[i] : b.data[i];
  } else {
    for (int64_t i = 0; i < n; ++i) r[i] = c.data[ic(i)] != 0 ? a.data[ia(i)] : b.data[ib(i)];
  }
  TensorValue t;  // elements come from a or b: already of the dtype
  t.dtype = a.dtype;
  t.shape = std::move(out);
  t.data = std::move(r);
  return t;
}

// TF's Cast from a float to an integer type: truncation toward zero; NaN and values
// out of range give the type's minimum (what x86's conversion yields).
TensorValue cast(const TensorValue& x, DType to) {
  if (!is_floating(x.dtype) || !is_integer(to)) return cast_value(x, to);
  const double lo = to == DType::Int32 ? -2147483648.0 : -9223372036854775808.0;
  const double hi = to == DType::Int32 ? 2147483648.0 : 9223372036854775808.0;
  Eigen::ArrayXd d = x.data;
  for (Eigen::Index i = 0; i < d.size(); ++i) {
    const double t = std::trunc(d[i]);
    d[i] = (std::isnan(t) || t < lo || t >= hi) ? lo : t;
  }
  return make_tensor(to, x.shape, std::move(d));
}

bool cast_passes_gradient(DType src, DType dst) { return is_floating(src) && is_floating(dst); }

}  // namespace

void register_control_ops() {
  // ---- comparisons (not differentiable) ----
  add_comparison("Greater", TypeSet::Real, [](double a, double b) { return a > b; }, "a > b");
  add_comparison("Less", TypeSet::Real, [](double a, double b) { return a < b; }, "a < b");
  add_comparison("GreaterEqual", TypeSet::Real, [](double a, double b) { return a >= b; }, "a >= b");
  add_comparison("LessEqual", TypeSet::Real, [](double a, double b) { return a <= b; }, "a <= b");
  add_comparison("Equal", TypeSet::Any, [](double a, double b) { return a == b; }, "a == b");
  add_comparison("NotEqual", TypeSet::Any, [](double a, double b) { return a != b; }, "a != b");

  // ---- IsNan / IsInf / IsFinite: floats to bools (math_grad.py: NotDifferentiable) ----
  for (const char* type : {"IsNan", "IsInf", "IsFinite"})
    add_op(type,
           [type](const Inputs& in, const Attrs&) {
             expect_arity(type, in, 1);
             const TensorValue& x = *in[0];
             const std::string t(type);
             if (!is_floating(x.dtype))
               invalid_argument(type, "Value for attr 'T' of " + dtype_kernel_name(x.dtype) +
                                          " is not in the list of allowed values: bfloat16, half, float, double\n\t; "
                                          "NodeDef: {{node " + t + "}}; Op<name=" + t +
                                          "; signature=x:T -> y:bool; attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, "
                                          "DT_FLOAT, DT_DOUBLE]>");
             Eigen::ArrayXd r(x.data.size());
             for (Eigen::Index i = 0; i < r.size(); ++i)
               r[i] = t == "IsNan" ? std::isnan(x.data[i]) : t == "IsInf" ? std::isinf(x.data[i]) : std::isfinite(x.data[i]);
             return one(make_tensor(DType::Bool, x.shape, std::move(r)));
           },
           GradKind::NotDifferentiable, "a test of each element gives a bool: not differentiable");

  // ---- logic on bools (not differentiable) ----
  add_op("LogicalAnd",
         [](const Inputs& in, const Attrs&) {
           return one(logical("LogicalAnd", in, [](bool a, bool b) { return a && b; }));
         },
         GradKind::NotDifferentiable,
         "a and b on bools: not differentiable");
  add_op("LogicalOr",
         [](const Inputs& in, const Attrs&) {
           return one(logical("LogicalOr", in, [](bool a, bool b) { return a || b; }));
         },
         GradKind::NotDifferentiable,
         "a or b on bools: not differentiable");
  add_op("LogicalNot",
         [](const Inputs& in, const Attrs&) {
           expect_arity("LogicalNot", in, 1);
           const TensorValue& x = *in[0];
           if (x.dtype != DType::Bool)
             invalid_argument("LogicalNot", "cannot compute LogicalNot as input #0(zero-based) was expected to be a "
                                            "bool tensor but is a " + dtype_kernel_name(x.dtype) + " tensor");
           return one(make_tensor(DType::Bool, x.shape, (x.data == 0.0).cast<double>()));
         },
         GradKind::NotDifferentiable,
         "not x on bools: not differentiable");

  // ---- selection ----
  add_op("SelectV2",
         [](const Inputs& in, const Attrs&) { return one(select(in)); },
         [](GradContext& c) -> Grads {
           const TensorId cond = c.input(0), g = c.grad();
           const TensorId zero = zero_like_scalar(c, g);
           auto pick = [&](size_t i, TensorId then_, TensorId else_) {
             return if_needed(c, i, [&] { return unbroadcast(c, c.op("SelectV2", {cond, then_, else_}), c.input(i)); });
           };
           return {kNoId, pick(1, g, zero), pick(2, zero, g)};
         },
         "d where(c, a, b) = g to a where c, to b elsewhere; None to c",
         [](const OpInfo&, size_t input) { return input == 0; });

  add_op("ClipByValue",
         [](const Inputs& in, const Attrs&) {
           const char* op = "ClipByValue";
           expect_arity(op, in, 3);
           expect_same_dtype(op, in);
           const TensorValue& x = *in[0];
           expect_type(op, x.dtype, TypeSet::Number, "t:T, clip_value_min:T, clip_value_max:T -> output:T");
           for (size_t i = 1; i < 3; ++i)
             if (in[i]->rank() != 0 && in[i]->shape != x.shape)
               invalid_argument(op,
                                "clip_value_min and clip_value_max must be either scalars or have the same shape "
                                "as t: t shape: " +
                                    shape_list_str(x.shape) + " clip_value_min shape: " + shape_list_str(in[1]->shape) +
                                    " clip_value_max shape: " + shape_list_str(in[2]->shape));
           const TensorValue& lo = *in[1];
           const TensorValue& hi = *in[2];
           Eigen::ArrayXd r(x.size());
           for (Eigen::Index i = 0; i < r.size(); ++i) {
             // TF's kernel: min with the upper bound first, then max with the lower.
             const double h = hi.size() == 1 ? hi.data[0] : hi.data[i];
             const double l = lo.size() == 1 ? lo.data[0] : lo.data[i];
             const double v = std::min(x.data[i], h);
             r[i] = std::max(v, l);
           }
           TensorValue t;
           t.dtype = x.dtype;
           t.shape = x.shape;
           t.data = std::move(r);
           return one(std::move(t));
         },
         [](GradContext& c) -> Grads {
           // TF's _ClipByValueGrad.
           const TensorId x = c.input(0), lo = c.input(1), hi = c.input(2), g = c.grad();
           const TensorId zero = zero_like_scalar(c, g);
           const TensorId below = c.op("Less", {x, lo}), above = c.op("Greater", {x, hi});
           return {if_needed(c, 0,
                             [&] {
                               const TensorId clipped = c.op("LogicalOr", {below, above});
                               return unbroadcast(c, c.op("SelectV2", {clipped, zero, g}), x);
                             }),
                   if_needed(c, 1, [&] { return unbroadcast(c, c.op("SelectV2", {below, g, zero}), lo); }),
                   if_needed(c, 2, [&] { return unbroadcast(c, c.op("SelectV2", {above, g, zero}), hi); })};
         },
         "d clip(x, lo, hi) = g to x where lo <= x <= hi, to lo where x < lo, to hi where x > hi");

  // ---- cond_v2's If, as a traced tf.function's `if` on a tensor leaves it ----
  // Inputs: the outputs of the branch that ran, then what only the other branch used
  // (attr num_outputs = how many are outputs). Its gradient (cond_v2's _IfGrad) passes
  // g to the outputs and gives zeros, not None, to the other branch's captures.
  add_op("If",
         [](const Inputs& in, const Attrs& attrs) {
           const int64_t n = attrs.get_int("num_outputs");
           if (n < 0 || static_cast<size_t>(n) > in.size()) invalid_argument("If", "num_outputs out of range");
           Outputs outs;
           for (int64_t i = 0; i < n; ++i) outs.push_back(*in[static_cast<size_t>(i)]);
           // A gradient's If also gives the zeros of the captures it reads (attr zeros_for).
           for (int64_t k : attrs.get_ints("zeros_for")) {
             if (k < n || static_cast<size_t>(k) >= in.size()) invalid_argument("If", "zeros_for out of range");
             outs.push_back(make_filled(in[static_cast<size_t>(k)]->dtype, in[static_cast<size_t>(k)]->shape, 0.0));
           }
           return outs;
         },
         [](GradContext& c) -> Grads {
           const size_t n = static_cast<size_t>(c.attrs().get_int("num_outputs"));
           const size_t m = c.op().inputs.size();
           // _IfGrad's result is itself an If op whose inputs include the captures; so
           // the gradients passed on go through one, and differentiating them again
           // gives the captures zeros (not None) where the branch that ran is linear.
           // Its captures: those the other branch's gradient reads (attr grad_captures).
           // The gradient If's outputs are the passed gradients, then the zeros of those
           // captures (the If gives them, so a second derivative reaches the captures
           // through it, and gets zeros from the branch that ran).
           std::vector<TensorId> ins;
           for (size_t i = 0; i < n; ++i) ins.push_back(c.grad(i));
           std::vector<size_t> read;  // the captures the gradient If takes, as this op's input indices
           std::vector<int64_t> zeros_for;
           for (int64_t k : c.attrs().get_ints("grad_captures"))
             if (k >= static_cast<int64_t>(n) && static_cast<size_t>(k) < m) {
               read.push_back(static_cast<size_t>(k));
               zeros_for.push_back(static_cast<int64_t>(ins.size()));
               ins.push_back(c.input(static_cast<size_t>(k)));
             }
           const bool routed = n > 0 && !read.empty();
           const std::vector<TensorId> passed =
               routed ? c.ops("If", ins, Attrs{{"num_outputs", static_cast<int64_t>(n)}, {"zeros_for", zeros_for}}) : ins;
           // Other captures' zeros are made inside the gradient function in TF, from no
           // input: a constant here, so no edge claims the capture reaches them.
           Grads grads;
           for (size_t i = 0; i < m; ++i) {
             const auto at = std::find(read.begin(), read.end(), i);
             if (i < n) grads.push_back(passed[i]);
             else if (routed && at != read.end()) grads.push_back(passed[n + static_cast<size_t>(at - read.begin())]);
             else grads.push_back(c.constant(make_filled(c.dtype(c.input(i)), c.shape(c.input(i)), 0.0)));
           }
           return grads;
         },
         "cond_v2: the branch that ran passes g on; what the other branch used gets zeros");

  // ---- while_v2's While, as an unrolled tf.while_loop in a traced tf.function leaves it ----
  // Inputs: the loop variables' last values, then (attr num_outputs = how many are loop
  // variables) what the loop captured from outside. The outputs are the loop variables,
  // passed through, and so are their gradients (the iterations' own ops are on the
  // tape); while_v2 makes the captures loop inputs too, so they get zeros at least.
  add_op("While",
         [](const Inputs& in, const Attrs& attrs) {
           const int64_t n = attrs.get_int("num_outputs", static_cast<int64_t>(in.size()));
           if (n < 0 || static_cast<size_t>(n) > in.size()) invalid_argument("While", "num_outputs out of range");
           Outputs outs;
           for (int64_t i = 0; i < n; ++i) outs.push_back(*in[static_cast<size_t>(i)]);
           return outs;
         },
         [](GradContext& c) -> Grads {
           const size_t n = c.op().outputs.size();
           Grads grads;
           for (size_t i = 0; i < c.op().inputs.size(); ++i)
             grads.push_back(i < n ? c.grad(i) : c.constant(make_filled(c.dtype(c.input(i)), c.shape(c.input(i)), 0.0)));
           return grads;
         },
         "while_v2: each output's gradient goes to the iterations that made it; captures get at least zeros");

  // ---- ops that end a gradient path ----
  add_op("StopGradient",
         [](const Inputs& in, const Attrs&) {
           expect_arity("StopGradient", in, 1);
           return one(*in[0]);
         },
         GradKind::NotDifferentiable,
         "tf.stop_gradient: the value passes, the gradient does not (registered not differentiable)");

  // Range(start, limit, delta) in attr Tidx's dtype: tf.range given tensors (math_grad.py
  // registers it not differentiable). The interpreter checks the arguments first.
  add_op("Range",
         [](const Inputs& in, const Attrs& attrs) {
           expect_arity("Range", in, 3);
           const double s0 = in[0]->scalar(), s1 = in[1]->scalar(), st = in[2]->scalar();
           if (st == 0) invalid_argument("Range", "Requires delta != 0: 0");
           const int64_t n = static_cast<int64_t>(std::ceil(std::abs((s1 - s0) / st)));
           const int64_t size = std::max<int64_t>(n, 0);
           Eigen::ArrayXd data(size);
           for (int64_t i = 0; i < size; ++i) data[i] = s0 + static_cast<double>(i) * st;
           return one(make_tensor(attrs.get_dtype("Tidx", DType::Int32), {size}, std::move(data)));
         },
         GradKind::NotDifferentiable, "tf.range: a sequence of numbers, registered not differentiable");

  add_op("Round",
         [](const Inputs& in, const Attrs&) {
           // Half to even (2.5 -> 2, 3.5 -> 4): nearbyint in the default rounding mode.
           return one(unary_arith("Round", in, TypeSet::Number, [](double x) { return std::nearbyint(x); },
                                  [](int64_t x) { return x; }));
         },
         [](GradContext&) -> Grads { return {kNoId}; },
         "round is piecewise constant: its gradient function returns None",
         [](const OpInfo&, size_t) { return true; });

  add_op("Cast",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("Cast", in, 1);
           try {
             return one(cast(*in[0], a.get_dtype("DstT", in[0]->dtype)));
           } catch (const TfError& e) {  // a string to or from a number: the kernel's error
             throw TfError(e.type(), std::string(e.what()) + " [Op:Cast]");
           }
         },
         [](GradContext& c) -> Grads {
           const DType src = c.dtype(c.input(0)), dst = c.attrs().get_dtype("DstT", src);
           if (!cast_passes_gradient(src, dst)) return {kNoId};
           return {c.op("Cast", {c.grad()}, Attrs{{"DstT", src}})};
         },
         "d cast(x)/dx = cast(g) back to x's dtype when both dtypes are floating; else None",
         [](const OpInfo& op, size_t) {
           // A recorded Cast has a floating input (the tape records nothing else),
           // so the destination decides; SrcT, when given, is checked too.
           const DType dst = op.attrs.get_dtype("DstT", DType::Float32);
           const DType src = op.attrs.get_dtype("SrcT", DType::Float32);
           return !cast_passes_gradient(src, dst);
         });
}

}  // namespace ts

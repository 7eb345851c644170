// Special functions: Erfc, Lgamma, Digamma and Polygamma, with math_grad.py's gradients
// (each the next function of the family). The values are Eigen's, as TF's kernels use.
#include <unsupported/Eigen/SpecialFunctions>

#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {

// A unary special function in the input's precision: float32 through the float version
// (glibc's lgammaf, Eigen's float digamma), as TF's float kernels compute it.
template <class F>
Outputs special_unary(std::string_view op, const Inputs& in, F f) {
  const bool f32 = !in.empty() && in[0]->dtype == DType::Float32;
  return one(unary_float(op, in, TypeSet::Float, [&](double x) {
    return f32 ? static_cast<double>(f(static_cast<float>(x))) : f(x);
  }));
}

}  // namespace

void register_special_ops() {
  add_op("Erfc",
         [](const Inputs& in, const Attrs&) {
           return special_unary("Erfc", in, [](auto x) { return std::erfc(x); });
         },
         [](GradContext& c) -> Grads {
           // TF: g · -2/√π · exp(-x²)
           const TensorId x = c.input(0);
           const TensorId k = c.scalar_like(x, -1.1283791670955126);
           return {c.op("Mul", {c.op("Mul", {c.grad(), k}), c.op("Exp", {c.op("Neg", {c.op("Square", {x})})})})};
         },
         "d erfc(x)/dx = -2/√π · exp(-x²)·g");

  add_op("Lgamma",
         [](const Inputs& in, const Attrs&) {
           return special_unary("Lgamma", in, [](auto x) { return std::lgamma(x); });
         },
         [](GradContext& c) -> Grads { return {c.op("Mul", {c.grad(), c.op("Digamma", {c.input(0)})})}; },
         "d lgamma(x)/dx = digamma(x)·g");

  add_op("Digamma",
         [](const Inputs& in, const Attrs&) {
           return special_unary("Digamma", in, [](auto x) { return Eigen::numext::digamma(x); });
         },
         [](GradContext& c) -> Grads {
           const TensorId x = c.input(0);
           return {c.op("Mul", {c.grad(), c.op("Polygamma", {c.scalar_like(x, 1.0), x})})};
         },
         "d digamma(x)/dx = polygamma(1, x)·g");

  add_op("Polygamma",
         [](const Inputs& in, const Attrs&) {
           const bool f32 = !in.empty() && in[0]->dtype == DType::Float32;
           return one(binary_float("Polygamma", in, [f32](double n, double x) {
             // Eigen's (in the input's precision): NaN unless n is a non-negative integer.
             return f32 ? static_cast<double>(Eigen::numext::polygamma(static_cast<float>(n), static_cast<float>(x)))
                        : Eigen::numext::polygamma(n, x);
           }));
         },
         [](GradContext& c) -> Grads {
           // TF's _PolygammaGrad: none for n; polygamma(n + 1, x)·g for x.
           const TensorId n = c.input(0), x = c.input(1);
           const TensorId next = c.op("Polygamma", {c.op("AddV2", {n, c.scalar_like(n, 1.0)}), x});
           return {kNoId, unbroadcast(c, c.op("Mul", {next, c.grad()}), x)};
         },
         "d polygamma(n, x)/dx = polygamma(n + 1, x)·g (n: none)",
         [](const OpInfo&, size_t input) { return input == 0; });
}

}  // namespace ts

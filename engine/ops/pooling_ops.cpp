// 2-D pooling in NHWC (tf.nn.max_pool2d / avg_pool2d, Keras MaxPooling2D,
// AveragePooling2D): MaxPool, AvgPool and the ops their gradients are made of, with
// nn_grad.py's gradients. Attrs: "ksize", "strides" (4 ints), "padding".
//
// MaxPool routes a window's gradient to its first maximum (rows, then columns), as TF's
// CPU kernel; SAME padding never wins. AvgPool divides by the window's elements inside
// the input (padding not counted). AvgPoolGrad(grad) has attr "orig_input_shape".
#include <limits>

#include "conv_geometry.h"
#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {

// Calls f(output index, input index of the window's first maximum) for each window and
// channel; or, for average pooling, f(output index, input index, 1/count) per element.
template <class F>
void for_each_max(const ConvGeometry& g, const double* x, F f) {
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t oh = 0; oh < g.out_h; ++oh)
      for (int64_t ow = 0; ow < g.out_w; ++ow)
        for (int64_t c = 0; c < g.in_c; ++c) {
          int64_t best = -1;
          double best_v = -std::numeric_limits<double>::infinity();
          // The window clipped to the input (a huge ksize costs nothing extra).
          const int64_t h0 = std::max<int64_t>(0, oh * g.stride_h - g.pad_top);
          const int64_t h1 = std::min(g.in_h, oh * g.stride_h - g.pad_top + g.k_h);
          const int64_t w0 = std::max<int64_t>(0, ow * g.stride_w - g.pad_left);
          const int64_t w1 = std::min(g.in_w, ow * g.stride_w - g.pad_left + g.k_w);
          for (int64_t ih = h0; ih < h1; ++ih) {
            for (int64_t iw = w0; iw < w1; ++iw) {
              const int64_t i = ((n * g.in_h + ih) * g.in_w + iw) * g.in_c + c;
              if (best < 0 || x[i] > best_v || std::isnan(x[i])) {
                best = i;
                best_v = x[i];
                if (std::isnan(best_v)) break;
              }
            }
          }
          f(((n * g.out_h + oh) * g.out_w + ow) * g.in_c + c, best);
        }
}

template <class F>
void for_each_avg(const ConvGeometry& g, F f) {
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t oh = 0; oh < g.out_h; ++oh)
      for (int64_t ow = 0; ow < g.out_w; ++ow) {
        const int64_t h0 = std::max<int64_t>(0, oh * g.stride_h - g.pad_top);
        const int64_t h1 = std::min(g.in_h, oh * g.stride_h - g.pad_top + g.k_h);
        const int64_t w0 = std::max<int64_t>(0, ow * g.stride_w - g.pad_left);
        const int64_t w1 = std::min(g.in_w, ow * g.stride_w - g.pad_left + g.k_w);
        const double count = static_cast<double>(std::max<int64_t>(1, (h1 - h0) * (w1 - w0)));
        for (int64_t c = 0; c < g.in_c; ++c) {
          const int64_t o = ((n * g.out_h + oh) * g.out_w + ow) * g.in_c + c;
          for (int64_t ih = h0; ih < h1; ++ih)
            for (int64_t iw = w0; iw < w1; ++iw) f(o, ((n * g.in_h + ih) * g.in_w + iw) * g.in_c + c, 1.0 / count);
        }
      }
}

Shape out_shape(const ConvGeometry& g) { return {g.batch, g.out_h, g.out_w, g.in_c}; }

void check_float(std::string_view op, const Inputs& in) {
  expect_type(op, in[0]->dtype, TypeSet::Float, "input:T -> output:T");
  expect_same_dtype(op, in);
}

// MaxPoolGrad(orig_input, orig_output, grad) and MaxPoolGradGrad: the same inputs, the
// gradient scattered to the maxima (an input-shaped result) or gathered from them.
TensorValue max_pool_grad(std::string_view op, const Inputs& in, const Attrs& a, bool gather) {
  expect_arity(op, in, 3);
  check_float(op, in);
  const ConvGeometry g = pool_geometry(op, in[0]->shape, a);
  const Shape& want = gather ? in[0]->shape : out_shape(g);
  if (in[2]->shape != want)
    invalid_argument(op, "Expected grad shape to be " + shape_list_str(want) + ", but got " + shape_list_str(in[2]->shape));
  const double* grad = in[2]->data.data();
  if (gather) {
    Eigen::ArrayXd out = Eigen::ArrayXd::Zero(num_elements(out_shape(g)));
    for_each_max(g, in[0]->data.data(), [&](int64_t o, int64_t i) {
      if (i >= 0) out[o] = grad[i];
    });
    return make_tensor(in[0]->dtype, out_shape(g), std::move(out));
  }
  Eigen::ArrayXd out = Eigen::ArrayXd::Zero(in[0]->size());
  for_each_max(g, in[0]->data.data(), [&](int64_t o, int64_t i) {
    if (i >= 0) out[i] += grad[o];
  });
  return make_tensor(in[0]->dtype, in[0]->shape, std::move(out));
}

Grads zeros_for_pool_inputs(GradContext& c, TensorId third) {
  const TensorId a = c.input(0), b = c.input(1);
  return {c.op("ZerosLike", {a}), c.op("ZerosLike", {b}), third};
}

}  // namespace

void register_pooling_ops() {
  add_op("MaxPool",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("MaxPool", in, 1);
           // TF_CALL_REAL_NUMBER_TYPES: integers pool too.
           expect_type("MaxPool", in[0]->dtype, TypeSet::Real, "input:T -> output:T");
           const ConvGeometry g = pool_geometry("MaxPool", in[0]->shape, a);
           Eigen::ArrayXd out = Eigen::ArrayXd::Constant(num_elements(out_shape(g)), -std::numeric_limits<double>::infinity());
           const double* x = in[0]->data.data();
           for_each_max(g, x, [&](int64_t o, int64_t i) {
             if (i >= 0) out[o] = x[i];
           });
           return one(make_tensor(in[0]->dtype, out_shape(g), std::move(out)));
         },
         [](GradContext& c) -> Grads { return {c.op("MaxPoolGrad", {c.input(0), c.output(0), c.grad()}, c.attrs())}; },
         "d maxpool(x)/dx = g at each window's maximum, 0 elsewhere");

  add_op("MaxPoolGrad", [](const Inputs& in, const Attrs& a) { return one(max_pool_grad("MaxPoolGrad", in, a, false)); },
         [](GradContext& c) -> Grads {
           return zeros_for_pool_inputs(c, c.op("MaxPoolGradGrad", {c.input(0), c.input(1), c.grad()}, c.attrs()));
         },
         "the gradient of MaxPool scattered to the maxima; its own gradient gathers from them");

  add_op("MaxPoolGradGrad",
         [](const Inputs& in, const Attrs& a) { return one(max_pool_grad("MaxPoolGradGrad", in, a, true)); },
         [](GradContext& c) -> Grads {
           return zeros_for_pool_inputs(c, c.op("MaxPoolGrad", {c.input(0), c.input(1), c.grad()}, c.attrs()));
         },
         "MaxPoolGrad's gradient: gathers the gradient at each window's maximum");

  add_op("AvgPool",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("AvgPool", in, 1);
           check_float("AvgPool", in);
           const ConvGeometry g = pool_geometry("AvgPool", in[0]->shape, a);
           Eigen::ArrayXd out = Eigen::ArrayXd::Zero(num_elements(out_shape(g)));
           const double* x = in[0]->data.data();
           for_each_avg(g, [&](int64_t o, int64_t i, double w) { out[o] += x[i] * w; });
           return one(make_tensor(in[0]->dtype, out_shape(g), std::move(out)));
         },
         [](GradContext& c) -> Grads {
           const Shape& s = c.shape(c.input(0));
           Attrs a = c.attrs();
           a.set("orig_input_shape", std::vector<int64_t>(s.begin(), s.end()));
           return {c.op("AvgPoolGrad", {c.grad()}, a)};
         },
         "d avgpool(x)/dx = g/n spread over each window's n elements");

  add_op("AvgPoolGrad",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("AvgPoolGrad", in, 1);
           check_float("AvgPoolGrad", in);
           const Shape x_shape = a.get_ints("orig_input_shape");
           const ConvGeometry g = pool_geometry("AvgPoolGrad", x_shape, a);
           if (in[0]->shape != out_shape(g))
             invalid_argument("AvgPoolGrad", "Expected grad shape to be " + shape_list_str(out_shape(g)) + ", but got " +
                                                 shape_list_str(in[0]->shape));
           Eigen::ArrayXd out = Eigen::ArrayXd::Zero(num_elements(x_shape));
           const double* grad = in[0]->data.data();
           for_each_avg(g, [&](int64_t o, int64_t i, double w) { out[i] += grad[o] * w; });
           return one(make_tensor(in[0]->dtype, x_shape, std::move(out)));
         },
         [](GradContext& c) -> Grads {
           Attrs a;
           for (const auto& [k, v] : c.attrs().items())
             if (k != "orig_input_shape") a.set(k, v);
           return {c.op("AvgPool", {c.grad()}, a)};
         },
         "AvgPool's gradient; its own gradient is AvgPool of g");
}

}  // namespace ts

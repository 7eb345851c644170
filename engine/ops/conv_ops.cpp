// 2-D convolution in NHWC (tf.nn.conv2d, Keras Conv2D): Conv2D and the two ops its
// gradient is made of, Conv2DBackpropInput and Conv2DBackpropFilter, each with nn_grad.py's
// gradient (the three are each other's gradients, so second derivatives work).
//
// Attrs: "strides" and "dilations" (4 ints, N and C entries 1), "padding" ("SAME" or
// "VALID"). TF's backprop ops take the other side's shape as a first input; here it is an
// attr: Conv2DBackpropInput(filter, out_backprop) has "input_sizes",
// Conv2DBackpropFilter(input, out_backprop) has "filter_sizes".
#include "conv_geometry.h"
#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {

// Calls f(input index, filter index, output index) for every multiply-add of the convolution.
template <class F>
void for_each_tap(const ConvGeometry& g, F f) {
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t oh = 0; oh < g.out_h; ++oh)
      for (int64_t ow = 0; ow < g.out_w; ++ow)
        for (int64_t kh = 0; kh < g.k_h; ++kh) {
          const int64_t ih = oh * g.stride_h - g.pad_top + kh * g.dilation_h;
          if (ih < 0 || ih >= g.in_h) continue;
          for (int64_t kw = 0; kw < g.k_w; ++kw) {
            const int64_t iw = ow * g.stride_w - g.pad_left + kw * g.dilation_w;
            if (iw < 0 || iw >= g.in_w) continue;
            const int64_t in_base = ((n * g.in_h + ih) * g.in_w + iw) * g.in_c;
            const int64_t f_base = (kh * g.k_w + kw) * g.in_c * g.out_c;
            const int64_t out_base = ((n * g.out_h + oh) * g.out_w + ow) * g.out_c;
            for (int64_t ic = 0; ic < g.in_c; ++ic)
              for (int64_t oc = 0; oc < g.out_c; ++oc) f(in_base + ic, f_base + ic * g.out_c + oc, out_base + oc);
          }
        }
}

void check_float_pair(std::string_view op, const Inputs& in) {
  expect_type(op, in[0]->dtype, TypeSet::Float, "input:T, filter:T -> output:T");
  expect_same_dtype(op, in);
}

// The out_backprop's shape must be the forward output's.
void check_out_backprop(std::string_view op, const ConvGeometry& g, const TensorValue& dy) {
  const Shape want{g.batch, g.out_h, g.out_w, g.out_c};
  if (dy.shape != want)
    invalid_argument(op, std::string(op) + ": Size of out_backprop doesn't match computed: actual = " +
                             shape_list_str(dy.shape) + ", computed = " + shape_list_str(want));
}

Attrs with_sizes(const Attrs& conv, const char* key, const Shape& s) {
  Attrs a = conv;
  a.set(key, std::vector<int64_t>(s.begin(), s.end()));
  return a;
}

Attrs without_sizes(const Attrs& a) {
  Attrs out;
  for (const auto& [k, v] : a.items())
    if (k != "input_sizes" && k != "filter_sizes") out.set(k, v);
  return out;
}

}  // namespace

void register_conv_ops() {
  add_op("Conv2D",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("Conv2D", in, 2);
           check_float_pair("Conv2D", in);
           const ConvGeometry g = conv_geometry("Conv2D", in[0]->shape, in[1]->shape, a);
           Eigen::ArrayXd out = Eigen::ArrayXd::Zero(g.batch * g.out_h * g.out_w * g.out_c);
           const double* x = in[0]->data.data();
           const double* w = in[1]->data.data();
           for_each_tap(g, [&](int64_t i, int64_t f, int64_t o) { out[o] += x[i] * w[f]; });
           return one(make_tensor(in[0]->dtype, {g.batch, g.out_h, g.out_w, g.out_c}, std::move(out)));
         },
         [](GradContext& c) -> Grads {
           const TensorId x = c.input(0), w = c.input(1), g = c.grad();
           return {if_needed(c, 0, [&] {
                     return c.op("Conv2DBackpropInput", {w, g}, with_sizes(c.attrs(), "input_sizes", c.shape(x)));
                   }),
                   if_needed(c, 1, [&] {
                     return c.op("Conv2DBackpropFilter", {x, g}, with_sizes(c.attrs(), "filter_sizes", c.shape(w)));
                   })};
         },
         "d conv2d(x, w)/dx = the transposed convolution of g with w; d/dw = the correlation of x with g");

  add_op("Conv2DBackpropInput",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("Conv2DBackpropInput", in, 2);
           check_float_pair("Conv2DBackpropInput", in);
           const Shape x_shape = a.get_ints("input_sizes");
           const ConvGeometry g = conv_geometry("Conv2DBackpropInput", x_shape, in[0]->shape, a);
           check_out_backprop("Conv2DBackpropInput", g, *in[1]);
           Eigen::ArrayXd dx = Eigen::ArrayXd::Zero(num_elements(x_shape));
           const double* w = in[0]->data.data();
           const double* dy = in[1]->data.data();
           for_each_tap(g, [&](int64_t i, int64_t f, int64_t o) { dx[i] += w[f] * dy[o]; });
           return one(make_tensor(in[0]->dtype, x_shape, std::move(dx)));
         },
         [](GradContext& c) -> Grads {
           // nn_grad.py's _Conv2DBackpropInputGrad.
           const TensorId w = c.input(0), dy = c.input(1), g = c.grad();
           const Attrs conv = without_sizes(c.attrs());
           return {if_needed(c, 0, [&] {
                     return c.op("Conv2DBackpropFilter", {g, dy}, with_sizes(conv, "filter_sizes", c.shape(w)));
                   }),
                   if_needed(c, 1, [&] { return c.op("Conv2D", {g, w}, conv); })};
         },
         "the gradient of conv2d with respect to its input, as a function of (w, g)");

  add_op("Conv2DBackpropFilter",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("Conv2DBackpropFilter", in, 2);
           check_float_pair("Conv2DBackpropFilter", in);
           const Shape w_shape = a.get_ints("filter_sizes");
           const ConvGeometry g = conv_geometry("Conv2DBackpropFilter", in[0]->shape, w_shape, a);
           check_out_backprop("Conv2DBackpropFilter", g, *in[1]);
           Eigen::ArrayXd dw = Eigen::ArrayXd::Zero(num_elements(w_shape));
           const double* x = in[0]->data.data();
           const double* dy = in[1]->data.data();
           for_each_tap(g, [&](int64_t i, int64_t f, int64_t o) { dw[f] += x[i] * dy[o]; });
           return one(make_tensor(in[0]->dtype, w_shape, std::move(dw)));
         },
         [](GradContext& c) -> Grads {
           // nn_grad.py's _Conv2DBackpropFilterGrad.
           const TensorId x = c.input(0), dy = c.input(1), g = c.grad();
           const Attrs conv = without_sizes(c.attrs());
           return {if_needed(c, 0, [&] {
                     return c.op("Conv2DBackpropInput", {g, dy}, with_sizes(conv, "input_sizes", c.shape(x)));
                   }),
                   if_needed(c, 1, [&] { return c.op("Conv2D", {x, g}, conv); })};
         },
         "the gradient of conv2d with respect to its filter, as a function of (x, g)");
}

}  // namespace ts

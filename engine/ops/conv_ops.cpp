// 2-D convolution in NHWC (tf.nn.conv2d, Keras Conv2D): Conv2D and the two ops its
// gradient is made of, Conv2DBackpropInput and Conv2DBackpropFilter, each with nn_grad.py's
// gradient (the three are each other's gradients, so second derivatives work); the same
// for the depthwise convolution (tf.nn.depthwise_conv2d): DepthwiseConv2dNative and its
// two backprop ops.
//
// Attrs: "strides" and "dilations" (4 ints, N and C entries 1), "padding" ("SAME" or
// "VALID"). TF's backprop ops take the other side's shape as a first input; here it is an
// attr: Conv2DBackpropInput(filter, out_backprop) has "input_sizes",
// Conv2DBackpropFilter(input, out_backprop) has "filter_sizes" (and the depthwise ones alike).
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
            const int64_t out_base = ((n * g.out_h + oh) * g.out_w + ow) * g.out_c;
            if (g.multiplier > 0) {
              // Depthwise: input channel c feeds only outputs c*M .. c*M + M-1.
              const int64_t f_base = (kh * g.k_w + kw) * g.in_c * g.multiplier;
              for (int64_t ic = 0; ic < g.in_c; ++ic)
                for (int64_t m = 0; m < g.multiplier; ++m)
                  f(in_base + ic, f_base + ic * g.multiplier + m, out_base + ic * g.multiplier + m);
              continue;
            }
            const int64_t f_base = (kh * g.k_w + kw) * g.in_c * g.out_c;
            for (int64_t ic = 0; ic < g.in_c; ++ic)
              for (int64_t oc = 0; oc < g.out_c; ++oc) f(in_base + ic, f_base + ic * g.out_c + oc, out_base + oc);
          }
        }
}

// TF's CPU kernels: floats, and int32 for Conv2D itself.
void check_float_pair(std::string_view op, const Inputs& in) {
  if (!(op == "Conv2D" && in[0]->dtype == DType::Int32))
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

struct ConvFamily {
  std::string conv, input, filter;
  bool depthwise;
};

void register_family(const ConvFamily& fam) {
  const bool dw = fam.depthwise;
  add_op(fam.conv,
         [fam, dw](const Inputs& in, const Attrs& a) {
           expect_arity(fam.conv, in, 2);
           check_float_pair(fam.conv, in);
           const ConvGeometry g = conv_geometry(fam.conv, in[0]->shape, in[1]->shape, a, dw);
           Eigen::ArrayXd out = Eigen::ArrayXd::Zero(g.batch * g.out_h * g.out_w * g.out_c);
           const double* x = in[0]->data.data();
           const double* w = in[1]->data.data();
           for_each_tap(g, [&](int64_t i, int64_t f, int64_t o) { out[o] += x[i] * w[f]; });
           return one(make_tensor(in[0]->dtype, {g.batch, g.out_h, g.out_w, g.out_c}, std::move(out)));
         },
         [fam](GradContext& c) -> Grads {
           const TensorId x = c.input(0), w = c.input(1), g = c.grad();
           return {if_needed(c, 0, [&] { return c.op(fam.input, {w, g}, with_sizes(c.attrs(), "input_sizes", c.shape(x))); }),
                   if_needed(c, 1, [&] { return c.op(fam.filter, {x, g}, with_sizes(c.attrs(), "filter_sizes", c.shape(w))); })};
         },
         dw ? "d depthwise_conv2d(x, w)/dx, /dw: each channel's own convolution, transposed and correlated with g"
            : "d conv2d(x, w)/dx = the transposed convolution of g with w; d/dw = the correlation of x with g");

  add_op(fam.input,
         [fam, dw](const Inputs& in, const Attrs& a) {
           expect_arity(fam.input, in, 2);
           check_float_pair(fam.input, in);
           const Shape x_shape = a.get_ints("input_sizes");
           const ConvGeometry g = conv_geometry(fam.input, x_shape, in[0]->shape, a, dw);
           check_out_backprop(fam.input, g, *in[1]);
           Eigen::ArrayXd dx = Eigen::ArrayXd::Zero(num_elements(x_shape));
           const double* w = in[0]->data.data();
           const double* dy = in[1]->data.data();
           for_each_tap(g, [&](int64_t i, int64_t f, int64_t o) { dx[i] += w[f] * dy[o]; });
           return one(make_tensor(in[0]->dtype, x_shape, std::move(dx)));
         },
         [fam](GradContext& c) -> Grads {
           // nn_grad.py's _Conv2DBackpropInputGrad (_DepthwiseConv2dNativeBackpropInputGrad).
           const TensorId w = c.input(0), dy = c.input(1), g = c.grad();
           const Attrs conv = without_sizes(c.attrs());
           return {if_needed(c, 0, [&] { return c.op(fam.filter, {g, dy}, with_sizes(conv, "filter_sizes", c.shape(w))); }),
                   if_needed(c, 1, [&] { return c.op(fam.conv, {g, w}, conv); })};
         },
         "the gradient of the convolution with respect to its input, as a function of (w, g)");

  add_op(fam.filter,
         [fam, dw](const Inputs& in, const Attrs& a) {
           expect_arity(fam.filter, in, 2);
           check_float_pair(fam.filter, in);
           const Shape w_shape = a.get_ints("filter_sizes");
           const ConvGeometry g = conv_geometry(fam.filter, in[0]->shape, w_shape, a, dw);
           check_out_backprop(fam.filter, g, *in[1]);
           Eigen::ArrayXd dw_values = Eigen::ArrayXd::Zero(num_elements(w_shape));
           const double* x = in[0]->data.data();
           const double* dy = in[1]->data.data();
           for_each_tap(g, [&](int64_t i, int64_t f, int64_t o) { dw_values[f] += x[i] * dy[o]; });
           return one(make_tensor(in[0]->dtype, w_shape, std::move(dw_values)));
         },
         [fam](GradContext& c) -> Grads {
           // nn_grad.py's _Conv2DBackpropFilterGrad (_DepthwiseConv2dNativeBackpropFilterGrad).
           const TensorId x = c.input(0), dy = c.input(1), g = c.grad();
           const Attrs conv = without_sizes(c.attrs());
           return {if_needed(c, 0, [&] { return c.op(fam.input, {g, dy}, with_sizes(conv, "input_sizes", c.shape(x))); }),
                   if_needed(c, 1, [&] { return c.op(fam.conv, {x, g}, conv); })};
         },
         "the gradient of the convolution with respect to its filter, as a function of (x, g)");
}

}  // namespace

void register_conv_ops() {
  register_family({"Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", false});
  register_family({"DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2dNativeBackpropFilter", true});
}

}  // namespace ts

// MirrorPad (tf.pad with mode REFLECT or SYMMETRIC) and MirrorPadGrad, each the other's
// gradient (array_grad.py). Attrs: "paddings" (2 ints per dim), "mode" ("REFLECT",
// "SYMMETRIC"). Checks and messages as mirror_pad_op.cc's.
#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {

struct Mirror {
  Shape small, big;              // unpadded and padded shapes
  std::vector<int64_t> before;   // padding before each dim
  bool reflect = true;
  // The unpadded index of padded position i along dim d.
  int64_t source(size_t d, int64_t i) const {
    const int64_t n = small[d];
    int64_t j = i - before[d];
    if (j < 0) j = reflect ? -j : -j - 1;
    if (j >= n) j = reflect ? 2 * n - 2 - j : 2 * n - 1 - j;
    return j;
  }
};

// `shape` is the input's: unpadded for MirrorPad, padded for MirrorPadGrad.
Mirror plan(std::string_view op, const Shape& shape, const Attrs& attrs, bool grad) {
  Mirror m;
  const std::string mode = attrs.get_string("mode", "REFLECT");
  if (mode != "REFLECT" && mode != "SYMMETRIC")
    invalid_argument(op, "mode must be either REFLECT or SYMMETRIC.");
  m.reflect = mode == "REFLECT";
  const std::vector<int64_t> p = attrs.get_ints("paddings");
  if (p.size() != 2 * shape.size())
    invalid_argument(op, "The first dimension of paddings must be the rank of inputs" +
                             shape_list_str({static_cast<int64_t>(p.size() / 2), 2}) + ", " + shape_list_str(shape));
  for (size_t d = 0; d < shape.size(); ++d) {
    const int64_t before = p[2 * d], after = p[2 * d + 1];
    if (before < 0 || after < 0)
      invalid_argument(op, "paddings must be non-negative: " + std::to_string(before) + " " + std::to_string(after));
    const int64_t n = grad ? shape[d] - before - after : shape[d];
    if (grad && n < 0) invalid_argument(op, "paddings must be no greater than the gradient's dimension size");
    if (m.reflect && (before >= n || after >= n))
      invalid_argument(op, "paddings must be less than the dimension size: " + std::to_string(before) + ", " +
                               std::to_string(after) + " not less than " + std::to_string(n));
    if (!m.reflect && (before > n || after > n))
      invalid_argument(op, "paddings must be no greater than the dimension size: " + std::to_string(before) + ", " +
                               std::to_string(after) + " greater than " + std::to_string(n));
    m.small.push_back(n);
    m.big.push_back(n + before + after);
    m.before.push_back(before);
  }
  check_output_shape(op, m.big);
  return m;
}

// Calls f(padded flat index, unpadded flat index) for every padded element.
template <class F>
void for_each_mirror(const Mirror& m, F f) {
  const int64_t total = num_elements(m.big);
  const std::vector<int64_t> big_strides = strides_of(m.big), small_strides = strides_of(m.small);
  for (int64_t i = 0; i < total; ++i) {
    int64_t rest = i, src = 0;
    for (size_t d = 0; d < m.big.size(); ++d) {
      const int64_t coord = rest / big_strides[d];
      rest %= big_strides[d];
      src += m.source(d, coord) * small_strides[d];
    }
    f(i, src);
  }
}

}  // namespace

void register_mirror_pad_ops() {
  add_op("MirrorPad",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("MirrorPad", in, 1);
           const TensorValue& x = *in[0];
           if (x.dtype == DType::Resource) expect_type("MirrorPad", x.dtype, TypeSet::Any);
           const Mirror m = plan("MirrorPad", x.shape, a, false);
           TensorValue out;
           out.dtype = x.dtype;
           out.shape = m.big;
           if (x.dtype == DType::String) {
             out.strings.resize(static_cast<size_t>(num_elements(m.big)));
             for_each_mirror(m, [&](int64_t o, int64_t s) { out.strings[static_cast<size_t>(o)] = x.strings[static_cast<size_t>(s)]; });
             return one(std::move(out));
           }
           out.data.resize(num_elements(m.big));
           for_each_mirror(m, [&](int64_t o, int64_t s) { out.data[o] = x.data[s]; });
           return one(std::move(out));
         },
         [](GradContext& c) -> Grads { return {c.op("MirrorPadGrad", {c.grad()}, c.attrs())}; },
         "d mirror_pad(x)/dx = g folded back: each padded copy adds to the element it mirrors");

  add_op("MirrorPadGrad",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("MirrorPadGrad", in, 1);
           const TensorValue& g = *in[0];
           expect_type("MirrorPadGrad", g.dtype, TypeSet::Number, "input:T, paddings:Tpaddings -> output:T");
           const Mirror m = plan("MirrorPadGrad", g.shape, a, true);
           Eigen::ArrayXd out = Eigen::ArrayXd::Zero(num_elements(m.small));
           for_each_mirror(m, [&](int64_t o, int64_t s) { out[s] += g.data[o]; });
           return one(make_tensor(g.dtype, m.small, std::move(out)));
         },
         [](GradContext& c) -> Grads { return {c.op("MirrorPad", {c.grad()}, c.attrs())}; },
         "MirrorPad's gradient; its own gradient is MirrorPad of g");
}

}  // namespace ts

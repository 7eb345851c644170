// TopKV2: the k largest entries along the last axis and their indices (tf.math.top_k;
// tf.sort and tf.argsort are built on it, as sort_ops.py does). Attrs: "k" (int),
// "sorted" (bool, default true), "index_type" (int32 or int64). Ties keep the lower index first, as TF's kernel.
#include <algorithm>
#include <numeric>

#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {

Outputs top_k(const Inputs& in, const Attrs& attrs) {
  constexpr std::string_view op = "TopKV2";
  expect_arity(op, in, 1);
  const TensorValue& x = *in[0];
  expect_type(op, x.dtype, TypeSet::Real, "input:T, k:Tk -> values:T, indices:index_type");
  const int64_t k = attrs.get_int("k", 1);
  if (k < 0) invalid_argument(op, "Need k >= 0, got " + std::to_string(k));
  if (x.rank() < 1) invalid_argument(op, "input must be >= 1-D, got shape " + shape_list_str(x.shape));
  const int64_t n = x.shape.back();
  if (n < k)
    invalid_argument(op, "input must have at least k columns. Had " + std::to_string(n) + ", needed " + std::to_string(k));
  const int64_t rows = n == 0 ? 0 : x.size() / n;
  Shape out_shape = x.shape;
  out_shape.back() = k;
  Eigen::ArrayXd values(rows * k), indices(rows * k);
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = x.data.data() + r * n;
    std::iota(order.begin(), order.end(), 0);
    // Larger first; NaN counts as the largest (it compares greater in TF's kernel's
    // total order); equal values keep their order.
    auto greater = [&](int64_t a, int64_t b) {
      const double va = row[a], vb = row[b];
      if (std::isnan(va) || std::isnan(vb)) return std::isnan(va) && !std::isnan(vb);
      return va > vb;
    };
    std::stable_sort(order.begin(), order.end(), greater);
    for (int64_t j = 0; j < k; ++j) {
      values[r * k + j] = row[order[static_cast<size_t>(j)]];
      indices[r * k + j] = static_cast<double>(order[static_cast<size_t>(j)]);
    }
  }
  Outputs out;
  out.push_back(make_tensor(x.dtype, out_shape, std::move(values)));
  const DType index_type = attrs.get_dtype("index_type", DType::Int32);
  out.push_back(make_tensor(index_type == DType::Int64 ? DType::Int64 : DType::Int32, out_shape, std::move(indices)));
  return out;
}

}  // namespace

void register_sort_ops() {
  add_op("TopKV2", [](const Inputs& in, const Attrs& a) { return top_k(in, a); },
         [](GradContext& c) -> Grads {
           // TF's _TopKGrad: the values' gradient scattered (ScatterNd) to the positions the
           // indices name, in the flattened input; the indices get none.
           const TensorId x = c.input(0);
           const Shape& x_shape = c.shape(x);
           const TensorValue& idx = c.value(c.output(1));
           const int64_t n = x_shape.back(), k = idx.shape.back();
           const int64_t rows = k == 0 ? 0 : idx.size() / k;
           Eigen::ArrayXd flat(rows * k);
           for (int64_t r = 0; r < rows; ++r)
             for (int64_t j = 0; j < k; ++j) flat[r * k + j] = idx.data[r * k + j] + static_cast<double>(r * n);
           const TensorId where = c.constant(make_tensor(DType::Int32, {rows * k, 1}, std::move(flat)));
           const TensorId g = reshape(c, c.grad(0), {rows * k});
           const TensorId scattered = c.op("ScatterNd", {where, g}, Attrs{{"shape", Shape{num_elements(x_shape)}}});
           return {reshape(c, scattered, x_shape)};
         },
         "d top_k(x)/dx = g at the positions of the k largest entries, 0 elsewhere");
}

}  // namespace ts

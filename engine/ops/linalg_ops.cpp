// Matrix products: MatMul (rank 2; attrs "transpose_a", "transpose_b") and
// BatchMatMulV2 (rank >= 2 with broadcast batch dims; attrs "adj_x", "adj_y"), each
// with its gradient function beside it (TF's _MatMulGrad / _BatchMatMulV2Grad).
// The products run through Eigen maps over the row-major data: no copies in or out.
#include <cmath>

#include "gemm_avx2.h"
#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {

#include "gemm_f32_body.h"

using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// out (m x n) = op(a) * op(b), a stored ar x ac, b stored br x bc. float32 products
// accumulate in float32, as TF's kernels do: a learner-sized product as oneDNN's FMA
// kernels add it (one fused multiply-add per k, in order), a large one through Eigen's
// float GEMM (its blocking is not TF's, but it rounds like it; AVX2+FMA when the CPU has
// them, as oneDNN picks at run time).
void matmul_into(const double* a, int64_t ar, int64_t ac, bool ta, const double* b, int64_t br, int64_t bc, bool tb,
                 double* out, bool f32) {
  const Eigen::Map<const RowMat> A(a, ar, ac), B(b, br, bc);
  Eigen::Map<RowMat> C(out, ta ? ac : ar, tb ? br : bc);
  const int64_t k_len = ta ? ar : ac;
  if (f32 && C.rows() * C.cols() * k_len <= 4096) {
    for (int64_t i = 0; i < C.rows(); ++i)
      for (int64_t j = 0; j < C.cols(); ++j) {
        float acc = 0;
        for (int64_t k = 0; k < k_len; ++k) {
          const double x = ta ? A(k, i) : A(i, k), y = tb ? B(j, k) : B(k, j);
          acc = std::fma(static_cast<float>(x), static_cast<float>(y), acc);
        }
        C(i, j) = acc;
      }
    return;
  }
  if (f32 && gemm_avx2_available()) {
    gemm_f32_avx2(a, ar, ac, ta, b, br, bc, tb, out);
    return;
  }
  if (f32) {
    gemm_f32_body(a, ar, ac, ta, b, br, bc, tb, out);
    return;
  }
  if (!ta && !tb) C.noalias() = A * B;
  else if (!ta && tb) C.noalias() = A * B.transpose();
  else if (ta && !tb) C.noalias() = A.transpose() * B;
  else C.noalias() = A.transpose() * B.transpose();
}

[[noreturn]] void size_incompatible(std::string_view op, const Shape& a, const Shape& b) {
  invalid_argument(op, "Matrix size-incompatible: In[0]: " + shape_list_str(a) + ", In[1]: " + shape_list_str(b));
}

TensorValue matmul(const Inputs& in, const Attrs& attrs) {
  expect_arity("MatMul", in, 2);
  expect_same_dtype("MatMul", in);
  const TensorValue& a = *in[0];
  const TensorValue& b = *in[1];
  expect_type("MatMul", a.dtype, TypeSet::Number, "a:T, b:T -> product:T");
  for (int i = 0; i < 2; ++i)
    if (in[i]->rank() != 2)
      invalid_argument("MatMul", "In[" + std::to_string(i) + "] is not a matrix. Instead it has shape " +
                                     shape_list_str(in[i]->shape));
  const bool ta = attrs.get_bool("transpose_a"), tb = attrs.get_bool("transpose_b");
  const int64_t m = ta ? a.shape[1] : a.shape[0], k = ta ? a.shape[0] : a.shape[1];
  const int64_t k2 = tb ? b.shape[1] : b.shape[0], n = tb ? b.shape[0] : b.shape[1];
  if (k != k2) size_incompatible("MatMul", a.shape, b.shape);
  check_output_shape("MatMul", {m, n});
  Eigen::ArrayXd out(m * n);
  matmul_into(a.data.data(), a.shape[0], a.shape[1], ta, b.data.data(), b.shape[0], b.shape[1], tb, out.data(),
              a.dtype == DType::Float32);
  if (a.dtype == DType::Float32) return make_tensor_rounded(a.dtype, {m, n}, std::move(out));  // summed in float
  return make_tensor(a.dtype, {m, n}, std::move(out));
}

TensorValue batch_matmul(const Inputs& in, const Attrs& attrs) {
  const char* op = "BatchMatMulV2";
  expect_arity(op, in, 2);
  expect_same_dtype(op, in);
  const TensorValue& a = *in[0];
  const TensorValue& b = *in[1];
  expect_type(op, a.dtype, TypeSet::Number, "x:T, y:T -> output:T");
  for (int i = 0; i < 2; ++i)
    if (in[i]->rank() < 2)
      invalid_argument(op, "In[" + std::to_string(i) + "] ndims must be >= 2: " + std::to_string(in[i]->rank()));
  const bool ta = attrs.get_bool("adj_x"), tb = attrs.get_bool("adj_y");
  const size_t ra = a.shape.size(), rb = b.shape.size();
  const int64_t ar = a.shape[ra - 2], ac = a.shape[ra - 1], br = b.shape[rb - 2], bc = b.shape[rb - 1];
  const int64_t m = ta ? ac : ar, k = ta ? ar : ac, k2 = tb ? bc : br, n = tb ? br : bc;
  const Shape batch_a(a.shape.begin(), a.shape.end() - 2), batch_b(b.shape.begin(), b.shape.end() - 2);
  Shape batch;
  try {
    batch = broadcast_shapes(batch_a, batch_b);
  } catch (const TfError&) {
    invalid_argument(op, "In[0] and In[1] must have compatible batch dimensions: " + shape_list_str(a.shape) +
                             " vs. " + shape_list_str(b.shape));
  }
  if (k != k2) size_incompatible(op, a.shape, b.shape);
  Shape out_shape = batch;
  out_shape.insert(out_shape.end(), {m, n});
  check_output_shape(op, out_shape);
  const Access ia = access_for(batch_a, batch), ib = access_for(batch_b, batch);
  const int64_t nb = num_elements(batch);
  Eigen::ArrayXd out(nb * m * n);
  for (int64_t i = 0; i < nb; ++i)
    matmul_into(a.data.data() + ia(i) * ar * ac, ar, ac, ta, b.data.data() + ib(i) * br * bc, br, bc, tb,
                out.data() + i * m * n, a.dtype == DType::Float32);
  return make_tensor(a.dtype, std::move(out_shape), std::move(out));
}

// The four transpose cases of TF's matmul gradients: grad_a and grad_b as products of
// (g, a, b) with transpose flags. `t1`, `t2` are the op's attr names.
Grads matmul_grad(GradContext& c, const char* type, const char* t1, const char* t2) {
  const TensorId a = c.input(0), b = c.input(1), g = c.grad();
  const bool ta = c.attrs().get_bool(t1), tb = c.attrs().get_bool(t2);
  auto mm = [&](TensorId x, TensorId y, bool tx, bool ty) {
    return c.op(type, {x, y}, Attrs{{t1, tx}, {t2, ty}});
  };
  // Batch dims that were broadcast are summed away (a no-op for MatMul).
  const TensorId ga = if_needed(c, 0, [&] {
    if (!ta) return unbroadcast(c, tb ? mm(g, b, false, false) : mm(g, b, false, true), a);
    return unbroadcast(c, tb ? mm(b, g, true, true) : mm(b, g, false, true), a);
  });
  const TensorId gb = if_needed(c, 1, [&] {
    if (!ta) return unbroadcast(c, tb ? mm(g, a, true, false) : mm(a, g, true, false), b);
    return unbroadcast(c, tb ? mm(g, a, true, true) : mm(a, g, false, false), b);
  });
  return {ga, gb};
}

}  // namespace

void register_linalg_ops() {
  add_op("MatMul",
         [](const Inputs& in, const Attrs& a) { return one(matmul(in, a)); },
         [](GradContext& c) { return matmul_grad(c, "MatMul", "transpose_a", "transpose_b"); },
         "d(a@b)/da = g@bᵀ, d(a@b)/db = aᵀ@g (transposes follow the op's flags)");

  add_op("BatchMatMulV2",
         [](const Inputs& in, const Attrs& a) { return one(batch_matmul(in, a)); },
         [](GradContext& c) { return matmul_grad(c, "BatchMatMulV2", "adj_x", "adj_y"); },
         "d(a@b)/da = g@bᵀ, d(a@b)/db = aᵀ@g per batch, summed over broadcast batch dims");
}

}  // namespace ts

// Functions of (batches of) square matrices and their bands: MatrixDeterminant
// (tf.linalg.det), MatrixInverse (tf.linalg.inv; attr "adjoint") and MatrixBandPart
// (tf.linalg.band_part; attrs "num_lower", "num_upper", -1 = the whole triangle), with
// linalg_grad.py's and array_grad.py's gradients.
#include <Eigen/LU>

#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {

using RowMat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// LinearAlgebraOp's checks: rank >= 2 and (for these ops) square matrices.
int64_t square_size(std::string_view op, const TensorValue& a) {
  if (a.rank() < 2) invalid_argument(op, "Input tensor 0 must have rank >= 2, got " + std::to_string(a.rank()));
  const int64_t n = a.shape[a.shape.size() - 1];
  if (a.shape[a.shape.size() - 2] != n) invalid_argument(op, "Input matrix must be square.");
  return n;
}

int64_t batches(const Shape& s) {
  int64_t b = 1;
  for (size_t i = 0; i + 2 < s.size(); ++i) b *= s[i];
  return b;
}

TensorValue determinant(const Inputs& in) {
  constexpr std::string_view op = "MatrixDeterminant";
  expect_arity(op, in, 1);
  const TensorValue& a = *in[0];
  expect_type(op, a.dtype, TypeSet::Float, "input:T -> output:T");
  const int64_t n = square_size(op, a), b = batches(a.shape);
  Eigen::ArrayXd out(b);
  for (int64_t k = 0; k < b; ++k) {
    const Eigen::Map<const RowMat> m(a.data.data() + k * n * n, n, n);
    out[k] = n == 0 ? 1.0 : m.partialPivLu().determinant();
  }
  return make_tensor(a.dtype, Shape(a.shape.begin(), a.shape.end() - 2), std::move(out));
}

TensorValue inverse(const Inputs& in, const Attrs& attrs) {
  constexpr std::string_view op = "MatrixInverse";
  expect_arity(op, in, 1);
  const TensorValue& a = *in[0];
  expect_type(op, a.dtype, TypeSet::Float, "input:T -> output:T");
  const int64_t n = square_size(op, a), b = batches(a.shape);
  const bool adjoint = attrs.get_bool("adjoint");
  Eigen::ArrayXd out(a.data.size());
  for (int64_t k = 0; k < b && n > 0; ++k) {
    const Eigen::Map<const RowMat> m(a.data.data() + k * n * n, n, n);
    const Eigen::PartialPivLU<RowMat> lu = adjoint ? RowMat(m.transpose()).partialPivLu() : m.partialPivLu();
    // TF guards only against an exact zero pivot (PartialPivLU promises no more).
    if (!(lu.matrixLU().diagonal().cwiseAbs().minCoeff() > 0)) invalid_argument(op, "Input is not invertible.");
    Eigen::Map<RowMat>(out.data() + k * n * n, n, n) = lu.inverse();
  }
  return make_tensor(a.dtype, a.shape, std::move(out));
}

TensorValue band_part(const Inputs& in, const Attrs& attrs) {
  constexpr std::string_view op = "MatrixBandPart";
  expect_arity(op, in, 1);
  const TensorValue& a = *in[0];
  if (a.dtype == DType::String || a.dtype == DType::Resource) expect_type(op, a.dtype, TypeSet::Number);
  if (a.rank() < 2) invalid_argument(op, "input must be at least 2-dim, received shape: " + shape_list_str(a.shape));
  const int64_t rows = a.shape[a.shape.size() - 2], cols = a.shape[a.shape.size() - 1];
  const int64_t lower = attrs.get_int("num_lower", -1), upper = attrs.get_int("num_upper", -1);
  if (lower > rows)
    invalid_argument(op, "num_lower must be negative or less or equal to number of rows (" + std::to_string(rows) +
                             ") got: " + std::to_string(lower));
  if (upper > cols)
    invalid_argument(op, "num_upper must be negative or less or equal to number of columns (" +
                             std::to_string(cols) + ") got: " + std::to_string(upper));
  Eigen::ArrayXd out = a.data;
  const int64_t b = batches(a.shape);
  for (int64_t k = 0; k < b; ++k)
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        if ((lower >= 0 && i - j > lower) || (upper >= 0 && j - i > upper)) out[(k * rows + i) * cols + j] = 0;
  return make_tensor(a.dtype, a.shape, std::move(out));
}

}  // namespace

void register_matrix_ops() {
  add_op("MatrixDeterminant", [](const Inputs& in, const Attrs&) { return one(determinant(in)); },
         [](GradContext& c) -> Grads {
           // TF's _MatrixDeterminantGrad: g·det(a) times the inverse of a's adjoint.
           const TensorId a = c.input(0), det = c.output(0);
           const TensorId a_adj_inv = c.op("MatrixInverse", {a}, Attrs{{"adjoint", true}});
           Shape s = c.shape(det);
           s.push_back(1);
           s.push_back(1);
           const TensorId multipliers = reshape(c, c.op("Mul", {c.grad(), det}), s);
           return {c.op("Mul", {multipliers, a_adj_inv})};
         },
         "d det(A)/dA = g·det(A)·A⁻ᵀ");

  add_op("MatrixInverse", [](const Inputs& in, const Attrs& a) { return one(inverse(in, a)); },
         [](GradContext& c) -> Grads {
           // TF's _MatrixInverseGrad: -A⁻ᵀ·g·A⁻ᵀ (for adjoint: its mirror).
           const TensorId ainv = c.output(0);
           const bool adj = c.attrs().get_bool("adjoint");
           const TensorId inner = c.op("BatchMatMulV2", {c.grad(), ainv}, Attrs{{"adj_x", adj}, {"adj_y", !adj}});
           return {c.op("Neg", {c.op("BatchMatMulV2", {ainv, inner}, Attrs{{"adj_x", !adj}, {"adj_y", false}})})};
         },
         "d inv(A)/dA = -A⁻ᵀ·g·A⁻ᵀ");

  add_op("MatrixBandPart", [](const Inputs& in, const Attrs& a) { return one(band_part(in, a)); },
         [](GradContext& c) -> Grads { return {c.op("MatrixBandPart", {c.grad()}, c.attrs())}; },
         "d band_part(x)/dx = band_part(g): g inside the band, 0 outside");
}

}  // namespace ts

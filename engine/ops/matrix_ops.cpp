// Functions of (batches of) square matrices and their bands: MatrixDeterminant
// (tf.linalg.det), LogMatrixDeterminant (tf.linalg.slogdet), MatrixInverse (tf.linalg.inv; attr "adjoint"), MatrixSolve
// (tf.linalg.solve; "adjoint"), MatrixTriangularSolve (tf.linalg.triangular_solve;
// "lower", "adjoint"), Cholesky (tf.linalg.cholesky) and MatrixBandPart
// (tf.linalg.band_part; attrs "num_lower", "num_upper", -1 = the whole triangle), with
// linalg_grad.py's and array_grad.py's gradients.
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>
#include <utility>

#include <Eigen/Cholesky>
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

// A unary op's batch of square float matrices: the input, the matrices' size and count.
struct Square {
  const TensorValue& a;
  int64_t n, b;
};
Square square_input(std::string_view op, const Inputs& in) {
  expect_arity(op, in, 1);
  const TensorValue& a = *in[0];
  expect_type(op, a.dtype, TypeSet::Float, "input:T -> output:T");
  return {a, square_size(op, a), batches(a.shape)};
}

// determinant_op.cc's SLogDet, in the matrix's own precision (a float32 determinant is
// sign · exp(log |det|) computed in float, so det([[5, 0], [0, 7]]) prints 34.999996).
template <class Scalar>
std::pair<double, double> slogdet_of(const double* data, int64_t n) {
  using Mat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  Scalar sign = 1, log_abs = 0;
  if (n > 0) {
    const Mat m = Eigen::Map<const RowMat>(data, n, n).cast<Scalar>();
    const Eigen::PartialPivLU<Mat> lu(m);
    sign = static_cast<Scalar>(lu.permutationP().determinant());
    for (int64_t i = 0; i < n; ++i) {
      const Scalar d = lu.matrixLU()(i, i);
      log_abs += std::log(std::abs(d));
      sign *= d < 0 ? Scalar(-1) : d > 0 ? Scalar(1) : Scalar(0);
    }
  }
  if (!std::isfinite(log_abs)) {
    sign = 0;
    log_abs = log_abs > 0 ? std::numeric_limits<Scalar>::infinity() : -std::numeric_limits<Scalar>::infinity();
  }
  return {static_cast<double>(sign), static_cast<double>(log_abs)};
}

std::pair<double, double> slogdet(const TensorValue& a, int64_t k, int64_t n) {
  const double* data = a.data.data() + k * n * n;
  return a.dtype == DType::Float32 ? slogdet_of<float>(data, n) : slogdet_of<double>(data, n);
}

TensorValue determinant(const Inputs& in) {
  const auto [a, n, b] = square_input("MatrixDeterminant", in);
  Eigen::ArrayXd out(b);
  for (int64_t k = 0; k < b; ++k) {
    const auto [sign, log_abs] = slogdet(a, k, n);
    out[k] = a.dtype == DType::Float32 ? static_cast<double>(static_cast<float>(sign) * std::exp(static_cast<float>(log_abs)))
                                       : sign * std::exp(log_abs);
  }
  return make_tensor(a.dtype, Shape(a.shape.begin(), a.shape.end() - 2), std::move(out));
}

// LogMatrixDeterminant (tf.linalg.slogdet): the determinant's sign and log |det|, from
// the LU's diagonal (no overflow for large matrices).
Outputs log_determinant(const Inputs& in) {
  const auto [a, n, b] = square_input("LogMatrixDeterminant", in);
  Eigen::ArrayXd sign(b), log_abs(b);
  for (int64_t k = 0; k < b; ++k) std::tie(sign[k], log_abs[k]) = slogdet(a, k, n);
  const Shape s(a.shape.begin(), a.shape.end() - 2);
  Outputs out;
  out.push_back(make_tensor(a.dtype, s, std::move(sign)));
  out.push_back(make_tensor(a.dtype, s, std::move(log_abs)));
  return out;
}

TensorValue inverse(const Inputs& in, const Attrs& attrs) {
  constexpr std::string_view op = "MatrixInverse";
  const auto [a, n, b] = square_input(op, in);
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

// MatrixSolve / MatrixTriangularSolve: a [..., n, n] and rhs [..., n, k] with the same
// batch dims; returns the solution of op(a) x = rhs.
TensorValue solve(std::string_view op, const Inputs& in, const Attrs& attrs, bool triangular) {
  expect_arity(op, in, 2);
  const TensorValue& a = *in[0];
  const TensorValue& rhs = *in[1];
  expect_type(op, a.dtype, TypeSet::Float, "matrix:T, rhs:T -> output:T");
  expect_same_dtype(op, in);
  if (!triangular) {
    // LinearAlgebraOp::AnalyzeInputs, then ValidateSquareSolver.
    if (a.rank() < 2) invalid_argument(op, "Input tensor 0 must have rank >= 2, got " + std::to_string(a.rank()));
    if (rhs.rank() != a.rank()) invalid_argument(op, "All input tensors must have the same rank.");
    if (a.shape[a.shape.size() - 1] != a.shape[a.shape.size() - 2])
      invalid_argument(op, "First input (lhs) must be a square matrix.");
    if (rhs.shape[rhs.shape.size() - 2] != a.shape.back()) invalid_argument(op, "Input matrix and rhs are incompatible.");
  }
  const int64_t n = square_size(op, a);
  if (rhs.rank() < 2) invalid_argument(op, "Input tensor 1 must have rank >= 2, got " + std::to_string(rhs.rank()));
  if (rhs.shape[rhs.shape.size() - 2] != n)
    invalid_argument(op, "Input matrix and right-hand side must have the same number of rows.");
  // MatrixSolve wants equal batch dims; MatrixTriangularSolve broadcasts them (MatMulBCast).
  const Shape a_batch(a.shape.begin(), a.shape.end() - 2), r_batch(rhs.shape.begin(), rhs.shape.end() - 2);
  Shape batch = a_batch;
  if (triangular) {
    try {
      batch = broadcast_shapes(a_batch, r_batch);
    } catch (const TfError&) {
      invalid_argument(op, "In[0] and In[1] must have compatible batch dimensions: " + shape_list_str(a.shape) + " vs. " +
                               shape_list_str(rhs.shape));
    }
  } else if (a_batch != r_batch) {
    invalid_argument(op, "All input tensors must have the same outer dimensions.");
  }
  const int64_t k = rhs.shape.back(), b = num_elements(batch);
  Shape out_shape = batch;
  out_shape.push_back(n);
  out_shape.push_back(k);
  check_output_shape(op, out_shape);
  // Which matrix of each input the i-th output batch reads.
  const std::vector<int64_t> a_of = a_batch == batch ? std::vector<int64_t>{} : broadcast_index_map(a_batch, batch);
  const std::vector<int64_t> r_of = r_batch == batch ? std::vector<int64_t>{} : broadcast_index_map(r_batch, batch);
  const bool adjoint = attrs.get_bool("adjoint"), lower = attrs.get_bool("lower", true);
  Eigen::ArrayXd out(b * n * k);
  for (int64_t i = 0; i < b && n > 0; ++i) {
    const int64_t ai = a_of.empty() ? i : a_of[static_cast<size_t>(i)], ri = r_of.empty() ? i : r_of[static_cast<size_t>(i)];
    const Eigen::Map<const RowMat> m(a.data.data() + ai * n * n, n, n);
    const Eigen::Map<const RowMat> r(rhs.data.data() + ri * n * k, n, k);
    Eigen::Map<RowMat> x(out.data() + i * n * k, n, k);
    if (triangular) {
      // Only the named triangle is read (TF's kernel ignores the other).
      if (lower != adjoint) x = (adjoint ? RowMat(m.transpose()) : RowMat(m)).triangularView<Eigen::Lower>().solve(r);
      else x = (adjoint ? RowMat(m.transpose()) : RowMat(m)).triangularView<Eigen::Upper>().solve(r);
    } else {
      const Eigen::PartialPivLU<RowMat> lu = adjoint ? RowMat(m.transpose()).partialPivLu() : m.partialPivLu();
      if (!(lu.matrixLU().diagonal().cwiseAbs().minCoeff() > 0)) invalid_argument(op, "Input matrix is not invertible.");
      x = lu.solve(r);
    }
  }
  return make_tensor(a.dtype, std::move(out_shape), std::move(out));
}

TensorValue cholesky(const Inputs& in) {
  constexpr std::string_view op = "Cholesky";
  const auto [a, n, b] = square_input(op, in);
  Eigen::ArrayXd out = Eigen::ArrayXd::Zero(a.data.size());
  for (int64_t i = 0; i < b && n > 0; ++i) {
    // Only the lower triangle of the input is read.
    const Eigen::Map<const RowMat> m(a.data.data() + i * n * n, n, n);
    const Eigen::LLT<RowMat> llt(RowMat(m.selfadjointView<Eigen::Lower>()));
    if (llt.info() != Eigen::Success)
      invalid_argument(op, "Cholesky decomposition was not successful. The input might not be valid.");
    Eigen::Map<RowMat>(out.data() + i * n * n, n, n) = llt.matrixL();
  }
  return make_tensor(a.dtype, a.shape, std::move(out));
}

TensorId matmul(GradContext& c, TensorId a, TensorId b, bool adj_a, bool adj_b) {
  return c.op("BatchMatMulV2", {a, b}, Attrs{{"adj_x", adj_a}, {"adj_y", adj_b}});
}

}  // namespace

void register_matrix_ops() {
  add_op("MatrixSolve", [](const Inputs& in, const Attrs& a) { return one(solve("MatrixSolve", in, a, false)); },
         [](GradContext& c) -> Grads {
           // TF's _MatrixSolveGrad.
           const TensorId a = c.input(0), x = c.output(0);
           const bool adj = c.attrs().get_bool("adjoint");
           const TensorId grad_b = c.op("MatrixSolve", {a, c.grad()}, Attrs{{"adjoint", !adj}});
           const TensorId grad_a = c.op("Neg", {adj ? matmul(c, x, grad_b, false, true) : matmul(c, grad_b, x, false, true)});
           return {grad_a, grad_b};
         },
         "d solve(A, b)/db = solve(Aᵀ, g), d/dA = -(d/db)·xᵀ");

  add_op("MatrixTriangularSolve",
         [](const Inputs& in, const Attrs& a) { return one(solve("MatrixTriangularSolve", in, a, true)); },
         [](GradContext& c) -> Grads {
           // TF's _MatrixTriangularSolveGrad: as MatrixSolve's, kept to A's triangle.
           const TensorId a = c.input(0), x = c.output(0);
           const bool adj = c.attrs().get_bool("adjoint"), lower = c.attrs().get_bool("lower", true);
           const TensorId grad_b =
               c.op("MatrixTriangularSolve", {a, c.grad()}, Attrs{{"lower", lower}, {"adjoint", !adj}});
           TensorId grad_a = c.op("Neg", {adj ? matmul(c, x, grad_b, false, true) : matmul(c, grad_b, x, false, true)});
           grad_a = c.op("MatrixBandPart", {grad_a},
                         Attrs{{"num_lower", int64_t{lower ? -1 : 0}}, {"num_upper", int64_t{lower ? 0 : -1}}});
           // Summed over batch dims the op broadcast.
           return {unbroadcast(c, grad_a, a), unbroadcast(c, grad_b, c.input(1))};
         },
         "d trisolve(A, b)/db = trisolve(Aᵀ, g), d/dA = -(d/db)·xᵀ in A's triangle");

  add_op("Cholesky", [](const Inputs& in, const Attrs&) { return one(cholesky(in)); },
         [](GradContext& c) -> Grads {
           // TF's _CholeskyGrad (Murray's formula), from the factor L.
           const TensorId l = c.output(0);
           const Shape& s = c.shape(l);
           const int64_t n = s.back();
           Eigen::ArrayXd eye = Eigen::ArrayXd::Zero(num_elements(s));
           for (int64_t i = 0, b = batches(s); i < b; ++i)
             for (int64_t j = 0; j < n; ++j) eye[(i * n + j) * n + j] = 1;
           const TensorId identity = c.constant(make_tensor(c.dtype(l), s, std::move(eye)));
           const TensorId l_inv = c.op("MatrixTriangularSolve", {l, identity}, Attrs{{"lower", true}, {"adjoint", false}});
           TensorId middle = matmul(c, l, c.grad(), true, false);
           const TensorId half_diag = c.op("Mul", {c.scalar_like(middle, 0.5), c.op("MatrixDiagPartV3", {middle})});
           middle = c.op("MatrixSetDiagV3", {middle, half_diag});
           middle = c.op("MatrixBandPart", {middle}, Attrs{{"num_lower", int64_t{-1}}, {"num_upper", int64_t{0}}});
           TensorId grad_a = matmul(c, matmul(c, l_inv, middle, true, false), l_inv, false, false);
           std::vector<int64_t> adjoint(s.size());  // the last two dims swapped
           std::iota(adjoint.begin(), adjoint.end(), int64_t{0});
           std::swap(adjoint[adjoint.size() - 1], adjoint[adjoint.size() - 2]);
           grad_a = c.op("AddV2", {grad_a, c.op("Transpose", {grad_a}, Attrs{{"perm", adjoint}})});
           return {c.op("Mul", {grad_a, c.scalar_like(grad_a, 0.5)})};
         },
         "d chol(A)/dA: Murray's formula, symmetric (only A's lower triangle is read)");


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

  add_op("LogMatrixDeterminant", [](const Inputs& in, const Attrs&) { return log_determinant(in); },
         [](GradContext& c) -> Grads {
           // TF's _LogMatrixDeterminantGrad: the log |det| output's gradient times A⁻ᵀ (the
           // sign's gradient is ignored).
           const TensorId a = c.input(0);
           const TensorId a_adj_inv = c.op("MatrixInverse", {a}, Attrs{{"adjoint", true}});
           Shape s = c.shape(c.output(1));
           s.push_back(1);
           s.push_back(1);
           return {c.op("Mul", {reshape(c, c.grad(1), s), a_adj_inv})};
         },
         "d log|det A|/dA = g·A⁻ᵀ (the sign has none)");

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

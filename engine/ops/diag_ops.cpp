// Main diagonals of (batches of) matrices: MatrixDiagV3 (tf.linalg.diag),
// MatrixDiagPartV3 (tf.linalg.diag_part, tf.linalg.trace) and MatrixSetDiagV3
// (tf.linalg.set_diag), with array_grad.py's gradients, which are each other.
// Only k = 0 (the main diagonal); the interpreter refuses other k.
//
// Attrs: MatrixDiagV3 "num_rows", "num_cols" (int, -1 = the diagonal's length) and
// "padding_value" (float); MatrixDiagPartV3 "padding_value" (unused for k = 0).
#include <algorithm>

#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {

int64_t batch_count(const Shape& s, size_t inner_dims) {
  int64_t n = 1;
  for (size_t i = 0; i + inner_dims < s.size(); ++i) n *= s[i];
  return n;
}

TensorId diag_part(GradContext& c, TensorId m) { return c.op("MatrixDiagPartV3", {m}); }

// TF registers these kernels for the POD types: numbers and bool, not strings.
void expect_pod(std::string_view op, const TensorValue& t) {
  if (t.dtype == DType::String || t.dtype == DType::Resource)
    throw TfError("NotFoundError", "Could not find device for node: {{node " + std::string(op) + "}} = " +
                                       std::string(op) + "[T=" + dtype_kernel_name(t.dtype) + "] [Op:" + std::string(op) + "]");
}

// A batch of matrices' last two dims and its main diagonal's length and shape, after
// TF's checks (a POD dtype, rank at least 2).
struct Matrices {
  int64_t rows = 0, cols = 0, n = 0;
  Shape diagonal;  // [..., n]
};
Matrices matrices(std::string_view op, const TensorValue& m) {
  expect_pod(op, m);
  if (m.rank() < 2) invalid_argument(op, "input must be at least 2-dim, received shape: " + shape_list_str(m.shape));
  Matrices r;
  r.rows = m.shape[m.shape.size() - 2];
  r.cols = m.shape.back();
  r.n = std::min(r.rows, r.cols);
  r.diagonal.assign(m.shape.begin(), m.shape.end() - 1);
  r.diagonal.back() = r.n;
  return r;
}

}  // namespace

void register_diag_ops() {
  add_op("MatrixDiagV3",
         [](const Inputs& in, const Attrs& attrs) {
           static constexpr std::string_view op = "MatrixDiagV3";
           expect_arity(op, in, 1);
           const TensorValue& d = *in[0];
           expect_pod(op, d);
           if (d.rank() < 1) invalid_argument(op, "diagonal must be at least 1-dim, received shape: " + shape_list_str(d.shape));
           const int64_t n = d.shape.back();
           int64_t rows = attrs.get_int("num_rows", -1), cols = attrs.get_int("num_cols", -1);
           if (rows < 0) rows = n;
           if (cols < 0) cols = n;
           if (rows < n || cols < n || (rows != n && cols != n))
             invalid_argument(op, "The number of rows or columns is not consistent with the specified d_lower, d_upper, "
                                  "and diagonal.");
           Shape out = d.shape;
           out.back() = rows;
           out.push_back(cols);
           check_output_shape(op, out);
           Eigen::ArrayXd r = Eigen::ArrayXd::Constant(num_elements(out), attrs.get_float("padding_value", 0.0));
           const int64_t batches = batch_count(d.shape, 1);
           for (int64_t b = 0; b < batches; ++b)
             for (int64_t i = 0; i < n; ++i) r[b * rows * cols + i * cols + i] = d.data[b * n + i];
           return one(make_tensor(d.dtype, out, std::move(r)));
         },
         [](GradContext& c) -> Grads { return {diag_part(c, c.grad())}; },
         "d diag(v)/dv = the diagonal of g (TF's _MatrixDiagV3Grad)");

  add_op("MatrixDiagPartV3",
         [](const Inputs& in, const Attrs&) {
           static constexpr std::string_view op = "MatrixDiagPartV3";
           expect_arity(op, in, 1);
           const TensorValue& m = *in[0];
           const auto [rows, cols, n, out] = matrices(op, m);
           Eigen::ArrayXd r(num_elements(out));
           const int64_t batches = batch_count(m.shape, 2);
           for (int64_t b = 0; b < batches; ++b)
             for (int64_t i = 0; i < n; ++i) r[b * n + i] = m.data[b * rows * cols + i * cols + i];
           return one(make_tensor(m.dtype, out, std::move(r)));
         },
         [](GradContext& c) -> Grads {
           // _MatrixDiagPartV3Grad: the gradient on the diagonal of a matrix of the input's shape.
           const Shape& s = c.shape(c.input(0));
           return {c.op("MatrixDiagV3", {c.grad()},
                        Attrs{{"num_rows", s[s.size() - 2]}, {"num_cols", s.back()}})};
         },
         "d diag_part(m)/dm = g on the diagonal, 0 elsewhere");

  add_op("MatrixSetDiagV3",
         [](const Inputs& in, const Attrs&) {
           static constexpr std::string_view op = "MatrixSetDiagV3";
           expect_arity(op, in, 2);
           expect_same_dtype(op, in);
           const TensorValue& m = *in[0];
           const TensorValue& d = *in[1];
           const auto [rows, cols, n, want] = matrices(op, m);
           if (d.shape != want)
             invalid_argument(op, "diagonal must have shape " + shape_list_str(want) + ", received shape: " +
                                      shape_list_str(d.shape));
           Eigen::ArrayXd r = m.data;
           const int64_t batches = batch_count(m.shape, 2);
           for (int64_t b = 0; b < batches; ++b)
             for (int64_t i = 0; i < n; ++i) r[b * rows * cols + i * cols + i] = d.data[b * n + i];
           return one(make_tensor(m.dtype, m.shape, std::move(r)));
         },
         [](GradContext& c) -> Grads {
           // _MatrixSetDiagGradV3: the input keeps g off the diagonal; the diagonal takes g's.
           const TensorId g = c.grad();
           return {if_needed(c, 0, [&] { return c.op("MatrixSetDiagV3", {g, c.op("ZerosLike", {c.input(1)})}); }),
                   if_needed(c, 1, [&] { return diag_part(c, g); })};
         },
         "d set_diag(m, v)/dm = g with a zero diagonal, d/dv = the diagonal of g");
}

}  // namespace ts

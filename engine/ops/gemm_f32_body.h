// The float32 product over double storage, compiled twice: in gemm_avx2.cpp (AVX2+FMA,
// Eigen renamed) and in linalg_ops.cpp (baseline x86-64). Include it inside an anonymous
// namespace, after <Eigen/Core>, so each file keeps its own copy.
//
// c (m x n, row-major) = op(a) * op(b): a stored ar x ac, b stored br x bc, as doubles
// holding float32 values; the float copies live in buffers kept between calls.
inline void gemm_f32_body(const double* a, int64_t ar, int64_t ac, bool ta, const double* b, int64_t br, int64_t bc,
                          bool tb, double* c) {
  using M = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using D = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const int64_t m = ta ? ac : ar, n = tb ? br : bc;
  thread_local ScratchFloats scratch_a, scratch_b, scratch_c;
  Eigen::Map<M> A(scratch_a.get(ar * ac), ar, ac), B(scratch_b.get(br * bc), br, bc), C(scratch_c.get(m * n), m, n);
  A = Eigen::Map<const D>(a, ar, ac).cast<float>();
  B = Eigen::Map<const D>(b, br, bc).cast<float>();
  if (!ta && !tb) C.noalias() = A * B;
  else if (!ta && tb) C.noalias() = A * B.transpose();
  else if (ta && !tb) C.noalias() = A.transpose() * B;
  else C.noalias() = A.transpose() * B.transpose();
  Eigen::Map<D>(c, m, n) = C.cast<double>();
}

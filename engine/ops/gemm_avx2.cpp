// Built with -mavx2 -mfma (CMakeLists.txt). Eigen is renamed in this file so its AVX2
// template instantiations stay apart from the baseline ones of every other file: the
// linker would otherwise keep one copy of each and could run AVX2 code on any CPU.
#include "gemm_avx2.h"

#if defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__)
#define Eigen ts_eigen_avx2
// Eigen's GEMM packs its blocks on the stack up to this size, on the heap (fresh pages,
// faulted every call) above it; a training step's blocks are a few hundred KiB. Engine
// runs have a 1 GiB stack (run.cpp).
#define EIGEN_STACK_ALLOCATION_LIMIT (2 << 20)
#include <Eigen/Core>

namespace ts {

namespace {
#include "gemm_f32_body.h"
}  // namespace

bool gemm_avx2_available() {
  static const bool ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return ok;
}

void gemm_f32_avx2(const double* a, int64_t ar, int64_t ac, bool ta, const double* b, int64_t br, int64_t bc,
                   bool tb, double* c) {
  gemm_f32_body(a, ar, ac, ta, b, br, bc, tb, c);  // its conversions run 8 wide here too
}

}  // namespace ts

#else

namespace ts {

bool gemm_avx2_available() { return false; }
void gemm_f32_avx2(const double*, int64_t, int64_t, bool, const double*, int64_t, int64_t, bool, double*) {}

}  // namespace ts

#endif

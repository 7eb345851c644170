// A float32 matrix product built for AVX2+FMA, used when the CPU has them: the rest of
// the engine targets baseline x86-64, whose 4-wide GEMM is half as fast.
#pragma once
#include <cstdint>
#include <memory>

namespace ts {

// A float buffer kept between calls; it only grows. Fresh buffers cost a page fault per
// 4 KiB, which was more than the product itself at a training step's sizes.
class ScratchFloats {
 public:
  float* get(int64_t n) {
    if (n > size_) {
      data_.reset(new float[static_cast<size_t>(n)]);  // uninitialised: every element is written
      size_ = n;
    }
    return data_.get();
  }

 private:
  std::unique_ptr<float[]> data_;
  int64_t size_ = 0;
};

// Whether gemm_f32_avx2 can run here (x86-64 with AVX2 and FMA).
bool gemm_avx2_available();

// c (m x n, row-major) = op(a) * op(b) in float32; a stored ar x ac, b stored br x bc,
// row-major, as doubles holding float32 values; op transposes when ta / tb. The result
// is float32 values as doubles.
void gemm_f32_avx2(const double* a, int64_t ar, int64_t ac, bool ta, const double* b, int64_t br, int64_t bc,
                   bool tb, double* c);

}  // namespace ts

// Floating sums added in the order TF's and NumPy's CPU kernels add them. A sum rounds
// after every addition, so the order decides the last digit a learner sees:
// tf.reduce_sum([1.1, 2.2, 3.3]) is 6.6000004 in TF, not the 6.6 of one exact sum.
#pragma once
#include <Eigen/Core>
#include <vector>

#include "../tensor.h"

namespace ts::kernels {

enum class SumOrder {
  Eigen,  // TF: Eigen's reducers as TF's pip builds run them (AVX: 8 float or 4 double lanes)
  NumPy,  // NumPy's pairwise summation (blocks of 8 accumulators, halves above 128)
};

// The sums of float32 or float64 `x` over the dims marked in `reduced` (row-major; the
// output in row-major order of the kept dims), rounded to the dtype as they are added.
Eigen::ArrayXd ordered_sums(const TensorValue& x, const std::vector<bool>& reduced, SumOrder order);

}  // namespace ts::kernels

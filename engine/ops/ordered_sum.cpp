#include "ordered_sum.h"

#include <algorithm>
#include <array>

namespace ts::kernels {

namespace {

int64_t divup(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Eigen's InnerMostDimReducer (vectorized, tree): above packet·1024 values the range
// splits at a packet boundary near its middle; below, two packet accumulators over
// two-packet steps, one over a last packet, a scalar sum of the tail, and the lanes
// folded in halves (predux: lower half + upper half, down to one).
template <class T>
T eigen_inner(const double* d, int64_t first, int64_t n) {
  constexpr int64_t kPacket = 32 / sizeof(T), kLeaf = 1024;  // AVX: 256-bit packets
  T accum = 0;
  if (n > kPacket * kLeaf) {
    const int64_t split = kPacket * divup(first + divup(n, 2), kPacket);
    const int64_t left = std::min(split - first, n);
    accum += eigen_inner<T>(d, first, left);
    if (left < n) accum += eigen_inner<T>(d, split, n - left);
    return accum;
  }
  const int64_t unroll = (n / (2 * kPacket)) * 2 * kPacket, vectorized = (n / kPacket) * kPacket;
  std::array<T, kPacket> a{}, b{};
  for (int64_t j = 0; j < unroll; j += 2 * kPacket)
    for (int64_t k = 0; k < kPacket; ++k) {
      a[k] += static_cast<T>(d[first + j + k]);
      b[k] += static_cast<T>(d[first + j + kPacket + k]);
    }
  for (int64_t j = unroll; j < vectorized; j += kPacket)
    for (int64_t k = 0; k < kPacket; ++k) a[k] += static_cast<T>(d[first + j + k]);
  for (int64_t k = 0; k < kPacket; ++k) a[k] += b[k];
  for (int64_t j = vectorized; j < n; ++j) accum += static_cast<T>(d[first + j]);
  for (int64_t width = kPacket / 2; width >= 1; width /= 2)
    for (int64_t k = 0; k < width; ++k) a[k] += a[k + width];
  return accum + a[0];
}

// NumPy's pairwise_sum over n values `stride` apart.
template <class T>
T numpy_pairwise(const double* d, int64_t n, int64_t stride) {
  auto at = [&](int64_t i) { return static_cast<T>(d[i * stride]); };
  if (n < 8) {
    T res = 0;
    for (int64_t i = 0; i < n; ++i) res += at(i);
    return res;
  }
  if (n <= 128) {
    std::array<T, 8> r{};
    for (int64_t j = 0; j < 8; ++j) r[j] = at(j);
    int64_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int64_t j = 0; j < 8; ++j) r[j] += at(i + j);
    T res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += at(i);
    return res;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return numpy_pairwise<T>(d, n2, stride) + numpy_pairwise<T>(d + n2 * stride, n - n2, stride);
}

template <class T>
T inner(SumOrder order, const double* d, int64_t first, int64_t n) {
  return order == SumOrder::Eigen ? eigen_inner<T>(d, first, n) : numpy_pairwise<T>(d + first, n, 1);
}

template <class T>
Eigen::ArrayXd sums(const TensorValue& x, const std::vector<bool>& reduced, SumOrder order) {
  // As TF's ReductionHelper: size-1 dims dropped, neighbours of one kind merged.
  std::vector<std::pair<bool, int64_t>> groups;  // (reduced, size)
  int64_t n_out = 1;
  for (size_t i = 0; i < x.shape.size(); ++i) {
    if (!reduced[i]) n_out *= x.shape[i];
    if (x.shape[i] == 1) continue;
    if (!groups.empty() && groups.back().first == reduced[i]) groups.back().second *= x.shape[i];
    else groups.emplace_back(reduced[i], x.shape[i]);
  }
  Eigen::ArrayXd out = Eigen::ArrayXd::Zero(n_out);
  if (x.size() == 0) return out;
  const double* d = x.data.data();
  std::vector<bool> kinds;
  for (const auto& g : groups) kinds.push_back(g.first);
  auto size = [&](size_t i) { return groups[i].second; };

  if (groups.empty() || kinds == std::vector<bool>{false}) {  // nothing summed
    for (int64_t i = 0; i < n_out; ++i) out[i] = static_cast<T>(d[i]);
  } else if (kinds == std::vector<bool>{true}) {  // everything: one inner sum
    out[0] = inner<T>(order, d, 0, size(0));
  } else if (kinds == std::vector<bool>{false, true}) {  // rows of [K, R]
    for (int64_t k = 0; k < size(0); ++k) out[k] = inner<T>(order, d, k * size(1), size(1));
  } else if (kinds == std::vector<bool>{true, false} || kinds == std::vector<bool>{false, true, false}) {
    // Along an outer dim: each output adds its values one at a time, in order.
    const bool three = kinds.size() == 3;
    const int64_t k1s = three ? size(0) : 1, r = three ? size(1) : size(0), k2s = three ? size(2) : size(1);
    for (int64_t k1 = 0; k1 < k1s; ++k1)
      for (int64_t k2 = 0; k2 < k2s; ++k2) {
        T acc = 0;
        for (int64_t i = 0; i < r; ++i) acc += static_cast<T>(d[(k1 * r + i) * k2s + k2]);
        out[k1 * k2s + k2] = acc;
      }
  } else if (kinds == std::vector<bool>{true, false, true}) {
    const int64_t r1 = size(0), k = size(1), r2 = size(2);
    for (int64_t j = 0; j < k; ++j) {
      T acc = 0;
      if (order == SumOrder::Eigen) {  // GenericDimReducer: the last reduced dim outermost
        for (int64_t b = 0; b < r2; ++b)
          for (int64_t a = 0; a < r1; ++a) acc += static_cast<T>(d[(a * k + j) * r2 + b]);
      } else {  // NumPy: each row's pairwise sum added in turn
        for (int64_t a = 0; a < r1; ++a) acc += numpy_pairwise<T>(d + (a * k + j) * r2, r2, 1);
      }
      out[j] = acc;
    }
  } else {
    // TF transposes the reduced dims last and sums each output's block; NumPy's
    // iterator adds in memory order. Both: the values of each output in row-major order.
    std::vector<std::vector<double>> blocks(static_cast<size_t>(n_out));
    std::vector<int64_t> idx(x.shape.size(), 0), out_stride(x.shape.size(), 0);
    for (int64_t s = 1, i = static_cast<int64_t>(x.shape.size()) - 1; i >= 0; --i)
      if (!reduced[static_cast<size_t>(i)]) {
        out_stride[static_cast<size_t>(i)] = s;
        s *= x.shape[static_cast<size_t>(i)];
      }
    for (int64_t e = 0; e < x.size(); ++e) {
      int64_t o = 0;
      for (size_t i = 0; i < idx.size(); ++i) o += idx[i] * out_stride[i];
      blocks[static_cast<size_t>(o)].push_back(d[e]);
      for (size_t i = idx.size(); i-- > 0;) {
        if (++idx[i] < x.shape[i]) break;
        idx[i] = 0;
      }
    }
    for (int64_t o = 0; o < n_out; ++o) {
      const auto& b = blocks[static_cast<size_t>(o)];
      if (order == SumOrder::Eigen) {
        out[o] = eigen_inner<T>(b.data(), 0, static_cast<int64_t>(b.size()));
      } else {
        T acc = 0;
        for (double v : b) acc += static_cast<T>(v);
        out[o] = acc;
      }
    }
  }
  return out;
}

}  // namespace

Eigen::ArrayXd ordered_sums(const TensorValue& x, const std::vector<bool>& reduced, SumOrder order) {
  return x.dtype == DType::Float64 ? sums<double>(x, reduced, order) : sums<float>(x, reduced, order);
}

}  // namespace ts::kernels

// The passes every kernel result goes through (float32 rounding, denormal flush, the
// finite check behind the NaN/Inf alert) on arrays long enough for their vector paths,
// and the memory the values of a long run live in.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "engine.h"

using namespace ts;

namespace {

TensorId array(Engine& e, const Eigen::ArrayXd& a, DType d = DType::Float32) {
  return e.constant(make_tensor(d, {static_cast<int64_t>(a.size())}, a));
}

int alerts(const Engine& e) {
  int n = 0;
  for (const Event& ev : e.log().events) n += ev.kind == EventKind::Alert;
  return n;
}

}  // namespace

TEST_CASE("value passes: float32 results are rounded, denormals flushed at any position, others kept",
          "[value-memory]") {
  Engine e;
  const double fmin = static_cast<double>(std::numeric_limits<float>::min());
  // 37 elements: four full AVX2 vectors and a tail; denormal products in both.
  Eigen::ArrayXd a = Eigen::ArrayXd::LinSpaced(37, 1.0, 37.0) / 3.0;
  a[5] = fmin;
  a[36] = -fmin;
  const TensorId y = e.execute1("Mul", {array(e, a), e.constant(make_scalar(DType::Float32, 0.25))});
  const TensorValue& v = e.value(y);
  for (Eigen::Index i = 0; i < v.data.size(); ++i) {
    if (i == 5 || i == 36) continue;
    CHECK(v.data[i] == static_cast<double>(static_cast<float>(static_cast<float>(a[i]) * 0.25f)));
  }
  CHECK(v.data[5] == 0.0);
  CHECK_FALSE(std::signbit(v.data[5]));
  CHECK(v.data[36] == 0.0);
  CHECK(std::signbit(v.data[36]));  // -denormal flushes to -0
  CHECK(alerts(e) == 0);
}

TEST_CASE("value passes: a non-finite element anywhere in a long result raises the alert", "[value-memory]") {
  for (Eigen::Index at : {Eigen::Index{0}, Eigen::Index{3}, Eigen::Index{4}, Eigen::Index{40}, Eigen::Index{41}}) {
    Engine e;
    Eigen::ArrayXd a = Eigen::ArrayXd::Constant(42, 2.0);
    a[at] = 0.0;
    // log(0) = -inf at one position only.
    e.execute1("Log", {array(e, a, DType::Float64)});
    CHECK(alerts(e) == 1);
  }
  Engine e;
  e.execute1("Log", {array(e, Eigen::ArrayXd::Constant(42, 2.0), DType::Float64)});
  CHECK(alerts(e) == 0);
}

TEST_CASE("value passes: float32 matmul and assign_sub give float32 values", "[value-memory]") {
  Engine e;
  // Large enough for the blocked float GEMM (more than 4096 multiply-adds).
  Eigen::ArrayXd a = Eigen::ArrayXd::LinSpaced(64 * 64, -1.0, 1.0) / 7.0;
  const TensorId m = e.constant(make_tensor(DType::Float32, {64, 64}, a));
  const TensorValue& p = e.value(e.execute1("MatMul", {m, m}));
  for (Eigen::Index i = 0; i < p.data.size(); ++i)
    REQUIRE(p.data[i] == static_cast<double>(static_cast<float>(p.data[i])));
  const TensorId v = e.create_variable(e.constant(make_tensor(DType::Float32, {3}, Eigen::Array3d(1.0, 2.0, 3.0))), "v:0", true);
  e.assign(v, e.constant(make_tensor(DType::Float32, {3}, Eigen::Array3d(0.1, 0.2, 0.3))), "AssignSubVariableOp");
  const TensorValue& nv = e.value(e.log().variable(v)->versions.back());
  CHECK(nv.data[0] == static_cast<double>(1.0f - 0.1f));
  CHECK(nv.data[1] == static_cast<double>(2.0f - 0.2f));
  CHECK(nv.data[2] == static_cast<double>(3.0f - 0.3f));
}

TEST_CASE("value memory: a long run's values keep their contents while pages are mapped ahead of it",
          "[value-memory]") {
  // 400 values of 128 Ki elements (400 MiB as doubles): the heap grows well past what it
  // started with, so the helper maps stretches ahead while values are being written.
  Engine e;
  std::vector<TensorId> ids;
  Eigen::ArrayXd base = Eigen::ArrayXd::LinSpaced(1 << 17, 0.0, 1.0);
  const TensorId b = array(e, base, DType::Float64);
  for (int k = 0; k < 400; ++k)
    ids.push_back(e.execute1("AddV2", {b, e.constant(make_scalar(DType::Float64, k))}));
  for (int k = 0; k < 400; ++k) {
    const TensorValue& v = e.value(ids[static_cast<size_t>(k)]);
    REQUIRE(v.data.size() == base.size());
    REQUIRE((v.data == base + k).all());
  }
}

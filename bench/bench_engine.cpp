// Engine benchmark: (a) a scalar chain of N ops recorded on a tape, then
// differentiated — ns per op forward (recording) and backward; (b) an MLP training
// step, batch 32, 784-128-10, relu, softmax cross-entropy, SGD, float32 — ms per step.
// Prints one JSON line per measurement so bench/run.sh can compare with PyTorch.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "engine.h"
#include "scalar_chain.h"

using namespace ts;
using Clock = std::chrono::steady_clock;

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void chain(int n, int reps) {
  std::vector<double> fwd, bwd;
  for (int r = 0; r < reps; ++r) {
    Engine e;
    TensorId x = e.constant(make_scalar(DType::Float32, 0.5));
    TapeId t = e.create_tape(false, true, "tape");
    auto t0 = Clock::now();
    e.enter_tape(t);
    e.watch(t, x);
    const TensorId y = bench::scalar_chain(e, x, n);
    e.exit_tape(t);
    auto t1 = Clock::now();
    GradientRequest req;
    req.tape = t;
    req.targets = {y};
    req.sources = {{x, "x"}};
    TensorId g = e.gradient(req)[0];
    auto t2 = Clock::now();
    if (g == kNoId) std::fprintf(stderr, "no gradient?\n");
    fwd.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / n);
    bwd.push_back(std::chrono::duration<double, std::nano>(t2 - t1).count() / n);
  }
  std::printf("{\"bench\": \"chain\", \"n\": %d, \"forward_ns_per_op\": %.1f, \"backward_ns_per_op\": %.1f}\n", n,
              median(fwd), median(bwd));
}

TensorValue randn(std::mt19937& rng, Shape s, double scale) {
  std::normal_distribution<double> nd(0.0, scale);
  Eigen::ArrayXd d(num_elements(s));
  for (Eigen::Index i = 0; i < d.size(); ++i) d[i] = nd(rng);
  return make_tensor(DType::Float32, std::move(s), std::move(d));
}

void mlp(int steps) {
  std::mt19937 rng(1);
  Engine e;
  TensorId w1 = e.create_variable(e.constant(randn(rng, {784, 128}, 0.05)), "w1:0", true);
  TensorId b1 = e.create_variable(e.constant(make_filled(DType::Float32, {128}, 0.0)), "b1:0", true);
  TensorId w2 = e.create_variable(e.constant(randn(rng, {128, 10}, 0.05)), "w2:0", true);
  TensorId b2 = e.constant(make_filled(DType::Float32, {10}, 0.0));
  b2 = e.create_variable(b2, "b2:0", true);
  TensorId x = e.constant(randn(rng, {32, 784}, 1.0));
  TensorValue yv = make_filled(DType::Float32, {32, 10}, 0.0);
  for (int i = 0; i < 32; ++i) yv.data[i * 10 + (i % 10)] = 1.0;
  TensorId y = e.constant(yv);
  TensorId lr = e.constant(make_scalar(DType::Float32, 0.01));
  std::vector<double> ms;
  for (int s = 0; s < steps; ++s) {
    auto t0 = Clock::now();
    TapeId t = e.create_tape(false, true, "tape");
    e.enter_tape(t);
    TensorId h = e.execute1("Relu", {e.execute1("Add", {e.execute1("MatMul", {x, w1}), b1})});
    TensorId logits = e.execute1("Add", {e.execute1("MatMul", {h, w2}), b2});
    TensorId p = e.execute1("Softmax", {logits});
    TensorId ll = e.execute1("Mul", {y, e.execute1("Log", {p})});
    TensorId loss = e.execute1("Neg", {e.execute1("Mean", {e.execute1("Sum", {ll}, Attrs{{"axis", std::vector<int64_t>{1}}})})});
    e.exit_tape(t);
    GradientRequest req;
    req.tape = t;
    req.targets = {loss};
    req.sources = {{w1, "w1"}, {b1, "b1"}, {w2, "w2"}, {b2, "b2"}};
    auto g = e.gradient(req);
    const TensorId vars[] = {w1, b1, w2, b2};
    for (int k = 0; k < 4; ++k) e.assign(vars[k], e.execute1("Mul", {g[k], lr}), "AssignSubVariableOp");
    auto t1 = Clock::now();
    if (s > 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  double sum = 0;
  for (double m : ms) sum += m;
  std::printf("{\"bench\": \"mlp\", \"steps\": %d, \"ms_per_step\": %.3f, \"mean_ms_per_step\": %.3f}\n", steps,
              median(ms), sum / static_cast<double>(ms.size()));
}

}  // namespace

// `bench_engine [--quick] [--steps N] [chain|mlp]`: run.sh runs each workload in its own process, so
// the MLP's kept values never land in memory the chain freed (a user's run starts fresh).
int main(int argc, char** argv) {
  bool quick = false, run_chain = false, run_mlp = false;
  int steps = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) steps = std::max(2, std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "chain") == 0) run_chain = true;
    else if (std::strcmp(argv[i], "mlp") == 0) run_mlp = true;
    else {
      std::fprintf(stderr, "usage: bench_engine [--quick] [--steps N] [chain|mlp]\n");
      return 2;
    }
  }
  if (!run_chain && !run_mlp) run_chain = run_mlp = true;
  if (run_chain) {
    chain(10000, quick ? 3 : 7);
    chain(100000, quick ? 1 : 5);
  }
  if (run_mlp) mlp(steps ? steps : quick ? 5 : 30);
  return 0;
}

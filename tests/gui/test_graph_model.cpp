// Graph model tests: nodes, kinds, edges and reasons built from engine runs, and the
// highlight sets (Why-None path with its break; the backward overlay at a cursor).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "engine.h"
#include "model/graph_model.h"
#include "run.h"

using namespace ts;
using namespace ts::gui;

namespace {

TensorId scalar(Engine& e, double v, DType d = DType::Float32) { return e.constant(make_scalar(d, v)); }

// The guide's first example:
//   x = tf.Variable(3.0)
//   with tf.GradientTape() as tape:
//     y = x**2
//   dy_dx = tape.gradient(y, x)   # 6.0
struct XSquared {
  TensorId x = kNoId, y = kNoId, two = kNoId, grad = kNoId;
  TapeId tape = kNoId;
};

XSquared run_x_squared(Engine& e) {
  XSquared s;
  e.statement(1);
  s.x = e.create_variable(scalar(e, 3.0), "Variable:0", true);
  e.bind_name("x", s.x, "ResourceVariable");
  e.statement(2);
  s.tape = e.create_tape(false, true, "tape");
  e.enter_tape(s.tape);
  e.statement(3);
  s.two = scalar(e, 2.0);
  s.y = e.execute1("Pow", {s.x, s.two}, {}, "x**2");
  e.bind_name("y", s.y, "EagerTensor");
  e.exit_tape(s.tape);
  e.statement(4);
  GradientRequest req;
  req.tape = s.tape;
  req.targets = {s.y};
  req.sources = {{s.x, "x"}};
  s.grad = e.gradient(req).at(0);
  return s;
}

// The guide's NumPy example (HOST_COMPUTATION):
//   x = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
//   with tf.GradientTape() as tape:
//     x2 = x**2
//     y = np.mean(x2, axis=0)
//     y = tf.reduce_mean(y, axis=0)
//   tape.gradient(y, x)   # None
struct NumpyMean {
  TensorId x = kNoId, y = kNoId, x2 = kNoId;
  TapeId tape = kNoId;
  TensorId grad = kNoId;
};

NumpyMean run_numpy_mean(Engine& e) {
  NumpyMean s;
  e.statement(1);
  const TensorId init = e.constant(make_tensor(DType::Float32, {2, 2}, Eigen::ArrayXd::LinSpaced(4, 1, 4)));
  s.x = e.create_variable(init, "Variable:0", true);
  e.bind_name("x", s.x, "ResourceVariable");
  e.statement(4);
  s.tape = e.create_tape(false, true, "tape");
  e.enter_tape(s.tape);
  e.statement(5);
  s.x2 = e.execute1("Pow", {s.x, scalar(e, 2.0)}, {}, "x**2");
  e.bind_name("x2", s.x2, "EagerTensor");
  e.statement(8);
  const TensorId host = e.to_host(s.x2, "np.mean");
  Eigen::ArrayXd mean(2);
  mean << 5.0, 10.0;
  const TensorId m = e.host_op("np.mean", {host}, {make_tensor(DType::Float32, {2}, mean)}).at(0);
  e.bind_name("y", m, "ndarray");
  e.statement(12);
  const TensorId c = e.from_host(e.value(m), {m}, "tf.convert_to_tensor");
  s.y = e.execute1("Mean", {c}, Attrs{{"axis", std::vector<int64_t>{0}}}, "tf.reduce_mean");
  e.bind_name("y", s.y, "EagerTensor");
  e.exit_tape(s.tape);
  e.statement(14);
  GradientRequest req;
  req.tape = s.tape;
  req.targets = {s.y};
  req.sources = {{s.x, "x"}};
  s.grad = e.gradient(req).at(0);
  return s;
}

// The first op node of a type.
int find_node(const GraphModel& m, const std::string& type, bool gradient_pass = false) {
  for (int i = 0; i < static_cast<int>(m.nodes.size()); ++i)
    if (m.nodes[i].cls == NodeClass::Op && m.nodes[i].type == type && m.nodes[i].gradient_pass == gradient_pass) return i;
  return -1;
}

int event_index(const EventLog& log, EventKind kind, int64_t op, int from = 0) {
  for (int i = from; i < static_cast<int>(log.events.size()); ++i)
    if (log.events[i].kind == kind && (op == kNoId || log.events[i].op == op)) return i;
  return -1;
}

bool contains(const std::vector<int>& v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace

TEST_CASE("x**2: nodes, kinds and edges", "[graph_model]") {
  Engine e;
  const XSquared s = run_x_squared(e);
  REQUIRE(s.grad != kNoId);
  REQUIRE(e.value(s.grad).scalar() == Approx(6.0));
  const GraphModel m = build_graph_model(e.log());

  const int var = m.node_for(s.x);
  const int pow = m.node_for(s.y);
  const int read = find_node(m, "ReadVariableOp");
  const int two = m.node_for(s.two);
  REQUIRE(var >= 0);
  REQUIRE(pow >= 0);
  REQUIRE(read >= 0);
  REQUIRE(two >= 0);

  CHECK(m.nodes[var].label == "x");
  CHECK(m.nodes[pow].label == "y = x**2");
  CHECK(m.nodes[pow].subtitle == "Pow");
  CHECK(m.nodes[two].label == "2.0");
  CHECK(m.nodes[read].label == "read x");  // the Python name, not "Variable:0"
  CHECK(m.nodes[read].subtitle == "ReadVariableOp");
  CHECK(node_kind(m.nodes[var], s.tape) == NodeKind::TrainableVariable);
  CHECK(node_kind(m.nodes[two], s.tape) == NodeKind::Constant);
  CHECK(node_kind(m.nodes[pow], s.tape) == NodeKind::RecordedOp);
  CHECK(node_kind(m.nodes[read], s.tape) == NodeKind::RecordedOp);
  CHECK(watched_by(m.nodes[var], s.tape));
  // The variable's initial value 3.0 is folded into the variable.
  for (const GraphNode& n : m.nodes) CHECK_FALSE((n.cls == NodeClass::Constant && n.label == "3.0"));

  CHECK(m.find_edge(var, read) >= 0);
  CHECK(m.find_edge(read, pow) >= 0);
  CHECK(m.find_edge(two, pow) >= 0);
  CHECK(m.edges[m.find_edge(read, pow)].kind == EdgeKind::Data);
  CHECK(m.find_edge(pow, read) < 0);

  // Every edge leads from an earlier node to a later one (execution order).
  for (const GraphEdge& g : m.edges) CHECK(g.from < g.to);
  // First appearance follows execution order.
  CHECK(m.nodes[var].first_event < m.nodes[read].first_event);
  CHECK(m.nodes[read].first_event < m.nodes[pow].first_event);

  // The backward pass's ops are there, flagged, as gradient-pass nodes.
  CHECK(m.gradient_pass_nodes > 0);
  for (const GraphNode& n : m.nodes)
    if (n.gradient_pass) CHECK(node_kind(n, s.tape) == NodeKind::GradientOp);

  // Adjacency agrees with the edge list.
  size_t out_total = 0;
  for (int n = 0; n < static_cast<int>(m.nodes.size()); ++n)
    for (int edge : m.out_edges(n)) {
      CHECK(m.edges[edge].from == n);
      ++out_total;
    }
  CHECK(out_total == m.edges.size());
}

TEST_CASE("not-recorded ops carry the reason for the selected tape", "[graph_model]") {
  Engine e;
  e.statement(1);
  const TensorId a = scalar(e, 2.0);
  e.bind_name("a", a, "EagerTensor");
  const TapeId t = e.create_tape(true, true, "tape");
  e.statement(2);
  const TensorId before = e.execute1("Mul", {a, a}, {}, "a*a");  // tape created, not entered
  e.enter_tape(t);
  e.watch(t, a);
  e.statement(3);
  const TensorId rec = e.execute1("Sin", {a}, {}, "tf.sin");
  e.stop_recording_begin(t);
  e.statement(4);
  const TensorId stopped = e.execute1("Cos", {a}, {}, "tf.cos");
  e.stop_recording_end(t);
  e.statement(5);
  const TensorId img = e.constant(make_filled(DType::Float32, {2, 2, 1}, 1.0));
  const TensorId adj = e.execute1("AdjustContrastv2", {img, scalar(e, 2.0)}, {}, "tf.image.adjust_contrast");
  e.exit_tape(t);
  e.statement(6);
  const TensorId after = e.execute1("Exp", {a}, {}, "tf.exp");
  const GraphModel m = build_graph_model(e.log());

  const GraphNode& n_before = m.nodes[m.node_for(before)];
  const GraphNode& n_rec = m.nodes[m.node_for(rec)];
  const GraphNode& n_stopped = m.nodes[m.node_for(stopped)];
  const GraphNode& n_adj = m.nodes[m.node_for(adj)];
  const GraphNode& n_after = m.nodes[m.node_for(after)];
  const GraphNode& n_a = m.nodes[m.node_for(a)];

  CHECK(node_kind(n_a, t) == NodeKind::WatchedTensor);
  CHECK(node_kind(n_rec, t) == NodeKind::RecordedOp);
  CHECK(not_recorded_reason(m, n_rec, t).empty());
  CHECK(node_kind(n_before, t) == NodeKind::NotRecordedOp);
  CHECK(not_recorded_reason(m, n_before, t) == not_recorded_reason_text(NotRecordedReason::TapeNotEntered));
  CHECK(node_kind(n_stopped, t) == NodeKind::NotRecordedOp);
  CHECK(not_recorded_reason(m, n_stopped, t) == not_recorded_reason_text(NotRecordedReason::StopRecording));
  CHECK(node_kind(n_after, t) == NodeKind::NotRecordedOp);
  CHECK(not_recorded_reason(m, n_after, t) == not_recorded_reason_text(NotRecordedReason::TapeExited));
  // AdjustContrastv2 has no gradient registered: its own kind, whatever the tape did.
  CHECK(n_adj.grad_kind == GradKind::NotRegistered);
  CHECK(node_kind(n_adj, t) == NodeKind::NoGradientOp);

  // The tooltip says why, in the engine's words.
  const auto lines = node_tooltip(m, m.node_for(stopped), t);
  bool found = false;
  for (const TooltipLine& l : lines)
    found = found || (l.style == TooltipStyle::Warning &&
                      l.text.find(not_recorded_reason_text(NotRecordedReason::StopRecording)) != std::string::npos);
  CHECK(found);
  CHECK(lines.front().text == "tf.cos");
}

TEST_CASE("np.mean: host ops and host-boundary edges", "[graph_model]") {
  Engine e;
  const NumpyMean s = run_numpy_mean(e);
  CHECK(s.grad == kNoId);
  const GraphModel m = build_graph_model(e.log());
  const int out = find_node(m, "HostOut");
  const int host = find_node(m, "HostCompute");
  const int back = find_node(m, "Const");
  const int mean = m.node_for(s.y);
  REQUIRE(out >= 0);
  REQUIRE(host >= 0);
  REQUIRE(back >= 0);
  REQUIRE(mean >= 0);
  for (int n : {out, host, back}) {
    CAPTURE(m.nodes[n].type);
    CHECK(node_kind(m.nodes[n], s.tape) == NodeKind::HostOp);
    CHECK_FALSE(not_recorded_reason(m, m.nodes[n], s.tape).empty());
  }
  CHECK(m.edges[m.find_edge(m.node_for(s.x2), out)].kind == EdgeKind::Host);
  CHECK(m.edges[m.find_edge(out, host)].kind == EdgeKind::Host);
  CHECK(m.edges[m.find_edge(back, mean)].kind == EdgeKind::Data);
  CHECK(m.nodes[mean].label == "y = tf.reduce_mean");
}

TEST_CASE("HOST_COMPUTATION diagnosis: the path from x to HostOut, broken there", "[graph_model][highlights]") {
  Engine e;
  const NumpyMean s = run_numpy_mean(e);
  const GradientCall& call = e.log().gradient_calls.back();
  REQUIRE(call.results.size() == 1);
  REQUIRE(call.results[0].diagnosis);
  const Diagnosis& d = *call.results[0].diagnosis;
  REQUIRE(d.code == Cause::HostComputation);

  const GraphModel m = build_graph_model(e.log());
  HighlightRequest req;
  req.diagnosis = &d;
  const GraphHighlights hl = compute_highlights(m, req);

  const int var = m.node_for(s.x);
  const int read = find_node(m, "ReadVariableOp");
  const int pow = m.node_for(s.x2);
  const int out = find_node(m, "HostOut");
  REQUIRE(hl.path_nodes.size() >= 4);
  CHECK(hl.path_nodes[0] == var);
  CHECK(hl.path_nodes[1] == read);
  CHECK(hl.path_nodes[2] == pow);
  CHECK(hl.path_nodes[3] == out);
  for (int n : {var, read, pow, out}) CHECK((hl.node_mark(n) & kMarkPath) != 0);
  // Every step of the path is a real edge of the model.
  for (const PathSegment& seg : hl.path) {
    CHECK(seg.edge >= 0);
    CHECK((hl.edge_mark(seg.edge) & kEdgeMarkPath) != 0);
  }
  // The break: HostOut, with the cause code, and the edge into it barred.
  CHECK(hl.break_node == out);
  CHECK((hl.node_mark(out) & kMarkBreak) != 0);
  CHECK(hl.break_label == "HOST_COMPUTATION");
  REQUIRE(hl.break_segment >= 0);
  CHECK(hl.path[hl.break_segment].from == pow);
  CHECK(hl.path[hl.break_segment].to == out);
  CHECK((hl.edge_mark(hl.path[hl.break_segment].edge) & kEdgeMarkBreak) != 0);
  // The view is told to centre on the break.
  CHECK(hl.focus_node == out);
  CHECK(hl.focus_mode == FocusMode::Centre);
  CHECK(hl.focus_key != 0);
}

TEST_CASE("source-rule diagnoses put the break label on the source", "[graph_model][highlights]") {
  Engine e;
  e.statement(1);
  const TensorId x1 = e.create_variable(scalar(e, 3.0), "x1:0", false);
  e.bind_name("x1", x1, "ResourceVariable");
  const TapeId t = e.create_tape(false, true, "tape");
  e.enter_tape(t);
  e.statement(2);
  const TensorId y = e.execute1("Mul", {x1, x1}, {}, "x1*x1");
  e.exit_tape(t);
  GradientRequest req;
  req.tape = t;
  req.targets = {y};
  req.sources = {{x1, "x1"}};
  CHECK(e.gradient(req).at(0) == kNoId);
  const Diagnosis& d = *e.log().gradient_calls.back().results[0].diagnosis;
  CHECK(d.code == Cause::NotTrainable);

  const GraphModel m = build_graph_model(e.log());
  CHECK(node_kind(m.nodes[m.node_for(x1)], t) == NodeKind::NonTrainableVariable);
  HighlightRequest hr;
  hr.diagnosis = &d;
  const GraphHighlights hl = compute_highlights(m, hr);
  CHECK(hl.break_node == m.node_for(x1));
  CHECK(hl.break_label == "NOT_TRAINABLE");
  // x1*x1 feeds Mul twice through one read: one edge.
  const int read = find_node(m, "ReadVariableOp");
  int edges_read_mul = 0;
  for (const GraphEdge& g : m.edges) edges_read_mul += g.from == read && g.to == m.node_for(y);
  CHECK(edges_read_mul == 1);
}

TEST_CASE("backward overlay at a cursor names the running op and the gradients", "[graph_model][highlights]") {
  Engine e;
  const XSquared s = run_x_squared(e);
  const EventLog& log = e.log();
  const GraphModel m = build_graph_model(log);
  const int pow = m.node_for(s.y);
  const int read = find_node(m, "ReadVariableOp");
  const int var = m.node_for(s.x);
  const OpId pow_op = m.nodes[pow].id;
  const OpId read_op = m.nodes[read].id;

  const int start = event_index(log, EventKind::GradientCallStarted, kNoId);
  const int pow_step = event_index(log, EventKind::BackwardStep, pow_op);
  const int read_step = event_index(log, EventKind::BackwardStep, read_op);
  REQUIRE(start >= 0);
  REQUIRE(pow_step > start);
  REQUIRE(read_step > pow_step);  // the backward pass runs from the target back

  SECTION("before the gradient call: no overlay") {
    HighlightRequest req;
    req.cursor = start - 1;
    const GraphHighlights hl = compute_highlights(m, req);
    CHECK(hl.call == kNoId);
    CHECK(hl.running_node == -1);
    CHECK(hl.edge_grads.empty());
    // Nothing of the backward pass has happened yet: its nodes are pending.
    for (const GraphNode& n : m.nodes)
      if (n.gradient_pass) CHECK(hl.pending(n));
    CHECK_FALSE(hl.pending(m.nodes[pow]));
  }
  SECTION("inside Pow's gradient function: Pow runs, nothing has flowed yet") {
    // The first op the gradient function executes comes before Pow's BackwardStep.
    int inner = -1;
    for (int i = start + 1; i < pow_step; ++i)
      if (log.events[i].kind == EventKind::OpExecuted) inner = i;
    REQUIRE(inner > start);
    HighlightRequest req;
    req.cursor = inner;
    const GraphHighlights hl = compute_highlights(m, req);
    CHECK(hl.running_node == pow);
    CHECK_FALSE(hl.running_done);
    CHECK(hl.edge_grads.empty());
    CHECK(hl.tape == s.tape);  // the call's tape when none is selected
  }
  SECTION("on Pow's step: dy/d(read) = 6.0 flows along read -> Pow") {
    HighlightRequest req;
    req.cursor = pow_step;
    const GraphHighlights hl = compute_highlights(m, req);
    CHECK(hl.running_node == pow);
    CHECK(hl.running_done);
    CHECK((hl.node_mark(pow) & kMarkRunning) != 0);
    const int edge = m.find_edge(read, pow);
    const EdgeGradient* eg = hl.edge_gradient(edge);
    REQUIRE(eg);
    CHECK(eg->text == "6.0");
    CHECK(eg->current);
    // The target's own gradient is the seed, 1.0.
    const TensorGradient* tg = hl.node_gradient(pow);
    REQUIRE(tg);
    CHECK(tg->text == "1.0");
    // The variable has received nothing yet.
    CHECK(hl.node_gradient(var) == nullptr);
    CHECK(hl.focus_node == pow);
    CHECK(hl.focus_mode == FocusMode::EnsureVisible);
  }
  SECTION("on the read's step: the variable's gradient is 6.0") {
    HighlightRequest req;
    req.cursor = read_step;
    const GraphHighlights hl = compute_highlights(m, req);
    CHECK(hl.running_node == read);
    CHECK((hl.node_mark(pow) & kMarkStepped) != 0);
    const EdgeGradient* to_var = hl.edge_gradient(m.find_edge(var, read));
    REQUIRE(to_var);
    CHECK(to_var->text == "6.0");
    CHECK(to_var->current);
    const EdgeGradient* earlier = hl.edge_gradient(m.find_edge(read, pow));
    REQUIRE(earlier);
    CHECK_FALSE(earlier->current);
    const TensorGradient* tg = hl.node_gradient(var);
    REQUIRE(tg);
    CHECK(tg->text == "6.0");
    CHECK(tg->value.scalar() == Approx(6.0));
    CHECK(tg->complete);
    CHECK(hl.tensor_gradient(s.x) == tg);
  }
  SECTION("at the end of the log: the call is over") {
    const GraphHighlights hl = compute_highlights(m, HighlightRequest{});
    CHECK(hl.call == kNoId);
    CHECK(hl.running_node == -1);
  }
}

TEST_CASE("gradients that meet sum up: x*x + x", "[graph_model][highlights]") {
  Engine e;
  const TensorId x = e.constant(make_scalar(DType::Float32, 3.0));
  e.bind_name("x", x, "EagerTensor");
  const TapeId t = e.create_tape(false, true, "tape");
  e.enter_tape(t);
  e.watch(t, x);
  const TensorId sq = e.execute1("Mul", {x, x}, {}, "x*x");
  const TensorId y = e.execute1("AddV2", {sq, x}, {}, "x*x + x");
  e.exit_tape(t);
  GradientRequest req;
  req.tape = t;
  req.targets = {y};
  req.sources = {{x, "x"}};
  const TensorId g = e.gradient(req).at(0);
  REQUIRE(g != kNoId);
  CHECK(e.value(g).scalar() == Approx(7.0));
  const GraphModel m = build_graph_model(e.log());
  // Just before the call ends every step has run: x has 1 (from +) and 3 + 3 (from x*x).
  const int end = event_index(e.log(), EventKind::GradientCallEnded, kNoId);
  HighlightRequest hr;
  hr.cursor = end - 1;
  const GraphHighlights hl = compute_highlights(m, hr);
  const TensorGradient* tg = hl.node_gradient(m.node_for(x));
  REQUIRE(tg);
  CHECK(tg->value.scalar() == Approx(7.0));
  // x*x sends two gradients along the single x -> Mul edge.
  const EdgeGradient* eg = hl.edge_gradient(m.find_edge(m.node_for(x), m.node_for(sq)));
  REQUIRE(eg);
  CHECK(eg->grads.size() == 2);
  CHECK(eg->text == "3.0 + 3.0");
}

TEST_CASE("state edges: assign -> later read; control edges from a branch condition", "[graph_model]") {
  Engine e;
  e.statement(1);
  const TensorId x0 = e.create_variable(scalar(e, 3.0), "x0:0", true);
  const TensorId x1 = e.create_variable(scalar(e, 2.0), "x1:0", true);
  e.bind_name("x1", x1, "ResourceVariable");
  const TapeId t = e.create_tape(false, true, "tape");
  e.enter_tape(t);
  e.statement(2);
  e.assign(x1, e.read_variable(x0), "AssignAddVariableOp");
  e.statement(3);
  const TensorId y = e.execute1("Pow", {x1, scalar(e, 2.0)}, {}, "x1**2");
  e.statement(4);
  const TensorId cond = e.execute1("Greater", {y, scalar(e, 0.0)}, {}, "y > 0");
  e.branch_taken(cond, "if", 6, {});
  e.push_control(cond);
  e.statement(5);
  const TensorId z = e.execute1("Neg", {y}, {}, "-y");
  e.pop_control();
  e.exit_tape(t);
  const GraphModel m = build_graph_model(e.log());

  const int assign = find_node(m, "AssignAddVariableOp");
  REQUIRE(assign >= 0);
  CHECK(node_kind(m.nodes[assign], t) == NodeKind::StatefulOp);
  CHECK(m.nodes[assign].label == "x1.assign_add");
  // The read of x1 inside Pow reads the version assign_add wrote.
  int later_read = -1;
  for (int edge : m.out_edges(assign))
    if (m.edges[edge].kind == EdgeKind::State) later_read = m.edges[edge].to;
  REQUIRE(later_read >= 0);
  CHECK(m.nodes[later_read].type == "ReadVariableOp");
  CHECK(m.nodes[later_read].first_event > m.nodes[assign].first_event);
  CHECK(m.nodes[m.node_for(x1)].version_events.size() == 2);
  // After its first assignment a variable's value flows along the version chain: the
  // handle edge to the later read is implied (drawn on demand), the one to the
  // assignment itself is not.
  const int x1_node = m.node_for(x1);
  const int handle_to_read = m.find_edge(x1_node, later_read);
  REQUIRE(handle_to_read >= 0);
  CHECK(m.edges[handle_to_read].implied);
  CHECK_FALSE(m.edges[m.find_edge(x1_node, assign)].implied);
  CHECK_FALSE(m.edges[m.find_edge(assign, later_read)].implied);

  const int c = m.node_for(cond), neg = m.node_for(z);
  const int ce = m.find_edge(c, neg);
  REQUIRE(ce >= 0);
  CHECK(m.edges[ce].kind == EdgeKind::Control);
  CHECK(edge_label(m, ce).empty());
  CHECK(edge_label(m, m.find_edge(m.node_for(y), neg)) == "float32 ()");
}

TEST_CASE("tf.function calls become groups", "[graph_model]") {
  Engine e;
  const TensorId a = scalar(e, 1.5);
  const OpId outer = e.function_call_begin("train_step", {a});
  const TensorId b = e.execute1("Mul", {a, a}, {}, "a*a");
  const OpId inner = e.function_call_begin("loss_fn", {b});
  const TensorId c = e.execute1("Sin", {b}, {}, "tf.sin");
  e.function_call_end(inner, {c});
  e.function_call_end(outer, {c});
  const TensorId d = e.execute1("Cos", {c}, {}, "tf.cos");
  const GraphModel m = build_graph_model(e.log());
  REQUIRE(m.groups.size() == 2);
  CHECK(m.groups[0].name == "train_step");
  CHECK(m.groups[1].name == "loss_fn");
  CHECK(m.groups[1].parent == 0);
  CHECK(m.nodes[m.node_for(b)].group == 0);
  CHECK(m.nodes[m.node_for(c)].group == 1);
  CHECK(m.nodes[m.node_for(d)].group == -1);
  CHECK(contains(m.groups[0].nodes, m.node_for(c)));  // nested members count for the outer box
  CHECK(contains(m.groups[1].nodes, m.node_for(c)));
  CHECK_FALSE(contains(m.groups[1].nodes, m.node_for(b)));
}

TEST_CASE("search matches labels, types and ids, in node order", "[graph_model]") {
  Engine e;
  const XSquared s = run_x_squared(e);
  const GraphModel m = build_graph_model(e.log());
  const auto hits = search_nodes(m, "x**2");
  REQUIRE_FALSE(hits.empty());
  CHECK(hits.front() == m.node_for(s.y));
  CHECK(search_nodes(m, "POW").front() == m.node_for(s.y));
  CHECK(search_nodes(m, "#" + std::to_string(m.nodes[m.node_for(s.y)].id)) == std::vector<int>{m.node_for(s.y)});
  CHECK(search_nodes(m, "").empty());
  CHECK(search_nodes(m, "no such thing").empty());
}

TEST_CASE("value previews are one short line", "[graph_model]") {
  CHECK(value_preview(make_scalar(DType::Float32, 6.0)) == "6.0");
  CHECK(value_preview(make_tensor(DType::Float32, {2}, Eigen::ArrayXd::LinSpaced(2, 2, 6))) == "[2. 6.]");
  CHECK(value_preview(make_tensor(DType::Float32, {2, 2}, Eigen::ArrayXd::LinSpaced(4, 1, 4))) == "[[1. 2.] [3. 4.]]");
  const std::string long_one = value_preview(make_filled(DType::Float32, {100}, 0.5), 20);
  CHECK(long_one.size() == 20);
  CHECK(long_one.substr(17) == "...");
}

TEST_CASE("an empty log gives an empty model", "[graph_model]") {
  EventLog log;
  const GraphModel m = build_graph_model(log);
  CHECK(m.nodes.empty());
  CHECK(m.edges.empty());
  const GraphHighlights hl = compute_highlights(m, HighlightRequest{});
  CHECK(hl.running_node == -1);
  CHECK(default_tape(log) == kNoId);
}

TEST_CASE("the highlight cache recomputes only when asked something new", "[graph_model][highlights]") {
  Engine e;
  const XSquared s = run_x_squared(e);
  const GraphModel m = build_graph_model(e.log());
  HighlightCache cache;
  HighlightRequest req;
  req.cursor = event_index(e.log(), EventKind::BackwardStep, m.nodes[m.node_for(s.y)].id);
  const GraphHighlights* first = &cache.get(m, req);
  CHECK(first->running_node == m.node_for(s.y));
  CHECK(&cache.get(m, req) == first);
  req.cursor = static_cast<int>(e.log().events.size()) - 1;
  CHECK(cache.get(m, req).running_node == -1);
  req.selected_id = s.x;
  CHECK(cache.get(m, req).selected_node == m.node_for(s.x));
  CHECK((cache.get(m, req).node_mark(m.node_for(s.x)) & kMarkSelected) != 0);
}

TEST_CASE("the graph shows the gradient pass from the start when a tape recorded it", "[graph_model]") {
  // Nested tapes: the outer gradient's path runs through the inner pass's ops.
  const RunResult nested = run_script("x = tf.Variable(2.0)\n"
                                      "with tf.GradientTape() as outer:\n"
                                      "  with tf.GradientTape() as inner:\n"
                                      "    y = x * x * x\n"
                                      "  dy_dx = inner.gradient(y, x)\n"
                                      "d2y_dx2 = outer.gradient(dy_dx, x)\n",
                                      "n.py");
  CHECK(gradient_pass_recorded(nested.log()));
  const RunResult plain = run_script("x = tf.Variable(2.0)\n"
                                     "with tf.GradientTape() as t:\n"
                                     "  y = x * x\n"
                                     "g = t.gradient(y, x)\n",
                                     "p.py");
  CHECK_FALSE(gradient_pass_recorded(plain.log()));
}

// Graph model: the op graph of a whole run as plain data, built once from the event
// log, plus the highlight sets that overlay it at a cursor (the Why-None path with its
// break, the backward pass's running op and gradient values). No ImGui here: the graph
// view only draws what this file decides, and tests drive it without a window.
//
// Terminology
//   node   one thing a learner points at: an op (its output tensors folded into it), a
//          variable (its handle; its initial value folded in), or a source tensor (a
//          constant, a host value brought back, a watched tensor).
//   edge   data (a tensor from its producer to a consumer), host (a value crossing
//          into NumPy/Python), state (a variable version or dataset element going
//          through state: assign -> later read, dataset -> iterator), control (a branch
//          condition to an op that ran under it; drawn dotted).
//   kind   how a node is coloured; for ops it depends on the selected tape (recorded
//          by it, or executed but not recorded, and why).
//   group  a tf.function call: a box around the ops traced under it.
//
// Node order is the order of appearance in the log, so every edge from an earlier to
// a later node follows execution order; the layout relies on it.
#pragma once
#include <climits>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "event_log.h"

namespace ts::gui {

enum class NodeClass { Variable, Constant, Op };

// What a learner tells apart at a glance; the legend lists them in this order.
enum class NodeKind {
  TrainableVariable,
  NonTrainableVariable,
  Constant,
  WatchedTensor,
  RecordedOp,     // recorded by the selected tape
  NotRecordedOp,  // executed, not recorded by the selected tape (dashed)
  HostOp,         // the value left TensorFlow: .numpy(), np.*, a constant made from a host value
  StatefulOp,     // assign*, IteratorGetNext
  NoGradientOp,   // no gradient registered: the backward pass raises LookupError there
  GradientOp,     // executed by a gradient call's backward pass (hidden by default)
};
constexpr int kNodeKindCount = 10;
const char* node_kind_name(NodeKind k);  // "trainable variable"

enum class EdgeKind { Data, Host, State, Control };
constexpr int kEdgeKindCount = 4;
const char* edge_kind_name(EdgeKind k);  // "data"

struct GraphNode {
  int64_t id = kNoId;  // op id; variable handle id; tensor id of a source tensor
  NodeClass cls = NodeClass::Op;
  std::string label;     // first line: "y = x**2", "x0", "2.0"
  std::string subtitle;  // second line: "Pow", "Variable float32 ()", "const float32 (2,)"
  std::string type;      // op type; "Variable"; "Const"
  int line = 0;
  int first_event = 0;   // index of the event where it appears (the view fades later ones)
  OpCategory category = OpCategory::Math;  // ops only
  GradKind grad_kind = GradKind::Function; // ops only
  bool trainable = false;                  // variables only
  bool gradient_pass = false;  // executed by a backward pass (op.grad_call, or a seed constant)
  CallId grad_call = kNoId;
  int group = -1;              // innermost tf.function group, -1 for none
  std::vector<TensorId> tensors;  // op outputs, the variable's handle, or the tensor itself
  std::vector<TapeId> recorded_by;
  std::vector<NotRecordedBy> not_recorded;
  std::vector<TapeId> watched_by;  // tapes that watched its tensor (tape.watch or variable access)
  std::vector<TapeId> dropped_by;  // tapes whose tape.reset() dropped its record
  std::vector<int> version_events; // variables: event index of each version (0 = creation)
};

struct GraphEdge {
  int from = -1, to = -1;  // node indices
  EdgeKind kind = EdgeKind::Data;
  TensorId tensor = kNoId; // the tensor carried; for control edges the condition
  int input_index = -1;    // data/host: first input slot of `to` it feeds
  // Implied by a drawn path, so drawn only on demand (hover, selection, a highlight):
  // a variable's handle to an op after the variable's first assignment (the version
  // chain assign -> read carries the value), and a dataset's state edge to every
  // IteratorGetNext after the first. Without this a training loop draws a fan of
  // edges from each variable across the whole graph.
  bool implied = false;
};

struct GraphGroup {
  OpId call = kNoId;       // the tf.function call op id
  std::string name;        // the function's name
  int parent = -1;         // enclosing group
  int first_event = 0;
  std::vector<int> nodes;  // member nodes, nested groups' members included
};

// A change of a tape's state, kept to explain why it did not record an op.
struct TapeMoment {
  TapeId tape = kNoId;
  int event = 0;
  EventKind kind = EventKind::TapeCreated;
};

struct GraphModelOptions {
  // Control uses that ran no op (`result = v0` under `if x > 0`): Engine::extra_edges().
  // They are not in the log; without them the diagnosis path still draws the step.
  const std::vector<std::pair<TensorId, TensorId>>* extra_control_edges = nullptr;
};

struct GraphModel {
  const EventLog* log = nullptr;  // the log it was built from; must outlive the model
  std::vector<GraphNode> nodes;   // in order of appearance
  std::vector<GraphEdge> edges;
  std::vector<GraphGroup> groups;
  std::vector<int> node_of_id;    // tensor/op id -> node index, -1 when not drawn
  std::vector<int> out_offsets, out_list;  // CSR adjacency: edges leaving node n are
  std::vector<int> in_offsets, in_list;    // out_list[out_offsets[n] .. out_offsets[n+1])
  std::vector<TapeMoment> tape_moments;  // created/entered/exited/reset/consumed, in order
  int gradient_pass_nodes = 0;

  int node_for(int64_t id) const {
    return id > 0 && static_cast<size_t>(id) < node_of_id.size() ? node_of_id[static_cast<size_t>(id)] : -1;
  }
  std::span<const int> out_edges(int n) const {
    return {out_list.data() + out_offsets[n], out_list.data() + out_offsets[n + 1]};
  }
  std::span<const int> in_edges(int n) const {
    return {in_list.data() + in_offsets[n], in_list.data() + in_offsets[n + 1]};
  }
  // The edge from -> to (data or host first, then state, then control); -1 if none.
  int find_edge(int from, int to) const;
};

GraphModel build_graph_model(const EventLog& log, const GraphModelOptions& options = {});

// The tape whose view the graph starts with: the tape of the last gradient call,
// else the last tape created, else kNoId.
TapeId default_tape(const EventLog& log);
// Whether a tape recorded ops a backward pass ran (nested tapes, higher-order gradients):
// then those ops are on the outer gradient's path and the graph shows them from the start.
bool gradient_pass_recorded(const EventLog& log);

// Kind and recording state of a node for the selected tape (kNoId: no tape).
NodeKind node_kind(const GraphNode& n, TapeId tape);
bool recorded_by(const GraphNode& n, TapeId tape);
bool watched_by(const GraphNode& n, TapeId tape);
// Why `tape` did not record op node `n` ("" when it did, or when n is not an op).
std::string not_recorded_reason(const GraphModel& m, const GraphNode& n, TapeId tape);

// A short one-line preview of a value: "6.0", "[2. 6.]", "[[1. 2.] [3. 4.]]", cut
// with "..." after max_chars.
std::string value_preview(const TensorValue& v, size_t max_chars = 40);

enum class TooltipStyle { Title, Normal, Dim, Warning, Gradient };
struct TooltipLine {
  TooltipStyle style = TooltipStyle::Normal;
  std::string text;
};
// What hovering a node shows: type, line, how the tape treated it (and why not),
// its values (at the cursor, for variables), its group.
std::vector<TooltipLine> node_tooltip(const GraphModel& m, int node, TapeId tape, int cursor = INT_MAX);
std::vector<TooltipLine> edge_tooltip(const GraphModel& m, int edge);
// The short label of a data edge: "float32 (3, 2)" ("" for control edges).
std::string edge_label(const GraphModel& m, int edge);

// Nodes whose label, subtitle, type or "#id" contains `text` (case-insensitive), in
// node order; empty text matches nothing.
std::vector<int> search_nodes(const GraphModel& m, std::string_view text);

// ---------------------------------------------------------------------------------
// Highlights: what overlays the graph at a cursor.

enum NodeMark : uint8_t {
  kMarkPath = 1,       // on the diagnosis path
  kMarkBreak = 2,      // where the diagnosis path breaks
  kMarkEvidence = 4,   // named in the diagnosis's evidence
  kMarkRunning = 8,    // its gradient function runs at the cursor
  kMarkStepped = 16,   // its gradient function already ran in this call
  kMarkSelected = 32,
};
enum EdgeMark : uint8_t {
  kEdgeMarkPath = 1,
  kEdgeMarkBreak = 2,
  kEdgeMarkGradient = 4,         // carries a gradient backwards (already computed)
  kEdgeMarkGradientCurrent = 8,  // computed by the running step
};

// A step of the diagnosis path between two drawn nodes; edge -1 when the model has
// no edge for it (a control use that ran no op): the view draws a straight link.
struct PathSegment {
  int from = -1, to = -1, edge = -1;
  bool control = false;
};

struct EdgeGradient {
  int edge = -1;
  std::vector<TensorId> grads;  // several when one tensor feeds the op twice (x*x)
  std::string text;             // value preview of each, joined by " + "
  bool current = false;         // computed by the running step
};

struct TensorGradient {
  TensorId tensor = kNoId;
  TensorValue value;   // the sum of what reached it so far
  std::string text;
  bool complete = false;  // its producer's step ran (the sum is final)
};

enum class FocusMode { None, Centre, EnsureVisible };

struct HighlightRequest {
  int cursor = INT_MAX;       // event index; events after it have not happened
  TapeId tape = kNoId;        // the selected tape; kNoId: the call's tape at the cursor, else default_tape
  const Diagnosis* diagnosis = nullptr;  // "Show path" of a None result
  int64_t selected_id = kNoId;
};

struct GraphHighlights {
  TapeId tape = kNoId;
  int cursor = INT_MAX;
  int selected_node = -1;

  // The Why-None path.
  std::vector<int> path_nodes;  // in path order, source first
  std::vector<PathSegment> path;
  int break_node = -1;
  int break_segment = -1;       // index into `path` of the segment marked broken
  std::string break_label;      // cause code: "HOST_COMPUTATION"
  std::string break_message;
  std::vector<int> target_nodes;  // the shown None's call's targets (framed with it)

  // The backward pass at the cursor.
  CallId call = kNoId;
  std::vector<int> call_nodes;  // the ops the call steps through (framed when it starts)
  int running_node = -1;        // the op whose gradient function runs now
  int running_event = -1;       // its BackwardStep event
  bool running_done = false;    // the cursor is on/after that step's event
  std::vector<EdgeGradient> edge_grads;
  std::vector<TensorGradient> tensor_grads;  // sorted by tensor id
  std::vector<std::pair<int, int>> node_grads;  // (node, index into tensor_grads), sorted by node

  // Where the view should look; it acts when focus_key changes.
  int focus_node = -1;
  FocusMode focus_mode = FocusMode::None;
  uint64_t focus_key = 0;

  // Dense per node / per edge lookups (empty when nothing is marked).
  std::vector<uint8_t> node_marks;
  std::vector<uint8_t> edge_marks;
  std::vector<int> edge_grad_of;  // edge -> index into edge_grads, -1

  uint8_t node_mark(int n) const { return static_cast<size_t>(n) < node_marks.size() ? node_marks[n] : 0; }
  uint8_t edge_mark(int e) const { return static_cast<size_t>(e) < edge_marks.size() ? edge_marks[e] : 0; }
  const EdgeGradient* edge_gradient(int e) const {
    return static_cast<size_t>(e) < edge_grad_of.size() && edge_grad_of[e] >= 0 ? &edge_grads[edge_grad_of[e]] : nullptr;
  }
  const TensorGradient* tensor_gradient(TensorId t) const;
  const TensorGradient* node_gradient(int n) const;
  // Not yet happened at the cursor: drawn faded.
  bool pending(const GraphNode& n) const { return n.first_event > cursor; }
};

GraphHighlights compute_highlights(const GraphModel& m, const HighlightRequest& req);

// Recomputes the highlights only when the request or the model changed, so the app
// may ask every frame (a cursor inside a gradient call costs a scan of the log).
class HighlightCache {
 public:
  const GraphHighlights& get(const GraphModel& m, const HighlightRequest& req);
  void invalidate() { valid_ = false; }

 private:
  bool valid_ = false;
  const GraphModel* model_ = nullptr;
  const EventLog* log_ = nullptr;
  size_t nodes_ = 0, events_ = 0;
  HighlightRequest req_;
  GraphHighlights hl_;
};

// The parts, for callers that want one overlay only.
void highlight_diagnosis(GraphHighlights& hl, const GraphModel& m, const Diagnosis& d);
void highlight_backward(GraphHighlights& hl, const GraphModel& m, int cursor);

}  // namespace ts::gui

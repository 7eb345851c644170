// Graph model: building the op graph from the event log, the per-tape node kinds,
// tooltips, search, and the highlight sets (diagnosis path, backward overlay).
//
// [SECTION] names
// [SECTION] building the model
// [SECTION] kinds and reasons
// [SECTION] previews and tooltips
// [SECTION] search
// [SECTION] highlights: diagnosis path
// [SECTION] highlights: backward pass at the cursor
#include "graph_model.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "format.h"

namespace ts::gui {

//-----------------------------------------------------------------------------
// [SECTION] names
//-----------------------------------------------------------------------------

const char* node_kind_name(NodeKind k) {
  switch (k) {
    case NodeKind::TrainableVariable: return "trainable variable";
    case NodeKind::NonTrainableVariable: return "non-trainable variable";
    case NodeKind::Constant: return "constant";
    case NodeKind::WatchedTensor: return "watched tensor";
    case NodeKind::RecordedOp: return "op recorded by the tape";
    case NodeKind::NotRecordedOp: return "op executed, not recorded";
    case NodeKind::HostOp: return "host computation (left TensorFlow)";
    case NodeKind::StatefulOp: return "stateful op (assign, iterator)";
    case NodeKind::NoGradientOp: return "op with no gradient registered";
    case NodeKind::GradientOp: return "gradient-pass op";
  }
  return "?";
}

const char* edge_kind_name(EdgeKind k) {
  switch (k) {
    case EdgeKind::Data: return "data";
    case EdgeKind::Host: return "host boundary";
    case EdgeKind::State: return "state (variable version, dataset)";
    case EdgeKind::Control: return "control (branch condition)";
  }
  return "?";
}

namespace {

bool is_host(OpCategory c) {
  return c == OpCategory::HostCompute || c == OpCategory::HostOut || c == OpCategory::HostIn;
}

std::string tape_name(const EventLog& log, TapeId t) {
  const TapeInfo* ti = log.tape(t);
  if (ti && !ti->name.empty()) return "`" + ti->name + "`";
  return "#" + std::to_string(t);
}

std::string dtype_shape(DType d, const Shape& s) { return std::string(dtype_name(d)) + " " + shape_str(s); }

template <class T>
void push_unique(std::vector<T>& v, const T& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] building the model
//-----------------------------------------------------------------------------

int GraphModel::find_edge(int from, int to) const {
  if (from < 0 || to < 0 || static_cast<size_t>(from) + 1 >= out_offsets.size()) return -1;
  int best = -1, best_rank = 99;
  for (int e : out_edges(from)) {
    if (edges[e].to != to) continue;
    const int rank = static_cast<int>(edges[e].kind);  // Data < Host < State < Control
    if (rank < best_rank) best = e, best_rank = rank;
  }
  return best;
}

namespace {

class ModelBuilder {
 public:
  ModelBuilder(const EventLog& log, const GraphModelOptions& opt) : log_(log), opt_(opt) {}

  GraphModel build() {
    m_.log = &log_;
    const size_t n_ids = log_.index.size();
    m_.node_of_id.assign(n_ids, -1);
    used_.assign(n_ids, 0);
    initial_value_.assign(n_ids, 0);
    first_name_.assign(n_ids, -1);
    find_used_tensors();
    scan_events();
    build_edges();
    mark_implied();
    build_adjacency();
    build_groups();
    build_labels();
    return std::move(m_);
  }

 private:
  bool valid(int64_t id) const { return id > 0 && static_cast<size_t>(id) < used_.size(); }

  // A source tensor gets a node only when something refers to it: an op (input,
  // state or control), a watch, a gradient call. A variable's initial value is folded
  // into the variable's node unless something else uses it.
  void find_used_tensors() {
    for (const VariableInfo& v : log_.variables)
      if (!v.versions.empty() && valid(v.versions[0])) initial_value_[v.versions[0]] = 1;
    auto mark = [&](int64_t t) {
      if (valid(t)) used_[t] = 1;
    };
    for (const OpInfo& op : log_.ops) {
      for (TensorId t : op.inputs) mark(t);
      for (TensorId t : op.control) mark(t);
      for (TensorId t : op.state_inputs)
        if (valid(t) && !initial_value_[t]) mark(t);
    }
    for (const Event& e : log_.events) {
      if (e.kind == EventKind::Watch) mark(e.subject);
      if (e.kind == EventKind::GradientCallStarted) {
        for (int64_t t : e.inputs) mark(t);
        for (int64_t t : e.outputs) mark(t);
      }
    }
    if (opt_.extra_control_edges)
      for (const auto& [c, v] : *opt_.extra_control_edges) mark(c), mark(v);
  }

  int add_node(GraphNode n) {
    const int idx = static_cast<int>(m_.nodes.size());
    for (TensorId t : n.tensors)
      if (valid(t)) m_.node_of_id[t] = idx;
    if (n.cls == NodeClass::Op && valid(n.id)) m_.node_of_id[n.id] = idx;
    if (n.gradient_pass) ++m_.gradient_pass_nodes;
    m_.nodes.push_back(std::move(n));
    return idx;
  }

  int current_group() const { return group_stack_.empty() ? -1 : group_stack_.back(); }

  void add_variable(TensorId handle, int event) {
    const VariableInfo* vi = log_.variable(handle);
    if (!vi || m_.node_for(handle) >= 0) return;
    GraphNode n;
    n.id = handle;
    n.cls = NodeClass::Variable;
    n.type = "Variable";
    n.line = vi->line;
    n.first_event = event;
    n.trainable = vi->trainable;
    n.tensors = {handle};
    n.version_events = {event};
    add_node(std::move(n));
  }

  void add_constant(TensorId t, int event, bool gradient_pass) {
    const TensorInfo* ti = log_.tensor(t);
    if (!ti || m_.node_for(t) >= 0) return;
    GraphNode n;
    n.id = t;
    n.cls = NodeClass::Constant;
    n.type = "Const";
    n.line = ti->line;
    n.first_event = event;
    n.gradient_pass = gradient_pass;
    n.group = current_group();
    n.tensors = {t};
    add_node(std::move(n));
  }

  // A source referred to before its creation event was seen (a trace written by
  // another tool): give it a node now, so it still precedes its consumer.
  void ensure_source(TensorId t, int event, bool gradient_pass) {
    if (!valid(t) || m_.node_for(t) >= 0) return;
    const TensorInfo* ti = log_.tensor(t);
    if (!ti) return;
    if (ti->kind == TensorKind::VariableHandle) add_variable(t, event);
    else if (ti->producer == kNoId && used_[t]) add_constant(t, event, gradient_pass);
  }

  void add_op(const OpInfo& op, int event) {
    if (m_.node_for(op.id) >= 0) return;
    const bool grad = op.grad_call != kNoId;
    for (TensorId t : op.inputs) ensure_source(t, event, grad);
    for (TensorId t : op.state_inputs)
      if (valid(t) && !initial_value_[t]) ensure_source(t, event, grad);
    for (TensorId t : op.control) ensure_source(t, event, grad);
    GraphNode n;
    n.id = op.id;
    n.cls = NodeClass::Op;
    n.type = op.type;
    n.line = op.line;
    n.first_event = event;
    n.category = op.category;
    n.grad_kind = grad_kind_of(op.type);
    n.gradient_pass = grad;
    n.grad_call = op.grad_call;
    n.tensors = op.outputs;
    n.recorded_by = op.recorded_by;
    n.not_recorded = op.not_recorded;
    if (op.function_call != kNoId) {
      auto it = group_of_call_.find(op.function_call);
      n.group = it != group_of_call_.end() ? it->second : current_group();
    }
    const int idx = add_node(std::move(n));
    for (TapeId t : op.recorded_by) live_records_[t].push_back(idx);
  }

  GradKind grad_kind_of(const std::string& type) {
    auto it = grad_kinds_.find(type);
    if (it != grad_kinds_.end()) return it->second;
    const OpDef* def = OpRegistry::instance().find(type);
    const GradKind k = def ? def->grad_kind : GradKind::NotRegistered;
    grad_kinds_.emplace(type, k);
    return k;
  }

  void scan_events() {
    const int n_events = static_cast<int>(log_.events.size());
    for (int i = 0; i < n_events; ++i) {
      const Event& e = log_.events[static_cast<size_t>(i)];
      switch (e.kind) {
        case EventKind::VariableCreated: add_variable(e.subject, i); break;
        case EventKind::TensorCreated: {
          const TensorInfo* ti = log_.tensor(e.subject);
          if (ti && ti->producer == kNoId && ti->kind != TensorKind::VariableHandle && used_[e.subject])
            add_constant(e.subject, i, e.call != kNoId);
          break;
        }
        case EventKind::OpExecuted:
          if (const OpInfo* op = log_.op(e.op)) add_op(*op, i);
          break;
        case EventKind::VariableAssigned: {
          const int n = m_.node_for(e.subject);
          if (n >= 0) m_.nodes[n].version_events.push_back(i);
          break;
        }
        case EventKind::Watch: {
          const int n = m_.node_for(e.subject);
          if (n >= 0) push_unique(m_.nodes[n].watched_by, e.tape);
          break;
        }
        case EventKind::NameBound:
          if (valid(e.subject) && first_name_[e.subject] < 0) first_name_[e.subject] = i;
          break;
        case EventKind::TapeReset: {
          // tape.reset() drops every record so far (diagnosis: "dropped by tape.reset()").
          auto& live = live_records_[e.tape];
          for (int n : live) push_unique(m_.nodes[n].dropped_by, e.tape);
          live.clear();
          m_.tape_moments.push_back({e.tape, i, e.kind});
          break;
        }
        case EventKind::TapeCreated:
        case EventKind::TapeEntered:
        case EventKind::TapeExited:
        case EventKind::TapeConsumed:
          m_.tape_moments.push_back({e.tape, i, e.kind});
          break;
        case EventKind::FunctionCallStarted: {
          GraphGroup g;
          g.call = e.subject;
          g.name = e.name;
          g.parent = current_group();
          g.first_event = i;
          const int gi = static_cast<int>(m_.groups.size());
          m_.groups.push_back(std::move(g));
          group_of_call_[e.subject] = gi;
          group_stack_.push_back(gi);
          break;
        }
        case EventKind::FunctionCallEnded:
          if (!group_stack_.empty() && m_.groups[group_stack_.back()].call == e.subject) group_stack_.pop_back();
          break;
        default: break;
      }
    }
  }

  void add_edge(int from, int to, EdgeKind kind, TensorId t, int input_index) {
    if (from < 0 || to < 0 || from == to) return;
    // Deduplicate among the edges of `to` added so far (x*x feeds Mul twice: one edge).
    for (size_t k = to_edges_begin_; k < m_.edges.size(); ++k) {
      const GraphEdge& g = m_.edges[k];
      if (g.from == from && g.to == to && g.kind == kind && g.tensor == t) return;
    }
    m_.edges.push_back({from, to, kind, t, input_index});
  }

  void build_edges() {
    for (int n = 0; n < static_cast<int>(m_.nodes.size()); ++n) {
      const GraphNode& node = m_.nodes[n];
      to_edges_begin_ = m_.edges.size();
      if (node.cls == NodeClass::Variable) {
        const VariableInfo* vi = log_.variable(node.id);
        if (vi && !vi->versions.empty()) add_edge(m_.node_for(vi->versions[0]), n, EdgeKind::State, vi->versions[0], -1);
        continue;
      }
      if (node.cls != NodeClass::Op) continue;
      const OpInfo& op = *log_.op(node.id);
      const EdgeKind data = is_host(op.category) ? EdgeKind::Host : EdgeKind::Data;
      for (size_t k = 0; k < op.inputs.size(); ++k)
        add_edge(m_.node_for(op.inputs[k]), n, data, op.inputs[k], static_cast<int>(k));
      for (TensorId s : op.state_inputs) {
        const int src = m_.node_for(s);
        if (src < 0) continue;  // a variable's folded initial value: the handle edge shows it
        bool has_data = false;
        for (size_t k = to_edges_begin_; k < m_.edges.size(); ++k)
          if (m_.edges[k].from == src && m_.edges[k].kind != EdgeKind::State) has_data = true;
        if (!has_data) add_edge(src, n, EdgeKind::State, s, -1);
      }
      for (TensorId c : op.control) add_edge(m_.node_for(c), n, EdgeKind::Control, c, -1);
    }
    if (opt_.extra_control_edges) {
      std::unordered_set<uint64_t> seen;
      for (const GraphEdge& g : m_.edges)
        if (g.kind == EdgeKind::Control)
          seen.insert((static_cast<uint64_t>(g.from) << 32) | static_cast<uint32_t>(g.to));
      for (const auto& [c, v] : *opt_.extra_control_edges) {
        const int from = m_.node_for(c), to = m_.node_for(v);
        if (from < 0 || to < 0 || from == to) continue;
        if (!seen.insert((static_cast<uint64_t>(from) << 32) | static_cast<uint32_t>(to)).second) continue;
        m_.edges.push_back({from, to, EdgeKind::Control, c, -1});
      }
    }
  }

  // See GraphEdge::implied.
  void mark_implied() {
    std::map<std::pair<int, std::string>, int> state_users;  // (source node, consumer type) -> count
    for (GraphEdge& g : m_.edges) {
      const GraphNode& from = m_.nodes[g.from];
      const GraphNode& to = m_.nodes[g.to];
      if (from.cls == NodeClass::Variable && g.kind != EdgeKind::State && from.version_events.size() > 1 &&
          to.first_event > from.version_events[1])
        g.implied = true;
      // State from anything but an assignment (whose edges to later reads are the
      // version chain itself): the first consumer of each type shows it.
      const bool version_chain = from.cls == NodeClass::Op && from.category == OpCategory::Stateful &&
                                 from.type.rfind("Assign", 0) == 0;
      if (g.kind == EdgeKind::State && to.cls == NodeClass::Op && !version_chain && state_users[{g.from, to.type}]++ > 0)
        g.implied = true;
    }
  }

  void build_adjacency() {
    const size_t n = m_.nodes.size();
    m_.out_offsets.assign(n + 1, 0);
    m_.in_offsets.assign(n + 1, 0);
    for (const GraphEdge& e : m_.edges) ++m_.out_offsets[e.from + 1], ++m_.in_offsets[e.to + 1];
    for (size_t i = 0; i < n; ++i) {
      m_.out_offsets[i + 1] += m_.out_offsets[i];
      m_.in_offsets[i + 1] += m_.in_offsets[i];
    }
    m_.out_list.assign(m_.edges.size(), 0);
    m_.in_list.assign(m_.edges.size(), 0);
    std::vector<int> out_fill(m_.out_offsets.begin(), m_.out_offsets.end() - 1);
    std::vector<int> in_fill(m_.in_offsets.begin(), m_.in_offsets.end() - 1);
    for (int e = 0; e < static_cast<int>(m_.edges.size()); ++e) {
      m_.out_list[out_fill[m_.edges[e].from]++] = e;
      m_.in_list[in_fill[m_.edges[e].to]++] = e;
    }
  }

  void build_groups() {
    for (int n = 0; n < static_cast<int>(m_.nodes.size()); ++n)
      for (int g = m_.nodes[n].group; g >= 0; g = m_.groups[g].parent) m_.groups[g].nodes.push_back(n);
  }

  std::string bound_name(int64_t id) const {
    if (!valid(id) || first_name_[id] < 0) return {};
    return log_.events[static_cast<size_t>(first_name_[id])].name;
  }

  void build_labels() {
    for (GraphNode& n : m_.nodes) {
      if (n.cls == NodeClass::Variable) {
        const VariableInfo& vi = *log_.variable(n.id);
        const std::string name = bound_name(n.id);
        n.label = !name.empty() ? name : !vi.path.empty() ? vi.path : vi.name;
        n.subtitle = "Variable " + dtype_shape(vi.dtype, vi.shape);
      } else if (n.cls == NodeClass::Constant) {
        const TensorInfo& ti = *log_.tensor(n.id);
        std::string name = bound_name(n.id);
        if (name.empty()) {
          const std::string v = value_preview(*ti.value, 14);
          name = v.size() <= 12 ? v : ti.label;
        }
        n.label = name;
        n.subtitle = "const " + dtype_shape(ti.dtype(), ti.shape());
      } else {
        const OpInfo& op = *log_.op(n.id);
        std::string base = op.label;
        // Variable ops are labelled with the variable's TF name ("x0:0.assign_add");
        // the learner knows it by the Python name it was bound to.
        if (!op.inputs.empty())
          if (const VariableInfo* vi = log_.variable(op.inputs[0])) {
            const std::string py = bound_name(vi->id);
            if (!py.empty() && base.compare(0, vi->name.size(), vi->name) == 0) base = py + base.substr(vi->name.size());
          }
        if (op.type == "ReadVariableOp") base = "read " + base;
        std::string name;
        for (TensorId t : op.outputs)
          if (name.empty()) name = bound_name(t);
        n.label = !name.empty() && name != base ? name + " = " + base : base;
        n.subtitle = op.type;
      }
    }
  }

  const EventLog& log_;
  const GraphModelOptions& opt_;
  GraphModel m_;
  std::vector<uint8_t> used_, initial_value_;
  std::vector<int> first_name_;  // id -> event index of its first NameBound
  std::vector<int> group_stack_;
  std::unordered_map<OpId, int> group_of_call_;
  std::unordered_map<std::string, GradKind> grad_kinds_;
  std::map<TapeId, std::vector<int>> live_records_;  // per tape: recorded op nodes since the last reset
  size_t to_edges_begin_ = 0;
};

}  // namespace

GraphModel build_graph_model(const EventLog& log, const GraphModelOptions& options) {
  return ModelBuilder(log, options).build();
}

//-----------------------------------------------------------------------------
// [SECTION] kinds and reasons
//-----------------------------------------------------------------------------

bool gradient_pass_recorded(const EventLog& log) {
  for (const OpInfo& op : log.ops)
    if (op.grad_call != kNoId && !op.recorded_by.empty()) return true;
  return false;
}

TapeId default_tape(const EventLog& log) {
  if (!log.gradient_calls.empty()) return log.gradient_calls.back().tape;
  if (!log.tapes.empty()) return log.tapes.back().id;
  return kNoId;
}

bool recorded_by(const GraphNode& n, TapeId tape) {
  if (tape == kNoId) return false;
  return std::find(n.recorded_by.begin(), n.recorded_by.end(), tape) != n.recorded_by.end() &&
         std::find(n.dropped_by.begin(), n.dropped_by.end(), tape) == n.dropped_by.end();
}

bool watched_by(const GraphNode& n, TapeId tape) {
  if (tape == kNoId) return !n.watched_by.empty();
  return std::find(n.watched_by.begin(), n.watched_by.end(), tape) != n.watched_by.end();
}

NodeKind node_kind(const GraphNode& n, TapeId tape) {
  switch (n.cls) {
    case NodeClass::Variable: return n.trainable ? NodeKind::TrainableVariable : NodeKind::NonTrainableVariable;
    case NodeClass::Constant:
      if (n.gradient_pass) return NodeKind::GradientOp;
      return watched_by(n, tape) ? NodeKind::WatchedTensor : NodeKind::Constant;
    case NodeClass::Op: break;
  }
  // Precedence: what the op is (pass, host, state, no gradient) before how the tape saw it.
  if (n.gradient_pass) return NodeKind::GradientOp;
  if (is_host(n.category)) return NodeKind::HostOp;
  if (n.category == OpCategory::Stateful) return NodeKind::StatefulOp;
  if (n.grad_kind == GradKind::NotRegistered) return NodeKind::NoGradientOp;
  return recorded_by(n, tape) ? NodeKind::RecordedOp : NodeKind::NotRecordedOp;
}

std::string not_recorded_reason(const GraphModel& m, const GraphNode& n, TapeId tape) {
  if (n.cls != NodeClass::Op || recorded_by(n, tape)) return {};
  if (tape == kNoId)
    return m.log && m.log->tapes.empty() ? "no GradientTape exists in this run" : "no tape is selected";
  for (const auto& [t, r] : n.not_recorded)
    if (t == tape) return not_recorded_reason_text(r);
  if (std::find(n.dropped_by.begin(), n.dropped_by.end(), tape) != n.dropped_by.end())
    return "its record was dropped by tape.reset()";
  if (!n.recorded_by.empty()) return "it was recorded only on another tape (" + tape_name(*m.log, n.recorded_by[0]) + ")";
  // The tape was not active: say where it was in its life when the op ran.
  const TapeMoment* last = nullptr;
  for (const TapeMoment& tm : m.tape_moments) {
    if (tm.event >= n.first_event) break;
    if (tm.tape == tape) last = &tm;
  }
  if (!last) return "it ran before the tape was created";
  if (last->kind == EventKind::TapeCreated) return not_recorded_reason_text(NotRecordedReason::TapeNotEntered);
  if (last->kind == EventKind::TapeConsumed)
    return "it ran after the tape was used by tape.gradient (a non-persistent tape records nothing more)";
  return not_recorded_reason_text(NotRecordedReason::TapeExited);
}

//-----------------------------------------------------------------------------
// [SECTION] previews and tooltips
//-----------------------------------------------------------------------------

std::string value_preview(const TensorValue& v, size_t max_chars) {
  if (v.dtype == DType::Resource) return "<resource>";
  std::string s;
  try {
    s = format_numpy(v);
  } catch (...) {
    return "?";
  }
  // One line: newlines become spaces, runs of spaces collapse.
  std::string out;
  out.reserve(std::min(s.size(), max_chars + 4));
  for (char c : s) {
    if (c == '\n') c = ' ';
    if (c == ' ' && (out.empty() || out.back() == ' ' || out.back() == '[')) continue;
    out.push_back(c);
    if (out.size() > max_chars + 3) break;
  }
  if (out.size() > max_chars) out = out.substr(0, max_chars > 3 ? max_chars - 3 : 0) + "...";
  return out;
}

namespace {

std::string line_part(int line) { return line > 0 ? " · line " + std::to_string(line) : ""; }

const char* grad_kind_text(GradKind k) {
  switch (k) {
    case GradKind::Function: return "has a gradient function";
    case GradKind::NotDifferentiable: return "registered not differentiable: passes no gradient";
    case GradKind::NotRegistered: return "no gradient registered";
  }
  return "";
}

}  // namespace

std::vector<TooltipLine> node_tooltip(const GraphModel& m, int node, TapeId tape, int cursor) {
  std::vector<TooltipLine> out;
  if (node < 0 || node >= static_cast<int>(m.nodes.size()) || !m.log) return out;
  const GraphNode& n = m.nodes[node];
  const EventLog& log = *m.log;
  out.push_back({TooltipStyle::Title, n.label});
  if (n.cls == NodeClass::Variable) {
    const VariableInfo& vi = *log.variable(n.id);
    out.push_back({TooltipStyle::Normal, "tf.Variable '" + vi.name + "'" + (vi.path.empty() ? "" : " (" + vi.path + ")") +
                                             line_part(n.line)});
    out.push_back({TooltipStyle::Normal, dtype_shape(vi.dtype, vi.shape) +
                                             (vi.trainable ? " · trainable" : " · trainable=False")});
    // The version alive at the cursor.
    size_t version = 0;
    for (size_t k = 1; k < n.version_events.size(); ++k)
      if (n.version_events[k] <= cursor) version = k;
    if (version < vi.versions.size()) {
      const TensorInfo* ti = log.tensor(vi.versions[version]);
      if (ti) out.push_back({TooltipStyle::Normal, "value (version " + std::to_string(version) + "): " + value_preview(*ti->value)});
    }
  } else if (n.cls == NodeClass::Constant) {
    const TensorInfo& ti = *log.tensor(n.id);
    out.push_back({TooltipStyle::Normal, "constant (" + ti.label + ") · tensor #" + std::to_string(n.id) + line_part(n.line)});
    out.push_back({TooltipStyle::Normal, dtype_shape(ti.dtype(), ti.shape()) + " = " + value_preview(*ti.value)});
  } else {
    out.push_back({TooltipStyle::Normal, n.type + " · op #" + std::to_string(n.id) + line_part(n.line)});
    const NodeKind k = node_kind(n, tape);
    if (k == NodeKind::GradientOp) {
      out.push_back({TooltipStyle::Dim, "ran in the backward pass of gradient call #" + std::to_string(n.grad_call)});
    } else {
      if (k == NodeKind::HostOp || k == NodeKind::StatefulOp) {
        const OpDef* def = OpRegistry::instance().find(n.type);
        out.push_back({TooltipStyle::Warning, std::string(k == NodeKind::HostOp ? "host computation: " : "stateful: ") +
                                                  (def && !def->rule.empty() ? def->rule : node_kind_name(k))});
      }
      if (n.grad_kind == GradKind::NotRegistered)
        out.push_back({TooltipStyle::Warning, "no gradient registered for " + n.type +
                                                  ": tape.gradient raises LookupError if the backward pass reaches it"});
      else if (n.grad_kind == GradKind::NotDifferentiable && k != NodeKind::HostOp && k != NodeKind::StatefulOp)
        out.push_back({TooltipStyle::Dim, grad_kind_text(n.grad_kind)});
      if (tape != kNoId || log.tapes.empty()) {
        if (recorded_by(n, tape))
          out.push_back({TooltipStyle::Normal, "recorded by tape " + tape_name(log, tape)});
        else
          out.push_back({TooltipStyle::Warning, (tape == kNoId ? std::string("not recorded") : "not recorded by tape " + tape_name(log, tape)) +
                                                    ": " + not_recorded_reason(m, n, tape)});
      }
    }
    const OpInfo& op = *log.op(n.id);
    for (size_t j = 0; j < op.outputs.size() && j < 4; ++j) {
      const TensorInfo* ti = log.tensor(op.outputs[j]);
      if (!ti) continue;
      out.push_back({TooltipStyle::Normal, (op.outputs.size() > 1 ? "out " + std::to_string(j) + ": " : std::string("out: ")) +
                                               dtype_shape(ti->dtype(), ti->shape()) + " = " + value_preview(*ti->value)});
    }
    if (op.outputs.size() > 4) out.push_back({TooltipStyle::Dim, "... " + std::to_string(op.outputs.size() - 4) + " more outputs"});
    if (!n.watched_by.empty() && tape != kNoId && watched_by(n, tape))
      out.push_back({TooltipStyle::Normal, "its output is watched by tape " + tape_name(log, tape)});
  }
  if (n.cls != NodeClass::Op && tape != kNoId)
    out.push_back({watched_by(n, tape) ? TooltipStyle::Normal : TooltipStyle::Dim,
                   (watched_by(n, tape) ? "watched by tape " : "not watched by tape ") + tape_name(log, tape)});
  if (n.group >= 0) out.push_back({TooltipStyle::Dim, "inside tf.function `" + m.groups[n.group].name + "`"});
  if (n.first_event > cursor) out.push_back({TooltipStyle::Dim, "not executed yet at the cursor"});
  return out;
}

std::vector<TooltipLine> edge_tooltip(const GraphModel& m, int edge) {
  std::vector<TooltipLine> out;
  if (edge < 0 || edge >= static_cast<int>(m.edges.size()) || !m.log) return out;
  const GraphEdge& e = m.edges[edge];
  out.push_back({TooltipStyle::Title, std::string(edge_kind_name(e.kind)) + ": " + m.nodes[e.from].label + " -> " +
                                          m.nodes[e.to].label});
  if (const TensorInfo* ti = m.log->tensor(e.tensor); ti && ti->kind != TensorKind::VariableHandle)
    out.push_back({TooltipStyle::Normal, dtype_shape(ti->dtype(), ti->shape()) + " = " + value_preview(*ti->value)});
  switch (e.kind) {
    case EdgeKind::Data: break;
    case EdgeKind::Host:
      out.push_back({TooltipStyle::Warning, "the value leaves TensorFlow here: no tape follows it"});
      break;
    case EdgeKind::State:
      out.push_back({TooltipStyle::Dim, "through state (a variable version or a dataset element): no gradient flows along it"});
      break;
    case EdgeKind::Control:
      out.push_back({TooltipStyle::Dim, "the condition decided that this ran; control is not differentiable"});
      break;
  }
  return out;
}

std::string edge_label(const GraphModel& m, int edge) {
  if (edge < 0 || edge >= static_cast<int>(m.edges.size()) || !m.log) return {};
  const GraphEdge& e = m.edges[edge];
  if (e.kind == EdgeKind::Control) return {};
  const TensorInfo* ti = m.log->tensor(e.tensor);
  if (!ti || ti->kind == TensorKind::VariableHandle) return {};
  return dtype_shape(ti->dtype(), ti->shape());
}

//-----------------------------------------------------------------------------
// [SECTION] search
//-----------------------------------------------------------------------------

namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

}  // namespace

std::vector<int> search_nodes(const GraphModel& m, std::string_view text) {
  std::vector<int> hits;
  // Trim: a trailing space typed into the box should not hide every match.
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty()) return hits;
  const std::string q = lower(text);
  for (int i = 0; i < static_cast<int>(m.nodes.size()); ++i) {
    const GraphNode& n = m.nodes[i];
    if (lower(n.label).find(q) != std::string::npos || lower(n.subtitle).find(q) != std::string::npos ||
        lower(n.type).find(q) != std::string::npos || ("#" + std::to_string(n.id)) == q)
      hits.push_back(i);
  }
  return hits;
}

//-----------------------------------------------------------------------------
// [SECTION] highlights: diagnosis path
//-----------------------------------------------------------------------------

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

void ensure_marks(GraphHighlights& hl, const GraphModel& m) {
  if (hl.node_marks.size() != m.nodes.size()) hl.node_marks.assign(m.nodes.size(), 0);
  if (hl.edge_marks.size() != m.edges.size()) hl.edge_marks.assign(m.edges.size(), 0);
}

}  // namespace

const TensorGradient* GraphHighlights::tensor_gradient(TensorId t) const {
  auto it = std::lower_bound(tensor_grads.begin(), tensor_grads.end(), t,
                             [](const TensorGradient& g, TensorId id) { return g.tensor < id; });
  return it != tensor_grads.end() && it->tensor == t ? &*it : nullptr;
}

const TensorGradient* GraphHighlights::node_gradient(int n) const {
  auto it = std::lower_bound(node_grads.begin(), node_grads.end(), n,
                             [](const std::pair<int, int>& p, int v) { return p.first < v; });
  return it != node_grads.end() && it->first == n ? &tensor_grads[static_cast<size_t>(it->second)] : nullptr;
}

void highlight_diagnosis(GraphHighlights& hl, const GraphModel& m, const Diagnosis& d) {
  ensure_marks(hl, m);
  hl.path_nodes.clear();
  hl.path.clear();
  for (int64_t id : d.path) {
    const int n = m.node_for(id);
    if (n < 0 || (!hl.path_nodes.empty() && hl.path_nodes.back() == n)) continue;
    if (!hl.path_nodes.empty()) {
      PathSegment s;
      s.from = hl.path_nodes.back();
      s.to = n;
      s.edge = m.find_edge(s.from, s.to);
      s.control = s.edge < 0 || m.edges[s.edge].kind == EdgeKind::Control;
      if (s.edge >= 0) hl.edge_marks[s.edge] |= kEdgeMarkPath;
      hl.path.push_back(s);
    }
    hl.path_nodes.push_back(n);
    hl.node_marks[n] |= kMarkPath;
  }
  for (const Evidence& ev : d.evidence) {
    const int n = m.node_for(ev.id);
    if (n >= 0) hl.node_marks[n] |= kMarkEvidence;
  }
  // The break: the op (or, for CONTROL_FLOW_ONLY, the condition) named by the engine;
  // without one (source rules, UNCONNECTED) the label goes on the source.
  int b = m.node_for(d.break_id);
  if (b < 0 && !hl.path_nodes.empty()) b = hl.path_nodes.front();
  if (b < 0)
    for (const Evidence& ev : d.evidence)
      if (b < 0 && (ev.kind == "variable" || ev.kind == "tensor")) b = m.node_for(ev.id);
  hl.break_node = b;
  hl.break_segment = -1;
  if (b >= 0) {
    hl.node_marks[b] |= kMarkBreak;
    if (d.break_id != kNoId) {
      const auto it = std::find(hl.path_nodes.begin(), hl.path_nodes.end(), b);
      if (it != hl.path_nodes.end()) {
        const int p = static_cast<int>(it - hl.path_nodes.begin());
        const bool leaves = d.code == Cause::ControlFlowOnly && p < static_cast<int>(hl.path.size());
        hl.break_segment = leaves ? p : p - 1;
        if (hl.break_segment >= 0 && hl.path[hl.break_segment].edge >= 0)
          hl.edge_marks[hl.path[hl.break_segment].edge] |= kEdgeMarkBreak;
      }
    }
  }
  hl.break_label = cause_code(d.code);
  hl.break_message = d.message;
  if (b >= 0) {
    hl.focus_node = b;
    hl.focus_mode = FocusMode::Centre;
    uint64_t k = mix(0x51u, static_cast<uint64_t>(d.code));
    k = mix(k, static_cast<uint64_t>(d.break_id));
    k = mix(k, d.path.size());
    k = mix(k, d.path.empty() ? 0 : static_cast<uint64_t>(d.path.front()));
    k = mix(k, static_cast<uint64_t>(d.line));
    for (const Evidence& ev : d.evidence) k = mix(k, static_cast<uint64_t>(ev.id));
    hl.focus_key = k;
  }
}

//-----------------------------------------------------------------------------
// [SECTION] highlights: backward pass at the cursor
//-----------------------------------------------------------------------------

namespace {

// The innermost gradient call open at event k (its start index), or -1.
int open_call_at(const EventLog& log, int k) {
  std::vector<std::pair<CallId, int>> open;
  for (int i = 0; i <= k; ++i) {
    const Event& e = log.events[static_cast<size_t>(i)];
    if (e.kind == EventKind::GradientCallStarted) open.push_back({e.call, i});
    else if (e.kind == EventKind::GradientCallEnded)
      for (size_t j = open.size(); j-- > 0;)
        if (open[j].first == e.call) {
          open.erase(open.begin() + static_cast<long>(j), open.end());
          break;
        }
  }
  return open.empty() ? -1 : open.back().second;
}

TensorValue sum_values(const EventLog& log, const std::vector<TensorId>& grads, bool& ok) {
  ok = true;
  TensorValue sum;
  bool first = true;
  for (TensorId g : grads) {
    const TensorInfo* ti = log.tensor(g);
    if (!ti) continue;
    if (first) {
      sum = *ti->value;
      first = false;
    } else if (ti->value->shape == sum.shape && ti->value->data.size() == sum.data.size()) {
      sum.data += ti->value->data;
    } else {
      ok = false;
    }
  }
  if (!first) round_to_dtype(sum.data, sum.dtype);
  return sum;
}

}  // namespace

void highlight_backward(GraphHighlights& hl, const GraphModel& m, int cursor) {
  if (!m.log || m.log->events.empty() || cursor < 0) return;
  const EventLog& log = *m.log;
  const int k = std::min(cursor, static_cast<int>(log.events.size()) - 1);
  const int start = open_call_at(log, k);
  if (start < 0) return;
  const Event& started = log.events[static_cast<size_t>(start)];
  const CallId call = started.call;
  hl.call = call;

  // The call's backward steps, in order.
  std::vector<int> steps;
  for (int i = start + 1; i < static_cast<int>(log.events.size()); ++i) {
    const Event& e = log.events[static_cast<size_t>(i)];
    if (e.kind == EventKind::GradientCallEnded && e.call == call) break;
    if (e.kind == EventKind::BackwardStep && e.call == call) steps.push_back(i);
  }
  for (int i : steps)
    if (const int n = m.node_for(log.events[static_cast<size_t>(i)].op); n >= 0) hl.call_nodes.push_back(n);
  for (int64_t source : started.outputs)  // and the sources the gradients go to
    if (const int n = m.node_for(source); n >= 0) hl.call_nodes.push_back(n);
  ensure_marks(hl, m);
  // The step at or after the cursor is the one whose gradient function runs: the ops
  // a gradient function executes come before its BackwardStep event.
  const auto run_it = std::lower_bound(steps.begin(), steps.end(), k);
  if (run_it != steps.end()) {
    hl.running_event = *run_it;
    hl.running_node = m.node_for(log.events[static_cast<size_t>(*run_it)].op);
    hl.running_done = *run_it == k;
    if (hl.running_node >= 0) {
      hl.node_marks[hl.running_node] |= kMarkRunning;
      hl.focus_node = hl.running_node;
      hl.focus_mode = FocusMode::EnsureVisible;
      hl.focus_key = mix(mix(0x77u, static_cast<uint64_t>(call)), static_cast<uint64_t>(hl.running_event));
    }
  }

  // What reached each tensor so far: the seeds (the first step of a target's
  // producer carries them as its upstream), then every completed step's outputs.
  std::map<TensorId, std::vector<TensorId>> pending;
  std::unordered_set<TensorId> complete;
  for (TensorId t : started.inputs) {
    for (int s : steps) {
      const Event& e = log.events[static_cast<size_t>(s)];
      const OpInfo* op = log.op(e.op);
      if (!op) continue;
      const auto it = std::find(op->outputs.begin(), op->outputs.end(), t);
      if (it == op->outputs.end()) continue;
      const size_t j = static_cast<size_t>(it - op->outputs.begin());
      if (j < e.inputs.size() && e.inputs[j] != kNoId) pending[t].push_back(e.inputs[j]);
      break;
    }
  }
  std::map<int, int> grad_of_edge;  // edge -> index into edge_grads
  for (int s : steps) {
    if (s > k) break;
    const Event& e = log.events[static_cast<size_t>(s)];
    const OpInfo* op = log.op(e.op);
    if (!op) continue;
    const int x = m.node_for(op->id);
    const bool current = s == hl.running_event;
    if (x >= 0 && !current) hl.node_marks[x] |= kMarkStepped;
    for (TensorId out : op->outputs) complete.insert(out);
    for (size_t i = 0; i < op->inputs.size() && i < e.outputs.size(); ++i) {
      const TensorId g = e.outputs[i];
      if (g == kNoId) continue;
      pending[op->inputs[i]].push_back(g);
      const int src = m.node_for(op->inputs[i]);
      const int edge = m.find_edge(src, x);
      if (edge < 0) continue;
      auto [it, fresh] = grad_of_edge.emplace(edge, static_cast<int>(hl.edge_grads.size()));
      if (fresh) hl.edge_grads.push_back(EdgeGradient{edge, {}, {}, false});
      EdgeGradient& eg = hl.edge_grads[static_cast<size_t>(it->second)];
      eg.grads.push_back(g);
      eg.current = eg.current || current;
    }
  }
  const bool all_done = !steps.empty() && k >= steps.back();
  hl.edge_grad_of.assign(m.edges.size(), -1);
  for (size_t i = 0; i < hl.edge_grads.size(); ++i) {
    EdgeGradient& eg = hl.edge_grads[i];
    for (TensorId g : eg.grads) {
      const TensorInfo* ti = log.tensor(g);
      if (!eg.text.empty()) eg.text += " + ";
      eg.text += ti ? value_preview(*ti->value, 24) : "?";
    }
    hl.edge_grad_of[eg.edge] = static_cast<int>(i);
    hl.edge_marks[eg.edge] |= kEdgeMarkGradient | (eg.current ? kEdgeMarkGradientCurrent : 0);
  }
  for (const auto& [t, grads] : pending) {
    TensorGradient tg;
    tg.tensor = t;
    bool ok = true;
    tg.value = sum_values(log, grads, ok);
    tg.text = ok ? value_preview(tg.value, 24) : "?";
    const TensorInfo* ti = log.tensor(t);
    const bool sourced = !ti || ti->producer == kNoId || m.node_for(ti->producer) < 0;
    tg.complete = complete.count(t) > 0 || (sourced && all_done);
    hl.tensor_grads.push_back(std::move(tg));  // std::map order: sorted by tensor id
  }
  for (size_t i = 0; i < hl.tensor_grads.size(); ++i) {
    const int n = m.node_for(hl.tensor_grads[i].tensor);
    if (n >= 0) hl.node_grads.push_back({n, static_cast<int>(i)});
  }
  // One per node (an op with several outputs shows its first), sorted by node.
  std::stable_sort(hl.node_grads.begin(), hl.node_grads.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  hl.node_grads.erase(std::unique(hl.node_grads.begin(), hl.node_grads.end(),
                                  [](const auto& a, const auto& b) { return a.first == b.first; }),
                      hl.node_grads.end());
}

GraphHighlights compute_highlights(const GraphModel& m, const HighlightRequest& req) {
  GraphHighlights hl;
  hl.cursor = req.cursor;
  hl.tape = req.tape;
  if (m.log && req.diagnosis) {
    // A shown None is about its own call's tape ("recorded" means recorded by that tape,
    // unless a tape was chosen) and is framed with the call's targets.
    auto owns = [&](const GradientCall& gc) {
      return std::any_of(gc.results.begin(), gc.results.end(),
                         [&](const SourceResult& r) { return r.diagnosis && &*r.diagnosis == req.diagnosis; });
    };
    const auto& calls = m.log->gradient_calls;
    const auto it = std::find_if(calls.begin(), calls.end(), owns);
    if (it != calls.end()) {
      if (req.tape == kNoId) hl.tape = it->tape;
      for (TensorId t : it->targets)
        if (const int n = m.node_for(t); n >= 0) hl.target_nodes.push_back(n);
    }
  }
  if (m.log && hl.tape == kNoId) {
    const int k = std::min(req.cursor, static_cast<int>(m.log->events.size()) - 1);
    const int start = k >= 0 ? open_call_at(*m.log, k) : -1;
    if (start >= 0) {
      if (const GradientCall* gc = m.log->gradient_call(m.log->events[static_cast<size_t>(start)].call)) hl.tape = gc->tape;
      else hl.tape = m.log->events[static_cast<size_t>(start)].tape;
    }
    if (hl.tape == kNoId) hl.tape = default_tape(*m.log);
  }
  hl.selected_node = m.node_for(req.selected_id);
  if (hl.selected_node >= 0) {
    ensure_marks(hl, m);
    hl.node_marks[hl.selected_node] |= kMarkSelected;
  }
  highlight_backward(hl, m, req.cursor);
  // A shown path wins the focus over the stepping overlay.
  if (req.diagnosis) highlight_diagnosis(hl, m, *req.diagnosis);
  return hl;
}

const GraphHighlights& HighlightCache::get(const GraphModel& m, const HighlightRequest& req) {
  const size_t events = m.log ? m.log->events.size() : 0;
  const bool same = valid_ && model_ == &m && log_ == m.log && nodes_ == m.nodes.size() && events_ == events &&
                    req_.cursor == req.cursor && req_.tape == req.tape && req_.diagnosis == req.diagnosis &&
                    req_.selected_id == req.selected_id;
  if (!same) {
    hl_ = compute_highlights(m, req);
    valid_ = true;
    model_ = &m;
    log_ = m.log;
    nodes_ = m.nodes.size();
    events_ = events;
    req_ = req;
  }
  return hl_;
}

}  // namespace ts::gui

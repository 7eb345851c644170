// LogIndex construction: one pass over the events, one over the ops.
#include "model/log_index.h"

#include <algorithm>

namespace ts::gui {

namespace {

void mark_born(std::vector<int64_t>& born, int64_t id, int64_t event) {
  if (id <= 0) return;
  if (static_cast<size_t>(id) >= born.size()) born.resize(static_cast<size_t>(id) + 1, -1);
  int64_t& b = born[static_cast<size_t>(id)];
  if (b < 0) b = event;
}

}  // namespace

const CallSpan* LogIndex::call_span(CallId c) const {
  for (const auto& s : calls)
    if (s.call == c) return &s;
  return nullptr;
}

const std::vector<OpId>& LogIndex::consumers_of(TensorId t) const {
  static const std::vector<OpId> kNone;  // immutable sentinel, not state
  if (t <= 0 || static_cast<size_t>(t) >= consumers.size()) return kNone;
  return consumers[static_cast<size_t>(t)];
}

const std::string& LogIndex::name_of(int64_t id) const {
  static const std::string kEmpty;
  if (id <= 0 || static_cast<size_t>(id) >= names.size()) return kEmpty;
  return names[static_cast<size_t>(id)];
}

LogIndex build_log_index(const EventLog& log) {
  LogIndex ix;
  const size_t n = log.events.size();
  ix.call_at.assign(n, kNoId);
  ix.function_at.assign(n, -1);
  ix.born.assign(log.index.size(), -1);
  ix.names.assign(log.index.size(), {});
  ix.version_of.assign(log.index.size(), kNoId);
  for (const VariableInfo& v : log.variables)
    for (TensorId t : v.versions)
      if (t > 0 && static_cast<size_t>(t) < ix.version_of.size()) ix.version_of[static_cast<size_t>(t)] = v.id;
  std::vector<size_t> call_stack;  // indices into ix.calls
  std::vector<int> fn_stack;
  for (size_t i = 0; i < n; ++i) {
    const Event& e = log.events[i];
    const int64_t k = static_cast<int64_t>(i);
    ix.max_line = std::max(ix.max_line, e.line);
    switch (e.kind) {
      case EventKind::StatementStarted: ix.statements.push_back(k); break;
      case EventKind::GradientCallStarted: {
        CallSpan s;
        s.call = e.call;
        s.tape = e.tape;
        s.begin = k;
        ix.calls.push_back(s);
        call_stack.push_back(ix.calls.size() - 1);
        break;
      }
      case EventKind::FunctionCallStarted: {
        ix.functions.push_back({e.subject, e.name, k, -1});
        fn_stack.push_back(static_cast<int>(ix.functions.size() - 1));
        mark_born(ix.born, e.subject, k);
        break;
      }
      case EventKind::TensorCreated: mark_born(ix.born, e.subject, k); break;
      case EventKind::NameBound:
        if (e.subject > 0 && static_cast<size_t>(e.subject) < ix.names.size() &&
            ix.names[static_cast<size_t>(e.subject)].empty())
          ix.names[static_cast<size_t>(e.subject)] = e.name;
        break;
      case EventKind::VariableCreated:
        mark_born(ix.born, e.subject, k);
        for (int64_t t : e.outputs) mark_born(ix.born, t, k);
        break;
      case EventKind::OpExecuted:
        if (const OpInfo* op = log.op(e.op)) {
          mark_born(ix.born, op->id, k);
          for (TensorId t : op->outputs) mark_born(ix.born, t, k);
        }
        break;
      default: break;
    }
    if (!call_stack.empty()) {
      CallSpan& s = ix.calls[call_stack.back()];
      ix.call_at[i] = s.call;
      if (e.kind == EventKind::BackwardStep) s.steps.push_back(k);
    }
    if (!fn_stack.empty()) ix.function_at[i] = fn_stack.back();
    if (e.kind == EventKind::GradientCallEnded && !call_stack.empty()) {
      ix.calls[call_stack.back()].end = k;
      call_stack.pop_back();
    }
    if (e.kind == EventKind::FunctionCallEnded && !fn_stack.empty()) {
      ix.functions[static_cast<size_t>(fn_stack.back())].end = k;
      fn_stack.pop_back();
    }
  }
  // Spans cut short by an error end at the last event.
  for (auto& s : ix.calls)
    if (s.end < 0) s.end = static_cast<int64_t>(n) - 1;
  for (auto& f : ix.functions)
    if (f.end < 0) f.end = static_cast<int64_t>(n) - 1;
  // Tensors that no event announced (a variable's initial value made by a kernel the
  // interpreter ran silently) appear with their producer, or at the start.
  for (const auto& t : log.tensors) {
    if (t.id <= 0 || static_cast<size_t>(t.id) >= ix.born.size() || ix.born[static_cast<size_t>(t.id)] >= 0) continue;
    const int64_t p = ix.born_at(t.producer);
    ix.born[static_cast<size_t>(t.id)] = p >= 0 ? p : 0;
  }
  ix.consumers.assign(log.index.size(), {});
  for (const auto& op : log.ops) {
    for (TensorId in : op.inputs)
      if (in > 0 && static_cast<size_t>(in) < ix.consumers.size()) {
        auto& c = ix.consumers[static_cast<size_t>(in)];
        if (c.empty() || c.back() != op.id) c.push_back(op.id);
      }
    if (op.line > ix.max_line) ix.max_line = op.line;
  }
  return ix;
}

}  // namespace ts::gui

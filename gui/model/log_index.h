// LogIndex: lookup tables built once per run over the event log, so that the
// stepper and the views answer "where/when" questions without rescanning it:
// the event each tensor/op appeared at, the statement starts, the gradient-call
// and tf.function spans, and each tensor's consumers. Pure data, no ImGui.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/event_log.h"

namespace ts::gui {

// A gradient call as a span of events [begin, end] (GradientCallStarted..Ended).
struct CallSpan {
  CallId call = kNoId;
  TapeId tape = kNoId;
  int64_t begin = -1;
  int64_t end = -1;
  std::vector<int64_t> steps;  // BackwardStep events of this call, in order
};

// A tf.function call as a span of events (FunctionCallStarted..Ended).
struct FunctionSpan {
  OpId call_op = kNoId;
  std::string name;
  int64_t begin = -1;
  int64_t end = -1;
};

struct LogIndex {
  // Indices of StatementStarted events (the stops of F10 / Shift+F10).
  std::vector<int64_t> statements;
  // Per event: the innermost gradient call in progress (its own Started/Ended
  // events included), or kNoId.
  std::vector<CallId> call_at;
  // Per event: index into `functions` of the innermost tf.function call, or -1.
  std::vector<int> function_at;
  std::vector<CallSpan> calls;  // by order of GradientCallStarted
  std::vector<FunctionSpan> functions;
  // By id (tensor or op; one id space): the event at which it appeared, -1 if never.
  std::vector<int64_t> born;
  // By tensor id: the ops that take it as an input (data edges only).
  std::vector<std::vector<OpId>> consumers;
  // By id: the first Python name the script bound to it ("y", "x"), or empty.
  std::vector<std::string> names;
  // By tensor id: the variable (handle id) whose version (value) it is, or kNoId.
  std::vector<int64_t> version_of;
  // The last line any event mentions (for the source view's gutter width).
  int max_line = 0;

  int64_t born_at(int64_t id) const {
    return id > 0 && static_cast<size_t>(id) < born.size() ? born[static_cast<size_t>(id)] : -1;
  }
  // True when `id` exists in the state after event `cursor`.
  bool exists_at(int64_t id, int64_t cursor) const {
    const int64_t b = born_at(id);
    return b >= 0 && b <= cursor;
  }
  const CallSpan* call_span(CallId c) const;
  // The gradient call whose span contains `event`, or kNoId.
  CallId call_of(int64_t event) const {
    return event >= 0 && static_cast<size_t>(event) < call_at.size() ? call_at[static_cast<size_t>(event)] : kNoId;
  }
  const std::vector<OpId>& consumers_of(TensorId t) const;
  const std::string& name_of(int64_t id) const;
};

LogIndex build_log_index(const EventLog& log);

}  // namespace ts::gui

#include "event_log.h"

namespace ts {

const char* event_kind_name(EventKind k) {
  switch (k) {
    case EventKind::StatementStarted: return "statement";
    case EventKind::NameBound: return "name_bound";
    case EventKind::TensorCreated: return "tensor_created";
    case EventKind::VariableCreated: return "variable_created";
    case EventKind::VariableAssigned: return "variable_assigned";
    case EventKind::OpExecuted: return "op";
    case EventKind::TapeCreated: return "tape_created";
    case EventKind::TapeEntered: return "tape_entered";
    case EventKind::TapeExited: return "tape_exited";
    case EventKind::TapeReset: return "tape_reset";
    case EventKind::TapeConsumed: return "tape_consumed";
    case EventKind::StopRecordingBegan: return "stop_recording_began";
    case EventKind::StopRecordingEnded: return "stop_recording_ended";
    case EventKind::Watch: return "watch";
    case EventKind::AccessNotWatched: return "access_not_watched";
    case EventKind::BranchTaken: return "branch_taken";
    case EventKind::GradientCallStarted: return "gradient_call_started";
    case EventKind::BackwardStep: return "backward_step";
    case EventKind::GradientResult: return "gradient_result";
    case EventKind::GradientCallEnded: return "gradient_call_ended";
    case EventKind::FunctionCallStarted: return "function_call_started";
    case EventKind::FunctionCallEnded: return "function_call_ended";
    case EventKind::Warning: return "warning";
    case EventKind::Error: return "error";
    case EventKind::Output: return "output";
    case EventKind::Plot: return "plot";
    case EventKind::Alert: return "alert";
  }
  return "?";
}

const char* tensor_kind_name(TensorKind k) {
  switch (k) {
    case TensorKind::Constant: return "constant";
    case TensorKind::OpOutput: return "op_output";
    case TensorKind::VariableHandle: return "variable";
    case TensorKind::HostValue: return "host";
    case TensorKind::StateValue: return "state";
  }
  return "?";
}

const char* not_recorded_reason_text(NotRecordedReason r) {
  switch (r) {
    case NotRecordedReason::NoWatchedInput: return "none of its inputs is watched or computed by a recorded op";
    case NotRecordedReason::NonFloatingInput: return "its only watched inputs are not floating-point";
    case NotRecordedReason::StopRecording: return "it ran inside tape.stop_recording()";
    case NotRecordedReason::TapeNotEntered: return "it ran before the tape's block was entered";
    case NotRecordedReason::TapeExited: return "it ran after the tape's block ended";
    case NotRecordedReason::HostOrStateful: return "it runs outside TensorFlow or through state, which no tape records";
    case NotRecordedReason::StopGradient: return "tf.stop_gradient runs with every tape paused";
  }
  return "?";
}

const TensorInfo* EventLog::tensor(int64_t id) const {
  if (id <= 0 || static_cast<size_t>(id) >= index.size()) return nullptr;
  const int64_t k = index[static_cast<size_t>(id)];
  return k >= 0 ? &tensors[static_cast<size_t>(k)] : nullptr;
}

const OpInfo* EventLog::op(int64_t id) const {
  if (id <= 0 || static_cast<size_t>(id) >= index.size()) return nullptr;
  const int64_t k = index[static_cast<size_t>(id)];
  return k <= -2 ? &ops[static_cast<size_t>(-2 - k)] : nullptr;
}

bool EventLog::is_tensor(int64_t id) const { return tensor(id) != nullptr; }
bool EventLog::is_op(int64_t id) const { return op(id) != nullptr; }

const VariableInfo* EventLog::variable(TensorId id) const {
  // Few variables per run: a linear scan keeps the log a plain value type.
  for (const auto& v : variables)
    if (v.id == id) return &v;
  return nullptr;
}

const TapeInfo* EventLog::tape(TapeId id) const {
  for (const auto& t : tapes)
    if (t.id == id) return &t;
  return nullptr;
}

const GradientCall* EventLog::gradient_call(CallId id) const {
  for (const auto& g : gradient_calls)
    if (g.id == id) return &g;
  return nullptr;
}

}  // namespace ts

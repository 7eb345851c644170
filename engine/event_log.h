// The event log: one ordered, immutable record of a run, plus the tables of the
// objects its events name (tensors, ops, variables, tapes, gradient calls).
// Every view and the CLI read this; nothing re-derives semantics from the script.
// The state "after event k" (tape records, watched set, variable values, gradients)
// is a function of the events [0, k].
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "attrs.h"
#include "chunked_vector.h"
#include "diagnosis_types.h"
#include "ids.h"
#include "op_registry.h"
#include "small_vector.h"
#include "tensor.h"

namespace ts {

enum class EventKind {
  StatementStarted,   // line
  NameBound,          // name = subject (tensor/variable id, or -1), text = Python type
  TensorCreated,      // subject = tensor (constants, host values)
  VariableCreated,    // subject = variable (handle id), outputs = {initial value}
  VariableAssigned,   // subject = variable, outputs = {new value}, op = the assign op
  OpExecuted,         // subject = op
  TapeCreated, TapeEntered, TapeExited, TapeReset, TapeConsumed,
  StopRecordingBegan, StopRecordingEnded,  // tape
  Watch,              // tape, subject = tensor/variable; name = "watch" | "variable access";
                      // text = TF's warning for a non-floating watch
  AccessNotWatched,   // tape, subject = variable read inside the tape but not watched; text = why
  BranchTaken,        // subject = condition tensor; name = "if" | "while" | ...; text = detail
  GradientCallStarted,  // call, tape
  BackwardStep,       // call, subject = op; inputs = upstream grads (per output);
                      // outputs = grads passed to the op's inputs (per input, -1 = None)
  GradientResult,     // call, subject = source; outputs = {grad or -1}; name = source label
  GradientCallEnded,  // call
  FunctionCallStarted, FunctionCallEnded,  // subject = the call op; name = function name
  Warning,            // text
  Error,              // name = Python type, text = message
  Output,             // text = one printed line
  Plot,               // text = JSON of the plot command
  Alert,              // NaN or Inf first appeared: op = the op that made it from finite
                      // inputs, subject = its first non-finite output, inputs = the op's
                      // inputs, call = the gradient call when in a backward pass; text
};

const char* event_kind_name(EventKind k);

struct Event {
  EventKind kind = EventKind::StatementStarted;
  int line = 0;
  int64_t subject = kNoId;
  TapeId tape = kNoId;
  CallId call = kNoId;
  OpId op = kNoId;
  SmallVector<int64_t, 2> inputs;
  SmallVector<int64_t, 2> outputs;
  std::string name;
  std::string text;
};

enum class TensorKind { Constant, OpOutput, VariableHandle, HostValue, StateValue };
const char* tensor_kind_name(TensorKind k);

struct TensorInfo {
  TensorId id = kNoId;
  TensorKind kind = TensorKind::Constant;
  TensorPtr value;
  OpId producer = kNoId;
  int output_index = 0;
  int line = 0;
  std::string label;  // e.g. "tf.constant", "x0:0", "np.mean"
  const Shape& shape() const { return value->shape; }
  DType dtype() const { return value->dtype; }
};

// Why a tape did not record an op (shown greyed in the Tape view).
enum class NotRecordedReason {
  NoWatchedInput,      // no input was on the tape
  NonFloatingInput,    // its only on-tape inputs are not floating
  StopRecording,       // inside tape.stop_recording()
  TapeNotEntered,      // the tape was created but its block not entered yet
  TapeExited,          // after the tape's block (or a non-persistent gradient call)
  HostOrStateful,      // the op is outside the engine or goes through state
  StopGradient,        // tf.stop_gradient (and a variable read for it) runs with every tape paused
};
const char* not_recorded_reason_text(NotRecordedReason r);

struct NotRecordedBy {
  TapeId tape = kNoId;
  NotRecordedReason reason = NotRecordedReason::NoWatchedInput;
};

// An op's id lists hold their usual one or two entries inline (see small_vector.h).
using IdList = SmallVector<int64_t, 2>;

struct OpInfo {
  OpId id = kNoId;
  std::string type;   // TF op type
  const OpDef* def = nullptr;  // its registry entry (null for ops loaded from JSON)
  std::string label;  // what the learner wrote: "x**2", "tf.math.sin", "np.mean"
  OpCategory category = OpCategory::Math;
  IdList inputs, outputs;
  IdList control;  // conditions of branches this op ran under
  // Values that reach the op through state, not as inputs: the variable version a
  // ReadVariableOp reads, the tensors an IteratorGetNext slices its element from.
  IdList state_inputs;
  Attrs attrs;
  int line = 0;
  IdList recorded_by;
  SmallVector<NotRecordedBy, 1> not_recorded;
  CallId grad_call = kNoId;   // executed by the backward pass of this gradient call
  OpId function_call = kNoId; // the tf.function call op it was traced under
};

struct VariableInfo {
  TensorId id = kNoId;  // the handle tensor
  std::string name;     // "x0:0" (TF) or "kernel" (Keras)
  std::string path;     // Keras path "dense/kernel"; empty for plain variables
  bool trainable = true;
  bool keras = false;
  DType dtype = DType::Float32;
  Shape shape;
  int line = 0;
  std::vector<TensorId> versions;  // value tensor of each version (0 = initial)
};

struct TapeInfo {
  TapeId id = kNoId;
  std::string name;  // the Python name bound by `with ... as NAME`
  bool persistent = false;
  bool watch_accessed_variables = true;
  int line = 0;
};

struct SourceResult {
  std::string label;        // the source as written: "x", "self.w", "x0"
  TensorId source = kNoId;  // tensor or variable id
  TensorId grad = kNoId;    // kNoId = None
  std::optional<Diagnosis> diagnosis;
};

struct GradientCall {
  CallId id = kNoId;
  TapeId tape = kNoId;
  int line = 0;
  std::string kind = "gradient";  // "gradient" | "jacobian" | "batch_jacobian"
  std::vector<TensorId> targets;
  std::vector<SourceResult> results;
  bool zero_requested = false;
  // One backward pass (one target element) of a jacobian. The jacobian itself is logged
  // after its rows as its own call, whose result carries the value and any diagnosis;
  // lists of None causes skip the rows.
  bool jacobian_row = false;
  std::string error;  // "LookupError: ..." when the call raised
};

struct EventLog {
  std::string file;
  std::string script;
  // Chunked: appending never moves an entry, so references stay valid as a run grows.
  ChunkedVector<Event> events;
  ChunkedVector<TensorInfo> tensors;  // indexed through `index`
  ChunkedVector<OpInfo> ops;
  std::vector<VariableInfo> variables;
  std::vector<TapeInfo> tapes;
  std::vector<GradientCall> gradient_calls;
  // id -> position in `tensors` / `ops` (-1 when the id is the other kind)
  std::vector<int64_t> index;

  const TensorInfo* tensor(int64_t id) const;
  const OpInfo* op(int64_t id) const;
  const VariableInfo* variable(TensorId id) const;
  const TapeInfo* tape(TapeId id) const;
  const GradientCall* gradient_call(CallId id) const;
  bool is_tensor(int64_t id) const;
  bool is_op(int64_t id) const;
};

}  // namespace ts

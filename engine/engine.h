// Engine: one run's runtime. Executes ops, keeps variables and gradient tapes, runs
// the backward pass and the None diagnosis, and writes everything into the event log.
// The interpreter drives it; it knows nothing of Python syntax, only what the
// interpreter reports (lines, name bindings, branches, values crossing to the host).
#pragma once
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "errors.h"
#include "event_log.h"
#include "tape.h"

namespace ts {

struct EngineLimits {
  int64_t max_tensor_elements = 10'000'000;
  int64_t max_total_bytes = int64_t{2} << 30;  // 2 GiB of tensor data in all
  // Arithmetic of all ops together (a product counts its multiply-adds): a script that
  // would run for minutes stops with a ResourceError instead (1e11 is ~20 s here).
  double max_work = 1e11;
};

// One source of a gradient call: the flat id and the text the learner wrote.
struct SourceSpec {
  TensorId id = kNoId;
  std::string label;
};

enum class Unconnected { None, Zero };

struct GradientRequest {
  TapeId tape = kNoId;
  std::vector<TensorId> targets;          // flat (tensors or variable handles)
  std::vector<TensorId> output_gradients; // per target, kNoId = ones
  std::vector<SourceSpec> sources;        // flat
  Unconnected unconnected = Unconnected::None;
  std::string kind = "gradient";
  bool jacobian_row = false;  // one backward pass of a jacobian (see GradientCall)
};

class Engine {
 public:
  explicit Engine(EngineLimits limits = {});
  ~Engine();

  EventLog& log() { return log_; }
  const EventLog& log() const { return log_; }

  // --- where we are (set by the interpreter) ---
  void set_line(int line) { line_ = line; }
  int line() const { return line_; }
  void statement(int line);  // StatementStarted event

  // --- tensors ---
  TensorId constant(TensorValue v, const std::string& label = "tf.constant");
  const TensorInfo& tensor(TensorId id) const;
  const TensorValue& value(TensorId id) const { return *tensor(id).value; }
  // A tensor's shape and dtype, or a variable handle's (its variable's).
  const Shape& shape_of(TensorId id) const { return is_variable(id) ? variable(id).shape : value(id).shape; }
  DType dtype_of(TensorId id) const { return is_variable(id) ? variable(id).dtype : value(id).dtype; }
  bool is_variable(TensorId id) const;

  // Runs an op; returns its output ids. Records it on every recording tape that
  // watches one of its floating inputs. Throws TfError on bad input.
  std::vector<TensorId> execute(const std::string& type, const std::vector<TensorId>& inputs,
                                const Attrs& attrs = {}, const std::string& label = {});
  // The op's single (first) output.
  TensorId execute1(const std::string& type, const std::vector<TensorId>& inputs, const Attrs& attrs = {},
                    const std::string& label = {});
  TensorId execute1(const std::string& type, std::initializer_list<TensorId> inputs, const Attrs& attrs = {},
                    const std::string& label = {});

  // tf.stop_gradient runs inside record.stop_recording(): while a scope lives, no tape
  // records an op (each is NotRecordedReason::StopGradient) or watches a variable read.
  // run_op opens one for a StopGradient op; the interpreter opens one around converting
  // stop_gradient's argument (a variable read, a list packed).
  class StopGradientScope {
   public:
    explicit StopGradientScope(Engine& e) : flag_(e.stop_gradient_running_), was_(flag_) { flag_ = true; }
    ~StopGradientScope() { flag_ = was_; }
    StopGradientScope(const StopGradientScope&) = delete;
    StopGradientScope& operator=(const StopGradientScope&) = delete;

   private:
    bool& flag_;
    bool was_;
  };

  // --- values crossing the engine boundary (HOST_COMPUTATION) ---
  // A tensor becomes a host array (.numpy(), np.*): returns the host value's id.
  TensorId to_host(TensorId t, const std::string& label);
  // A computation on host values (np.mean ...): output values given by the caller.
  std::vector<TensorId> host_op(const std::string& label, const std::vector<TensorId>& inputs,
                                std::vector<TensorValue> outputs);
  // A host value (or Python number derived from `provenance`) comes back as a constant.
  TensorId from_host(TensorValue v, const std::vector<TensorId>& provenance, const std::string& label);
  // An external stateful op (IteratorGetNext): outputs given by the caller, with
  // state edges from `state_inputs` (the tensors the element was sliced from).
  std::vector<TensorId> stateful_op(const std::string& type, const std::vector<TensorId>& state_inputs,
                                    std::vector<TensorValue> outputs, const std::string& label);

  // --- variables ---
  TensorId create_variable(TensorId initial, const std::string& name, bool trainable,
                           const std::string& keras_path = {});
  // Reads the variable (ReadVariableOp; watches it on tapes that auto-watch).
  TensorId read_variable(TensorId var, const std::string& label = {});
  void assign(TensorId var, TensorId value, const std::string& op_type = "AssignVariableOp");
  // record.variable_accessed without a read (an assign's _UnreadVariable, a repr): the
  // recording tapes that watch accessed variables watch it.
  void variable_accessed(TensorId var) { auto_watch_on_read(var); }
  const VariableInfo& variable(TensorId var) const;
  std::string unique_variable_name(const std::string& base);  // "Variable:0", "x0:0", ...

  // --- tapes ---
  TapeId create_tape(bool persistent, bool watch_accessed_variables, const std::string& name);
  // tf.gradients inside a traced tf.function: a persistent tape, named "tf.gradients",
  // holding every op of the innermost function's graph traced so far (a graph's
  // gradients reach any of its tensors), with `sources` watched. Not recording.
  TapeId graph_gradients_tape(const std::vector<TensorId>& sources);
  void enter_tape(TapeId t);
  void exit_tape(TapeId t);
  void watch(TapeId t, TensorId x);  // tensors or variable handles (TF's rules & warning)
  void stop_recording_begin(TapeId t);
  void stop_recording_end(TapeId t);
  void reset_tape(TapeId t);
  std::vector<TensorId> watched_variables(TapeId t) const;
  const Tape& tape(TapeId t) const;
  Tape& tape_mut(TapeId t);
  bool any_recording() const;

  // Returns one id per source (kNoId = None), the call recorded in the log.
  std::vector<TensorId> gradient(const GradientRequest& req);
  // Jacobian of a single target w.r.t. a single source (shape target.shape + source.shape).
  TensorId jacobian(TapeId t, TensorId target, const SourceSpec& source, Unconnected u, bool batch);
  // batch_jacobian's shape checks (ValueErrors), before any row is computed.
  void check_batch_jacobian(TensorId target, TensorId source) const;

  // --- facts only the interpreter knows (for the diagnosis) ---
  void bind_name(const std::string& name, int64_t id, const std::string& python_type, const std::string& key = {});
  // A tensor decided a branch; names of the branch that did not run are remembered
  // for UNCONNECTED's message. While pushed, ops executed get a control edge.
  void branch_taken(TensorId cond, const std::string& what, int untaken_line,
                    const std::vector<std::string>& untaken_names);
  // A branch not taken on a plain Python value: no event (it is not the tape's), only
  // remembered for UNCONNECTED's "appears only in the branch at line N".
  void untaken_branch(int untaken_line, const std::vector<std::string>& untaken_names);
  void push_control(TensorId cond);
  void pop_control();
  // A value bound while a branch condition was pushed (no op ran: `result = v0`).
  void control_use(TensorId value);

  // While a tf.function traces: the graph's text for an op about to run ("{{node add}} =
  // AddV2[T=DT_FLOAT](x, Const)"), for graph construction's shape errors. Set by the
  // interpreter, which names graph tensors.
  std::function<std::string(const std::string& type, const std::string& label, const std::vector<TensorId>& inputs)>
      graph_node_text;

  // --- tf.function grouping ---
  OpId function_call_begin(const std::string& name, const std::vector<TensorId>& inputs);
  bool tracing() const { return !function_stack_.empty(); }  // inside a tf.function call
  void function_call_end(OpId call, const std::vector<TensorId>& outputs);

  // --- output / diagnostics ---
  void output(const std::string& line);
  void warning(const std::string& text);  // logged with its prefix as given
  void warning_tf(const std::string& text);  // "WARNING:tensorflow:" + text
  void error(const std::string& type, const std::string& message, int line);
  void plot(const std::string& json);

  // Binding history (for REPLACED_VARIABLE): name -> (id, line) in order. `key` names
  // the slot bound (a scope's variable, an object's attribute), so `model.w` and
  // `self.w` are one slot and a function's local `x` is not the module's `x`.
  struct Binding { std::string name; int64_t id; int line; std::string key; };
  const std::vector<Binding>& bindings() const { return bindings_; }
  // Positions in bindings(), ascending: of one slot (key), of one slot's variable
  // bindings, of one id (the diagnosis' lookups stay logarithmic in a long loop).
  const std::vector<size_t>& bindings_of_key(const std::string& key) const;
  const std::vector<size_t>& variable_bindings_of_key(const std::string& key) const;
  const std::vector<size_t>& bindings_of_id(int64_t id) const;
  // A decision and the branch it did not take (cond kNoId: a plain Python value decided);
  // `event` is the log's size then, to read the names' bindings at that point.
  struct Branch {
    TensorId cond;
    int line;
    int untaken_line;
    std::vector<std::string> untaken_names;
    size_t event = 0;
  };
  const std::vector<Branch>& branches() const { return branches_; }
  const std::vector<std::pair<TensorId, TensorId>>& extra_edges() const { return extra_edges_; }

  // Internal, used by the backward pass and gradient functions.
  Event& emit(EventKind k);
  // What the None diagnosis keeps between gradient calls (its index of the trace graph,
  // extended as the log grows, so a training loop's diagnoses stay linear); opaque here.
  std::shared_ptr<void>& diagnosis_cache() const { return diagnosis_cache_; }
  CallId current_grad_call() const { return grad_call_; }
  TapeId current_grad_tape() const { return grad_tape_; }  // the tape of that call
  // The forward op whose gradient function is running (for the NaN/Inf alert's words).
  OpId differentiating() const { return differentiating_; }
  void set_differentiating(OpId op) { differentiating_ = op; }
  void set_current_grad_call(CallId c) { grad_call_ = c; }

 private:
  TensorId new_tensor(TensorValue v, TensorKind kind, OpId producer, int out_index, const std::string& label);
  OpInfo& new_op(const std::string& type, OpCategory cat, IdList inputs, const std::string& label);
  const OpInfo& run_op(const std::string& type, const TensorId* inputs, size_t n, const Attrs& attrs,
                       const std::string& label);
  void record_on_tapes(OpInfo& op);
  // The NaN/Inf alert: once per forward pass and per backward pass, for the first op
  // whose outputs are not all finite though its inputs are.
  void check_nonfinite(const OpInfo& op);
  void log_result(GradientCall& call, SourceResult r);  // a GradientResult event + the record
  TensorId log_jacobian(TapeId tape, TensorId target, const SourceSpec& source, TensorId result, bool any,
                        Unconnected u, const std::optional<Diagnosis>& row_diagnosis, bool batch);
  void check_size(const TensorValue& v);
  void auto_watch_on_read(TensorId var);
  Tape& tape_ref(TapeId t);
  OpInfo& op_ref(OpId id);

  EngineLimits limits_;
  EventLog log_;
  std::vector<std::unique_ptr<Tape>> tapes_;
  std::vector<TapeId> active_;  // entered tapes, innermost last
  std::vector<TensorId> control_stack_;
  std::vector<OpId> function_stack_;
  std::vector<Binding> bindings_;
  std::unordered_map<std::string, std::vector<size_t>> bindings_by_key_, variable_bindings_by_key_;
  std::unordered_map<int64_t, std::vector<size_t>> bindings_by_id_;
  std::vector<Branch> branches_;
  std::unordered_map<int, size_t> untaken_index_;  // untaken_branch's entries by line
  std::vector<std::pair<TensorId, TensorId>> extra_edges_;  // control uses: cond -> value
  std::vector<int64_t> var_index_;  // handle id -> index in log_.variables (sparse map)
  int64_t next_id_ = 1;
  int line_ = 0;
  bool stop_gradient_running_ = false;  // tapes paused (see run_op)
  CallId grad_call_ = kNoId;
  TapeId grad_tape_ = kNoId;
  OpId differentiating_ = kNoId;
  CallId next_call_id_ = 1;  // taken when a call starts: a call made inside another's backward pass gets its own
  int64_t total_bytes_ = 0;
  double total_work_ = 0;
  std::vector<CallId> alerted_;  // passes that have had their NaN/Inf alert (kNoId: forward)
  std::unordered_map<int, int> int_watch_warnings_;  // per line (TF's log_first_n key)
  std::set<int> persistent_inside_warned_;             // lines warned
  std::vector<int> variable_name_counts_;
  std::vector<std::string> used_variable_names_;
  mutable std::shared_ptr<void> diagnosis_cache_;
  std::vector<const TensorValue*> input_scratch_;
};

}  // namespace ts

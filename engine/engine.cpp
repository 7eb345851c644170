#include "engine.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>

#include "format.h"
#include "op_registry.h"
#include "value_memory.h"

namespace ts {

Engine::Engine(EngineLimits limits) : limits_(limits) {
  (void)OpRegistry::instance();
  configure_value_memory();
  log_.index.push_back(-1);  // id 0 is never used
}

Engine::~Engine() = default;

Event& Engine::emit(EventKind k) {
  Event& e = log_.events.emplace_back();
  e.kind = k;
  e.line = line_;
  if (grad_call_ != kNoId) e.call = grad_call_;
  return e;
}

void Engine::statement(int line) {
  line_ = line;
  emit(EventKind::StatementStarted);
}

void Engine::check_size(const TensorValue& v) {
  const int64_t n = v.size();
  if (n > limits_.max_tensor_elements)
    throw TfError("ResourceError", "tensor of shape " + shape_str(v.shape) + " has " + std::to_string(n) +
                                       " elements; the limit is " + std::to_string(limits_.max_tensor_elements));
  total_bytes_ += n * 8;
  if (total_bytes_ > limits_.max_total_bytes)
    throw TfError("ResourceError", "the run holds more than " + std::to_string(limits_.max_total_bytes >> 20) +
                                       " MiB of tensor data; the limit was reached");
}

TensorId Engine::new_tensor(TensorValue v, TensorKind kind, OpId producer, int out_index, const std::string& label) {
  TensorPtr value = std::make_shared<const TensorValue>(std::move(v));  // before the log has an entry for it
  TensorInfo& info = log_.tensors.emplace_back();
  info.id = next_id_++;
  info.kind = kind;
  info.value = std::move(value);
  info.producer = producer;
  info.output_index = out_index;
  info.line = line_;
  info.label = label;
  log_.index.push_back(static_cast<int64_t>(log_.tensors.size() - 1));
  const TensorValue& kept = *info.value;
  note_heap_frontier(kept.data.size() ? static_cast<const void*>(kept.data.data() + kept.data.size()) : &kept);
  return info.id;
}

OpInfo& Engine::new_op(const std::string& type, OpCategory cat, IdList inputs, const std::string& label) {
  OpInfo& op = log_.ops.emplace_back();
  op.id = next_id_++;
  op.type = type;
  op.label = label.empty() ? type : label;
  op.category = cat;
  op.inputs = std::move(inputs);
  op.line = line_;
  op.control = control_stack_;
  op.grad_call = grad_call_;
  op.function_call = function_stack_.empty() ? kNoId : function_stack_.back();
  log_.index.push_back(-2 - static_cast<int64_t>(log_.ops.size() - 1));
  return op;
}

OpInfo& Engine::op_ref(OpId id) {
  return log_.ops[static_cast<size_t>(-2 - log_.index[static_cast<size_t>(id)])];
}

const TensorInfo& Engine::tensor(TensorId id) const {
  const TensorInfo* t = log_.tensor(id);
  if (!t) throw TfError("InternalError", "no tensor with id " + std::to_string(id));
  return *t;
}

bool Engine::is_variable(TensorId id) const {
  const TensorInfo* t = log_.tensor(id);
  return t && t->kind == TensorKind::VariableHandle;
}

TensorId Engine::constant(TensorValue v, const std::string& label) {
  check_size(v);
  TensorId id = new_tensor(std::move(v), TensorKind::Constant, kNoId, 0, label);
  emit(EventKind::TensorCreated).subject = id;
  return id;
}

void Engine::record_on_tapes(OpInfo& op) {
  for (TapeId tid : active_) {
    Tape& t = *tapes_[static_cast<size_t>(tid - 1)];
    if (stop_gradient_running_) {
      op.not_recorded.emplace_back(tid, NotRecordedReason::StopGradient);
      continue;
    }
    if (t.stop_depth > 0) {
      op.not_recorded.emplace_back(tid, NotRecordedReason::StopRecording);
      continue;
    }
    if (op.category == OpCategory::Stateful || op.category == OpCategory::HostCompute ||
        op.category == OpCategory::HostOut || op.category == OpCategory::HostIn) {
      op.not_recorded.emplace_back(tid, NotRecordedReason::HostOrStateful);
      continue;
    }
    bool any_on = false, record = false;
    for (TensorId in : op.inputs) {
      if (!t.on_tape.count(in)) continue;
      any_on = true;
      if (is_trainable_dtype(tensor(in).dtype())) {
        record = true;
        break;
      }
    }
    if (record) {
      t.records.push_back({op.id, op.inputs});
      for (TensorId out : op.outputs) {
        t.on_tape.insert(out);
        t.tensor_tape[out] = t.records.size() - 1;
      }
      op.recorded_by.push_back(tid);
    } else {
      op.not_recorded.emplace_back(tid, any_on ? NotRecordedReason::NonFloatingInput
                                               : NotRecordedReason::NoWatchedInput);
    }
  }
}

namespace {

std::string format_count(double n) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", n);
  return buf;
}

// What an op costs, roughly: its elements, or its multiply-adds for a product.
double op_work(const OpDef* def, const std::vector<const TensorValue*>& in, const Attrs& attrs,
               const TensorList& outs) {
  // The products, found once (a string compare per op would show in the scalar chain).
  static const OpDef* const kMatMul = OpRegistry::instance().find("MatMul");
  static const OpDef* const kBatchMatMul = OpRegistry::instance().find("BatchMatMulV2");
  static const OpDef* const kEinsum = OpRegistry::instance().find("Einsum");
  double elements = 0;
  for (const TensorValue* v : in) elements += static_cast<double>(v->size());
  for (const TensorValue& v : outs) elements += static_cast<double>(v.size());
  if ((def == kMatMul || def == kBatchMatMul) && in.size() == 2 && in[0]->rank() >= 2 && !outs.empty()) {
    const Shape& a = in[0]->shape;
    const bool ta = attrs.get_bool(def == kMatMul ? "transpose_a" : "adj_x");
    const double k = static_cast<double>(a[a.size() - (ta ? 2 : 1)]);
    return elements + static_cast<double>(outs[0].size()) * k;
  }
  if (def == kEinsum && !outs.empty()) {
    // Every distinct subscript letter is a loop: their sizes multiply.
    const std::string eq = attrs.get_string("equation");
    std::map<char, int64_t> dims;
    size_t operand = 0, axis = 0;
    for (char c : eq) {
      if (c == ',' || c == '-') {
        ++operand;
        axis = 0;
        if (c == '-') break;
      } else if (std::isalpha(static_cast<unsigned char>(c)) && operand < in.size() &&
                 axis < in[operand]->shape.size()) {
        dims[c] = std::max(dims[c], in[operand]->shape[axis++]);
      }
    }
    double loops = 1;
    for (const auto& [c, d] : dims) loops *= static_cast<double>(std::max<int64_t>(d, 1));
    return elements + loops;
  }
  return elements;
}

}  // namespace

namespace {

// Flushes float denormals to ±0 and says whether every element is finite. A read-only
// pass first, branch-free so it vectorizes (the AVX2 clone is chosen at run time); the
// writing pass runs only when a denormal turned up, which is rare.
__attribute__((target_clones("avx2", "default"))) bool flush_and_check(double* d, int64_t n, double tiny) {
  uint64_t bad = 0, small = 0;  // integer ORs vectorize; bool ANDs did not
  for (int64_t i = 0; i < n; ++i) {
    const double x = d[i];
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bad |= (bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull;  // inf or NaN
    small |= std::fabs(x) < tiny && x != 0;
  }
  if (small)
    for (int64_t i = 0; i < n; ++i)
      if (std::fabs(d[i]) < tiny) d[i] = std::copysign(0.0, d[i]);
  return bad == 0;
}

// Returns whether every element is finite (strings are).
bool flush_denormals(TensorValue& v) {
  if (v.dtype == DType::String) return true;
  double tiny = 0;  // other dtypes: nothing is below 0, only the finite check runs
  if (v.dtype == DType::Float32) tiny = static_cast<double>(std::numeric_limits<float>::min());
  else if (v.dtype == DType::Float64) tiny = std::numeric_limits<double>::min();
  return flush_and_check(v.data.data(), v.data.size(), tiny);
}

}  // namespace

const OpInfo& Engine::run_op(const std::string& type, const TensorId* inputs, size_t n, const Attrs& attrs,
                             const std::string& label) {
  const OpDef* def = OpRegistry::instance().find(type);
  if (!def || !def->forward) throw TfError("NotFoundError", "Op type not registered '" + type + "'");
  // No tape records StopGradient, so none records what is computed from it.
  std::optional<StopGradientScope> paused;
  if (type == "StopGradient") paused.emplace(*this);
  IdList ins(inputs, inputs + n);
  for (TensorId& id : ins)
    if (is_variable(id)) id = read_variable(id);  // a variable used as a tensor is read first, as in TF
  // Borrow the scratch list of input values (kernels never call back into the engine).
  std::vector<const TensorValue*> in = std::move(input_scratch_);
  in.clear();
  for (TensorId id : ins) in.push_back(tensor(id).value.get());
  TensorList outs;
  try {
    outs = def->forward(in, attrs);
  } catch (const TfError& err) {
    // Traced ops keep the kernel's words (a tf.function reports its own way), except
    // what graph construction checks first.
    if (tracing()) {
      // Graph construction checks shapes before a kernel runs: a ValueError naming the node.
      if (n == 2 && graph_node_text && err.type() == "InvalidArgumentError") {
        const std::string why = graph_broadcast_error(type, in[0]->shape, in[1]->shape);
        const std::string node = why.empty() ? "" : graph_node_text(type, label, std::vector<TensorId>(ins.begin(), ins.end()));
        if (!node.empty())
          throw TfError("ValueError", why + " for '" + node + "' with input shapes: " + shape_list_str(in[0]->shape) +
                                          ", " + shape_list_str(in[1]->shape) + ".");
      }
      throw graph_op_error(err);
    }
    if (err.type() == "ResourceError") throw;
    throw TfError(err.type(), eager_op_message(err.what(), label, n, attrs.has("num") ? attrs.get_int("num") : -1));
  }
  // TF runs every eager kernel with denormals flushed to zero (ScopedFlushDenormal):
  // a float32/float64 result below the smallest normal number is ±0.
  bool finite = true;
  for (TensorValue& o : outs) finite &= flush_denormals(o);
  total_work_ += op_work(def, in, attrs, outs);
  input_scratch_ = std::move(in);
  if (total_work_ > limits_.max_work)
    throw TfError("ResourceError", "the run's ops did more than " + format_count(limits_.max_work) +
                                       " arithmetic operations; the limit was reached");
  for (const auto& o : outs) check_size(o);
  OpInfo& op = new_op(type, def->category, std::move(ins), label);
  op.attrs = attrs;
  op.def = def;
  op.outputs.reserve(outs.size());
  for (size_t i = 0; i < outs.size(); ++i)
    op.outputs.push_back(new_tensor(std::move(outs[i]), TensorKind::OpOutput, op.id, static_cast<int>(i), op.label));
  record_on_tapes(op);
  emit(EventKind::OpExecuted).op = op.id;
  if (!finite) check_nonfinite(op);
  return op;
}

namespace {

bool all_finite(const TensorValue& v) { return v.dtype == DType::String || v.data.allFinite(); }

std::string brief(const TensorValue& v) {
  return v.size() <= 6 ? format_numpy(v) : std::string(dtype_name(v.dtype)) + " " + shape_str(v.shape);
}

}  // namespace

void Engine::check_nonfinite(const OpInfo& op) {
  const CallId pass = grad_call_;
  // (At most 8 in a run: a jacobian is a backward pass per row.)
  if (alerted_.size() >= 8 || std::find(alerted_.begin(), alerted_.end(), pass) != alerted_.end()) return;
  TensorId bad = kNoId;
  for (TensorId out : op.outputs)
    if (!all_finite(value(out))) {
      bad = out;
      break;
    }
  if (bad == kNoId) return;
  for (TensorId in : op.inputs)
    if (!is_variable(in) && !all_finite(value(in))) return;  // it came in: not where it began
  alerted_.push_back(pass);
  std::string from;
  for (TensorId in : op.inputs) from += (from.empty() ? "" : ", ") + brief(value(in));
  std::string where;
  if (pass != kNoId) {
    const OpInfo* f = differentiating_ == kNoId ? nullptr : log_.op(differentiating_);
    where = f ? ", computing the gradient of " + f->label + (f->label == f->type ? "" : " (" + f->type + ")") +
                    " at line " + std::to_string(f->line)
              : ", in a backward pass";
  }
  const TensorValue& out = value(bad);
  std::string what;
  for (Eigen::Index i = 0; i < out.data.size() && what.empty(); ++i)
    if (!std::isfinite(out.data[i])) what = std::isnan(out.data[i]) ? "nan" : out.data[i] > 0 ? "inf" : "-inf";
  Event& e = emit(EventKind::Alert);
  e.op = op.id;
  e.subject = bad;
  e.line = op.line;
  e.inputs = op.inputs;
  e.text = "NaN or Inf: " + op.label + (op.label == op.type ? "" : " (" + op.type + ")") + " at line " +
           std::to_string(op.line) + " produced " + what + (from.empty() ? "" : " from the finite inputs (" + from + ")") +
           where;
}

std::vector<TensorId> Engine::execute(const std::string& type, const std::vector<TensorId>& inputs,
                                      const Attrs& attrs, const std::string& label) {
  return run_op(type, inputs.data(), inputs.size(), attrs, label).outputs;
}

TensorId Engine::execute1(const std::string& type, const std::vector<TensorId>& inputs, const Attrs& attrs,
                          const std::string& label) {
  return run_op(type, inputs.data(), inputs.size(), attrs, label).outputs.at(0);
}

TensorId Engine::execute1(const std::string& type, std::initializer_list<TensorId> inputs, const Attrs& attrs,
                          const std::string& label) {
  return run_op(type, inputs.begin(), inputs.size(), attrs, label).outputs.at(0);
}

// --- host boundary ---
TensorId Engine::to_host(TensorId t, const std::string& label) {
  OpInfo& op0 = new_op("HostOut", OpCategory::HostOut, {t}, label);
  const OpId id = op0.id;
  TensorPtr v = tensor(t).value;
  TensorId out = new_tensor(*v, TensorKind::HostValue, id, 0, label);
  OpInfo& op = op_ref(id);
  op.outputs = {out};
  record_on_tapes(op);
  emit(EventKind::OpExecuted).op = id;
  return out;
}

std::vector<TensorId> Engine::host_op(const std::string& label, const std::vector<TensorId>& inputs,
                                      std::vector<TensorValue> outputs) {
  for (auto& o : outputs) check_size(o);
  OpInfo& op0 = new_op("HostCompute", OpCategory::HostCompute, inputs, label);
  const OpId id = op0.id;
  std::vector<TensorId> outs;
  for (size_t i = 0; i < outputs.size(); ++i)
    outs.push_back(new_tensor(std::move(outputs[i]), TensorKind::HostValue, id, static_cast<int>(i), label));
  OpInfo& op = op_ref(id);
  op.outputs = outs;
  record_on_tapes(op);
  emit(EventKind::OpExecuted).op = id;
  check_nonfinite(op);
  return outs;
}

TensorId Engine::from_host(TensorValue v, const std::vector<TensorId>& provenance, const std::string& label) {
  if (provenance.empty()) return constant(std::move(v), label);
  OpInfo& op0 = new_op("Const", OpCategory::HostIn, provenance, label);
  const OpId id = op0.id;
  TensorId out = new_tensor(std::move(v), TensorKind::Constant, id, 0, label);
  OpInfo& op = op_ref(id);
  op.outputs = {out};
  record_on_tapes(op);
  emit(EventKind::OpExecuted).op = id;
  return out;
}

std::vector<TensorId> Engine::stateful_op(const std::string& type, const std::vector<TensorId>& state_inputs,
                                          std::vector<TensorValue> outputs, const std::string& label) {
  for (auto& o : outputs) check_size(o);
  OpInfo& op0 = new_op(type, OpCategory::Stateful, {}, label);
  const OpId id = op0.id;
  op0.state_inputs = state_inputs;
  std::vector<TensorId> outs;
  for (size_t i = 0; i < outputs.size(); ++i)
    outs.push_back(new_tensor(std::move(outputs[i]), TensorKind::OpOutput, id, static_cast<int>(i), label));
  OpInfo& op = op_ref(id);
  op.outputs = outs;
  record_on_tapes(op);
  emit(EventKind::OpExecuted).op = id;
  return outs;
}

// --- variables ---
std::string Engine::unique_variable_name(const std::string& base) {
  // TF appends "_1", "_2" to repeated names in graph mode only; eager keeps the name.
  return base + ":0";
}

TensorId Engine::create_variable(TensorId initial, const std::string& name, bool trainable,
                                 const std::string& keras_path) {
  const TensorValue& iv = value(initial);
  TensorValue handle = make_scalar(DType::Resource, 0);
  TensorId h = new_tensor(std::move(handle), TensorKind::VariableHandle, kNoId, 0, name);
  VariableInfo vi;
  vi.id = h;
  vi.name = name;
  vi.path = keras_path;
  vi.keras = !keras_path.empty();
  vi.trainable = trainable;
  vi.dtype = iv.dtype;
  vi.shape = iv.shape;
  vi.line = line_;
  vi.versions.push_back(initial);
  if (var_index_.size() <= static_cast<size_t>(h)) var_index_.resize(static_cast<size_t>(h) + 1, -1);
  var_index_[static_cast<size_t>(h)] = static_cast<int64_t>(log_.variables.size());
  log_.variables.push_back(std::move(vi));
  Event& e = emit(EventKind::VariableCreated);
  e.subject = h;
  e.outputs = {initial};
  e.name = name;
  return h;
}

const VariableInfo& Engine::variable(TensorId var) const {
  if (var < 0 || static_cast<size_t>(var) >= var_index_.size() || var_index_[static_cast<size_t>(var)] < 0)
    throw TfError("InternalError", "no variable with id " + std::to_string(var));
  return log_.variables[static_cast<size_t>(var_index_[static_cast<size_t>(var)])];
}

void Engine::auto_watch_on_read(TensorId var) {
  if (stop_gradient_running_) return;  // no tape is listening
  const VariableInfo& vi = variable(var);
  for (TapeId tid : active_) {
    Tape& t = tape_ref(tid);
    if (!t.recording()) continue;
    if (t.watched_set.count(var)) continue;
    if (vi.trainable && t.watch_accessed_variables) {
      t.watched_set.insert(var);
      t.on_tape.insert(var);
      t.watched_variables.insert(std::upper_bound(t.watched_variables.begin(), t.watched_variables.end(), var), var);
      Event& e = emit(EventKind::Watch);
      e.tape = tid;
      e.subject = var;
      e.name = "variable access";
    } else {
      Event& e = emit(EventKind::AccessNotWatched);
      e.tape = tid;
      e.subject = var;
      e.text = !vi.trainable ? "not trainable (trainable=False)" : "watch_accessed_variables=False";
    }
  }
}

TensorId Engine::read_variable(TensorId var, const std::string& label) {
  const VariableInfo& vi = variable(var);
  auto_watch_on_read(var);
  const TensorId current = vi.versions.back();
  OpInfo& op0 = new_op("ReadVariableOp", OpCategory::VariableRead, {var}, label.empty() ? vi.name : label);
  const OpId id = op0.id;
  op0.state_inputs = {current};
  TensorPtr v = tensor(current).value;
  // The read shares the stored value: no copy.
  TensorInfo info;
  info.id = next_id_++;
  info.kind = TensorKind::OpOutput;
  info.value = v;
  info.producer = id;
  info.line = line_;
  info.label = vi.name;
  log_.index.push_back(static_cast<int64_t>(log_.tensors.size()));
  log_.tensors.push_back(std::move(info));
  const TensorId out = log_.tensors.back().id;
  OpInfo& op = op_ref(id);
  op.outputs = {out};
  record_on_tapes(op);
  emit(EventKind::OpExecuted).op = id;
  return out;
}

void Engine::assign(TensorId var, TensorId val, const std::string& op_type) {
  const VariableInfo& vi0 = variable(var);
  const TensorValue& nv = value(val);
  // assign checks shapes in Python (a ValueError); assign_add/assign_sub leave it to
  // the kernel (ValidateAssignUpdateVariableOpShapes).
  if (nv.shape != vi0.shape && op_type == "AssignVariableOp")
    throw TfError("ValueError", "Cannot assign value to variable ' " + vi0.name +
                                    "': Shape mismatch.The variable shape " + shape_str(vi0.shape) +
                                    ", and the assigned value shape " + shape_str(nv.shape) + " are incompatible.");
  if (nv.shape != vi0.shape)
    throw TfError("InvalidArgumentError",
                  eager_op_message("Cannot update variable with shape " + shape_list_str(vi0.shape) +
                                       " using a Tensor with shape " + shape_list_str(nv.shape) +
                                       ", shapes must be equal. [Op:" + op_type + "]",
                                   op_type, 2));
  if (nv.dtype != vi0.dtype)
    throw TfError("InvalidArgumentError", "Cannot update variable with dtype " + std::string(dtype_name(vi0.dtype)) +
                                              " using a tensor with dtype " + std::string(dtype_name(nv.dtype)));
  const TensorValue& old = value(vi0.versions.back());
  TensorValue result;
  const bool add = op_type == "AssignAddVariableOp";
  if (!add && op_type != "AssignSubVariableOp")
    result = nv;
  else if (old.dtype == DType::Float32)  // computed and rounded in one pass
    result = make_tensor_rounded(old.dtype, old.shape,
                                 add ? Eigen::ArrayXd((old.data + nv.data).cast<float>().cast<double>())
                                     : Eigen::ArrayXd((old.data - nv.data).cast<float>().cast<double>()));
  else
    result = make_tensor(old.dtype, old.shape, add ? Eigen::ArrayXd(old.data + nv.data) : Eigen::ArrayXd(old.data - nv.data));
  const TensorId prev = vi0.versions.back();
  OpInfo& op0 = new_op(op_type, OpCategory::Stateful, {var, val}, vi0.name + "." +
                       (op_type == "AssignVariableOp" ? "assign" : op_type == "AssignAddVariableOp" ? "assign_add" : "assign_sub"));
  const OpId id = op0.id;
  if (op_type != "AssignVariableOp") op0.state_inputs = {prev};
  TensorId out = new_tensor(std::move(result), TensorKind::StateValue, id, 0, vi0.name);
  OpInfo& op = op_ref(id);
  op.outputs = {out};
  record_on_tapes(op);
  emit(EventKind::OpExecuted).op = id;
  VariableInfo& vi = log_.variables[static_cast<size_t>(var_index_[static_cast<size_t>(var)])];
  vi.versions.push_back(out);
  Event& e = emit(EventKind::VariableAssigned);
  e.subject = var;
  e.op = id;
  e.outputs = {out};
}

// --- tapes ---
Tape& Engine::tape_ref(TapeId t) {
  if (t < 1 || static_cast<size_t>(t) > tapes_.size()) throw TfError("InternalError", "no tape " + std::to_string(t));
  return *tapes_[static_cast<size_t>(t - 1)];
}
const Tape& Engine::tape(TapeId t) const { return *tapes_.at(static_cast<size_t>(t - 1)); }
Tape& Engine::tape_mut(TapeId t) { return tape_ref(t); }

TapeId Engine::create_tape(bool persistent, bool watch_accessed, const std::string& name) {
  auto t = std::make_unique<Tape>();
  t->id = static_cast<TapeId>(tapes_.size() + 1);
  t->name = name;
  t->persistent = persistent;
  t->watch_accessed_variables = watch_accessed;
  tapes_.push_back(std::move(t));
  TapeInfo info{tapes_.back()->id, name, persistent, watch_accessed, line_};
  log_.tapes.push_back(info);
  Event& e = emit(EventKind::TapeCreated);
  e.tape = info.id;
  e.name = name;
  return info.id;
}

TapeId Engine::graph_gradients_tape(const std::vector<TensorId>& sources) {
  if (function_stack_.empty()) throw TfError("InternalError", "tf.gradients outside a traced function");
  const OpId call = function_stack_.back();
  const TapeId id = create_tape(true, false, "tf.gradients");
  Tape& t = tape_ref(id);
  t.state = TapeState::Exited;
  t.first_entered_id = call;
  for (TensorId x : sources) {
    const bool var = is_variable(x);
    if (!is_floating(var ? variable(x).dtype : tensor(x).dtype())) continue;  // graph gradients skip them, silently
    watch(id, x);
    t.first_watch[x] = Tape::WatchMark{call, line_};  // the graph holds it from its start
  }
  // The ops of this graph are those made since its call began (ops have rising ids),
  // with the recording rule's filters: no state or host ops, a floating input at least.
  size_t k = log_.ops.size();
  while (k > 0 && log_.ops[k - 1].id > call) --k;
  for (; k < log_.ops.size(); ++k) {
    OpInfo& op = log_.ops[k];
    if (op.category == OpCategory::Stateful || op.category == OpCategory::HostCompute ||
        op.category == OpCategory::HostOut || op.category == OpCategory::HostIn)
      continue;
    const bool floating = std::any_of(op.inputs.begin(), op.inputs.end(), [&](TensorId in) {
      return is_trainable_dtype(is_variable(in) ? variable(in).dtype : tensor(in).dtype());
    });
    if (!floating) continue;
    t.records.push_back({op.id, op.inputs});
    op.recorded_by.push_back(id);  // so the Tape view lists the graph's ops as this tape's records
    for (TensorId in : op.inputs) t.on_tape.insert(in);
    for (TensorId out : op.outputs) {
      t.on_tape.insert(out);
      t.tensor_tape[out] = t.records.size() - 1;
    }
  }
  return id;
}

void Engine::enter_tape(TapeId tid) {
  Tape& t = tape_ref(tid);
  if (t.state == TapeState::Recording)
    throw TfError("ValueError", "Tape is still recording, This can happen if you try to re-enter an already-active tape.");
  if (t.state == TapeState::Consumed) {
    // A consumed non-persistent tape starts a fresh internal tape, as TF does.
    t.clear_records();
    t.used = false;
  }
  t.state = TapeState::Recording;
  t.stop_depth = 0;
  if (t.first_entered_id == 0) t.first_entered_id = next_id_;
  active_.push_back(tid);
  emit(EventKind::TapeEntered).tape = tid;
}

void Engine::exit_tape(TapeId tid) {
  Tape& t = tape_ref(tid);
  if (t.state == TapeState::Recording) {
    t.state = TapeState::Exited;
    active_.erase(std::remove(active_.begin(), active_.end(), tid), active_.end());
  }
  emit(EventKind::TapeExited).tape = tid;
}

bool Engine::any_recording() const {
  for (TapeId tid : active_)
    if (tapes_[static_cast<size_t>(tid - 1)]->recording()) return true;
  return false;
}

void Engine::watch(TapeId tid, TensorId x) {
  Tape& t = tape_ref(tid);
  const bool var = is_variable(x);
  const DType d = var ? variable(x).dtype : tensor(x).dtype();
  Event& e = emit(EventKind::Watch);
  e.tape = tid;
  e.subject = x;
  e.name = "watch";
  // TF warns for any non-trainable dtype, a variable's included (backprop_util.IsTrainable).
  if (!is_floating(d)) {
    const std::string msg = "The dtype of the watched tensor must be floating (e.g. tf.float32), got " + dtype_tf_name(d);
    e.text = msg;
    // log_first_n(WARN, ..., 5) counts per caller: five times per line of the script.
    if (int_watch_warnings_[line_]++ < 5) warning_tf(msg);
  }
  if (!t.first_watch.find(x)) t.first_watch[x] = Tape::WatchMark{next_id_, line_};
  if (var) {
    if (!t.watched_set.count(x)) {
      t.watched_set.insert(x);
      t.on_tape.insert(x);
      t.watched_variables.insert(std::upper_bound(t.watched_variables.begin(), t.watched_variables.end(), x), x);
    }
    return;
  }
  if (!t.watched_set.count(x)) {
    t.watched_set.insert(x);
    t.watched.push_back(x);
  }
  t.on_tape.insert(x);
}

void Engine::stop_recording_begin(TapeId tid) {
  Tape& t = tape_ref(tid);
  if (t.state == TapeState::Created || t.state == TapeState::Consumed)
    throw TfError("RuntimeError", "Trying to stop recording a tape which is not recording.");
  if (t.state != TapeState::Recording || t.stop_depth > 0) throw TfError("ValueError", "Tape is not recording.");
  ++t.stop_depth;
  emit(EventKind::StopRecordingBegan).tape = tid;
}

void Engine::stop_recording_end(TapeId tid) {
  Tape& t = tape_ref(tid);
  if (t.stop_depth > 0) --t.stop_depth;
  if (t.state == TapeState::Consumed) {
    // A non-persistent tape used up inside the block: its end pushes a fresh tape that
    // records again, nothing watched (TF's _push_tape finds self._tape is None).
    t.clear_records();
    t.used = false;
    t.state = TapeState::Recording;
    t.stop_depth = 0;
    if (std::find(active_.begin(), active_.end(), tid) == active_.end()) active_.push_back(tid);
    emit(EventKind::TapeReset).tape = tid;
  }
  emit(EventKind::StopRecordingEnded).tape = tid;
}

void Engine::reset_tape(TapeId tid) {
  Tape& t = tape_ref(tid);
  if (!t.recording()) throw TfError("ValueError", "Tape is not recording.");
  for (TensorId w : t.watched) t.watch_reset_line[w] = line_;
  for (TensorId w : t.watched_variables) t.watch_reset_line[w] = line_;
  t.clear_records();
  t.used = false;
  emit(EventKind::TapeReset).tape = tid;
}

std::vector<TensorId> Engine::watched_variables(TapeId t) const { return tape(t).watched_variables; }

// --- interpreter facts ---
namespace {
const std::vector<size_t> kNoPositions;
}
const std::vector<size_t>& Engine::bindings_of_key(const std::string& key) const {
  auto it = bindings_by_key_.find(key);
  return it == bindings_by_key_.end() ? kNoPositions : it->second;
}
const std::vector<size_t>& Engine::variable_bindings_of_key(const std::string& key) const {
  auto it = variable_bindings_by_key_.find(key);
  return it == variable_bindings_by_key_.end() ? kNoPositions : it->second;
}
const std::vector<size_t>& Engine::bindings_of_id(int64_t id) const {
  auto it = bindings_by_id_.find(id);
  return it == bindings_by_id_.end() ? kNoPositions : it->second;
}
void Engine::bind_name(const std::string& name, int64_t id, const std::string& python_type, const std::string& key) {
  bindings_.push_back({name, id, line_, key.empty() ? name : key});
  const Binding& b = bindings_.back();
  bindings_by_key_[b.key].push_back(bindings_.size() - 1);
  if (b.id != kNoId && is_variable(b.id)) variable_bindings_by_key_[b.key].push_back(bindings_.size() - 1);
  bindings_by_id_[b.id].push_back(bindings_.size() - 1);
  Event& e = emit(EventKind::NameBound);
  e.name = name;
  e.subject = id;
  e.text = python_type;
}

void Engine::branch_taken(TensorId cond, const std::string& what, int untaken_line,
                          const std::vector<std::string>& untaken_names) {
  branches_.push_back({cond, line_, untaken_line, untaken_names, log_.events.size()});
  Event& e = emit(EventKind::BranchTaken);
  e.subject = cond;
  e.name = what;
  e.inputs = {untaken_line};
}

void Engine::untaken_branch(int untaken_line, const std::vector<std::string>& untaken_names) {
  // A loop skips the same branch every time round: one entry per branch, the latest skip.
  auto [it, fresh] = untaken_index_.emplace(untaken_line, branches_.size());
  if (!fresh) {
    branches_[it->second].line = line_;
    branches_[it->second].event = log_.events.size();
    return;
  }
  branches_.push_back({kNoId, line_, untaken_line, untaken_names, log_.events.size()});
}

void Engine::push_control(TensorId cond) { control_stack_.push_back(cond); }
void Engine::pop_control() {
  if (!control_stack_.empty()) control_stack_.pop_back();
}
void Engine::control_use(TensorId value) {
  for (TensorId c : control_stack_) extra_edges_.emplace_back(c, value);
}

OpId Engine::function_call_begin(const std::string& name, const std::vector<TensorId>& inputs) {
  const OpId id = next_id_++;
  log_.index.push_back(-1);
  function_stack_.push_back(id);
  Event& e = emit(EventKind::FunctionCallStarted);
  e.subject = id;
  e.name = name;
  e.inputs = inputs;
  return id;
}

void Engine::function_call_end(OpId call, const std::vector<TensorId>& outputs) {
  if (!function_stack_.empty() && function_stack_.back() == call) function_stack_.pop_back();
  Event& e = emit(EventKind::FunctionCallEnded);
  e.subject = call;
  e.outputs = outputs;
}

void Engine::output(const std::string& line) { emit(EventKind::Output).text = line; }
void Engine::warning(const std::string& text) { emit(EventKind::Warning).text = text; }
void Engine::warning_tf(const std::string& text) { warning("WARNING:tensorflow:" + text); }
void Engine::error(const std::string& type, const std::string& message, int line) {
  Event& e = emit(EventKind::Error);
  e.name = type;
  e.text = message;
  e.line = line;
}
void Engine::plot(const std::string& json) { emit(EventKind::Plot).text = json; }

}  // namespace ts

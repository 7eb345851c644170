// GradientTape.gradient / jacobian / batch_jacobian: TF's checks and messages around
// the backward pass, the results and their diagnoses, all written to the log.
#include <algorithm>
#include <unordered_set>

#include "backward.h"
#include "diagnosis.h"
#include "engine.h"

namespace ts {

namespace {


}  // namespace

std::vector<TensorId> Engine::gradient(const GradientRequest& request) {
  GradientRequest req = request;
  Tape& t = tape_ref(req.tape);
  if (t.state == TapeState::Created || t.state == TapeState::Consumed)
    throw TfError("RuntimeError",
                  "A non-persistent GradientTape can only be used to compute one set of gradients (or jacobians)");
  // Inside stop_recording() the tape is already off: no pop and no warning (TF checks
  // self._recording).
  if (t.recording()) {
    if (!t.persistent) {
      // Inside its own block, a non-persistent tape stops recording first (silently).
      t.state = TapeState::Exited;
      active_.erase(std::remove(active_.begin(), active_.end(), t.id), active_.end());
    } else if (persistent_inside_warned_.insert(req.jacobian_row ? -1 : line_).second) {
      // log_first_n(WARN, ..., 1) counts per caller outside backprop.py: the script's
      // line, or for a jacobian's rows pfor's own frame (one key for them all).
      warning_tf(
          "Calling GradientTape.gradient on a persistent tape inside its context is significantly less efficient "
          "than calling it outside the context (it causes the gradient ops to be recorded on the tape, leading to "
          "increased CPU and memory usage). Only call GradientTape.gradient inside the context if you actually "
          "want to trace the gradient in order to compute higher order derivatives.");
    }
  }

  // backprop.py converts a variable target inside `with self:`, so the tape records that
  // read only if it watches the variable (or starts to now, on access); re-entering a
  // tape that is still recording raises.
  if (req.kind == "gradient" && !req.jacobian_row)
    for (TensorId& target : req.targets) {
      if (!is_variable(target)) continue;
      if (t.recording())
        throw TfError("ValueError", "Tape is still recording, This can happen if you try to re-enter an already-active tape.");
      const TapeState state = t.state;
      const int stop_depth = t.stop_depth;
      const bool active = std::find(active_.begin(), active_.end(), t.id) != active_.end();
      if (!active) active_.push_back(t.id);
      t.state = TapeState::Recording;
      t.stop_depth = 0;
      target = read_variable(target);
      t.state = state;
      t.stop_depth = stop_depth;
      if (!active) active_.erase(std::remove(active_.begin(), active_.end(), t.id), active_.end());
    }

  GradientCall call;
  call.id = next_call_id_++;
  call.tape = t.id;
  call.line = line_;
  call.kind = req.kind;
  call.targets = req.targets;
  call.zero_requested = req.unconnected == Unconnected::Zero;
  call.jacobian_row = req.jacobian_row;
  Event& start = emit(EventKind::GradientCallStarted);
  start.call = call.id;
  start.tape = t.id;
  start.inputs = req.targets;
  for (const auto& s : req.sources) start.outputs.push_back(s.id);

  const CallId outer_call = grad_call_;
  const TapeId outer_tape = grad_tape_;
  grad_call_ = call.id;
  grad_tape_ = t.id;
  // Seeds: ones of each target's own dtype, or the given output gradient.
  std::vector<TensorId> seeds;
  for (size_t i = 0; i < req.targets.size(); ++i) {
    const TensorId og = i < req.output_gradients.size() ? req.output_gradients[i] : kNoId;
    if (og != kNoId) {
      seeds.push_back(og);
      continue;
    }
    const DType dt = dtype_of(req.targets[i]);
    seeds.push_back(dt == DType::String ? kNoId : constant(make_filled(dt, shape_of(req.targets[i]), 1.0), "ones"));
  }
  std::vector<TensorId> targets;
  std::vector<TensorId> live_seeds;
  for (size_t i = 0; i < seeds.size(); ++i)
    if (seeds[i] != kNoId) {
      targets.push_back(req.targets[i]);
      live_seeds.push_back(seeds[i]);
    }
  std::vector<TensorId> source_ids;
  for (const auto& s : req.sources) source_ids.push_back(s.id);

  std::vector<TensorId> grads;
  try {
    grads = run_backward(*this, t, targets, live_seeds, source_ids);
  } catch (const TfError& err) {
    grad_call_ = outer_call;
    grad_tape_ = outer_tape;
    call.error = err.type() + ": " + err.what();
    log_.gradient_calls.push_back(call);
    Event& end = emit(EventKind::GradientCallEnded);
    end.call = call.id;
    end.text = call.error;
    throw;
  }

  DiagnosisInput din;
  din.tape = &t;
  din.targets = req.targets;
  din.call_line = call.line;
  for (size_t i = 0; i < req.sources.size(); ++i) {
    SourceResult r;
    r.label = req.sources[i].label;
    r.source = req.sources[i].id;
    r.grad = grads[i];
    // A gradient w.r.t. a variable comes back with the variable's dtype; a string source never gets one.
    if (r.grad != kNoId && dtype_of(r.source) == DType::String) r.grad = kNoId;
    if (r.grad == kNoId) {
      if (din.recorded.empty()) {  // only a None needs the diagnosis' view of the records
        din.recorded.reserve(t.records.size());
        for (const TapeEntry& rec : t.records) din.recorded.insert(rec.op);
      }
      din.source = r.source;
      din.label = r.label;
      Diagnosis d = diagnose(*this, din);
      if (req.unconnected == Unconnected::Zero) {
        d.zero_by_request = true;
        r.grad = constant(make_filled(dtype_of(r.source), shape_of(r.source), 0.0), "zeros");
      }
      r.diagnosis = std::move(d);
    }
    grads[i] = r.grad;
    log_result(call, std::move(r));
  }
  grad_call_ = outer_call;
  grad_tape_ = outer_tape;
  log_.gradient_calls.push_back(std::move(call));
  Event& end = emit(EventKind::GradientCallEnded);
  end.call = log_.gradient_calls.back().id;
  end.tape = t.id;

  if (!t.persistent) {
    // The records are dropped; watched_variables() still answers.
    t.state = TapeState::Consumed;
    t.used = true;
    t.drop_records();
    active_.erase(std::remove(active_.begin(), active_.end(), t.id), active_.end());
    emit(EventKind::TapeConsumed).tape = t.id;
  }
  return grads;
}

void Engine::check_batch_jacobian(TensorId target, TensorId source) const {
  const Shape tshape = shape_of(target);
  const Shape sshape = shape_of(source);
  if (tshape.size() < 2) throw TfError("ValueError", "Shape " + shape_str(tshape) + " must have rank at least 2");
  if (sshape.size() < 2) throw TfError("ValueError", "Shape " + shape_str(sshape) + " must have rank at least 2");
  if (tshape[0] != sshape[0])
    throw TfError("ValueError", "Need first dimension of target shape (" + shape_str(tshape) + ") and source shape (" +
                                    shape_str(sshape) + ") to match.");
}

TensorId Engine::jacobian(TapeId tid, TensorId target, const SourceSpec& source, Unconnected u, bool batch) {
  Tape& t = tape_ref(tid);
  const Shape tshape = shape_of(target);
  const Shape sshape = shape_of(source.id);
  if (batch) check_batch_jacobian(target, source.id);
  // backprop.py first reshapes the target (and gathers its rows) with the tape recording:
  // differentiating a source with respect to itself goes through that new tensor, which
  // the tape has only if it records ops on the source (watched and floating), not through
  // gradient()'s "a target that is a source" ones.
  if (target == source.id) {
    struct Recording {  // _ensure_recording(): the tape records for the reshape, then is as it was
      Engine& e;
      Tape& t;
      TapeState state = t.state;
      int stop_depth = t.stop_depth;
      bool pushed = state != TapeState::Recording;
      Recording(Engine& engine, Tape& tape) : e(engine), t(tape) {
        if (pushed) e.active_.push_back(t.id);
        t.state = TapeState::Recording;
        t.stop_depth = 0;
      }
      ~Recording() {
        t.state = state;
        t.stop_depth = stop_depth;
        if (pushed) e.active_.pop_back();
      }
    } recording(*this, t);
    target = execute1("Reshape", {target}, Attrs{{"shape", tshape}}, "jacobian");
  }
  // One backward pass per target element, each seeded with a one-hot cotangent, on a
  // tape kept alive until the last row; a non-persistent tape is consumed once at the end.
  const bool was_persistent = t.persistent;
  if (!was_persistent && t.recording()) {
    // The first row's gradient() stops a non-persistent tape recording, silently.
    t.state = TapeState::Exited;
    active_.erase(std::remove(active_.begin(), active_.end(), t.id), active_.end());
  }
  t.persistent = true;
  const int64_t n = num_elements(tshape);
  const DType dt = dtype_of(target);
  // jacobian: one pass per target element. batch_jacobian: one per element of a batch row
  // (backprop.py's loop_fn gathers column i of the [batch, -1] target and differentiates
  // it whole, so result[b, i] sums the gradients of every batch's element i w.r.t. x[b]).
  const int64_t batch_size = batch && !tshape.empty() ? tshape[0] : 0;
  const int64_t passes = batch ? (batch_size > 0 ? n / batch_size : 0) : n;
  std::vector<TensorId> rows;
  bool any = false;
  std::optional<Diagnosis> row_diagnosis;  // why the first None row is None
  try {
    // No element: pfor still traces its loop body once, so the result is connected (an
    // empty tensor) when a gradient reaches the source. One pass, seeded with the empty
    // cotangent, tells.
    for (int64_t i = 0; i < std::max<int64_t>(passes, 1); ++i) {
      TensorValue onehot = make_filled(dt, tshape, 0.0);
      if (passes > 0 && batch)
        for (int64_t k = 0; k < batch_size; ++k) onehot.data[k * passes + i] = 1.0;
      else if (passes > 0)
        onehot.data[i] = 1.0;
      GradientRequest r;
      r.tape = tid;
      r.targets = {target};
      r.output_gradients = {constant(std::move(onehot), "one-hot")};
      r.sources = {source};
      r.kind = batch ? "batch_jacobian" : "jacobian";
      r.jacobian_row = true;
      TensorId g = gradient(r)[0];
      if (g == kNoId && !row_diagnosis) {
        const SourceResult& res = log_.gradient_calls.back().results.at(0);
        if (res.diagnosis) row_diagnosis = res.diagnosis;
      }
      if (g == kNoId) {
        g = constant(make_filled(dtype_of(source.id), sshape, 0.0), "zeros");
      } else {
        any = true;
      }
      if (passes > 0) rows.push_back(g);
    }
  } catch (...) {
    t.persistent = was_persistent;
    throw;
  }
  t.persistent = was_persistent;
  if (!was_persistent) {
    t.state = TapeState::Consumed;
    t.used = true;
    t.drop_records();
    active_.erase(std::remove(active_.begin(), active_.end(), t.id), active_.end());
    emit(EventKind::TapeConsumed).tape = t.id;
  }
  // batch_jacobian returns zeros (the target's dtype) where no row had a gradient,
  // whatever unconnected_gradients says: backprop.py keeps that older behaviour.
  if (!any && batch) {
    Shape out{tshape.empty() ? 0 : tshape[0]};
    out.insert(out.end(), tshape.begin() + (tshape.empty() ? 0 : 1), tshape.end());
    out.insert(out.end(), sshape.begin() + (sshape.empty() ? 0 : 1), sshape.end());
    return log_jacobian(tid, target, source, constant(make_filled(dt, out, 0.0), "batch_jacobian"), any, u,
                        row_diagnosis, batch);
  }
  if (!any && u == Unconnected::None) return log_jacobian(tid, target, source, kNoId, any, u, row_diagnosis, batch);
  if (batch) {
    Shape out{batch_size};
    out.insert(out.end(), tshape.begin() + 1, tshape.end());
    out.insert(out.end(), sshape.begin() + 1, sshape.end());
    if (rows.empty() || num_elements(sshape) == 0)
      return log_jacobian(tid, target, source, constant(make_filled(dtype_of(source.id), out, 0.0), "batch_jacobian"),
                          any, u, row_diagnosis, batch);
    // Each pass's gradient is [batch, source row]: stacked along axis 1, [batch, rows, ...].
    const TensorId packed = execute1("Pack", rows, Attrs{{"axis", int64_t{1}}}, "batch_jacobian");
    const TensorId bj = execute1("Reshape", {packed}, Attrs{{"shape", out}}, "batch_jacobian");
    return log_jacobian(tid, target, source, bj, any, u, row_diagnosis, batch);
  }
  Shape full = tshape;
  full.insert(full.end(), sshape.begin(), sshape.end());
  TensorId j;
  if (rows.empty()) {
    j = constant(make_filled(dtype_of(source.id), full, 0.0), "jacobian");
  } else {
    j = execute1("Pack", rows, Attrs{{"axis", int64_t{0}}}, "jacobian");
    j = execute1("Reshape", {j}, Attrs{{"shape", full}}, "jacobian");
  }
  return log_jacobian(tid, target, source, j, any, u, row_diagnosis, batch);
}

TensorId Engine::log_jacobian(TapeId tid, TensorId target, const SourceSpec& source, TensorId result, bool any,
                              Unconnected u, const std::optional<Diagnosis>& row_diagnosis, bool batch) {
  // The jacobian as one call: its value, and when no row had a gradient, the rows' diagnosis.
  GradientCall call;
  call.id = next_call_id_++;
  call.tape = tid;
  call.line = line_;
  call.kind = batch ? "batch_jacobian" : "jacobian";
  call.targets = {target};
  call.zero_requested = u == Unconnected::Zero;
  Event& start = emit(EventKind::GradientCallStarted);
  start.call = call.id;
  start.tape = tid;
  start.inputs = {target};
  start.outputs = {source.id};
  SourceResult r;
  r.label = source.label;
  r.source = source.id;
  r.grad = result;
  if (!any && row_diagnosis) {
    r.diagnosis = row_diagnosis;
    r.diagnosis->zero_by_request = u == Unconnected::Zero;
  }
  log_result(call, std::move(r));
  log_.gradient_calls.push_back(std::move(call));
  emit(EventKind::GradientCallEnded).call = log_.gradient_calls.back().id;
  return result;
}

void Engine::log_result(GradientCall& call, SourceResult r) {
  Event& ev = emit(EventKind::GradientResult);
  ev.call = call.id;
  ev.subject = r.source;
  ev.outputs = {r.grad};
  ev.name = r.label;
  if (r.diagnosis) ev.text = cause_code(r.diagnosis->code);
  call.results.push_back(std::move(r));
}

}  // namespace ts

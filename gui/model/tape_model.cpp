// Tape rows from the log prefix (log_query's tape_records_at), plus unrecorded ops.
#include "model/tape_model.h"

#include <algorithm>
#include <unordered_set>

#include "model/log_query.h"

namespace ts::gui {

namespace {

std::string join_labels(const EventLog& log, const LogIndex& ix, const std::vector<TensorId>& ids) {
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) s += ", ";
    const TensorInfo* t = log.tensor(ids[i]);
    // Constants read better as their value.
    if (t && t->value && t->kind == TensorKind::Constant && ix.name_of(ids[i]).empty() && t->value->size() <= 4)
      s += value_brief(*t->value, 24);
    else
      s += id_label(log, ix, ids[i]);
  }
  return s;
}

}  // namespace

TapeId TapeModel::pick_tape(const Session& s) const {
  const EventLog& log = s.log();
  if (chosen != kNoId && log.tape(chosen)) return chosen;
  if (s.selection().kind == SelectionKind::Tape) return s.selection().id;
  if (const GradientCall* c = s.selected_call()) return c->tape;
  if (const CallSpan* span = s.index().call_span(s.active_call())) return span->tape;
  // The tape most recently created or entered at the cursor.
  TapeId t = kNoId;
  for (int64_t i = 0; i <= s.cursor() && i < s.event_count(); ++i) {
    const Event& e = log.events[static_cast<size_t>(i)];
    if (e.kind == EventKind::TapeCreated || e.kind == EventKind::TapeEntered) t = e.tape;
  }
  if (t == kNoId && !log.tapes.empty()) t = log.tapes.front().id;
  return t;
}

void TapeModel::sync(const Session& s) {
  if (built_generation_ == s.generation() && built_cursor_ == s.cursor() && built_selection_ == s.selection() &&
      built_chosen_ == chosen && built_unrecorded_ == show_unrecorded)
    return;
  if (built_generation_ != s.generation()) chosen = kNoId;  // tape ids belong to one run
  built_generation_ = s.generation();
  built_cursor_ = s.cursor();
  built_selection_ = s.selection();
  built_chosen_ = chosen;
  built_unrecorded_ = show_unrecorded;
  rows_.clear();
  tapes_.clear();
  header_.clear();
  dropped_note_.clear();
  recorded_count_ = 0;

  const EventLog& log = s.log();
  const LogIndex& ix = s.index();
  const int64_t k = s.cursor();
  for (const auto& t : log.tapes)
    tapes_.push_back({t.id, (t.name.empty() ? "tape #" + std::to_string(t.id) : t.name) + " (line " +
                                std::to_string(t.line) + ")"});
  tape_ = pick_tape(s);
  const TapeInfo* info = log.tape(tape_);
  if (!info) return;

  const TapeStatus status = tape_status_at(log, tape_, k);
  header_ = (info->name.empty() ? "tape" : info->name) + ", line " + std::to_string(info->line) + ": " +
            tape_status_text(status);
  if (info->persistent) header_ += ", persistent";
  if (!info->watch_accessed_variables) header_ += ", watch_accessed_variables=False";

  std::vector<OpId> records = tape_records_at(log, tape_, k);
  if (records.empty()) {
    DroppedRecords d = tape_records_before_drop(log, tape_, k);
    if (d.dropped_at >= 0) {
      records = std::move(d.records);
      const Event& e = log.events[static_cast<size_t>(d.dropped_at)];
      dropped_note_ = e.kind == EventKind::TapeReset
                          ? "tape.reset() at line " + std::to_string(e.line) + " erased these records."
                          : "A non-persistent tape drops its records after its gradient call (line " +
                                std::to_string(e.line) + "). Shown as they were.";
    }
  }
  recorded_count_ = static_cast<int>(records.size());

  // Backward progress in the gradient call at the cursor.
  std::unordered_set<OpId> done;
  OpId now = kNoId;
  if (const CallSpan* span = ix.call_span(s.active_call()); span && span->tape == tape_) {
    for (int64_t st : span->steps) {
      if (st > k) break;
      const Event& e = log.events[static_cast<size_t>(st)];
      done.insert(e.op);
      if (st == k) now = e.op;
    }
  }

  auto make_row = [&](const OpInfo& op, int64_t event) {
    TapeRow r;
    r.op = op.id;
    r.event = event;
    r.type = op.type;
    r.label = op.label == op.type ? std::string() : op.label;
    r.inputs = join_labels(log, ix, op.inputs);
    r.outputs = join_labels(log, ix, op.outputs);
    r.line = op.line;
    r.backward_now = op.id == now;
    r.backward_done = done.count(op.id) != 0;
    return r;
  };

  std::unordered_set<OpId> recorded_set(records.begin(), records.end());
  int index = 0;
  if (!show_unrecorded) {
    for (OpId id : records)
      if (const OpInfo* op = log.op(id)) {
        TapeRow r = make_row(*op, ix.born_at(id));
        r.index = index++;
        r.kept = "inputs " + r.inputs + "; outputs " + r.outputs;
        rows_.push_back(std::move(r));
      }
    return;
  }
  // All ops executed from the tape's creation to the cursor, in order, outside
  // gradient computations unless a tape recorded them (higher-order gradients).
  int64_t created = -1;
  bool entered = false;
  for (int64_t i = 0; i <= k && i < s.event_count(); ++i) {
    const Event& e = log.events[static_cast<size_t>(i)];
    if (e.tape == tape_ && e.kind == EventKind::TapeCreated) created = i;
    if (e.tape == tape_ && e.kind == EventKind::TapeEntered) entered = true;
    if (created < 0 || e.kind != EventKind::OpExecuted) continue;
    const OpInfo* op = log.op(e.op);
    if (!op) continue;
    const bool rec = recorded_set.count(op->id) != 0;
    if (!rec && op->grad_call != kNoId) continue;
    TapeRow r = make_row(*op, i);
    r.recorded = rec;
    if (rec) {
      r.index = index++;
      r.kept = "inputs " + r.inputs + "; outputs " + r.outputs;
    } else if (std::find(op->recorded_by.begin(), op->recorded_by.end(), tape_) != op->recorded_by.end()) {
      r.reason = "recorded, then dropped (reset or consumed)";
    } else {
      auto it = std::find_if(op->not_recorded.begin(), op->not_recorded.end(),
                             [&](const auto& p) { return p.tape == tape_; });
      if (it != op->not_recorded.end()) r.reason = not_recorded_reason_text(it->reason);
      else r.reason = not_recorded_reason_text(entered ? NotRecordedReason::TapeExited : NotRecordedReason::TapeNotEntered);
      if (!op->recorded_by.empty()) r.reason += " (recorded by another tape)";
    }
    rows_.push_back(std::move(r));
  }
}

}  // namespace ts::gui

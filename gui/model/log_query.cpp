// Prefix queries over the event log (see log_query.h).
#include "model/log_query.h"

#include <algorithm>
#include <cctype>

#include "engine/format.h"

namespace ts::gui {

namespace {

int64_t last_index(const EventLog& log, int64_t k) {
  return std::min<int64_t>(k, static_cast<int64_t>(log.events.size()) - 1);
}

bool contains(const std::vector<TapeId>& v, TapeId t) { return std::find(v.begin(), v.end(), t) != v.end(); }

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  // NumPy pads rows with spaces after a newline; collapse runs of spaces.
  std::string out;
  for (char c : s) {
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out.push_back(c);
  }
  return out;
}

}  // namespace

const char* tape_status_text(TapeStatus s) {
  switch (s) {
    case TapeStatus::NotCreated: return "not created yet";
    case TapeStatus::Created: return "created, block not entered";
    case TapeStatus::Recording: return "recording";
    case TapeStatus::StoppedRecording: return "paused (stop_recording)";
    case TapeStatus::Exited: return "block exited";
    case TapeStatus::Consumed: return "consumed (records dropped)";
  }
  return "?";
}

TapeStatus tape_status_at(const EventLog& log, TapeId tape, int64_t k) {
  TapeStatus s = TapeStatus::NotCreated;
  const int64_t last = last_index(log, k);
  for (int64_t i = 0; i <= last; ++i) {
    const Event& e = log.events[static_cast<size_t>(i)];
    if (e.tape != tape) continue;
    switch (e.kind) {
      case EventKind::TapeCreated: s = TapeStatus::Created; break;
      case EventKind::TapeEntered: s = TapeStatus::Recording; break;
      case EventKind::StopRecordingBegan: s = TapeStatus::StoppedRecording; break;
      case EventKind::StopRecordingEnded: s = TapeStatus::Recording; break;
      case EventKind::TapeExited: s = TapeStatus::Exited; break;
      case EventKind::TapeConsumed: s = TapeStatus::Consumed; break;
      default: break;
    }
  }
  return s;
}

namespace {

// Walks the prefix keeping the records; `on_drop` sees them just before a clear.
template <typename OnDrop>
std::vector<OpId> walk_records(const EventLog& log, TapeId tape, int64_t k, OnDrop on_drop) {
  std::vector<OpId> records;
  const int64_t last = last_index(log, k);
  for (int64_t i = 0; i <= last; ++i) {
    const Event& e = log.events[static_cast<size_t>(i)];
    if (e.kind == EventKind::OpExecuted) {
      const OpInfo* op = log.op(e.op);
      if (op && contains(op->recorded_by, tape)) records.push_back(op->id);
    } else if (e.tape == tape && (e.kind == EventKind::TapeReset || e.kind == EventKind::TapeConsumed)) {
      on_drop(records, i);
      records.clear();
    }
  }
  return records;
}

}  // namespace

std::vector<OpId> tape_records_at(const EventLog& log, TapeId tape, int64_t k) {
  return walk_records(log, tape, k, [](const std::vector<OpId>&, int64_t) {});
}

DroppedRecords tape_records_before_drop(const EventLog& log, TapeId tape, int64_t k) {
  DroppedRecords d;
  std::vector<OpId> now = walk_records(log, tape, k, [&](const std::vector<OpId>& r, int64_t at) {
    if (!r.empty()) {
      d.records = r;
      d.dropped_at = at;
    }
  });
  if (!now.empty()) return {};
  return d;
}

WatchedState watched_at(const EventLog& log, TapeId tape, int64_t k) {
  WatchedState w;
  bool consumed = false;
  const int64_t last = last_index(log, k);
  for (int64_t i = 0; i <= last; ++i) {
    const Event& e = log.events[static_cast<size_t>(i)];
    if (e.tape != tape) continue;
    switch (e.kind) {
      case EventKind::Watch: {
        auto same = [&](const WatchEntry& x) { return x.subject == e.subject; };
        if (std::find_if(w.watched.begin(), w.watched.end(), same) == w.watched.end())
          w.watched.push_back({e.subject, e.name, e.line, e.text, i});
        break;
      }
      case EventKind::AccessNotWatched: {
        auto same = [&](const NotWatchedEntry& x) { return x.subject == e.subject; };
        if (std::find_if(w.not_watched.begin(), w.not_watched.end(), same) == w.not_watched.end())
          w.not_watched.push_back({e.subject, e.text, e.line, i});
        break;
      }
      case EventKind::TapeReset: w = {}; break;
      case EventKind::TapeConsumed: consumed = true; break;  // watched_variables() still answers
      case EventKind::TapeEntered:
        if (consumed) w = {};  // a consumed tape re-entered starts afresh, as in TF
        consumed = false;
        break;
      default: break;
    }
  }
  return w;
}

TensorId variable_value_at(const EventLog& log, TensorId var, int64_t k) {
  TensorId v = kNoId;
  const int64_t last = last_index(log, k);
  for (int64_t i = 0; i <= last; ++i) {
    const Event& e = log.events[static_cast<size_t>(i)];
    if ((e.kind == EventKind::VariableCreated || e.kind == EventKind::VariableAssigned) && e.subject == var &&
        !e.outputs.empty())
      v = e.outputs.front();
  }
  return v;
}

std::vector<GradContribution> grads_into(const EventLog& log, const LogIndex& ix, CallId call, TensorId t,
                                         int64_t k) {
  std::vector<GradContribution> out;
  const CallSpan* span = ix.call_span(call);
  if (!span) return out;
  for (int64_t s : span->steps) {
    if (s > k) break;
    const Event& e = log.events[static_cast<size_t>(s)];
    const OpInfo* op = log.op(e.op);
    if (!op) continue;
    for (size_t i = 0; i < op->inputs.size() && i < e.outputs.size(); ++i)
      if (op->inputs[i] == t && e.outputs[i] != kNoId) out.push_back({s, op->id, e.outputs[i], false});
    for (size_t i = 0; i < op->outputs.size() && i < e.inputs.size(); ++i)
      if (op->outputs[i] == t && e.inputs[i] != kNoId) out.push_back({s, op->id, e.inputs[i], true});
  }
  return out;
}

std::optional<TensorValue> sum_contributions(const EventLog& log, const std::vector<GradContribution>& c) {
  std::optional<TensorValue> sum;
  for (const auto& g : c) {
    if (g.upstream) continue;
    const TensorInfo* t = log.tensor(g.grad);
    if (!t || !t->value) return std::nullopt;
    if (!sum) {
      sum = *t->value;
      continue;
    }
    if (t->value->shape != sum->shape || t->value->data.size() != sum->data.size()) return std::nullopt;
    sum->data += t->value->data;
  }
  return sum;
}

CallId call_in_focus(const LogIndex& ix, int64_t k) {
  const CallId c = ix.call_of(k);
  if (c != kNoId) return c;
  CallId last = kNoId;
  for (const auto& s : ix.calls)
    if (s.end <= k) last = s.call;
  return last;
}

std::string value_brief(const TensorValue& v, size_t max_chars) {
  if (v.dtype == DType::Resource) return "<resource>";
  std::string s;
  try {
    if (v.size() <= 64) {
      s = one_line(format_numpy(v));
    } else if (v.rank() == 1 && v.dtype != DType::String) {
      // NumPy's own summary style: the first and last three, "..." between.
      Eigen::ArrayXd ends(6);
      const Eigen::Index n = v.data.size();
      ends << v.data[0], v.data[1], v.data[2], v.data[n - 3], v.data[n - 2], v.data[n - 1];
      const std::string six = one_line(format_numpy(make_tensor(v.dtype, {6}, ends)));
      // "[a b c d e f]" -> "[a b c ... d e f]"
      size_t cut = 0;
      for (int spaces = 0; cut < six.size() && spaces < 3; ++cut)
        if (six[cut] == ' ' && cut > 0 && six[cut - 1] != ' ' && six[cut - 1] != '[') ++spaces;
      s = six.substr(0, cut) + "... " + six.substr(cut);
    } else {
      double lo = 0, hi = 0;
      if (v.data.size() > 0) {
        lo = v.data.minCoeff();
        hi = v.data.maxCoeff();
      }
      s = shape_str(v.shape) + " values in [" + python_float_repr(lo) + ", " + python_float_repr(hi) + "]";
    }
  } catch (...) {
    s = std::string(dtype_name(v.dtype)) + " " + shape_str(v.shape);
  }
  if (s.size() > max_chars) s = s.substr(0, max_chars > 3 ? max_chars - 3 : 0) + "...";
  return s;
}

std::string id_label(const EventLog& log, const LogIndex& ix, int64_t id) {
  if (id == kNoId) return "None";
  const std::string& py = ix.name_of(id);
  if (const VariableInfo* v = log.variable(id)) {
    // A layer's variable goes by its path: the first name a script binds it to is often
    // a later loop's (`for v, g in zip(...)`), meaningless before that loop runs.
    if (!v->path.empty()) return v->path;
    return py.empty() || py == v->name ? v->name : py + " (" + v->name + ")";
  }
  if (const TensorInfo* t = log.tensor(id)) {
    if (!py.empty()) return py;
    // A variable's value (its initial value or an assign's result, as when a variable is
    // a gradient target) goes by the variable's name in the script.
    if (static_cast<size_t>(id) < ix.version_of.size() && ix.version_of[static_cast<size_t>(id)] != kNoId) {
      const std::string& vpy = ix.name_of(ix.version_of[static_cast<size_t>(id)]);
      if (!vpy.empty()) return vpy;
    }
    if (const OpInfo* p = log.op(t->producer)) {
      // A read's value goes by the variable's name in the script, not TF's "Variable:0".
      if (p->type == "ReadVariableOp" && !p->inputs.empty() && !ix.name_of(p->inputs[0]).empty())
        return ix.name_of(p->inputs[0]);
      std::string l = p->label.empty() ? p->type : p->label;
      // An operator symbol alone ("**", "@") names the op, not its result: use TF's
      // "Type:index" name then.
      const bool words = std::any_of(l.begin(), l.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
      if (!words) return p->type + ":" + std::to_string(t->output_index);
      if (p->outputs.size() > 1) l += ":" + std::to_string(t->output_index);
      return l;
    }
    return t->label.empty() ? "t" + std::to_string(id) : t->label;
  }
  if (const OpInfo* op = log.op(id)) return op->label.empty() ? op->type : op->label;
  return "#" + std::to_string(id);
}

std::string tensor_brief(const EventLog& log, const LogIndex& ix, TensorId t) {
  std::string s = id_label(log, ix, t);
  if (const VariableInfo* v = log.variable(t))
    return s + "  " + std::string(dtype_name(v->dtype)) + " " + shape_str(v->shape);
  if (const TensorInfo* ti = log.tensor(t); ti && ti->value)
    s += "  " + std::string(dtype_name(ti->value->dtype)) + " " + shape_str(ti->value->shape);
  return s;
}

std::string describe_event(const EventLog& log, const LogIndex& ix, int64_t k) {
  if (k < 0 || static_cast<size_t>(k) >= log.events.size()) return {};
  const Event& e = log.events[static_cast<size_t>(k)];
  auto label = [&](int64_t id) { return id_label(log, ix, id); };
  auto value = [&](int64_t id) -> std::string {
    const TensorInfo* t = log.tensor(id);
    return t && t->value ? value_brief(*t->value, 40) : std::string("None");
  };
  auto tape_name = [&](TapeId t) {
    const TapeInfo* ti = log.tape(t);
    return ti ? "'" + ti->name + "'" : "#" + std::to_string(t);
  };
  switch (e.kind) {
    case EventKind::StatementStarted: return "line " + std::to_string(e.line);
    case EventKind::NameBound: return e.name + " = " + (e.subject == kNoId ? e.text : label(e.subject));
    case EventKind::TensorCreated: return "constant " + label(e.subject) + " = " + value(e.subject);
    case EventKind::VariableCreated:
      return "tf.Variable " + label(e.subject) + " = " + (e.outputs.empty() ? "" : value(e.outputs[0]));
    case EventKind::VariableAssigned:
      return label(e.subject) + " assigned " + (e.outputs.empty() ? "" : value(e.outputs[0]));
    case EventKind::OpExecuted: {
      const OpInfo* op = log.op(e.op);
      if (!op) return "op";
      std::string s = op->type;
      if (!op->label.empty() && op->label != op->type) s += "  " + op->label;
      if (!op->outputs.empty()) s += " -> " + value(op->outputs[0]);
      if (!op->recorded_by.empty()) {
        s += "  [recorded by";
        for (TapeId t : op->recorded_by) s += " " + tape_name(t);
        s += "]";
      } else if (!op->not_recorded.empty()) {
        s += "  [not recorded]";
      }
      return s;
    }
    case EventKind::TapeCreated: return "tape " + tape_name(e.tape) + " created";
    case EventKind::TapeEntered: return "enter tape " + tape_name(e.tape);
    case EventKind::TapeExited: return "exit tape " + tape_name(e.tape);
    case EventKind::TapeReset: return "tape " + tape_name(e.tape) + " reset";
    case EventKind::TapeConsumed: return "tape " + tape_name(e.tape) + " consumed: records dropped";
    case EventKind::StopRecordingBegan: return "tape " + tape_name(e.tape) + " stops recording";
    case EventKind::StopRecordingEnded: return "tape " + tape_name(e.tape) + " records again";
    case EventKind::Watch:
      return "tape " + tape_name(e.tape) + " watches " + label(e.subject) + " (" + e.name + ")" +
             (e.text.empty() ? "" : "  WARNING");
    case EventKind::AccessNotWatched:
      return label(e.subject) + " read, not watched by " + tape_name(e.tape) + ": " + e.text;
    case EventKind::BranchTaken: return e.name + " decided by " + label(e.subject);
    case EventKind::GradientCallStarted: {
      std::string s = "gradient on " + tape_name(e.tape) + " of [";
      for (size_t i = 0; i < e.inputs.size(); ++i) s += (i ? ", " : "") + label(e.inputs[i]);
      s += "] w.r.t. [";
      for (size_t i = 0; i < e.outputs.size(); ++i) s += (i ? ", " : "") + label(e.outputs[i]);
      return s + "]";
    }
    case EventKind::BackwardStep: {
      const OpInfo* op = log.op(e.op);
      std::string s = "backward " + (op ? op->type + (op->label != op->type ? "  " + op->label : "") : "?");
      s += "  grads out: [";
      for (size_t i = 0; i < e.outputs.size(); ++i) s += (i ? ", " : "") + value(e.outputs[i]);
      return s + "]";
    }
    case EventKind::GradientResult:
      return "d/d" + e.name + " = " + (e.outputs.empty() || e.outputs[0] == kNoId ? "None" : value(e.outputs[0])) +
             (e.text.empty() ? "" : "  (" + e.text + ")");
    case EventKind::GradientCallEnded: return e.text.empty() ? "gradient done" : "gradient failed: " + e.text;
    case EventKind::FunctionCallStarted: return "call tf.function " + e.name;
    case EventKind::FunctionCallEnded: return "return from tf.function";
    case EventKind::Warning: return strip_terminal_codes(e.text);
    case EventKind::Error: return e.name + ": " + strip_terminal_codes(e.text);
    case EventKind::Output: return "print: " + strip_terminal_codes(e.text);
    case EventKind::Plot: return "plot";
    case EventKind::Alert: return "alert: " + e.text;
  }
  return event_kind_name(e.kind);
}

std::string strip_terminal_codes(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b' && i + 1 < text.size() && text[i + 1] == '[') {
      size_t j = i + 2;  // CSI: parameters, then one final byte in @..~
      while (j < text.size() && !(text[j] >= '@' && text[j] <= '~')) ++j;
      i = j;
      continue;
    }
    out += text[i];
  }
  return out;
}

}  // namespace ts::gui

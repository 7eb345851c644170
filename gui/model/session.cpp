// Session: loading on a worker thread, the cursor, selection and commands.
#include "model/session.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "engine/event_log_json.h"
#include "model/stepper.h"

namespace ts::gui {

namespace {

using Clock = std::chrono::steady_clock;

std::string lower_extension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// A .json the app opens: a scenario (4 MiB at most) or a trace. Read at most 512 MiB, so
// /dev/zero or a huge file is refused instead of filling memory.
constexpr size_t kMaxOpenBytes = size_t{512} << 20;

bool read_file(const std::string& path, std::string& out, bool& too_large) {
  too_large = false;
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  out.clear();
  std::string chunk(size_t{1} << 20, '\0');
  while (f && out.size() <= kMaxOpenBytes) {
    f.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    out.append(chunk.data(), static_cast<size_t>(std::max<std::streamsize>(f.gcount(), 0)));
  }
  too_large = out.size() > kMaxOpenBytes;
  return true;
}

// Fills `r` from a finished scenario run.
void take_scenario_run(LoadedRun& r, ScenarioRun&& sr) {
  r.scenario = std::move(sr.scenario);
  r.script = r.scenario.script;
  r.title = r.scenario.title.empty() ? std::filesystem::path(r.path).filename().string() : r.scenario.title;
  r.error = sr.run.error;
  r.expectations = std::move(sr.expectations);
  r.claims = std::move(sr.claims);
  r.result = std::move(sr.run);
  if (r.result.engine) r.log = std::shared_ptr<const EventLog>(r.result.engine, &r.result.engine->log());
}

void finish(LoadedRun& r, Clock::time_point t0) {
  if (!r.log) r.log = std::make_shared<EventLog>();
  r.index = std::make_shared<LogIndex>(build_log_index(*r.log));
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

const char* command_name(Command c) {
  switch (c) {
    case Command::RunToBreakpoint: return "Run to breakpoint";
    case Command::NextStatement: return "Next statement";
    case Command::PrevStatement: return "Previous statement";
    case Command::StepInto: return "Step into backward pass";
    case Command::StepOut: return "Step out";
    case Command::NextEvent: return "Next event";
    case Command::PrevEvent: return "Previous event";
    case Command::First: return "First event";
    case Command::Last: return "Last event";
    case Command::ToggleBreakpoint: return "Toggle breakpoint";
    case Command::Open: return "Open";
    case Command::Rerun: return "Re-run";
    case Command::RerunEdited: return "Re-run edited script";
    case Command::FitGraph: return "Fit graph";
    case Command::Search: return "Search";
    case Command::FontLarger: return "Larger font";
    case Command::FontSmaller: return "Smaller font";
    case Command::ClearSelection: return "Clear selection";
    case Command::TogglePlay: return "Play / pause";
    case Command::NewSnippet: return "New snippet";
  }
  return "?";
}

bool looks_like_trace(const std::string& text) {
  return text.find("\"tapescope-scenario/1\"") == std::string::npos &&
         text.find("\"tapescope-trace/1\"") != std::string::npos;
}

LoadedRun load_file(const std::string& path, const RunOptions& options) {
  const auto t0 = Clock::now();
  LoadedRun r;
  r.path = path;
  const std::string ext = lower_extension(path);
  r.kind = ext == ".json" ? SourceKind::Scenario : SourceKind::Script;
  r.title = std::filesystem::path(path).filename().string();
  if (ext == ".json") {
    std::string text;
    bool too_large = false;
    if (!read_file(path, text, too_large) || too_large) {
      r.load_error = path + (too_large ? ": the file is too large to open (more than 512 MiB)" : ": cannot open the file");
      finish(r, t0);
      return r;
    }
    if (looks_like_trace(text)) {
      r.kind = SourceKind::Trace;
      try {
        auto log = std::make_shared<EventLog>(event_log_from_json(text));
        r.script = log->script;
        r.title += " (trace)";
        r.log = log;
      } catch (const std::exception& e) {
        r.load_error = path + ": " + e.what();
      }
      finish(r, t0);
      return r;
    }
  }
  try {
    Scenario s = load_scenario(path);
    take_scenario_run(r, run_scenario(s, options));
  } catch (const ScenarioLoadError& e) {
    r.load_error = e.format();
  } catch (const std::exception& e) {
    r.load_error = path + ": " + e.what();
  } catch (...) {
    r.load_error = path + ": the run failed with an unknown error";
  }
  finish(r, t0);
  return r;
}

LoadedRun run_text(const std::string& text, const Scenario* like, const RunOptions& options) {
  const auto t0 = Clock::now();
  LoadedRun r;
  Scenario s;
  if (like) {
    s = *like;
  } else {
    s.id = "snippet";
    s.title = "Snippet";
    s.path = "<snippet>";
  }
  s.script = text;
  r.path = like ? like->path : std::string();
  r.kind = like ? SourceKind::Scenario : SourceKind::Snippet;
  try {
    take_scenario_run(r, run_scenario(s, options));
  } catch (const std::exception& e) {
    r.load_error = e.what();
    r.scenario = s;
    r.script = text;
  } catch (...) {
    r.load_error = "the run failed with an unknown error";
    r.scenario = s;
    r.script = text;
  }
  if (!like) r.title = "Snippet";
  finish(r, t0);
  return r;
}

// --- the background job ---
struct Session::Job {
  std::thread thread;
  std::atomic<bool> done{false};
  bool cancel = false;  // polled by the interpreter between statements
  bool superseded = false;
  LoadedRun result;
  Request request;
  Clock::time_point start = Clock::now();

  void join() {
    if (thread.joinable()) thread.join();
  }
};

Session::Session() : Session(Options{}) {}

Session::Session(Options options)
    : options_(std::move(options)),
      empty_log_(std::make_shared<EventLog>()),
      empty_index_(std::make_shared<LogIndex>()) {}

Session::~Session() {
  if (job_) {
    job_->cancel = true;
    job_->join();
  }
  for (auto& j : retired_) {
    j->cancel = true;
    j->join();
  }
}

const EventLog& Session::log() const { return run_ && run_->log ? *run_->log : *empty_log_; }
const LogIndex& Session::index() const { return run_ && run_->index ? *run_->index : *empty_index_; }

std::string Session::script_text() const { return run_ ? run_->script : std::string(); }

void Session::open(const std::string& path) {
  Request r;
  r.kind = Request::Kind::File;
  r.path = path;
  note_recent(path);
  start(std::move(r));
}

void Session::open_snippet(const std::string& text) {
  Request r;
  r.kind = Request::Kind::Snippet;
  r.text = text;
  start(std::move(r));
}

void Session::rerun() {
  if (last_request_) start(*last_request_);
}

void Session::rerun_edited() {
  Request r;
  if (run_ && run_->kind != SourceKind::Snippet && run_->kind != SourceKind::Trace) {
    r.kind = Request::Kind::Edited;
    r.scenario = run_->scenario;
    if (r.scenario.path.empty()) r.scenario.path = run_->path;
  } else {
    r.kind = Request::Kind::Snippet;
  }
  r.text = edit_text_;
  editing_ = false;
  start(std::move(r));
}

void Session::start(Request r) {
  last_request_ = r;
  playing_ = false;
  if (job_) {
    job_->cancel = true;
    job_->superseded = true;
    retired_.push_back(std::move(job_));
  }
  auto job = std::make_shared<Job>();
  job->request = std::move(r);
  status_ = "Running...";
  auto work = [opts = options_.run_options](Job* j) {
    RunOptions o = opts;
    o.cancel = &j->cancel;
    const Request& q = j->request;
    if (q.kind == Request::Kind::File) {
      j->result = load_file(q.path, o);
    } else if (q.kind == Request::Kind::Edited) {
      j->result = run_text(q.text, &q.scenario, o);
    } else {
      j->result = run_text(q.text, nullptr, o);
    }
    j->result.cancelled = j->cancel;
    j->done = true;
  };
  if (!options_.async) {
    work(job.get());
    adopt(std::move(job->result));
    return;
  }
  Job* raw = job.get();
  job->thread = std::thread(work, raw);
  job_ = std::move(job);
}

bool Session::running() const { return job_ != nullptr; }

double Session::run_elapsed() const {
  return job_ ? std::chrono::duration<double>(Clock::now() - job_->start).count() : 0.0;
}

void Session::cancel_run() {
  if (job_) job_->cancel = true;
}

void Session::poll() {
  for (auto it = retired_.begin(); it != retired_.end();) {
    if ((*it)->done) {
      (*it)->join();
      it = retired_.erase(it);
    } else {
      ++it;
    }
  }
  if (job_ && job_->done) {
    job_->join();
    auto job = std::move(job_);
    adopt(std::move(job->result));
  }
}

void Session::wait() {
  if (job_) {
    job_->join();
    auto job = std::move(job_);
    adopt(std::move(job->result));
  }
  for (auto& j : retired_) j->join();
  retired_.clear();
}

void Session::adopt(LoadedRun run) {
  if (!run.log) run.log = std::make_shared<EventLog>();
  if (!run.index) run.index = std::make_shared<LogIndex>(build_log_index(*run.log));
  const bool same_file = run_ && run_->path == run.path;
  if (!same_file) breakpoints_.clear();
  run_ = std::make_unique<LoadedRun>(std::move(run));
  ++generation_;
  selection_ = {};
  hovered_ = kNoId;
  playing_ = false;
  focus_line_ = 0;
  edit_text_ = run_->script;
  editing_ = run_->kind == SourceKind::Snippet && run_->script.empty();
  cursor_ = event_count() - 1;
  requests_.scroll_timeline = true;
  const auto& r = *run_;
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.0f ms", r.seconds * 1000.0);
  if (!r.load_error.empty()) {
    status_ = r.load_error;
  } else if (r.cancelled) {
    status_ = r.title + ": cancelled after " + ms + " (" + std::to_string(event_count()) + " events kept)";
  } else if (r.error) {
    status_ = r.title + ": " + r.error->type + " at line " + std::to_string(r.error->line) + " (" + ms + ")";
  } else {
    status_ = r.title + ": " + std::to_string(event_count()) + " events in " + ms;
  }
}

// --- cursor ---
void Session::set_cursor(int64_t k) {
  const int64_t n = event_count();
  cursor_ = n == 0 ? -1 : std::clamp<int64_t>(k, 0, n - 1);
}

void Session::move_to(int64_t k) {
  set_cursor(k);
  requests_.scroll_timeline = true;
}

const Event* Session::current_event() const {
  if (cursor_ < 0 || cursor_ >= event_count()) return nullptr;
  return &log().events[static_cast<size_t>(cursor_)];
}

int Session::current_line() const {
  const Event* e = current_event();
  return e ? e->line : 0;
}

CallId Session::active_call() const { return index().call_of(cursor_); }

bool Session::apply_cursor_spec(const std::string& spec) {
  if (spec.empty() || spec == "end") {
    set_cursor(event_count() - 1);
    return true;
  }
  if (spec == "backward") {
    for (const auto& c : index().calls)
      if (!c.steps.empty()) {
        set_cursor(c.steps[c.steps.size() / 2]);
        return true;
      }
    return false;
  }
  try {
    size_t used = 0;
    const long long k = std::stoll(spec, &used);
    if (used != spec.size()) return false;
    set_cursor(k);
    return true;
  } catch (...) {
    return false;
  }
}

// --- selection ---
void Session::select(const Selection& s) { selection_ = s; }

void Session::select_id(int64_t id) {
  const EventLog& l = log();
  Selection s;
  s.id = id;
  if (l.variable(id)) {
    s.kind = SelectionKind::Variable;
  } else if (l.is_tensor(id)) {
    s.kind = SelectionKind::Tensor;
  } else if (l.is_op(id)) {
    s.kind = SelectionKind::Op;
  } else {
    s = {};
  }
  selection_ = s;
}

void Session::show_path(CallId call, int result) {
  const GradientCall* c = log().gradient_call(call);
  if (!c || result < 0 || static_cast<size_t>(result) >= c->results.size()) return;
  const SourceResult& r = c->results[static_cast<size_t>(result)];
  Selection s;
  s.kind = SelectionKind::Diagnosis;
  s.call = call;
  s.result = result;
  s.id = r.diagnosis ? r.diagnosis->break_id : r.source;
  selection_ = s;
  const int line = r.diagnosis && r.diagnosis->line > 0 ? r.diagnosis->line : c->line;
  requests_.source_line = line;
  focus_line_ = line;
}

const GradientCall* Session::selected_call() const {
  return selection_.kind == SelectionKind::Diagnosis ? log().gradient_call(selection_.call) : nullptr;
}

const SourceResult* Session::selected_result() const {
  const GradientCall* c = selected_call();
  if (!c || selection_.result < 0 || static_cast<size_t>(selection_.result) >= c->results.size()) return nullptr;
  return &c->results[static_cast<size_t>(selection_.result)];
}

const Diagnosis* Session::selected_diagnosis() const {
  const SourceResult* r = selected_result();
  return r && r->diagnosis ? &*r->diagnosis : nullptr;
}

bool Session::apply_select_spec(const std::string& spec) {
  if (spec.empty() || spec == "none") {
    clear_selection();
    return true;
  }
  if (spec == "none-path") {
    // Prefer a real None over a zero made by request.
    for (int pass = 0; pass < 2; ++pass)
      for (const auto& c : log().gradient_calls)
        for (size_t i = 0; i < c.results.size(); ++i) {
          const auto& r = c.results[i];
          if (r.diagnosis && (pass == 1 || !r.diagnosis->zero_by_request)) {
            show_path(c.id, static_cast<int>(i));
            return true;
          }
        }
    return false;
  }
  try {
    size_t used = 0;
    const long long id = std::stoll(spec, &used);
    if (used != spec.size()) return false;
    select_id(id);
    return selection_.kind != SelectionKind::None;
  } catch (...) {
    return false;
  }
}

// --- breakpoints, editing, play ---
void Session::toggle_breakpoint(int line) {
  if (line <= 0) return;
  if (!breakpoints_.erase(line)) breakpoints_.insert(line);
}

void Session::begin_edit() {
  if (!editing_) edit_text_ = script_text();
  editing_ = true;
}

void Session::set_playing(bool p) {
  playing_ = p && event_count() > 0;
  play_accum_ = 0;
  // Playing from the end starts over.
  if (playing_ && cursor_ >= event_count() - 1) set_cursor(0);
}

void Session::tick(double seconds) {
  if (!playing_) return;
  play_accum_ += seconds;
  const double step = 1.0 / std::max(0.1f, play_speed_);
  const Stepper st(log(), index());
  while (playing_ && play_accum_ >= step) {
    play_accum_ -= step;
    const int64_t next = st.next_statement(cursor_);
    if (next == cursor_) {
      playing_ = false;
      break;
    }
    move_to(next);
    const Event* e = current_event();
    if (next >= event_count() - 1 || (e && e->kind == EventKind::StatementStarted && breakpoints_.count(e->line)))
      playing_ = false;
  }
}

void Session::note_recent(const std::string& path) {
  std::string p = path;
  std::error_code ec;
  const auto abs = std::filesystem::absolute(path, ec);
  if (!ec) p = abs.lexically_normal().string();
  recent_.erase(std::remove(recent_.begin(), recent_.end(), p), recent_.end());
  recent_.insert(recent_.begin(), p);
  if (recent_.size() > 10) recent_.resize(10);
}

void Session::execute(Command c) {
  const Stepper st(log(), index());
  // A step of the learner's own stops playback.
  if (c <= Command::Last) playing_ = false;
  switch (c) {
    case Command::RunToBreakpoint: move_to(st.run_to_breakpoint(cursor_, breakpoints_)); break;
    case Command::NextStatement: move_to(st.next_statement(cursor_)); break;
    case Command::PrevStatement: move_to(st.prev_statement(cursor_)); break;
    case Command::StepInto: move_to(st.step_into(cursor_)); break;
    case Command::StepOut: move_to(st.step_out(cursor_)); break;
    case Command::NextEvent: move_to(st.next_event(cursor_)); break;
    case Command::PrevEvent: move_to(st.prev_event(cursor_)); break;
    case Command::First: move_to(st.first()); break;
    case Command::Last: move_to(st.last()); break;
    case Command::ToggleBreakpoint: toggle_breakpoint(focus_line_ > 0 ? focus_line_ : current_line()); break;
    case Command::Open: requests_.open_dialog = true; break;
    case Command::Rerun: rerun(); break;
    case Command::RerunEdited:
      if (editing_) rerun_edited();
      else rerun();
      break;
    case Command::FitGraph: requests_.fit_graph = true; break;
    case Command::Search: requests_.focus_search = true; break;
    case Command::FontLarger: ++requests_.font_delta; break;
    case Command::FontSmaller: --requests_.font_delta; break;
    case Command::ClearSelection: clear_selection(); break;
    case Command::TogglePlay: set_playing(!playing_); break;
    case Command::NewSnippet:
      open_snippet();  // an empty snippet opens in edit mode once adopted
      break;
  }
}

}  // namespace ts::gui

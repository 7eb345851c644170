#include "run.h"

#include <pthread.h>

#include <exception>

#include "script/interpreter.h"
#include "script/parser.h"

namespace ts {

namespace {

// The parser and the interpreter recurse on the C++ stack (nesting up to 100 levels in
// each of up to 200 calls, generators, reprs): they run on a thread of their own with a
// 1 GiB stack, of which only what is used is ever touched, so the limits that raise
// Python's errors come long before the stack ends.
template <class F>
void on_large_stack(F& f) {
  struct Job {
    F* f;
    std::exception_ptr error;
  } job{&f, nullptr};
  auto body = [](void* p) -> void* {
    Job* j = static_cast<Job*>(p);
    try {
      (*j->f)();
    } catch (...) {
      j->error = std::current_exception();
    }
    return nullptr;
  };
  pthread_attr_t attr;
  pthread_t thread;
  const bool made = pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, std::size_t{1} << 30) == 0 &&
                    pthread_create(&thread, &attr, body, &job) == 0;
  pthread_attr_destroy(&attr);
  if (made) pthread_join(thread, nullptr);
  else body(&job);  // no thread to be had: run here
  if (job.error) std::rethrow_exception(job.error);
}

RunResult run_script_here(const std::string& source, const std::string& file, const RunOptions& options);

}  // namespace

RunResult run_script(const std::string& source, const std::string& file, const RunOptions& options) {
  RunResult r;
  auto run = [&] { r = run_script_here(source, file, options); };
  on_large_stack(run);
  return r;
}

std::string RunError::format() const {
  if (refused) {
    std::string out = file;
    if (line > 0) out += ":" + std::to_string(line) + (col > 0 ? ":" + std::to_string(col) : "");
    return out + ": " + type + ": " + message;
  }
  return type + ": " + message + (line > 0 ? " (line " + std::to_string(line) + ")" : "");
}

std::vector<std::string> RunResult::output_lines() const {
  std::vector<std::string> out;
  for (const auto& e : log().events)
    if (e.kind == EventKind::Output) out.push_back(e.text);
  return out;
}

std::vector<std::pair<int, std::string>> RunResult::warnings() const {
  std::vector<std::pair<int, std::string>> out;
  for (const auto& e : log().events)
    if (e.kind == EventKind::Warning) out.emplace_back(e.line, e.text);
  return out;
}

namespace {

RunResult run_script_here(const std::string& source, const std::string& file, const RunOptions& options) {
  RunResult r;
  r.engine = std::make_shared<Engine>(options.limits);
  r.engine->log().file = file;
  r.engine->log().script = source;
  std::shared_ptr<script::Module> module;
  try {
    module = std::make_shared<script::Module>(script::parse_module(source, file));
  } catch (const script::ScriptException& e) {
    const auto& se = e.error();
    r.error = RunError{se.type, se.message, se.file, se.line, se.col, true};
    return r;
  }
  try {
    r.interp = std::make_shared<script::Interpreter>(*r.engine, options, file);
  } catch (const script::PyException& e) {
    r.error = RunError{"InternalError", "the library prelude failed: " + e.type + ": " + e.message, file, e.line, 0, true};
    return r;
  } catch (const script::ScriptException& e) {
    r.error = RunError{"InternalError", std::string("the library prelude failed: ") + e.what(), file, 0, 0, true};
    return r;
  }
  // The interpreter keeps pointers into the module; keep it alive with the result.
  r.engine->set_line(0);
  try {
    r.interp->run_module(*module);
  } catch (const script::ScriptException& e) {
    const auto& se = e.error();
    // Unknown imports are refused before anything runs.
    r.error = RunError{se.type, se.message, se.file, se.line, se.col, se.type == "ModuleNotFoundError" || se.type == "SyntaxError"};
  } catch (const script::PyException& e) {
    r.error = RunError{e.type, e.message, file, e.line, 0, false};
    r.engine->error(e.type, e.message, e.line);
  } catch (const script::BreakSignal&) {
    r.error = RunError{"SyntaxError", "'break' outside loop", file, r.engine->line(), 0, false};
  } catch (const script::ContinueSignal&) {
    r.error = RunError{"SyntaxError", "'continue' not properly in loop", file, r.engine->line(), 0, false};
  } catch (const script::ReturnSignal&) {
    r.error = RunError{"SyntaxError", "'return' outside function", file, r.engine->line(), 0, false};
  } catch (const TfError& e) {
    r.error = RunError{e.type(), e.what(), file, r.engine->line(), 0, false};
    r.engine->error(e.type(), e.what(), r.engine->line());
  } catch (const std::bad_alloc&) {
    r.error = RunError{"MemoryError", "the run ran out of memory", file, r.engine->line(), 0, false};
    r.engine->error("MemoryError", "the run ran out of memory", r.engine->line());
  }
  r.interp_module_ = module;
  return r;
}

}  // namespace

}  // namespace ts

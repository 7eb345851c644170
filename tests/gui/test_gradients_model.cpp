// Why None / Gradients rows: values, None with cause, message, fix and break line.
#include <catch2/catch.hpp>

#include "gui_test_util.h"
#include "model/gradients_model.h"
#include "model/log_index.h"
#include "model/log_query.h"

using namespace ts;
using namespace ts::gui;

TEST_CASE("a gradient that exists shows its value", "[gradients]") {
  test::BasicRun b;
  Session s(Session::Options{false, {}});
  s.adopt(test::loaded_from(b.engine, test::BasicRun::kScript));
  GradientsModel m;
  m.sync(s);
  REQUIRE(m.calls().size() == 1);
  const GradientCallRow& c = m.calls()[0];
  CHECK(c.line == 7);
  CHECK(c.tape_text == "tape");
  CHECK(c.targets == std::vector<std::string>{"y"});
  CHECK(c.reached);
  REQUIRE(c.results.size() == 1);
  CHECK(c.results[0].source == "x");
  CHECK_FALSE(c.results[0].none);
  CHECK(c.results[0].value == "6.0");
  CHECK(c.results[0].dtype_shape == "float32 ()");
  CHECK(m.none_count() == 0);
}

TEST_CASE("a None row carries its cause - explanation - fix and break line", "[gradients]") {
  test::NumpyRun n;
  Session s(Session::Options{false, {}});
  s.adopt(test::loaded_from(n.engine, test::NumpyRun::script()));
  GradientsModel m;
  m.sync(s);
  REQUIRE(m.calls().size() == 1);
  REQUIRE(m.calls()[0].results.size() == 1);
  const GradientResultRow& r = m.calls()[0].results[0];
  CHECK(r.none);
  CHECK(r.value == "None");
  CHECK(r.has_diagnosis);
  CHECK(r.cause == "HOST_COMPUTATION");
  CHECK_FALSE(r.message.empty());
  CHECK_FALSE(r.fix.empty());
  CHECK(r.break_line == 8);
  CHECK_FALSE(r.evidence.empty());
  CHECK(m.none_count() == 1);
}

TEST_CASE("one call - several sources: each gets its own cause", "[gradients]") {
  test::WatchedRun w;
  Session s(Session::Options{false, {}});
  s.adopt(test::loaded_from(w.engine, ""));
  GradientsModel m;
  m.sync(s);
  REQUIRE(m.calls().size() == 1);
  const auto& r = m.calls()[0].results;
  REQUIRE(r.size() == 4);
  CHECK(r[0].source == "x0");
  CHECK(r[0].value == "6.0");
  CHECK(r[1].cause == "NOT_TRAINABLE");
  CHECK(r[2].cause == "NOT_WATCHED");
  CHECK(r[3].cause == "NOT_WATCHED");
  CHECK(m.none_count() == 3);
}

TEST_CASE("a call after the cursor is marked not reached - one around it active", "[gradients]") {
  test::BasicRun b;
  Session s(Session::Options{false, {}});
  s.adopt(test::loaded_from(b.engine, test::BasicRun::kScript));
  GradientsModel m;
  s.set_cursor(0);
  m.sync(s);
  CHECK_FALSE(m.calls()[0].reached);
  REQUIRE(s.apply_cursor_spec("backward"));
  m.sync(s);
  CHECK(m.calls()[0].reached);
  CHECK(m.calls()[0].active);
}

// The same rows from the scenarios the interpreter runs.
TEST_CASE("Why None rows of the guide's None scenarios", "[gradients]") {
  struct Case {
    const char* id;
    std::vector<std::string> causes;  // per None result, in order
  };
  const Case cases[] = {
      {"guide-numpy", {"HOST_COMPUTATION"}},
      {"guide-what-is-watched", {"NOT_TRAINABLE", "NOT_WATCHED", "NOT_WATCHED"}},
      {"guide-integer", {"INTEGER_DTYPE"}},
      {"guide-stateful", {"STATEFUL_OP"}},
      {"guide-unconnected", {"UNCONNECTED"}},
      {"guide-watch-accessed-off", {"AUTO_WATCH_OFF"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.id);
    Session s(Session::Options{false, {}});
    LoadedRun run = test::scenario_run(c.id);
    INFO(run.load_error);
    REQUIRE(run.load_error.empty());
    s.adopt(std::move(run));
    GradientsModel m;
    m.sync(s);
    std::vector<std::string> got;
    for (const auto& call : m.calls())
      for (const auto& r : call.results)
        if (r.none) {
          got.push_back(r.cause);
          CHECK_FALSE(r.message.empty());
          CHECK(r.break_line > 0);
        }
    CHECK(got == c.causes);
  }
}

TEST_CASE("a variable target goes by its name in the script, not TF's 'Variable:0'", "[gradients]") {
  // guide-control-flow: `result = v0`, so the first call's target is a read of v0.
  Session s(Session::Options{false, {}});
  LoadedRun run = test::scenario_run("guide-control-flow");
  REQUIRE(run.load_error.empty());
  s.adopt(std::move(run));
  GradientsModel m;
  m.sync(s);
  REQUIRE(!m.calls().empty());
  CHECK(m.calls()[0].targets == std::vector<std::string>{"v0"});
}

TEST_CASE("a layer's variable goes by its path, not a later loop's name for it", "[gradients]") {
  // guide-keras-layer binds the weights to `var` only in the loop after the gradient call.
  LoadedRun run = test::scenario_run("guide-keras-layer");
  REQUIRE(run.load_error.empty());
  const EventLog& log = *run.log;
  const LogIndex ix = build_log_index(log);
  int checked = 0;
  for (const VariableInfo& v : log.variables) {
    if (v.path.empty()) continue;
    CHECK(id_label(log, ix, v.id) == v.path);
    ++checked;
  }
  CHECK(checked == 2);
}

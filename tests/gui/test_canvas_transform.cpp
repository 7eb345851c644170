// Canvas transform tests (pure pan/zoom maths), and, when the views library is
// built, the graph view's interaction: commands (fit, search, focus) without ImGui,
// then headless ImGui frames with simulated mouse input (click selects, wheel zooms
// around the mouse, drag pans).
#include <catch2/catch.hpp>

#include <cmath>

#include "model/canvas_transform.h"

using namespace ts::gui;

TEST_CASE("world -> screen -> world round-trips", "[canvas_transform]") {
  for (double zoom : {0.02, 0.3, 1.0, 2.5, 7.9})
    for (double ox : {-1e6, -120.5, 0.0, 333.0})
      for (float wx : {-5000.f, 0.f, 12.25f, 7.5e6f}) {
        CAPTURE(zoom, ox, wx);
        const CanvasTransform t(zoom, ox, -40.0);
        const Vec2 w{wx, wx * 0.25f - 3.f};
        // Coordinates are floats: allow their rounding at the size of the
        // intermediate values (a screen x of -10^6, a world x of 7.5 * 10^6).
        const double eps = 2e-7;
        const Vec2 back = t.to_world(t.to_screen(w));
        const double screen_mag = std::abs(w.x * zoom) + std::abs(ox);
        CHECK(back.x == Approx(w.x).margin(eps * (std::abs(w.x) + screen_mag / zoom) + 1e-4));
        CHECK(back.y == Approx(w.y).margin(eps * (std::abs(w.y) + 40.0 / zoom) + 1e-4));
        const Vec2 s{640.f, 360.f};
        const Vec2 sback = t.to_screen(t.to_world(s));
        CHECK(sback.x == Approx(s.x).margin(eps * (std::abs(ox) + 640.0) * 2 + 1e-3));
        CHECK(sback.y == Approx(s.y).margin(1e-3));
      }
}

TEST_CASE("screen = world * zoom + offset", "[canvas_transform]") {
  const CanvasTransform t(2.0, 10.0, 20.0);
  CHECK(t.to_screen(Vec2{5, 7}) == Vec2{20, 34});
  CHECK(t.to_world(Vec2{20, 34}) == Vec2{5, 7});
  const Rect v = t.visible_world(Vec2{100, 50});
  CHECK(v.x0 == Approx(-5));
  CHECK(v.y0 == Approx(-10));
  CHECK(v.x1 == Approx(45));
  CHECK(v.y1 == Approx(15));
}

TEST_CASE("zoom around the mouse keeps the point under it", "[canvas_transform]") {
  CanvasTransform t(1.0, 100.0, 50.0);
  for (const Vec2 mouse : {Vec2{0, 0}, Vec2{300, 200}, Vec2{1599, 999}})
    for (double factor : {1.15, 1 / 1.15, 3.0, 0.25}) {
      CAPTURE(mouse.x, mouse.y, factor);
      const Vec2 before = t.to_world(mouse);
      const double z0 = t.zoom();
      t.zoom_at(mouse, factor);
      CHECK(t.zoom() == Approx(z0 * factor));
      const Vec2 after = t.to_world(mouse);
      CHECK(after.x == Approx(before.x).margin(1e-3));
      CHECK(after.y == Approx(before.y).margin(1e-3));
    }
}

TEST_CASE("zoom is clamped, and clamping keeps the mouse point too", "[canvas_transform]") {
  CanvasTransform t;
  t.set_zoom_limits(0.1, 4.0);
  const Vec2 mouse{400, 300};
  const Vec2 before = t.to_world(mouse);
  for (int i = 0; i < 100; ++i) t.zoom_at(mouse, 1.5);
  CHECK(t.zoom() == Approx(4.0));
  CHECK(t.to_world(mouse).x == Approx(before.x).margin(1e-3));
  for (int i = 0; i < 100; ++i) t.zoom_at(mouse, 0.5);
  CHECK(t.zoom() == Approx(0.1));
  CHECK(t.to_world(mouse).y == Approx(before.y).margin(1e-2));
  t.zoom_at(mouse, 0.0);  // nonsense factors change nothing
  t.zoom_at(mouse, NAN);
  CHECK(t.zoom() == Approx(0.1));
  CHECK(wheel_zoom_factor(1.f) > 1.f);
  CHECK(wheel_zoom_factor(-1.f) < 1.f);
  CHECK(wheel_zoom_factor(1.f) * wheel_zoom_factor(-1.f) == Approx(1.f));
}

TEST_CASE("pan moves the picture by the drag", "[canvas_transform]") {
  CanvasTransform t(0.5, 0, 0);
  const Vec2 w{100, 100};
  const Vec2 s0 = t.to_screen(w);
  t.pan_by(Vec2{30, -12});
  const Vec2 s1 = t.to_screen(w);
  CHECK(s1.x - s0.x == Approx(30));
  CHECK(s1.y - s0.y == Approx(-12));
}

TEST_CASE("fit shows the rectangle centred with its margin", "[canvas_transform]") {
  const Vec2 canvas{1600, 1000};
  SECTION("a wide graph fills the width") {
    CanvasTransform t;
    const Rect world{-500, -100, 20000, 300};
    t.fit(world, canvas, 20);
    const Rect s = t.to_screen(world);
    CHECK(s.x0 == Approx(20).margin(0.5));
    CHECK(s.x1 == Approx(1580).margin(0.5));
    CHECK((s.y0 + s.y1) * 0.5f == Approx(500).margin(0.5));
  }
  SECTION("a tall graph fills the height") {
    CanvasTransform t;
    const Rect world{0, 0, 100, 5000};
    t.fit(world, canvas, 30);
    const Rect s = t.to_screen(world);
    CHECK(s.y0 == Approx(30).margin(0.5));
    CHECK(s.y1 == Approx(970).margin(0.5));
    CHECK((s.x0 + s.x1) * 0.5f == Approx(800).margin(0.5));
  }
  SECTION("a tiny graph is not blown up") {
    CanvasTransform t;
    t.fit(Rect{0, 0, 60, 36}, canvas, 20, 1.25);
    CHECK(t.zoom() == Approx(1.25));
    const Rect s = t.to_screen(Rect{0, 0, 60, 36});
    CHECK(s.centre().x == Approx(800).margin(0.5));
    CHECK(s.centre().y == Approx(500).margin(0.5));
  }
  SECTION("a huge graph stops at the minimum zoom") {
    CanvasTransform t;
    t.fit(Rect{0, 0, 1e8f, 100}, canvas, 20);
    CHECK(t.zoom() == Approx(CanvasTransform::kDefaultMinZoom));
  }
}

TEST_CASE("ensure_visible pans as little as needed", "[canvas_transform]") {
  const Vec2 canvas{800, 600};
  CanvasTransform t(1.0, 0, 0);
  t.ensure_visible(Rect{100, 100, 200, 140}, canvas, 20);  // already visible
  CHECK(t.offset_x() == 0);
  CHECK(t.offset_y() == 0);
  t.ensure_visible(Rect{900, 100, 1000, 140}, canvas, 20);  // off to the right
  const Rect s = t.to_screen(Rect{900, 100, 1000, 140});
  CHECK(s.x1 == Approx(780));
  CHECK(t.offset_y() == 0);
  t.ensure_visible(Rect{0, 0, 5000, 40}, canvas, 20);  // too big: centred
  CHECK(t.to_screen(Rect{0, 0, 5000, 40}).centre().x == Approx(400));
  t.centre_on(Vec2{10, 10}, canvas);
  CHECK(t.to_screen(Vec2{10, 10}) == Vec2{400, 300});
}

#ifdef TAPESCOPE_HAS_VIEWS
#include <algorithm>
#include <cstring>
#include <filesystem>

#include "engine.h"
#include "imgui.h"
#include "run.h"
#include "scenario/scenario.h"
#include "views/graph_view.h"
#include "model/log_index.h"

namespace {

using namespace ts;

struct Scene {
  Engine engine;
  GraphModel model;
  GraphLayout layout;
  TensorId x = kNoId, y = kNoId;
};

// x = tf.Variable(3.0); with tape: y = x**2, then through np.mean: tape.gradient(z, x) is None.
void build_scene(Scene& s) {
  Engine& e = s.engine;
  s.x = e.create_variable(e.constant(make_scalar(DType::Float32, 3.0)), "Variable:0", true);
  e.bind_name("x", s.x, "ResourceVariable");
  const TapeId t = e.create_tape(false, true, "tape");
  e.enter_tape(t);
  s.y = e.execute1("Pow", {s.x, e.constant(make_scalar(DType::Float32, 2.0))}, {}, "x**2");
  const TensorId h = e.to_host(s.y, "np.mean");
  const TensorId m = e.host_op("np.mean", {h}, {make_scalar(DType::Float32, 9.0)}).at(0);
  const TensorId c = e.from_host(e.value(m), {m}, "tf.convert_to_tensor");
  const TensorId z = e.execute1("Mul", {c, e.constant(make_scalar(DType::Float32, 0.5))}, {}, "c*0.5");
  e.exit_tape(t);
  GradientRequest req;
  req.tape = t;
  req.targets = {z};
  req.sources = {{s.x, "x"}};
  REQUIRE(e.gradient(req).at(0) == kNoId);  // HOST_COMPUTATION
  REQUIRE(e.log().gradient_calls.back().results[0].diagnosis);
  s.model = build_graph_model(e.log());
  s.layout = layout_graph(s.model);
}

// An ImGui context for drawing frames without a window (fonts built, pointer away).
ImGuiContext* headless_imgui() {
  ImGuiContext* ctx = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DeltaTime = 1.0f / 60.0f;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  io.MousePos = ImVec2(-1000, -1000);
  return ctx;
}

// One frame of the graph view filling the display.
void draw_frame(GraphViewState& st, const GraphModel& m, const GraphLayout& l, const GraphHighlights& hl,
                GraphViewOutput& out) {
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
  ImGui::Begin("Graph", nullptr, ImGuiWindowFlags_NoDecoration);
  draw_graph_view(st, m, l, hl, out);
  ImGui::End();
  ImGui::Render();
}

}  // namespace

TEST_CASE("view commands: fit, search, focus (no ImGui)", "[graph_view]") {
  Scene s;
  build_scene(s);
  const Vec2 canvas{1000, 700};
  GraphViewState st;
  GraphHighlights hl;
  apply_view_commands(st, s.model, s.layout, hl, canvas);  // the first frame fits
  CHECK_FALSE(st.fit_requested);
  const Rect b = st.transform.to_screen(s.layout.bounds);
  CHECK(b.x0 >= 23.f);
  CHECK(b.x1 <= canvas.x - 23.f);
  CHECK(b.y0 >= 23.f);
  CHECK(b.y1 <= canvas.y - 23.f);
  // Nothing starts out under the legend: the graph is fitted beside it or below it.
  const Rect legend = legend_box(canvas, st.legend.items());
  CHECK(b.y1 <= legend.y0);
  const float free_centre_y = 0.5f * (legend.y0 - 4.f);

  SECTION("without the legend the whole canvas is used") {
    st.show_legend = false;
    st.fit();
    apply_view_commands(st, s.model, s.layout, hl, canvas);
    const Rect full = st.transform.to_screen(s.layout.bounds);
    CHECK(full.centre().y == Approx(350).margin(0.5));
  }
  SECTION("search centres on the first match, then the next") {
    st.transform = CanvasTransform(0.2, -3000, 900);
    st.search("x**2");
    apply_view_commands(st, s.model, s.layout, hl, canvas);
    REQUIRE_FALSE(st.search_hits.empty());
    CHECK(st.search_hits[0] == s.model.node_for(s.y));
    const Vec2 c = st.transform.to_screen(s.layout.node_rects[s.model.node_for(s.y)].centre());
    CHECK(c.x == Approx(500).margin(0.5));
    CHECK(c.y == Approx(free_centre_y).margin(0.5));  // the middle of what the legend leaves
    CHECK(st.transform.zoom() >= 0.75);  // zoomed in enough to read it
    st.search("read");  // matches only the ReadVariableOp
    apply_view_commands(st, s.model, s.layout, hl, canvas);
    REQUIRE(st.search_hits.size() == 1);
    st.search_next();
    CHECK(st.search_index == 0);
    st.search("nothing matches this");
    apply_view_commands(st, s.model, s.layout, hl, canvas);
    CHECK(st.search_hits.empty());
    CHECK(st.search_index == -1);
  }
  SECTION("a newly shown path is centred beside the legend, once") {
    const Diagnosis& d = *s.engine.log().gradient_calls.back().results[0].diagnosis;
    HighlightRequest req;
    req.diagnosis = &d;
    hl = compute_highlights(s.model, req);
    REQUIRE(hl.break_node >= 0);
    apply_view_commands(st, s.model, s.layout, hl, canvas);
    // Every node of the path (and so its break) is on screen, clear of the legend.
    REQUIRE_FALSE(hl.path.empty());
    for (const PathSegment& seg : hl.path)
      for (int v : {seg.from, seg.to}) {
        const Rect r = st.transform.to_screen(s.layout.node_rects[v]);
        CHECK(r.x0 >= 0.f);
        CHECK(r.x1 <= canvas.x);
        CHECK(r.y1 <= legend.y0);
      }
    const float x = st.transform.to_screen(s.layout.node_rects[hl.break_node].centre()).x;
    // The learner pans away; the same highlight does not pull the view back.
    st.transform.pan_by(Vec2{300, 0});
    apply_view_commands(st, s.model, s.layout, hl, canvas);
    CHECK(st.transform.to_screen(s.layout.node_rects[hl.break_node].centre()).x == Approx(x + 300).margin(0.5));
  }
  SECTION("the gradient pass toggle asks for its layout") {
    st.show_gradient_pass = true;
    CHECK(st.layout_options().include_gradient_pass);
  }
}

// Showing a None frames what the learner must see: the break, the path and the nodes
// the evidence names, whenever they fit at a readable zoom (0.5) beside the legend.
TEST_CASE("showing a None frames its break with its path and evidence", "[graph_view][scenarios]") {
  const Vec2 canvas{1000, 700};
  auto framed_ids = [&](const std::string& file, std::vector<std::string>* missed) {
    const Scenario sc = load_scenario(std::string(TAPESCOPE_SCENARIOS) + "/" + file);
    const RunResult run = run_script(sc.script, file);
    REQUIRE(run.engine);
    GraphModelOptions opt;
    opt.extra_control_edges = &run.engine->extra_edges();
    const GraphModel m = build_graph_model(run.log(), opt);
    const GraphLayout l = layout_graph(m);
    int shown = 0;
    for (const GradientCall& call : run.log().gradient_calls)
      for (const SourceResult& r : call.results) {
        if (!r.diagnosis) continue;
        GraphViewState st;
        GraphHighlights none;
        apply_view_commands(st, m, l, none, canvas);  // fitted
        st.transform.pan_by(Vec2{4000, 0});           // looking elsewhere
        HighlightRequest req;
        req.diagnosis = &*r.diagnosis;
        const GraphHighlights hl = compute_highlights(m, req);
        if (hl.break_node < 0) continue;
        apply_view_commands(st, m, l, hl, canvas);
        const Rect legend = legend_box(canvas, st.legend.items());
        Rect want = l.node_rects[static_cast<size_t>(hl.break_node)];
        for (size_t v = 0; v < hl.node_marks.size(); ++v)
          if (hl.node_marks[v] & (kMarkPath | kMarkEvidence | kMarkBreak)) {
            const Rect& n = l.node_rects[v];
            want = Rect{std::min(want.x0, n.x0), std::min(want.y0, n.y0), std::max(want.x1, n.x1), std::max(want.y1, n.y1)};
          }
        const bool readable = std::min((canvas.x - 80) / want.width(), (legend.y0 - 84) / want.height()) >= 0.5;
        for (size_t v = 0; v < hl.node_marks.size(); ++v) {
          const bool must = static_cast<int>(v) == hl.break_node || (readable && hl.node_marks[v] != 0);
          if (!must) continue;
          const Rect sr = st.transform.to_screen(l.node_rects[v]);
          const bool on = sr.x0 >= 0 && sr.x1 <= canvas.x && sr.y0 >= 0 && sr.y1 <= legend.y0;
          if (!on) missed->push_back(file + ": " + r.label + " node " + m.nodes[v].label);
        }
        ++shown;
      }
    return shown;
  };
  std::vector<std::string> missed;
  // REPLACED_VARIABLE has no path: the variable it names is evidence, left of the break.
  CHECK(framed_ids("guide-replaced-variable.json", &missed) == 1);
  int shown = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TAPESCOPE_SCENARIOS))
    if (entry.path().extension() == ".json") shown += framed_ids(entry.path().filename().string(), &missed);
  CHECK(shown >= 12);
  CHECK(missed == std::vector<std::string>{});
}

TEST_CASE("entering a backward pass frames the ops it steps through and its sources", "[graph_view][scenarios]") {
  // The whole run's fitted graph is often too small to read a step in.
  const Vec2 canvas{760, 420};  // the graph panel of a 1600x1000 window
  const Scenario sc = load_scenario(std::string(TAPESCOPE_SCENARIOS) + "/guide-model-gradients.json");
  const RunResult run = run_script(sc.script, "guide-model-gradients.json");
  REQUIRE(run.engine);
  const GraphModel m = build_graph_model(run.log());
  const GraphLayout l = layout_graph(m);
  const LogIndex ix = build_log_index(run.log());
  REQUIRE(!ix.calls.empty());
  REQUIRE(!ix.calls[0].steps.empty());
  GraphViewState st;
  GraphHighlights none;
  apply_view_commands(st, m, l, none, canvas);
  // As a long run's fitted graph would be: too small to read.
  st.transform.set_zoom_at(Vec2{canvas.x * 0.5f, canvas.y * 0.5f}, 0.2);
  HighlightRequest req;
  req.cursor = static_cast<int>(ix.calls[0].steps[ix.calls[0].steps.size() / 2]);
  const GraphHighlights hl = compute_highlights(m, req);
  REQUIRE(hl.call != kNoId);
  REQUIRE(!hl.call_nodes.empty());
  apply_view_commands(st, m, l, hl, canvas);
  CHECK(st.transform.zoom() >= 0.5);
  const Rect legend = legend_box(canvas, st.legend.items());
  for (int v : hl.call_nodes) {
    const Rect sr = st.transform.to_screen(l.node_rects[static_cast<size_t>(v)]);
    CHECK((sr.x0 >= 0 && sr.x1 <= canvas.x && sr.y0 >= 0 && sr.y1 <= legend.y0));
  }
}

TEST_CASE("showing a None frames its call's targets too, and reads recording against its call's tape",
          "[graph_view][scenarios]") {
  // UNCONNECTED has no path: without its target the learner sees only the source.
  const Vec2 canvas{1000, 700};
  const Scenario sc = load_scenario(std::string(TAPESCOPE_SCENARIOS) + "/guide-unconnected.json");
  const RunResult run = run_script(sc.script, "guide-unconnected.json");
  REQUIRE(run.engine);
  const GraphModel m = build_graph_model(run.log());
  const GraphLayout l = layout_graph(m);
  const GradientCall& call = run.log().gradient_calls.back();
  REQUIRE(call.results[0].diagnosis);
  GraphViewState st;
  GraphHighlights none;
  apply_view_commands(st, m, l, none, canvas);
  st.transform.pan_by(Vec2{4000, 0});
  HighlightRequest req;
  req.diagnosis = &*call.results[0].diagnosis;
  const GraphHighlights hl = compute_highlights(m, req);
  CHECK(hl.tape == call.tape);
  REQUIRE(hl.target_nodes.size() == 1);
  apply_view_commands(st, m, l, hl, canvas);
  const Rect legend = legend_box(canvas, st.legend.items());
  for (int v : {hl.break_node, hl.target_nodes[0]}) {
    const Rect sr = st.transform.to_screen(l.node_rects[static_cast<size_t>(v)]);
    CHECK((sr.x0 >= 0 && sr.x1 <= canvas.x && sr.y0 >= 0 && sr.y1 <= legend.y0));
  }
}

TEST_CASE("level of detail drops detail as the zoom falls", "[graph_view]") {
  const GraphLod near = lod_for_zoom(1.5), mid = lod_for_zoom(0.6), far = lod_for_zoom(0.05);
  CHECK(near.text);
  CHECK(near.edge_labels);
  CHECK(mid.text);
  CHECK_FALSE(mid.edge_labels);
  CHECK_FALSE(far.text);
  CHECK_FALSE(far.rounded);
  CHECK_FALSE(far.curves);
}

TEST_CASE("headless frames: gradient values never cover one another", "[graph_view]") {
  const Scenario sc = load_scenario(std::string(TAPESCOPE_SCENARIOS) + "/guide-model-gradients.json");
  const RunResult run = run_script(sc.script, "guide-model-gradients.json");
  REQUIRE(run.engine);
  const GraphModel m = build_graph_model(run.log());
  const GraphLayout l = layout_graph(m);
  // The cursor on the last backward step: every gradient of the pass has a value.
  int cursor = -1;
  for (size_t i = 0; i < run.log().events.size(); ++i)
    if (run.log().events[i].kind == EventKind::BackwardStep) cursor = static_cast<int>(i);
  REQUIRE(cursor > 0);
  HighlightRequest req;
  req.cursor = cursor;
  const GraphHighlights hl = compute_highlights(m, req);
  REQUIRE(hl.edge_grads.size() >= 4);

  ImGuiContext* ctx = headless_imgui();
  ImGuiIO& io = ImGui::GetIO();
  for (const ImVec2 display : {ImVec2(700, 420), ImVec2(1600, 900)}) {
    CAPTURE(display.x);
    io.DisplaySize = display;
    GraphViewState st;
    GraphViewOutput out;
    for (int i = 0; i < 2; ++i) {
      draw_frame(st, m, l, hl, out);
    }
    CHECK(out.gradient_labels.size() >= 2);
    for (size_t i = 0; i < out.gradient_labels.size(); ++i)
      for (size_t j = i + 1; j < out.gradient_labels.size(); ++j) CHECK_FALSE(out.gradient_labels[i].overlaps(out.gradient_labels[j]));
  }
  ImGui::DestroyContext(ctx);
}

TEST_CASE("headless frames: dtype/shape labels cover no node and no other label", "[graph_view]") {
  // guide-integer: `x * x` of an int32 x, whose short edge used to put "int32 ()" under Mul.
  for (const char* file : {"guide-integer.json", "guide-model-gradients.json"}) {
    CAPTURE(file);
    const Scenario sc = load_scenario(std::string(TAPESCOPE_SCENARIOS) + "/" + file);
    const RunResult run = run_script(sc.script, file);
    REQUIRE(run.engine);
    const GraphModel m = build_graph_model(run.log());
    const GraphLayout l = layout_graph(m);
    const GraphHighlights hl = compute_highlights(m, HighlightRequest{});
    ImGuiContext* ctx = headless_imgui();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1600, 900);
    GraphViewState st;
    GraphViewOutput out;
    for (int i = 0; i < 3; ++i) {
      if (i == 1 && st.transform.zoom() < 1.3) {  // labels show from 1.2
        st.transform.set_zoom_at(Vec2{800, 450}, 1.3);
        st.transform.centre_on(l.node_rects[0].centre(), Vec2{1600, 900});
      }
      draw_frame(st, m, l, hl, out);
    }
    CHECK(!out.edge_labels.empty());
    for (size_t i = 0; i < out.edge_labels.size(); ++i) {
      if (out.edge_labels[i].x0 >= out.canvas_origin.x + out.canvas_size.x) continue;  // clipped away
      for (size_t j = i + 1; j < out.edge_labels.size(); ++j) CHECK_FALSE(out.edge_labels[i].overlaps(out.edge_labels[j]));
      for (size_t v = 0; v < l.placed.size(); ++v) {
        if (!l.placed[v]) continue;
        const Rect n = st.transform.to_screen(l.node_rects[v]);
        const Rect sn{n.x0 + out.canvas_origin.x, n.y0 + out.canvas_origin.y, n.x1 + out.canvas_origin.x,
                      n.y1 + out.canvas_origin.y};
        CHECK_FALSE(out.edge_labels[i].overlaps(sn));
      }
    }
    ImGui::DestroyContext(ctx);
  }
}

TEST_CASE("headless frames: draw, click selects, wheel zooms around the mouse, drag pans", "[graph_view]") {
  Scene s;
  build_scene(s);
  IMGUI_CHECKVERSION();
  ImGuiContext* ctx = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(1200, 800);
  io.DeltaTime = 1.0f / 60.0f;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);

  GraphViewState st;
  HighlightRequest req;
  req.diagnosis = &*s.engine.log().gradient_calls.back().results[0].diagnosis;
  const GraphHighlights hl = compute_highlights(s.model, req);
  GraphViewOutput out;
  auto frame = [&] {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("Graph", nullptr, ImGuiWindowFlags_NoDecoration);
    draw_graph_view(st, s.model, s.layout, hl, out);
    ImGui::End();
    ImGui::Render();
  };
  io.MousePos = ImVec2(-1000, -1000);
  for (int i = 0; i < 3; ++i) frame();
  CHECK(out.drawn_nodes == s.layout.placed_count);  // the fitted graph is all on screen
  CHECK(out.drawn_edges > 0);
  CHECK(ImGui::GetDrawData()->TotalVtxCount > 1000);

  // Where the Pow node is on screen.
  const int pow = s.model.node_for(s.y);
  auto node_on_screen = [&](int n) {
    const Vec2 c = st.transform.to_screen(s.layout.node_rects[n].centre());
    return ImVec2(out.canvas_origin.x + c.x, out.canvas_origin.y + c.y);
  };

  // Click: press and release without moving.
  io.MousePos = node_on_screen(pow);
  io.MousePos = ImVec2(std::floor(io.MousePos.x), std::floor(io.MousePos.y));
  frame();
  CHECK(out.hovered_node == pow);
  io.MouseDown[0] = true;
  frame();
  io.MouseDown[0] = false;
  frame();
  CHECK(out.clicked);
  CHECK(out.selected_node == pow);
  CHECK(out.selected_id == s.model.nodes[pow].id);

  // Wheel: zoom in around the mouse; the world point under it stays there (ImGui
  // floors the mouse position, so compare world points, not the node's centre).
  const ImVec2 mouse = io.MousePos;
  const Vec2 local{mouse.x - out.canvas_origin.x, mouse.y - out.canvas_origin.y};
  const Vec2 under = st.transform.to_world(local);
  const double z0 = st.transform.zoom();
  io.MouseWheel = 2.0f;
  frame();
  io.MouseWheel = 0.0f;
  CHECK(st.transform.zoom() == Approx(z0 * wheel_zoom_factor(2.0f)));
  CHECK(st.transform.to_world(local).x == Approx(under.x).margin(1e-2));
  CHECK(st.transform.to_world(local).y == Approx(under.y).margin(1e-2));
  CHECK(s.layout.node_rects[pow].contains(under));
  const ImVec2 after = node_on_screen(pow);

  // Drag: the picture follows the mouse, and a drag is not a click.
  io.MouseDown[0] = true;
  frame();
  for (int i = 0; i < 5; ++i) {
    io.MousePos.x += 20;
    frame();
  }
  io.MouseDown[0] = false;
  frame();
  CHECK_FALSE(out.clicked);
  const ImVec2 dragged = node_on_screen(pow);
  CHECK(dragged.x - after.x == Approx(100).margin(1.0));

  // Click on empty space clears the selection.
  io.MousePos = ImVec2(out.canvas_origin.x + 5, out.canvas_origin.y + out.canvas_size.y - 5);
  frame();
  io.MouseDown[0] = true;
  frame();
  io.MouseDown[0] = false;
  frame();
  CHECK(out.clicked);
  CHECK(out.selected_node == -1);
  CHECK(out.selected_id == kNoId);

  // The gradient-pass toggle changes nothing by itself: the app relays out.
  st.show_gradient_pass = true;
  const GraphLayout with_grad = layout_graph(s.model, st.layout_options());
  st.reset_for_new_graph();
  for (int i = 0; i < 2; ++i) {
    ImGui::NewFrame();
    ImGui::Begin("Graph");
    draw_graph_view(st, s.model, with_grad, hl, out);
    ImGui::End();
    ImGui::Render();
  }
  CHECK(out.drawn_nodes == with_grad.placed_count);
  ImGui::DestroyContext(ctx);
}
#endif

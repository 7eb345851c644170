// Graph view: ImDrawList rendering of the graph model (see graph_view.h).
//
// [SECTION] colours and level of detail
// [SECTION] commands (pure)
// [SECTION] drawing primitives
// [SECTION] canvas layers: grid, groups, edges, overlays, nodes
// [SECTION] legend
// [SECTION] tooltips
// [SECTION] toolbar
// [SECTION] draw_graph_view
#include "graph_view.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "imgui.h"

namespace ts::gui {

//-----------------------------------------------------------------------------
// [SECTION] colours and level of detail
//-----------------------------------------------------------------------------

namespace {

constexpr float kLabelSize = 13.0f;  // label font size in world units (LayoutOptions::char_width matches)
constexpr float kSubtitleScale = 0.85f;

ImU32 node_fill(NodeKind k) {
  switch (k) {
    case NodeKind::TrainableVariable: return IM_COL32(38, 128, 76, 255);
    case NodeKind::NonTrainableVariable: return IM_COL32(92, 110, 98, 255);
    case NodeKind::Constant: return IM_COL32(74, 80, 96, 255);
    case NodeKind::WatchedTensor: return IM_COL32(22, 128, 146, 255);
    case NodeKind::RecordedOp: return IM_COL32(46, 96, 166, 255);
    case NodeKind::NotRecordedOp: return IM_COL32(58, 60, 68, 255);
    case NodeKind::HostOp: return IM_COL32(178, 104, 26, 255);
    case NodeKind::StatefulOp: return IM_COL32(120, 74, 156, 255);
    case NodeKind::NoGradientOp: return IM_COL32(160, 52, 52, 255);
    case NodeKind::GradientOp: return IM_COL32(84, 64, 88, 170);
  }
  return IM_COL32(80, 80, 80, 255);
}

ImU32 node_border(NodeKind k) {
  switch (k) {
    case NodeKind::NotRecordedOp: return IM_COL32(170, 172, 182, 255);
    case NodeKind::GradientOp: return IM_COL32(150, 120, 155, 170);
    default: return IM_COL32(200, 206, 220, 150);
  }
}

ImU32 edge_colour(EdgeKind k) {
  switch (k) {
    case EdgeKind::Data: return IM_COL32(150, 160, 182, 210);
    case EdgeKind::Host: return IM_COL32(236, 150, 56, 230);
    case EdgeKind::State: return IM_COL32(186, 136, 230, 220);
    case EdgeKind::Control: return IM_COL32(226, 206, 120, 220);
  }
  return IM_COL32_WHITE;
}

const ImU32 kCanvasBg = IM_COL32(22, 24, 30, 255);
const ImU32 kGrid = IM_COL32(255, 255, 255, 10);
const ImU32 kPath = IM_COL32(255, 196, 36, 255);
const ImU32 kBreak = IM_COL32(238, 56, 56, 255);
const ImU32 kGrad = IM_COL32(255, 92, 206, 255);       // gradients flowing back
const ImU32 kGradDim = IM_COL32(255, 92, 206, 150);
const ImU32 kSelected = IM_COL32(255, 255, 255, 255);
const ImU32 kSearchHit = IM_COL32(70, 220, 255, 255);
const ImU32 kText = IM_COL32(240, 242, 248, 255);
const ImU32 kSubText = IM_COL32(200, 206, 220, 200);
const ImU32 kWatchDot = IM_COL32(120, 240, 230, 255);
const ImU32 kGroupFill = IM_COL32(120, 130, 200, 22);
const ImU32 kGroupBorder = IM_COL32(140, 150, 220, 140);
const ImU32 kLabelBg = IM_COL32(16, 18, 24, 220);

ImU32 with_alpha(ImU32 c, float a) {
  const unsigned alpha = static_cast<unsigned>(((c >> IM_COL32_A_SHIFT) & 0xFF) * std::clamp(a, 0.f, 1.f));
  return (c & ~IM_COL32_A_MASK) | (alpha << IM_COL32_A_SHIFT);
}

constexpr float kPendingAlpha = 0.22f;  // not executed yet at the cursor

}  // namespace

GraphLod lod_for_zoom(double z) {
  GraphLod lod;
  lod.text = z >= 0.5;
  lod.subtitle = z >= 0.7;
  lod.rounded = z >= 0.3;
  lod.curves = z >= 0.12;
  lod.arrows = z >= 0.35;
  lod.edge_labels = z >= 1.2;
  lod.gradient_labels = z >= 0.35;
  lod.antialias = z >= 0.15;
  return lod;
}

//-----------------------------------------------------------------------------
// [SECTION] commands (pure)
//-----------------------------------------------------------------------------

void GraphViewState::search(const std::string& text) {
  search_text = text;
  std::snprintf(search_buf, sizeof search_buf, "%s", text.c_str());
  search_requested = true;
}

void GraphViewState::search_next() {
  if (search_hits.empty()) return;
  search_index = (search_index + 1) % static_cast<int>(search_hits.size());
  centre_node = search_hits[static_cast<size_t>(search_index)];
}

void GraphViewState::reset_for_new_graph() {
  fit_requested = true;
  search_hits.clear();
  search_index = -1;
  if (!search_text.empty()) search_requested = true;
  collapsed_groups.clear();
  centre_node = -1;
  last_focus_key = 0;
  pressed = false;
}

bool node_hidden_by_group(const GraphViewState& st, const GraphModel& m, int node) {
  if (st.collapsed_groups.empty()) return false;
  for (int g = m.nodes[static_cast<size_t>(node)].group; g >= 0; g = m.groups[static_cast<size_t>(g)].parent)
    if (static_cast<size_t>(g) < st.collapsed_groups.size() && st.collapsed_groups[static_cast<size_t>(g)]) return true;
  return false;
}

// The lowest zoom at which node labels are still drawn (lod_for_zoom).
constexpr double kReadableZoom = 0.5;

// The zoom at which `frame` (world) fills `free_size` (pixels) with a 40-pixel margin.
static double fit_zoom(const Rect& frame, Vec2 free_size) {
  return std::min((free_size.x - 80.0) / std::max(1.f, frame.width()), (free_size.y - 80.0) / std::max(1.f, frame.height()));
}

void apply_view_commands(GraphViewState& st, const GraphModel& m, const GraphLayout& l, const GraphHighlights& hl,
                         Vec2 size) {
  st.canvas_size = size;
  if (st.collapsed_groups.size() != m.groups.size()) st.collapsed_groups.assign(m.groups.size(), 0);
  auto placed = [&](int n) {
    return n >= 0 && static_cast<size_t>(n) < l.placed.size() && l.placed[static_cast<size_t>(n)];
  };
  auto grow = [&](Rect& into, int v) {  // `into` widened to hold node v
    if (!placed(v)) return;
    const Rect& r = l.node_rects[static_cast<size_t>(v)];
    into = Rect{std::min(into.x0, r.x0), std::min(into.y0, r.y0), std::max(into.x1, r.x1), std::max(into.y1, r.y1)};
  };
  if (st.legend_layout != &l || st.legend_nodes != l.placed.size() || st.legend_tape != hl.tape) {
    st.legend = build_legend(m, l, hl.tape);
    st.legend_layout = &l;
    st.legend_nodes = l.placed.size();
    st.legend_tape = hl.tape;
  }
  // The legend is a strip along the bottom: fit and follow the graph in what it
  // leaves free, so no node starts out hidden behind it.
  const Rect box = legend_box(size, st.legend.items());
  const bool legend_on = st.show_legend && box.y0 > 0.4f * size.y;
  const Vec2 free_size = legend_on ? Vec2{size.x, box.y0 - 4.f} : size;
  if (st.fit_requested) {
    st.transform.fit(l.bounds, free_size, 24.f);
    st.fit_requested = false;
  }
  if (st.search_requested) {
    st.search_hits.clear();
    for (int n : search_nodes(m, st.search_text))
      if (placed(n)) st.search_hits.push_back(n);
    st.search_index = st.search_hits.empty() ? -1 : 0;
    if (st.search_index >= 0) st.centre_node = st.search_hits[0];
    st.search_requested = false;
  }
  if (hl.focus_key == 0) {
    st.last_focus_key = 0;
  } else if (hl.focus_key != st.last_focus_key) {
    st.last_focus_key = hl.focus_key;
    if (placed(hl.focus_node)) {
      if (hl.focus_mode == FocusMode::Centre) st.centre_node = hl.focus_node;
      else if (hl.focus_mode == FocusMode::EnsureVisible) {
        // Entering a backward pass: frame the ops it steps through (the whole run's graph,
        // fitted, is often too small to read), zoomed no further in than 100%.
        if (hl.call != kNoId && hl.call != st.last_framed_call && !hl.call_nodes.empty()) {
          st.last_framed_call = hl.call;
          Rect frame = l.node_rects[static_cast<size_t>(hl.focus_node)];
          for (int v : hl.call_nodes) grow(frame, v);
          const double fits = fit_zoom(frame, free_size);
          if (fits >= kReadableZoom && fits > st.transform.zoom()) {
            st.transform.set_zoom_at(Vec2{size.x * 0.5f, size.y * 0.5f}, std::min(fits, 1.0));
            st.transform.centre_on(frame.centre(), free_size);
          }
        }
        st.transform.ensure_visible(l.node_rects[static_cast<size_t>(hl.focus_node)], free_size, 40.f);
      }
    }
  }
  if (st.centre_node >= 0) {
    const int n = st.centre_node;
    st.centre_node = -1;
    if (placed(n)) {
      // Open the groups around it, zoom in enough to read it, and centre it.
      for (int g = m.nodes[static_cast<size_t>(n)].group; g >= 0; g = m.groups[static_cast<size_t>(g)].parent)
        st.collapsed_groups[static_cast<size_t>(g)] = 0;
      if (st.transform.zoom() < 0.75) st.transform.set_zoom_at(Vec2{size.x * 0.5f, size.y * 0.5f}, 1.0);
      // A shown None diagnosis is framed whole -- its path, its break and the nodes its
      // evidence names (REPLACED_VARIABLE's variable has no path to it) -- when that fits
      // readably beside the legend; else its path alone; else its break (the node asked
      // for) is centred.
      Rect target = l.node_rects[static_cast<size_t>(n)];
      bool on_path = false;
      Rect path = target;
      for (const PathSegment& seg : hl.path)
        for (int v : {seg.from, seg.to}) {
          on_path = on_path || v == n;
          grow(path, v);
        }
      std::vector<Rect> frames;
      if (n == hl.break_node) {
        Rect whole = on_path ? path : target;
        for (size_t v = 0; v < hl.node_marks.size(); ++v)
          if (hl.node_marks[v] & (kMarkEvidence | kMarkBreak)) grow(whole, static_cast<int>(v));
        // ... and its targets: UNCONNECTED has no path, and the learner wants both ends.
        Rect with_targets = whole;
        for (int t : hl.target_nodes) grow(with_targets, t);
        frames.push_back(with_targets);
        frames.push_back(whole);
      }
      if (on_path) frames.push_back(path);
      for (const Rect& frame : frames) {
        // Zoom out as far as labels stay readable to show it whole.
        const double fits = fit_zoom(frame, free_size);
        if (fits < kReadableZoom) continue;
        if (fits < st.transform.zoom()) st.transform.set_zoom_at(Vec2{size.x * 0.5f, size.y * 0.5f}, fits);
        target = frame;
        break;
      }
      st.transform.centre_on(target.centre(), free_size);
    }
  }
}

//-----------------------------------------------------------------------------
// [SECTION] drawing primitives
//-----------------------------------------------------------------------------

namespace {

// Everything a layer needs to map world to screen and cull.
struct Frame {
  ImDrawList* dl = nullptr;
  ImFont* font = nullptr;
  ImVec2 origin;             // canvas top-left, screen
  ImVec4 clip;               // canvas rectangle, screen
  const CanvasTransform* tf = nullptr;
  Rect view;                 // visible world rectangle
  std::vector<Rect>* gradient_labels = nullptr;  // placed this frame: later ones never cover them
  std::vector<Rect>* edge_labels = nullptr;      // dtype/shape labels placed this frame
  std::vector<Rect> node_rects;                  // visible nodes, screen (edge labels avoid them)
  float zoom = 1;
  GraphLod lod;
  ImVec2 to_screen(Vec2 w) const {
    const Vec2 s = tf->to_screen(w);
    return ImVec2(s.x + origin.x, s.y + origin.y);
  }
  Rect screen_rect(const Rect& w) const {
    const ImVec2 a = to_screen(Vec2{w.x0, w.y0}), b = to_screen(Vec2{w.x1, w.y1});
    return Rect{a.x, a.y, b.x, b.y};
  }
};

// Clips segment a-b to the rectangle (Liang-Barsky); false when outside.
bool clip_segment(ImVec2 a, ImVec2 b, const ImVec4& r, float& t0, float& t1) {
  t0 = 0, t1 = 1;
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float p[4] = {-dx, dx, -dy, dy};
  const float q[4] = {a.x - r.x, r.z - a.x, a.y - r.y, r.w - a.y};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return false;
      continue;
    }
    const float t = q[i] / p[i];
    if (p[i] < 0) t0 = std::max(t0, t);
    else t1 = std::min(t1, t);
    if (t0 > t1) return false;
  }
  return true;
}

// Strokes a polyline with a dash pattern (dotted control edges, dashed state edges),
// emitting dashes only where the polyline crosses the clip rectangle: a long edge
// off screen costs nothing.
void stroke_pattern(ImDrawList* dl, const ImVec2* pts, int n, ImU32 col, float thickness, float dash, float gap,
                    const ImVec4& clip) {
  const float period = dash + gap;
  float phase = 0;  // distance into the pattern at the start of the current segment
  for (int i = 0; i + 1 < n; ++i) {
    const ImVec2 a = pts[i], b = pts[i + 1];
    const float len = std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
    if (len <= 0) continue;
    float t0, t1;
    if (clip_segment(a, b, clip, t0, t1)) {
      const float ux = (b.x - a.x) / len, uy = (b.y - a.y) / len;
      float s = t0 * len;
      const float end = t1 * len;
      float d = std::fmod(phase + s, period);
      while (s < end) {
        const bool on = d < dash;
        const float step = std::min(on ? dash - d : period - d, end - s);
        if (on && step > 0.05f)
          dl->AddLine(ImVec2(a.x + ux * s, a.y + uy * s), ImVec2(a.x + ux * (s + step), a.y + uy * (s + step)), col,
                      thickness);
        s += step;
        d += step;
        if (d >= period) d -= period;
      }
    }
    phase = std::fmod(phase + len, period);
  }
}

void dashed_rect(ImDrawList* dl, const Rect& r, ImU32 col, float thickness, float dash, float gap, const ImVec4& clip) {
  const ImVec2 pts[5] = {ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y0), ImVec2(r.x1, r.y1), ImVec2(r.x0, r.y1), ImVec2(r.x0, r.y0)};
  stroke_pattern(dl, pts, 5, col, thickness, dash, gap, clip);
}

// Samples an edge curve in screen space; the count follows its on-screen length.
int curve_points(const Frame& f, const EdgeCurve& c, bool curved, ImVec2* out, int max_points) {
  const ImVec2 p0 = f.to_screen(c.p0), p1 = f.to_screen(c.p1);
  if (!curved) {
    out[0] = p0;
    out[1] = p1;
    return 2;
  }
  const ImVec2 c0 = f.to_screen(c.c0), c1 = f.to_screen(c.c1);
  auto dist = [](ImVec2 a, ImVec2 b) { return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)); };
  const float len = dist(p0, c0) + dist(c0, c1) + dist(c1, p1);
  const int segs = std::clamp(static_cast<int>(len / 14.f), 4, max_points - 1);
  for (int i = 0; i <= segs; ++i) {
    const float t = static_cast<float>(i) / static_cast<float>(segs);
    const float u = 1 - t, a = u * u * u, b = 3 * u * u * t, d = 3 * u * t * t, e = t * t * t;
    out[i] = ImVec2(a * p0.x + b * c0.x + d * c1.x + e * p1.x, a * p0.y + b * c0.y + d * c1.y + e * p1.y);
  }
  return segs + 1;
}

void arrow_head(ImDrawList* dl, ImVec2 tip, ImVec2 from, float size, ImU32 col) {
  float dx = tip.x - from.x, dy = tip.y - from.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1e-3f) return;
  dx /= len, dy /= len;
  const ImVec2 base(tip.x - dx * size, tip.y - dy * size);
  dl->AddTriangleFilled(tip, ImVec2(base.x - dy * size * 0.5f, base.y + dx * size * 0.5f),
                        ImVec2(base.x + dy * size * 0.5f, base.y - dx * size * 0.5f), col);
}

// A label with a dark rounded background; `anchor` is its centre-bottom.
Rect pill(const Frame& f, ImVec2 anchor, const char* text, ImU32 text_col, ImU32 bg, float size) {
  const ImVec2 ts = f.font->CalcTextSizeA(size, FLT_MAX, 0.f, text);
  const Rect r{anchor.x - ts.x * 0.5f - 4, anchor.y - ts.y - 2, anchor.x + ts.x * 0.5f + 4, anchor.y + 1};
  f.dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), bg, 3.f);
  f.dl->AddText(f.font, size, ImVec2(r.x0 + 4, r.y0 + 1), text_col, text);
  return r;
}

// The gradients' values as pills, drawn last. Zoomed out, the values of neighbouring
// edges and nodes would pile into an unreadable heap over the nodes: the values of the
// step running now always show; any other shows only where it covers neither a node nor
// a value already placed (all of them show on hover, in the inspector and zoomed in).
void draw_gradient_values(const Frame& f, const GraphViewState& st, const GraphModel& m, const GraphLayout& l,
                          const GraphHighlights& hl) {
  if (!f.lod.gradient_labels || !f.gradient_labels) return;
  std::vector<Rect> nodes;
  for (int v : st.visible_nodes)
    if (st.collapsed_groups.empty() || !node_hidden_by_group(st, m, v))
      nodes.push_back(f.screen_rect(l.node_rects[static_cast<size_t>(v)]));
  std::vector<Rect>& placed = *f.gradient_labels;
  const float size = std::clamp(kLabelSize * 0.85f * f.zoom, 10.f, 15.f);
  auto place = [&](ImVec2 anchor, const char* text, ImU32 col, bool always) {
    const ImVec2 ts = f.font->CalcTextSizeA(size, FLT_MAX, 0.f, text);
    const Rect r{anchor.x - ts.x * 0.5f - 4, anchor.y - ts.y - 2, anchor.x + ts.x * 0.5f + 4, anchor.y + 1};
    for (const Rect& o : placed)
      if (r.overlaps(o)) return;
    if (!always)
      for (const Rect& o : nodes)
        if (r.overlaps(o)) return;
    placed.push_back(r);
    pill(f, anchor, text, col, kLabelBg, size);
  };
  auto node_value = [&](int v, bool always) {
    const TensorGradient* tg = hl.node_gradient(v);
    if (!tg || !l.placed[static_cast<size_t>(v)]) return;
    char buf[96];
    std::snprintf(buf, sizeof buf, "grad %s", tg->text.c_str());
    const Rect r = f.screen_rect(l.node_rects[static_cast<size_t>(v)]);
    const float h = f.font->CalcTextSizeA(size, FLT_MAX, 0.f, buf).y;
    place(ImVec2((r.x0 + r.x1) * 0.5f, r.y1 + h + 6), buf, tg->complete ? kGrad : kGradDim, always);
  };
  auto edge_values = [&](bool current) {
    for (const EdgeGradient& eg : hl.edge_grads) {
      const size_t e = static_cast<size_t>(eg.edge);
      if (eg.current != current || !l.edge_drawn[e] || !l.edge_bounds[e].overlaps(f.view)) continue;
      const ImVec2 mid = f.to_screen(bezier_point(l.edge_curves[e], 0.5f));
      place(ImVec2(mid.x, mid.y - 3), eg.text.c_str(), current ? kGrad : kGradDim, current);
    }
  };
  edge_values(true);
  if (hl.running_node >= 0) node_value(hl.running_node, true);
  edge_values(false);
  for (int v : st.visible_nodes)
    if (v != hl.running_node && (st.collapsed_groups.empty() || !node_hidden_by_group(st, m, v))) node_value(v, false);
}

void cross_mark(ImDrawList* dl, ImVec2 c, float s, ImU32 col) {
  dl->AddCircleFilled(c, s * 1.25f, IM_COL32(20, 10, 10, 230), 16);
  dl->AddLine(ImVec2(c.x - s * 0.6f, c.y - s * 0.6f), ImVec2(c.x + s * 0.6f, c.y + s * 0.6f), col, s * 0.35f);
  dl->AddLine(ImVec2(c.x - s * 0.6f, c.y + s * 0.6f), ImVec2(c.x + s * 0.6f, c.y - s * 0.6f), col, s * 0.35f);
}

//-----------------------------------------------------------------------------
// [SECTION] canvas layers: grid, groups, edges, overlays, nodes
//-----------------------------------------------------------------------------

void draw_grid(const Frame& f) {
  float step = 64.f;
  while (step * f.zoom < 24.f) step *= 4.f;
  const float s = step * f.zoom;
  if (s > 4000.f) return;
  const Vec2 o = f.tf->to_screen(Vec2{0, 0});
  const float w = f.clip.z - f.clip.x, h = f.clip.w - f.clip.y;
  for (float x = std::fmod(o.x, s); x < w; x += s)
    if (x >= 0) f.dl->AddLine(ImVec2(f.origin.x + x, f.clip.y), ImVec2(f.origin.x + x, f.clip.w), kGrid);
  for (float y = std::fmod(o.y, s); y < h; y += s)
    if (y >= 0) f.dl->AddLine(ImVec2(f.clip.x, f.origin.y + y), ImVec2(f.clip.z, f.origin.y + y), kGrid);
}

void draw_groups(const Frame& f, const GraphViewState& st, const GraphModel& m, const GraphLayout& l, bool collapsed_pass) {
  for (size_t g = 0; g < m.groups.size(); ++g) {
    const Rect& w = l.group_rects[g];
    if (w.empty() || !w.overlaps(f.view)) continue;
    const bool collapsed = g < st.collapsed_groups.size() && st.collapsed_groups[g];
    if (collapsed != collapsed_pass) continue;
    bool inside_collapsed = false;  // an enclosing group hides this one
    for (int p = m.groups[g].parent; p >= 0; p = m.groups[static_cast<size_t>(p)].parent)
      inside_collapsed = inside_collapsed || (static_cast<size_t>(p) < st.collapsed_groups.size() && st.collapsed_groups[static_cast<size_t>(p)]);
    if (inside_collapsed) continue;
    const Rect r = f.screen_rect(w);
    const float round = f.lod.rounded ? 6.f : 0.f;
    if (collapsed) {
      f.dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), IM_COL32(44, 48, 78, 255), round);
      f.dl->AddRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), kGroupBorder, round, 0, 1.5f);
    } else {
      f.dl->AddRectFilled(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), kGroupFill, round);
      f.dl->AddRect(ImVec2(r.x0, r.y0), ImVec2(r.x1, r.y1), kGroupBorder, round);
    }
    if (f.lod.text || collapsed) {
      char title[160];
      std::snprintf(title, sizeof title, "%s tf.function %s (%zu)", collapsed ? "[+]" : "[-]", m.groups[g].name.c_str(),
                    m.groups[g].nodes.size());
      const float size = std::clamp(kLabelSize * f.zoom, 9.f, 15.f);
      const ImVec4 clip(std::max(r.x0, f.clip.x), std::max(r.y0, f.clip.y), std::min(r.x1, f.clip.z), std::min(r.y1, f.clip.w));
      f.dl->AddText(f.font, size, ImVec2(r.x0 + 6, r.y0 + 2), IM_COL32(200, 206, 255, 230), title, nullptr, 0.f, &clip);
    }
  }
}

bool edge_pending(const GraphModel& m, const GraphHighlights& hl, const GraphEdge& e) {
  return hl.pending(m.nodes[static_cast<size_t>(e.from)]) || hl.pending(m.nodes[static_cast<size_t>(e.to)]);
}

constexpr int kMaxCurvePoints = 48;

void draw_edge(const Frame& f, const GraphModel& m, const GraphLayout& l, const GraphHighlights& hl, int e, bool label,
               float alpha = 1.f, bool forced = false) {
  const GraphEdge& g = m.edges[static_cast<size_t>(e)];
  const EdgeCurve& c = l.edge_curves[static_cast<size_t>(e)];
  ImVec2 pts[kMaxCurvePoints];
  const int n = curve_points(f, c, f.lod.curves, pts, kMaxCurvePoints);
  ImU32 col = with_alpha(edge_colour(g.kind), alpha);
  if (edge_pending(m, hl, g)) col = with_alpha(col, kPendingAlpha);
  const float th = std::clamp(1.4f * f.zoom, 1.0f, 2.2f);
  switch (g.kind) {
    case EdgeKind::Data:
    case EdgeKind::Host: f.dl->AddPolyline(pts, n, col, 0, g.kind == EdgeKind::Host ? th * 1.3f : th); break;
    case EdgeKind::State: stroke_pattern(f.dl, pts, n, col, th, 9.f, 5.f, f.clip); break;
    case EdgeKind::Control: stroke_pattern(f.dl, pts, n, col, th, 2.f, 4.f, f.clip); break;
  }
  if (f.lod.arrows) arrow_head(f.dl, pts[n - 1], pts[n - 2], std::clamp(8.f * f.zoom, 4.f, 9.f), col);
  if (label) {
    const std::string text = edge_label(m, e);
    if (!text.empty()) {
      // Above the middle of the edge, else a third of the way from either end; never under
      // a node (drawn over it) or over another label. A hovered edge's label always shows.
      const float size = std::clamp(kLabelSize * 0.8f * f.zoom, 8.f, 14.f);
      const ImVec2 ts = f.font->CalcTextSizeA(size, FLT_MAX, 0.f, text.c_str());
      for (const float t : {0.5f, 0.35f, 0.65f}) {
        const ImVec2 at = f.to_screen(bezier_point(c, t));
        const Rect r{at.x - ts.x * 0.5f, at.y - size - 2, at.x + ts.x * 0.5f, at.y - 2};  // centred above
        auto covers = [&](const std::vector<Rect>& rs) {
          return std::any_of(rs.begin(), rs.end(), [&](const Rect& o) { return r.overlaps(o); });
        };
        if (!forced && (covers(f.node_rects) || (f.edge_labels && covers(*f.edge_labels)))) continue;
        if (f.edge_labels) f.edge_labels->push_back(r);
        f.dl->AddText(f.font, size, ImVec2(r.x0, r.y0), with_alpha(kSubText, 0.9f), text.c_str());
        break;
      }
    }
  }
}

// The diagnosis path: thick amber over its edges, the break barred and labelled.
void draw_path(const Frame& f, const GraphLayout& l, const GraphHighlights& hl) {
  if (hl.path.empty()) return;
  ImVec2 pts[kMaxCurvePoints];
  const float th = std::clamp(4.f * f.zoom, 2.5f, 6.f);
  for (size_t i = 0; i < hl.path.size(); ++i) {
    const PathSegment& s = hl.path[i];
    if (!l.placed[static_cast<size_t>(s.from)] || !l.placed[static_cast<size_t>(s.to)]) continue;
    int n = 0;
    if (s.edge >= 0 && l.edge_drawn[static_cast<size_t>(s.edge)]) {
      if (!l.edge_bounds[static_cast<size_t>(s.edge)].overlaps(f.view)) continue;
      n = curve_points(f, l.edge_curves[static_cast<size_t>(s.edge)], true, pts, kMaxCurvePoints);
    } else {
      pts[0] = f.to_screen(l.node_rects[static_cast<size_t>(s.from)].centre());
      pts[1] = f.to_screen(l.node_rects[static_cast<size_t>(s.to)].centre());
      n = 2;
    }
    if (s.control) stroke_pattern(f.dl, pts, n, kPath, th, 3.f, 5.f, f.clip);
    else f.dl->AddPolyline(pts, n, kPath, 0, th);
    arrow_head(f.dl, pts[n - 1], pts[n - 2], std::clamp(10.f * f.zoom, 6.f, 12.f), kPath);
    if (static_cast<int>(i) == hl.break_segment) {
      // A bar across the edge near the op where the path breaks.
      const int k = std::max(1, n * 3 / 4);
      const ImVec2 a = pts[k - 1], b = pts[std::min(k, n - 1)];
      float dx = b.x - a.x, dy = b.y - a.y;
      const float len = std::max(1e-3f, std::sqrt(dx * dx + dy * dy));
      dx /= len, dy /= len;
      const float h = std::clamp(14.f * f.zoom, 8.f, 16.f);
      f.dl->AddLine(ImVec2(b.x - dy * h, b.y + dx * h), ImVec2(b.x + dy * h, b.y - dx * h), kBreak, th * 1.2f);
    }
  }
}

// Gradients flowing backwards: a pink curve over the edge with its arrow at the
// producer's end (its value: draw_gradient_values).
void draw_gradients(const Frame& f, const GraphLayout& l, const GraphHighlights& hl) {
  ImVec2 pts[kMaxCurvePoints];
  for (const EdgeGradient& eg : hl.edge_grads) {
    const size_t e = static_cast<size_t>(eg.edge);
    if (!l.edge_drawn[e] || !l.edge_bounds[e].overlaps(f.view)) continue;
    const int n = curve_points(f, l.edge_curves[e], f.lod.curves, pts, kMaxCurvePoints);
    const ImU32 col = eg.current ? kGrad : kGradDim;
    const float th = std::clamp((eg.current ? 3.5f : 2.2f) * f.zoom, 1.5f, eg.current ? 5.f : 3.f);
    f.dl->AddPolyline(pts, n, col, 0, th);
    arrow_head(f.dl, pts[0], pts[1], std::clamp(11.f * f.zoom, 6.f, 12.f), col);
  }
}

// Inputs from the hidden gradient pass: a short dashed pink stub into the node, named
// after the gradient call, where the edge from the (hidden) gradient op would arrive.
void draw_hidden_gradient_inputs(const Frame& f, const GraphViewState& st, const GraphModel& m, const GraphLayout& l,
                                 const GraphHighlights& hl) {
  const float len = std::min(40.f, 0.6f * l.options.layer_gap);
  for (const HiddenGradientInput& h : l.hidden_gradient_inputs) {
    const Rect r{h.tip.x - len, h.tip.y - 10, h.tip.x, h.tip.y + 10};
    if (!r.overlaps(f.view)) continue;
    if (!st.collapsed_groups.empty() && node_hidden_by_group(st, m, h.node)) continue;
    const float alpha = hl.pending(m.nodes[static_cast<size_t>(h.node)]) ? kPendingAlpha : 1.f;  // fades with its node
    const ImU32 col = with_alpha(kGradDim, alpha);
    ImVec2 pts[2] = {f.to_screen({h.tip.x - len, h.tip.y}), f.to_screen(h.tip)};
    const float th = std::clamp(1.6f * f.zoom, 1.0f, 2.4f);
    stroke_pattern(f.dl, pts, 2, col, th, 4.f, 3.f, f.clip);
    if (f.lod.arrows) arrow_head(f.dl, pts[1], pts[0], std::clamp(8.f * f.zoom, 4.f, 9.f), col);
    if (f.lod.text) {
      char text[32];
      std::snprintf(text, sizeof text, "\u2207 line %d", h.line);  // ∇: made by tape.gradient at that line
      const float size = std::clamp(kLabelSize * 0.8f * f.zoom, 8.f, 12.f);
      const float w = f.font->CalcTextSizeA(size, FLT_MAX, 0.f, text).x;
      f.dl->AddText(f.font, size, ImVec2(pts[1].x - w - 3, pts[1].y - size - 3), with_alpha(kGrad, 0.9f * alpha), text);
    }
  }
}

void draw_node(const Frame& f, const GraphModel& m, const GraphLayout& l, const GraphHighlights& hl, int v,
               bool search_hit, bool current_hit) {
  const GraphNode& node = m.nodes[static_cast<size_t>(v)];
  const Rect r = f.screen_rect(l.node_rects[static_cast<size_t>(v)]);
  const ImVec2 a(r.x0, r.y0), b(r.x1, r.y1);
  const NodeKind kind = node_kind(node, hl.tape);
  const bool pending = hl.pending(node);
  const float alpha = pending ? kPendingAlpha : 1.f;
  const float round = f.lod.rounded ? std::clamp(5.f * f.zoom, 1.f, 7.f) : 0.f;
  const uint8_t mark = hl.node_mark(v);

  if (mark & kMarkRunning) {
    // Glow: rings fading outwards.
    for (int i = 3; i >= 1; --i) {
      const float g = 3.f * static_cast<float>(i);
      f.dl->AddRect(ImVec2(a.x - g, a.y - g), ImVec2(b.x + g, b.y + g), with_alpha(kGrad, 0.5f / static_cast<float>(i)),
                    round + g, 0, 3.f);
    }
  }
  f.dl->AddRectFilled(a, b, with_alpha(node_fill(kind), alpha), round);
  if (f.lod.rounded) {
    const bool dashed = node.cls == NodeClass::Op && kind != NodeKind::GradientOp && !recorded_by(node, hl.tape);
    const ImU32 bc = with_alpha(node_border(kind), alpha);
    if (dashed) dashed_rect(f.dl, Rect{a.x, a.y, b.x, b.y}, bc, 1.5f, 5.f, 3.f, f.clip);
    else f.dl->AddRect(a, b, bc, round, 0, 1.f);
  }
  if (mark & kMarkStepped) f.dl->AddRect(a, b, with_alpha(kGrad, 0.8f), round, 0, 1.5f);
  if (mark & kMarkPath) f.dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), kPath, round + 2, 0, 3.f);
  else if (mark & kMarkEvidence) dashed_rect(f.dl, Rect{a.x - 2, a.y - 2, b.x + 2, b.y + 2}, kPath, 2.f, 4.f, 3.f, f.clip);
  if (search_hit)
    f.dl->AddRect(ImVec2(a.x - 4, a.y - 4), ImVec2(b.x + 4, b.y + 4), kSearchHit, round + 4, 0, current_hit ? 3.f : 1.5f);
  if (mark & kMarkSelected)
    f.dl->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3), kSelected, round + 3, 0, 2.f);
  if (!node.watched_by.empty() && watched_by(node, hl.tape) && f.lod.rounded) {
    const float rad = std::clamp(3.5f * f.zoom, 2.f, 5.f);
    f.dl->AddCircleFilled(ImVec2(b.x - rad - 3, a.y + rad + 3), rad, with_alpha(kWatchDot, alpha), 10);
  }

  if (f.lod.text) {
    const float size = kLabelSize * f.zoom;
    const ImVec4 clip(std::max(a.x + 2, f.clip.x), std::max(a.y, f.clip.y), std::min(b.x - 2, f.clip.z), std::min(b.y, f.clip.w));
    const float pad = l.options.padding * f.zoom;
    const float h = b.y - a.y;
    if (f.lod.subtitle) {
      const float sub = size * kSubtitleScale;
      const float top = a.y + (h - size - sub) * 0.5f;
      f.dl->AddText(f.font, size, ImVec2(a.x + pad, top), with_alpha(kText, alpha), node.label.c_str(), nullptr, 0.f, &clip);
      f.dl->AddText(f.font, sub, ImVec2(a.x + pad, top + size), with_alpha(kSubText, alpha), node.subtitle.c_str(), nullptr,
                    0.f, &clip);
    } else {
      f.dl->AddText(f.font, size, ImVec2(a.x + pad, a.y + (h - size) * 0.5f), with_alpha(kText, alpha), node.label.c_str(),
                    nullptr, 0.f, &clip);
    }
  }
}

void draw_break(const Frame& f, const GraphLayout& l, const GraphHighlights& hl) {
  if (hl.break_node < 0 || !l.placed[static_cast<size_t>(hl.break_node)]) return;
  const Rect r = f.screen_rect(l.node_rects[static_cast<size_t>(hl.break_node)]);
  const float s = std::clamp(9.f * f.zoom, 7.f, 12.f);
  cross_mark(f.dl, ImVec2(r.x0, r.y0), s, kBreak);
  // The cause code stays readable at any zoom.
  pill(f, ImVec2((r.x0 + r.x1) * 0.5f, r.y0 - s * 0.6f - 4), hl.break_label.c_str(), IM_COL32_WHITE,
       IM_COL32(170, 30, 30, 235), 13.f);
}

//-----------------------------------------------------------------------------
// [SECTION] legend
//-----------------------------------------------------------------------------

constexpr float kLegendRow = 18.f, kLegendColumn = 250.f;

int legend_columns(float width) { return std::max(1, static_cast<int>((width - 20.f) / kLegendColumn)); }

}  // namespace

Rect legend_box(Vec2 canvas_size, int items) {
  const int columns = legend_columns(canvas_size.x);
  const int rows = (items + columns - 1) / columns;
  const float height = kLegendRow * static_cast<float>(rows) + 12.f;
  const float width = std::min(canvas_size.x - 20.f, kLegendColumn * static_cast<float>(columns) + 8.f);
  return Rect{10.f, canvas_size.y - 10.f - height, 10.f + width, canvas_size.y - 10.f};
}

namespace {

Rect legend_rect(const Frame& f, int items) {
  const Rect b = legend_box(Vec2{f.clip.z - f.clip.x, f.clip.w - f.clip.y}, items);
  return Rect{b.x0 + f.clip.x, b.y0 + f.clip.y, b.x1 + f.clip.x, b.y1 + f.clip.y};
}

// A strip along the bottom of the canvas (graphs run left to right, so that is where
// space is), column by column: node kinds, edge kinds, then the overlays.
Rect draw_legend(const Frame& f, const LegendModel& lm) {
  const float size = 13.f, row = kLegendRow;
  const int items = lm.items();
  const Rect box = legend_rect(f, items);
  const int columns = legend_columns(f.clip.z - f.clip.x);
  const int rows = (items + columns - 1) / columns;
  ImDrawList* dl = f.dl;
  dl->AddRectFilled(ImVec2(box.x0, box.y0), ImVec2(box.x1, box.y1), IM_COL32(18, 20, 26, 235), 5.f);
  dl->AddRect(ImVec2(box.x0, box.y0), ImVec2(box.x1, box.y1), IM_COL32(90, 96, 120, 200), 5.f);
  const ImVec4 clip(box.x0, box.y0, box.x1, box.y1);
  int index = 0;
  float x = 0, y = 0, tx = 0;
  auto next = [&] {  // places the next item: icon at (x, y), text at tx
    const int col = index / rows, r = index % rows;
    x = box.x0 + 8.f + kLegendColumn * static_cast<float>(col);
    tx = x + 44.f;
    y = box.y0 + 6.f + row * static_cast<float>(r);
    ++index;
  };
  auto text = [&](const char* t) { dl->AddText(f.font, size, ImVec2(tx, y), kSubText, t); };
  for (const NodeKind kind : lm.node_kinds) {
    next();
    const ImVec2 a(x, y + 2), b(x + 34, y + 14);
    dl->AddRectFilled(a, b, node_fill(kind), 3.f);
    if (kind == NodeKind::NotRecordedOp || kind == NodeKind::HostOp || kind == NodeKind::StatefulOp)
      dashed_rect(dl, Rect{a.x, a.y, b.x, b.y}, node_border(kind), 1.2f, 4.f, 2.f, clip);
    else dl->AddRect(a, b, node_border(kind), 3.f);
    if (kind == NodeKind::WatchedTensor) dl->AddCircleFilled(ImVec2(b.x - 5, a.y + 4), 2.5f, kWatchDot, 8);
    text(node_kind_name(kind));
  }
  for (const EdgeKind kind : lm.edge_kinds) {
    next();
    const ImVec2 pts[2] = {ImVec2(x, y + 8), ImVec2(x + 34, y + 8)};
    switch (kind) {
      case EdgeKind::Data: dl->AddLine(pts[0], pts[1], edge_colour(kind), 1.6f); break;
      case EdgeKind::Host: dl->AddLine(pts[0], pts[1], edge_colour(kind), 2.2f); break;
      case EdgeKind::State: stroke_pattern(dl, pts, 2, edge_colour(kind), 1.6f, 9.f, 5.f, clip); break;
      case EdgeKind::Control: stroke_pattern(dl, pts, 2, edge_colour(kind), 1.6f, 2.f, 4.f, clip); break;
    }
    arrow_head(dl, pts[1], pts[0], 6.f, edge_colour(kind));
    text(edge_kind_name(kind));
  }
  if (lm.none_path) {
    next();
    dl->AddLine(ImVec2(x, y + 8), ImVec2(x + 34, y + 8), kPath, 4.f);
    text("Why-None path (Show path)");
    next();
    cross_mark(dl, ImVec2(x + 17, y + 8), 6.f, kBreak);
    text("where the path breaks + cause");
  }
  if (lm.backward) {
    next();
    dl->AddLine(ImVec2(x + 6, y + 8), ImVec2(x + 34, y + 8), kGrad, 3.f);
    arrow_head(dl, ImVec2(x, y + 8), ImVec2(x + 10, y + 8), 8.f, kGrad);
    text("gradient flowing back");
    next();
    dl->AddRectFilled(ImVec2(x + 4, y + 3), ImVec2(x + 30, y + 13), node_fill(NodeKind::RecordedOp), 3.f);
    dl->AddRect(ImVec2(x + 1, y), ImVec2(x + 33, y + 16), with_alpha(kGrad, 0.6f), 4.f, 0, 3.f);
    text("gradient function running");
  }
  if (lm.hidden_gradient_inputs) {
    next();
    const ImVec2 pts[2] = {ImVec2(x, y + 8), ImVec2(x + 34, y + 8)};
    stroke_pattern(dl, pts, 2, kGradDim, 1.6f, 4.f, 3.f, clip);
    arrow_head(dl, pts[1], pts[0], 6.f, kGradDim);
    text("\u2207 a gradient (pass hidden)");
  }
  if (lm.watched) {
    next();
    dl->AddCircleFilled(ImVec2(x + 17, y + 8), 3.5f, kWatchDot, 10);
    text("watched by the tape");
  }
  next();
  dl->AddRectFilled(ImVec2(x, y + 2), ImVec2(x + 34, y + 14), with_alpha(node_fill(NodeKind::RecordedOp), kPendingAlpha), 3.f);
  text("faded: not executed yet");
  return box;
}

//-----------------------------------------------------------------------------
// [SECTION] tooltips
//-----------------------------------------------------------------------------

ImVec4 tooltip_colour(TooltipStyle s) {
  switch (s) {
    case TooltipStyle::Title: return ImVec4(1, 1, 1, 1);
    case TooltipStyle::Normal: return ImVec4(0.86f, 0.88f, 0.92f, 1);
    case TooltipStyle::Dim: return ImVec4(0.6f, 0.62f, 0.68f, 1);
    case TooltipStyle::Warning: return ImVec4(1.0f, 0.72f, 0.35f, 1);
    case TooltipStyle::Gradient: return ImVec4(1.0f, 0.45f, 0.85f, 1);
  }
  return ImVec4(1, 1, 1, 1);
}

void show_tooltip(const std::vector<TooltipLine>& lines) {
  if (lines.empty()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 34.0f);
  for (const TooltipLine& t : lines) {
    ImGui::PushStyleColor(ImGuiCol_Text, tooltip_colour(t.style));
    ImGui::TextUnformatted(t.text.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void node_tooltip_with_overlays(const GraphModel& m, const GraphHighlights& hl, int v) {
  std::vector<TooltipLine> lines = node_tooltip(m, v, hl.tape, hl.cursor);
  const uint8_t mark = hl.node_mark(v);
  if (mark & kMarkRunning)
    lines.push_back({TooltipStyle::Gradient, hl.running_done ? "its gradient function just ran" : "its gradient function runs now"});
  if (const TensorGradient* tg = hl.node_gradient(v))
    lines.push_back({TooltipStyle::Gradient, std::string(tg->complete ? "gradient: " : "gradient so far: ") + tg->text});
  if (v == hl.break_node) {
    lines.push_back({TooltipStyle::Warning, hl.break_label});
    if (!hl.break_message.empty()) lines.push_back({TooltipStyle::Normal, hl.break_message});
  } else if (mark & kMarkPath) {
    lines.push_back({TooltipStyle::Dim, "on the path from the source to the target"});
  }
  show_tooltip(lines);
}

//-----------------------------------------------------------------------------
// [SECTION] toolbar
//-----------------------------------------------------------------------------

void draw_toolbar(GraphViewState& st, const GraphModel& m, GraphViewOutput& out) {
  if (ImGui::Button("Fit")) st.fit();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("show the whole graph (F)");
  ImGui::SameLine();
  ImGui::Checkbox("Legend", &st.show_legend);
  ImGui::SameLine();
  char grad_label[64];
  std::snprintf(grad_label, sizeof grad_label, "Gradient pass (%d)###gradpass", m.gradient_pass_nodes);
  if (ImGui::Checkbox(grad_label, &st.show_gradient_pass)) out.relayout = true;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("show the ops the backward passes executed");
  ImGui::SameLine();
  ImGui::Checkbox("Shapes", &st.show_edge_labels);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("dtype and shape on data edges when zoomed in");
  ImGui::SameLine();
  // Which tape "recorded" means here (the shown None's, the running call's, else the last used).
  if (m.log && m.log->tapes.size() > 1) {
    if (const TapeInfo* t = m.log->tape(st.legend_tape)) {
      if (t->name.empty()) ImGui::TextDisabled("tape #%lld (line %d)", static_cast<long long>(t->id), t->line);
      else ImGui::TextDisabled("tape: %s (line %d)", t->name.c_str(), t->line);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("blue ops were recorded by this tape; dashed ones were not (another tape may have)");
      ImGui::SameLine();
    }
  }
  if (st.focus_search_requested) {
    ImGui::SetKeyboardFocusHere();
    st.focus_search_requested = false;
  }
  ImGui::SetNextItemWidth(200);
  const bool enter = ImGui::InputTextWithHint("##graph_search", "search ops (Ctrl+F)", st.search_buf, sizeof st.search_buf,
                                              ImGuiInputTextFlags_EnterReturnsTrue);
  if (ImGui::IsItemEdited()) st.search(st.search_buf);
  if (enter) {
    if (st.search_text == st.search_buf) st.search_next();
    else st.search(st.search_buf);
  }
  ImGui::SameLine();
  if (!st.search_hits.empty())
    ImGui::Text("%d/%d", st.search_index + 1, static_cast<int>(st.search_hits.size()));
  else if (!st.search_text.empty())
    ImGui::TextDisabled("no match");
  ImGui::SameLine();
  ImGui::TextDisabled("%.0f%%", st.transform.zoom() * 100.0);
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] draw_graph_view
//-----------------------------------------------------------------------------

void draw_graph_view(GraphViewState& st, const GraphModel& m, const GraphLayout& l, const GraphHighlights& hl,
                     GraphViewOutput& out) {
  out = GraphViewOutput{};
  ImGui::PushID("graph_view");
  draw_toolbar(st, m, out);
  ImGui::BeginChild("graph_canvas", ImVec2(0, 0), true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoScrollWithMouse);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 size = ImGui::GetContentRegionAvail();
  size.x = std::max(size.x, 32.f);
  size.y = std::max(size.y, 32.f);
  ImGui::InvisibleButton("canvas", size,
                         ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight | ImGuiButtonFlags_MouseButtonMiddle);
  const bool hovered = ImGui::IsItemHovered();
  const bool active = ImGui::IsItemActive();
  const bool activated = ImGui::IsItemActivated();
  const bool deactivated = ImGui::IsItemDeactivated();
  ImGuiIO& io = ImGui::GetIO();
  const bool layout_matches = l.node_rects.size() == m.nodes.size() && l.edge_drawn.size() == m.edges.size();
  out.canvas_origin = Vec2{origin.x, origin.y};
  out.canvas_size = Vec2{size.x, size.y};

  if (layout_matches) apply_view_commands(st, m, l, hl, Vec2{size.x, size.y});

  // Pan (drag with any button) and zoom (wheel, around the mouse).
  const Vec2 mouse{io.MousePos.x - origin.x, io.MousePos.y - origin.y};
  if (activated) {
    st.pressed = true;
    st.press_pos = mouse;
  }
  if (active && (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.f) || ImGui::IsMouseDragging(ImGuiMouseButton_Right, 0.f) ||
                 ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 0.f)))
    st.transform.pan_by(Vec2{io.MouseDelta.x, io.MouseDelta.y});
  if (hovered && io.MouseWheel != 0.f) st.transform.zoom_at(mouse, wheel_zoom_factor(io.MouseWheel));

  Frame f;
  f.dl = ImGui::GetWindowDrawList();
  f.font = ImGui::GetFont();
  f.origin = origin;
  f.clip = ImVec4(origin.x, origin.y, origin.x + size.x, origin.y + size.y);
  f.tf = &st.transform;
  f.zoom = static_cast<float>(st.transform.zoom());
  f.view = st.transform.visible_world(Vec2{size.x, size.y});
  f.lod = lod_for_zoom(f.zoom);
  out.gradient_labels.clear();
  f.gradient_labels = &out.gradient_labels;
  out.edge_labels.clear();
  f.edge_labels = &out.edge_labels;

  f.dl->PushClipRect(ImVec2(f.clip.x, f.clip.y), ImVec2(f.clip.z, f.clip.w), true);
  f.dl->AddRectFilled(ImVec2(f.clip.x, f.clip.y), ImVec2(f.clip.z, f.clip.w), kCanvasBg);
  const ImDrawListFlags saved_flags = f.dl->Flags;
  if (!f.lod.antialias) f.dl->Flags &= ~(ImDrawListFlags_AntiAliasedLines | ImDrawListFlags_AntiAliasedFill);

  int hovered_node = -1, hovered_edge = -1;
  if (layout_matches) {
    draw_grid(f);
    visible_nodes(l, f.view, st.visible_nodes);
    visible_edges(l, f.view, st.visible_edges);

    // Hover: a node under the mouse, else the nearest edge within a few pixels.
    const bool in_legend = st.show_legend && legend_rect(f, st.legend.items()).contains(Vec2{io.MousePos.x, io.MousePos.y});
    if (hovered && !in_legend) {
      const Vec2 wm = st.transform.to_world(mouse);
      const int v = node_at(l, wm);
      if (v >= 0 && !node_hidden_by_group(st, m, v)) hovered_node = v;
      if (hovered_node < 0 && st.visible_edges.size() < 4000) {
        float best = 6.f / f.zoom;
        for (int e : st.visible_edges) {
          const Rect& bb = l.edge_bounds[static_cast<size_t>(e)];
          if (wm.x < bb.x0 - best || wm.x > bb.x1 + best || wm.y < bb.y0 - best || wm.y > bb.y1 + best) continue;
          const GraphEdge& g = m.edges[static_cast<size_t>(e)];
          if (node_hidden_by_group(st, m, g.from) && node_hidden_by_group(st, m, g.to)) continue;
          const float d = distance_to_curve(l.edge_curves[static_cast<size_t>(e)], wm, 12);
          if (d < best) best = d, hovered_edge = e;
        }
      }
    }

    draw_groups(f, st, m, l, false);
    const bool labels = f.lod.edge_labels && st.show_edge_labels;
    if (labels || hovered_edge >= 0)
      for (int v : st.visible_nodes)
        if (st.collapsed_groups.empty() || !node_hidden_by_group(st, m, v))
          f.node_rects.push_back(f.screen_rect(l.node_rects[static_cast<size_t>(v)]));
    for (int e : st.visible_edges) {
      const GraphEdge& g = m.edges[static_cast<size_t>(e)];
      if (!st.collapsed_groups.empty() && node_hidden_by_group(st, m, g.from) && node_hidden_by_group(st, m, g.to)) continue;
      draw_edge(f, m, l, hl, e, labels || e == hovered_edge, 1.f, e == hovered_edge);
      ++out.drawn_edges;
    }
    // Implied edges of the hovered and the selected node (a variable's later reads).
    const int implied_of[2] = {hovered_node, hl.selected_node != hovered_node ? hl.selected_node : -1};
    for (int v : implied_of) {
      if (v < 0 || static_cast<size_t>(v) >= m.nodes.size()) continue;
      for (const std::span<const int> adj : {m.out_edges(v), m.in_edges(v)})
        for (int e : adj)
          if (m.edges[static_cast<size_t>(e)].implied && l.edge_drawn[static_cast<size_t>(e)] &&
              l.edge_bounds[static_cast<size_t>(e)].overlaps(f.view))
            draw_edge(f, m, l, hl, e, false, 0.7f);
    }
    draw_hidden_gradient_inputs(f, st, m, l, hl);
    draw_path(f, l, hl);
    draw_gradients(f, l, hl);
    draw_groups(f, st, m, l, true);
    for (int v : st.visible_nodes) {
      if (!st.collapsed_groups.empty() && node_hidden_by_group(st, m, v)) continue;
      const bool hit = !st.search_hits.empty() && std::binary_search(st.search_hits.begin(), st.search_hits.end(), v);
      const bool current = hit && st.search_index >= 0 && st.search_hits[static_cast<size_t>(st.search_index)] == v;
      draw_node(f, m, l, hl, v, hit, current);
      ++out.drawn_nodes;
    }
    if (hovered_node >= 0) {
      const Rect r = f.screen_rect(l.node_rects[static_cast<size_t>(hovered_node)]);
      f.dl->AddRect(ImVec2(r.x0 - 1, r.y0 - 1), ImVec2(r.x1 + 1, r.y1 + 1), IM_COL32(255, 255, 255, 120), 5.f, 0, 1.f);
    }
    draw_gradient_values(f, st, m, l, hl);
    draw_break(f, l, hl);
    if (st.show_legend) draw_legend(f, st.legend);
    if (m.nodes.empty())
      f.dl->AddText(ImVec2(f.clip.x + 12, f.clip.y + 12), kSubText, "No ops yet: run a scenario or a snippet.");
  } else {
    f.dl->AddText(ImVec2(f.clip.x + 12, f.clip.y + 12), kSubText, "Laying out the graph...");
  }
  f.dl->Flags = saved_flags;
  f.dl->PopClipRect();

  // Click (press and release without moving): select a node, or toggle a group.
  if (deactivated && st.pressed) {
    st.pressed = false;
    const float dx = mouse.x - st.press_pos.x, dy = mouse.y - st.press_pos.y;
    if (dx * dx + dy * dy < 9.f && layout_matches) {
      out.clicked = true;
      out.selected_node = hovered_node;
      if (hovered_node >= 0) {
        out.selected_id = m.nodes[static_cast<size_t>(hovered_node)].id;
        out.line = m.nodes[static_cast<size_t>(hovered_node)].line;
      } else {
        // A click on a group's title row (or anywhere on a collapsed group) toggles it.
        const Vec2 wm = st.transform.to_world(mouse);
        for (size_t g = m.groups.size(); g-- > 0;) {
          const Rect& r = l.group_rects[g];
          if (r.empty() || !r.contains(wm)) continue;
          const bool collapsed = st.collapsed_groups[g] != 0;
          if (collapsed || wm.y <= r.y0 + l.options.group_title) {
            st.collapsed_groups[g] = collapsed ? 0 : 1;
            out.clicked = false;
            break;
          }
        }
      }
    }
  }
  if (hovered && hovered_node >= 0 && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
    out.double_clicked = true;
    out.line = m.nodes[static_cast<size_t>(hovered_node)].line;
  }
  out.hovered_node = hovered_node;
  out.hovered_edge = hovered_edge;
  if (hovered_node >= 0) out.hovered_id = m.nodes[static_cast<size_t>(hovered_node)].id;

  // Tooltips (not while dragging).
  if (hovered && !(active && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 2.f))) {
    if (hovered_node >= 0) {
      node_tooltip_with_overlays(m, hl, hovered_node);
    } else if (hovered_edge >= 0) {
      std::vector<TooltipLine> lines = edge_tooltip(m, hovered_edge);
      if (const EdgeGradient* eg = hl.edge_gradient(hovered_edge))
        lines.push_back({TooltipStyle::Gradient, "gradient flowing back: " + eg->text});
      show_tooltip(lines);
    }
  }
  ImGui::EndChild();
  ImGui::PopID();
}

}  // namespace ts::gui

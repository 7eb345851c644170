// Graph view: draws the op graph (GraphModel at a GraphLayout, with GraphHighlights
// on top) with ImDrawList inside a child window. It decides no semantics: kinds,
// reasons, paths and gradients all come from the model and the highlight sets.
//
// Use (per frame, inside the window the app gives the Graph panel):
//   GraphViewOutput out;
//   draw_graph_view(state, model, layout, highlights, out);
//   if (out.clicked) session.select(out.selected_id);          // kNoId: empty space
//   if (out.relayout) layout = layout_graph(model, state.layout_options());
// Keys are the app's: F -> state.fit(), Ctrl+F -> state.focus_search().
// After a new run: model = build_graph_model(log); layout = layout_graph(model,
// state.layout_options()); state.reset_for_new_graph().
//
// All state lives in GraphViewState (no statics). The interaction maths (pan, zoom,
// fit, search, following the focus) is pure and tested without ImGui: see
// apply_view_commands and CanvasTransform.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "model/canvas_transform.h"
#include "model/graph_layout.h"
#include "model/graph_model.h"
#include "model/legend_model.h"

namespace ts::gui {

// What is worth drawing at a zoom (screen pixels per world unit).
struct GraphLod {
  bool text = true;             // node labels
  bool subtitle = true;         // the second line (op type)
  bool rounded = true;          // rounded corners and outlines
  bool curves = true;           // bezier edges (else straight lines)
  bool arrows = true;
  bool edge_labels = false;     // dtype/shape on data edges
  bool gradient_labels = true;  // values of the backward overlay
  bool antialias = true;
};
GraphLod lod_for_zoom(double zoom);

struct GraphViewState {
  CanvasTransform transform;
  bool show_legend = true;
  bool show_gradient_pass = false;  // layout_options() follows it; out.relayout when toggled
  bool show_edge_labels = true;     // dtype/shape labels when zoomed in

  std::string search_text;
  std::vector<int> search_hits;     // placed nodes matching search_text, in node order
  int search_index = -1;            // the hit centred last
  std::vector<uint8_t> collapsed_groups;  // per model group

  // Commands (the app maps keys to these; they act on the next frame).
  void fit() { fit_requested = true; }
  void search(const std::string& text);  // filter + centre on the first match
  void search_next();                    // centre on the next match
  void focus_search() { focus_search_requested = true; }
  void centre_on_node(int node) { centre_node = node; }
  void reset_for_new_graph();            // fit, forget hits, collapses and the focus
  LayoutOptions layout_options(LayoutOptions base = {}) const {
    base.include_gradient_pass = show_gradient_pass;
    return base;
  }

  // Pending commands and per-frame scratch (plain data so tests can look).
  bool fit_requested = true;
  bool search_requested = false;
  bool focus_search_requested = false;
  int centre_node = -1;
  uint64_t last_focus_key = 0;
  CallId last_framed_call = kNoId;  // a backward pass is framed once, when the cursor enters it
  Vec2 canvas_size{};
  Vec2 press_pos{};
  bool pressed = false;
  char search_buf[128] = {};
  std::vector<int> visible_nodes, visible_edges;  // reused every frame
  // The legend of the graph on screen, rebuilt when the layout or the tape changes.
  LegendModel legend;
  const GraphLayout* legend_layout = nullptr;
  size_t legend_nodes = 0;
  TapeId legend_tape = kNoId;
};

// The legend box in canvas-local pixels: a strip along the bottom, `items` entries.
Rect legend_box(Vec2 canvas_size, int items);

struct GraphViewOutput {
  bool clicked = false;          // a click (not a drag) on the canvas
  int selected_node = -1;        // the node clicked, -1 for empty space
  int64_t selected_id = kNoId;   // its op / variable / tensor id
  bool double_clicked = false;   // on a node: the app may move the source view to `line`
  int line = 0;
  int hovered_node = -1, hovered_edge = -1;
  int64_t hovered_id = kNoId;
  bool relayout = false;         // show_gradient_pass changed: lay out again with state.layout_options()
  int drawn_nodes = 0, drawn_edges = 0;  // after culling
  std::vector<Rect> gradient_labels;     // the gradient values shown (screen), none covering another
  std::vector<Rect> edge_labels;         // the dtype/shape labels shown (screen), covering no node
  Vec2 canvas_origin, canvas_size;       // the canvas on screen (for screenshots and tests)
};

// Applies pending commands for a canvas of `canvas_size` pixels: fit, search,
// centre on a node, and the highlight's focus (centre on a newly shown break; keep
// the running op of the backward pass in view). Pure; draw_graph_view calls it.
void apply_view_commands(GraphViewState& state, const GraphModel& model, const GraphLayout& layout,
                         const GraphHighlights& hl, Vec2 canvas_size);

// True when a group (or an enclosing one) is collapsed: its members are not drawn.
bool node_hidden_by_group(const GraphViewState& state, const GraphModel& model, int node);

void draw_graph_view(GraphViewState& state, const GraphModel& model, const GraphLayout& layout,
                     const GraphHighlights& hl, GraphViewOutput& out);

}  // namespace ts::gui

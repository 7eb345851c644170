// Workspace drawing.
//
// [SECTION] graph panel adapter
// [SECTION] panels
// [SECTION] menus, toolbar, status bar, dialogs
// [SECTION] tiling with splitters
#include "views/workspace_view.h"

#include <cmath>
#include <filesystem>

#include "imgui.h"
#include "imgui_stdlib.h"
#include "views/claims_view.h"
#include "views/gradients_view.h"
#include "views/inspector_view.h"
#include "views/output_view.h"
#include "views/scenarios_view.h"
#include "views/source_view.h"
#include "views/tape_view.h"
#include "views/timeline_view.h"
#include "views/watched_view.h"
#include "views/widgets.h"

namespace ts::gui {

// [SECTION] graph panel adapter -----------------------------------------------------

namespace {

void draw_graph_panel(Workspace& w, Session& s) {
  GraphPanel& g = w.graph;
  if (g.built_generation != s.generation()) {
    GraphModelOptions opts;
    const LoadedRun* run = s.run();
    if (run && run->result.engine) opts.extra_control_edges = &run->result.engine->extra_edges();
    g.model = build_graph_model(s.log(), opts);
    if (gradient_pass_recorded(s.log())) g.state.show_gradient_pass = true;
    g.layout = layout_graph(g.model, g.state.layout_options());
    g.state.reset_for_new_graph();
    g.built_generation = s.generation();
    g.hl_cursor = -2;
  }
  // The graph shows the tape the Tape view shows.
  w.tape.sync(s);
  const TapeId tape = w.tape.tape();
  if (g.hl_cursor != s.cursor() || !(g.hl_selection == s.selection()) || g.hl_tape != tape) {
    HighlightRequest req;
    req.cursor = static_cast<int>(std::min<int64_t>(s.cursor(), INT32_MAX));
    req.tape = tape;
    req.diagnosis = s.selected_diagnosis();
    req.selected_id = s.selection().kind == SelectionKind::Diagnosis ? kNoId : s.selection().id;
    g.highlights = compute_highlights(g.model, req);
    g.hl_cursor = s.cursor();
    g.hl_selection = s.selection();
    g.hl_tape = tape;
  }
  if (s.requests().fit_graph) {
    g.state.fit();
    s.requests().fit_graph = false;
  }
  if (s.requests().focus_search) {
    g.state.focus_search();
    s.requests().focus_search = false;
  }
  GraphViewOutput out;
  draw_graph_view(g.state, g.model, g.layout, g.highlights, out);
  g.drawn_nodes = out.drawn_nodes;
  if (out.clicked) {
    if (out.selected_id == kNoId) s.clear_selection();
    else s.select_id(out.selected_id);
  }
  if (out.double_clicked && out.line > 0) {
    s.set_focus_line(out.line);
    s.requests().source_line = out.line;
  }
  if (out.hovered_id != kNoId) s.set_hovered(out.hovered_id);
  if (out.relayout) g.layout = layout_graph(g.model, g.state.layout_options());
}

}  // namespace

// [SECTION] panels ------------------------------------------------------------------

void draw_panel(PanelId p, Workspace& w, Session& s) {
  bool open = true;
  switch (p) {
    case PanelId::Scenarios: draw_scenarios_view(w.scenarios, s, &open); break;
    case PanelId::Source: draw_source_view(w.source, s, &open); break;
    case PanelId::Graph: draw_graph_panel(w, s); break;
    case PanelId::Gradients: draw_gradients_view(w.gradients, s, &open); break;
    case PanelId::Tape: draw_tape_view(w.tape, s, &open); break;
    case PanelId::Watched: draw_watched_view(w.watched, s, &open); break;
    case PanelId::Inspector: draw_inspector_view(w.inspector, s, &open); break;
    case PanelId::Claims: draw_claims_view(w.claims, s, &open); break;
    case PanelId::Output: draw_output_view(w.output, s, &open); break;
    case PanelId::Timeline: draw_timeline_view(w.timeline, s, &open); break;
    case PanelId::Count: break;
  }
}

namespace {

// A tab's title with a count where it helps the learner spot something.
std::string tab_title(PanelId p, Workspace& w, Session& s) {
  std::string t = panel_title(p);
  if (p == PanelId::Gradients) {
    w.gradients.sync(s);
    if (w.gradients.none_count() > 0) t += " (" + std::to_string(w.gradients.none_count()) + " None)";
  } else if (p == PanelId::Claims) {
    w.claims.sync(s);
    if (!w.claims.rows().empty()) t += " (" + std::to_string(w.claims.rows().size()) + ")";
  } else if (p == PanelId::Output) {
    w.output.sync(s);
    bool err = false;
    for (const auto& r : w.output.rows()) err = err || r.kind == OutputKind::Error;
    if (err) t += " (error)";
  }
  return t + "###" + panel_key(p);
}

// [SECTION] menus, toolbar, status bar, dialogs -------------------------------------

void draw_menu_bar(Workspace& w, Session& s) {
  if (!ImGui::BeginMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open...", "Ctrl+O")) s.execute(Command::Open);
    if (ImGui::BeginMenu("Open recent", !s.recent_files().empty())) {
      for (const auto& r : s.recent_files())
        if (ImGui::MenuItem(r.c_str())) s.open(r);
      ImGui::EndMenu();
    }
    if (ImGui::MenuItem("New snippet")) s.execute(Command::NewSnippet);
    ImGui::Separator();
    if (ImGui::MenuItem("Re-run", "Ctrl+R", false, s.run() != nullptr)) s.execute(Command::Rerun);
    if (ImGui::MenuItem("Edit script", nullptr, s.editing(), s.run() != nullptr)) {
      if (s.editing()) s.end_edit();
      else s.begin_edit();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Quit")) w.quit_requested = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Run")) {
    const struct {
      Command c;
      const char* key;
    } items[] = {{Command::RunToBreakpoint, "F5"}, {Command::NextStatement, "F10"},
                 {Command::PrevStatement, "Shift+F10"}, {Command::StepInto, "F11"},
                 {Command::StepOut, "Shift+F11"}, {Command::NextEvent, "Right"},
                 {Command::PrevEvent, "Left"}, {Command::First, "Home"},
                 {Command::Last, "End"}, {Command::ToggleBreakpoint, "F9"}};
    for (const auto& it : items)
      if (ImGui::MenuItem(command_name(it.c), it.key, false, s.event_count() > 0)) s.execute(it.c);
    ImGui::Separator();
    if (ImGui::MenuItem(s.playing() ? "Pause" : "Play", nullptr, false, s.event_count() > 0)) s.execute(Command::TogglePlay);
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    for (int i = 0; i < kPanelCount; ++i) {
      const PanelId p = static_cast<PanelId>(i);
      bool& open = w.layout.open()[static_cast<size_t>(i)];
      if (ImGui::MenuItem(panel_title(p), nullptr, &open) && open) w.activate = p;
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Fit graph", "F")) s.execute(Command::FitGraph);
    if (ImGui::MenuItem("Search graph", "Ctrl+F")) s.execute(Command::Search);
    if (ImGui::MenuItem("Larger font", "Ctrl+=")) s.execute(Command::FontLarger);
    if (ImGui::MenuItem("Smaller font", "Ctrl+-")) s.execute(Command::FontSmaller);
    if (ImGui::MenuItem("Clear selection", "Esc")) s.execute(Command::ClearSelection);
    ImGui::Separator();
    if (ImGui::MenuItem("Reset layout")) w.reset_layout_requested = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Keys")) w.show_keys = true;
    ImGui::EndMenu();
  }
  ImGui::EndMenuBar();
}

void draw_status_bar(Session& s) {
  if (s.running() && s.run_elapsed() > 0.1) {
    // An indeterminate bar: a block sliding back and forth.
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float bw = ImGui::GetFontSize() * 8, bh = ImGui::GetTextLineHeight();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + bw, p.y + bh), IM_COL32(45, 48, 56, 255), 3);
    const float t = static_cast<float>(std::fmod(ImGui::GetTime() * 0.8, 2.0));
    const float f = t < 1 ? t : 2 - t;
    const float x = p.x + f * (bw - bw * 0.3f);
    dl->AddRectFilled(ImVec2(x, p.y), ImVec2(x + bw * 0.3f, p.y + bh), colors::kAccent, 3);
    ImGui::Dummy(ImVec2(bw, bh));
    ImGui::SameLine();
    ImGui::Text("Running... %.1f s", s.run_elapsed());
    ImGui::SameLine();
    if (ImGui::SmallButton("Cancel")) s.cancel_run();
    ImGui::SameLine();
  }
  const LoadedRun* run = s.run();
  const bool bad = run && (!run->load_error.empty() || run->error);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(bad ? colors::kError : colors::kDim), "%s", s.status().c_str());
}

void draw_open_dialog(Workspace& w, Session& s) {
  if (s.requests().open_dialog) {
    ImGui::OpenPopup("Open file");
    s.requests().open_dialog = false;
    w.open_error.clear();
  }
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 40, 0), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal("Open file", nullptr)) return;
  ImGui::TextUnformatted("A scenario (.json), a script (.py, .tape) or a trace (.json from tapescope-cli --trace):");
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
  ImGui::SetNextItemWidth(-1);
  const bool enter = ImGui::InputText("##path", &w.scenarios.open_path, ImGuiInputTextFlags_EnterReturnsTrue);
  if (!w.open_error.empty()) colored_wrapped(colors::kError, w.open_error);
  if (!s.recent_files().empty()) {
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::kDim), "Recent files");
    ImGui::BeginChild("recent", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 6), true);
    for (const auto& r : s.recent_files())
      if (ImGui::Selectable(r.c_str(), r == w.scenarios.open_path, ImGuiSelectableFlags_AllowDoubleClick)) {
        w.scenarios.open_path = r;
        if (ImGui::IsMouseDoubleClicked(0)) {
          s.open(r);
          ImGui::CloseCurrentPopup();
        }
      }
    ImGui::EndChild();
  }
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::kFaint), "Tip: drop a file on the window to open it.");
  if (ImGui::Button("Open") || enter) {
    std::error_code ec;
    if (w.scenarios.open_path.empty() || !std::filesystem::is_regular_file(w.scenarios.open_path, ec)) {
      w.open_error = "No such file: " + w.scenarios.open_path;
    } else {
      s.open(w.scenarios.open_path);
      ImGui::CloseCurrentPopup();
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

void draw_keys_window(Workspace& w) {
  if (!w.show_keys) return;
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 26, 0), ImGuiCond_Appearing);
  if (ImGui::Begin("Keys", &w.show_keys, ImGuiWindowFlags_NoCollapse)) {
    const char* rows[][2] = {{"F5", "run to the next breakpoint, or the end"}, {"F10 / Shift+F10", "next / previous statement"},
                             {"F11 / Shift+F11", "step into / out of a gradient call's backward pass"},
                             {"Left / Right", "previous / next event"}, {"Home / End", "first / last event"},
                             {"F9", "toggle a breakpoint on the focused line"}, {"Ctrl+O", "open a file"},
                             {"Ctrl+R", "re-run"}, {"Ctrl+Enter", "re-run the edited script"},
                             {"F / Ctrl+F", "fit / search the graph"}, {"Ctrl+= / Ctrl+-", "font size"},
                             {"Esc", "clear the selection"}};
    if (ImGui::BeginTable("keys", 2)) {
      for (const auto& r : rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::kAccent), "%s", r[0]);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r[1]);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

// [SECTION] tiling with splitters ---------------------------------------------------

void draw_leaf(const LeafRect& leaf, Workspace& w, Session& s) {
  LayoutNode& node = w.layout.nodes()[static_cast<size_t>(leaf.node)];
  const std::vector<PanelId> tabs = w.layout.open_tabs(leaf.node);
  ImGui::SetCursorScreenPos(ImVec2(leaf.rect.x, leaf.rect.y));
  ImGui::PushID(leaf.node);
  ImGui::BeginChild("leaf", ImVec2(leaf.rect.w, leaf.rect.h), true, ImGuiWindowFlags_NoScrollbar);
  if (ImGui::BeginTabBar("tabs", ImGuiTabBarFlags_FittingPolicyScroll)) {
    for (PanelId p : tabs) {
      ImGuiTabItemFlags flags = 0;
      if (w.activate == p) flags |= ImGuiTabItemFlags_SetSelected;
      bool open = true;
      const std::string title = tab_title(p, w, s);
      // A lone tab cannot be closed from here (the View menu still can).
      if (ImGui::BeginTabItem(title.c_str(), tabs.size() > 1 ? &open : nullptr, flags)) {
        for (size_t i = 0; i < node.tabs.size(); ++i)
          if (node.tabs[i] == p) node.active = static_cast<int>(i);
        ImGui::BeginChild("content", ImVec2(0, 0), false,
                          p == PanelId::Graph || p == PanelId::Source ? ImGuiWindowFlags_NoScrollbar : 0);
        draw_panel(p, w, s);
        ImGui::EndChild();
        ImGui::EndTabItem();
      }
      if (!open) w.layout.open()[static_cast<size_t>(p)] = false;
    }
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
  ImGui::PopID();
}

void draw_splitters(Workspace& w) {
  const float min_size = ImGui::GetFontSize() * 6;
  for (size_t i = 0; i < w.splitters.size(); ++i) {
    const SplitterRect& sp = w.splitters[i];
    ImGui::SetCursorScreenPos(ImVec2(sp.rect.x, sp.rect.y));
    ImGui::PushID(sp.node);
    ImGui::InvisibleButton("##split", ImVec2(std::max(sp.rect.w, 1.0f), std::max(sp.rect.h, 1.0f)));
    const bool hot = ImGui::IsItemHovered() || ImGui::IsItemActive();
    if (hot) ImGui::SetMouseCursor(sp.vertical ? ImGuiMouseCursor_ResizeNS : ImGuiMouseCursor_ResizeEW);
    if (ImGui::IsItemActive()) {
      const ImVec2 d = ImGui::GetIO().MouseDelta;
      w.layout.drag(sp, sp.vertical ? d.y : d.x, min_size);
    }
    if (hot)
      ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(sp.rect.x, sp.rect.y),
                                                ImVec2(sp.rect.x + sp.rect.w, sp.rect.y + sp.rect.h),
                                                IM_COL32(110, 170, 255, 120));
    ImGui::PopID();
  }
}

}  // namespace

void draw_workspace(Workspace& w, Session& s) {
  if (w.reset_layout_requested) {
    w.layout = Layout::make_default();
    w.reset_layout_requested = false;
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 0.0f);
  const ImGuiWindowFlags host = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_MenuBar |
                                ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollWithMouse;
  ImGui::Begin("Tapescope", nullptr, host);
  ImGui::PopStyleVar(2);
  draw_menu_bar(w, s);
  draw_stepper_bar(s);
  // The tiled area: between the toolbar and the status bar.
  const float status_h = ImGui::GetTextLineHeightWithSpacing() + 2;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  TileRect area{p0.x, p0.y, avail.x, std::max(0.0f, avail.y - status_h)};
  const float splitter = std::max(4.0f, std::round(ImGui::GetFontSize() * 0.35f));
  w.layout.compute(area, splitter, w.leaves, w.splitters);
  for (const LeafRect& leaf : w.leaves) draw_leaf(leaf, w, s);
  draw_splitters(w);
  w.activate = PanelId::Count;
  ImGui::SetCursorScreenPos(ImVec2(p0.x, p0.y + area.h + 3));
  draw_status_bar(s);
  draw_open_dialog(w, s);
  ImGui::End();
  draw_keys_window(w);
}

}  // namespace ts::gui

// Timeline drawing.
#include "views/timeline_view.h"

#include <string>

#include "imgui.h"
#include "model/log_query.h"
#include "views/widgets.h"

namespace ts::gui {

namespace {

bool step_button(const std::string& label, const char* tip, bool enabled = true) {
  if (!enabled) ImGui::BeginDisabled();
  const bool clicked = ImGui::Button(label.c_str());
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tip);
  if (!enabled) ImGui::EndDisabled();
  ImGui::SameLine();
  return clicked;
}

}  // namespace

void draw_stepper_bar(Session& s) {
  const bool any = s.event_count() > 0;
  const bool at_start = s.cursor() <= 0, at_end = s.cursor() >= s.event_count() - 1;
  const std::string back = kGlyphBack, fwd = kGlyphPlay;
  ImGui::PushID("stepper");
  if (step_button("|" + back, "First event (Home)", any && !at_start)) s.execute(Command::First);
  if (step_button(back + back, "Previous statement (Shift+F10)", any && !at_start)) s.execute(Command::PrevStatement);
  if (step_button(back, "Previous event (Left)", any && !at_start)) s.execute(Command::PrevEvent);
  if (step_button(fwd, "Next event (Right)", any && !at_end)) s.execute(Command::NextEvent);
  if (step_button(fwd + fwd, "Next statement (F10)", any && !at_end)) s.execute(Command::NextStatement);
  if (step_button(fwd + "|", "Last event (End)", any && !at_end)) s.execute(Command::Last);
  if (step_button("Into", "Step into the backward pass of a gradient call (F11)", any && !at_end)) s.execute(Command::StepInto);
  if (step_button("Out", "Step out of the gradient call (Shift+F11)", any && !at_end)) s.execute(Command::StepOut);
  if (step_button("Run", "Run to the next breakpoint, or the end (F5)", any && !at_end)) s.execute(Command::RunToBreakpoint);
  if (step_button(s.playing() ? std::string(kGlyphPause) + " Pause" : fwd + " Play", "Play statement by statement", any))
    s.execute(Command::TogglePlay);
  float speed = s.play_speed();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  if (ImGui::SliderFloat("##speed", &speed, 0.5f, 30.0f, "%.1f stmt/s", ImGuiSliderFlags_Logarithmic))
    s.set_play_speed(speed);
  ImGui::SameLine();
  if (any) {
    const Event* e = s.current_event();
    // Event indices as the Timeline, the JSON export and --cursor number them (from 0).
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::kDim), "event %lld / %lld  line %d",
                       static_cast<long long>(s.cursor()), static_cast<long long>(s.event_count() - 1), e ? e->line : 0);
    if (s.active_call() != kNoId) {
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::kBackward), " in backward pass");
    }
  } else {
    ImGui::TextDisabled("no events");
  }
  ImGui::PopID();
}

void draw_timeline_view(TimelineModel& model, Session& s, bool* p_open) {
  if (p_open && !*p_open) return;
  model.sync(s);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::BeginCombo("show", timeline_filter_name(model.filter))) {
    for (TimelineFilter f : {TimelineFilter::All, TimelineFilter::Statements, TimelineFilter::TapeAndOps,
                             TimelineFilter::Gradients, TimelineFilter::Output})
      if (ImGui::Selectable(timeline_filter_name(f), model.filter == f)) model.filter = f;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::kDim), "breakpoints:");
  if (s.breakpoints().empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("none (F9 or click the gutter)");
  }
  int remove = 0;
  for (int line : s.breakpoints()) {
    ImGui::SameLine();
    ImGui::PushID(line);
    if (ImGui::SmallButton(("line " + std::to_string(line) + " x").c_str())) remove = line;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Remove the breakpoint on line %d", line);
    ImGui::PopID();
  }
  if (remove) s.toggle_breakpoint(remove);
  model.sync(s);

  ImGui::BeginChild("events", ImVec2(0, 0), true);
  const float lh = ImGui::GetTextLineHeightWithSpacing();
  if (s.requests().scroll_timeline && model.cursor_row() >= 0) {
    const float y = static_cast<float>(model.cursor_row()) * lh;
    if (y < ImGui::GetScrollY() || y > ImGui::GetScrollY() + ImGui::GetWindowHeight() - lh)
      ImGui::SetScrollY(y - ImGui::GetWindowHeight() * 0.5f);
    s.requests().scroll_timeline = false;
  }
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(model.rows().size()), lh);
  const CallId active = s.active_call();
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const int64_t ev = model.rows()[static_cast<size_t>(i)];
      const Event& e = s.log().events[static_cast<size_t>(ev)];
      ImGui::PushID(i);
      const bool is_cursor = ev == s.cursor();
      ImU32 col = ev > s.cursor() ? colors::kFaint : colors::kText;
      if (e.kind == EventKind::StatementStarted) col = ev > s.cursor() ? colors::kFaint : colors::kAccent;
      if (e.kind == EventKind::BackwardStep || e.kind == EventKind::GradientCallStarted) col = colors::kBackward;
      if (e.kind == EventKind::GradientResult && !e.text.empty()) col = colors::kNone;
      if (e.kind == EventKind::Error || e.kind == EventKind::Alert) col = colors::kError;
      if (e.kind == EventKind::Warning) col = colors::kWarn;
      ImGui::PushStyleColor(ImGuiCol_Text, col);
      char prefix[48];
      std::snprintf(prefix, sizeof prefix, "%5lld  L%-3d %s", static_cast<long long>(ev), e.line,
                    s.index().call_of(ev) != kNoId ? "  " : "");
      const std::string text = std::string(prefix) + model.row_text(s, static_cast<size_t>(i));
      if (ImGui::Selectable(text.c_str(), is_cursor)) s.set_cursor(ev);
      ImGui::PopStyleColor();
      if (is_cursor && active != kNoId && ImGui::IsItemVisible()) {
        // A bar on the left marks the backward pass the cursor is in.
        ImDrawList* dl = ImGui::GetWindowDrawList();
        dl->AddRectFilled(ImGui::GetItemRectMin(), ImVec2(ImGui::GetItemRectMin().x + 3, ImGui::GetItemRectMax().y),
                          colors::kBackward);
      }
      ImGui::PopID();
    }
  }
  ImGui::EndChild();
}

}  // namespace ts::gui

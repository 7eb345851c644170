// Source view drawing.
#include "views/source_view.h"

#include <algorithm>
#include <cstdio>

#include "imgui.h"
#include "imgui_stdlib.h"
#include "model/stepper.h"
#include "views/widgets.h"

namespace ts::gui {

namespace {

ImU32 token_color(TokenKind k) {
  switch (k) {
    case TokenKind::Keyword: return colors::kKeyword;
    case TokenKind::Builtin: return colors::kBuiltin;
    case TokenKind::Module: return colors::kModule;
    case TokenKind::Number: return colors::kNumber;
    case TokenKind::String: return colors::kString;
    case TokenKind::Comment: return colors::kComment;
    case TokenKind::Operator: return colors::kOperator;
    case TokenKind::Decorator: return colors::kModule;
    case TokenKind::Text: return colors::kText;
  }
  return colors::kText;
}

void draw_header(SourceModel& model, Session& s) {
  const LoadedRun* run = s.run();
  if (!run) {
    ImGui::TextDisabled("Nothing open. Pick a scenario on the left, or File > Open.");
    return;
  }
  ImGui::TextUnformatted(run->title.c_str());
  ImGui::SameLine();
  const float right = ImGui::GetWindowContentRegionMax().x;
  if (s.editing()) {
    ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), right - 250));
    if (ImGui::SmallButton("Run (Ctrl+Enter)")) s.execute(Command::RerunEdited);
    ImGui::SameLine();
    if (ImGui::SmallButton("Cancel edit")) s.end_edit();
  } else {
    ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), right - 150));
    if (run->kind != SourceKind::Trace && ImGui::SmallButton("Edit")) s.begin_edit();
    ImGui::SameLine();
    ImGui::Checkbox("notes", &model.show_notes);
  }
  if (!run->scenario.summary.empty() && model.show_notes && !s.editing())
    colored_wrapped(colors::kDim, run->scenario.summary);
}

// The note bar under the code: the current line's notes, or the break explanation.
void draw_note_bar(const SourceModel& model) {
  const SourceLine* cur = nullptr;
  for (const auto& l : model.lines())
    if (l.number == model.current_line()) cur = &l;
  if (!model.break_label.empty()) {
    ImGui::Separator();
    colored_wrapped(colors::kNone, "Line " + std::to_string(model.break_line()) + " - path breaks: " + model.break_label);
  }
  if (cur && !cur->notes.empty() && model.show_notes) {
    ImGui::Separator();
    for (const auto& n : cur->notes) colored_wrapped(colors::kAccent, "Line " + std::to_string(cur->number) + ": " + n);
  }
}

}  // namespace

void draw_source_view(SourceModel& model, Session& s, bool* p_open) {
  if (p_open && !*p_open) return;
  model.sync(s);
  draw_header(model, s);

  if (s.editing()) {
    if (ImFont* f = mono_font()) ImGui::PushFont(f);
    ImGui::InputTextMultiline("##edit", &s.edit_text(), ImVec2(-1, -1), ImGuiInputTextFlags_AllowTabInput);
    if (mono_font()) ImGui::PopFont();
    return;
  }

  // Reserve room for the note bar below the code.
  float note_h = 0;
  for (const auto& l : model.lines())
    if (l.number == model.current_line() && !l.notes.empty() && model.show_notes)
      note_h = ImGui::GetTextLineHeightWithSpacing() * 3.2f;
  if (!model.break_label.empty()) note_h += ImGui::GetTextLineHeightWithSpacing() * 2.2f;

  ImGui::BeginChild("code", ImVec2(0, -note_h), false, ImGuiWindowFlags_HorizontalScrollbar);
  ImFont* font = mono_font();
  if (font) ImGui::PushFont(font);
  const float lh = ImGui::GetTextLineHeight() + 3.0f;
  const float cw = ImGui::CalcTextSize("0").x;
  const int digits = std::max(2, static_cast<int>(std::to_string(model.lines().size()).size()));
  const float bp_w = lh;                                // breakpoint column
  const float num_w = cw * static_cast<float>(digits) + 8;  // line numbers
  const float mark_w = lh + 2;                          // note / error / gradient markers
  const float text_x = bp_w + num_w + mark_w + 6;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float view_w = ImGui::GetWindowWidth();
  const size_t n = model.lines().size();

  // Scroll requests: an explicit jump (Show path), or following the cursor's line.
  auto scroll_to = [&](int line) {
    const float y = (static_cast<float>(line) - 1) * lh;
    ImGui::SetScrollY(std::max(0.0f, y - ImGui::GetWindowHeight() * 0.35f));
  };
  if (s.requests().source_line > 0) {
    scroll_to(s.requests().source_line);
    s.requests().source_line = 0;
  } else if (model.current_line() != model.last_scrolled_line || model.last_generation != s.generation()) {
    const float y = (static_cast<float>(model.current_line()) - 1) * lh;
    if (y < ImGui::GetScrollY() || y + lh > ImGui::GetScrollY() + ImGui::GetWindowHeight()) scroll_to(model.current_line());
  }
  model.last_scrolled_line = model.current_line();
  model.last_generation = s.generation();

  float max_w = 0;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(n), lh);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const SourceLine& l = model.lines()[static_cast<size_t>(i)];
      const float y = origin.y + static_cast<float>(i) * lh;
      const ImVec2 row0(origin.x, y), row1(origin.x + std::max(view_w, max_w + text_x + 400), y + lh);
      ImGui::PushID(i);
      // Backgrounds, strongest meaning last.
      if (l.backward) dl->AddRectFilled(row0, row1, colors::kBackwardLine);
      if (l.current) dl->AddRectFilled(row0, row1, colors::kCurrentLine);
      if (!l.error.empty()) dl->AddRectFilled(row0, row1, colors::kErrorLine);
      if (l.path_break) dl->AddRectFilled(row0, row1, colors::kBreakLine);
      if (s.focus_line() == l.number) dl->AddRect(row0, ImVec2(row1.x - 1, row1.y), IM_COL32(255, 255, 255, 40));

      // Gutter: a click on the breakpoint column or the number toggles a breakpoint.
      ImGui::SetCursorScreenPos(row0);
      if (ImGui::InvisibleButton("##gutter", ImVec2(bp_w + num_w, lh))) s.toggle_breakpoint(l.number);
      const bool gutter_hover = ImGui::IsItemHovered();
      const ImVec2 bp_c(row0.x + bp_w * 0.5f, y + lh * 0.5f);
      if (l.breakpoint) dl->AddCircleFilled(bp_c, lh * 0.3f, colors::kBreakpoint);
      else if (gutter_hover) dl->AddCircle(bp_c, lh * 0.3f, IM_COL32(225, 60, 60, 140));
      if (gutter_hover) ImGui::SetTooltip(l.breakpoint ? "Remove breakpoint (F9)" : "Set breakpoint (F9)");
      char num[16];
      std::snprintf(num, sizeof num, "%d", l.number);
      const float nw = ImGui::CalcTextSize(num).x;
      dl->AddText(ImVec2(row0.x + bp_w + num_w - 6 - nw, y + 1.5f),
                  l.current ? colors::kText : (l.executed ? colors::kDim : colors::kFaint), num);

      // Markers: error, note, gradient call (one icon, the most important).
      const ImVec2 mc(row0.x + bp_w + num_w + mark_w * 0.5f, y + lh * 0.5f);
      ImGui::SetCursorScreenPos(ImVec2(row0.x + bp_w + num_w, y));
      ImGui::InvisibleButton("##marker", ImVec2(mark_w, lh));
      const bool mark_hover = ImGui::IsItemHovered();
      const float r = lh * 0.32f;
      if (!l.error.empty()) {
        dl->AddCircleFilled(mc, r, colors::kError);
        dl->AddText(ImVec2(mc.x - cw * 0.5f, y + 1.5f), IM_COL32(20, 20, 20, 255), "!");
      } else if (!l.notes.empty()) {
        dl->AddCircleFilled(mc, r, IM_COL32(70, 120, 200, 255));
        dl->AddText(ImVec2(mc.x - cw * 0.5f, y + 1.5f), IM_COL32(240, 240, 255, 255), "i");
      } else if (l.gradient_call) {
        dl->AddText(ImVec2(mc.x - cw * 0.5f, y + 1.5f), l.none_results ? colors::kNone : colors::kBackward, "d");
      }
      if (mark_hover && (!l.error.empty() || !l.notes.empty() || !l.warning.empty() || l.gradient_call)) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35);
        if (!l.error.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::kError), "%s", l.error.c_str());
        if (!l.caught.empty())
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::kWarn), "raised, then caught: %s", l.caught.c_str());
        for (const auto& note : l.notes) ImGui::TextUnformatted(note.c_str());
        if (!l.warning.empty()) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::kWarn), "%s", l.warning.c_str());
        if (l.gradient_call)
          ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(l.none_results ? colors::kNone : colors::kBackward),
                             l.none_results ? "gradient call: %d None result(s)" : "gradient call", l.none_results);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
      }

      // Code, token by token.
      const float x0 = row0.x + text_x;
      float x = x0;
      for (const Token& t : l.tokens) {
        const char* b = l.text.c_str() + t.begin;
        const char* e = l.text.c_str() + t.end;
        dl->AddText(ImVec2(x, y + 1.5f), token_color(t.kind), b, e);
        x += ImGui::CalcTextSize(b, e).x;
      }
      max_w = std::max(max_w, x - x0);
      // Click on the code focuses the line (F9 target); double click runs to it.
      ImGui::SetCursorScreenPos(ImVec2(x0, y));
      ImGui::InvisibleButton("##code", ImVec2(std::max(x - x0, view_w - text_x), lh));
      if (ImGui::IsItemClicked()) s.set_focus_line(l.number);
      if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(0)) {
        const Stepper st(s.log(), s.index());
        const int64_t k = st.statement_at_line(l.number, s.cursor());
        if (k >= 0) s.set_cursor(k);
      }
      // Inline messages after the code.
      const float tail = x + cw * 3;
      if (!l.error.empty()) {
        dl->AddText(ImVec2(tail, y + 1.5f), colors::kError, (std::string(kGlyphLeftArrow) + " " + l.error).c_str());
      } else if (!l.caught.empty()) {
        dl->AddText(ImVec2(tail, y + 1.5f), colors::kWarn,
                    (std::string(kGlyphLeftArrow) + " raised " + l.caught + " (caught)").c_str());
      } else if (l.path_break) {
        // The longest wording that fits before the panel's edge.
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowWidth() - ImGui::GetStyle().ScrollbarSize;
        std::string text = std::string(kGlyphLeftArrow) + " the gradient path breaks here";
        if (tail + ImGui::CalcTextSize(text.c_str()).x > right) text = std::string(kGlyphLeftArrow) + " path breaks here";
        if (tail + ImGui::CalcTextSize(text.c_str()).x > right) text = std::string(kGlyphLeftArrow) + " breaks";
        dl->AddText(ImVec2(tail, y + 1.5f), colors::kNone, text.c_str());
      } else if (!l.warning.empty()) {
        std::string w = l.warning;
        const std::string prefix = "WARNING:tensorflow:";
        if (w.rfind(prefix, 0) == 0) w = w.substr(prefix.size());
        dl->AddText(ImVec2(tail, y + 1.5f), colors::kWarn, (std::string(kGlyphWarn) + " " + w).c_str());
      } else if (l.gradient_call && l.none_results > 0) {
        dl->AddText(ImVec2(tail, y + 1.5f), colors::kNone,
                    (std::string(kGlyphLeftArrow) + " " + std::to_string(l.none_results) + " None").c_str());
      }
      ImGui::PopID();
    }
  }
  clipper.End();
  // Size the scroll region to the longest line and all the lines.
  ImGui::SetCursorScreenPos(ImVec2(origin.x + text_x + max_w + 40, origin.y + static_cast<float>(n) * lh));
  ImGui::Dummy(ImVec2(1, 1));
  if (font) ImGui::PopFont();
  ImGui::EndChild();
  draw_note_bar(model);
}

}  // namespace ts::gui

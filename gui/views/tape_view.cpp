// Tape view drawing.
#include "views/tape_view.h"

#include <string>

#include "imgui.h"
#include "views/widgets.h"

namespace ts::gui {

void draw_tape_view(TapeModel& model, Session& s, bool* p_open) {
  if (p_open && !*p_open) return;
  model.sync(s);
  if (model.tapes().empty()) {
    ImGui::TextDisabled(s.run() ? "This run made no GradientTape." : "Nothing open.");
    return;
  }
  // Tape picker: "follow" tracks the cursor / selection.
  std::string current = "follow the cursor";
  for (const auto& t : model.tapes())
    if (t.id == model.chosen) current = t.text;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
  if (ImGui::BeginCombo("##tape", current.c_str())) {
    if (ImGui::Selectable("follow the cursor", model.chosen == kNoId)) model.chosen = kNoId;
    for (const auto& t : model.tapes())
      if (ImGui::Selectable(t.text.c_str(), model.chosen == t.id)) model.chosen = t.id;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::Checkbox("show unrecorded ops", &model.show_unrecorded);
  ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colors::kDim), "%s  -  %d record%s", model.header().c_str(),
                     model.recorded_count(), model.recorded_count() == 1 ? "" : "s");
  if (!model.dropped_note().empty()) colored_wrapped(colors::kWarn, model.dropped_note());
  if (model.rows().empty()) {
    ImGui::TextDisabled("No records at the cursor.");
    return;
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_Resizable | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("records", 5, flags)) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 1.8f);
  ImGui::TableSetupColumn("op", ImGuiTableColumnFlags_WidthStretch, 1.7f);  // "ReadVariableOp  tf.reduce_mean" whole
  ImGui::TableSetupColumn("inputs -> outputs", ImGuiTableColumnFlags_WidthStretch, 2.0f);
  ImGui::TableSetupColumn("line", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 2.5f);
  ImGui::TableSetupColumn("note", ImGuiTableColumnFlags_WidthStretch, 1.1f);
  ImGui::TableHeadersRow();
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(model.rows().size()));
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const TapeRow& r = model.rows()[static_cast<size_t>(i)];
      ImGui::PushID(i);
      ImGui::TableNextRow();
      if (r.backward_now) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(110, 70, 150, 140));
      const bool selected = (s.selection().kind == SelectionKind::Op && s.selection().id == r.op);
      if (selected) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, IM_COL32(60, 90, 150, 140));
      const ImU32 col = r.recorded ? colors::kText : colors::kFaint;
      ImGui::PushStyleColor(ImGuiCol_Text, col);
      ImGui::TableNextColumn();
      if (r.recorded) ImGui::Text("%d", r.index);
      ImGui::TableNextColumn();
      const std::string op = r.type + (r.label.empty() ? "" : "  " + r.label);
      if (ImGui::Selectable(op.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
        s.select_id(r.op);
      if (ImGui::IsItemHovered()) {
        s.set_hovered(r.op);
        if (!r.kept.empty()) ImGui::SetTooltip("Kept for the backward pass: %s", r.kept.c_str());
      }
      ImGui::TableNextColumn();
      ImGui::Text("%s  %s  %s", r.inputs.c_str(), kGlyphArrow, r.outputs.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%d", r.line);
      ImGui::TableNextColumn();
      if (!r.recorded) {
        ImGui::TextUnformatted(r.reason.c_str());
      } else if (r.backward_now) {
        ImGui::PopStyleColor();
        ImGui::PushStyleColor(ImGuiCol_Text, colors::kBackward);
        ImGui::TextUnformatted("gradient runs now");
      } else if (r.backward_done) {
        ImGui::PopStyleColor();
        ImGui::PushStyleColor(ImGuiCol_Text, colors::kBackward);
        ImGui::TextUnformatted("gradient done");
      }
      ImGui::PopStyleColor();
      ImGui::PopID();
    }
  }
  ImGui::EndTable();
}

}  // namespace ts::gui

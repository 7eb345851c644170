#include "op_registry.h"

#include <algorithm>
#include <cstring>

#include "engine.h"

namespace ts {

OpRegistry& OpRegistry::instance() {
  static OpRegistry reg;
  // The families register through instance() themselves: skip the (thread-safe,
  // one-time) registration while it runs on this thread.
  static thread_local bool registering = false;
  if (!registering) {
    registering = true;
    static const bool registered = (register_all_ops(), true);
    (void)registered;
    registering = false;
  }
  return reg;
}

void OpRegistry::add(OpDef def) {
  auto it = by_type_.find(def.type);
  if (it != by_type_.end()) {
    *it->second = std::move(def);
    return;
  }
  defs_.push_back(std::move(def));
  by_type_[defs_.back().type] = &defs_.back();
}

const OpDef* OpRegistry::find(const std::string& type) const {
  // Every op the engine runs looks its definition up by name, so a small direct-mapped
  // cache keyed by the name's first bytes and length saves hashing the whole name.
  // Registration happens before any lookup (Engine's constructor), and ops are never removed.
  struct Slot {
    uint64_t key = 0;
    const OpDef* def = nullptr;
  };
  thread_local Slot cache[64];
  uint64_t key = 0;
  std::memcpy(&key, type.data(), std::min<size_t>(type.size(), 7));
  key = (key << 8) | (type.size() & 0xff);
  Slot& slot = cache[(key * 0x9E3779B97F4A7C15ull) >> 58];
  if (slot.def && slot.key == key && slot.def->type == type) return slot.def;
  auto it = by_type_.find(type);
  if (it == by_type_.end()) return nullptr;
  slot = {key, it->second};
  return it->second;
}

std::vector<const OpDef*> OpRegistry::all() const {
  std::vector<const OpDef*> out;
  for (const auto& d : defs_) out.push_back(&d);
  return out;
}

void register_all_ops() {
  register_math_ops();
  register_reduction_ops();
  register_array_ops();
  register_linalg_ops();
  register_control_ops();
  register_image_ops();
  register_state_ops();
  register_scatter_ops();
  register_nn_ops();
  register_einsum_ops();
  register_activation_ops();
  register_diag_ops();
  register_matrix_ops();
  register_special_ops();
  register_sort_ops();
  register_manip_ops();
  register_conv_ops();
  register_pooling_ops();
  register_mirror_pad_ops();
}

// --- GradContext ---
TensorId GradContext::input(size_t i) const { return op_.inputs.at(i); }
TensorId GradContext::output(size_t i) const { return op_.outputs.at(i); }
const Attrs& GradContext::attrs() const { return op_.attrs; }
const TensorValue& GradContext::value(TensorId id) const { return engine_.value(id); }
const Shape& GradContext::shape(TensorId id) const { return engine_.shape_of(id); }
DType GradContext::dtype(TensorId id) const { return engine_.dtype_of(id); }

TensorId GradContext::op(const std::string& type, const std::vector<TensorId>& inputs, const Attrs& attrs) {
  return engine_.execute1(type, inputs, attrs, "grad:" + type);
}
TensorId GradContext::op(const std::string& type, std::initializer_list<TensorId> inputs, const Attrs& attrs) {
  return engine_.execute1(type, inputs, attrs, "grad:" + type);
}

std::vector<TensorId> GradContext::ops(const std::string& type, const std::vector<TensorId>& inputs, const Attrs& attrs) {
  return engine_.execute(type, inputs, attrs, "grad:" + type);
}

TensorId GradContext::scalar_like(TensorId like, double v) {
  return engine_.constant(make_scalar(dtype(like), v), "constant");
}

TensorId GradContext::constant(const TensorValue& v) { return engine_.constant(v, "constant"); }

TensorId GradContext::reduce_to(TensorId grad, TensorId target) {
  const Shape& gs = shape(grad);
  const Shape& ts = shape(target);
  if (gs == ts) return grad;
  // Axes where the target was broadcast: leading extra axes, and size-1 axes.
  std::vector<int64_t> axes;
  const size_t off = gs.size() - ts.size();
  for (size_t d = 0; d < gs.size(); ++d)
    if (d < off || (ts[d - off] == 1 && gs[d] != 1)) axes.push_back(static_cast<int64_t>(d));
  TensorId s = grad;
  if (!axes.empty()) s = op("Sum", {grad}, Attrs{{"axis", axes}, {"keepdims", true}});
  if (shape(s) != ts) s = op("Reshape", {s}, Attrs{{"shape", ts}});
  return s;
}

}  // namespace ts

// Roll (tf.roll): elements shifted along axes, wrapping around. Attrs "shift" and "axis"
// (int lists of one length; shifts on one axis add up), "shift_rank"/"axis_rank" (0 when
// given as a scalar). Its gradient rolls back.
#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {

TensorValue roll(const Inputs& in, const Attrs& attrs) {
  constexpr std::string_view op = "Roll";
  expect_arity(op, in, 1);
  const TensorValue& x = *in[0];
  const std::vector<int64_t> shift = attrs.get_ints("shift"), axis = attrs.get_ints("axis");
  // roll_op.cc's order: shift and axis of one shape (a scalar is not a 1-vector), then
  // the input's rank, then each axis (named after adding the rank).
  if (shift.size() != axis.size() || attrs.get_int("shift_rank", 1) != attrs.get_int("axis_rank", 1))
    invalid_argument(op, "shift and axis must have the same size");
  const int64_t rank = x.rank();
  if (rank < 1) invalid_argument(op, "input must be 1-D or higher");
  std::vector<int64_t> total(static_cast<size_t>(rank), 0);
  for (size_t i = 0; i < axis.size(); ++i) {
    const int64_t a = axis[i] < 0 ? axis[i] + rank : axis[i];
    if (a < 0 || a >= rank) invalid_argument(op, "axis " + std::to_string(a) + " is out of range");
    total[static_cast<size_t>(a)] += shift[i];
  }
  const std::vector<int64_t> strides = strides_of(x.shape);
  TensorValue out = x;
  const int64_t n = x.size();
  for (int64_t i = 0; i < n; ++i) {
    // Where element i lands: each coordinate moved by its axis' shift, modulo the dim.
    int64_t rest = i, dst = 0;
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t dim = x.shape[static_cast<size_t>(d)];
      const int64_t s = strides[static_cast<size_t>(d)];
      const int64_t coord = rest / s;
      rest %= s;
      int64_t moved = (coord + total[static_cast<size_t>(d)]) % dim;
      if (moved < 0) moved += dim;
      dst += moved * s;
    }
    if (x.dtype == DType::String) out.strings[static_cast<size_t>(dst)] = x.strings[static_cast<size_t>(i)];
    else out.data[dst] = x.data[i];
  }
  return out;
}

}  // namespace

void register_manip_ops() {
  add_op("Roll", [](const Inputs& in, const Attrs& a) { return one(roll(in, a)); },
         [](GradContext& c) -> Grads {
           std::vector<int64_t> back = c.attrs().get_ints("shift");
           for (int64_t& s : back) s = -s;
           Attrs a = c.attrs();
           a.set("shift", back);
           return {c.op("Roll", {c.grad()}, a)};
         },
         "d roll(x, s)/dx = roll(g, -s)");
}

}  // namespace ts

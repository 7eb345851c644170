// Shape and layout ops: each forward kernel with its gradient function beside it.
// They move elements and never compute with them, so they work on every dtype
// (strings too, except Pad/Fill/StridedSliceGrad, which write zeros).
//
// Attr schemes (what the interpreter passes; all axes may be negative):
//   Reshape       "shape": int list, at most one -1 (inferred).
//   Transpose     "perm": int list; absent or empty = reversed dims (x.T).
//   ConcatV2      inputs: the tensors; "axis": int.
//   Pack          inputs: the tensors (same shape); "axis": int (new dim's position).
//   Unpack        "axis": int; one output per slice along it.
//   Squeeze       "axis": int list; absent or empty = every size-1 dim.
//   ExpandDims    "axis": int in [-rank-1, rank].
//   BroadcastTo   "shape": int list.
//   Tile          "multiples": int list, one per dim.
//   Fill          input: the scalar value; "shape": int list (TF's `dims`).
//   Slice         "begin", "size": int lists, one per dim; size -1 = to the end.
//   Pad           "paddings": int list [before_0, after_0, before_1, after_1, ...] (zeros).
//   Shape         "out_type": dtype (default int32).
//   ReverseV2     "axis": int list (negative allowed).
//   StridedSlice  TF's own scheme, so the log shows what TF's op would carry.
//                 "begin", "end", "strides": int lists, one entry per slice-spec item
//                 (strides default to 1s); five int bit masks, bit i for item i:
//                 "begin_mask" (ignore begin[i]: from the start), "end_mask" (ignore
//                 end[i]: to the end), "shrink_axis_mask" (item i is an index: take
//                 begin[i] and drop the dim), "new_axis_mask" (item i is None/newaxis),
//                 "ellipsis_mask" (item i is `...`). Dims after the last item are taken
//                 whole. A mask given as a 0/1 int list (one per item) is also accepted.
//                 Examples: a[i] → begin [i], end [i+1], shrink 1;  a[1:3] → begin [1],
//                 end [3];  a[:, 0] → begin [0, 0], end [0, 1], begin_mask 1,
//                 end_mask 1, shrink 2;  a[::-1] → begin [0], end [0], strides [-1],
//                 begin_mask 1, end_mask 1;  a[..., 0] → begin [0, 0], end [0, 1],
//                 ellipsis_mask 1, shrink 2.
//   StridedSliceGrad  StridedSlice's attrs plus "shape": the sliced input's shape; its
//                 input dy is scattered into zeros of that shape (StridedSlice's gradient).
#include <algorithm>
#include <bit>

#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {


// A new tensor of `x`'s dtype holding x's elements at `idx`, shaped `shape`.
TensorValue gather(const TensorValue& x, Shape shape, const std::vector<int64_t>& idx) {
  if (x.dtype == DType::String) {
    std::vector<std::string> s(idx.size());
    for (size_t k = 0; k < idx.size(); ++k) s[k] = x.strings[static_cast<size_t>(idx[k])];
    return make_string_tensor(std::move(shape), std::move(s));
  }
  Eigen::ArrayXd d(static_cast<Eigen::Index>(idx.size()));
  for (size_t k = 0; k < idx.size(); ++k) d[static_cast<Eigen::Index>(k)] = x.data[idx[k]];
  TensorValue t;  // elements are already of the dtype: no rounding needed
  t.dtype = x.dtype;
  t.shape = std::move(shape);
  t.data = std::move(d);
  return t;
}

TensorValue with_shape(const TensorValue& x, Shape shape) {
  TensorValue t = x;
  t.shape = std::move(shape);
  return t;
}

// Interleaves the inputs' row-major blocks: for each of `outer` rows, every input's
// next block in turn (ConcatV2 and Pack).
TensorValue concat_blocks(const Inputs& in, int64_t outer, Shape out_shape) {
  TensorValue out;
  out.dtype = in[0]->dtype;
  out.shape = std::move(out_shape);
  const bool str = out.dtype == DType::String;
  if (str) out.strings.reserve(static_cast<size_t>(num_elements(out.shape)));
  else out.data.resize(num_elements(out.shape));
  int64_t pos = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (const TensorValue* t : in) {
      const int64_t chunk = outer == 0 ? 0 : t->size() / outer;
      if (str) {
        for (int64_t k = 0; k < chunk; ++k) out.strings.push_back(t->strings[static_cast<size_t>(o * chunk + k)]);
      } else {
        out.data.segment(pos, chunk) = t->data.segment(o * chunk, chunk);
      }
      pos += chunk;
    }
  return out;
}

int64_t product(const Shape& s, size_t from, size_t to) {
  int64_t p = 1;
  for (size_t d = from; d < to; ++d) p *= s[d];
  return p;
}

// ---- Reshape ----
Shape reshape_target(const TensorValue& x, const Attrs& attrs) {
  Shape shape = attrs.get_ints("shape");
  int64_t known = 1, unknown = -1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      if (unknown >= 0)
        invalid_argument("Reshape", "Only one input size may be -1, not both " + std::to_string(unknown) + " and " +
                                        std::to_string(d));
      unknown = static_cast<int64_t>(d);
    } else if (shape[d] < 0) {
      invalid_argument("Reshape",
                       "Size " + std::to_string(d) + " must be non-negative, not " + std::to_string(shape[d]));
    } else {
      known *= shape[d];
    }
  }
  const int64_t n = x.size();
  if (unknown >= 0) {
    if (known == 0 || n % known != 0)
      invalid_argument("Reshape", "Input to reshape is a tensor with " + std::to_string(n) +
                                      " values, but the requested shape requires a multiple of " +
                                      std::to_string(known));
    shape[static_cast<size_t>(unknown)] = n / known;
  } else if (known != n) {
    invalid_argument("Reshape", "Input to reshape is a tensor with " + std::to_string(n) +
                                    " values, but the requested shape has " + std::to_string(known));
  }
  return shape;
}

// ---- Transpose ----
std::vector<int64_t> transpose_perm(const TensorValue& x, const Attrs& attrs) {
  const int64_t rank = x.rank();
  std::vector<int64_t> perm = attrs.get_ints("perm");
  if (perm.empty()) {
    for (int64_t d = rank; d-- > 0;) perm.push_back(d);
    return perm;
  }
  if (static_cast<int64_t>(perm.size()) != rank)
    invalid_argument("Transpose", "transpose expects a vector of size " + std::to_string(rank) +
                                      ". But input(1) is a vector of size " + std::to_string(perm.size()));
  std::vector<bool> seen(perm.size(), false);
  for (int64_t& p : perm) {
    if (p < 0) p += rank;  // TF accepts negative dims in perm
    if (p < 0 || p >= rank)
      invalid_argument("Transpose", std::to_string(p) + " is out of range [0 .. " + std::to_string(rank) + ")");
    if (seen[static_cast<size_t>(p)])
      invalid_argument("Transpose", std::to_string(p) + " is duplicated in the permutation");
    seen[static_cast<size_t>(p)] = true;
  }
  return perm;
}

TensorValue transpose(const TensorValue& x, const std::vector<int64_t>& perm) {
  Shape out_shape;
  std::vector<int64_t> steps;
  const auto st = strides_of(x.shape);
  for (int64_t p : perm) {
    out_shape.push_back(x.shape[static_cast<size_t>(p)]);
    steps.push_back(st[static_cast<size_t>(p)]);
  }
  if (x.rank() == 2 && perm[0] == 1 && x.dtype != DType::String) {
    // The matrix case (x.T, MatMul gradients) through Eigen.
    using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    TensorValue t;
    t.dtype = x.dtype;
    t.shape = out_shape;
    t.data.resize(x.size());
    Eigen::Map<RowMajor>(t.data.data(), out_shape[0], out_shape[1]) =
        Eigen::Map<const RowMajor>(x.data.data(), x.shape[0], x.shape[1]).transpose();
    return t;
  }
  const std::vector<int64_t> zeros(perm.size(), 0), ones(perm.size(), 1);
  return gather(x, out_shape, strided_indices(out_shape, zeros, ones, steps));
}

// ---- Slice / Pad ----
struct Window {
  Shape begin, size;
};

Window slice_window(const TensorValue& x, const Attrs& attrs) {
  Window w{attrs.get_ints("begin"), attrs.get_ints("size")};
  const size_t rank = x.shape.size();
  if (w.begin.size() != rank || w.size.size() != rank)
    invalid_argument("Slice", "Expected begin and size arguments to be 1-D tensors of size " + std::to_string(rank) +
                                  ", but got shapes [" + std::to_string(w.begin.size()) + "] and [" +
                                  std::to_string(w.size.size()) + "] instead.");
  for (size_t d = 0; d < rank; ++d) {
    const int64_t dim = x.shape[d];
    if (w.size[d] == -1) w.size[d] = dim - w.begin[d];
    if (w.begin[d] < 0 || w.begin[d] > dim)
      invalid_argument("Slice", "Expected begin[" + std::to_string(d) + "] in [0, " + std::to_string(dim) +
                                    "], but got " + std::to_string(w.begin[d]));
    if (w.size[d] < 0 || w.begin[d] + w.size[d] > dim)
      invalid_argument("Slice", "Expected size[" + std::to_string(d) + "] in [0, " +
                                    std::to_string(dim - w.begin[d]) + "], but got " + std::to_string(w.size[d]));
  }
  return w;
}

std::vector<int64_t> paddings_of(const TensorValue& x, const Attrs& attrs) {
  std::vector<int64_t> p = attrs.get_ints("paddings");
  if (p.size() != 2 * x.shape.size())
    invalid_argument("Pad", "The first dimension of paddings must be the rank of inputs" +
                                shape_list_str({static_cast<int64_t>(p.size() / 2), 2}) + " " +
                                shape_list_str(x.shape));
  for (size_t d = 0; d + 1 < p.size(); d += 2)
    if (p[d] < 0 || p[d + 1] < 0)
      invalid_argument("Pad", "Paddings must be non-negative: " + std::to_string(p[d]) + " " + std::to_string(p[d + 1]));
  return p;
}

// ---- StridedSlice ----

// Bit mask attr: an int, or a 0/1 list with one entry per slice-spec item.
int64_t mask_attr(const Attrs& attrs, const std::string& name) {
  auto it = attrs.items().find(name);
  if (it == attrs.items().end()) return 0;
  if (auto list = std::get_if<std::vector<int64_t>>(&it->second)) {
    int64_t m = 0;
    for (size_t i = 0; i < list->size(); ++i)
      if ((*list)[i] != 0) m |= int64_t{1} << i;
    return m;
  }
  return attrs.get_int(name);
}

// Per input dim: where the slice starts, its step, and how many elements it takes;
// and the output's shape (new axes added, shrunk dims dropped).
struct StridedPlan {
  Shape counts;
  std::vector<int64_t> start, step;
  Shape out_shape;
};

StridedPlan plan_strided_slice(std::string_view op, const Shape& in, const Attrs& attrs) {
  const std::vector<int64_t> begin = attrs.get_ints("begin"), end = attrs.get_ints("end");
  std::vector<int64_t> strides = attrs.get_ints("strides");
  const size_t n = begin.size();
  if (strides.empty()) strides.assign(n, 1);
  if (end.size() != n || strides.size() != n)
    invalid_argument(op, "Expected begin, end, and strides to be 1D equal size tensors, but got shapes [" +
                             std::to_string(n) + "], [" + std::to_string(end.size()) + "], and [" +
                             std::to_string(strides.size()) + "] instead.");
  const int64_t begin_mask = mask_attr(attrs, "begin_mask"), end_mask = mask_attr(attrs, "end_mask"),
                ellipsis_mask = mask_attr(attrs, "ellipsis_mask"), new_axis_mask = mask_attr(attrs, "new_axis_mask"),
                shrink_mask = mask_attr(attrs, "shrink_axis_mask");
  auto bit = [](int64_t mask, size_t i) { return ((mask >> i) & 1) != 0; };
  if (std::popcount(static_cast<uint64_t>(ellipsis_mask)) > 1)
    invalid_argument(op, "Multiple ellipses in slice spec not allowed");

  const size_t rank = in.size();
  size_t consumed = 0;  // input dims the items other than `...` and newaxis take
  for (size_t i = 0; i < n; ++i)
    if (!bit(ellipsis_mask, i) && !bit(new_axis_mask, i)) ++consumed;
  if (consumed > rank)
    invalid_argument(op, "Index out of range using input dim " + std::to_string(rank) + "; input has only " +
                             std::to_string(rank) + " dims");

  StridedPlan p;
  size_t d = 0;  // the input dim the next item applies to
  auto take_whole = [&] {
    p.counts.push_back(in[d]);
    p.start.push_back(0);
    p.step.push_back(1);
    p.out_shape.push_back(in[d]);
    ++d;
  };
  for (size_t i = 0; i < n; ++i) {
    if (bit(ellipsis_mask, i)) {
      for (size_t k = rank - consumed; k > 0; --k) take_whole();
      continue;
    }
    if (bit(new_axis_mask, i)) {
      p.out_shape.push_back(1);
      continue;
    }
    const int64_t dim = in[d], s = strides[i];
    if (s == 0) invalid_argument(op, "strides[" + std::to_string(i) + "] must be non-zero");
    if (bit(shrink_mask, i)) {
      int64_t idx = begin[i] < 0 ? begin[i] + dim : begin[i];
      if (idx < 0 || idx >= dim)
        invalid_argument(op, "slice index " + std::to_string(begin[i]) + " of dimension " + std::to_string(d) +
                                 " out of bounds.");
      p.counts.push_back(1);
      p.start.push_back(idx);
      p.step.push_back(1);
      ++d;
      continue;
    }
    // Python slice semantics: negative indices count from the end, then clamp.
    auto norm = [dim](int64_t v) { return v < 0 ? v + dim : v; };
    int64_t b, e, count;
    if (s > 0) {
      b = bit(begin_mask, i) ? 0 : std::clamp(norm(begin[i]), int64_t{0}, dim);
      e = bit(end_mask, i) ? dim : std::clamp(norm(end[i]), int64_t{0}, dim);
      count = e > b ? (e - b + s - 1) / s : 0;
    } else {
      b = bit(begin_mask, i) ? dim - 1 : std::clamp(norm(begin[i]), int64_t{-1}, dim - 1);
      e = bit(end_mask, i) ? -1 : std::clamp(norm(end[i]), int64_t{-1}, dim - 1);
      count = b > e ? (b - e - s - 1) / -s : 0;
    }
    p.counts.push_back(count);
    p.start.push_back(count > 0 ? b : 0);
    p.step.push_back(s);
    p.out_shape.push_back(count);
    ++d;
  }
  while (d < rank) take_whole();
  return p;
}

std::vector<int64_t> strided_slice_indices(const StridedPlan& p, const Shape& in) {
  return strided_indices(p.counts, p.start, p.step, strides_of(in));
}

// The slice of `g` at index i along `axis` with that dim dropped (a Pack gradient).
TensorId unstack_one(GradContext& c, TensorId g, int64_t axis, int64_t i) {
  std::vector<int64_t> begin(static_cast<size_t>(axis), 0), end(static_cast<size_t>(axis), 0);
  begin.push_back(i);
  end.push_back(i + 1);
  const int64_t before = (int64_t{1} << axis) - 1;  // the dims before `axis`: whole
  return c.op("StridedSlice", {g},
              Attrs{{"begin", begin}, {"end", end}, {"strides", std::vector<int64_t>(begin.size(), 1)},
                    {"begin_mask", before}, {"end_mask", before}, {"shrink_axis_mask", int64_t{1} << axis}});
}

}  // namespace

void register_array_ops() {
  add_op("Identity",
         [](const Inputs& in, const Attrs&) {
           expect_arity("Identity", in, 1);
           return one(*in[0]);
         },
         [](GradContext& c) -> Grads { return {c.grad()}; },
         "d identity(x)/dx = g");

  add_op("Reshape",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("Reshape", in, 1);
           return one(with_shape(*in[0], reshape_target(*in[0], a)));
         },
         [](GradContext& c) -> Grads { return {reshape(c, c.grad(), c.shape(c.input(0)))}; },
         "d reshape(x)/dx = g reshaped back to x's shape");

  add_op("Squeeze",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("Squeeze", in, 1);
           const TensorValue& x = *in[0];
           const int64_t rank = x.rank();
           std::vector<bool> drop(x.shape.size(), false);
           const std::vector<int64_t> axes = a.get_ints("axis");
           for (int64_t ax : axes) {
             const int64_t d = normalize_axis(ax, rank, "Squeeze",
                                              "Tried to squeeze dim index " + std::to_string(ax) + " for tensor with " +
                                                  std::to_string(rank) + " dimensions.");
             if (x.shape[static_cast<size_t>(d)] != 1)
               invalid_argument("Squeeze", "Can not squeeze dim[" + std::to_string(d) +
                                               "], expected a dimension of 1, got " +
                                               std::to_string(x.shape[static_cast<size_t>(d)]));
             drop[static_cast<size_t>(d)] = true;
           }
           Shape out;
           for (size_t d = 0; d < x.shape.size(); ++d)
             if (!(axes.empty() ? x.shape[d] == 1 : drop[d])) out.push_back(x.shape[d]);
           return one(with_shape(x, std::move(out)));
         },
         [](GradContext& c) -> Grads { return {reshape(c, c.grad(), c.shape(c.input(0)))}; },
         "d squeeze(x)/dx = g reshaped back to x's shape");

  add_op("ExpandDims",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("ExpandDims", in, 1);
           const TensorValue& x = *in[0];
           const int64_t ax = a.get_int("axis");
           const int64_t d = normalize_axis(ax, x.rank() + 1, "ExpandDims",
                                            "Tried to expand dim index " + std::to_string(ax) + " for tensor with " +
                                                std::to_string(x.rank()) + " dimensions.");
           Shape out = x.shape;
           out.insert(out.begin() + d, 1);
           return one(with_shape(x, std::move(out)));
         },
         [](GradContext& c) -> Grads { return {reshape(c, c.grad(), c.shape(c.input(0)))}; },
         "d expand_dims(x)/dx = g reshaped back to x's shape");

  add_op("Transpose",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("Transpose", in, 1);
           return one(transpose(*in[0], transpose_perm(*in[0], a)));
         },
         [](GradContext& c) -> Grads {
           const std::vector<int64_t> perm = transpose_perm(c.value(c.input(0)), c.attrs());
           std::vector<int64_t> inverse(perm.size());
           for (size_t i = 0; i < perm.size(); ++i) inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
           return {c.op("Transpose", {c.grad()}, Attrs{{"perm", inverse}})};
         },
         "d transpose(x, perm)/dx = transpose(g, inverse perm)");

  add_op("ConcatV2",
         [](const Inputs& in, const Attrs& a) {
           expect_min_arity("ConcatV2", in, 1);
           expect_same_dtype("ConcatV2", in);
           const Shape& s0 = in[0]->shape;
           const int64_t rank = static_cast<int64_t>(s0.size());
           if (rank == 0) invalid_argument("ConcatV2", "Can't concatenate scalars (use tf.stack instead)");
           const int64_t ax = a.get_int("axis");
           const int64_t axis = normalize_axis(ax, rank, "ConcatV2",
                                               "ConcatOp : Expected concatenating dimensions in the range [" +
                                                   std::to_string(-rank) + ", " + std::to_string(rank) + "), but got " +
                                                   std::to_string(ax));
           Shape out = s0;
           for (size_t i = 1; i < in.size(); ++i) {
             const Shape& s = in[i]->shape;
             if (s.size() != s0.size())
               invalid_argument("ConcatV2", "ConcatOp : Ranks of all input tensors should match: shape[0] = " +
                                                shape_list_str(s0) + " vs. shape[" + std::to_string(i) +
                                                "] = " + shape_list_str(s));
             for (int64_t d = 0; d < rank; ++d)
               if (d != axis && s[static_cast<size_t>(d)] != s0[static_cast<size_t>(d)])
                 invalid_argument("ConcatV2", "ConcatOp : Dimension " + std::to_string(d) +
                                                  " in both shapes must be equal: shape[0] = " + shape_list_str(s0) +
                                                  " vs. shape[" + std::to_string(i) + "] = " + shape_list_str(s));
             out[static_cast<size_t>(axis)] += s[static_cast<size_t>(axis)];
           }
           return one(concat_blocks(in, product(s0, 0, static_cast<size_t>(axis)), std::move(out)));
         },
         [](GradContext& c) -> Grads {
           // Each input gets its own window of g along the axis.
           const size_t n = c.op().inputs.size();
           const Shape& s0 = c.shape(c.input(0));
           const int64_t rank = static_cast<int64_t>(s0.size());
           const int64_t ax = c.attrs().get_int("axis");
           const size_t axis = static_cast<size_t>(ax < 0 ? ax + rank : ax);
           Grads grads;
           int64_t offset = 0;
           for (size_t i = 0; i < n; ++i) {
             const Shape size = c.shape(c.input(i));
             std::vector<int64_t> begin(s0.size(), 0);
             begin[axis] = offset;
             offset += size[axis];
             grads.push_back(n == 1 ? c.grad() : if_needed(c, i, [&] {
               return c.op("Slice", {c.grad()}, Attrs{{"begin", begin}, {"size", size}});
             }));
           }
           return grads;
         },
         "d concat(x1..xn)/dxi = the slice of g where xi was placed");

  add_op("Pack",
         [](const Inputs& in, const Attrs& a) {
           expect_min_arity("Pack", in, 1);
           expect_same_dtype("Pack", in);
           const Shape& s0 = in[0]->shape;
           for (size_t i = 1; i < in.size(); ++i)
             if (in[i]->shape != s0)
               invalid_argument("Pack", "Shapes of all inputs must match: values[0].shape = " + shape_list_str(s0) +
                                            " != values[" + std::to_string(i) +
                                            "].shape = " + shape_list_str(in[i]->shape));
           const int64_t rank = static_cast<int64_t>(s0.size()) + 1;
           const int64_t ax = a.get_int("axis");
           const int64_t axis = normalize_axis(ax, rank, "Pack",
                                               "axis = " + std::to_string(ax) + " not in [" + std::to_string(-rank) +
                                                   ", " + std::to_string(rank) + ")");
           Shape out = s0;
           out.insert(out.begin() + axis, static_cast<int64_t>(in.size()));
           return one(concat_blocks(in, product(s0, 0, static_cast<size_t>(axis)), std::move(out)));
         },
         [](GradContext& c) -> Grads {
           const size_t n = c.op().inputs.size();
           const int64_t rank = static_cast<int64_t>(c.shape(c.input(0)).size()) + 1;
           const int64_t ax = c.attrs().get_int("axis");
           const int64_t axis = ax < 0 ? ax + rank : ax;
           Grads grads;
           for (size_t i = 0; i < n; ++i)
             grads.push_back(if_needed(c, i, [&] { return unstack_one(c, c.grad(), axis, static_cast<int64_t>(i)); }));
           return grads;
         },
         "d stack(x1..xn)/dxi = g[..., i, ...] along the stacking axis");

  add_op("Unpack",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("Unpack", in, 1);
           const TensorValue& x = *in[0];
           const int64_t rank = x.rank();
           const int64_t ax = a.get_int("axis");
           const int64_t axis = normalize_axis(ax, rank, "Unpack",
                                               "axis = " + std::to_string(ax) + " not in [" + std::to_string(-rank) +
                                                   ", " + std::to_string(rank) + ")");
           const int64_t num = x.shape[static_cast<size_t>(axis)];
           if (a.has("num") && a.get_int("num") != num)
             invalid_argument("Unpack", "Input shape axis " + std::to_string(axis) + " must equal " +
                                            std::to_string(a.get_int("num")) + ", got shape " +
                                            shape_list_str(x.shape));
           Shape piece = x.shape;
           piece.erase(piece.begin() + axis);
           const int64_t outer = product(x.shape, 0, static_cast<size_t>(axis));
           const int64_t inner = product(x.shape, static_cast<size_t>(axis) + 1, x.shape.size());
           Outputs outs;
           for (int64_t i = 0; i < num; ++i) {
             std::vector<int64_t> idx;
             idx.reserve(static_cast<size_t>(outer * inner));
             for (int64_t o = 0; o < outer; ++o)
               for (int64_t k = 0; k < inner; ++k) idx.push_back((o * num + i) * inner + k);
             outs.push_back(gather(x, piece, idx));
           }
           return outs;
         },
         [](GradContext& c) -> Grads {
           std::vector<TensorId> gs;
           for (size_t i = 0; i < c.op().outputs.size(); ++i) gs.push_back(c.grad(i));
           if (gs.empty()) return {c.op("ZerosLike", {c.input(0)})};
           return {c.op("Pack", gs, Attrs{{"axis", c.attrs().get_int("axis")}})};
         },
         "d unstack(x)/dx = stack of the outputs' gradients");

  add_op("BroadcastTo",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("BroadcastTo", in, 1);
           const TensorValue& x = *in[0];
           const Shape shape = a.get_ints("shape");
           check_output_shape("BroadcastTo", shape);
           if (x.shape == shape) return one(x);
           if (x.shape.size() > shape.size())
             invalid_argument("BroadcastTo", "Rank of input (" + std::to_string(x.rank()) +
                                                 ") must be no greater than rank of output shape (" +
                                                 std::to_string(shape.size()) + ").");
           if (broadcast_for("BroadcastTo", x.shape, shape) != shape)
             invalid_argument("BroadcastTo", "Unable to broadcast tensor of shape " + shape_list_str(x.shape) +
                                                 " to tensor of shape " + shape_list_str(shape));
           const Access acc = access_for(x.shape, shape);
           std::vector<int64_t> idx(static_cast<size_t>(num_elements(shape)));
           for (size_t k = 0; k < idx.size(); ++k) idx[k] = acc(static_cast<int64_t>(k));
           return one(gather(x, shape, idx));
         },
         [](GradContext& c) -> Grads { return {unbroadcast(c, c.grad(), c.input(0))}; },
         "d broadcast_to(x)/dx = g summed over the broadcast dims");

  add_op("Tile",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("Tile", in, 1);
           const TensorValue& x = *in[0];
           const std::vector<int64_t> m = a.get_ints("multiples");
           if (m.size() != x.shape.size())
             invalid_argument("Tile", "Expected multiples argument to be a vector of length " +
                                          std::to_string(x.shape.size()) + " but got length " +
                                          std::to_string(m.size()));
           // View the output as [m0, d0, m1, d1, ...]: the index into x ignores the m's.
           Shape view, out;
           std::vector<int64_t> steps;
           const auto st = strides_of(x.shape);
           for (size_t d = 0; d < m.size(); ++d) {
             if (m[d] < 0)
               invalid_argument("Tile",
                                "Expected multiples[" + std::to_string(d) + "] >= 0, but got " + std::to_string(m[d]));
             view.insert(view.end(), {m[d], x.shape[d]});
             steps.insert(steps.end(), {0, 1});
             out.push_back(saturating_mul(m[d], x.shape[d]));
           }
           check_output_shape("Tile", out);
           std::vector<int64_t> view_strides;
           for (size_t d = 0; d < m.size(); ++d) view_strides.insert(view_strides.end(), {0, st[d]});
           const std::vector<int64_t> zeros(view.size(), 0);
           return one(gather(x, out, strided_indices(view, zeros, steps, view_strides)));
         },
         [](GradContext& c) -> Grads {
           // TF: reshape g to [m0, d0, m1, d1, ...] and sum over the m axes.
           const Shape& xs = c.shape(c.input(0));
           const std::vector<int64_t> m = c.attrs().get_ints("multiples");
           Shape view;
           std::vector<int64_t> axes;
           for (size_t d = 0; d < m.size(); ++d) {
             view.insert(view.end(), {m[d], xs[d]});
             axes.push_back(static_cast<int64_t>(2 * d));
           }
           if (m.empty()) return {c.grad()};
           const TensorId s = c.op("Sum", {reshape(c, c.grad(), view)}, Attrs{{"axis", axes}, {"keepdims", false}});
           return {reshape(c, s, xs)};
         },
         "d tile(x)/dx = g summed over the tiled copies");

  // Fill's dims, when they come from a tensor (tf.fill(tf.shape(x), v), tf.ones_like),
  // are a second input: not used by the kernel (the attr has them) nor differentiable,
  // but an edge of the trace graph, so a path through a shape is seen breaking there.
  add_op("Fill",
         [](const Inputs& in, const Attrs& a) {
           if (in.size() != 2) expect_arity("Fill", in, 1);
           const TensorValue& v = *in[0];
           if (v.rank() != 0) invalid_argument("Fill", "value must be a scalar, got shape " + shape_list_str(v.shape));
           const Shape shape = a.get_ints("shape");
           check_output_shape("Fill", shape);
           if (v.dtype == DType::String)
             return one(make_string_tensor(
                 shape, std::vector<std::string>(static_cast<size_t>(num_elements(shape)), v.strings[0])));
           return one(make_filled(v.dtype, shape, v.scalar()));
         },
         [](GradContext& c) -> Grads {
           Grads g{c.op("Sum", {c.grad()})};
           if (c.op().inputs.size() == 2) g.push_back(kNoId);
           return g;
         },
         "d fill(shape, v)/dv = sum of g (the dims get None)",
         [](const OpInfo&, size_t input) { return input == 1; });

  add_op("Slice",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("Slice", in, 1);
           const TensorValue& x = *in[0];
           const Window w = slice_window(x, a);
           const std::vector<int64_t> ones(w.size.size(), 1);
           return one(gather(x, w.size, strided_indices(w.size, w.begin, ones, strides_of(x.shape))));
         },
         [](GradContext& c) -> Grads {
           const TensorValue& x = c.value(c.input(0));
           const Window w = slice_window(x, c.attrs());
           std::vector<int64_t> pad;
           for (size_t d = 0; d < w.begin.size(); ++d)
             pad.insert(pad.end(), {w.begin[d], x.shape[d] - w.begin[d] - w.size[d]});
           return {c.op("Pad", {c.grad()}, Attrs{{"paddings", pad}})};
         },
         "d slice(x)/dx = g padded with zeros to x's shape");

  add_op("Pad",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("Pad", in, 1);
           const TensorValue& x = *in[0];
           expect_type("Pad", x.dtype, TypeSet::Number, "input:T, paddings:Tpaddings -> output:T");
           const std::vector<int64_t> p = paddings_of(x, a);
           Shape out;
           std::vector<int64_t> begin;
           for (size_t d = 0; d < x.shape.size(); ++d) {
             out.push_back(saturating_add(saturating_add(p[2 * d], x.shape[d]), p[2 * d + 1]));
             begin.push_back(p[2 * d]);
           }
           check_output_shape("Pad", out);
           TensorValue t = make_filled(x.dtype, out, 0.0);
           const std::vector<int64_t> ones(begin.size(), 1);
           const auto idx = strided_indices(x.shape, begin, ones, strides_of(out));
           for (size_t k = 0; k < idx.size(); ++k) t.data[idx[k]] = x.data[static_cast<Eigen::Index>(k)];
           return one(std::move(t));
         },
         [](GradContext& c) -> Grads {
           const Shape& xs = c.shape(c.input(0));
           const std::vector<int64_t> p = c.attrs().get_ints("paddings");
           std::vector<int64_t> begin;
           for (size_t d = 0; d < xs.size(); ++d) begin.push_back(p[2 * d]);
           return {c.op("Slice", {c.grad()}, Attrs{{"begin", begin}, {"size", xs}})};
         },
         "d pad(x)/dx = the slice of g where x was placed");

  add_op("StridedSlice",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("StridedSlice", in, 1);
           const TensorValue& x = *in[0];
           const StridedPlan p = plan_strided_slice("StridedSlice", x.shape, a);
           return one(gather(x, p.out_shape, strided_slice_indices(p, x.shape)));
         },
         [](GradContext& c) -> Grads {
           Attrs a = c.attrs();
           a.set("shape", c.shape(c.input(0)));
           return {c.op("StridedSliceGrad", {c.grad()}, a)};
         },
         "d x[slice]/dx = g scattered into zeros of x's shape at the slice");

  add_op("StridedSliceGrad",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("StridedSliceGrad", in, 1);
           const TensorValue& dy = *in[0];
           expect_type("StridedSliceGrad", dy.dtype, TypeSet::Number,
                       "shape:Index, begin:Index, end:Index, strides:Index, dy:T -> output:T");
           const Shape shape = a.get_ints("shape");
           check_output_shape("StridedSliceGrad", shape);
           const StridedPlan p = plan_strided_slice("StridedSliceGrad", shape, a);
           if (p.out_shape != dy.shape)
             invalid_argument("StridedSliceGrad", "shape of dy was " + shape_list_str(dy.shape) + " instead of " +
                                                      shape_list_str(p.out_shape));
           TensorValue t = make_filled(dy.dtype, shape, 0.0);
           const auto idx = strided_slice_indices(p, shape);
           for (size_t k = 0; k < idx.size(); ++k) t.data[idx[k]] += dy.data[static_cast<Eigen::Index>(k)];
           return one(std::move(t));
         },
         [](GradContext& c) -> Grads { return {c.op("StridedSlice", {c.grad()}, c.attrs())}; },
         "d scatter(dy)/d dy = g read back at the slice");

  add_op("ReverseV2",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("ReverseV2", in, 1);
           const TensorValue& x = *in[0];
           if (x.rank() == 0) return one(x);  // TF's kernel passes a scalar through unchecked
           const int64_t rank = x.rank();
           const std::vector<int64_t> axes = a.get_ints("axis");
           std::vector<bool> flip(static_cast<size_t>(rank), false);
           for (size_t i = 0; i < axes.size(); ++i) {
             const int64_t ax = axes[i] < 0 ? axes[i] + rank : axes[i];
             // (TF's message has no closing bracket)
             if (ax < 0 || ax >= rank)
               invalid_argument("ReverseV2", "'axis'[" + std::to_string(i) + "] = " + std::to_string(axes[i]) +
                                                 " is out of valid range [0, " + std::to_string(rank - 1));
             if (flip[static_cast<size_t>(ax)])
               invalid_argument("ReverseV2", "axis " + std::to_string(ax) + " specified more than once.");
             flip[static_cast<size_t>(ax)] = true;
           }
           std::vector<int64_t> start(static_cast<size_t>(rank)), step(static_cast<size_t>(rank));
           for (size_t d = 0; d < flip.size(); ++d) {
             start[d] = flip[d] ? std::max<int64_t>(x.shape[d] - 1, 0) : 0;
             step[d] = flip[d] ? -1 : 1;
           }
           return one(gather(x, x.shape, strided_indices(x.shape, start, step, strides_of(x.shape))));
         },
         [](GradContext& c) -> Grads { return {c.op("ReverseV2", {c.grad()}, c.attrs())}; },
         "d reverse(x)/dx = g reversed along the same axes");

  add_op("Shape",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("Shape", in, 1);
           const Shape& s = in[0]->shape;
           Eigen::ArrayXd d(static_cast<Eigen::Index>(s.size()));
           for (size_t i = 0; i < s.size(); ++i) d[static_cast<Eigen::Index>(i)] = static_cast<double>(s[i]);
           const DType t = a.get_dtype("out_type", DType::Int32);
           return one(make_tensor(t == DType::Int64 ? DType::Int64 : DType::Int32, {static_cast<int64_t>(s.size())},
                                  std::move(d)));
         },
         GradKind::NotDifferentiable,
         "a tensor's shape does not depend on its values: not differentiable");
}

}  // namespace ts

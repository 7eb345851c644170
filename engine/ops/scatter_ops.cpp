// Index-driven gathers and scatters: GatherNd, ScatterNd, TensorScatterUpdate/Add and
// the segment reductions (Segment{Sum,Mean,Max,Min,Prod}, UnsortedSegment{Sum,Max,Min,Prod}), each forward kernel with its gradient (TF's array_grad.py and
// math_grad.py) beside it.
//
// Index tensors are op inputs (int32/int64) as in TF, and get None as gradient.
// Attrs: ScatterNd "shape" (int list); UnsortedSegment* "num_segments" (int).
// Messages follow TF's CPU kernels (gather_nd_op.cc, scatter_nd_op.cc,
// segment_reduction_ops_impl.h); shapes print as TensorShape::DebugString ("[2,3]").
#include <cmath>
#include <limits>
#include <string>

#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {

// TF's SliceDebugString: the position of flat index `flat` in `shape`, "" for a scalar.
std::string slice_debug(const Shape& shape, int64_t flat) {
  if (shape.empty()) return "";
  std::string r = "[";
  const auto st = strides_of(shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    r += (d ? "," : "") + std::to_string(st[d] ? flat / st[d] : 0);
    if (st[d]) flat %= st[d];
  }
  return r + "]";
}

// Elements of one slice s[from:] (what an index tuple of depth `from` picks).
int64_t slice_size(const Shape& s, size_t from) {
  int64_t p = 1;
  for (size_t d = from; d < s.size(); ++d) p *= s[d];
  return p;
}

void expect_index_dtype(std::string_view op, const TensorValue& t, const char* attr, const char* allowed) {
  if (is_integer(t.dtype)) return;
  invalid_argument(op, "Value for attr '" + std::string(attr) + "' of " + dtype_kernel_name(t.dtype) +
                           " is not in the list of allowed values: " + allowed);
}

// Index tuples of depth `depth` read from `indices` ([n, depth] row-major) turned into
// element offsets of the slices they pick in `target` (slice = target.shape[depth:]).
// Returns -1 at the first tuple out of bounds, with `bad` set to its position.
std::vector<int64_t> slice_offsets(const TensorValue& indices, int64_t n, int64_t depth, const Shape& target,
                                   int64_t* bad) {
  const int64_t slice = slice_size(target, static_cast<size_t>(depth));
  std::vector<int64_t> out(static_cast<size_t>(n));
  *bad = -1;
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (int64_t k = 0; k < depth; ++k) {
      const int64_t v = to_i64(indices.data[i * depth + k]);
      const int64_t dim = target[static_cast<size_t>(k)];
      if (v < 0 || v >= dim) {
        *bad = i;
        return out;
      }
      off = off * dim + v;
    }
    out[static_cast<size_t>(i)] = off * slice;
  }
  return out;
}

std::string tuple_str(const TensorValue& indices, int64_t i, int64_t depth) {
  std::string r;
  for (int64_t k = 0; k < depth; ++k) r += (k ? ", " : "") + std::to_string(to_i64(indices.data[i * depth + k]));
  return r;
}

TensorValue gather_nd(const TensorValue& params, const TensorValue& indices) {
  const char* op = "GatherNd";
  expect_index_dtype(op, indices, "Tindices", "int16, int32, int64");
  if (params.rank() < 1) invalid_argument(op, "params must be at least a vector");
  if (indices.rank() < 1) invalid_argument(op, "indices must be at least a vector");
  const int64_t depth = indices.shape.back();
  if (depth > params.rank())
    invalid_argument(op, "index innermost dimension length must be <= params rank; saw: " + std::to_string(depth) +
                             " vs. " + std::to_string(params.rank()));
  const Shape lead(indices.shape.begin(), indices.shape.end() - 1);
  const int64_t n = num_elements(lead);
  Shape out = lead;
  out.insert(out.end(), params.shape.begin() + depth, params.shape.end());
  check_output_shape(op, out);
  int64_t bad;
  const std::vector<int64_t> offs = slice_offsets(indices, n, depth, params.shape, &bad);
  if (bad >= 0)
    invalid_argument(op, "indices" + slice_debug(lead, bad) + " = [" + tuple_str(indices, bad, depth) +
                             "] does not index into param shape " + shape_list_str(params.shape) +
                             ", node name: GatherNd");
  const int64_t slice = slice_size(params.shape, static_cast<size_t>(depth));
  TensorValue t;
  t.dtype = params.dtype;
  t.shape = std::move(out);
  if (params.dtype == DType::String) {
    for (int64_t o : offs)
      for (int64_t k = 0; k < slice; ++k) t.strings.push_back(params.strings[static_cast<size_t>(o + k)]);
    return t;
  }
  t.data.resize(n * slice);
  for (int64_t i = 0; i < n; ++i) t.data.segment(i * slice, slice) = params.data.segment(offs[static_cast<size_t>(i)], slice);
  return t;
}

// Writes (add: sums, else: assigns in order) `updates` into `base` at `indices`, after
// TF's checks (scatter_nd_op.cc: PrepareAndValidateInputs, ValidateUpdateShape).
TensorValue scatter_into(std::string_view op, TensorValue base, const TensorValue& indices,
                         const TensorValue& updates, bool add) {
  const Shape& shape = base.shape;
  const Shape& ish = indices.shape;
  const Shape& ush = updates.shape;
  if (shape.empty()) invalid_argument(op, "Output must be at least 1-D, got shape: " + shape_list_str(shape));
  if (num_elements(shape) == 0 && (indices.size() > 0 || updates.size() > 0))
    invalid_argument(op, "Indices and updates specified for empty output.  indices shape: " + shape_list_str(ish));
  if (!ush.empty() && !ish.empty() && ush[0] != ish[0])
    invalid_argument(op, "Dimensions [0,1) of indices[shape=" + shape_list_str(ish) + "] = " + std::to_string(ish[0]) +
                             " must match dimensions [0,1) of updates[shape=" + shape_list_str(ush) +
                             "] = " + std::to_string(ush[0]));
  const int64_t depth = ish.size() > 1 ? ish.back() : 1;
  const int64_t batch = ish.size() > 1 ? static_cast<int64_t>(ish.size()) - 1 : 1;
  const int64_t urank = static_cast<int64_t>(ush.size()), prank = static_cast<int64_t>(shape.size());
  auto prefix_err = [&] {
    invalid_argument(op, "Dimensions [0," + std::to_string(batch) + ") of indices[shape=" + shape_list_str(ish) +
                             "] must match dimensions [0," + std::to_string(batch) + ") of updates[shape=" +
                             shape_list_str(ush) + "]");
  };
  auto suffix_err = [&] {
    invalid_argument(op, "Dimensions [" + std::to_string(depth) + "," + std::to_string(prank) + ") of input[shape=" +
                             shape_list_str(shape) + "] must match dimensions [" + std::to_string(depth) + "," +
                             std::to_string(urank) + ") of updates[shape=" + shape_list_str(ush) + "]");
  };
  if (urank < batch) prefix_err();
  if (prank < depth + (urank - batch) || urank != batch + prank - depth) suffix_err();
  for (int64_t d = 0; d < batch; ++d)
    if (d < static_cast<int64_t>(ish.size()) && ush[static_cast<size_t>(d)] != ish[static_cast<size_t>(d)]) prefix_err();
  for (int64_t d = 0; d < urank - batch; ++d)
    if (ush[static_cast<size_t>(d + batch)] != shape[static_cast<size_t>(d + depth)]) suffix_err();
  const int64_t n = depth ? indices.size() / depth : 0;
  int64_t bad;
  const std::vector<int64_t> offs = slice_offsets(indices, n, depth, shape, &bad);
  if (bad >= 0) {
    const Shape lead = ish.size() > 1 ? Shape(ish.begin(), ish.end() - 1) : Shape{};
    invalid_argument(op, "indices" + slice_debug(lead, bad) + " = [" + tuple_str(indices, bad, depth) +
                             "] does not index into shape " + shape_list_str(shape));
  }
  const int64_t slice = slice_size(shape, static_cast<size_t>(depth));
  Eigen::ArrayXd data = base.data;
  for (int64_t i = 0; i < n; ++i) {
    auto dst = data.segment(offs[static_cast<size_t>(i)], slice);
    if (add) dst += updates.data.segment(i * slice, slice);
    else dst = updates.data.segment(i * slice, slice);
  }
  return make_tensor(base.dtype, shape, std::move(data));
}

// segment_ids [d0..dk) as int64s.
std::vector<int64_t> ids_of(const TensorValue& t) {
  std::vector<int64_t> v(static_cast<size_t>(t.size()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = to_i64(t.data[static_cast<Eigen::Index>(i)]);
  return v;
}

enum class Segment { Sum, Mean, Max, Min, Prod };

// Reduces the rows of `data` (seen as [ids.size(), inner]) into `rows` output rows; a
// negative id drops its row. An empty segment is 0 (Sum, Mean; Max and Min when
// `sorted`), the dtype's lowest/largest finite value (unsorted Max/Min) or 1 (Prod).
TensorValue segment_reduce(const TensorValue& data, const std::vector<int64_t>& ids, int64_t rows, Shape out,
                           Segment kind, bool sorted) {
  const int64_t inner = ids.empty() ? slice_size(out, 1) : data.size() / static_cast<int64_t>(ids.size());
  const bool integer = is_integer(data.dtype);
  // numeric_limits<T>::lowest() / max() of the dtype (not ±inf), as TF's kernels.
  double highest = std::numeric_limits<double>::max();
  if (data.dtype == DType::Float32) highest = static_cast<double>(std::numeric_limits<float>::max());
  if (data.dtype == DType::Float16) highest = 65504.0;
  if (data.dtype == DType::Int32) highest = INT32_MAX;
  if (data.dtype == DType::Int64) highest = 9223372036854775807.0;
  const double lowest = data.dtype == DType::Int32 ? INT32_MIN : data.dtype == DType::Int64 ? -9223372036854775808.0 : -highest;
  const double init = kind == Segment::Prod ? 1.0 : kind == Segment::Max ? lowest : kind == Segment::Min ? highest : 0.0;
  Eigen::ArrayXd r = Eigen::ArrayXd::Constant(rows * inner, init);
  std::vector<int64_t> count(static_cast<size_t>(rows), 0);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0) continue;
    ++count[static_cast<size_t>(ids[i])];
    for (int64_t k = 0; k < inner; ++k) {
      double& a = r[ids[i] * inner + k];
      const double v = data.data[static_cast<Eigen::Index>(i) * inner + k];
      switch (kind) {
        case Segment::Sum:
        case Segment::Mean: a = integer ? int_result(wrap_add(to_i64(a), to_i64(v)), data.dtype) : a + v; break;
        case Segment::Prod: a = integer ? int_result(wrap_mul(to_i64(a), to_i64(v)), data.dtype) : a * v; break;
        case Segment::Max: a = std::isnan(a) || std::isnan(v) ? std::numeric_limits<double>::quiet_NaN() : std::max(a, v); break;
        case Segment::Min: a = std::isnan(a) || std::isnan(v) ? std::numeric_limits<double>::quiet_NaN() : std::min(a, v); break;
      }
    }
  }
  for (int64_t row = 0; row < rows; ++row) {
    const int64_t n = count[static_cast<size_t>(row)];
    for (int64_t k = 0; k < inner; ++k) {
      double& a = r[row * inner + k];
      if (kind == Segment::Mean && n > 0) a = integer ? static_cast<double>(to_i64(a) / n) : a / static_cast<double>(n);
      if (n == 0 && sorted && (kind == Segment::Max || kind == Segment::Min)) a = 0;
    }
  }
  return make_tensor(data.dtype, std::move(out), std::move(r));
}

TensorValue segment_sum(const TensorValue& data, const std::vector<int64_t>& ids, int64_t rows, Shape out) {
  return segment_reduce(data, ids, rows, std::move(out), Segment::Sum, true);
}

// SegmentSum's checks (segment_reduction_ops_impl.h): the output rows (and `ids`), or a TF error.
int64_t sorted_segment_rows(std::string_view op, const TensorValue& data, const TensorValue& seg,
                            std::vector<int64_t>& ids) {
  expect_type(op, data.dtype, TypeSet::Number, "data:T, segment_ids:Tindices -> output:T");
  expect_index_dtype(op, seg, "Tindices", "int32, int64");
  ids = ids_of(seg);
  if (data.rank() < 1) invalid_argument(op, "input must be at least rank 1");
  if (seg.rank() != 1) invalid_argument(op, "segment_ids should be a vector.");
  if (seg.size() != data.shape[0]) invalid_argument(op, "segment_ids should be the same size as dimension 0 of input.");
  const int64_t rows = ids.empty() ? 0 : ids.back() + 1;
  if (rows < 0) invalid_argument(op, "segment ids must be >= 0");
  // TF's order of checks: each run's successor must be larger, then the run in range.
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i + 1 < ids.size() && ids[i] == ids[i + 1]) continue;
    if (i + 1 < ids.size() && ids[i] > ids[i + 1]) invalid_argument(op, "segment ids are not increasing");
    if (ids[i] < 0 || ids[i] >= rows)
      invalid_argument(op, "Segment id " + std::to_string(ids[i]) + " out of range [0, " + std::to_string(rows) +
                               "), possibly because 'segment_ids' input is not sorted.");
  }
  return rows;
}

// UnsortedSegmentSum's checks: the output shape (and `ids`), or a TF error.
Shape unsorted_segment_shape(std::string_view op, const TensorValue& data, const TensorValue& seg, int64_t rows,
                             std::vector<int64_t>& ids) {
  expect_type(op, data.dtype, TypeSet::Number, "data:T, segment_ids:Tindices, num_segments:Tnumsegments -> output:T");
  expect_index_dtype(op, seg, "Tindices", "int16, int32, int64");
  ids = ids_of(seg);
  if (rows < 0) invalid_argument(op, "Input num_segments == " + std::to_string(rows) + " must not be negative.");
  const bool starts = seg.shape.size() <= data.shape.size() && std::equal(seg.shape.begin(), seg.shape.end(), data.shape.begin());
  if (!starts)
    invalid_argument(op, "data.shape = " + shape_list_str(data.shape) + " does not start with segment_ids.shape = " +
                             shape_list_str(seg.shape));
  Shape out{rows};
  out.insert(out.end(), data.shape.begin() + static_cast<int64_t>(seg.shape.size()), data.shape.end());
  check_output_shape(op, out);
  for (size_t i = 0; i < ids.size(); ++i)
    if (ids[i] >= rows)  // negative ids are dropped
      invalid_argument(op, "segment_ids" + slice_debug(seg.shape, static_cast<int64_t>(i)) + " = " + std::to_string(ids[i]) +
                               " is out of range [0, " + std::to_string(rows) + ")");
  return out;
}

// TF's gather(params, ids) along axis 0, as GatherNd with ids[..., None].
TensorId gather_rows(GradContext& c, TensorId params, TensorId ids) {
  return c.op("GatherNd", {params, c.op("ExpandDims", {ids}, Attrs{{"axis", int64_t{-1}}})});
}

// TF's _GatherDropNegatives: params gathered at max(ids, 0), zeros where ids < 0; also
// the mask of ids >= 0, shaped to broadcast against the result.
struct Dropped {
  TensorId gathered, positive;
};
Dropped gather_drop_negatives(GradContext& c, TensorId params, TensorId ids) {
  const TensorId clipped = c.op("Maximum", {ids, c.op("ZerosLike", {ids})});
  const TensorId gathered = gather_rows(c, params, clipped);
  Shape mask_shape = c.shape(ids);
  mask_shape.resize(c.shape(gathered).size(), 1);
  const TensorId positive = reshape(c, c.op("GreaterEqual", {ids, zero_like_scalar(c, ids)}), mask_shape);
  return {c.op("SelectV2", {positive, gathered, c.op("ZerosLike", {gathered})}), positive};
}

// The segment sum of `values` as the op being differentiated groups its data.
TensorId regroup(GradContext& c, TensorId values, bool sorted) {
  return sorted ? c.op("SegmentSum", {values, c.input(1)})
                : c.op("UnsortedSegmentSum", {values, c.input(1)}, Attrs{{"num_segments", c.attrs().get_int("num_segments")}});
}
TensorId spread(GradContext& c, TensorId per_segment, bool sorted) {
  return sorted ? gather_rows(c, per_segment, c.input(1)) : gather_drop_negatives(c, per_segment, c.input(1)).gathered;
}

// TF's _SegmentMinOrMaxGrad / _UnsortedSegmentMinOrMaxGrad: g split equally among the
// elements equal to their segment's result.
Grads segment_min_max_grad(GradContext& c, bool sorted) {
  const TensorId data = c.input(0);
  TensorId is_selected = c.op("Equal", {data, spread(c, c.output(0), sorted)});
  if (!sorted) is_selected = c.op("LogicalAnd", {is_selected, gather_drop_negatives(c, c.output(0), c.input(1)).positive});
  const TensorId num_selected = regroup(c, c.op("Cast", {is_selected}, Attrs{{"DstT", c.dtype(c.grad())}}), sorted);
  const TensorId weighted = c.op("RealDiv", {c.grad(), num_selected});
  const TensorId gathered = spread(c, weighted, sorted);
  return {c.op("SelectV2", {is_selected, gathered, c.op("ZerosLike", {gathered})}), kNoId};
}

// TF's _SegmentProdGrad / _UnsortedSegmentProdGrad: the product of the others, with the
// zeros of a segment handled (two or more zeros: 0; one: the product of the rest there).
Grads segment_prod_grad(GradContext& c, bool sorted) {
  const TensorId data = c.input(0);
  const TensorId is_zero = c.op("Equal", {data, zero_like_scalar(c, data)});
  const TensorId num_zeros = regroup(c, c.op("Cast", {is_zero}, Attrs{{"DstT", DType::Int32}}), sorted);
  const TensorId g = c.op("SelectV2", {c.op("Greater", {num_zeros, c.scalar_like(num_zeros, 1)}),
                                       c.op("ZerosLike", {c.grad()}), c.grad()});
  const TensorId non_zero_data = c.op("SelectV2", {is_zero, c.op("OnesLike", {data}), data});
  const TensorId non_zero_prod =
      sorted ? c.op("SegmentProd", {non_zero_data, c.input(1)})
             : c.op("UnsortedSegmentProd", {non_zero_data, c.input(1)}, Attrs{{"num_segments", c.attrs().get_int("num_segments")}});
  const TensorId prod_divided_by_el = c.op("RealDiv", {spread(c, c.output(0), sorted), non_zero_data});
  const TensorId partial = c.op("SelectV2", {is_zero, spread(c, non_zero_prod, sorted), prod_divided_by_el});
  return {c.op("Mul", {spread(c, g, sorted), partial}), kNoId};
}

// GatherV2 (tf.gather): slices of params along `axis` picked by indices, batch_dims
// leading dims shared by params and indices. Errors as gather_op.cc's.
TensorValue gather_v2(const TensorValue& params, const TensorValue& indices, const Attrs& attrs) {
  constexpr std::string_view op = "GatherV2";
  expect_index_dtype(op, indices, "Tindices", "int16, int32, int64");
  const int64_t rank = params.rank();
  const int64_t given_axis = attrs.get_int("axis"), given_batch = attrs.get_int("batch_dims");
  // gather_op.cc: params must have the rank the axis implies (checked before anything else).
  const int64_t min_rank = given_axis < 0 ? -given_axis : given_axis + 1;
  if (rank < min_rank)
    invalid_argument(op, "Shape must be at least rank " + std::to_string(min_rank) + " but is rank " + std::to_string(rank));
  const int64_t axis = given_axis < 0 ? given_axis + rank : given_axis;
  const int64_t batch = given_batch < 0 ? given_batch + indices.rank() : given_batch;
  if (batch < 0 || batch > indices.rank())
    invalid_argument(op, "Expected batch_dims in the range [" + std::to_string(-indices.rank()) + ", " +
                             std::to_string(indices.rank()) + "], but got " + std::to_string(given_batch));
  if (batch > axis)
    invalid_argument(op, "batch_dims (" + std::to_string(batch) + ") must be less than or equal to axis (" +
                             std::to_string(axis) + ").");
  for (int64_t d = 0; d < batch; ++d)
    if (params.shape[static_cast<size_t>(d)] != indices.shape[static_cast<size_t>(d)])
      invalid_argument(op, "params.shape[" + std::to_string(d) + "]: " + std::to_string(params.shape[static_cast<size_t>(d)]) +
                               " should be equal to indices.shape[" + std::to_string(d) +
                               "]: " + std::to_string(indices.shape[static_cast<size_t>(d)]));
  // Seen as params [B, O, P, I] and indices [B, N]: B batch, O outer, P the axis, I inner.
  int64_t b = 1, o = 1, inner = 1, n = 1;
  for (int64_t d = 0; d < batch; ++d) b *= params.shape[static_cast<size_t>(d)];
  for (int64_t d = batch; d < axis; ++d) o *= params.shape[static_cast<size_t>(d)];
  for (int64_t d = axis + 1; d < rank; ++d) inner *= params.shape[static_cast<size_t>(d)];
  for (int64_t d = batch; d < indices.rank(); ++d) n *= indices.shape[static_cast<size_t>(d)];
  const int64_t p = params.shape[static_cast<size_t>(axis)];
  Shape out(params.shape.begin(), params.shape.begin() + axis);
  out.insert(out.end(), indices.shape.begin() + batch, indices.shape.end());
  out.insert(out.end(), params.shape.begin() + axis + 1, params.shape.end());
  check_output_shape(op, out);
  const std::vector<int64_t> ids = ids_of(indices);
  for (size_t i = 0; i < ids.size(); ++i)
    if (ids[i] < 0 || ids[i] >= p)
      invalid_argument(op, "indices" + slice_debug(indices.shape, static_cast<int64_t>(i)) + " = " +
                               std::to_string(ids[i]) + " is not in [0, " + std::to_string(p) + ")");
  TensorValue r;
  r.dtype = params.dtype;
  r.shape = out;
  const int64_t total = num_elements(out);
  const bool strings = params.dtype == DType::String;
  if (strings) r.strings.resize(static_cast<size_t>(total));
  else r.data.resize(total);
  int64_t k = 0;
  for (int64_t bi = 0; bi < b; ++bi)
    for (int64_t oi = 0; oi < o; ++oi)
      for (int64_t ni = 0; ni < n; ++ni) {
        const int64_t src = ((bi * o + oi) * p + ids[static_cast<size_t>(bi * n + ni)]) * inner;
        for (int64_t ii = 0; ii < inner; ++ii, ++k) {
          if (strings) r.strings[static_cast<size_t>(k)] = params.strings[static_cast<size_t>(src + ii)];
          else r.data[k] = params.data[src + ii];
        }
      }
  return r;
}

}  // namespace

void register_scatter_ops() {
  add_op("GatherV2",
         [](const Inputs& in, const Attrs& a) {
           expect_arity("GatherV2", in, 2);
           return one(gather_v2(*in[0], *in[1], a));
         },
         [](GradContext& c) -> Grads {
           // TF's _GatherV2Grad, dense: the gradient's slices summed (UnsortedSegmentSum)
           // into the rows they were gathered from, with the axis moved first and back.
           // (Along axis 0 TF returns it as IndexedSlices; the script layer shows that.)
           const TensorId params = c.input(0);
           return {if_needed(c, 0, [&] {
                     const Shape& ps = c.shape(params);
                     const TensorValue& idx = c.value(c.input(1));
                     const int64_t rank = static_cast<int64_t>(ps.size());
                     int64_t axis = c.attrs().get_int("axis");
                     if (axis < 0) axis += rank;
                     int64_t batch = c.attrs().get_int("batch_dims");
                     if (batch < 0) batch += idx.rank();
                     int64_t b = 1, n = 1;
                     for (int64_t d = 0; d < batch; ++d) b *= ps[static_cast<size_t>(d)];
                     for (int64_t d = batch; d < idx.rank(); ++d) n *= idx.shape[static_cast<size_t>(d)];
                     const int64_t p = ps[static_cast<size_t>(axis)];
                     // grad as [B, O..., N, I...] -> [B, N, O..., I...] -> [B*N, O..., I...]
                     Shape values_shape(ps.begin(), ps.begin() + axis);
                     values_shape.push_back(n);
                     values_shape.insert(values_shape.end(), ps.begin() + axis + 1, ps.end());
                     const TensorId values = reshape(c, c.grad(), values_shape);
                     std::vector<int64_t> perm;
                     for (int64_t d = 0; d < batch; ++d) perm.push_back(d);
                     perm.push_back(axis);
                     for (int64_t d = batch; d < axis; ++d) perm.push_back(d);
                     for (int64_t d = axis + 1; d < static_cast<int64_t>(values_shape.size()); ++d) perm.push_back(d);
                     const TensorId moved = c.op("Transpose", {values}, Attrs{{"perm", perm}});
                     Shape flat{b * n};
                     for (size_t d = static_cast<size_t>(batch) + 1; d < perm.size(); ++d)
                       flat.push_back(values_shape[static_cast<size_t>(perm[d])]);
                     Eigen::ArrayXd seg(b * n);
                     for (int64_t bi = 0; bi < b; ++bi)
                       for (int64_t ni = 0; ni < n; ++ni) seg[bi * n + ni] = static_cast<double>(bi * p) + idx.data[bi * n + ni];
                     const TensorId ids = c.constant(make_tensor(DType::Int64, {b * n}, std::move(seg)));
                     const TensorId summed = c.op("UnsortedSegmentSum", {reshape(c, moved, flat), ids},
                                                  Attrs{{"num_segments", b * p}});
                     // [B*P, O..., I...] -> [B..., P, O..., I...] -> params' order
                     Shape grouped(ps.begin(), ps.begin() + batch);
                     grouped.push_back(p);
                     for (size_t d = 1; d < flat.size(); ++d) grouped.push_back(flat[d]);
                     std::vector<int64_t> back(perm.size());
                     for (size_t i = 0; i < perm.size(); ++i) back[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
                     return c.op("Transpose", {reshape(c, summed, grouped)}, Attrs{{"perm", back}});
                   }),
                   kNoId};
         },
         "d gather(p, i)/dp = g's slices summed into the rows of p they came from; None for i",
         [](const OpInfo&, size_t input) { return input == 1; });


  add_op("GatherNd",
         [](const Inputs& in, const Attrs&) {
           expect_arity("GatherNd", in, 2);
           return one(gather_nd(*in[0], *in[1]));
         },
         [](GradContext& c) -> Grads {
           // A dense ScatterNd; for [n, 1] indices TF returns it as IndexedSlices, which
           // the script layer shows (the dense value is the same).
           const TensorId params = c.input(0), indices = c.input(1);
           return {if_needed(c, 0, [&] {
                     return c.op("ScatterNd", {indices, c.grad()}, Attrs{{"shape", c.shape(params)}});
                   }),
                   kNoId};
         },
         "d gather_nd(p, i)/dp = g scattered (summed) into zeros of p's shape at i; None for i",
         [](const OpInfo&, size_t input) { return input == 1; });

  add_op("ScatterNd",
         [](const Inputs& in, const Attrs& a) {
           const char* op = "ScatterNd";
           expect_arity(op, in, 2);
           expect_index_dtype(op, *in[0], "Tindices", "int16, int32, int64");
           const Shape shape = a.get_ints("shape");
           check_output_shape(op, shape);
           return one(scatter_into(op, make_filled(in[1]->dtype, shape, 0.0), *in[0], *in[1], true));
         },
         [](GradContext& c) -> Grads {
           return {kNoId, if_needed(c, 1, [&] { return c.op("GatherNd", {c.grad(), c.input(0)}); })};
         },
         "d scatter_nd(i, u)/du = gather_nd(g, i); None for i",
         [](const OpInfo&, size_t input) { return input == 0; });

  for (const char* type : {"TensorScatterUpdate", "TensorScatterAdd"}) {
    const bool add = std::string_view(type) == "TensorScatterAdd";
    add_op(type,
           [type, add](const Inputs& in, const Attrs&) {
             expect_arity(type, in, 3);
             if (in[2]->dtype != in[0]->dtype)
               invalid_argument(type, "cannot compute " + std::string(type) + " as input #2(zero-based) was expected to be a " +
                                          dtype_kernel_name(in[0]->dtype) + " tensor but is a " +
                                          dtype_kernel_name(in[2]->dtype) + " tensor");
             expect_index_dtype(type, *in[1], "Tindices", "int16, int32, int64, uint16");
             if (in[1]->rank() < 1)
               invalid_argument(type, "Indices shape must have rank at least one. Found:" + shape_list_str(in[1]->shape));
             if (in[2]->rank() < 1)
               invalid_argument(type, "Updates shape must have rank at least one. Found:" + shape_list_str(in[2]->shape));
             return one(scatter_into(type, *in[0], *in[1], *in[2], add));
           },
           [add](GradContext& c) -> Grads {
             const TensorId indices = c.input(1), g = c.grad();
             const TensorId tensor_grad = if_needed(c, 0, [&] {
               const TensorId id = c.op("Identity", {g});
               if (add) return id;
               // The updated positions took their value from `updates`: zeros there.
               return c.op("TensorScatterUpdate", {id, indices, c.op("ZerosLike", {c.input(2)})});
             });
             return {tensor_grad, kNoId, if_needed(c, 2, [&] { return c.op("GatherNd", {g, indices}); })};
           },
           add ? "d/dtensor = g, d/dupdates = gather_nd(g, indices); None for indices"
               : "d/dtensor = g with zeros where updated, d/dupdates = gather_nd(g, indices); None for indices",
           [](const OpInfo&, size_t input) { return input == 1; });
  }

  add_op("UnsortedSegmentSum",
         [](const Inputs& in, const Attrs& a) {
           const char* op = "UnsortedSegmentSum";
           expect_arity(op, in, 2);
           std::vector<int64_t> ids;  // read after the checks
           const int64_t rows = a.get_int("num_segments");
           return one(segment_sum(*in[0], ids, rows, unsorted_segment_shape(op, *in[0], *in[1], rows, ids)));
         },
         [](GradContext& c) -> Grads { return {gather_drop_negatives(c, c.grad(), c.input(1)).gathered, kNoId}; },
         "d unsorted_segment_sum(data, ids)/ddata = g[ids] (zeros where ids < 0); None for ids",
         [](const OpInfo&, size_t input) { return input == 1; });

  add_op("SegmentSum",
         [](const Inputs& in, const Attrs&) {
           expect_arity("SegmentSum", in, 2);
           std::vector<int64_t> ids;  // read after the checks
           const int64_t rows = sorted_segment_rows("SegmentSum", *in[0], *in[1], ids);
           Shape out = in[0]->shape;
           out[0] = rows;
           return one(segment_sum(*in[0], ids, rows, std::move(out)));
         },
         [](GradContext& c) -> Grads { return {gather_rows(c, c.grad(), c.input(1)), kNoId}; },
         "d segment_sum(data, ids)/ddata = g[ids]; None for ids",
         [](const OpInfo&, size_t input) { return input == 1; });

  const auto ids_none = [](const OpInfo&, size_t input) { return input == 1; };
  struct Kind { const char* name; Segment kind; const char* rule; };
  for (const Kind& k : {Kind{"Mean", Segment::Mean, "g[ids] / the size of each element's segment"},
                        Kind{"Max", Segment::Max, "g[ids] at the elements equal to their segment's max, split among ties"},
                        Kind{"Min", Segment::Min, "g[ids] at the elements equal to their segment's min, split among ties"},
                        Kind{"Prod", Segment::Prod, "g[ids] times the product of the segment's other elements"}}) {
    const std::string sorted_type = std::string("Segment") + k.name, unsorted_type = std::string("UnsortedSegment") + k.name;
    const Segment kind = k.kind;
    add_op(sorted_type,
           [sorted_type, kind](const Inputs& in, const Attrs&) {
             expect_arity(sorted_type, in, 2);
             std::vector<int64_t> ids;  // read after the checks
             const int64_t rows = sorted_segment_rows(sorted_type, *in[0], *in[1], ids);
             Shape out = in[0]->shape;
             out[0] = rows;
             return one(segment_reduce(*in[0], ids, rows, std::move(out), kind, true));
           },
           [kind](GradContext& c) -> Grads {
             if (kind == Segment::Max || kind == Segment::Min) return segment_min_max_grad(c, true);
             if (kind == Segment::Prod) return segment_prod_grad(c, true);
             // TF's _SegmentMeanGrad: g divided by the segment sizes, gathered back.
             Shape ones_shape = c.shape(c.input(1));
             ones_shape.resize(c.shape(c.input(0)).size(), 1);
             const TensorId ones = c.constant(make_filled(c.dtype(c.grad()), ones_shape, 1.0));
             return {gather_rows(c, c.op("RealDiv", {c.grad(), c.op("SegmentSum", {ones, c.input(1)})}), c.input(1)), kNoId};
           },
           std::string("d segment_") + (kind == Segment::Mean ? "mean" : kind == Segment::Max ? "max" : kind == Segment::Min ? "min" : "prod") +
               "(data, ids)/ddata = " + k.rule + "; None for ids",
           ids_none);
    if (kind == Segment::Mean) continue;  // tf.math.unsorted_segment_mean is composite in TF
    add_op(unsorted_type,
           [unsorted_type, kind](const Inputs& in, const Attrs& a) {
             expect_arity(unsorted_type, in, 2);
             std::vector<int64_t> ids;  // read after the checks
             const int64_t rows = a.get_int("num_segments");
             Shape out = unsorted_segment_shape(unsorted_type, *in[0], *in[1], rows, ids);
             return one(segment_reduce(*in[0], ids, rows, std::move(out), kind, false));
           },
           [kind](GradContext& c) -> Grads {
             return kind == Segment::Prod ? segment_prod_grad(c, false) : segment_min_max_grad(c, false);
           },
           std::string("d unsorted_segment_") + (kind == Segment::Max ? "max" : kind == Segment::Min ? "min" : "prod") +
               "(data, ids)/ddata = " + k.rule + " (zeros where ids < 0); None for ids",
           ids_none);
  }
}

}  // namespace ts

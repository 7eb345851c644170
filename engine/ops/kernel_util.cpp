// Helpers shared by the op kernels: TF's error texts, broadcasting access patterns,
// integer wrap-around, reductions' axis plans, and gradient builders.
#include "kernel_util.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "../engine.h"

namespace ts::kernels {

void add_op(std::string type, ForwardFn forward, GradFn grad, std::string rule,
            std::function<bool(const OpInfo&, size_t)> returns_none) {
  OpDef d;
  d.type = std::move(type);
  d.forward = std::move(forward);
  d.grad_kind = GradKind::Function;
  d.grad = std::move(grad);
  d.rule = std::move(rule);
  d.returns_none = std::move(returns_none);
  OpRegistry::instance().add(std::move(d));
}

void add_op(std::string type, ForwardFn forward, GradKind kind, std::string rule) {
  OpDef d;
  d.type = std::move(type);
  d.forward = std::move(forward);
  d.grad_kind = kind;
  d.rule = std::move(rule);
  OpRegistry::instance().add(std::move(d));
}

// ---------------------------------------------------------------------------------
// Errors

[[noreturn]] void invalid_argument(std::string_view op, const std::string& message) {
  throw TfError("InvalidArgumentError", message + " [Op:" + std::string(op) + "]");
}

void expect_arity(std::string_view op, const Inputs& in, size_t n) {
  if (in.size() != n)
    invalid_argument(op, std::string(op) + " expects " + std::to_string(n) + " input(s), got " +
                             std::to_string(in.size()));
}

void expect_min_arity(std::string_view op, const Inputs& in, size_t n) {
  if (in.size() < n)
    invalid_argument(op, std::string(op) + " expects at least " + std::to_string(n) + " input(s), got " +
                             std::to_string(in.size()));
}

void expect_same_dtype(std::string_view op, const Inputs& in, size_t first, size_t last) {
  last = std::min(last, in.size());
  for (size_t i = first + 1; i < last; ++i)
    if (in[i]->dtype != in[first]->dtype)
      invalid_argument(op, "cannot compute " + std::string(op) + " as input #" + std::to_string(i) +
                               "(zero-based) was expected to be a " + dtype_kernel_name(in[first]->dtype) +
                               " tensor but is a " + dtype_kernel_name(in[i]->dtype) + " tensor");
}

namespace {

// TF's lists, in the order its op definitions print them.
const char* type_list(TypeSet s) {
  switch (s) {
    case TypeSet::Float: return "half, bfloat16, float, double";
    case TypeSet::FloatComplex: return "bfloat16, half, float, double, complex64, complex128";
    case TypeSet::Real:
      return "float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, uint32, uint64";
    case TypeSet::Number:
      return "float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, qint32, bfloat16, "
             "qint16, quint16, uint16, complex128, half, uint32, uint64";
    case TypeSet::Any: return "";
  }
  return "";
}

bool in_set(DType d, TypeSet s) {
  switch (s) {
    case TypeSet::Float:
    case TypeSet::FloatComplex: return is_floating(d);
    case TypeSet::Real:
    case TypeSet::Number: return is_floating(d) || is_integer(d);
    case TypeSet::Any: return d != DType::Resource;
  }
  return false;
}

// "float, double" -> "DT_FLOAT, DT_DOUBLE"
std::string dt_list(const std::string& names) {
  std::string out = "DT_";
  for (char ch : names) {
    if (ch == ' ') out += " DT_";
    else out += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  }
  return out;
}

}  // namespace

void expect_type(std::string_view op, DType d, TypeSet set, std::string_view signature) {
  if (in_set(d, set)) return;
  const std::string list = type_list(set);
  const std::string o(op);
  invalid_argument(op, "Value for attr 'T' of " + dtype_kernel_name(d) + " is not in the list of allowed values: " +
                           list + "\n\t; NodeDef: {{node " + o + "}}; Op<name=" + o + "; signature=" +
                           std::string(signature) + "; attr=T:type,allowed=[" + dt_list(list) + "]>");
}

Shape broadcast_for(std::string_view op, const Shape& a, const Shape& b) {
  Shape out;
  try {
    out = broadcast_shapes(a, b);
  } catch (const TfError& e) {
    throw TfError(e.type(), std::string(e.what()) + " [Op:" + std::string(op) + "]");
  }
  check_output_shape(op, out);
  return out;
}

void check_output_shape(std::string_view op, const Shape& shape) {
  bool empty = false;
  for (int64_t d : shape) {
    if (d < 0) invalid_argument(op, "Dimension " + std::to_string(d) + " must be >= 0");
    empty = empty || d == 0;
  }
  if (empty) return;
  int64_t n = 1;
  for (int64_t d : shape)
    if (__builtin_mul_overflow(n, d, &n) || n > kMaxOutputElements)
      throw TfError("ResourceError", "tensor of shape " + shape_str(shape) + " is over the limit of " +
                                         std::to_string(kMaxOutputElements) + " elements [Op:" + std::string(op) + "]");
}

// ---------------------------------------------------------------------------------
// Integers

int64_t to_i64(double v) {
  if (std::isnan(v)) return 0;
  if (v >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
  if (v <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

double int_result(int64_t v, DType d) {
  if (d == DType::Int32) return static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(v)));
  return static_cast<double>(v);
}

// ---------------------------------------------------------------------------------
// Broadcast access

Access access_for(const Shape& in, const Shape& out) {
  Access a;
  const int64_t n_in = num_elements(in), n_out = num_elements(out);
  if (n_in == n_out) return a;
  if (n_in == 1) {
    a.kind = Access::Kind::Scalar;
    return a;
  }
  // Pad `in` with leading ones to out's rank.
  const size_t r = out.size(), off = r - in.size();
  auto dim = [&](size_t d) { return d < off ? int64_t{1} : in[d - off]; };
  // Cycle: ones, then exactly out's trailing dims.
  size_t first = 0;
  while (first < r && dim(first) == 1) ++first;
  bool cycle = true;
  for (size_t d = first; d < r; ++d) cycle = cycle && dim(d) == out[d];
  if (cycle) {
    a.kind = Access::Kind::Cycle;
    a.n = n_in;
    return a;
  }
  // Repeat: exactly out's leading dims, then ones.
  size_t last = r;
  while (last > 0 && dim(last - 1) == 1) --last;
  bool repeat = true;
  int64_t inner = 1;
  for (size_t d = 0; d < r; ++d) {
    if (d < last) repeat = repeat && dim(d) == out[d];
    else inner *= out[d];
  }
  if (repeat) {
    a.kind = Access::Kind::Repeat;
    a.n = inner;
    return a;
  }
  a.kind = Access::Kind::Map;
  a.map = broadcast_index_map(in, out);
  return a;
}

// ---------------------------------------------------------------------------------
// Axes

int64_t normalize_axis(int64_t axis, int64_t rank, std::string_view op, const std::string& what) {
  if (axis < -rank || axis >= rank) invalid_argument(op, what);
  return axis < 0 ? axis + rank : axis;
}

Reduction plan_reduction(std::string_view op, const Shape& shape, const Attrs& attrs, bool build_index) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  Reduction r;
  r.reduced.assign(shape.size(), false);
  // No axis attr: every axis (axis=None). An empty list reduces none, as in TF.
  const std::vector<int64_t> axes = attrs.get_ints("axis");
  if (!attrs.has("axis")) {
    r.reduced.assign(shape.size(), true);
  } else {
    for (int64_t a : axes) {
      const int64_t d = normalize_axis(a, rank, op, "Invalid reduction dimension (" + std::to_string(a) +
                                                        " for input with " + std::to_string(rank) +
                                                        " dimension(s)");
      r.reduced[static_cast<size_t>(d)] = true;
    }
  }
  const bool keepdims = attrs.get_bool("keepdims");
  bool all = true;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (r.reduced[d]) {
      r.count *= shape[d];
      r.kept_shape.push_back(1);
      if (keepdims) r.out_shape.push_back(1);
    } else {
      all = all && shape[d] == 1;
      r.kept_shape.push_back(shape[d]);
      r.out_shape.push_back(shape[d]);
    }
  }
  if (!build_index || all) return r;
  // Walk the input in row-major order; the output index moves with the kept dims only.
  const auto out_strides = strides_of(r.kept_shape);
  const int64_t n = num_elements(shape);
  r.out_index.resize(static_cast<size_t>(n));
  std::vector<int64_t> idx(shape.size(), 0);
  int64_t o = 0;
  for (int64_t k = 0; k < n; ++k) {
    r.out_index[static_cast<size_t>(k)] = o;
    for (size_t d = shape.size(); d-- > 0;) {
      const int64_t step = r.reduced[d] ? 0 : out_strides[d];
      if (++idx[d] < shape[d]) {
        o += step;
        break;
      }
      o -= step * (shape[d] - 1);
      idx[d] = 0;
    }
  }
  return r;
}

std::vector<int64_t> strided_indices(const Shape& counts, const std::vector<int64_t>& start,
                                     const std::vector<int64_t>& step, const std::vector<int64_t>& strides) {
  const int64_t n = num_elements(counts);
  std::vector<int64_t> out(static_cast<size_t>(std::max<int64_t>(n, 0)));
  if (n <= 0) return out;
  int64_t base = 0;
  for (size_t d = 0; d < counts.size(); ++d) base += start[d] * strides[d];
  std::vector<int64_t> idx(counts.size(), 0);
  int64_t pos = base;
  for (int64_t k = 0; k < n; ++k) {
    out[static_cast<size_t>(k)] = pos;
    for (size_t d = counts.size(); d-- > 0;) {
      if (++idx[d] < counts[d]) {
        pos += step[d] * strides[d];
        break;
      }
      pos -= step[d] * strides[d] * (counts[d] - 1);
      idx[d] = 0;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------
// Gradient builders

bool needs_grad(GradContext& c, size_t i) { return c.needed(i); }

TensorId unbroadcast(GradContext& c, TensorId g, TensorId x) {
  if (c.shape(g) == c.shape(x)) return g;
  return c.reduce_to(g, x);
}

TensorId reshape(GradContext& c, TensorId t, const Shape& shape) {
  if (c.shape(t) == shape) return t;
  return c.op("Reshape", {t}, Attrs{{"shape", shape}});
}

TensorId broadcast_back(GradContext& c, TensorId g, const Reduction& r, const Shape& x_shape) {
  TensorId k = reshape(c, g, r.kept_shape);
  if (r.kept_shape == x_shape) return k;
  return c.op("BroadcastTo", {k}, Attrs{{"shape", x_shape}});
}

TensorId zero_like_scalar(GradContext& c, TensorId like) { return c.scalar_like(like, 0.0); }

}  // namespace ts::kernels

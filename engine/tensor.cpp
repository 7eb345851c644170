#include "tensor.h"

#include <cmath>

#include "errors.h"

namespace ts {

namespace {

// Every float32 kernel's result passes here: vectorized, with an AVX2 clone chosen at run time.
__attribute__((target_clones("avx2", "default"))) void round_to_float(double* d, int64_t n) {
  for (int64_t i = 0; i < n; ++i) d[i] = static_cast<double>(static_cast<float>(d[i]));
}

}  // namespace

void round_to_dtype(Eigen::ArrayXd& data, DType dtype) {
  switch (dtype) {
    case DType::Float32:
      round_to_float(data.data(), data.size());
      break;
    case DType::Float16:
      // Through float: exact for every value a half holds; a double exactly halfway
      // between two halves after float rounding is the only (harmless) double rounding.
      for (Eigen::Index i = 0; i < data.size(); ++i)
        data[i] = static_cast<double>(static_cast<float>(Eigen::half(static_cast<float>(data[i]))));
      break;
    case DType::Int32:
      for (Eigen::Index i = 0; i < data.size(); ++i) {
        const double t = std::trunc(data[i]);
        // Out-of-range values wrap like a 32-bit int; never cast an out-of-range double (UB).
        const double w = std::fmod(t, 4294967296.0);
        data[i] = std::isfinite(t) ? static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(
                                         static_cast<int64_t>(w < 0 ? w + 4294967296.0 : w))))
                                   : static_cast<double>(INT32_MIN);
      }
      break;
    case DType::Int64:
      for (Eigen::Index i = 0; i < data.size(); ++i) {
        const double t = std::trunc(data[i]);
        data[i] = std::isfinite(t) && std::fabs(t) < 9.2e18 ? t : static_cast<double>(INT64_MIN);
      }
      break;
    case DType::Bool:
      for (Eigen::Index i = 0; i < data.size(); ++i) data[i] = data[i] != 0.0 ? 1.0 : 0.0;
      break;
    default:
      break;
  }
}

TensorValue make_tensor(DType dtype, Shape shape, Eigen::ArrayXd data) {
  TensorValue t = make_tensor_rounded(dtype, std::move(shape), std::move(data));
  round_to_dtype(t.data, dtype);
  return t;
}

TensorValue make_tensor_rounded(DType dtype, Shape shape, Eigen::ArrayXd data) {
  TensorValue t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.data = std::move(data);
  // Every reader indexes data by shape: a mismatch is a kernel bug, caught here rather
  // than as an out-of-bounds read later (a string tensor keeps `strings`, not numbers).
  if (dtype == DType::String)
    throw TfError("InternalError", "numbers given for a string tensor of shape " + shape_str(t.shape));
  if (t.data.size() != num_elements(t.shape))
    throw TfError("InternalError", "a kernel made " + std::to_string(t.data.size()) + " values for shape " +
                                       shape_str(t.shape));
  return t;
}

TensorValue make_scalar(DType dtype, double v) {
  Eigen::ArrayXd d(1);
  d[0] = v;
  return make_tensor(dtype, {}, std::move(d));
}

TensorValue make_filled(DType dtype, const Shape& shape, double v) {
  // A string tensor keeps its elements apart from the numbers: empty strings (TF's zeros).
  if (dtype == DType::String) return make_string_tensor(shape, std::vector<std::string>(static_cast<size_t>(num_elements(shape))));
  return make_tensor(dtype, shape, Eigen::ArrayXd::Constant(num_elements(shape), v));
}

TensorValue make_string_tensor(Shape shape, std::vector<std::string> s) {
  TensorValue t;
  t.dtype = DType::String;
  t.shape = std::move(shape);
  t.strings = std::move(s);
  return t;
}

TensorValue cast_value(const TensorValue& v, DType to) {
  if (v.dtype == DType::String || to == DType::String) {
    if (v.dtype == to) return v;
    throw TfError("UnimplementedError", "Cast " + dtype_kernel_name(v.dtype) + " to " + dtype_kernel_name(to) +
                                            " is not supported");
  }
  return make_tensor(to, v.shape, v.data);
}

TensorValue broadcast_to(const TensorValue& v, const Shape& shape) {
  if (v.shape == shape) return v;
  const Shape b = broadcast_shapes(v.shape, shape);
  if (b != shape)
    throw TfError("InvalidArgumentError", "Unable to broadcast tensor of shape " + shape_list_str(v.shape) +
                                              " to tensor of shape " + shape_list_str(shape));
  const auto map = broadcast_index_map(v.shape, shape);
  TensorValue out;
  out.dtype = v.dtype;
  out.shape = shape;
  if (v.dtype == DType::String) {
    out.strings.resize(map.size());
    for (size_t i = 0; i < map.size(); ++i) out.strings[i] = v.strings[static_cast<size_t>(map[i])];
  } else {
    out.data.resize(static_cast<Eigen::Index>(map.size()));
    for (size_t i = 0; i < map.size(); ++i) out.data[static_cast<Eigen::Index>(i)] = v.data[map[i]];
  }
  return out;
}

TensorValue sum_to_shape(const TensorValue& v, const Shape& shape) {
  if (v.shape == shape) return v;
  const auto map = broadcast_index_map(shape, v.shape);
  Eigen::ArrayXd acc = Eigen::ArrayXd::Zero(num_elements(shape));
  for (size_t i = 0; i < map.size(); ++i) acc[map[i]] += v.data[static_cast<Eigen::Index>(i)];
  return make_tensor(v.dtype, shape, std::move(acc));
}

}  // namespace ts

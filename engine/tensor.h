// TensorValue: an immutable n-d array of one dtype. Numbers are stored as doubles in
// an Eigen array (row-major order) and rounded to the dtype after every kernel, so
// float32 results are the float32 values TF would print; strings live apart.
#pragma once
#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dtype.h"
#include "shape.h"

namespace ts {

struct TensorValue {
  DType dtype = DType::Float32;
  Shape shape;
  Eigen::ArrayXd data;               // numeric elements (empty for strings)
  std::vector<std::string> strings;  // string elements

  int64_t size() const { return num_elements(shape); }
  int rank() const { return static_cast<int>(shape.size()); }
  double scalar() const { return data.size() ? data[0] : 0.0; }
};

using TensorPtr = std::shared_ptr<const TensorValue>;

// Rounds every element to what `dtype` can hold: float32 rounding, integer
// truncation toward zero with wrap-around, bool to 0/1.
void round_to_dtype(Eigen::ArrayXd& data, DType dtype);

TensorValue make_tensor(DType dtype, Shape shape, Eigen::ArrayXd data);
// For a kernel that rounded as it computed (one pass over the data instead of two):
// `data` already holds only values `dtype` can hold.
TensorValue make_tensor_rounded(DType dtype, Shape shape, Eigen::ArrayXd data);
TensorValue make_scalar(DType dtype, double v);
TensorValue make_filled(DType dtype, const Shape& shape, double v);  // strings: "" (v unused)
TensorValue make_string_tensor(Shape shape, std::vector<std::string> s);

// Element-wise cast (TF's Cast semantics: float→int truncates, x→bool is x != 0).
TensorValue cast_value(const TensorValue& v, DType to);

// Repeats `v` to `shape` (broadcast); throws InvalidArgumentError when impossible.
TensorValue broadcast_to(const TensorValue& v, const Shape& shape);

// Sums `v` down to `shape` over broadcast dimensions (the inverse of broadcast_to).
TensorValue sum_to_shape(const TensorValue& v, const Shape& shape);

}  // namespace ts

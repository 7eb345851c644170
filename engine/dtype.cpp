#include "dtype.h"

namespace ts {

std::string_view dtype_name(DType d) {
  switch (d) {
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Int32: return "int32";
    case DType::Int64: return "int64";
    case DType::Bool: return "bool";
    case DType::String: return "string";
    case DType::Resource: return "resource";
    case DType::Float16: return "float16";
  }
  return "?";
}

std::optional<DType> dtype_from_name(std::string_view n) {
  if (n == "float32" || n == "float") return DType::Float32;
  if (n == "float64" || n == "double") return DType::Float64;
  if (n == "int32") return DType::Int32;
  if (n == "int64") return DType::Int64;
  if (n == "bool") return DType::Bool;
  if (n == "string") return DType::String;
  if (n == "resource") return DType::Resource;
  if (n == "float16" || n == "half") return DType::Float16;
  return std::nullopt;
}

bool is_floating(DType d) { return d == DType::Float32 || d == DType::Float64 || d == DType::Float16; }
bool is_integer(DType d) { return d == DType::Int32 || d == DType::Int64; }
bool is_trainable_dtype(DType d) { return is_floating(d) || d == DType::Resource; }
bool is_numeric(DType d) { return is_floating(d) || is_integer(d) || d == DType::Bool; }
std::string dtype_tf_name(DType d) { return "tf." + std::string(dtype_name(d)); }

std::string dtype_kernel_name(DType d) {
  switch (d) {
    case DType::Float16: return "half";
    case DType::Float32: return "float";
    case DType::Float64: return "double";
    default: return std::string(dtype_name(d));
  }
}

}  // namespace ts

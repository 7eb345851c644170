// DType: the element types a tensor can have, with TensorFlow's names.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace ts {

// Resource is the dtype of a variable's handle tensor: the tape watches handles,
// and TF counts the resource dtype as trainable.
enum class DType { Float32, Float64, Int32, Int64, Bool, String, Resource, Float16 };

std::string_view dtype_name(DType d);            // "float32"
std::optional<DType> dtype_from_name(std::string_view name);
bool is_floating(DType d);                       // float16, float32, float64
bool is_integer(DType d);                        // int32, int64
bool is_trainable_dtype(DType d);                // floating or resource
bool is_numeric(DType d);                        // floating, integer or bool

// The dtype that results from combining two dtypes in a binary op after TF's
// conversion rules (both must already agree; this only validates).
std::string dtype_tf_name(DType d);              // "tf.float32"
// The name TF's kernels use in their messages: "half", "float", "double", "int32", ...
std::string dtype_kernel_name(DType d);

}  // namespace ts

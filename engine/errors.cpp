#include "errors.h"

namespace ts {

std::string eager_op_message(const std::string& message, const std::string& label, size_t num_inputs) {
  // Only a message that names its op ("... [Op:MatMul]") came from running one.
  const size_t tag = message.rfind(" [Op:");
  if (tag == std::string::npos || message.empty() || message.back() != ']') return message;
  const std::string op = message.substr(tag + 5, message.size() - tag - 6);
  // Input dtype and attr checks fail before a kernel runs; the rest fail inside it.
  const bool before_kernel = message.rfind("cannot compute ", 0) == 0 || message.rfind("Value for attr '", 0) == 0;
  std::string out;
  if (!before_kernel) {
    // The wrapped function's name carries a list input's length attr N.
    const bool list_op = op == "ConcatV2" || op == "Pack" || op == "AddN" || op == "Einsum";
    const std::string n = list_op && num_inputs > 0 ? "_N_" + std::to_string(num_inputs) : "";
    out = "{{function_node __wrapped__" + op + n + "_device_/job:localhost/replica:0/task:0/device:CPU:0}} ";
  }
  // Subscripts go through array_ops._slice_helper, whose name scope is kept in eager
  // mode (skip_on_eager=False); a sliced assign is named after its slice. A few API
  // functions pass their default name straight to the op (concat(..., name="concat")).
  std::string name;
  if (op == "StridedSlice") name = "strided_slice/";
  else if (op == "ResourceStridedSliceAssign") name = "strided_slice/_assign";
  else if (label == "tf.concat" || label == "tf.stack" || label == "tf.unstack" || label == "tf.split")
    name = label.substr(3);
  return out + message + " name: " + name;
}

}  // namespace ts

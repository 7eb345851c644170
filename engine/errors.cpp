#include "errors.h"

namespace ts {

std::string eager_op_message(const std::string& message) {
  // Only a message that names its op ("... [Op:MatMul]") came from running one.
  const size_t tag = message.rfind(" [Op:");
  if (tag == std::string::npos || message.empty() || message.back() != ']') return message;
  const std::string op = message.substr(tag + 5, message.size() - tag - 6);
  // Input dtype and attr checks fail before a kernel runs; the rest fail inside it.
  const bool before_kernel = message.rfind("cannot compute ", 0) == 0 || message.rfind("Value for attr '", 0) == 0;
  std::string out;
  if (!before_kernel) out = "{{function_node __wrapped__" + op + "_device_/job:localhost/replica:0/task:0/device:CPU:0}} ";
  // Subscripts go through array_ops._slice_helper, whose name scope is kept in eager
  // mode (skip_on_eager=False); a sliced assign is named after its slice.
  const char* name = op == "StridedSlice"                 ? "strided_slice/"
                     : op == "ResourceStridedSliceAssign" ? "strided_slice/_assign"
                                                          : "";
  return out + message + " name: " + name;
}

}  // namespace ts

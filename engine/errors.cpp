#include "errors.h"

#include <algorithm>

namespace ts {

std::string eager_op_message(const std::string& message, const std::string& label, size_t num_inputs,
                             int64_t num_outputs) {
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
    // ... and a list output's (Unpack's num).
    std::string n = list_op && num_inputs > 0 ? "_N_" + std::to_string(num_inputs) : "";
    if (op == "Unpack" && num_outputs >= 0) n = "_num_" + std::to_string(num_outputs);
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

namespace {

// Two-input ops and their OpDefs' input names; the first input fixes the type attr.
// (List inputs such as Pack's have their own message; they keep the kernel's.)
const std::pair<const char*, std::pair<const char*, const char*>> kTwoInputOps[] = {
    {"AddV2", {"x", "y"}},     {"Sub", {"x", "y"}},          {"Mul", {"x", "y"}},
    {"RealDiv", {"x", "y"}},   {"Div", {"x", "y"}},          {"DivNoNan", {"x", "y"}},
    {"FloorDiv", {"x", "y"}},  {"FloorMod", {"x", "y"}},     {"Pow", {"x", "y"}},
    {"Maximum", {"x", "y"}},   {"Minimum", {"x", "y"}},      {"SquaredDifference", {"x", "y"}},
    {"Less", {"x", "y"}},      {"LessEqual", {"x", "y"}},    {"Greater", {"x", "y"}},
    {"GreaterEqual", {"x", "y"}}, {"Equal", {"x", "y"}},     {"NotEqual", {"x", "y"}},
    {"Xlogy", {"x", "y"}},     {"Xdivy", {"x", "y"}},        {"Atan2", {"y", "x"}},
    {"MatMul", {"a", "b"}},    {"BatchMatMulV2", {"x", "y"}}, {"BiasAdd", {"value", "bias"}}};

const std::pair<const char*, const char*>* input_names(const std::string& op) {
  for (const auto& [type, n] : kTwoInputOps)
    if (op == type) return &n;
  return nullptr;
}

}  // namespace

std::string graph_broadcast_error(const std::string& type, const std::vector<int64_t>& x, const std::vector<int64_t>& y) {
  if (!input_names(type) || type == "MatMul" || type == "BatchMatMulV2" || type == "BiasAdd") return {};
  for (size_t k = 1; k <= std::min(x.size(), y.size()); ++k) {
    const int64_t a = x[x.size() - k], b = y[y.size() - k];
    if (a != b && a != 1 && b != 1)
      return "Dimensions must be equal, but are " + std::to_string(a) + " and " + std::to_string(b);
  }
  return {};
}

TfError graph_op_error(const TfError& kernel_error) {
  // "cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but is a int32 tensor [Op:AddV2]"
  const std::string m = kernel_error.what();
  const std::string a = "cannot compute ", b = " as input #", c = "(zero-based) was expected to be a ",
                    d = " tensor but is a ", e = " tensor [Op:";
  const size_t pb = m.find(b), pc = m.find(c), pd = m.find(d), pe = m.find(e);
  if (m.rfind(a, 0) != 0 || pb == std::string::npos || pc == std::string::npos || pd == std::string::npos ||
      pe == std::string::npos || !(pb < pc && pc < pd && pd < pe))
    return kernel_error;
  const std::string op = m.substr(a.size(), pb - a.size());
  const std::string index = m.substr(pb + b.size(), pc - pb - b.size());
  auto tf_name = [](const std::string& kernel) -> std::string {
    if (kernel == "float") return "float32";
    if (kernel == "double") return "float64";
    if (kernel == "half") return "float16";
    return kernel;
  };
  const std::string want = tf_name(m.substr(pc + c.size(), pd - pc - c.size()));
  const std::string got = tf_name(m.substr(pd + d.size(), pe - pd - d.size()));
  const auto* names = input_names(op);
  if (!names || index != "1") return kernel_error;
  return TfError("TypeError", "Input '" + std::string(names->second) + "' of '" + op + "' Op has type " + got +
                                  " that does not match type " + want + " of argument '" + names->first + "'.");
}

}  // namespace ts

// TfError: an error the script sees as a Python exception of the named type
// (ValueError, RuntimeError, LookupError, InvalidArgumentError, ...), with TF's text.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace ts {

class TfError : public std::runtime_error {
 public:
  TfError(std::string type, const std::string& message)
      : std::runtime_error(message), type_(std::move(type)) {}
  const std::string& type() const { return type_; }

 private:
  std::string type_;
};

// Eager TF's wording of an op that failed (ops.py, raise_from_not_ok_status): an error
// raised inside the kernel names the wrapped function the op ran as, and every message
// ends in " name: " and the op's name: empty for most ops a script runs (their name
// scopes are skipped in eager mode), "strided_slice/" for a subscript, the default name
// of tf.concat/stack/unstack/split (`label`: the op's label). Messages not ending in
// " [Op:<type>]" are returned unchanged.
std::string eager_op_message(const std::string& message, const std::string& label = "", size_t num_inputs = 0,
                             int64_t num_outputs = -1);

// The same failure while a tf.function traces: graph construction checks an op's input
// dtypes before any kernel runs (op_def_library._apply_op_helper), so a mismatch is
// TypeError "Input 'y' of 'AddV2' Op has type int32 that does not match type float32 of
// argument 'x'." Other messages are returned unchanged, with their type.
TfError graph_op_error(const TfError& kernel_error);

// Graph construction's shape check of an element-wise binary op (x, y broadcast): the
// message BroadcastBinaryOpOutputShapeFn gives, "Dimensions must be equal, but are 2
// and 3", or empty when the shapes broadcast or `type` is not such an op.
std::string graph_broadcast_error(const std::string& type, const std::vector<int64_t>& x, const std::vector<int64_t>& y);

}  // namespace ts

// str methods beyond the evaluator's own (format, join): case, strip, padding,
// find/count/index, split/rsplit, splitlines, replace, startswith/endswith, partition, is*.
#pragma once
#include <optional>
#include <string>

#include "interpreter.h"

namespace ts::script {

// The bound method `s.name`, or nullopt when str has no such method here.
std::optional<Value> str_method(Interpreter& in, const std::string& s, const std::string& name);

}  // namespace ts::script

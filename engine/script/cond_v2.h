// cond_v2 for the interpreter: what a traced branch captured, the If op the outputs of a
// traced `if` / tf.cond go through, and which errors a shadow (untaken) branch may meet.
#pragma once
#include <string>
#include <vector>

#include "../errors.h"
#include "../ids.h"
#include "objects.h"
#include "value.h"

namespace ts::script {

class Interpreter;

// What a branch used differentiably from before it (the log's tensors [begin, end) are
// the branch's own), reached back from its outputs.
struct BranchCaptures {
  std::vector<TensorId> all;        // what the branch used differentiably from before it
  std::vector<TensorId> nonlinear;  // those its gradient reads (a second derivative reaches them)
};
BranchCaptures cond_branch_captures(Interpreter& in, size_t tensors_begin, size_t tensors_end,
                                    const std::vector<Value>& outputs);
// The taken branch's outputs through one If op whose gradient gives zeros to
// `zero_captures` (cond_v2's _IfGrad).
std::vector<Value> cond_route_outputs(Interpreter& in, const std::vector<Value>& outputs,
                                      const BranchCaptures& zero_captures);
// while_v2: what a traced loop's cond and body captured from outside (its ops from
// `ops_begin` on, the tensors made before `tensors_begin`), the loop variables' first
// values aside. They are inputs of the While op, so each has a gradient: zeros at least.
std::vector<TensorId> while_captures(Interpreter& in, size_t ops_begin, size_t tensors_begin,
                                     const std::vector<Value>& initial);

// A runtime kernel error (an index out of range, an integer division by zero) that a
// branch TF only traces could never raise.
bool shadow_swallows(const std::string& error_type);

// Runs `trace` as the trace of a branch that does not run: a runtime kernel error
// (shadow_swallows) ends it and gives false; any other error passes on.
template <class F>
bool run_in_shadow(F&& trace) {
  try {
    trace();
    return true;
  } catch (const PyException& e) {
    if (!shadow_swallows(e.type)) throw;
  } catch (const TfError& e) {
    if (!shadow_swallows(e.type())) throw;
  }
  return false;
}

}  // namespace ts::script

// Einsum equations: what tf.einsum does in Python before it runs TF's Einsum op, which
// takes one or two operands and an explicit equation ("ij,jk->ik").
#pragma once
#include <string>
#include <vector>

#include "../shape.h"

namespace ts {

// One Einsum op of a plan: its explicit equation and which operands it takes (indices
// into the original inputs, or n + k for the result of step k).
struct EinsumStep {
  std::string equation;
  std::vector<size_t> operands;
};

// Spaces removed and an implicit output made explicit (the labels used once, sorted,
// after "..." when an input has one), as _einsum_v2_parse_and_resolve_equation does;
// then split into steps of at most two operands, contracted left to right, each keeping
// only the labels that later operands or the output still need. Throws ValueError
// (Python-side checks) with TF's wording where it has one.
std::vector<EinsumStep> einsum_plan(const std::string& equation, size_t num_inputs);

}  // namespace ts

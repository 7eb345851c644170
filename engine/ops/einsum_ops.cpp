// Einsum: TF's op of one or two operands with an explicit equation ("ij,jk->ik",
// "...ij->...ji", "ii->i", "i->ii"), its gradient (_EinsumGrad in linalg_grad.py, itself
// made of Einsum, Reshape, BroadcastTo and Sum ops), and the Python-side equation
// handling of tf.einsum (einsum.h).
//
// The kernel walks the whole label space once: every assignment of values to the
// distinct labels adds the product of the operands' elements to the output element it
// names. A label repeated in an operand reads its diagonal; repeated in the output, it
// writes one (TF's StrideOrInflate). Learner-sized tensors make this fast enough; the
// label space is capped like any kernel's output.
//
// Attrs: "equation": string, explicit ("->" present), at most two operands.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "einsum.h"
#include "kernel_util.h"

namespace ts {

using namespace kernels;

namespace {

constexpr const char* kEllipsis = "...";

// An equation split into its operands' subscripts and the output's (ellipsis kept).
struct Subscripts {
  std::vector<std::string> inputs;
  std::string output;
};

Subscripts split_equation(std::string_view op, const std::string& equation) {
  const size_t arrow = equation.find("->");
  if (arrow == std::string::npos || equation.find("->", arrow + 2) != std::string::npos)
    invalid_argument(op, "Expecting exactly one '->' in einsum equation: " + equation);
  Subscripts s;
  s.output = equation.substr(arrow + 2);
  std::string lhs = equation.substr(0, arrow);
  size_t start = 0;
  for (;;) {
    const size_t comma = lhs.find(',', start);
    s.inputs.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (s.inputs.size() > 2)
    invalid_argument(op, "Expecting 1 or 2 input subscripts in equation '" + equation +
                             "' but got: " + std::to_string(s.inputs.size()));
  return s;
}

// Labels of one subscript string: letters as themselves (0..127), the ellipsis as -1.
std::vector<int> parse_labels(std::string_view op, const std::string& subs, const std::string& equation) {
  std::vector<int> out;
  for (size_t i = 0; i < subs.size(); ++i) {
    const char ch = subs[i];
    if (subs.compare(i, 3, kEllipsis) == 0) {
      if (std::find(out.begin(), out.end(), -1) != out.end())
        invalid_argument(op, "Found more than one ellipsis ('...') in einsum equation: " + equation);
      out.push_back(-1);
      i += 2;
    } else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
      out.push_back(ch);
    } else {
      invalid_argument(op, std::string("Invalid character '") + ch + "' in einsum equation: " + equation);
    }
  }
  return out;
}

// The einsum as the kernel runs it: every axis of every operand and of the output named
// by a label id; broadcast (ellipsis) dims get ids from 128 up, one per output batch dim.
struct EinsumPlan {
  std::vector<std::vector<int>> in_axes;  // per operand, per axis
  std::vector<int> out_axes;
  std::map<int, int64_t> dims;            // label id -> size
  std::vector<std::vector<bool>> in_bcast_one;  // per operand axis: a size-1 batch dim broadcast
  Shape out_shape;
};

EinsumPlan make_plan(std::string_view op, const std::string& equation, const Inputs& in) {
  const Subscripts subs = split_equation(op, equation);
  if (subs.inputs.size() != in.size())
    invalid_argument(op, "Expected " + std::to_string(subs.inputs.size()) + " inputs but got: " + std::to_string(in.size()));
  EinsumPlan p;
  std::vector<std::vector<int>> labels;
  for (const auto& s : subs.inputs) labels.push_back(parse_labels(op, s, equation));
  const std::vector<int> out_labels = parse_labels(op, subs.output, equation);

  // Batch dims: each operand's ellipsis covers rank - (named labels) dims; they broadcast.
  Shape batch;
  std::vector<int64_t> n_bcast(in.size(), 0);
  for (size_t i = 0; i < in.size(); ++i) {
    const auto& l = labels[i];
    const int64_t rank = in[i]->rank();
    const bool has_ellipsis = std::find(l.begin(), l.end(), -1) != l.end();
    const int64_t named = static_cast<int64_t>(l.size()) - (has_ellipsis ? 1 : 0);
    if (!has_ellipsis && rank != named)
      invalid_argument(op, "Expected input " + std::to_string(i) + " to have rank " + std::to_string(named) +
                               " but got: " + std::to_string(rank));
    if (has_ellipsis && rank < named)
      invalid_argument(op, "Expected input " + std::to_string(i) + " to have rank at least " + std::to_string(named) +
                               " but got: " + std::to_string(rank));
    n_bcast[i] = has_ellipsis ? rank - named : 0;
  }
  for (size_t i = 0; i < in.size(); ++i) {
    if (!n_bcast[i]) continue;
    const auto& l = labels[i];
    const size_t at = static_cast<size_t>(std::find(l.begin(), l.end(), -1) - l.begin());
    const Shape sub(in[i]->shape.begin() + static_cast<std::ptrdiff_t>(at),
                    in[i]->shape.begin() + static_cast<std::ptrdiff_t>(at + static_cast<size_t>(n_bcast[i])));
    batch = broadcast_for(op, batch, sub);
  }
  const int64_t nb = static_cast<int64_t>(batch.size());

  p.in_axes.resize(in.size());
  p.in_bcast_one.resize(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const Shape& shape = in[i]->shape;
    size_t axis = 0;
    for (int label : labels[i]) {
      if (label == -1) {
        for (int64_t k = 0; k < n_bcast[i]; ++k, ++axis) {
          const int id = static_cast<int>(128 + nb - n_bcast[i] + k);
          p.in_axes[i].push_back(id);
          p.in_bcast_one[i].push_back(shape[axis] == 1 && batch[static_cast<size_t>(id - 128)] != 1);
          p.dims[id] = batch[static_cast<size_t>(id - 128)];
        }
        continue;
      }
      auto [it, fresh] = p.dims.emplace(label, shape[axis]);
      if (!fresh && it->second != shape[axis])
        invalid_argument(op, "Expected dimension " + std::to_string(it->second) + " at axis " + std::to_string(axis) +
                                 " of the input shaped " + shape_list_str(shape) + " but got dimension " +
                                 std::to_string(shape[axis]));
      p.in_axes[i].push_back(label);
      p.in_bcast_one[i].push_back(false);
      ++axis;
    }
  }
  const bool out_ellipsis = std::find(out_labels.begin(), out_labels.end(), -1) != out_labels.end();
  if (!out_ellipsis && nb > 0)
    invalid_argument(op, "Output contains " + std::to_string(nb) +
                             " broadcasting dimension(s) but no ellipsis (...) was found in the output subscripts.");
  for (int label : out_labels) {
    if (label == -1) {
      for (int64_t k = 0; k < nb; ++k) {
        p.out_axes.push_back(static_cast<int>(128 + k));
        p.dims[static_cast<int>(128 + k)] = batch[static_cast<size_t>(k)];
      }
      continue;
    }
    if (!p.dims.count(label))
      invalid_argument(op, std::string("Output subscripts contain the label ") + static_cast<char>(label) +
                               " not present in the input subscripts: " + equation);
    p.out_axes.push_back(label);
  }
  for (int id : p.out_axes) p.out_shape.push_back(p.dims[id]);
  check_output_shape(op, p.out_shape);
  return p;
}

TensorValue einsum_forward(const Inputs& in, const Attrs& attrs) {
  static constexpr std::string_view op = "Einsum";
  expect_min_arity(op, in, 1);
  expect_same_dtype(op, in);
  expect_type(op, in[0]->dtype, TypeSet::Number, "inputs: N * T -> output:T");
  const EinsumPlan p = make_plan(op, attrs.get_string("equation"), in);

  // Every label once, in a fixed order; strides of each operand and the output per label.
  std::vector<int> ids;
  for (const auto& [id, dim] : p.dims) ids.push_back(id);
  int64_t space = 1;
  for (int id : ids) space = saturating_mul(space, p.dims.at(id));
  // The walk's length, not just the output's size, is what a tape script must bound.
  if (space > kMaxOutputElements)
    throw TfError("ResourceError", "einsum over " + std::to_string(space) + " index combinations is over the limit of " +
                                       std::to_string(kMaxOutputElements) + " [Op:Einsum]");
  auto strides_for = [&](const std::vector<int>& axes, const Shape& shape, const std::vector<bool>* bcast) {
    std::vector<int64_t> per_label(ids.size(), 0);
    const auto st = strides_of(shape);
    for (size_t a = 0; a < axes.size(); ++a) {
      if (bcast && (*bcast)[a]) continue;  // a size-1 batch dim reads element 0
      const size_t k = static_cast<size_t>(std::find(ids.begin(), ids.end(), axes[a]) - ids.begin());
      per_label[k] += st[a];
    }
    return per_label;
  };
  std::vector<std::vector<int64_t>> in_strides;
  for (size_t i = 0; i < in.size(); ++i) in_strides.push_back(strides_for(p.in_axes[i], in[i]->shape, &p.in_bcast_one[i]));
  const std::vector<int64_t> out_strides = strides_for(p.out_axes, p.out_shape, nullptr);
  // A label repeated in the output writes only where its copies agree: it is one label,
  // so the walk below visits exactly the diagonal.

  Eigen::ArrayXd out = Eigen::ArrayXd::Zero(num_elements(p.out_shape));
  std::vector<int64_t> idx(ids.size(), 0);
  std::vector<int64_t> dims;
  for (int id : ids) dims.push_back(p.dims.at(id));
  for (bool more = space > 0; more;) {
    double prod = 1;
    for (size_t i = 0; i < in.size(); ++i) {
      int64_t off = 0;
      for (size_t k = 0; k < ids.size(); ++k) off += idx[k] * in_strides[i][k];
      prod *= in[i]->data[off];
    }
    int64_t o = 0;
    for (size_t k = 0; k < ids.size(); ++k) o += idx[k] * out_strides[k];
    out[o] += prod;
    more = false;
    for (size_t k = ids.size(); k-- > 0;) {  // the odometer: last label fastest
      if (++idx[k] < dims[k]) {
        more = true;
        break;
      }
      idx[k] = 0;
    }
  }
  if (is_integer(in[0]->dtype))
    for (Eigen::Index i = 0; i < out.size(); ++i) out[i] = int_result(to_i64(out[i]), in[0]->dtype);
  return make_tensor(in[0]->dtype, p.out_shape, std::move(out));
}

// --- gradient (TF's _EinsumGrad) ---

std::string without(const std::string& subs, const std::set<char>& drop) {
  std::string r;
  for (char ch : subs)
    if (!drop.count(ch)) r += ch;
  return r;
}

// Labels of `subs` not in `keep` (and not the ellipsis' dots), in order of first appearance.
std::vector<char> reduced_labels(const std::string& subs, const std::string& keep) {
  std::vector<char> r;
  for (char ch : subs)
    if (ch != '.' && keep.find(ch) == std::string::npos && std::find(r.begin(), r.end(), ch) == r.end()) r.push_back(ch);
  return r;
}

// The axis of the leftmost `label` in `subs` for an operand of rank `rank` (after an
// ellipsis, counted from the end), as _GetAxisFromLabel.
int64_t axis_of(const std::string& subs, char label, int64_t rank) {
  const size_t e = subs.find(kEllipsis);
  const std::string before = e == std::string::npos ? subs : subs.substr(0, e);
  const size_t i = before.find(label);
  if (i != std::string::npos) return static_cast<int64_t>(i);
  const std::string after = subs.substr(e + 3);
  return rank - static_cast<int64_t>(after.size()) + static_cast<int64_t>(after.find(label));
}

TensorId einsum_op(GradContext& c, std::vector<TensorId> operands, const std::string& equation) {
  return c.op("Einsum", operands, Attrs{{"equation", equation}});
}

// _GetGradReduced: the gradient of a unary einsum that sums labels away.
TensorId grad_reduced(GradContext& c, TensorId out_grad, const std::string& out_subs, const std::string& in_subs,
                      const Shape& in_shape, const std::vector<char>& reduced) {
  const int64_t rank = static_cast<int64_t>(in_shape.size());
  std::string reduced_subs(reduced.begin(), reduced.end());
  Shape reduced_dims;
  std::vector<int64_t> reduced_axes;
  for (char ch : reduced) {
    reduced_axes.push_back(axis_of(in_subs, ch, rank));
    reduced_dims.push_back(in_shape[static_cast<size_t>(reduced_axes.back())]);
  }
  // As TF counts it: the dots of an ellipsis make the labels "repeated" too.
  const std::set<char> in_set(in_subs.begin(), in_subs.end()), out_set(out_subs.begin(), out_subs.end());
  const bool repeated = in_set.size() + out_set.size() < in_subs.size() + out_subs.size();
  const std::string in_wo = without(in_subs, std::set<char>(reduced.begin(), reduced.end()));
  const Shape& g_shape = c.shape(out_grad);
  if (!repeated && in_wo == out_subs) {
    Shape kept = in_shape;
    for (int64_t a : reduced_axes) kept[static_cast<size_t>(a)] = 1;
    return c.op("BroadcastTo", {reshape(c, out_grad, kept)}, Attrs{{"shape", in_shape}});
  }
  Shape with_reduced = reduced_dims, ones(reduced.size(), 1);
  with_reduced.insert(with_reduced.end(), g_shape.begin(), g_shape.end());
  ones.insert(ones.end(), g_shape.begin(), g_shape.end());
  const TensorId b = c.op("BroadcastTo", {reshape(c, out_grad, ones)}, Attrs{{"shape", with_reduced}});
  return einsum_op(c, {b}, reduced_subs + out_subs + "->" + in_subs);
}

// _GetGradWrt: the gradient for one operand of a binary einsum (before unbroadcasting).
TensorId grad_wrt(GradContext& c, TensorId out_grad, TensorId other, const Shape& in_shape, const std::string& in_subs,
                  const std::string& other_subs, const std::string& out_subs) {
  const std::vector<char> reduced = reduced_labels(in_subs, out_subs + other_subs);
  const std::string left = without(in_subs, std::set<char>(reduced.begin(), reduced.end()));
  const TensorId g = einsum_op(c, {out_grad, other}, out_subs + "," + other_subs + "->" + left);
  if (reduced.empty()) return g;
  return grad_reduced(c, g, left, in_subs, in_shape, reduced);
}

// The dims of `shape` an ellipsis in `subs` covers: [start, end).
std::pair<size_t, size_t> bcast_range(const std::string& subs, const Shape& shape) {
  const size_t e = subs.find(kEllipsis);
  if (e == std::string::npos) return {0, 0};
  const size_t after = subs.size() - (e + 3);
  return {e, shape.size() - after};
}

Grads einsum_grad(GradContext& c) {
  const std::string equation = c.attrs().get_string("equation");
  const size_t arrow = equation.find("->");
  const std::string in_subs = equation.substr(0, arrow), out_subs = equation.substr(arrow + 2);
  const TensorId g = c.grad();
  if (c.op().inputs.size() == 1) {
    const Shape& shape = c.shape(c.input(0));
    const std::vector<char> reduced = reduced_labels(in_subs, out_subs);
    if (reduced.empty()) return {einsum_op(c, {g}, out_subs + "->" + in_subs)};
    return {grad_reduced(c, g, out_subs, in_subs, shape, reduced)};
  }
  const size_t comma = in_subs.find(',');
  std::string x_subs = in_subs.substr(0, comma), y_subs = in_subs.substr(comma + 1);
  const bool out_ellipsis = out_subs.find(kEllipsis) != std::string::npos;
  if (out_ellipsis) {
    if (x_subs.find(kEllipsis) == std::string::npos) x_subs += kEllipsis;
    if (y_subs.find(kEllipsis) == std::string::npos) y_subs += kEllipsis;
  }
  const TensorId x = c.input(0), y = c.input(1);
  const Shape x_shape = c.shape(x), y_shape = c.shape(y);
  TensorId gx = if_needed(c, 0, [&] { return grad_wrt(c, g, y, x_shape, x_subs, y_subs, out_subs); });
  TensorId gy = if_needed(c, 1, [&] { return grad_wrt(c, g, x, y_shape, y_subs, x_subs, out_subs); });
  if (!out_ellipsis) return {gx, gy};
  const auto [bx0, bx1] = bcast_range(x_subs, x_shape);
  const auto [by0, by1] = bcast_range(y_subs, y_shape);
  const Shape bx(x_shape.begin() + static_cast<std::ptrdiff_t>(bx0), x_shape.begin() + static_cast<std::ptrdiff_t>(bx1));
  const Shape by(y_shape.begin() + static_cast<std::ptrdiff_t>(by0), y_shape.begin() + static_cast<std::ptrdiff_t>(by1));
  if (bx == by) return {gx, gy};
  // broadcast_gradient_args over the batch shapes, then sum and reshape.
  const size_t nb = std::max(bx.size(), by.size());
  auto reduce_axes = [&](const Shape& s, size_t start) {
    std::vector<int64_t> axes;
    for (size_t k = 0; k < nb; ++k) {
      const size_t pad = nb - s.size();
      const int64_t mine = k < pad ? 1 : s[k - pad];
      if (mine == 1) axes.push_back(static_cast<int64_t>(start + k));
    }
    return axes;
  };
  auto unbroadcast_to = [&](TensorId grad, const Shape& s, size_t start, const Shape& full) {
    if (grad == kNoId) return grad;
    const std::vector<int64_t> axes = reduce_axes(s, start);
    // (an empty axis list means "every axis" to the Sum op)
    const TensorId summed = axes.empty() ? grad : c.op("Sum", {grad}, Attrs{{"axis", axes}, {"keepdims", false}});
    return reshape(c, summed, full);
  };
  return {unbroadcast_to(gx, bx, bx0, x_shape), unbroadcast_to(gy, by, by0, y_shape)};
}

}  // namespace

// --- tf.einsum's equation handling ---

std::vector<EinsumStep> einsum_plan(const std::string& equation, size_t num_inputs) {
  std::string eq;
  for (char ch : equation)
    if (ch != ' ') eq += ch;
  // The ellipsis as one character, '0', as TF does before it matches the format.
  const bool has_ellipsis = eq.find(kEllipsis) != std::string::npos;
  if (has_ellipsis && eq.find('0') != std::string::npos)
    throw TfError("ValueError", "Invalid character \"0\" in equation: " + equation + ".");
  std::string r;
  for (size_t i = 0; i < eq.size(); ++i) {
    if (eq.compare(i, 3, kEllipsis) == 0) {
      r += '0';
      i += 2;
    } else {
      r += eq[i];
    }
  }
  auto label_ok = [&](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (has_ellipsis && ch == '0'); };
  const size_t arrow = r.find("->");
  const std::string lhs = r.substr(0, arrow);
  bool ok = true;
  for (char ch : lhs) ok = ok && (label_ok(ch) || ch == ',');
  if (arrow != std::string::npos)
    for (char ch : r.substr(arrow + 2)) ok = ok && label_ok(ch);
  if (!ok) throw TfError("ValueError", "Subscripts have incorrect format: " + r);
  std::vector<std::string> inputs;
  for (size_t start = 0;;) {
    const size_t comma = lhs.find(',', start);
    inputs.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (inputs.size() != num_inputs)
    throw TfError("ValueError", "Got " + std::to_string(num_inputs) + " inputs for equation \"" + equation +
                                    "\", expecting " + std::to_string(inputs.size()));
  std::string output;
  if (arrow == std::string::npos) {
    std::map<char, int> counts;
    for (char ch : lhs)
      if (ch != ',') ++counts[ch];
    for (const auto& [ch, n] : counts)  // std::map: sorted, '0' first
      if (n == 1) output += ch;
  } else {
    output = r.substr(arrow + 2);
  }
  if (std::set<char>(output.begin(), output.end()).size() != output.size())
    throw TfError("ValueError", "Output subscripts contain a label appearing more than once: " + equation);
  for (char ch : output)
    if (ch != '0' && lhs.find(ch) == std::string::npos)
      throw TfError("ValueError", std::string("Output subscripts contain the label ") + ch +
                                      " not present in the input subscripts.");
  auto restore = [](const std::string& s) {
    std::string out;
    for (char ch : s) out += ch == '0' ? std::string(kEllipsis) : std::string(1, ch);
    return out;
  };

  std::vector<EinsumStep> steps;
  if (inputs.size() <= 2) {
    std::string full;
    for (size_t i = 0; i < inputs.size(); ++i) full += (i ? "," : "") + restore(inputs[i]);
    std::vector<size_t> operands;
    for (size_t i = 0; i < inputs.size(); ++i) operands.push_back(i);
    steps.push_back({full + "->" + restore(output), operands});
    return steps;
  }
  // Left to right: the running result keeps the labels later operands or the output use.
  std::string acc = inputs[0];
  size_t acc_id = 0;
  for (size_t i = 1; i < inputs.size(); ++i) {
    std::string keep;
    if (i + 1 == inputs.size()) {
      keep = output;
    } else {
      std::string later = output;
      for (size_t j = i + 1; j < inputs.size(); ++j) later += inputs[j];
      for (char ch : acc + inputs[i])
        if (later.find(ch) != std::string::npos && keep.find(ch) == std::string::npos) keep += ch;
    }
    steps.push_back({restore(acc) + "," + restore(inputs[i]) + "->" + restore(keep), {acc_id, i}});
    acc = keep;
    acc_id = num_inputs + steps.size() - 1;
  }
  return steps;
}

void register_einsum_ops() {
  add_op("Einsum", [](const Inputs& in, const Attrs& a) { return one(einsum_forward(in, a)); }, einsum_grad,
         "d einsum(x, y)/dx = einsum of g and y back to x's labels (summed labels broadcast back)");
}

}  // namespace ts

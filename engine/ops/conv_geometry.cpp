#include "conv_geometry.h"

#include <cstdint>

namespace ts::kernels {

namespace {

std::vector<int64_t> four(std::string_view op, const Attrs& attrs, const char* key, const char* what) {
  std::vector<int64_t> v = attrs.get_ints(key);
  if (v.empty()) v = {1, 1, 1, 1};
  if (v.size() != 4)
    invalid_argument(op, std::string("Sliding window ") + what + " field must specify 4 dimensions");
  for (int64_t x : v) {
    // The kernels read these attrs as int32s.
    if (x > INT32_MAX || x < INT32_MIN)
      invalid_argument(op, std::string("Attr ") + key + " has value " + std::to_string(x) + " out of range for an int32");
    if (x < 1) invalid_argument(op, std::string("Sliding window ") + what + " must be positive, got " + std::to_string(x));
  }
  if (v[0] != 1 || v[3] != 1)
    invalid_argument(op, std::string("Current implementation does not yet support ") + what +
                             " in the batch and depth dimensions.");
  return v;
}

// One spatial dim: the output size and the padding before it.
void window(std::string_view op, int64_t in, int64_t k, int64_t stride, int64_t dilation, bool same, int64_t& out,
            int64_t& pad_before) {
  const int64_t effective = (k - 1) * dilation + 1;
  if (same) {
    out = (in + stride - 1) / stride;
    const int64_t needed = std::max<int64_t>(0, (out - 1) * stride + effective - in);
    pad_before = needed / 2;
  } else {
    out = (in - effective + stride) / stride;
    pad_before = 0;
  }
  if (out < 0)
    invalid_argument(op, "Computed output size would be negative: " + std::to_string(out) + " [input_size: " +
                             std::to_string(in) + ", effective_filter_size: " + std::to_string(effective) +
                             ", stride: " + std::to_string(stride) + "]");
}

bool same_padding(std::string_view op, const Attrs& attrs) {
  const std::string p = attrs.get_string("padding", "VALID");
  if (p != "SAME" && p != "VALID")
    invalid_argument(op, "Value for attr 'padding' of \"" + p + "\" is not in the list of allowed values: \"SAME\", \"VALID\"");
  return p == "SAME";
}

}  // namespace

ConvGeometry conv_geometry(std::string_view op, const Shape& input, const Shape& filter, const Attrs& attrs,
                           bool depthwise) {
  if (input.size() != 4) invalid_argument(op, "input must be 4-dimensional" + shape_list_str(input));
  if (filter.size() != 4) invalid_argument(op, "filter must be 4-dimensional: " + shape_list_str(filter));
  if (num_elements(filter) == 0)
    invalid_argument(op, "filter must not have zero elements (i.e. all dimensions must be non-zero)");
  ConvGeometry g;
  g.batch = input[0];
  g.in_h = input[1];
  g.in_w = input[2];
  g.in_c = input[3];
  g.k_h = filter[0];
  g.k_w = filter[1];
  g.out_c = filter[3];
  if (depthwise) {
    if (filter[2] != g.in_c)
      invalid_argument(op, "input and filter must have the same depth: " + std::to_string(g.in_c) + " vs " +
                               std::to_string(filter[2]));
    g.multiplier = filter[3];
    g.out_c = g.in_c * g.multiplier;
  } else if (filter[2] <= 0 || g.in_c % filter[2] != 0)
    invalid_argument(op, "input depth must be evenly divisible by filter depth: " + std::to_string(g.in_c) + " vs " +
                             std::to_string(filter[2]));
  if (filter[2] != g.in_c)
    invalid_argument(op, "grouped convolutions (input depth " + std::to_string(g.in_c) + ", filter depth " +
                             std::to_string(filter[2]) + ") are not supported in tape scripts");
  const std::vector<int64_t> s = four(op, attrs, "strides", "strides");
  const std::vector<int64_t> d = four(op, attrs, "dilations", "dilations");
  g.stride_h = s[1];
  g.stride_w = s[2];
  g.dilation_h = d[1];
  g.dilation_w = d[2];
  const bool same = same_padding(op, attrs);
  window(op, g.in_h, g.k_h, g.stride_h, g.dilation_h, same, g.out_h, g.pad_top);
  window(op, g.in_w, g.k_w, g.stride_w, g.dilation_w, same, g.out_w, g.pad_left);
  check_output_shape(op, {g.batch, g.out_h, g.out_w, g.out_c});
  return g;
}

ConvGeometry pool_geometry(std::string_view op, const Shape& input, const Attrs& attrs) {
  if (input.size() != 4) invalid_argument(op, "input must be 4-dimensional");
  const std::vector<int64_t> k = four(op, attrs, "ksize", "ksize");
  const std::vector<int64_t> s = four(op, attrs, "strides", "stride");
  ConvGeometry g;
  g.batch = input[0];
  g.in_h = input[1];
  g.in_w = input[2];
  g.in_c = g.out_c = input[3];
  g.k_h = k[1];
  g.k_w = k[2];
  g.stride_h = s[1];
  g.stride_w = s[2];
  const bool same = same_padding(op, attrs);
  window(op, g.in_h, g.k_h, g.stride_h, 1, same, g.out_h, g.pad_top);
  window(op, g.in_w, g.k_w, g.stride_w, 1, same, g.out_w, g.pad_left);
  return g;
}

}  // namespace ts::kernels

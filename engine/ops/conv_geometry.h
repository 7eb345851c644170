// Where a 2-D convolution or pooling window sits: TF's windowed output sizes and padding
// (GetWindowedOutputSizeVerbose) for NHWC tensors, shared by conv_ops.cpp and
// pooling_ops.cpp.
#pragma once
#include <string_view>

#include "kernel_util.h"

namespace ts::kernels {

struct ConvGeometry {
  int64_t batch = 0, in_h = 0, in_w = 0, in_c = 0;
  int64_t k_h = 0, k_w = 0, out_c = 0;  // pooling: out_c = in_c
  int64_t multiplier = 0;                // depthwise: out_c = in_c * multiplier (0: a full convolution)
  int64_t out_h = 0, out_w = 0;
  int64_t stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
  int64_t pad_top = 0, pad_left = 0;
};

// Conv2D: input [N, H, W, C], filter [KH, KW, C, OC]; attrs strides, dilations, padding.
// Depthwise (DepthwiseConv2dNative): filter [KH, KW, C, M], output C * M channels.
ConvGeometry conv_geometry(std::string_view op, const Shape& input, const Shape& filter, const Attrs& attrs,
                           bool depthwise = false);
// MaxPool/AvgPool: input [N, H, W, C]; attrs ksize, strides (4 ints each), padding.
ConvGeometry pool_geometry(std::string_view op, const Shape& input, const Attrs& attrs);

}  // namespace ts::kernels

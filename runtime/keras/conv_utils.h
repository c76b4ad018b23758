// Keras's conv_utils (TF 2.15): the argument normalizers and the output-length
// rules the convolution and pooling layers share, with Keras's texts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/value/value.h"

namespace ag::keras {

/// conv_utils.normalize_tuple: an int or an iterable of `n` ints as a tuple;
/// ValueError "The `strides` argument must be a tuple of 2 integers.
/// Received: (1, 0) including {0} that does not satisfy the requirement `> 0`."
Value normalize_tuple(const Value& value, int n, const std::string& name, bool allow_zero = false);
/// A tuple of ints (from normalize_tuple) as a vector.
std::vector<int64_t> tuple_ints(const Value& tuple);
/// conv_utils.normalize_padding: "valid", "same" or "causal", lowercased.
std::string normalize_padding(const Value& value);
/// conv_utils.normalize_data_format: "channels_last" (None) or "channels_first".
std::string normalize_data_format(const Value& value);
/// UnimplementedError unless `data_format` is channels_last (TF's CPU
/// convolution and pooling kernels take NHWC only).
void require_channels_last(const std::string& data_format, const char* layer);

/// conv_utils.conv_output_length; -1 (None) stays -1.
int64_t conv_output_length(int64_t input_length, int64_t filter_size, const std::string& padding, int64_t stride,
                           int64_t dilation = 1);
/// conv_utils.deconv_output_length (output_padding nullopt: inferred); -1 stays -1.
int64_t deconv_output_length(int64_t input_length, int64_t filter_size, const std::string& padding,
                             std::optional<int64_t> output_padding, int64_t stride, int64_t dilation = 1);

}  // namespace ag::keras

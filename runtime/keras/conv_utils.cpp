// Keras's conv_utils; see conv_utils.h.
#include "runtime/keras/conv_utils.h"

#include <algorithm>
#include <cctype>

#include "runtime/core/error.h"
#include "runtime/value/convert.h"
#include "runtime/value/set_value.h"

namespace ag::keras {

Value normalize_tuple(const Value& value, int n, const std::string& name, bool allow_zero) {
  std::string error_msg = "The `" + name + "` argument must be a tuple of " + std::to_string(n) +
                          " integers. Received: " + str(value);
  std::vector<Value> items;
  if (value.is_int() || value.is_bool()) {
    items.assign(static_cast<size_t>(n), Value(value.as_int()));
  } else {
    if (!value.is_list() && !value.is_tuple()) throw ValueError(error_msg);
    items = value.items();
    if (items.size() != static_cast<size_t>(n)) throw ValueError(error_msg);
    for (Value& item : items) {
      // int(x): ints, bools and floats (truncated) pass.
      if (item.is_float()) {
        item = Value(static_cast<int64_t>(item.as_float()));
      } else if (!item.is_index()) {
        // Keras appends with no space before "including".
        throw ValueError(error_msg + "including element " + str(item) + " of type <class '" + item.type_name() + "'>");
      }
    }
  }
  std::vector<Value> bad;
  for (const Value& v : items) {
    if (allow_zero ? v.as_int() < 0 : v.as_int() <= 0) bad.push_back(Value(v.as_int()));
  }
  if (!bad.empty()) {
    // A Python set of the values, printed in CPython's order.
    Value set = set_value::from_iterable(Value::list(std::move(bad)), false);
    throw ValueError(error_msg + " including " + set_value::repr(set) + " that does not satisfy the requirement `" +
                     (allow_zero ? ">= 0" : "> 0") + "`.");
  }
  std::vector<Value> ints;
  for (const Value& v : items) ints.emplace_back(v.as_int());
  return Value::tuple(std::move(ints));
}

std::vector<int64_t> tuple_ints(const Value& tuple) {
  std::vector<int64_t> out;
  for (const Value& v : iterate(tuple)) out.push_back(v.as_int());
  return out;
}

namespace {

std::string ascii_lower_conv(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::string normalize_padding(const Value& value) {
  std::string padding = ascii_lower_conv(str(value));
  if (padding != "valid" && padding != "same" && padding != "causal") {
    throw ValueError("The `padding` argument must be a list/tuple or one of \"valid\", \"same\" (or \"causal\", only "
                     "for `Conv1D). Received: " + padding);
  }
  return padding;
}

std::string normalize_data_format(const Value& value) {
  if (value.is_none()) return "channels_last";
  std::string format = ascii_lower_conv(str(value));
  if (format != "channels_first" && format != "channels_last") {
    throw ValueError("The `data_format` argument must be one of \"channels_first\", \"channels_last\". Received: " +
                     str(value));
  }
  return format;
}

void require_channels_last(const std::string& data_format, const char* layer) {
  if (data_format != "channels_last") {
    throw UnimplementedError(std::string("agc: ") + layer +
                             " supports data_format='channels_last' only (TF's CPU kernels too)");
  }
}

int64_t conv_output_length(int64_t input_length, int64_t filter_size, const std::string& padding, int64_t stride,
                           int64_t dilation) {
  if (input_length < 0) return -1;
  const int64_t dilated = filter_size + (filter_size - 1) * (dilation - 1);
  int64_t length = input_length;
  if (padding == "valid") length = input_length - dilated + 1;
  if (padding == "full") length = input_length + dilated - 1;
  // Python's floor division.
  const int64_t num = length + stride - 1;
  return num >= 0 ? num / stride : -((-num + stride - 1) / stride);
}

int64_t deconv_output_length(int64_t input_length, int64_t filter_size, const std::string& padding,
                             std::optional<int64_t> output_padding, int64_t stride, int64_t dilation) {
  if (input_length < 0) return -1;
  filter_size = filter_size + (filter_size - 1) * (dilation - 1);
  if (!output_padding) {
    if (padding == "valid") return input_length * stride + std::max<int64_t>(filter_size - stride, 0);
    if (padding == "full") return input_length * stride - (stride + filter_size - 2);
    return input_length * stride;
  }
  const int64_t pad = padding == "same" ? filter_size / 2 : padding == "valid" ? 0 : filter_size - 1;
  return (input_length - 1) * stride + filter_size - 2 * pad + *output_padding;
}

}  // namespace ag::keras

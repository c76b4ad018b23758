// tf.strings.* and tf.as_string on the registered string ops.
#include "runtime/api/tf_api.h"
#include "runtime/value/convert.h"

namespace ag::tf {

Value as_string(const Value& x, int64_t precision, bool scientific, bool shortest, int64_t width,
                const std::string& fill, std::string_view name) {
  TensorHandle in[1] = {to_tensor(x)};
  return Value(apply_op1(op::AsString, in,
                         Attrs{{"precision", precision},
                               {"scientific", scientific},
                               {"shortest", shortest},
                               {"width", width},
                               {"fill", fill}},
                         name));
}

Value string_to_number(const Value& x, DType out_type, std::string_view name) {
  TensorHandle in[1] = {to_tensor(x, DType::String)};
  return Value(apply_op1(op::StringToNumber, in, Attrs{{"out_type", out_type}}, name));
}

Value string_length(const Value& x, const std::string& unit, std::string_view name) {
  if (unit != "BYTE" && unit != "UTF8_CHAR") {
    throw ValueError("Value for attr 'unit' of \"" + unit + "\" is not in the list of allowed values: \"BYTE\", \"UTF8_CHAR\"");
  }
  TensorHandle in[1] = {to_tensor(x, DType::String)};
  return Value(apply_op1(op::StringLength, in, Attrs{{"unit", unit}}, name));
}

Value string_join(const Value& inputs, const std::string& separator, std::string_view name) {
  std::vector<TensorHandle> in;
  for (const Value& v : iterate(inputs)) in.push_back(to_tensor(v, DType::String));
  return Value(apply_op1(op::StringJoin, in, Attrs{{"separator", separator}, {"N", static_cast<int64_t>(in.size())}},
                         name));
}

}  // namespace ag::tf

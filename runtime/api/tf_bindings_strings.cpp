// tf.strings.* and tf.as_string bound to TF's Python signatures.
#include "runtime/api/tf_bindings_common.h"

namespace ag::tf::api {

using ag::api::int_arg;
using ag::api::str_arg;

Value as_string(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("as_string", {"input", std::nullopt}, {"precision", Value(-1)}, {"scientific", Value(false)}, {"shortest", Value(false)},
          {"width", Value(-1)}, {"fill", Value("")}, {"name", Value()});
  return tf::as_string(a[0], int_arg(a[1], "precision"), truthy(a[2]), truthy(a[3]), int_arg(a[4], "width"),
                       str_arg(a[5], "fill"));
}

Value string_to_number(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("string_to_number", {"input", std::nullopt}, {"out_type", Value()}, {"name", Value()});
  return tf::string_to_number(a[0], a[1].is_none() ? DType::Float32 : require_dtype(a[1]));
}

Value string_length(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("string_length", {"input", std::nullopt}, {"unit", Value("BYTE")}, {"name", Value()});
  return tf::string_length(a[0], str_arg(a[1], "unit"));
}

Value string_join(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("string_join", {"inputs", std::nullopt}, {"separator", Value("")}, {"name", Value()});
  return tf::string_join(a[0], str_arg(a[1], "separator"));
}

}  // namespace ag::tf::api

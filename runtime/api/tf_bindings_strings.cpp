// The hand-written parts of the tf.strings.* rows of tf_functions.def.
#include "runtime/api/binding.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_call.h"

namespace ag::tf::impl {

using ag::api::int_arg;
using ag::api::str_arg;

Value as_string(const TfCall& c) {
  return tf::as_string(c["input"], int_arg(c["precision"], "precision"), truthy(c["scientific"]),
                       truthy(c["shortest"]), int_arg(c["width"], "width"), str_arg(c["fill"], "fill"), c.node_name());
}

Value string_to_number(const TfCall& c) {
  const Value& t = c["out_type"];
  return tf::string_to_number(c["input"], t.is_none() ? DType::Float32 : require_dtype(t), c.node_name());
}

Value string_length(const TfCall& c) {
  return tf::string_length(c["input"], str_arg(c["unit"], "unit"), c.node_name());
}

Value string_join(const TfCall& c) {
  return tf::string_join(c["inputs"], str_arg(c["separator"], "separator"), c.node_name());
}

}  // namespace ag::tf::impl

// The hand-written parts of tf.constant, tf.convert_to_tensor, tf.cast,
// tf.print and tf.config.run_functions_eagerly (their rows and signatures:
// tf_functions.def).
#include "runtime/api/binding.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/function/function.h"

namespace ag::tf::impl {
namespace {

// constant(value, shape=...): a scalar fills the shape, anything else is
// reshaped to it (TF's _constant_impl with a static shape).
Value with_shape(const Value& t, const Value& shape) {
  const TensorHandle& h = t.as_tensor();
  if (h.shape().fully_defined() && h.shape().num_elements() == 1) {
    return tf::fill(shape, tf::reshape(t, Value::list()));
  }
  return tf::reshape(t, shape);
}

// output_stream=: the emitter passes sys.stdout / sys.stderr as those strings.
std::string stream_of(const Value& v) {
  if (v.is_str()) {
    const std::string& s = v.as_str();
    if (s == "sys.stderr" || s == "stderr") return "stderr";
    if (s == "sys.stdout" || s == "stdout") return "stdout";
    if (s == "log(info)" || s == "log(warning)" || s == "log(error)") return s;
  }
  throw ValueError("Unsupported output stream or logging level " + ag::str(v) +
                   ". Supported streams are sys.stdout, sys.stderr, tf.compat.v1.logging.info, "
                   "tf.compat.v1.logging.warning, tf.compat.v1.logging.error.");
}

}  // namespace

Value constant(const TfCall& c) {
  Value t = tf::constant(c["value"], ag::api::opt_dtype(c["dtype"]), c.node_name());
  if (!c["shape"].is_none()) return with_shape(t, c["shape"]);
  return t;
}

Value convert_to_tensor(const TfCall& c) {
  return tf::convert_to_tensor(c["value"], ag::api::opt_dtype(c["dtype"]), ag::api::opt_dtype(c["dtype_hint"]));
}

Value cast(const TfCall& c) { return tf::cast(c["x"], require_dtype(c["dtype"]), c.node_name()); }

Value print(const TfCall& c) {
  const Value& summarize = c["summarize"];
  int64_t n = summarize.is_none() ? 3 : ag::api::int_arg(summarize, "summarize");
  tf::print(c["inputs"].items(), ag::api::str_arg(c["sep"], "sep"), ag::api::str_arg(c["end"], "end"), n,
            stream_of(c["output_stream"]));
  return Value();
}

Value run_functions_eagerly(const TfCall& c) {
  ag::run_functions_eagerly(truthy(c["run_eagerly"]));
  return Value();
}

}  // namespace ag::tf::impl

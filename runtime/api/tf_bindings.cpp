// tf.constant, tf.convert_to_tensor, tf.identity, tf.cast, tf.print and
// tf.config.run_functions_eagerly bound to TF's Python signatures.
#include "runtime/api/tf_bindings_common.h"
#include "runtime/function/function.h"

namespace ag::tf::api {
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

Value constant(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("constant", {"value", std::nullopt}, {"dtype", Value()}, {"shape", Value()}, {"name", Value("Const")});
  Value t = tf::constant(a[0], ag::api::opt_dtype(a[1]));
  if (!a[2].is_none()) return with_shape(t, a[2]);
  return t;
}

Value convert_to_tensor(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("convert_to_tensor", {"value", std::nullopt}, {"dtype", Value()}, {"dtype_hint", Value()}, {"name", Value()});
  return tf::convert_to_tensor(a[0], ag::api::opt_dtype(a[1]), ag::api::opt_dtype(a[2]));
}

Value identity(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("identity", {"input", std::nullopt}, {"name", Value()});
  return tf::identity(a[0]);
}

Value cast(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("cast", {"x", std::nullopt}, {"dtype", std::nullopt}, {"name", Value()});
  return tf::cast(a[0], require_dtype(a[1]));
}

Value print(std::vector<Value> args, Kwargs kwargs) {
  Value stream("sys.stderr"), summarize(3), sep(" "), end("\n");
  for (auto& [k, v] : kwargs) {
    if (k == "output_stream") stream = v;
    else if (k == "summarize") summarize = v;
    else if (k == "sep") sep = v;
    else if (k == "end") end = v;
    else if (k != "name") throw TypeError("print_v2() got an unexpected keyword argument '" + k + "'");
  }
  int64_t n = summarize.is_none() ? 3 : ag::api::int_arg(summarize, "summarize");
  tf::print(args, ag::api::str_arg(sep, "sep"), ag::api::str_arg(end, "end"), n, stream_of(stream));
  return Value();
}

Value config_run_functions_eagerly(std::vector<Value> args, Kwargs kwargs) {
  AG_BIND("run_functions_eagerly", {"run_eagerly", std::nullopt});
  run_functions_eagerly(truthy(a[0]));
  return Value();
}

}  // namespace ag::tf::api

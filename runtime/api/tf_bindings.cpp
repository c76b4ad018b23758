// The hand-written parts of tf.constant, tf.convert_to_tensor, tf.cast,
// tf.print, tf.function and tf.config.run_functions_eagerly (their rows and signatures:
// tf_functions.def).
#include <algorithm>
#include <atomic>

#include "runtime/api/binding.h"
#include "runtime/api/py_sys.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/function/function.h"
#include "runtime/function/function_value.h"
#include "runtime/graph/tracing.h"
#include "runtime/ops/kernels/gemm.h"

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

// output_stream=: sys.stdout / sys.stderr, or a logging level.
std::string stream_of(const Value& v) {
  if (const char* stream = pymod::standard_stream(v)) return stream;
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

Value function(const TfCall& c) {
  FunctionOptions options;
  const Value& signature = c["input_signature"];
  if (!signature.is_none()) {
    if (!signature.is_list() && !signature.is_tuple()) {
      throw TypeError("input_signature must be either a tuple or a list, got " + signature.type_name() + ".");
    }
    options.input_signature = signature.items();
  }
  const Value& relax = c["experimental_relax_shapes"];
  options.reduce_retracing = truthy(c["reduce_retracing"]) || (!relax.is_none() && truthy(relax));
  options.autograph = truthy(c["autograph"]);
  if (!c["jit_compile"].is_none()) options.jit_compile = truthy(c["jit_compile"]);
  if (!c["func"].is_none()) return wrap_function(c["func"], options);
  // @tf.function(...) with options: the decorator.
  return Value::callable("decorator", [options](std::vector<Value> args, Kwargs kwargs) -> Value {
    if (args.size() != 1 || !kwargs.empty()) {
      throw TypeError("decorator() takes 1 positional argument but " + std::to_string(args.size()) + " were given");
    }
    return wrap_function(args[0], options);
  });
}

Value run_functions_eagerly(const TfCall& c) {
  ag::run_functions_eagerly(truthy(c["run_eagerly"]));
  return Value();
}

Value functions_run_eagerly(const TfCall&) { return Value(ag::functions_run_eagerly()); }

/// tf.config.threading: the kernels' thread count (kernels::set_intra_op_threads;
/// agc's kernels use at most two threads, so any count above 1 means both).
/// TF refuses a change once its runtime has started (a RuntimeError); agc's
/// kernels read the setting at each call, so it takes effect at any time.
/// agc runs a graph's ops one after another, so the inter-op count is only
/// recorded, for the getter.
Value set_intra_op_parallelism_threads(const TfCall& c) {
  kernels::set_intra_op_threads(static_cast<int>(std::max<int64_t>(0, ag::api::int_arg(c["num_threads"], "num_threads"))));
  return Value();
}
Value get_intra_op_parallelism_threads(const TfCall&) { return Value(int64_t{kernels::intra_op_threads()}); }

namespace {
std::atomic<int64_t> inter_op_threads{0};
}
Value set_inter_op_parallelism_threads(const TfCall& c) {
  inter_op_threads = ag::api::int_arg(c["num_threads"], "num_threads");
  return Value();
}
Value get_inter_op_parallelism_threads(const TfCall&) { return Value(inter_op_threads.load()); }

/// False while a tf.function is being traced (its Python runs to build a
/// graph), true otherwise, run_functions_eagerly(True) included.
Value executing_eagerly(const TfCall&) { return Value(current_graph() == nullptr); }

}  // namespace ag::tf::impl

// tf.autograph.to_code and to_graph (tf_functions.def's autograph rows).
// to_code gives the text of a function's AutoGraph conversion, as `agc
// to-code` prints it: the program carries the text of each module-level
// function and method it may ask for (the emitter embeds it where the program
// calls to_code: with_converted_code in runtime/value/user_function.h).
// to_graph gives the conversion itself as a function, which runs eagerly
// when called outside a tf.function, as TF's does. trace is Python's print,
// as TF's is: it runs when the graph is built, not when it runs.
#include <memory>
#include <string>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"
#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"

namespace ag::tf::impl {

namespace {

/// The user function behind `entity` (a tf.function: its Python function, as TF unwraps it).
std::shared_ptr<UserFunction> user_function(Value entity, const char* api) {
  if (entity.is_object() && object_hasattr(entity, "python_function")) entity = entity.getattr("python_function");
  std::shared_ptr<UserFunction> u = entity.is_callable() ? entity.as_callable().user : nullptr;
  if (u == nullptr) {
    throw TypeError(std::string(api) + ": expected a function, got a '" + entity.type_name() + "' value");
  }
  return u;
}

/// agc converts a def nested in another one with it, and has no conversion
/// of a function AutoGraph cannot convert.
[[noreturn]] void no_conversion(const char* api, const UserFunction& u, const char* what) {
  throw NotImplementedError(std::string(api) + ": agc has no " + what + " of '" + u.qualname +
                            "': AutoGraph cannot convert it (TF runs it as written; `agc to-code` says why), "
                            "or it is defined inside another function (use that one's)");
}

}  // namespace

Value autograph_to_code(const TfCall& c) {
  std::shared_ptr<UserFunction> u = user_function(c["entity"], "tf.autograph.to_code");
  if (u->converted_code == nullptr) no_conversion("tf.autograph.to_code", *u, "converted code");
  return Value(std::string(u->converted_code));
}

Value autograph_trace(const TfCall& c) { return py::print(c["args"].items(), {}); }

Value autograph_to_graph(const TfCall& c) {
  std::shared_ptr<UserFunction> u = user_function(c["entity"], "tf.autograph.to_graph");
  if (!u->converted) no_conversion("tf.autograph.to_graph", *u, "conversion");
  // A user function (tf.function takes it) whose body is the conversion,
  // named after the generated function as TF's is.
  return make_function("tf__" + u->name, u->params, u->converted);
}

}  // namespace ag::tf::impl

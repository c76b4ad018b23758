// tf.autograph.to_code (tf_functions.def's autograph.to_code row): the text
// of a function's AutoGraph conversion, as `agc to-code` prints it. The
// program carries the text of each module-level function and method it may
// ask for (the emitter embeds it where the program calls to_code:
// with_converted_code in runtime/value/user_function.h).
#include <string>

#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"
#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"

namespace ag::tf::impl {

Value autograph_to_code(const TfCall& c) {
  Value f = c["entity"];
  // A tf.function: its Python function, as TF unwraps it.
  if (f.is_object() && object_hasattr(f, "python_function")) f = f.getattr("python_function");
  const UserFunction* u = f.is_callable() ? f.as_callable().user.get() : nullptr;
  if (u == nullptr) {
    throw TypeError("tf.autograph.to_code: expected a function, got a '" + f.type_name() + "' value");
  }
  if (u->converted_code != nullptr) return Value(std::string(u->converted_code));
  // agc converts a def nested in another one with it, and has no text of a
  // function AutoGraph cannot convert.
  throw NotImplementedError("tf.autograph.to_code: agc has no converted code of '" + u->qualname +
                            "': AutoGraph cannot convert it (TF runs it as written; `agc to-code` says why), "
                            "or it is defined inside another function (print that one's code)");
}

}  // namespace ag::tf::impl

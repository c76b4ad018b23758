// Keras's call context on errors raised in a layer's call(); see call_context.h.
#include "runtime/keras/call_context.h"

#include <optional>
#include <string>

#include "runtime/core/error.h"
#include "runtime/keras/layer.h"
#include "runtime/value/exception_value.h"
#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"

namespace ag::keras {
namespace {

/// Keras's format_argument_value over a nest (tf.nest.map_structure): a
/// tensor as "tf.Tensor(shape=(2, 3), dtype=float32)", anything else its
/// repr; the nest's containers keep their kind, holding the strings.
Value formatted(const Value& v) {
  switch (v.kind()) {
    case Kind::List:
    case Kind::Tuple: {
      std::vector<Value> items;
      for (const Value& x : v.items()) items.push_back(formatted(x));
      return v.is_list() ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    case Kind::Dict: {
      std::vector<std::pair<Value, Value>> items;
      for (const auto& [k, x] : v.as_dict().entries) items.emplace_back(k, formatted(x));
      return Value::dict(std::move(items));
    }
    case Kind::Tensor:
      return Value("tf.Tensor(shape=" + v.as_tensor().shape().str() + ", dtype=" + dtype_name(v.as_tensor().dtype()) +
                   ")");
    default: return Value(repr(v));
  }
}

/// The "  • name=value" lines of call()'s parameters bound to the call's
/// arguments (inspect.signature(call).bind); nullopt when they do not bind.
std::optional<std::string> arguments_context(const Value& call_fn, const std::vector<Value>& args,
                                             const Kwargs& kwargs) {
  const std::vector<Param>* params = function_params(call_fn);
  if (params == nullptr || params->empty()) return std::nullopt;
  std::vector<Value> bound;
  try {
    bound = bind_arguments("call", *params, args, kwargs);
  } catch (const Error&) {
    return std::nullopt;
  }
  std::string out;
  for (size_t i = 0; i < params->size() && i < bound.size(); ++i) {
    const Param& p = (*params)[i];
    std::string text;
    // An unfilled *args or **kwargs is not among BoundArguments.arguments:
    // Keras prints the parameter's default, inspect's marker class.
    bool empty_var = (p.kind == ParamKind::VarPositional && bound[i].items().empty()) ||
                     (p.kind == ParamKind::VarKeyword && bound[i].as_dict().entries.empty());
    if (empty_var) {
      text = "<class 'inspect._empty'>";
    } else {
      Value f = formatted(bound[i]);
      text = f.is_str() ? f.as_str() : str(f);
    }
    out += (out.empty() ? "" : "\n") + std::string("  \u2022 ") + p.name + "=" + text;
  }
  return out;
}

}  // namespace

Value call_with_context(const Value& layer, const Value& call_fn, std::vector<Value> args, Kwargs kwargs) {
  std::vector<Value> args_copy = args;
  Kwargs kwargs_copy = kwargs;
  try {
    return call_fn(std::move(args), std::move(kwargs));
  } catch (const Error& e) {
    if (!e.is_exception()) throw;
    Value raised = exception_value(e);
    if (raised.hasattr("_keras_call_info_injected")) throw;  // only the innermost failing layer speaks
    // Raised by this layer's __call__ around call() (its InputSpec), not by call().
    if (raised_before_call_of(raised, layer)) throw;
    std::optional<std::string> context = arguments_context(call_fn, args_copy, kwargs_copy);
    if (!context) throw;
    // The original message: an OpError's, else the first argument's str.
    std::string message;
    if (is_instance(raised, exception_class("OpError"))) {
      message = str(raised.getattr("message"));
    } else if (Value a = raised.getattr("args"); a.is_tuple() && !a.items().empty()) {
      message = str(a.items()[0]);
    }
    std::string name = "layer '" + layer_name(layer) + "' (type " + layer.type_name() + ")";
    std::string text = "Exception encountered when calling " + name + ".\n\n" + message +
                       "\n\nCall arguments received by " + name + ":\n" + *context;
    Value renewed;
    try {
      renewed = raised.as_object().cls({Value(text)}, {});
    } catch (const TypeError&) {
      renewed = make_exception("RuntimeError", {Value(text)});  // a class whose __init__ takes other arguments
    }
    renewed.setattr("_keras_call_info_injected", true);
    raise_value(renewed);
  }
}

}  // namespace ag::keras

// Argument helpers for the Python-facing API (the builtins; the tf.* rows'
// implementations, whose binding tf_call.h does): internal to runtime/api, not
// included by generated code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/api/tf_api.h"
#include "runtime/function/concrete_function.h"
#include "runtime/value/dtype_value.h"

namespace ag::api {

/// Binds a builtin's call to its Python signature (parameter names and defaults):
///   auto a = bind_builtin("enumerate", {{"iterable"}, {"start", Value(0)}}, args, kwargs);
/// TypeError in Python's words for missing, duplicate or unexpected arguments.
inline std::vector<Value> bind_builtin(const char* fn, const std::vector<Param>& params, std::vector<Value>& args,
                                       Kwargs& kwargs) {
  return bind_arguments(fn, params, std::move(args), std::move(kwargs));
}

/// A positional-only builtin's arguments, checked as CPython does: "len()
/// takes no keyword arguments", "len() takes exactly one argument (2 given)"
/// (max == min == 1), "divmod expected 2 arguments, got 1", "range expected
/// at least 1 argument, got 0", "getattr expected at most 3 arguments, got 4".
void check_positional(const char* fn, const std::vector<Value>& args, const Kwargs& kwargs, size_t min, size_t max);
/// Takes keyword `name` out of `kwargs` (nullopt when absent).
std::optional<Value> take_kwarg(Kwargs& kwargs, const char* name);
/// TypeError "fn() got an unexpected keyword argument 'k'" for any left.
void no_more_kwargs(const char* fn, const Kwargs& kwargs);

/// None -> nullopt, else the dtype the value names (require_dtype()).
std::optional<DType> opt_dtype(const Value& v);
/// An int argument: an int, a bool, or an eager integer scalar tensor.
/// TypeError "'<param>' must be an int, not float" otherwise.
int64_t int_arg(const Value& v, const char* param);
/// A str argument; TypeError naming `param` otherwise.
const std::string& str_arg(const Value& v, const char* param);

/// The Python scalar of an eager tensor with exactly one element (int, float,
/// bool or bytes-as-str), for int()/float()/bool() of tensors. `fn` names the
/// caller in TypeError texts.
Value tensor_scalar(const Value& t, const char* fn);

}  // namespace ag::api

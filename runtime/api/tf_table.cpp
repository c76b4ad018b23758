// The tf.* functions as tf_functions.def declares them: for every row, the
// binding generated code calls (ag::tf::api::<cpp_name>(args, kwargs)), its
// signature parsed once; for the plain op wrappers also the typed function
// (ag::tf::tanh(x)); for the classes their interned class values.
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/api/tf_table_macros.h"
#include "runtime/value/symbolic_dispatch.h"

namespace ag::tf {

#define AG_TF_UNARY(cpp_name, paths, signature, op_name, hint_text) \
  Value cpp_name(const Value& x, std::string_view name) { return unary_op(OpType(op_name), x, name); }
#define AG_TF_BINARY(cpp_name, paths, signature, op_name, hint_text) \
  Value cpp_name(const Value& x, const Value& y, std::string_view name) {  \
    return binary_op(OpType(op_name), x, y, name);                        \
  }
#include "runtime/api/tf_functions.def"
namespace api {

// A row's TfFunction, made (its signature parsed) on the row's first call.
#define AG_TF_ROW(signature, op_name, hint_text) static const TfFunction row(signature, op_name, hint_text)
// A KerasTensor among the arguments makes the call a layer of its functional
// model (value/symbolic_dispatch.h), named after the row's first path.
#define AG_TF_DISPATCH(cpp_name, paths) \
  if (std::optional<Value> d = symbolic_dispatch(AG_TF_FIRST paths, &cpp_name, args, kwargs)) return *d

#define AG_TF_UNARY(cpp_name, paths, signature, op_name, hint_text) \
  Value cpp_name(std::vector<Value> args, Kwargs kwargs) {          \
    AG_TF_DISPATCH(cpp_name, paths);                                \
    AG_TF_ROW(signature, op_name, hint_text);                       \
    TfCall c = row.bind(std::move(args), std::move(kwargs));        \
    return unary_op(c.op(), c.arg(0), c.node_name());               \
  }
#define AG_TF_BINARY(cpp_name, paths, signature, op_name, hint_text) \
  Value cpp_name(std::vector<Value> args, Kwargs kwargs) {           \
    AG_TF_DISPATCH(cpp_name, paths);                                 \
    AG_TF_ROW(signature, op_name, hint_text);                        \
    TfCall c = row.bind(std::move(args), std::move(kwargs));         \
    return binary_op(c.op(), c.arg(0), c.arg(1), c.node_name());     \
  }
#define AG_TF_FN(cpp_name, paths, signature, impl_fn, op_name, hint_text) \
  Value cpp_name(std::vector<Value> args, Kwargs kwargs) {                \
    AG_TF_DISPATCH(cpp_name, paths);                                      \
    AG_TF_ROW(signature, op_name, hint_text);                             \
    return impl::impl_fn(row.bind(std::move(args), std::move(kwargs)));   \
  }
#define AG_TF_CLASS(cpp_name, paths, signature, impl_fn)                                    \
  const Value& cpp_name() {                                                                \
    static const Value cls =                                                               \
        builtin_value("tf." AG_TF_FIRST paths, [](std::vector<Value> args, Kwargs kwargs) { \
          AG_TF_ROW(signature, "", "");                                                    \
          return impl::impl_fn(row.bind(std::move(args), std::move(kwargs)));              \
        });                                                                                \
    return cls;                                                                            \
  }
#include "runtime/api/tf_functions.def"
#undef AG_TF_ROW
#undef AG_TF_DISPATCH
}  // namespace api
}  // namespace ag::tf

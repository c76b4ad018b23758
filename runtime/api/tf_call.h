// What the hand-written part of a tf.* (or np.*) function gets: a row of
// tf_functions.def at run time (TfFunction: its signature parsed once, its op
// and node-name hint) and one call bound to it (TfCall: the arguments by
// parameter name, the op, the node name). Internal to runtime/api.
//
// The implementations the table's AG_TF_FN and AG_TF_CLASS rows name are
// declared here, in ag::tf::impl, from the table itself; each is defined by
// hand next to the logic it uses (tf_bindings*.cpp, or the tf_api*.cpp file
// holding the helpers it shares with the typed API).
#pragma once

#include <string_view>
#include <vector>

#include "runtime/api/tf_signature.h"
#include "runtime/ops/op_type.h"
#include "runtime/value/value.h"

namespace ag::tf {

class TfCall;

/// One row of tf_functions.def.
class TfFunction {
 public:
  /// `signature`: the row's Python signature text (std::invalid_argument
  /// when it does not parse); `op` and `hint` as the row gives them.
  TfFunction(std::string_view signature, std::string_view op, std::string_view hint);

  /// Binds a call's arguments (TypeError in Python's words when they do not fit).
  TfCall bind(std::vector<Value> args, Kwargs kwargs) const;

  const ag::api::Signature& signature() const { return sig_; }
  std::string_view op() const { return op_; }
  std::string_view hint() const { return hint_; }

 private:
  ag::api::Signature sig_;
  std::string_view op_;
  std::string_view hint_;
};

/// A call bound to a row: one value per parameter, defaults filled in.
class TfCall {
 public:
  TfCall(const TfFunction& fn, std::vector<Value> args) : fn_(&fn), args_(std::move(args)) {}

  /// The argument of parameter `param` (InternalError when the row has no
  /// such parameter: a mistake in agc, not the user's).
  const Value& operator[](std::string_view param) const;
  /// The argument of the i-th parameter.
  const Value& arg(size_t i) const { return args_.at(i); }
  /// The op the row names (as data).
  OpType op() const { return OpType(fn_->op()); }
  /// The row's op column as text: np_functions.def's `data` (the ufunc or
  /// reduction a shared impl computes: "add", "sum").
  std::string_view data() const { return fn_->op(); }
  /// The node name: the `name` argument when given (TF names the node after
  /// it; while tracing, a name TF rejects is its ValueError), else the
  /// row's hint. Eagerly TF ignores `name`, and so does agc.
  std::string_view node_name() const;

 private:
  const TfFunction* fn_;
  std::vector<Value> args_;
};

namespace impl {
#define AG_TF_FN(cpp_name, paths, signature, impl, op, hint) Value impl(const TfCall& c);
#define AG_TF_CLASS(cpp_name, paths, signature, impl) Value impl(const TfCall& c);
#include "runtime/api/tf_functions.def"
}  // namespace impl

}  // namespace ag::tf

// The NumPy module's implementations (np_functions.def's AG_NP_FN rows),
// bound the same way.
namespace ag::np::impl {
using tf::TfCall;
#define AG_NP_FN(cpp_name, paths, signature, impl, data) Value impl(const TfCall& c);
#include "runtime/api/np_functions.def"
/// NotImplementedError when the call passes NumPy's out= (agc's results are new arrays).
void no_out(const TfCall& c);
}  // namespace ag::np::impl

// The standard modules' implementations (py_modules.def's AG_PY_FN rows),
// bound the same way.
namespace ag::pymod::impl {
using tf::TfCall;
#define AG_PY_FN(cpp_name, paths, signature, impl, data) Value impl(const TfCall& c);
#include "runtime/api/py_modules.def"
}  // namespace ag::pymod::impl

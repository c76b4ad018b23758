// tf.py_function (tf_functions.def's py_function row): TF's eager_py_func.
// Eagerly it calls the function on the inputs as tensors; while tracing it
// adds an EagerPyFunc node (runtime/ops/py_func.h) whose host function runs
// the compiled Python function eagerly each time the graph runs, so its side
// effects happen on every call, not once per trace.
#include <vector>

#include "runtime/api/binding.h"
#include "runtime/api/tf_call.h"
#include "runtime/graph/tracing.h"
#include "runtime/ops/op_type.h"
#include "runtime/ops/py_func.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"

namespace ag::tf::impl {
namespace {

/// The results of `func(*inputs)` as tensors of `dtypes`: a list or tuple
/// result when Tout is a list (one value for a one-element Tout), else the
/// value itself.
std::vector<Tensor> call_host(const Value& func, const std::vector<Tensor>& inputs, const std::vector<DType>& dtypes,
                              bool tout_is_list) {
  std::vector<Value> args(inputs.begin(), inputs.end());
  Value result = func(std::move(args), {});
  std::vector<Value> values;
  if (dtypes.empty()) {
    values = {};
  } else if (!tout_is_list) {
    values = {result};
  } else if (result.is_list() || result.is_tuple()) {
    values = result.items();
  } else {
    values = {result};
  }
  if (values.size() != dtypes.size()) {
    throw InvalidArgumentError("The function returned " + std::to_string(values.size()) +
                               " values, but expects to see " + std::to_string(dtypes.size()) + " values.");
  }
  std::vector<Tensor> out;
  for (size_t i = 0; i < values.size(); ++i) out.push_back(to_tensor(values[i], dtypes[i]).value());
  return out;
}

}  // namespace

Value py_function(const TfCall& c) {
  Value func = c["func"];
  if (!func.is_callable() && !func.is_object()) {
    throw TypeError("Expected func to be callable, got func of type " + func.type_name());
  }
  std::vector<TensorHandle> inputs;
  for (const Value& v : iterate(c["inp"])) inputs.push_back(to_tensor(v));
  const Value& tout = c["Tout"];
  const bool tout_is_list = tout.is_list() || tout.is_tuple();
  std::vector<DType> dtypes;
  if (tout_is_list) {
    for (const Value& d : tout.items()) dtypes.push_back(require_dtype(d));
  } else if (!tout.is_none()) {
    dtypes.push_back(require_dtype(tout));
  }
  std::vector<TensorHandle> outputs;
  if (current_graph() == nullptr) {
    std::vector<Tensor> values;
    for (const TensorHandle& h : inputs) values.push_back(h.value());
    for (Tensor& t : call_host(func, values, dtypes, tout_is_list)) outputs.emplace_back(std::move(t));
  } else {
    std::string token = register_host_function([func, dtypes, tout_is_list](const std::vector<Tensor>& in) {
      // The function runs eagerly whatever graph is being built when the node runs.
      EagerScope eager;
      return call_host(func, in, dtypes, tout_is_list);
    });
    std::vector<int64_t> tout_attr;
    for (DType d : dtypes) tout_attr.push_back(static_cast<int64_t>(d));
    outputs = apply_op(op::EagerPyFunc, inputs, Attrs{{"token", token}, {"Tout", tout_attr}}, c.node_name());
  }
  if (tout.is_none()) return Value();
  if (!tout_is_list) return Value(outputs.at(0));
  std::vector<Value> items(outputs.begin(), outputs.end());
  return Value::list(std::move(items));
}

}  // namespace ag::tf::impl

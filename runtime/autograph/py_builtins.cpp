#include "runtime/autograph/py_builtins.h"

#include <algorithm>
#include <string>

#include "runtime/api/py_sys.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/core/tensor_format.h"
#include "runtime/graph/tracing.h"
#include "runtime/ops/logging_ops.h"
#include "runtime/ops/py_func.h"
#include "runtime/value/convert.h"

namespace ag::autograph {

namespace {

std::string text_kwarg(const Value& v, const char* what, const char* fallback) {
  if (v.is_none()) return fallback;
  if (!v.is_str()) throw TypeError(std::string(what) + " must be None or a string, not " + v.type_name());
  return v.as_str();
}

}  // namespace

Value print_(const std::vector<Value>& objects, const Kwargs& kwargs) {
  std::vector<Value> unknown;
  for (const auto& [key, value] : kwargs) {
    if (key != "sep" && key != "end" && key != "file" && key != "flush") unknown.emplace_back(key);
  }
  if (!unknown.empty()) throw ValueError("invalid keyword arguments: " + repr(Value::tuple(std::move(unknown))));
  if (std::none_of(objects.begin(), objects.end(), [](const Value& v) { return v.is_tensor(); })) {
    return py::print(objects, kwargs);
  }
  // py_func printing: the tensors' values when the graph runs, the other
  // objects as they print now, flushed (TF's default for it).
  std::string sep = " ", end = "\n", stream = "stdout";
  for (const auto& [key, value] : kwargs) {
    if (key == "sep") sep = text_kwarg(value, "sep", " ");
    if (key == "end") end = text_kwarg(value, "end", "\n");
    if (key == "file" && !value.is_none()) {
      const char* standard = pymod::standard_stream(value);
      if (!standard) throw AttributeError("'" + value.type_name() + "' object has no attribute 'write'");
      stream = standard;
    }
  }
  std::vector<std::string> pieces{""};
  std::vector<TensorHandle> tensors;
  for (size_t i = 0; i < objects.size(); ++i) {
    if (i > 0) pieces.back() += sep;
    if (objects[i].is_tensor()) {
      tensors.push_back(objects[i].as_tensor());
      pieces.emplace_back();
    } else {
      pieces.back() += str(objects[i]);
    }
  }
  pieces.back() += end;
  // TF's _tf_py_func_print: each tensor printed as NumPy prints its value (a
  // string scalar as its text), between the pieces.
  auto print_values = [pieces, stream](const std::vector<Tensor>& values) {
    std::string text = pieces[0];
    for (size_t i = 0; i < values.size(); ++i) {
      const Tensor& t = values[i];
      text += t.dtype() == DType::String && t.rank() == 0 ? t.scalar_value<std::string>() : numpy_str(t);
      text += pieces[i + 1];
    }
    emit_print(stream, text);
    return std::vector<Tensor>{};
  };
  if (current_graph() == nullptr) {
    std::vector<Tensor> values;
    for (const TensorHandle& t : tensors) values.push_back(t.value());
    print_values(values);
    return Value();
  }
  apply_op(op::EagerPyFunc, tensors,
           Attrs{{"token", register_host_function(print_values)}, {"Tout", std::vector<int64_t>{}}}, "EagerPyFunc");
  return Value();
}

Value range_(std::vector<Value> args, Kwargs kwargs) {
  if (std::any_of(args.begin(), args.end(), [](const Value& a) { return a.is_tensor(); }) && kwargs.empty() &&
      !args.empty() && args.size() <= 3) {
    return args.size() == 1 ? tf::range(args[0]) : tf::range(args[0], args[1], args.size() > 2 ? args[2] : Value(1));
  }
  return py::range(std::move(args), std::move(kwargs));
}

}  // namespace ag::autograph

#include "runtime/value/variable_value.h"

#include <span>
#include <utility>
#include <vector>

#include "runtime/core/finally.h"
#include "runtime/core/tensor_format.h"
#include "runtime/graph/evaluate.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/tape.h"
#include "runtime/graph/tracing.h"
#include "runtime/ops/eager.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/v1_graph_attrs.h"

namespace ag::variable_value {
namespace {

thread_local CreationScope* t_scope = nullptr;

Attrs var_attrs(const Variable& v) { return Attrs{{"var", v.id()}}; }

/// The initial value as an eager tensor: TF lifts the ops computing an
/// initializer out of the function and runs them once, so one computed from
/// the function's arguments cannot be used.
Tensor initial_tensor(const Value& initial, std::optional<DType> dtype) {
  TensorHandle h = to_tensor(initial, dtype);
  if (!h.symbolic()) return h.value();
  if (std::optional<Tensor> lifted = lift_to_eager(h.output())) return *lifted;
  throw ValueError("agc: the initial value of a tf.Variable created inside a tf.function cannot depend on the "
                   "function's arguments (only on their static shapes); got " + str(Value(h)));
}

}  // namespace

CreationScope::CreationScope(bool allowed) : allowed_(allowed), previous_(t_scope) { t_scope = this; }
CreationScope::~CreationScope() { t_scope = previous_; }

namespace {

/// tf.Variable in a TF1 graph: a variable without a value, and the node
/// that gives it its initial value (run by global_variables_initializer's op
/// or `v.initializer`), named as TF names them ("Variable", "Variable/Assign").
Value create_in_v1_graph(Graph& g, const Value& initial_value, std::optional<DType> dtype, const Value& name,
                         const Value& shape, bool trainable) {
  std::string base = g.unique_name(current_name_scope() + (name.is_none() ? std::string("Variable") : name.as_str()));
  const Graph::Scope saved = g.scope();
  Finally restore([&] { g.scope() = saved; });
  g.scope().name = base + "/";
  g.scope().control.clear();
  Output init = in_graph(g, to_tensor(initial_value, dtype));
  Shape s = shape.is_none() ? init.spec().shape : shape_from_value(shape);
  if (!s.is_compatible_with(init.spec().shape)) {
    throw ValueError("The initial value's shape (" + init.spec().shape.str() +
                     ") is not compatible with the explicitly supplied `shape` argument (" + s.str() + ").");
  }
  auto var = Variable::create_uninitialized(init.spec().dtype, s, base);
  var->set_trainable(trainable);
  Node* assign = g.add_node(op::AssignVariableOp, {init}, var_attrs(*var), "Assign");
  g.v1_variables().push_back({var, assign});
  return Value::variable(std::move(var));
}

}  // namespace

Value create(const Value& initial_value, std::optional<DType> dtype, const Value& name, const Value& shape,
             bool trainable) {
  if (Graph* g = current_graph(); g != nullptr && g->v1()) {
    return create_in_v1_graph(*g, initial_value, dtype, name, shape, trainable);
  }
  if (t_scope != nullptr && !t_scope->allowed_) throw ValueError(kCreatedOnNonFirstTrace);
  Tensor init = initial_tensor(initial_value, dtype);
  // tf.name_scope prefixes variable names, eagerly too.
  std::string n = current_name_scope() + (name.is_none() ? std::string("Variable") : name.as_str());
  auto var = Variable::create(init, std::move(n), shape.is_none() ? init.shape() : shape_from_value(shape));
  var->set_trainable(trainable);
  if (t_scope != nullptr) t_scope->created_.push_back(var);
  return Value::variable(std::move(var));
}

TensorHandle read(const Value& v) {
  const Variable& var = *v.as_variable();
  // Through the op even eagerly while a tape records, so it sees the read.
  if (current_graph() == nullptr && !any_tape_recording()) return TensorHandle(var.read());
  return apply_op1(op::ReadVariableOp, {}, var_attrs(var), "ReadVariableOp");
}

Value assign(const Value& v, const Value& x, AssignOp kind) {
  const Variable& var = *v.as_variable();
  const OpType op_name = kind == AssignOp::Assign ? op::AssignVariableOp
                         : kind == AssignOp::Add  ? op::AssignAddVariableOp
                                                  : op::AssignSubVariableOp;
  TensorHandle value = to_tensor_hint(x, var.dtype());
  std::vector<TensorHandle> in{value};
  apply_op(op_name, in, var_attrs(var), op_name.name());
  Graph* g = current_graph();
  if (g == nullptr) return v;
  if (!g->v1()) return Value(read(v));
  // A TF1 graph orders nothing by itself: the value read after an
  // assignment depends on it (TF's _lazy_read of the assign op).
  const Graph::Scope saved = g->scope();
  Finally restore([&] { g->scope() = saved; });
  g->scope().control = {g->nodes().back().get()};
  return Value(read(v));
}

Value getattr(const Value& v, std::string_view name) {
  const Variable& var = *v.as_variable();
  if (var.in_graph()) {
    if (std::optional<Value> a = v1_attr(v, name)) return *a;
  }
  auto method = [&](const char* n, auto fn) {
    return Value::callable(n, [v, fn](std::vector<Value> args, Kwargs kwargs) -> Value {
      for (auto& [k, x] : kwargs) {
        if (k == "value" || k == "delta") args.push_back(x);
      }
      return fn(args);
    });
  };
  auto one_arg = [&](const std::vector<Value>& a, const char* method_name) -> const Value& {
    if (a.size() != 1) {
      throw TypeError(std::string(method_name) + "() missing 1 required positional argument: 'value'");
    }
    return a[0];
  };
  if (name == "assign") return method("assign", [v, one_arg](const std::vector<Value>& a) { return assign(v, one_arg(a, "assign"), AssignOp::Assign); });
  if (name == "assign_add") return method("assign_add", [v, one_arg](const std::vector<Value>& a) { return assign(v, one_arg(a, "assign_add"), AssignOp::Add); });
  if (name == "assign_sub") return method("assign_sub", [v, one_arg](const std::vector<Value>& a) { return assign(v, one_arg(a, "assign_sub"), AssignOp::Sub); });
  if (name == "read_value" || name == "value") {
    return method(name == "value" ? "value" : "read_value", [v](const std::vector<Value>&) { return Value(read(v)); });
  }
  if (name == "numpy") {
    return method("numpy", [v](const std::vector<Value>&) {
      if (current_graph() != nullptr || v.as_variable()->in_graph()) {
        throw NotImplementedError("numpy() is only available when eager execution is enabled.");
      }
      return ndarray::result(v.as_variable()->read());
    });
  }
  if (name == "dtype") return dtype_value(var.dtype());
  if (name == "name") return Value(var.name() + ":0");
  if (name == "trainable") return Value(var.trainable());
  if (name == "shape") return tensor_shape(var.shape());
  throw AttributeError("'ResourceVariable' object has no attribute '" + std::string(name) + "'");
}

std::string repr(const Value& v) {
  const Variable& var = *v.as_variable();
  std::string s = "<tf.Variable '" + var.name() + ":0' shape=" + var.shape().str() + " dtype=" + dtype_name(var.dtype());
  if (current_graph() != nullptr || var.in_graph()) return s + ">";
  // TF's value_text: a value spanning several lines starts on its own.
  std::string value = numpy_repr(var.read());
  if (value.find('\n') != std::string::npos) value.insert(0, "\n");
  return s + ", numpy=" + value + ">";
}

}  // namespace ag::variable_value

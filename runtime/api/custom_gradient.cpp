// tf.custom_gradient (GRADIENTS.md 1.4): `f` returns (y, grad_fn); its ops
// run unrecorded and the tapes record the call as one entry whose backward
// calls grad_fn with the gradients of y's tensors.
#include "runtime/api/tf_call.h"
#include "runtime/function/structure.h"
#include "runtime/graph/tape.h"
#include "runtime/value/convert.h"

namespace ag::tf::impl {
namespace {

/// The tensor leaves of `v` (a variable counts as its value, as TF converts it).
void tensors_of(const Value& v, std::vector<TensorHandle>& out) {
  map_tensors(v, [&](const Value& t) {
    out.push_back(t.as_tensor());
    return t;
  });
}

Value call_with_custom_gradient(const Value& f, std::vector<Value> args, Kwargs kwargs) {
  Value result;
  {
    PauseTapes pause;
    result = f(args, std::move(kwargs));
  }
  if (!(result.is_tuple() || result.is_list()) || result.items().size() != 2) {
    throw TypeError("a function decorated with tf.custom_gradient must return a pair (y, grad_fn); got " +
                    repr(result));
  }
  Value y = result.items()[0];
  Value grad_fn = result.items()[1];
  if (!any_tape_recording()) return y;

  TapeEntry e;
  e.name = "CustomGradient";
  for (const Value& a : args) tensors_of(a, e.inputs);
  tensors_of(y, e.outputs);
  for (const TensorHandle& t : e.inputs) {
    e.input_keys.push_back(key_of(t));
    e.input_dtypes.push_back(t.dtype());
  }
  const size_t n = e.inputs.size();
  e.backward = [grad_fn, n, outputs = e.outputs](std::span<const std::optional<TensorHandle>> dys) {
    std::vector<Value> upstream;
    for (size_t i = 0; i < dys.size(); ++i) {
      upstream.emplace_back(dys[i] ? *dys[i]
                                   : apply_op1(op::ZerosLike, std::span<const TensorHandle>(&outputs[i], 1), {},
                                               "zeros_like"));
    }
    Value g = grad_fn(std::move(upstream), {});
    std::vector<Value> grads = g.is_list() || g.is_tuple() ? g.items() : std::vector<Value>{g};
    if (grads.size() != n) {
      throw ValueError("custom_gradient function expected to return " + std::to_string(n) +
                       " gradients, but returned " + std::to_string(grads.size()) + " instead.");
    }
    std::vector<std::optional<TensorHandle>> out;
    for (const Value& v : grads) out.emplace_back(v.is_none() ? std::nullopt : std::optional(to_tensor(v)));
    return out;
  };
  record_call(e);
  return y;
}

}  // namespace

Value custom_gradient(const TfCall& c) {
  Value f = c["f"];
  if (f.is_none()) {
    return Value::callable("custom_gradient", [](std::vector<Value> args, Kwargs) -> Value {
      if (args.size() != 1) throw TypeError("custom_gradient() takes 1 positional argument");
      Value g = args[0];
      return Value::callable("decorated", [g](std::vector<Value> a, Kwargs k) {
        return call_with_custom_gradient(g, std::move(a), std::move(k));
      });
    });
  }
  return Value::callable("decorated", [f](std::vector<Value> a, Kwargs k) {
    return call_with_custom_gradient(f, std::move(a), std::move(k));
  });
}

}  // namespace ag::tf::impl

// tf.map_fn, tf.scan, tf.foldl, tf.foldr and tf.vectorized_map (map_fn.py,
// functional_ops.py, parallel_for/control_flow_ops.py), written as TF writes
// them: the elements unstacked into TensorArrays, a tf.while_loop
// (tf_control_flow.h) reading one element per iteration and writing the
// results into TensorArrays that are stacked after the loop. So eagerly they
// run a Python loop over eager TensorArrays, and while tracing one While node;
// gradients flow through the TensorArray ops and the While.
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/api/tf_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/autograph/tf_control_flow.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/nest.h"
#include "runtime/value/tensor_array.h"
#include "runtime/value/tensor_spec_value.h"

namespace ag::tf::impl {
namespace {

/// map_fn's and scan's `fn.__name__` in their not-callable TypeError: an
/// object without one is Python's AttributeError, as in TF.
std::string function_name(const Value& fn) {
  try {
    return str(fn.getattr("__name__"));
  } catch (const AttributeError&) {
    throw AttributeError("'" + fn.type_name() + "' object has no attribute '__name__'");
  }
}

void raise_mismatch(const Value& a, const Value& b) {
  if (auto m = nest::structure_mismatch(a, b)) {
    if (m->type_error) throw TypeError(m->message);
    throw ValueError(m->message);
  }
}

/// The leaves of `elems` as tensors (ops.convert_to_tensor(elem, name="elem")).
std::vector<Value> tensor_leaves(const Value& elems) {
  std::vector<Value> flat = nest::flatten(elems);
  for (Value& v : flat) v = Value(to_tensor(v));
  return flat;
}

/// The number of iterations: the static first dimension of the first
/// elements (all must agree), else tf.shape(elems[0])[0].
struct Length {
  std::optional<int64_t> known;
  Value n;
};
Length length_of(const std::vector<Value>& flat) {
  Length len;
  for (size_t k = 0; k < flat.size(); ++k) {
    const Shape s = flat[k].as_tensor().shape();
    if (s.rank_known() && s.rank() == 0) {
      throw ValueError("Shape must be at least rank 1 but is rank 0");
    }
    int64_t d = s.rank_known() ? s.dim(0) : kUnknownDim;
    if (d == kUnknownDim) continue;
    if (len.known && *len.known != d) {
      throw ValueError("Dimensions " + std::to_string(*len.known) + " and " + std::to_string(d) +
                       " are not compatible");
    }
    if (!len.known) len.known = d;
  }
  len.n = len.known ? Value(*len.known) : getitem(ag::tf::shape(flat[0]), Value(0));
  return len;
}

/// `elems` unstacked into TensorArrays of `n` elements.
std::vector<Value> unstacked(const std::vector<Value>& flat, const Value& n) {
  std::vector<Value> tas;
  for (const Value& e : flat) {
    tas.push_back(tensor_array::unstack(tensor_array::create(e.as_tensor().dtype(), n), e));
  }
  return tas;
}

std::vector<Value> read_all(const std::vector<Value>& tas, const Value& i) {
  std::vector<Value> out;
  for (const Value& ta : tas) out.push_back(tensor_array::read(ta, i));
  return out;
}

/// `structure` with the leaves of `leaves`, or the one leaf when it is not nested.
Value pack(const Value& structure, const std::vector<Value>& leaves) {
  size_t pos = 0;
  return nest::map_structure(structure, [&](const Value&) { return leaves.at(pos++); });
}

Value callable(const char* name, std::function<Value(const std::vector<Value>&)> fn) {
  return Value::callable(name, [fn = std::move(fn)](std::vector<Value> args, Kwargs) { return fn(args); });
}

/// `s` as TensorArray's element_shape argument: None, or dims with None for unknown ones.
Value element_shape_arg(const Shape& s) {
  if (!s.rank_known()) return Value();
  std::vector<Value> dims;
  for (int64_t d : s.dims()) dims.push_back(d == kUnknownDim ? Value() : Value(d));
  return Value::list(std::move(dims));
}

/// `s` without its first dimension (an element of a tensor of that shape).
Shape element_of(const Shape& s) {
  if (!s.rank_known() || s.rank() == 0) return Shape::unknown_rank();
  std::vector<int64_t> dims(s.dims().begin() + 1, s.dims().end());
  return Shape(std::span<const int64_t>(dims));
}

/// The dtype a leaf of fn_output_signature names (a DType or a TensorSpec).
DType signature_dtype(const Value& v) {
  if (auto spec = tensor_spec_of(v)) return spec->dtype;
  return require_dtype(v);
}

/// tf.map_fn (map_fn.py) over `elems`, each result written to a TensorArray
/// of the signature's dtype.
Value map_fn(const Value& fn, const Value& elems, const Value& signature, bool infer_shape, bool back_prop) {
  if (!control_flow::is_callable(fn)) {
    throw TypeError("The provided function " + function_name(fn) + " is not callable.fn must be callable.");
  }
  std::vector<Value> flat = nest::flatten(elems);
  if (flat.empty()) {
    throw ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors. Got " + str(elems) +
                     ", which does not contain any Tensors.");
  }
  flat = tensor_leaves(elems);
  const Shape first = flat[0].as_tensor().shape();
  if (first.rank_known() && first.rank() < 1) {
    throw ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars");
  }
  Length len = length_of(flat);
  std::vector<Value> elems_tas = unstacked(flat, len.n);
  const Value result_structure = signature.is_none() ? elems : signature;
  std::vector<DType> result_dtypes;
  if (signature.is_none()) {
    for (const Value& e : flat) result_dtypes.push_back(e.as_tensor().dtype());
  } else {
    for (const Value& d : nest::flatten(signature)) result_dtypes.push_back(signature_dtype(d));
  }
  std::vector<Value> result_tas;
  for (DType dt : result_dtypes) {
    result_tas.push_back(tensor_array::create(dt, len.n, false, Value(), infer_shape));
  }
  Value compute = callable("compute", [&](const std::vector<Value>& args) {
    const Value& i = args[0];
    Value x = pack(elems, read_all(elems_tas, i));
    Value y = fn({x});
    raise_mismatch(result_structure, y);
    std::vector<Value> ys = nest::flatten(y);
    std::vector<Value> tas = args[1].items();
    for (size_t k = 0; k < tas.size() && k < ys.size(); ++k) tas[k] = tensor_array::write(tas[k], i, ys[k]);
    return Value::tuple({i + Value(1), Value::list(std::move(tas))});
  });
  Value n = len.n;
  Value test = callable("cond", [n](const std::vector<Value>& args) { return args[0] < n; });
  Value out = control_flow::while_loop(test, compute, Value::tuple({Value(to_tensor(Value(0))), Value::list(result_tas)}),
                                       Value(), len.n, back_prop);
  std::vector<Value> results;
  for (const Value& ta : getitem(out, Value(1)).items()) results.push_back(tensor_array::stack(ta));
  return pack(result_structure, results);
}

/// tf.scan (functional_ops.scan): the accumulator after each element,
/// stacked; `reverse` walks the elements from the last.
Value scan(const Value& fn, const Value& elems, const Value& initializer, bool infer_shape, bool reverse,
           bool back_prop) {
  if (!control_flow::is_callable(fn)) {
    throw TypeError(function_name(fn) + " is not callable. Please provide a callable function.");
  }
  const bool in_nested = nest::is_nested(elems);
  std::vector<Value> flat = tensor_leaves(elems);
  if (flat.empty()) throw ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors.");
  auto input_pack = [&](const std::vector<Value>& xs) { return in_nested ? pack(elems, xs) : xs[0]; };
  const Value out_structure = initializer.is_none() ? elems : initializer;
  const bool out_nested = nest::is_nested(out_structure);
  auto output_pack = [&](const std::vector<Value>& xs) { return out_nested ? pack(out_structure, xs) : xs[0]; };
  Length len = length_of(flat);
  const Value& n = len.n;
  std::vector<Value> elems_tas = unstacked(flat, n);
  std::vector<Value> a_flat;
  Value i;
  if (initializer.is_none()) {
    a_flat = read_all(elems_tas, reverse ? n - Value(1) : Value(0));
    i = Value(1);
  } else {
    for (const Value& v : nest::flatten(initializer)) a_flat.push_back(Value(to_tensor(v)));
    i = Value(0);
  }
  std::vector<Value> accs;
  for (const Value& a : a_flat) {
    const TensorHandle& t = a.as_tensor();
    Value element_shape = infer_shape ? element_shape_arg(t.shape()) : Value();
    accs.push_back(tensor_array::create(t.dtype(), n, false, Value(), infer_shape, element_shape));
  }
  if (initializer.is_none()) {
    for (size_t k = 0; k < accs.size(); ++k) accs[k] = tensor_array::write(accs[k], reverse ? n - Value(1) : Value(0), a_flat[k]);
  }
  Value compute = callable("compute", [&](const std::vector<Value>& args) {
    const Value& idx = args[0];
    Value a_out = fn({output_pack(args[1].items()), input_pack(read_all(elems_tas, idx))});
    raise_mismatch(out_structure, a_out);
    std::vector<Value> flat_out = out_nested ? nest::flatten(a_out) : std::vector<Value>{a_out};
    std::vector<Value> tas = args[2].items();
    for (size_t k = 0; k < tas.size() && k < flat_out.size(); ++k) tas[k] = tensor_array::write(tas[k], idx, flat_out[k]);
    return Value::tuple({reverse ? idx - Value(1) : idx + Value(1), Value::list(flat_out), Value::list(std::move(tas))});
  });
  Value initial_i = reverse ? n - Value(1) - i : i;
  Value test = callable("cond", [n, reverse](const std::vector<Value>& args) {
    return reverse ? args[0] >= Value(0) : args[0] < n;
  });
  Value out = control_flow::while_loop(test, compute,
                                       Value::tuple({initial_i, Value::list(a_flat), Value::list(accs)}), Value(),
                                       n, back_prop);
  std::vector<Value> results;
  for (const Value& ta : getitem(out, Value(2)).items()) results.push_back(tensor_array::stack(ta));
  return output_pack(results);
}

/// tf.foldl / tf.foldr (functional_ops.foldl, foldr).
Value fold(const Value& fn, const Value& elems, const Value& initializer, bool right, bool back_prop) {
  if (!control_flow::is_callable(fn)) {
    throw TypeError(function_name(fn) + " is not callable. Please provide a callable function.");
  }
  std::vector<Value> flat = tensor_leaves(elems);
  if (flat.empty()) throw ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors.");
  Length len = length_of(flat);
  const Value& n = len.n;
  std::vector<Value> tas = unstacked(flat, n);
  auto elem_at = [&](const Value& i) { return pack(elems, read_all(tas, i)); };
  Value a, i;
  if (initializer.is_none()) {
    a = elem_at(right ? n - Value(1) : Value(0));
    i = Value(to_tensor(right ? n - Value(2) : Value(1)));
  } else {
    a = initializer;
    i = Value(to_tensor(right ? n - Value(1) : Value(0)));
  }
  Value compute = callable("compute", [&](const std::vector<Value>& args) {
    const Value& idx = args[0];
    Value next = fn({args[1], elem_at(idx)});
    return Value::list({right ? idx - Value(1) : idx + Value(1), next});
  });
  Value test = callable("cond", [n, right](const std::vector<Value>& args) {
    return right ? args[0] >= Value(0) : args[0] < n;
  });
  Value out = control_flow::while_loop(test, compute, Value::list({i, a}), Value(), n, back_prop);
  return getitem(out, Value(1));
}

}  // namespace

Value map_fn(const TfCall& c) {
  Value signature = c["fn_output_signature"].is_none() ? c["dtype"] : c["fn_output_signature"];
  return map_fn(c["fn"], c["elems"], signature, truthy(c["infer_shape"]), truthy(c["back_prop"]));
}

Value scan(const TfCall& c) {
  return scan(c["fn"], c["elems"], c["initializer"], truthy(c["infer_shape"]), truthy(c["reverse"]),
              truthy(c["back_prop"]));
}

Value foldl(const TfCall& c) { return fold(c["fn"], c["elems"], c["initializer"], false, truthy(c["back_prop"])); }

Value foldr(const TfCall& c) { return fold(c["fn"], c["elems"], c["initializer"], true, truthy(c["back_prop"])); }

/// tf.vectorized_map: agc runs it as tf.map_fn (TF vectorizes fn with pfor;
/// the values are the same). The output dtypes, which map_fn needs and pfor
/// finds itself, come from fn traced once on one element in a scratch graph
/// when a graph is traced; eagerly each result is stacked as it comes.
Value vectorized_map(const TfCall& c) {
  const Value& fn = c["fn"];
  const Value& elems = c["elems"];
  if (!control_flow::is_callable(fn)) throw TypeError("'fn' must be callable.");
  std::vector<Value> flat = tensor_leaves(elems);
  if (flat.empty()) throw ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors.");
  Graph* g = current_graph();
  Value signature;
  if (g != nullptr) {
    Graph tmp("tmp", g);
    TraceScope scope(tmp);
    std::vector<Value> xs;
    for (const Value& e : flat) {
      xs.emplace_back(tmp.placeholder({e.as_tensor().dtype(), element_of(e.as_tensor().shape())}, "elem"));
    }
    Value y = fn({pack(elems, xs)});
    signature = nest::map_structure(y, [](const Value& leaf) { return dtype_value(to_tensor(leaf).dtype()); });
  } else {
    Length len = length_of(flat);
    std::vector<Value> results;
    std::optional<Value> structure;
    for (int64_t k = 0; k < *len.known; ++k) {
      std::vector<Value> xs;
      for (const Value& e : flat) xs.push_back(getitem(e, Value(k)));
      Value y = fn({pack(elems, xs)});
      if (!structure) structure = y;
      raise_mismatch(*structure, y);
      results.push_back(y);
    }
    if (!structure) throw ValueError("tf.vectorized_map of zero elements: the output structure is unknown");
    std::vector<Value> per_leaf;
    const size_t leaves = nest::flatten(*structure).size();
    for (size_t l = 0; l < leaves; ++l) {
      std::vector<Value> column;
      for (const Value& y : results) column.push_back(Value(to_tensor(nest::flatten(y)[l])));
      per_leaf.push_back(ag::tf::stack(Value::list(std::move(column))));
    }
    return pack(*structure, per_leaf);
  }
  return map_fn(fn, elems, signature, true, true);
}

}  // namespace ag::tf::impl

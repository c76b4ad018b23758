// The merge layers of tf.keras.layers (Keras's _Merge): Add, Subtract,
// Multiply, Average, Maximum, Minimum, Concatenate and Dot, called on a list
// of tensors, with Keras 2's shape checks and texts; inputs of lower rank are
// expanded at axis 1 as Keras does. Their functional forms (keras.layers.add,
// concatenate, dot, ...) make the layer and call it.
#include <algorithm>
#include <optional>
#include <set>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/layer.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/user_function.h"

namespace ag::keras {
namespace {

/// A shape as Keras's shape_type_conversion gives it: dims (-1 for None), or
/// nullopt for an unknown rank.
using PyShape = std::optional<std::vector<int64_t>>;

PyShape py_shape(const Value& tensor_shape_value) {
  std::optional<Shape> s = tensor_shape_of(tensor_shape_value);
  if (!s || !s->rank_known()) return std::nullopt;
  std::vector<int64_t> dims;
  for (int i = 0; i < s->rank(); ++i) dims.push_back(s->dim(i) < 0 ? -1 : s->dim(i));
  return dims;
}

std::string py_shape_text(const PyShape& s) {
  if (!s) return "None";
  std::string out = "(";
  for (size_t i = 0; i < s->size(); ++i) out += (i ? ", " : "") + ((*s)[i] < 0 ? "None" : std::to_string((*s)[i]));
  return out + (s->size() == 1 ? ",)" : ")");
}

/// build()'s input_shape as Keras prints it: "[(None, 3), (None, 4)]", or
/// the one tuple of a single input.
std::string input_shape_text(const Value& input_shape) {
  if (!input_shape.is_list() && !input_shape.is_tuple()) return py_shape_text(py_shape(input_shape));
  std::vector<Value> items = input_shape.items();
  std::string out = input_shape.is_list() ? "[" : "(";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + py_shape_text(py_shape(items[i]));
  if (input_shape.is_tuple() && items.size() == 1) out += ",";
  return out + (input_shape.is_list() ? "]" : ")");
}

/// The shapes of a list input; nullopt when the input is not a list of shapes.
std::optional<std::vector<PyShape>> shape_list(const Value& input_shape) {
  if (!input_shape.is_list() && !input_shape.is_tuple()) return std::nullopt;
  std::vector<PyShape> out;
  for (const Value& s : input_shape.items()) {
    if (!tensor_shape_of(s)) return std::nullopt;
    out.push_back(py_shape(s));
  }
  if (out.empty() || !out[0]) return std::nullopt;
  return out;
}

/// _Merge._compute_elemwise_op_output_shape (shapes without the batch dim).
PyShape elemwise_shape(const PyShape& shape1, const PyShape& shape2) {
  if (!shape1 || !shape2) return std::nullopt;
  if (shape1->size() < shape2->size()) return elemwise_shape(shape2, shape1);
  if (shape2->empty()) return shape1;
  std::vector<int64_t> out(shape1->begin(), shape1->end() - static_cast<std::ptrdiff_t>(shape2->size()));
  for (size_t k = 0; k < shape2->size(); ++k) {
    int64_t i = (*shape1)[shape1->size() - shape2->size() + k], j = (*shape2)[k];
    if (i < 0 || j < 0) {
      out.push_back(-1);
    } else if (i == 1) {
      out.push_back(j);
    } else if (j == 1 || i == j) {
      out.push_back(i);
    } else {
      throw ValueError("Inputs have incompatible shapes. Received shapes " + py_shape_text(shape1) + " and " +
                       py_shape_text(shape2));
    }
  }
  return out;
}

PyShape without_batch(const PyShape& s) {
  if (!s || s->empty()) return s ? PyShape(std::vector<int64_t>{}) : s;
  return std::vector<int64_t>(s->begin() + 1, s->end());
}

/// _Merge.build: a list of shapes, one batch size, shapes that broadcast.
void merge_build(const Value& self, const Value& input_shape) {
  std::optional<std::vector<PyShape>> shapes = shape_list(input_shape);
  if (!shapes) {
    throw ValueError("A merge layer should be called on a list of inputs. Received: input_shape=" +
                     input_shape_text(input_shape) + " (not a list of shapes)");
  }
  std::set<int64_t> batch_sizes;
  for (const PyShape& s : *shapes) {
    if (s && !s->empty() && (*s)[0] >= 0) batch_sizes.insert((*s)[0]);
  }
  if (batch_sizes.size() > 1) {
    throw ValueError("Cannot merge tensors with different batch sizes. Got tensors with shapes " +
                     input_shape_text(input_shape));
  }
  PyShape out = without_batch((*shapes)[0]);
  for (size_t i = 1; i < shapes->size(); ++i) out = elemwise_shape(out, without_batch((*shapes)[i]));
  std::set<size_t> ranks;
  bool unknown = false;
  for (const PyShape& s : *shapes) {
    if (s) ranks.insert(s->size());
    else unknown = true;
  }
  self.setattr("_agc_reshape_required", Value(unknown || ranks.size() != 1));
}

std::vector<Value> merge_inputs(const Value& inputs) {
  if (!inputs.is_list() && !inputs.is_tuple()) {
    throw ValueError("A merge layer should be called on a list of inputs. Received: inputs=" + str(inputs) +
                     " (not a list of tensors)");
  }
  return inputs.items();
}

/// _Merge.call: inputs of lower rank expanded at axis 1 to the highest rank.
std::vector<Value> merge_call_inputs(const Value& self, const Value& inputs) {
  std::vector<Value> xs = merge_inputs(inputs);
  if (!truthy(self.getattr("_agc_reshape_required"))) return xs;
  int max_ndim = 0;
  for (const Value& x : xs) {
    const Shape& s = x.as_tensor().shape();
    if (!s.rank_known()) throw UnimplementedError("agc: merging inputs of unknown rank is not supported");
    max_ndim = std::max(max_ndim, s.rank());
  }
  for (Value& x : xs) {
    for (int r = x.as_tensor().shape().rank(); r < max_ndim; ++r) x = tf::expand_dims(x, Value(1));
  }
  return xs;
}

/// _Merge.compute_mask: the masks given, all-reduced elementwise.
Value merge_compute_mask(const std::vector<Value>& a) {
  const Value& inputs = a[1];
  const Value& mask = a[2];
  if (mask.is_none()) return Value();
  if (!mask.is_list() && !mask.is_tuple()) throw ValueError("`mask` should be a list. Received: mask=" + str(mask));
  if (!inputs.is_list() && !inputs.is_tuple()) {
    throw ValueError("`inputs` should be a list. Received: inputs=" + str(inputs));
  }
  if (mask.items().size() != inputs.items().size()) {
    throw ValueError("The lists `inputs` and `mask` should have the same length. Received: inputs=" + str(inputs) +
                     " of length " + std::to_string(inputs.items().size()) + ", and mask=" + str(mask) +
                     " of length " + std::to_string(mask.items().size()));
  }
  std::vector<Value> masks;
  for (const Value& m : mask.items()) {
    if (!m.is_none()) masks.push_back(tf::expand_dims(m, Value(0)));
  }
  if (masks.empty()) return Value();
  return tf::reduce_all(tf::concat(Value::list(std::move(masks)), Value(0)), Value(0), false);
}

using MergeFn = Value (*)(const std::vector<Value>& xs);

Value add_merge(const std::vector<Value>& xs) {
  Value out = xs[0];
  for (size_t i = 1; i < xs.size(); ++i) out = out + xs[i];
  return out;
}

Value subtract_merge(const std::vector<Value>& xs) {
  if (xs.size() != 2) {
    throw ValueError("A `Subtract` layer should be called on exactly 2 inputs. Received: inputs=" +
                     str(Value::list(xs)));
  }
  return xs[0] - xs[1];
}

Value multiply_merge(const std::vector<Value>& xs) {
  Value out = xs[0];
  for (size_t i = 1; i < xs.size(); ++i) out = out * xs[i];
  return out;
}

Value average_merge(const std::vector<Value>& xs) {
  return add_merge(xs) / Value(static_cast<int64_t>(xs.size()));
}

Value maximum_merge(const std::vector<Value>& xs) {
  Value out = xs[0];
  for (size_t i = 1; i < xs.size(); ++i) out = tf::api::maximum({out, xs[i]}, {});
  return out;
}

Value minimum_merge(const std::vector<Value>& xs) {
  Value out = xs[0];
  for (size_t i = 1; i < xs.size(); ++i) out = tf::api::minimum({out, xs[i]}, {});
  return out;
}

const std::vector<Param> kMergeBaseParams = {{"name", Value()}, {"trainable", Value(true)}, {"dtype", Value()}};

Value make_elementwise_merge(const char* name, MergeFn fn, bool two_inputs) {
  return make_layer_class(LayerDef{
      .name = name,
      .init_params = kMergeBaseParams,
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[1], a[2], a[3], a[4]);
            self.setattr("supports_masking", Value(true));
          },
      .build =
          [two_inputs](const Value& self, const Value& input_shape) {
            merge_build(self, input_shape);
            if (two_inputs && input_shape.items().size() != 2) {
              throw ValueError("A `Subtract` layer should be called on exactly 2 inputs. Received: input_shape=" +
                               input_shape_text(input_shape));
            }
          },
      .call = [fn](const std::vector<Value>& a) { return fn(merge_call_inputs(a[0], a[1])); },
      .compute_mask = merge_compute_mask,
      .config = {},
  });
}

/// Python's `i % n` for a negative axis.
int64_t py_mod(int64_t i, int64_t n) { return ((i % n) + n) % n; }

Value make_concatenate() {
  return make_layer_class(LayerDef{
      .name = "Concatenate",
      .init_params = {{"axis", Value(-1)}, {"name", Value()}, {"trainable", Value(true)}, {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[2], a[3], a[4], a[5]);
            self.setattr("axis", a[1]);
            self.setattr("supports_masking", Value(true));
            self.setattr("_agc_reshape_required", Value(false));
          },
      .build =
          [](const Value& self, const Value& input_shape) {
            std::optional<std::vector<PyShape>> shapes = shape_list(input_shape);
            if (!shapes) {
              throw ValueError("A `Concatenate` layer should be called on a list of at least 1 input. Received: "
                               "input_shape=" + input_shape_text(input_shape));
            }
            const int64_t axis = self.getattr("axis").as_int();
            std::set<std::vector<int64_t>> reduced;
            for (const PyShape& s : *shapes) {
              if (!s) continue;  // an unknown rank takes no part (Keras: all None returns)
              std::vector<int64_t> r = *s;
              const int64_t n = static_cast<int64_t>(r.size());
              if (axis >= n || axis < -n) {
                throw IndexError("list assignment index out of range");
              }
              r.erase(r.begin() + (axis < 0 ? axis + n : axis));
              reduced.insert(r);
            }
            if (reduced.size() <= 1) return;
            const std::string msg = "A `Concatenate` layer requires inputs with matching shapes except for the "
                                    "concatenation axis. Received: input_shape=" + input_shape_text(input_shape);
            std::set<size_t> ranks;
            for (const auto& r : reduced) ranks.insert(r.size());
            if (ranks.size() != 1) throw ValueError(msg);
            for (size_t d = 0; d < *ranks.begin(); ++d) {
              std::set<int64_t> unique;
              for (const auto& r : reduced) {
                if (r[d] >= 0) unique.insert(r[d]);
              }
              if (unique.size() > 1) throw ValueError(msg);
            }
          },
      .call =
          [](const std::vector<Value>& a) {
            std::vector<Value> xs = merge_inputs(a[1]);
            // backend.concatenate: a negative axis modulo the first input's rank.
            int64_t axis = a[0].getattr("axis").as_int();
            if (axis < 0) {
              const Shape& s = xs[0].as_tensor().shape();
              axis = s.rank_known() && s.rank() > 0 ? py_mod(axis, s.rank()) : 0;
            }
            return tf::concat(Value::list(std::move(xs)), Value(axis));
          },
      .compute_mask =
          [](const std::vector<Value>& a) -> Value {
            const Value& inputs = a[1];
            const Value& mask = a[2];
            if (mask.is_none()) return Value();
            if (!mask.is_list() && !mask.is_tuple()) throw ValueError("`mask` should be a list. Received mask=" + str(mask));
            if (!inputs.is_list() && !inputs.is_tuple()) {
              throw ValueError("`inputs` should be a list. Received: inputs=" + str(inputs));
            }
            const std::vector<Value>& ms = mask.items();
            const std::vector<Value>& xs = inputs.items();
            if (ms.size() != xs.size()) {
              throw ValueError("The lists `inputs` and `mask` should have the same length. Received: inputs=" +
                               str(inputs) + " of length " + std::to_string(xs.size()) + ", and mask=" + str(mask) +
                               " of length " + std::to_string(ms.size()));
            }
            if (std::all_of(ms.begin(), ms.end(), [](const Value& m) { return m.is_none(); })) return Value();
            std::vector<Value> masks;
            for (size_t i = 0; i < xs.size(); ++i) {
              if (ms[i].is_none()) {
                masks.push_back(tf::cast(tf::ones_like(xs[i]), DType::Bool));
              } else if (ms[i].as_tensor().shape().rank() < xs[i].as_tensor().shape().rank()) {
                masks.push_back(tf::expand_dims(ms[i], Value(-1)));
              } else {
                masks.push_back(ms[i]);
              }
            }
            int64_t axis = a[0].getattr("axis").as_int();
            if (axis < 0) axis = py_mod(axis, masks[0].as_tensor().shape().rank());
            return tf::reduce_all(tf::concat(Value::list(std::move(masks)), Value(axis)), Value(-1), false);
          },
      .config = {"axis"},
  });
}

/// backend.batch_dot for inputs of rank 2 or 3 (Dot's common case): the
/// reduced axis of x brought last and y's to axis 1, a batched matmul, and
/// the dim a rank-2 input gained squeezed out.
Value batch_dot(Value x, Value y, int64_t a0, int64_t a1) {
  const int x_ndim0 = x.as_tensor().shape().rank(), y_ndim0 = y.as_tensor().shape().rank();
  if (x_ndim0 > 3 || y_ndim0 > 3) throw UnimplementedError("agc: Dot supports inputs of rank 2 or 3");
  int x_ndim = x_ndim0, y_ndim = y_ndim0;
  if (x_ndim == 2) {
    x = tf::expand_dims(x, Value(1));
    ++a0;
    ++x_ndim;
  }
  if (y_ndim == 2) {
    y = tf::expand_dims(y, Value(2));
    ++y_ndim;
  }
  if (a0 != x_ndim - 1) x = tf::transpose(x, Value::list({Value(0), Value(2), Value(1)}));
  if (a1 != 1) y = tf::transpose(y, Value::list({Value(0), Value(2), Value(1)}));
  Value result = tf::matmul(x, y);
  if (x_ndim0 == 2) return tf::squeeze(result, Value(1));
  if (y_ndim0 == 2) return tf::squeeze(result, Value(-1));
  return result;
}

/// Dot's axes for shapes of ranks n1 and n2 (an int applies to both; a
/// negative one is taken modulo the rank).
std::pair<int64_t, int64_t> dot_axes(const Value& axes, int64_t n1, int64_t n2) {
  if (axes.is_int()) {
    int64_t a = axes.as_int();
    return a < 0 ? std::pair{py_mod(a, n1), py_mod(a, n2)} : std::pair{a, a};
  }
  std::vector<Value> v = axes.items();
  return {v[0].as_int(), v[1].as_int()};
}

Value make_dot() {
  return make_layer_class(LayerDef{
      .name = "Dot",
      .init_params = {{"axes", std::nullopt},
                      {"normalize", Value(false)},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[3], a[4], a[5], a[6]);
            const Value& axes = a[1];
            if (!axes.is_int()) {
              if (!axes.is_list() && !axes.is_tuple()) {
                throw TypeError("Invalid type for argument `axes`: it should be a list or an int. Received: axes=" +
                                str(axes));
              }
              if (axes.items().size() != 2) {
                throw ValueError("Invalid format for argument `axes`: it should contain two elements. Received: axes=" +
                                 str(axes));
              }
              if (!axes.items()[0].is_int() || !axes.items()[1].is_int()) {
                throw ValueError("Invalid format for argument `axes`: list elements should be integers. Received: "
                                 "axes=" + str(axes));
              }
            }
            self.setattr("axes", axes);
            self.setattr("normalize", a[2]);
            self.setattr("supports_masking", Value(true));
          },
      .build =
          [](const Value& self, const Value& input_shape) {
            std::optional<std::vector<PyShape>> shapes = shape_list(input_shape);
            if (!shapes || shapes->size() != 2) {
              throw ValueError("A `Dot` layer should be called on a list of 2 inputs. Received: input_shape=" +
                               input_shape_text(input_shape));
            }
            const PyShape& s1 = (*shapes)[0];
            const PyShape& s2 = (*shapes)[1];
            if (!s1 || !s2) return;
            const int64_t n1 = static_cast<int64_t>(s1->size()), n2 = static_cast<int64_t>(s2->size());
            auto [a0, a1] = dot_axes(self.getattr("axes"), n1, n2);
            // Python indexing: a negative axis from a tuple counts from the end.
            int64_t d1 = (*s1)[static_cast<size_t>(a0 < 0 ? a0 + n1 : a0)];
            int64_t d2 = (*s2)[static_cast<size_t>(a1 < 0 ? a1 + n2 : a1)];
            if (d1 != d2) {
              auto dim = [](int64_t d) { return d < 0 ? std::string("None") : std::to_string(d); };
              throw ValueError("Incompatible input shapes: axis values " + dim(d1) + " (at axis " +
                               std::to_string(a0) + ") != " + dim(d2) + " (at axis " + std::to_string(a1) +
                               "). Full input shapes: " + py_shape_text(s1) + ", " + py_shape_text(s2));
            }
          },
      .call =
          [](const std::vector<Value>& a) {
            std::vector<Value> xs = merge_inputs(a[1]);
            if (xs.size() != 2) {
              throw ValueError("A `Dot` layer should be called on exactly 2 inputs. Received: inputs=" + str(a[1]));
            }
            Value x1 = xs[0], x2 = xs[1];
            const int64_t n1 = x1.as_tensor().shape().rank(), n2 = x2.as_tensor().shape().rank();
            auto [a0, a1] = dot_axes(a[0].getattr("axes"), n1, n2);
            if (a0 < 0) a0 = py_mod(a0, n1);
            if (a1 < 0) a1 = py_mod(a1, n2);
            if (truthy(a[0].getattr("normalize"))) {
              x1 = tf::api::l2_normalize({x1}, {{"axis", Value(a0)}});
              x2 = tf::api::l2_normalize({x2}, {{"axis", Value(a1)}});
            }
            return batch_dot(x1, x2, a0, a1);
          },
      .compute_mask = [](const std::vector<Value>&) { return Value(); },
      .config = {"axes", "normalize"},
  });
}

/// keras.layers.add(inputs, **kwargs) and the others: the layer made with
/// the keywords and called on `inputs`.
Value merge_function(const char* name, const Value& (*cls)(), std::vector<Param> extra) {
  std::vector<Param> params{{"inputs", std::nullopt}};
  for (Param& p : extra) params.push_back(std::move(p));
  params.push_back({"kwargs", std::nullopt, ParamKind::VarKeyword});
  const size_t n_extra = params.size() - 2;
  std::vector<std::string> names;
  for (size_t i = 1; i <= n_extra; ++i) names.push_back(params[i].name);
  return make_function(name, params, [cls, names](const std::vector<Value>& a) -> Value {
    Kwargs kwargs;
    for (size_t i = 0; i < names.size(); ++i) kwargs.emplace_back(names[i], a[i + 1]);
    for (const auto& [k, v] : a.back().as_dict().entries) kwargs.emplace_back(k.as_str(), v);
    return cls()({}, std::move(kwargs))({a[0]}, {});
  });
}

}  // namespace
}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_layers_Add() {
  static const Value cls = keras::make_elementwise_merge("Add", keras::add_merge, false);
  return cls;
}

const Value& keras_layers_Subtract() {
  static const Value cls = keras::make_elementwise_merge("Subtract", keras::subtract_merge, true);
  return cls;
}

const Value& keras_layers_Multiply() {
  static const Value cls = keras::make_elementwise_merge("Multiply", keras::multiply_merge, false);
  return cls;
}

const Value& keras_layers_Average() {
  static const Value cls = keras::make_elementwise_merge("Average", keras::average_merge, false);
  return cls;
}

const Value& keras_layers_Maximum() {
  static const Value cls = keras::make_elementwise_merge("Maximum", keras::maximum_merge, false);
  return cls;
}

const Value& keras_layers_Minimum() {
  static const Value cls = keras::make_elementwise_merge("Minimum", keras::minimum_merge, false);
  return cls;
}

const Value& keras_layers_Concatenate() {
  static const Value cls = keras::make_concatenate();
  return cls;
}

const Value& keras_layers_Dot() {
  static const Value cls = keras::make_dot();
  return cls;
}

const Value& keras_layers_add() {
  static const Value fn = keras::merge_function("add", keras_layers_Add, {});
  return fn;
}

const Value& keras_layers_subtract() {
  static const Value fn = keras::merge_function("subtract", keras_layers_Subtract, {});
  return fn;
}

const Value& keras_layers_multiply() {
  static const Value fn = keras::merge_function("multiply", keras_layers_Multiply, {});
  return fn;
}

const Value& keras_layers_average() {
  static const Value fn = keras::merge_function("average", keras_layers_Average, {});
  return fn;
}

const Value& keras_layers_maximum() {
  static const Value fn = keras::merge_function("maximum", keras_layers_Maximum, {});
  return fn;
}

const Value& keras_layers_minimum() {
  static const Value fn = keras::merge_function("minimum", keras_layers_Minimum, {});
  return fn;
}

const Value& keras_layers_concatenate() {
  static const Value fn = keras::merge_function("concatenate", keras_layers_Concatenate, {{"axis", Value(-1)}});
  return fn;
}

const Value& keras_layers_dot() {
  static const Value fn =
      keras::merge_function("dot", keras_layers_Dot, {{"axes", std::nullopt}, {"normalize", Value(false)}});
  return fn;
}

}  // namespace ag::tf::api

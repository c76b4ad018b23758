// tf.data.Dataset's Python surface over runtime/data (see data_dataset.h).
// Arguments are checked here with TF's errors; the datasets only build.
#include "runtime/api/data_dataset.h"
#include "runtime/api/ragged_tensor.h"

#include <functional>
#include <limits>
#include <map>
#include <mutex>

#include "runtime/api/binding.h"
#include "runtime/api/python_api.h"
#include "runtime/api/random_seed.h"
#include "runtime/api/tf_call.h"
#include "runtime/data/datasets.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/convert.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_spec_value.h"

namespace ag {
namespace api {
namespace {

using data::DatasetPtr;
using data::ElementSpec;

struct DatasetState : NativeState {
  DatasetPtr ds;
};

/// An iterator object (OwnedIterator, or as_numpy_iterator's _NumpyIterator).
struct IteratorState : NativeState {
  explicit IteratorState(DatasetPtr ds) : it(std::move(ds)) {}
  ElementIterator it;
  bool numpy = false;
};

const Value& dataset_class();

DatasetPtr self_dataset(const Value& self) {
  if (auto* s = native_state<DatasetState>(self)) return s->ds;
  throw TypeError("descriptor requires a 'DatasetV2' object but received a '" + self.type_name() + "'");
}

/// TF's eager-only methods, called while tracing.
void require_eager(const char* what) {
  if (current_graph() != nullptr) {
    throw RuntimeError(std::string("`tf.data.Dataset.") + what + "()` is only supported in eager mode.");
  }
}

/// A count argument: an int or an integer scalar tensor (TF converts to int64).
int64_t count_arg(const Value& v, const char* param) {
  if (v.is_tensor() && v.as_tensor().symbolic()) {
    throw NotImplementedError(std::string("'") + param + "' is a symbolic tensor: agc builds datasets from values "
                              "known when the dataset is made");
  }
  return int_arg(v, param);
}

Value numpy_element(const Value& v) {
  if (v.is_tensor()) return ndarray::result(v.as_tensor().value());
  if (v.is_tuple()) {
    std::vector<Value> items;
    for (const Value& x : v.items()) items.push_back(numpy_element(x));
    return Value::tuple(std::move(items));
  }
  if (v.is_dict()) {
    std::vector<std::pair<Value, Value>> entries;
    for (const auto& [k, x] : v.as_dict().entries) entries.emplace_back(k, numpy_element(x));
    return Value::dict(std::move(entries));
  }
  return v;
}

const Value& iterator_class() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    auto next = [](const std::vector<Value>& a) -> Value {
      auto* s = native_state<IteratorState>(a[0]);
      Value element;
      if (!s->it.next(element)) throw StopIteration("");
      return s->numpy ? numpy_element(element) : element;
    };
    attrs.push_back(native_method("OwnedIterator.__next__", "__next__", {self}, next));
    attrs.push_back(native_method("OwnedIterator.get_next", "get_next", {self}, next));
    attrs.push_back(native_method("OwnedIterator.__iter__", "__iter__", {self}, [](const std::vector<Value>& a) { return a[0]; }));
    return make_class("OwnedIterator", {}, std::move(attrs));
  }();
  return cls;
}

Value make_iterator(const Value& self, bool numpy) {
  auto s = std::make_shared<IteratorState>(self_dataset(self));
  s->numpy = numpy;
  return native_object(iterator_class(), std::move(s));
}

/// The traced function of map, filter and flat_map-like transformations.
std::shared_ptr<const data::DatasetFunction> traced(const Value& fn, const ElementSpec& element, const char* what) {
  return std::make_shared<data::DatasetFunction>(fn, data::element_arguments(element), what);
}

Value wrap(DatasetPtr ds) { return dataset_value(std::move(ds)); }

// ---- the methods (a[0] is self; the rest as the row's Python signature binds them)

Value m_batch(const std::vector<Value>& a) {
  return wrap(data::batch_dataset(self_dataset(a[0]), count_arg(a[1], "batch_size"), truthy(a[2])));
}

/// padded_shapes / padding_values given per component (a structure like the
/// element's, or None).
void flatten_like(const ElementSpec& spec, const Value& v, std::vector<Value>& out) {
  if (spec.kind == ElementSpec::Kind::Composite) {
    throw UnimplementedError("agc's Dataset.padded_batch does not support composite (RaggedTensor, SparseTensor) "
                             "elements: " + spec.repr());
  }
  if (spec.kind == ElementSpec::Kind::Tensor) {
    out.push_back(v);
    return;
  }
  const bool ok = spec.kind == ElementSpec::Kind::Tuple ? (v.is_tuple() || v.is_list()) && v.items().size() == spec.children.size()
                                                        : v.is_dict() && v.as_dict().size() == spec.children.size();
  if (!ok) {
    throw ValueError("The two structures don't have the same nested structure.\n\nFirst structure: " + spec.repr() +
                     "\n\nSecond structure: " + repr(v));
  }
  for (size_t i : spec.flat_order()) {
    flatten_like(spec.children[i], spec.kind == ElementSpec::Kind::Tuple ? v.items()[i] : v.as_dict().at(spec.keys[i]),
                 out);
  }
}

/// A padded shape as given: a TensorShape, a list of dims (None or -1 for
/// the batch's longest), or an integer vector tensor.
Shape padded_shape_of(const Value& v) {
  if (!v.is_tensor()) return shape_from_value(v);
  const Tensor& t = v.as_tensor().value();
  std::vector<int64_t> dims;
  for (int64_t k = 0; k < t.num_elements(); ++k) {
    dims.push_back(t.dtype() == DType::Int32 ? t.data<int32_t>()[k] : t.data<int64_t>()[k]);
  }
  return Shape(std::span<const int64_t>(dims));
}

Value m_padded_batch(const std::vector<Value>& a) {
  DatasetPtr ds = self_dataset(a[0]);
  const ElementSpec& spec = ds->element_spec();
  std::vector<TensorSpec> specs = spec.flat_specs();
  std::vector<Shape> shapes;
  if (a[2].is_none()) {
    for (size_t i = 0; i < specs.size(); ++i) {
      if (!specs[i].shape.rank_known()) {
        throw ValueError("You must provide `padded_shapes` argument because component " + std::to_string(i) +
                         " has unknown rank.");
      }
      shapes.push_back(Shape::unknown_dims(specs[i].shape.rank()));
    }
  } else {
    std::vector<Value> given;
    flatten_like(spec, a[2], given);
    for (size_t i = 0; i < given.size(); ++i) {
      Shape s = padded_shape_of(given[i]);
      const Shape& element = specs[i].shape;
      bool ok = element.rank_known() && s.rank_known() && s.rank() == element.rank();
      for (int d = 0; ok && d < s.rank(); ++d) {
        ok = s.dim(d) == kUnknownDim || element.dim(d) == kUnknownDim || s.dim(d) >= element.dim(d);
      }
      if (!ok) {
        throw ValueError("The padded shape " + s.str() + " is not compatible with the shape " + element.str() +
                         " of the corresponding input component.");
      }
      shapes.push_back(s);
    }
  }
  std::vector<Tensor> values;
  std::vector<Value> given_values;
  if (!a[3].is_none()) flatten_like(spec, a[3], given_values);
  for (size_t i = 0; i < specs.size(); ++i) {
    if (a[3].is_none()) {
      values.push_back(Tensor::zeros(specs[i].dtype, Shape{}));
      continue;
    }
    TensorHandle h = to_tensor(given_values[i]);
    if (h.dtype() != specs[i].dtype) {
      throw TypeError("Padding value type " + dtype_repr(h.dtype()) + " does not match type " +
                      dtype_repr(specs[i].dtype) + " of the corresponding input component.");
    }
    if (h.value().shape().rank() != 0) throw ValueError("Padding value should be a scalar.");
    values.push_back(h.value());
  }
  return wrap(data::padded_batch_dataset(ds, count_arg(a[1], "batch_size"), std::move(shapes), std::move(values),
                                         truthy(a[4])));
}

Value m_shuffle(const std::vector<Value>& a) {
  auto [seed, seed2] = tf::get_seed(a[2].is_tensor() ? Value(count_arg(a[2], "seed")) : a[2]);
  bool reshuffle = a[3].is_none() || truthy(a[3]);
  return wrap(data::shuffle_dataset(self_dataset(a[0]), count_arg(a[1], "buffer_size"), seed, seed2, reshuffle));
}

Value m_map(const std::vector<Value>& a) {
  DatasetPtr ds = self_dataset(a[0]);
  return wrap(data::map_dataset(ds, traced(a[1], ds->element_spec(), "map"), !a[2].is_none()));
}

Value m_filter(const std::vector<Value>& a) {
  DatasetPtr ds = self_dataset(a[0]);
  return wrap(data::filter_dataset(ds, traced(a[1], ds->element_spec(), "filter")));
}

Value m_repeat(const std::vector<Value>& a) {
  return wrap(data::repeat_dataset(self_dataset(a[0]), a[1].is_none() ? -1 : count_arg(a[1], "count")));
}

Value m_take(const std::vector<Value>& a) { return wrap(data::take_dataset(self_dataset(a[0]), count_arg(a[1], "count"))); }
Value m_skip(const std::vector<Value>& a) { return wrap(data::skip_dataset(self_dataset(a[0]), count_arg(a[1], "count"))); }

Value m_enumerate(const std::vector<Value>& a) {
  // TF: zip(range(start, int64 max), self).
  DatasetPtr ds = self_dataset(a[0]);
  DatasetPtr counter = data::range_dataset(count_arg(a[1], "start"), std::numeric_limits<int64_t>::max(), 1, DType::Int64);
  ElementSpec spec = ElementSpec::tuple({counter->element_spec(), ds->element_spec()});
  return wrap(data::zip_dataset({counter, ds}, std::move(spec)));
}

Value m_cache(const std::vector<Value>& a) {
  if (!a[1].is_str() || !a[1].as_str().empty()) {
    throw UnimplementedError("Dataset.cache(filename) is not supported: agc caches in memory only (cache())");
  }
  return wrap(data::cache_dataset(self_dataset(a[0])));
}

Value m_prefetch(const std::vector<Value>& a) {
  return wrap(data::prefetch_dataset(self_dataset(a[0]), count_arg(a[1], "buffer_size")));
}

Value m_unbatch(const std::vector<Value>& a) { return wrap(data::unbatch_dataset(self_dataset(a[0]))); }

Value m_concatenate(const std::vector<Value>& a) {
  DatasetPtr other = dataset_of(a[1]);
  if (!other) throw TypeError("`dataset` must be a `tf.data.Dataset` object, got " + a[1].type_name());
  return wrap(data::concatenate_dataset(self_dataset(a[0]), other));
}

Value m_apply(const std::vector<Value>& a) {
  Value out = a[1]({a[0]}, {});
  if (!dataset_of(out)) {
    throw TypeError("`transformation_func` must return a `tf.data.Dataset` object. Got " + out.type_name() + ".");
  }
  return out;
}

Value m_cardinality(const std::vector<Value>& a) {
  return Value(Tensor::scalar<int64_t>(self_dataset(a[0])->cardinality()));
}

Value m_reduce(const std::vector<Value>& a) {
  require_eager("reduce");
  DatasetPtr ds = self_dataset(a[0]);
  std::vector<Tensor> state;
  ElementSpec state_spec = data::structure_of(a[1], state, "reduce");
  // TF traces again with relaxed shapes while the function changes them.
  std::shared_ptr<data::DatasetFunction> fn;
  for (;;) {
    fn = std::make_shared<data::DatasetFunction>(a[2], std::vector<ElementSpec>{state_spec, ds->element_spec()},
                                                 "reduce");
    const ElementSpec& out = fn->output_spec();
    std::vector<TensorSpec> got = out.flat_specs();
    if (!out.same_types(state_spec)) {
      throw TypeError("The element types for the new state must match the initial state. Expected " +
                      state_spec.repr() + "; got " + out.repr() + ".");
    }
    bool relaxed = false;
    size_t i = 0;
    ElementSpec general = state_spec.map_specs([&](const TensorSpec& s) {
      Shape m = s.shape.most_specific_common_supertype(got[i++].shape);
      relaxed = relaxed || !(m == s.shape);
      return TensorSpec{s.dtype, m};
    });
    if (!relaxed) break;
    state_spec = std::move(general);
  }
  std::unique_ptr<data::DatasetIterator> it = ds->make_iterator();
  std::vector<Tensor> element, in, next;
  while (it->next(element)) {
    in = state;
    in.insert(in.end(), element.begin(), element.end());
    fn->run(in, next);
    state.swap(next);
  }
  return data::pack(fn->output_spec(), state);
}

Value m_len(const std::vector<Value>& a) {
  if (current_graph() != nullptr) {
    throw TypeError("`tf.data.Dataset` only supports `len` in eager mode. Use `tf.data.Dataset.cardinality()` "
                    "instead.");
  }
  int64_t n = self_dataset(a[0])->cardinality();
  if (n == data::kInfiniteCardinality) throw TypeError("The dataset is infinite.");
  if (n == data::kUnknownCardinality) throw TypeError("The dataset length is unknown.");
  return Value(n);
}

Value m_iter(const std::vector<Value>& a) {
  if (current_graph() != nullptr) {
    throw NotImplementedError("iterating a tf.data.Dataset inside a tf.function is supported as a `for` loop over "
                              "it (AutoGraph's dataset loop), not through iter()");
  }
  return make_iterator(a[0], false);
}

Value m_as_numpy_iterator(const std::vector<Value>& a) {
  if (current_graph() != nullptr) {
    throw RuntimeError("`tf.data.Dataset.as_numpy_iterator()` is only supported in eager mode.");
  }
  return make_iterator(a[0], true);
}

Value m_repr(const std::vector<Value>& a) { return Value(data::dataset_repr(*self_dataset(a[0]))); }

const Value& dataset_class() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    const Param self{"self", std::nullopt};
    const Param name{"name", Value()};
    auto method = [&](const char* n, std::vector<Param> params, Value (*fn)(const std::vector<Value>&)) {
      params.insert(params.begin(), self);
      attrs.push_back(native_method(std::string("DatasetV2.") + n, n, std::move(params), fn));
    };
    method("batch", {{"batch_size", std::nullopt}, {"drop_remainder", Value(false)}, {"num_parallel_calls", Value()},
                     {"deterministic", Value()}, name},
           m_batch);
    method("padded_batch", {{"batch_size", std::nullopt}, {"padded_shapes", Value()}, {"padding_values", Value()},
                            {"drop_remainder", Value(false)}, name},
           m_padded_batch);
    method("shuffle", {{"buffer_size", std::nullopt}, {"seed", Value()}, {"reshuffle_each_iteration", Value()}, name},
           m_shuffle);
    method("map", {{"map_func", std::nullopt}, {"num_parallel_calls", Value()}, {"deterministic", Value()}, name}, m_map);
    method("filter", {{"predicate", std::nullopt}, name}, m_filter);
    method("repeat", {{"count", Value()}, name}, m_repeat);
    method("take", {{"count", std::nullopt}, name}, m_take);
    method("skip", {{"count", std::nullopt}, name}, m_skip);
    method("enumerate", {{"start", Value(0)}, name}, m_enumerate);
    method("cache", {{"filename", Value("")}, name}, m_cache);
    method("prefetch", {{"buffer_size", std::nullopt}, name}, m_prefetch);
    method("unbatch", {name}, m_unbatch);
    method("concatenate", {{"dataset", std::nullopt}, name}, m_concatenate);
    method("apply", {{"transformation_func", std::nullopt}}, m_apply);
    method("cardinality", {}, m_cardinality);
    method("reduce", {{"initial_state", std::nullopt}, {"reduce_func", std::nullopt}, name}, m_reduce);
    method("as_numpy_iterator", {}, m_as_numpy_iterator);
    method("__iter__", {}, m_iter);
    method("__len__", {}, m_len);
    method("__bool__", {}, [](const std::vector<Value>&) { return Value(true); });
    method("__repr__", {}, m_repr);
    method("__str__", {}, m_repr);
    attrs.push_back({"element_spec", make_property(Value::callable("DatasetV2.element_spec", [](std::vector<Value> a, Kwargs) {
                       DatasetPtr ds = self_dataset(a.at(0));
                       std::vector<TensorSpec> specs = ds->element_spec().flat_specs();
                       std::vector<Value> values;
                       for (const TensorSpec& s : specs) values.push_back(make_tensor_spec(s.shape, s.dtype));
                       return data::pack_values(ds->element_spec(), values);
                     }))});
    attrs.push_back({"from_tensor_slices", make_staticmethod(builtin_value("tf.data.Dataset.from_tensor_slices",
                                                                       tf::api::data_Dataset_from_tensor_slices))});
    attrs.push_back({"from_tensors",
                     make_staticmethod(builtin_value("tf.data.Dataset.from_tensors", tf::api::data_Dataset_from_tensors))});
    attrs.push_back({"range", make_staticmethod(builtin_value("tf.data.Dataset.range", tf::api::data_Dataset_range))});
    attrs.push_back({"zip", make_staticmethod(builtin_value("tf.data.Dataset.zip", tf::api::data_Dataset_zip))});
    return make_class("DatasetV2", {}, std::move(attrs));
  }();
  return cls;
}

/// The subclass TF's dataset of this kind is an instance of.
const Value& kind_class(const char* class_name) {
  static std::mutex mu;
  static std::map<std::string, Value> classes;
  std::lock_guard<std::mutex> lock(mu);
  auto it = classes.find(class_name);
  if (it == classes.end()) it = classes.emplace(class_name, make_class(class_name, {dataset_class()}, {})).first;
  return it->second;
}

/// A dataset source's element from a Python value (from_tensors, from_tensor_slices).
ElementSpec element_of(const Value& tensors, std::vector<Tensor>& components, const char* what) {
  if (dataset_of(tensors)) {
    throw TypeError(std::string("`") + what + "` does not accept a `tf.data.Dataset` as its input");
  }
  return data::structure_of(tensors, components, what);
}

}  // namespace

Value dataset_value(DatasetPtr ds) {
  auto s = std::make_shared<DatasetState>();
  const char* name = ds->class_name();
  s->ds = std::move(ds);
  return native_object(kind_class(name), std::move(s));
}

DatasetPtr dataset_of(const Value& v) {
  auto* s = native_state<DatasetState>(v);
  return s ? s->ds : nullptr;
}

ElementIterator::ElementIterator(DatasetPtr ds) : ds_(std::move(ds)), it_(ds_->make_iterator()) {}

bool ElementIterator::next(Value& element) {
  if (!it_) return false;
  if (!it_->next(components_)) {
    it_.reset();
    return false;
  }
  element = data::pack(ds_->element_spec(), components_);
  return true;
}

}  // namespace api

namespace tf {

const Value& api::data_Dataset() { return ag::api::dataset_class(); }
const Value& api::data_AUTOTUNE() {
  static const Value v(int64_t{-1});
  return v;
}
const Value& api::data_INFINITE_CARDINALITY() {
  static const Value v(data::kInfiniteCardinality);
  return v;
}
const Value& api::data_UNKNOWN_CARDINALITY() {
  static const Value v(data::kUnknownCardinality);
  return v;
}

namespace impl {

Value dataset_from_tensor_slices(const TfCall& c) {
  // A RaggedTensor's rows: range(nrows) mapped to rt[i], so each element is
  // a row (a tensor for ragged rank 1, as TF yields it). Deviation: TF's
  // element_spec is a RaggedTensorSpec of ragged_rank 0, agc's a TensorSpec.
  if (ragged_parts(c["tensors"]) != nullptr) {
    Value rt = c["tensors"];
    Value nrows = rt.getattr("nrows")();
    Value rows = api::data_Dataset().getattr("range")({nrows});
    return rows.getattr("map")({Value::callable("from_tensor_slices", [rt](std::vector<Value> a, Kwargs) {
      return getitem(rt, a.at(0));
    })});
  }
  std::vector<Tensor> components;
  data::ElementSpec batched = ag::api::element_of(c["tensors"], components, "from_tensor_slices");
  for (const Tensor& t : components) {
    if (t.shape().rank() == 0) throw ValueError("Unbatching a tensor is only supported for rank >= 1");
  }
  for (size_t i = 1; i < components.size(); ++i) {
    if (components[i].shape().dim(0) != components[0].shape().dim(0)) {
      throw ValueError("Dimensions " + std::to_string(components[0].shape().dim(0)) + " and " +
                       std::to_string(components[i].shape().dim(0)) + " are not compatible");
    }
  }
  return ag::api::dataset_value(data::tensor_slice_dataset(std::move(components), std::move(batched)));
}

Value dataset_from_tensors(const TfCall& c) {
  std::vector<Tensor> components;
  data::ElementSpec spec = ag::api::element_of(c["tensors"], components, "from_tensors");
  return ag::api::dataset_value(data::tensor_dataset(std::move(components), std::move(spec)));
}

Value dataset_range(const TfCall& c) {
  // range(stop), range(start, stop), range(start, stop, step); output_type=tf.int64.
  std::vector<Value> args = c["args"].items();
  Kwargs kwargs;
  for (const auto& [k, v] : c["kwargs"].as_dict().entries) kwargs.emplace_back(k.as_str(), v);
  std::vector<Value> bound = bind_arguments("range", {{"output_type", Value()}, {"name", Value()}}, {}, std::move(kwargs));
  if (args.empty() || args.size() > 3) {
    throw ValueError("Invalid `args`. The length of `args` should be between 1 and 3 but was " +
                     std::to_string(args.size()) + ".");
  }
  int64_t start = 0, stop = 0, step = 1;
  if (args.size() == 1) {
    stop = ag::api::int_arg(args[0], "stop");
  } else {
    start = ag::api::int_arg(args[0], "start");
    stop = ag::api::int_arg(args[1], "stop");
    if (args.size() == 3) step = ag::api::int_arg(args[2], "step");
  }
  DType dtype = bound[0].is_none() ? DType::Int64 : require_dtype(bound[0]);
  return ag::api::dataset_value(data::range_dataset(start, stop, step, dtype));
}

Value dataset_zip(const TfCall& c) {
  Value datasets = c["datasets"];
  const std::vector<Value>& args = c["args"].items();
  if (!args.empty() && !datasets.is_none()) {
    throw TypeError("Both `*args` and `datasets` cannot be set.");
  }
  if (datasets.is_none()) {
    if (args.empty()) throw TypeError("Must pass at least one dataset to `zip`.");
    datasets = args.size() == 1 ? args[0] : Value::tuple(args);
  }
  // The structure of datasets gives the element's: a dataset is a leaf.
  std::vector<data::DatasetPtr> inputs;
  std::function<data::ElementSpec(const Value&)> walk = [&](const Value& v) -> data::ElementSpec {
    if (data::DatasetPtr d = ag::api::dataset_of(v)) {
      inputs.push_back(d);
      return d->element_spec();
    }
    if (v.is_tuple() || v.is_dict()) {
      data::ElementSpec e;
      e.kind = v.is_dict() ? data::ElementSpec::Kind::Dict : data::ElementSpec::Kind::Tuple;
      std::vector<Value> values;
      if (v.is_dict()) {
        for (const auto& [k, x] : v.as_dict().entries) {
          e.keys.push_back(k);
          values.push_back(x);
        }
      } else {
        values = v.items();
      }
      e.children.resize(values.size());
      for (size_t i : e.flat_order()) e.children[i] = walk(values[i]);
      return e;
    }
    throw TypeError("Invalid input to `zip`. Inputs are expected to be (nested) structures of `tf.data.Dataset` "
                    "objects. Python `list` is not supported and you should use `tuple` instead.");
  };
  data::ElementSpec spec = walk(datasets);
  return ag::api::dataset_value(data::zip_dataset(std::move(inputs), std::move(spec)));
}

}  // namespace impl
}  // namespace tf
}  // namespace ag

// Keras's functional API; see functional.h.
#include "runtime/keras/functional.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include "runtime/api/python_api.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/tracing.h"
#include "runtime/keras/layer.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/object_model.h"

namespace ag::keras {

/// One recorded layer call (Keras's Node).
struct CallRecord {
  Value layer;
  Value inputs;
  std::vector<Value> args;
  Kwargs kwargs;
  Value outputs;
  int node_index = 0;  ///< which call of `layer` this is
};

namespace {

using TensorKey = std::pair<const Node*, int>;

TensorKey key_of(const TensorHandle& h) { return {h.output().node, h.output().index}; }

/// Every symbolic layer call of the process, keyed by the tensors it made.
struct Registry {
  std::mutex mu;
  Graph graph{"keras_graph"};
  std::map<TensorKey, std::pair<std::shared_ptr<CallRecord>, int>> history;
  std::map<const void*, std::vector<std::shared_ptr<CallRecord>>> by_layer;
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: layers may outlive static destruction order
  return *r;
}

/// The tensors of a nesting of lists, tuples and dicts, in order.
void flatten(const Value& v, std::vector<Value>& out) {
  switch (v.kind()) {
    case Kind::List:
    case Kind::Tuple:
      for (const Value& x : v.items()) flatten(x, out);
      return;
    case Kind::Dict:
      for (const auto& [k, x] : v.as_dict().entries) flatten(x, out);
      return;
    default: out.push_back(v);
  }
}

/// `structure` with each leaf replaced by fn(leaf).
Value map_structure(const Value& v, const std::function<Value(const Value&)>& fn) {
  switch (v.kind()) {
    case Kind::List:
    case Kind::Tuple: {
      std::vector<Value> items;
      for (const Value& x : v.items()) items.push_back(map_structure(x, fn));
      return v.is_list() ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    case Kind::Dict: {
      std::vector<std::pair<Value, Value>> items;
      for (const auto& [k, x] : v.as_dict().entries) items.emplace_back(k, map_structure(x, fn));
      return Value::dict(std::move(items));
    }
    default: return fn(v);
  }
}

bool is_keras_tensor(const Value& v) {
  if (!v.is_tensor() || !v.as_tensor().symbolic()) return false;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.history.count(key_of(v.as_tensor())) > 0;
}

/// (None, 784): a shape as Keras prints it.
Value shape_tuple(const Shape& s) {
  std::vector<Value> dims;
  if (!s.rank_known()) return Value();
  for (int i = 0; i < s.rank(); ++i) dims.push_back(s.dim(i) < 0 ? Value() : Value(s.dim(i)));
  return Value::tuple(std::move(dims));
}

std::string keras_tensor_repr(const Value& t) {
  const TensorHandle& h = t.as_tensor();
  std::string name = h.output().node->name;
  return "KerasTensor(type_spec=TensorSpec(shape=" + str(shape_tuple(h.shape())) + ", dtype=tf." +
         dtype_name(h.dtype()) + ", name='" + name + "'), name='" + name + "', description=\"created by layer '" + name +
         "'\")";
}

Value make_input_layer_class() {
  return make_layer_class(LayerDef{
      .name = "InputLayer",
      .init_params = {{"input_shape", Value()},
                      {"batch_size", Value()},
                      {"dtype", Value()},
                      {"input_tensor", Value()},
                      {"sparse", Value()},
                      {"name", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            Value name = a[6].is_none() ? Value(unique_name("input")) : a[6];
            init_base(self, name, Value(false), Value(), Value::dict());
            self.setattr("built", true);
          },
      .config = {},
  });
}

}  // namespace

const Value& input_layer_class() {
  static const Value cls = make_input_layer_class();
  return cls;
}

struct SymbolicScope::State {
  explicit State(Graph& g) : trace(g) {}
  TraceScope trace;
};

SymbolicScope::SymbolicScope() : state_(std::make_unique<State>(registry().graph)) {}
SymbolicScope::~SymbolicScope() = default;

bool is_symbolic(const Value& inputs) {
  std::vector<Value> flat;
  flatten(inputs, flat);
  for (const Value& v : flat) {
    if (is_keras_tensor(v)) return true;
  }
  return false;
}

Value record_call(const Value& layer, const Value& inputs, const std::vector<Value>& args, const Kwargs& kwargs,
                  const Value& outputs) {
  std::vector<Value> flat_in;
  flatten(inputs, flat_in);
  for (const Value& a : args) flatten(a, flat_in);
  std::set<TensorKey> input_keys;
  for (const Value& v : flat_in) {
    if (v.is_tensor() && v.as_tensor().symbolic()) input_keys.insert(key_of(v.as_tensor()));
  }
  Value outs = map_structure(outputs, [&](const Value& v) -> Value {
    if (!v.is_tensor()) {
      throw ValueError("A layer's `call` method should return a Tensor or a list of Tensors, not " + str(v) +
                       " (layer: " + layer_name(layer) + ").");
    }
    if (!v.as_tensor().symbolic()) return Value(in_graph(registry().graph, v.as_tensor()));
    if (input_keys.count(key_of(v.as_tensor()))) return tf::api::identity({v}, {});
    return v;
  });
  auto record = std::make_shared<CallRecord>();
  record->layer = layer;
  record->inputs = inputs;
  record->args = args;
  record->kwargs = kwargs;
  record->outputs = outs;
  std::vector<Value> flat_out;
  flatten(outs, flat_out);
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto& calls = r.by_layer[&layer.as_object()];
  record->node_index = static_cast<int>(calls.size());
  calls.push_back(record);
  for (size_t i = 0; i < flat_out.size(); ++i) r.history[key_of(flat_out[i].as_tensor())] = {record, static_cast<int>(i)};
  return outs;
}

std::string producing_layer(const Value& t) {
  if (!t.is_tensor() || !t.as_tensor().symbolic()) return "";
  Registry& r = registry();
  std::shared_ptr<CallRecord> rec;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.history.find(key_of(t.as_tensor()));
    if (it == r.history.end()) return "";
    rec = it->second.first;
  }
  return layer_name(rec->layer);
}

std::vector<Value> recorded_output_shapes(const Value& layer) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<Value> out;
  auto it = r.by_layer.find(&layer.as_object());
  if (it == r.by_layer.end()) return out;
  for (const auto& rec : it->second) {
    out.push_back(map_structure(rec->outputs, [](const Value& t) { return shape_tuple(t.as_tensor().shape()); }));
  }
  return out;
}

Value make_input(const Value& shape, const Value& batch_size, const Value& name, const Value& dtype) {
  if (shape.is_none()) {
    throw ValueError("Please provide to Input a `shape` or a `tensor` or a `type_spec` argument. Note that `shape` does "
                     "not include the batch dimension.");
  }
  std::vector<int64_t> dims{batch_size.is_none() ? kUnknownDim : batch_size.as_int()};
  for (const Value& d : iterate(shape)) dims.push_back(d.is_none() ? kUnknownDim : d.as_int());
  DType dt = dtype.is_none() ? DType::Float32 : require_dtype(dtype);
  Value layer = input_layer_class()({}, {{"name", name}});
  Output placeholder;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    placeholder = r.graph.placeholder(TensorSpec{dt, Shape(std::span<const int64_t>(dims))}, layer_name(layer));
  }
  return record_call(layer, Value(), {}, {}, Value(TensorHandle(placeholder)));
}

struct FunctionalGraph {
  Value inputs, outputs;
  std::vector<Value> flat_inputs;
  std::vector<std::shared_ptr<CallRecord>> calls;  ///< topological order, InputLayer calls excluded
  std::vector<Value> input_layers;
};

std::shared_ptr<const FunctionalGraph> trace_graph(const Value& inputs, const Value& outputs) {
  auto g = std::make_shared<FunctionalGraph>();
  g->inputs = inputs;
  g->outputs = outputs;
  flatten(inputs, g->flat_inputs);
  std::set<TensorKey> given;
  Registry& r = registry();
  std::unique_lock<std::mutex> lock(r.mu);
  auto history = [&](const Value& t) -> std::pair<std::shared_ptr<CallRecord>, int> {
    if (!t.is_tensor() || !t.as_tensor().symbolic() || !r.history.count(key_of(t.as_tensor()))) {
      throw TypeError("Keras symbolic inputs/outputs do not implement `op`. You may be trying to pass Keras symbolic "
                      "inputs/outputs to a TF API that does not register dispatching, preventing Keras from "
                      "automatically converting the API call to a lambda layer in the Functional Model. Found: " +
                      str(t));
    }
    return r.history.at(key_of(t.as_tensor()));
  };
  for (const Value& t : g->flat_inputs) {
    auto [rec, idx] = history(t);
    if (!rec->inputs.is_none() || !is_instance(rec->layer, input_layer_class())) {
      // Keras accepts only Input tensors as a functional model's inputs.
      throw ValueError("Input tensors to a Functional must come from `tf.keras.Input`. Received: " + str(t) +
                       " (missing previous layer metadata).");
    }
    given.insert(key_of(t.as_tensor()));
    g->input_layers.push_back(rec->layer);
  }
  std::set<const CallRecord*> done, visiting;
  std::vector<std::string> accessed;
  std::function<void(const Value&, const CallRecord*)> visit_tensor;
  std::function<void(const std::shared_ptr<CallRecord>&)> visit_call = [&](const std::shared_ptr<CallRecord>& rec) {
    if (done.count(rec.get()) || visiting.count(rec.get())) return;
    visiting.insert(rec.get());
    std::vector<Value> flat;
    flatten(rec->inputs, flat);
    for (const Value& a : rec->args) flatten(a, flat);
    for (const auto& [k, v] : rec->kwargs) flatten(v, flat);
    for (const Value& t : flat) {
      if (t.is_tensor() && t.as_tensor().symbolic()) visit_tensor(t, rec.get());
    }
    done.insert(rec.get());
    g->calls.push_back(rec);
    accessed.push_back(layer_name(rec->layer));
  };
  visit_tensor = [&](const Value& t, const CallRecord* consumer) {
    if (given.count(key_of(t.as_tensor()))) return;
    auto [rec, idx] = history(t);
    if (rec->inputs.is_none() && is_instance(rec->layer, input_layer_class())) {
      std::string list;
      for (size_t i = 0; i < accessed.size(); ++i) list += (i ? ", '" : "'") + accessed[i] + "'";
      throw ValueError("Graph disconnected: cannot obtain value for tensor " + keras_tensor_repr(t) + " at layer \"" +
                       (consumer ? layer_name(consumer->layer) : std::string("?")) +
                       "\". The following previous layers were accessed without issue: [" + list + "]");
    }
    visit_call(rec);
  };
  std::vector<Value> flat_out;
  flatten(outputs, flat_out);
  for (const Value& t : flat_out) visit_tensor(t, nullptr);
  return g;
}

Value run_graph(const FunctionalGraph& g, const Value& inputs) {
  std::vector<Value> given;
  flatten(inputs, given);
  if (given.size() != g.flat_inputs.size()) {
    throw ValueError("Layer \"model\" expects " + std::to_string(g.flat_inputs.size()) + " input(s), but it received " +
                     std::to_string(given.size()) + " input tensors. Inputs received: " + str(inputs));
  }
  std::map<TensorKey, Value> values;
  for (size_t i = 0; i < given.size(); ++i) values[key_of(g.flat_inputs[i].as_tensor())] = given[i];
  auto substitute = [&](const Value& v) {
    return map_structure(v, [&](const Value& x) -> Value {
      if (x.is_tensor() && x.as_tensor().symbolic()) {
        auto it = values.find(key_of(x.as_tensor()));
        if (it != values.end()) return it->second;
      }
      return x;
    });
  };
  for (const auto& rec : g.calls) {
    std::vector<Value> args{substitute(rec->inputs)};
    for (const Value& a : rec->args) args.push_back(substitute(a));
    Kwargs kwargs;
    for (const auto& [k, v] : rec->kwargs) kwargs.emplace_back(k, substitute(v));
    Value out = rec->layer(std::move(args), std::move(kwargs));
    std::vector<Value> want, got;
    flatten(rec->outputs, want);
    flatten(out, got);
    for (size_t i = 0; i < want.size() && i < got.size(); ++i) values[key_of(want[i].as_tensor())] = got[i];
  }
  return substitute(g.outputs);
}

std::vector<Value> graph_layers(const FunctionalGraph& g) {
  std::vector<Value> out;
  std::set<const void*> seen;
  auto add = [&](const Value& l) {
    if (seen.insert(&l.as_object()).second) out.push_back(l);
  };
  for (const Value& l : g.input_layers) add(l);
  for (const auto& rec : g.calls) add(rec->layer);
  return out;
}

const Value& graph_inputs(const FunctionalGraph& g) { return g.inputs; }
const Value& graph_outputs(const FunctionalGraph& g) { return g.outputs; }

std::vector<std::string> connected_to(const FunctionalGraph& g, const Value& layer) {
  std::vector<std::string> out;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (const auto& rec : g.calls) {
    if (!rec->layer.is(layer)) continue;
    // Keras's Node.keras_inputs: tf.nest.flatten((args, kwargs)), the
    // keyword arguments in sorted order (MultiHeadAttention's value=, key=).
    std::vector<Value> flat;
    flatten(rec->inputs, flat);
    for (const Value& a : rec->args) flatten(a, flat);
    Kwargs sorted = rec->kwargs;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& kv : sorted) flatten(kv.second, flat);
    for (const Value& t : flat) {
      if (!t.is_tensor() || !t.as_tensor().symbolic()) continue;
      auto it = r.history.find(key_of(t.as_tensor()));
      if (it == r.history.end()) continue;
      out.push_back(layer_name(it->second.first->layer) + "[" + std::to_string(it->second.first->node_index) + "][" +
                    std::to_string(it->second.second) + "]");
    }
    break;
  }
  return out;
}

}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_Input() {
  static const Value fn = make_function(
      "Input",
      {{"shape", Value()}, {"batch_size", Value()}, {"name", Value()}, {"dtype", Value()}, {"sparse", Value()},
       {"tensor", Value()}, {"ragged", Value()}, {"type_spec", Value()}, {"kwargs", std::nullopt, ParamKind::VarKeyword}},
      [](const std::vector<Value>& a) -> Value {
        if (truthy(a[4]) || truthy(a[6]) || !a[5].is_none() || !a[7].is_none()) {
          throw UnimplementedError("agc: keras.Input supports `shape`, `batch_size`, `name` and `dtype` only");
        }
        for (const auto& [k, v] : a[8].as_dict().entries) {
          if (k.as_str() == "batch_shape") continue;
          throw ValueError("Unrecognized keyword arguments: " + str(a[8]));
        }
        return keras::make_input(a[0], a[1], a[2], a[3]);
      });
  return fn;
}

}  // namespace ag::tf::api

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
#include "runtime/value/symbolic_dispatch.h"

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

/// Whether `rec` is an InputLayer's own call (keras.Input's placeholder).
bool is_input_call(const CallRecord& rec) {
  return rec.inputs.is_none() && is_instance(rec.layer, input_layer_class());
}

/// KerasTensor's str() (`as_repr` false) and repr() of a tensor of the Keras
/// graph, as Keras 2.15 prints them: an Input's tensor carries its layer's
/// name in its TensorSpec and as its own; a layer's output, the graph
/// tensor's name ("dense/BiasAdd:0"). nullopt for other graphs' tensors.
std::optional<std::string> keras_tensor_text(const TensorHandle& h, bool as_repr) {
  Registry& r = registry();
  if (h.output().node->graph != &r.graph) return std::nullopt;
  std::string layer;
  bool input = false;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.history.find(key_of(h));
    if (it == r.history.end()) return std::nullopt;
    layer = layer_name(it->second.first->layer);
    input = is_input_call(*it->second.first);
  }
  std::string shape = str(shape_tuple(h.shape()));
  if (as_repr) {
    return "<KerasTensor: shape=" + shape + " dtype=" + dtype_name(h.dtype()) + " (created by layer '" + layer + "')>";
  }
  std::string name = input ? h.output().node->name : h.output().name();
  return "KerasTensor(type_spec=TensorSpec(shape=" + shape + ", dtype=tf." + dtype_name(h.dtype()) +
         ", name=" + (input ? "'" + name + "'" : std::string("None")) + "), name='" + name +
         "', description=\"created by layer '" + layer + "'\")";
}

std::string keras_tensor_repr(const Value& t) {
  std::optional<std::string> text = keras_tensor_text(t.as_tensor(), false);
  return text ? *text : str(t);
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
            // Keras: "input_" + backend.get_uid("input"), counting from 1.
            Value name = a[6].is_none() ? Value("input_" + std::to_string(keras_uid("input"))) : a[6];
            init_base(self, name, Value(false), Value(), Value::dict());
            self.setattr("built", true);
          },
      .config = {},
  });
}

/// Keras's TFOpLambda: a TF function called on KerasTensors, as a layer
/// named after the function's API symbol ("tf.math.multiply", "_1" on the
/// next); call(*args, **kwargs) calls the function. Like Keras's, it neither
/// converts nor casts its arguments, and takes no `training`.
Value make_op_lambda_class() {
  return make_layer_class(LayerDef{
      .name = "TFOpLambda",
      .init_params = {{"function", std::nullopt}, {"name", Value()}, {"trainable", Value(true)}, {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[2], a[3], a[4], a[5]);
            self.setattr("function", a[1]);
            self.setattr("_autocast", false);
            self.setattr("_expects_training_arg", false);
          },
      .call_params = {{"args", std::nullopt, ParamKind::VarPositional}, {"kwargs", std::nullopt, ParamKind::VarKeyword}},
      .call =
          [](const std::vector<Value>& a) {
            std::vector<Value> args{a[1]};
            for (const Value& x : a[2].items()) args.push_back(x);
            Kwargs kwargs;
            for (const auto& [k, v] : a[3].as_dict().entries) kwargs.emplace_back(k.as_str(), v);
            return a[0].getattr("function")(std::move(args), std::move(kwargs));
          },
      .config = {},
  });
}

/// Whether `v` (a nesting) holds a tensor of the Keras graph.
bool holds_keras_graph_tensor(const Value& v, const Graph& keras) {
  std::vector<Value> flat;
  flatten(v, flat);
  for (const Value& x : flat) {
    if (x.is_tensor() && x.as_tensor().symbolic() && x.as_tensor().output().node->graph == &keras) return true;
  }
  return false;
}

/// The symbolic dispatch hook (value/symbolic_dispatch.h): a call given a
/// KerasTensor, made while no layer's symbolic call is tracing the Keras
/// graph, becomes a TFOpLambda layer called on the same arguments.
std::optional<Value> dispatch_to_op_lambda(std::string_view symbol, DispatchedFn fn, const std::vector<Value>& args,
                                           const Kwargs& kwargs) {
  Graph& keras = registry().graph;
  if (current_graph() == &keras) return std::nullopt;
  bool found = false;
  for (const Value& a : args) found = found || holds_keras_graph_tensor(a, keras);
  for (const auto& kv : kwargs) found = found || holds_keras_graph_tensor(kv.second, keras);
  if (!found) return std::nullopt;
  static const Value cls = make_op_lambda_class();
  // Keras's SlicingOpDispatcher: subscripts and boolean masks make a
  // SlicingOpLambda (a TFOpLambda that serializes slices).
  static const Value slicing_cls = make_layer_class(LayerDef{.name = "SlicingOpLambda", .base = cls});
  bool slicing = symbol == "__operators__.getitem" || symbol == "boolean_mask" || symbol == "compat.v1.boolean_mask";
  std::string name = "tf." + std::string(symbol);
  Value layer = (slicing ? slicing_cls : cls)({Value::callable(name, fn)}, {{"name", Value(unique_name(name))}});
  return layer(args, kwargs);
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
  set_symbolic_dispatch(dispatch_to_op_lambda);
  set_symbolic_text(keras_tensor_text);
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
  std::vector<std::shared_ptr<CallRecord>> calls;  ///< in Keras's run order, InputLayer calls excluded
  std::vector<Value> layers;                       ///< Keras's model.layers order
};

namespace {

/// A call's symbolic arguments as Keras's Node.keras_inputs:
/// tf.nest.flatten((args, kwargs)), the keyword arguments sorted by name.
std::vector<Value> keras_inputs(const CallRecord& rec) {
  std::vector<Value> flat, out;
  flatten(rec.inputs, flat);
  for (const Value& a : rec.args) flatten(a, flat);
  Kwargs sorted = rec.kwargs;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& kv : sorted) flatten(kv.second, flat);
  for (const Value& t : flat) {
    if (t.is_tensor() && t.as_tensor().symbolic()) out.push_back(t);
  }
  return out;
}

}  // namespace

// Keras's _map_graph_network: the calls reached from the outputs (a
// depth-first walk numbering layers as it meets them), each call's depth the
// longest path from it to an output, layers ordered by decreasing depth and
// then by that numbering, calls run by decreasing depth.
std::shared_ptr<const FunctionalGraph> trace_graph(const Value& inputs, const Value& outputs) {
  auto g = std::make_shared<FunctionalGraph>();
  g->inputs = inputs;
  g->outputs = outputs;
  flatten(inputs, g->flat_inputs);
  std::set<const CallRecord*> given;
  std::vector<std::shared_ptr<CallRecord>> input_calls;
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
    if (!is_input_call(*rec)) {
      // Keras accepts only Input tensors as a functional model's inputs.
      throw ValueError("Input tensors to a Functional must come from `tf.keras.Input`. Received: " + str(t) +
                       " (missing previous layer metadata).");
    }
    given.insert(rec.get());
    input_calls.push_back(rec);
  }
  // _build_map: calls in post-order (nodes_in_decreasing_depth), layers
  // numbered in pre-order (layer_indices).
  std::vector<std::shared_ptr<CallRecord>> post_order;
  std::set<const CallRecord*> finished, in_progress;
  std::map<const void*, int> layer_index;
  std::vector<std::string> accessed;
  std::function<void(const Value&, const CallRecord*)> visit = [&](const Value& t, const CallRecord* consumer) {
    std::shared_ptr<CallRecord> rec = history(t).first;
    if (finished.count(rec.get())) return;
    if (in_progress.count(rec.get())) throw ValueError("The tensor " + str(t) + " is part of a cycle.");
    if (is_input_call(*rec) && !given.count(rec.get())) {
      std::string list;
      for (size_t i = 0; i < accessed.size(); ++i) list += (i ? ", '" : "'") + accessed[i] + "'";
      throw ValueError("Graph disconnected: cannot obtain value for tensor " + keras_tensor_repr(t) + " at layer \"" +
                       (consumer ? layer_name(consumer->layer) : std::string("?")) +
                       "\". The following previous layers were accessed without issue: [" + list + "]");
    }
    layer_index.emplace(&rec->layer.as_object(), static_cast<int>(layer_index.size()));
    in_progress.insert(rec.get());
    if (!is_input_call(*rec)) {
      for (const Value& x : keras_inputs(*rec)) visit(x, rec.get());
    }
    finished.insert(rec.get());
    in_progress.erase(rec.get());
    post_order.push_back(rec);
    if (!is_input_call(*rec)) accessed.push_back(layer_name(rec->layer));
  };
  std::vector<Value> flat_out;
  flatten(outputs, flat_out);
  for (const Value& t : flat_out) visit(t, nullptr);
  // Depths, walking the calls from the outputs back; a layer called twice
  // takes the deeper of its calls' depths. The map keeps Keras's dict order
  // (first insertion), which orders the calls of one depth.
  std::vector<const CallRecord*> depth_order;
  std::map<const CallRecord*, int> call_depth;
  std::map<const void*, int> layer_depth;
  auto set_depth = [&](const CallRecord* c, int d) {
    auto [it, inserted] = call_depth.emplace(c, d);
    if (inserted) depth_order.push_back(c);
    else it->second = d;
  };
  for (auto it = post_order.rbegin(); it != post_order.rend(); ++it) {
    const CallRecord* c = it->get();
    if (!call_depth.count(c)) set_depth(c, 0);
    int depth = std::max(call_depth[c], layer_depth[&c->layer.as_object()]);
    layer_depth[&c->layer.as_object()] = depth;
    set_depth(c, depth);
    if (is_input_call(*c)) continue;
    for (const Value& x : keras_inputs(*c)) {
      const CallRecord* parent = r.history.at(key_of(x.as_tensor())).first.get();
      auto found = call_depth.find(parent);
      set_depth(parent, std::max(depth + 1, found == call_depth.end() ? 0 : found->second));
    }
  }
  // An input no output needs still is a layer of the model, at depth 0.
  for (const auto& rec : input_calls) {
    if (layer_index.emplace(&rec->layer.as_object(), -1).second) {
      layer_depth[&rec->layer.as_object()] = 0;
      set_depth(rec.get(), 0);
      post_order.push_back(rec);
    }
  }
  std::map<const CallRecord*, std::shared_ptr<CallRecord>> owner;
  for (const auto& rec : post_order) owner[rec.get()] = rec;
  int max_depth = 0;
  for (const auto& [c, d] : call_depth) max_depth = std::max(max_depth, d);
  for (int d = max_depth; d >= 0; --d) {
    for (const CallRecord* c : depth_order) {
      if (call_depth[c] == d && !is_input_call(*c)) g->calls.push_back(owner.at(c));
    }
  }
  std::vector<Value> layers;
  std::set<const void*> seen;
  for (const auto& rec : post_order) {
    if (seen.insert(&rec->layer.as_object()).second) layers.push_back(rec->layer);
  }
  std::stable_sort(layers.begin(), layers.end(), [&](const Value& a, const Value& b) {
    int da = layer_depth[&a.as_object()], db = layer_depth[&b.as_object()];
    if (da != db) return da > db;
    return layer_index[&a.as_object()] < layer_index[&b.as_object()];
  });
  g->layers = std::move(layers);
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

std::vector<Value> graph_layers(const FunctionalGraph& g) { return g.layers; }

const Value& graph_inputs(const FunctionalGraph& g) { return g.inputs; }
const Value& graph_outputs(const FunctionalGraph& g) { return g.outputs; }

std::vector<std::string> connected_to(const FunctionalGraph& g, const Value& layer) {
  std::vector<std::string> out;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (const auto& rec : g.calls) {
    if (!rec->layer.is(layer)) continue;
    for (const Value& t : keras_inputs(*rec)) {
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

// Keras 2.15's `.weights.h5` files (keras/src/saving/saving_lib.py:
// save_weights_only, load_weights_only); see weights_h5.h.
//
// Keras walks the model the way _save_state does: each Keras object (a
// layer, model or metric; an optimizer) stores its own variables in a group
// "<path>/vars" as datasets "0", "1", ... (the root's at "vars"), then its
// attributes are visited in dir() order (sorted, so "_private" ones before
// public ones), a Keras object at "<path>/<attribute>", one inside a list,
// tuple or dict at "<path>/<attribute>/<snake_case class name>" (then
// "dense_1", "dense_2", ... as the class repeats, counting entries already
// saved elsewhere, which are skipped). A Sequential or functional model's
// first such attribute is _layer_checkpoint_dependencies, the dict of its
// layers a checkpoint uses ({"layer_with_weights-0": dense, "layer-0":
// dense, ...}), so a Sequential of two Dense layers writes
//   vars                                          (the model's own: none)
//   _layer_checkpoint_dependencies/dense/vars/0   kernel
//   _layer_checkpoint_dependencies/dense/vars/1   bias
//   _layer_checkpoint_dependencies/dense_2/vars/0 ...
// then, once trained, metrics/mean/vars/{0,1} (the "loss" Mean's total and
// count, then each compiled metric) and optimizer/vars/{0,1,...}
// (iterations, then the optimizer's slots).
#include <map>
#include <set>

#include "runtime/api/python_api.h"
#include "runtime/core/error.h"
#include "runtime/core/hdf5_file.h"
#include "runtime/function/function.h"
#include "runtime/keras/layer.h"
#include "runtime/keras/model.h"
#include "runtime/keras/weights_h5.h"
#include "runtime/value/object_model.h"
#include "runtime/value/set_value.h"

namespace ag::keras {

namespace {

/// Keras's ATTR_SKIPLIST: attributes _walk_trackable never visits.
bool v3_skipped(const std::string& name) {
  static const std::set<std::string> kSkip = {
      "_callable_losses", "_captured_weight_regularizer", "_checkpoint_dependencies", "_deferred_dependencies",
      "_eager_losses", "_inbound_nodes", "_inbound_nodes_value", "_output_layers", "_input_layers",
      "_keras_api_names", "_keras_api_names_v1", "_name_based_restores", "_non_trainable_weights",
      "_outbound_nodes", "_outbound_nodes_value", "_saved_model_arg_spec", "_self_name_based_restores",
      "_self_saveable_object_factories", "_self_tracked_trackables", "_saved_model_inputs_spec",
      "_self_unconditional_checkpoint_dependencies", "_self_unconditional_deferred_dependencies",
      "_self_unconditional_dependency_names", "_tf_api_names", "_tf_api_names_v1", "_trainable_weights",
      "_unconditional_checkpoint_dependencies", "_unconditional_dependency_names", "_updates",
      "_layer_call_argspecs", "inbound_nodes", "outbound_nodes", "input_shape", "output_shape", "submodules",
      "weights", "non_trainable_weights", "trainable_weights", "variables", "non_trainable_variables",
      "trainable_variables", "updates", "state_updates"};
  return name.rfind("__", 0) == 0 || kSkip.count(name) != 0;
}

bool is_v3_optimizer(const Value& v) {
  return v.is_object() && is_instance(v, tf::api::keras_optimizers_Optimizer());
}

/// _is_keras_trackable for what holds state: layers (models and metrics are
/// layers) and optimizers. (A Keras Loss is one too, but holds nothing.)
bool is_v3_trackable(const Value& v) { return v.is_object() && (is_layer(v) || is_v3_optimizer(v)); }

bool is_v3_container(const Value& v) { return v.is_list() || v.is_tuple() || v.is_dict() || v.is_set(); }

/// A Sequential, or a model of Model(inputs, outputs): Keras's Functional.
bool is_v3_functional(const Value& m) {
  return is_model(m) && (is_instance(m, sequential_class()) || model_graph(m) != nullptr);
}

/// type(obj).__name__: keras.Model(inputs, outputs) makes a Functional.
std::string v3_class_name(const Value& v) {
  if (is_model(v) && v.type_name() == "Model" && model_graph(v) != nullptr) return "Functional";
  return v.type_name();
}

/// The values of Functional._layer_checkpoint_dependencies, in its order:
/// "layer_with_weights-N" (a layer with weights) before "layer-N" for each
/// of model.layers.
Value checkpoint_dependencies(const Value& model) {
  std::vector<Value> out;
  for (const Value& l : model_layers(model)) {
    if (!layer_weights(l, WeightKind::All).empty()) out.push_back(l);
    out.push_back(l);
  }
  return Value::list(std::move(out));
}

/// _walk_trackable: an object's attributes in dir() order, Keras's
/// properties among them (a model's layers, _layer_checkpoint_dependencies
/// and metrics). An optimizer's hold nothing Keras saves.
std::vector<std::pair<std::string, Value>> v3_children(const Value& obj) {
  std::map<std::string, Value> out;
  if (!is_layer(obj)) return {};
  for (const auto& [name, v] : obj.as_object().attrs) {
    if (name.rfind("_agc_", 0) == 0 || v3_skipped(name)) continue;
    out.emplace(name, v);
  }
  if (is_model(obj)) {
    out["layers"] = Value::list(model_layers(obj));
    if (is_v3_functional(obj)) out["_layer_checkpoint_dependencies"] = checkpoint_dependencies(obj);
    out["metrics"] = obj.getattr("metrics");
  }
  return {out.begin(), out.end()};
}

/// A container's items, a dict's values.
std::vector<Value> v3_items(const Value& c) {
  if (c.is_dict()) {
    std::vector<Value> out;
    for (const auto& [k, v] : c.as_dict().entries) out.push_back(v);
    return out;
  }
  return iterate(c);
}

std::string v3_join(const std::string& path, const std::string& name) { return path.empty() ? name : path + "/" + name; }

/// What _save_container_state and _load_container_state name each Keras
/// object of a container: its class in snake case, "_N" when repeated.
std::vector<std::pair<std::string, Value>> v3_named_items(const Value& container, const std::string& path) {
  std::map<std::string, int> used;
  std::vector<std::pair<std::string, Value>> out;
  for (const Value& item : v3_items(container)) {
    if (!is_v3_trackable(item)) continue;
    std::string name = snake_case(v3_class_name(item));
    auto it = used.find(name);
    if (it == used.end()) {
      used[name] = 0;
    } else {
      name += "_" + std::to_string(++it->second);
    }
    out.emplace_back(v3_join(path, name), item);
  }
  return out;
}

/// The variables an object stores: a layer's own, an optimizer's.
std::vector<Value> v3_variables(const Value& obj) {
  if (is_layer(obj)) return own_weights(obj);
  return iterate(obj.getattr("variables"));
}

const void* v3_identity(const Value& obj) { return &obj.as_object(); }

/// _save_state over the model.
class V3Saver {
 public:
  explicit V3Saver(Hdf5Group root) : root_(std::move(root)) {}

  void save(const Value& obj, const std::string& path) {
    if (visited_.count(v3_identity(obj))) return;
    // H5IOStore.make: "<path>/vars", or "vars" for the root.
    Hdf5Group vars = path.empty() ? root_.create_group("vars") : root_.create_group(path).create_group("vars");
    std::vector<Value> variables = v3_variables(obj);
    for (size_t i = 0; i < variables.size(); ++i) vars.write_dataset(std::to_string(i), weight_value(variables[i]));
    visited_.insert(v3_identity(obj));
    for (const auto& [name, child] : v3_children(obj)) {
      if (is_v3_trackable(child)) {
        save(child, v3_join(path, name));
      } else if (is_v3_container(child)) {
        for (const auto& [item_path, item] : v3_named_items(child, v3_join(path, name))) save(item, item_path);
      }
    }
  }

 private:
  Hdf5Group root_;
  std::set<const void*> visited_;
};

/// _load_state over the model.
class V3Loader {
 public:
  V3Loader(Hdf5Group root, bool skip_mismatch) : root_(std::move(root)), skip_mismatch_(skip_mismatch) {}

  void load(const Value& obj, const std::string& path) {
    if (visited_.count(v3_identity(obj))) return;
    if (skip_mismatch_) {
      try {
        load_own(obj, path);
      } catch (const Error& e) {
        tf_warning("Could not load weights in object " + repr(obj) + ". Skipping object. Exception encountered: " +
                   e.what());
      }
    } else {
      load_own(obj, path);
    }
    visited_.insert(v3_identity(obj));
    for (const auto& [name, child] : v3_children(obj)) {
      if (is_v3_trackable(child)) {
        load(child, v3_join(path, name));
      } else if (is_v3_container(child)) {
        for (const auto& [item_path, item] : v3_named_items(child, v3_join(path, name))) load(item, item_path);
      }
    }
  }

 private:
  /// H5IOStore.get: the root's "vars" (KeyError when absent), else
  /// "<path>/vars" when both exist, else nothing (an empty store).
  std::optional<Hdf5Group> store(const std::string& path) const {
    if (path.empty()) return root_.open_group("vars");
    if (root_.is_group(path) && root_.contains(path + "/vars")) return root_.open_group(path + "/vars");
    return std::nullopt;
  }

  void load_own(const Value& obj, const std::string& path) {
    std::optional<Hdf5Group> vars = store(path);
    std::vector<std::string> keys = vars ? vars->keys() : std::vector<std::string>{};
    std::vector<Value> variables = v3_variables(obj);
    if (keys.size() != variables.size()) {
      if (is_v3_optimizer(obj)) {
        // Optimizer.load_own_variables only warns: an optimizer not built
        // yet has its iterations alone.
        std::string msg = "Skipping variable loading for optimizer '" + str(obj.getattr("name")) +
                          "', because it has " + std::to_string(variables.size()) +
                          " variables whereas the saved optimizer has " + std::to_string(keys.size()) + " variables. ";
        if (variables.empty()) msg += "This is likely because the optimizer has not been called/built yet.";
        tf_warning(msg);
        return;
      }
      std::vector<Value> names;
      for (const Value& v : variables) names.emplace_back(weight_name(v));
      throw ValueError("Layer '" + layer_name(obj) + "' expected " + std::to_string(variables.size()) +
                       " variables, but received " + std::to_string(keys.size()) +
                       " variables during loading. Expected: " + repr(Value::list(std::move(names))));
    }
    for (size_t i = 0; i < variables.size(); ++i) assign_weight(variables[i], vars->read_dataset(std::to_string(i)));
  }

  Hdf5Group root_;
  bool skip_mismatch_;
  std::set<const void*> visited_;
};

}  // namespace

void save_weights_v3(const Value& model, const std::string& path) {
  Hdf5File file = Hdf5File::create(path);
  V3Saver(file.root()).save(model, "");
  file.close();
}

void load_weights_v3(const Value& model, const std::string& path, bool skip_mismatch) {
  Hdf5File file = Hdf5File::open(path);
  V3Loader(file.root(), skip_mismatch).load(model, "");
}

}  // namespace ag::keras

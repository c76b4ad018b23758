// tf.train.Checkpoint and tf.train.latest_checkpoint (GRADIENTS.md section 5;
// TF's checkpoint/checkpoint.py), over TensorFlow's file format
// (runtime/core/tensor_bundle.h).
//
// The object graph: from the root, each trackable's named children in TF's
// order (an object's attributes as assigned, a list's indices, a dict's
// keys), breadth first, each object once. Trackables are tf.Variables,
// tf.Module and Keras objects, optimizers, checkpoints, and the lists,
// tuples and dicts holding them. A variable's value is saved under
// "<path>/.ATTRIBUTES/VARIABLE_VALUE" (the path of escaped local names from
// the root), the graph itself as a TrackableObjectGraph under
// "_CHECKPOINTABLE_OBJECT_GRAPH".
//
// restore() matches the checkpoint's graph to the live one by local names,
// not by variable names, and assigns variables as it goes. A checkpointed
// child the live object does not have yet (a layer's weights before build,
// an optimizer's slots before its first step) is kept and assigned when it
// appears: checkpoint_restore_deferred() runs after every build.
#include "runtime/api/checkpoint.h"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include <google/protobuf/text_format.h>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/api/tf_module.h"
#include "runtime/core/error.h"
#include "runtime/core/object_graph_values.h"
#include "runtime/core/proto/checkpoint_state.pb.h"
#include "runtime/core/proto/trackable_object_graph.pb.h"
#include "runtime/core/tensor_bundle.h"
#include "runtime/core/variable.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"

namespace ag {
namespace {

using ObjectProto = tensorflow::TrackableObjectGraph::TrackableObject;

const Value& checkpoint_class();

bool is_trackable(const Value& v);

bool is_trackable_object(const Value& v) {
  return v.is_object() && (is_module(v) || is_instance(v, tf::api::keras_optimizers_Optimizer()) ||
                           is_instance(v, checkpoint_class()));
}

/// A list, tuple or dict holding a trackable (TF's tracked data structures).
bool is_trackable_container(const Value& v) {
  if (v.is_list() || v.is_tuple()) return std::any_of(v.items().begin(), v.items().end(), is_trackable);
  if (v.is_dict()) {
    const auto& e = v.as_dict().entries;
    return std::any_of(e.begin(), e.end(), [](const auto& kv) { return is_trackable(kv.second); });
  }
  return false;
}

bool is_trackable(const Value& v) { return v.is_variable() || is_trackable_object(v) || is_trackable_container(v); }

/// What makes two references one node.
const void* identity(const Value& v) {
  if (v.is_variable()) return v.as_variable().get();
  if (v.is_object()) return &v.as_object();
  if (v.is_dict()) return &v.as_dict();
  return &v.items();
}

/// A trackable's named children, in TF's order. Attributes agc keeps for
/// itself ("_agc_...") are not dependencies.
std::vector<std::pair<std::string, Value>> children(const Value& v) {
  std::vector<std::pair<std::string, Value>> out;
  // TF's Trackable protocol: an object whose class defines _trackable_children
  // names its dependencies itself (a Keras model's "layer-0",
  // "layer_with_weights-0").
  if (auto own = v.is_object() && !is_class(v) ? object_getattr(v, "_trackable_children") : std::nullopt) {
    Value named = (*own)({}, {});
    for (const auto& [key, value] : named.as_dict().entries) {
      if (is_trackable(value)) out.emplace_back(str(key), value);
    }
    return out;
  }
  if (v.is_object()) {
    for (const auto& [name, value] : v.as_object().attrs) {
      if (name.rfind("_agc_", 0) != 0 && is_trackable(value)) out.emplace_back(name, value);
    }
  } else if (v.is_list() || v.is_tuple()) {
    for (size_t i = 0; i < v.items().size(); ++i) {
      if (is_trackable(v.items()[i])) out.emplace_back(std::to_string(i), v.items()[i]);
    }
  } else if (v.is_dict()) {
    for (const auto& [key, value] : v.as_dict().entries) {
      if (is_trackable(value)) out.emplace_back(str(key), value);
    }
  }
  return out;
}

/// TF's escaping of a local name in a checkpoint key: "." -> "..", "/" -> ".S".
std::string escape(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '.') out += "..";
    else if (c == '/') out += ".S";
    else out += c;
  }
  return out;
}


/// The live object graph from `root`, breadth first (ObjectGraphView, with
/// the children `extra` adds: a SavedModel's functions).
ObjectGraphView walk(const Value& root, const ExtraChildren& extra = {}) {
  ObjectGraphView g;
  std::map<const void*, int> ids;
  g.nodes.push_back(root);
  g.keys.emplace_back();
  g.pretty.emplace_back("(root)");
  ids[identity(root)] = 0;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    g.edges.emplace_back();
    std::vector<std::pair<std::string, Value>> kids = children(g.nodes[i]);
    if (extra) {
      for (auto& kid : extra(g.nodes[i])) kids.push_back(std::move(kid));
    }
    for (auto& [name, child] : kids) {
      auto [it, inserted] = ids.emplace(identity(child), static_cast<int>(g.nodes.size()));
      if (inserted) {
        g.nodes.push_back(child);
        g.keys.push_back(g.keys[i].empty() ? escape(name) : g.keys[i] + "/" + escape(name));
        g.pretty.push_back(g.pretty[i] + "." + name);
      }
      g.edges[i].emplace_back(name, it->second);
    }
  }
  return g;
}

std::string attribute_key(const std::string& path) { return path + "/.ATTRIBUTES/" + kVariableValue; }

/// Writes the variables of `g` and its TrackableObjectGraph at `prefix`,
/// creating its directory.
void write_graph(const ObjectGraphView& g, const std::string& prefix) {
  tensorflow::TrackableObjectGraph proto;
  BundleWriter writer(prefix);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    ObjectProto* node = proto.add_nodes();
    for (const auto& [name, id] : g.edges[i]) {
      auto* ref = node->add_children();
      ref->set_node_id(id);
      ref->set_local_name(name);
    }
    if (g.nodes[i].is_variable()) {
      const Variable& v = *g.nodes[i].as_variable();
      auto* attr = node->add_attributes();
      attr->set_name(kVariableValue);
      attr->set_full_name(v.name());  // TF's full name: no ":0"
      attr->set_checkpoint_key(attribute_key(g.keys[i]));
      writer.add(attr->checkpoint_key(), v.read());
    }
  }
  Tensor graph(DType::String, Shape{});
  graph.data<std::string>()[0] = proto.SerializeAsString();
  writer.add(kObjectGraphKey, graph);
  std::filesystem::path dir = std::filesystem::path(prefix).parent_path();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  writer.finish();
}

void write_checkpoint(const Value& root, const std::string& prefix) { write_graph(walk(root), prefix); }

// ---- restoring

/// One restore: the checkpoint's graph, which of its nodes matched which
/// live object, and the children still waiting for their object.
struct Restore {
  std::string path;
  tensorflow::TrackableObjectGraph graph;
  std::map<std::string, Tensor> values;  // by checkpoint key
  Value root;
  std::map<int, Value> matched;          // checkpoint node -> live object
  std::vector<std::string> pretty;       // checkpoint node -> "(root).a.b"
  struct Deferred {
    Value parent;
    std::string name;
    int node;
  };
  std::vector<Deferred> deferred;
};

void assign_variable(const Restore& r, const ObjectProto& node, const Value& live) {
  for (const auto& attr : node.attributes()) {
    if (attr.name() != kVariableValue) continue;
    auto it = r.values.find(attr.checkpoint_key());
    if (it == r.values.end()) {
      throw NotFoundError("Key " + attr.checkpoint_key() + " not found in checkpoint");
    }
    Variable& v = *live.as_variable();
    const Tensor& t = it->second;
    if (t.dtype() != v.dtype() || !v.shape().is_compatible_with(t.shape())) {
      throw ValueError("Received incompatible tensor with shape " + t.shape().str() + " and dtype " +
                       dtype_name(t.dtype()) + " when attempting to restore variable with shape " + v.shape().str() +
                       " and dtype " + dtype_name(v.dtype()) + " and name " + v.name() + ".");
    }
    v.assign(t);
  }
}

/// Matches checkpoint node `node` to `live` and everything below it that
/// exists; children that do not exist yet are deferred.
void match(Restore& r, int node, const Value& live) {
  std::deque<std::pair<int, Value>> queue{{node, live}};
  while (!queue.empty()) {
    auto [id, obj] = queue.front();
    queue.pop_front();
    if (r.matched.count(id)) continue;
    r.matched.emplace(id, obj);
    const ObjectProto& proto = r.graph.nodes(id);
    if (obj.is_variable()) assign_variable(r, proto, obj);
    auto kids = children(obj);
    for (const auto& ref : proto.children()) {
      auto it = std::find_if(kids.begin(), kids.end(), [&](const auto& k) { return k.first == ref.local_name(); });
      if (it != kids.end()) {
        queue.emplace_back(ref.node_id(), it->second);
      } else {
        r.deferred.push_back({obj, ref.local_name(), ref.node_id()});
      }
    }
  }
}

/// The restores whose deferred children may still appear (weakly held: a
/// restore nobody keeps a status of still completes while its objects live).
std::mutex g_restores_mu;
std::vector<std::shared_ptr<Restore>>& pending_restores() {
  static std::vector<std::shared_ptr<Restore>> all;
  return all;
}

/// Matches the deferred children of `r` that now exist.
void retry(Restore& r) {
  std::vector<Restore::Deferred> waiting;
  waiting.swap(r.deferred);
  for (auto& d : waiting) {
    if (r.matched.count(d.node)) continue;
    auto kids = children(d.parent);
    auto it = std::find_if(kids.begin(), kids.end(), [&](const auto& k) { return k.first == d.name; });
    if (it != kids.end()) {
      match(r, d.node, it->second);
    } else {
      r.deferred.push_back(d);
    }
  }
}

std::shared_ptr<Restore> restore_checkpoint(const Value& root, const std::string& path) {
  auto r = std::make_shared<Restore>();
  r->path = path;
  r->root = root;
  BundleReader reader(path);
  if (!reader.contains(kObjectGraphKey)) {
    throw UnimplementedError("agc: " + path + " is a name-based (TF1) checkpoint without an object graph, which agc "
                             "does not restore");
  }
  if (!r->graph.ParseFromString(reader.get(kObjectGraphKey).data<std::string>()[0]) || r->graph.nodes_size() == 0) {
    throw DataLossError("The object graph of checkpoint " + path + " cannot be parsed");
  }
  for (const std::string& key : reader.keys()) r->values.emplace(key, reader.get(key));
  // Pretty names, breadth first from the root (TF's ObjectGraphProtoPrettyPrinter).
  r->pretty.assign(static_cast<size_t>(r->graph.nodes_size()), "");
  r->pretty[0] = "(root)";
  std::deque<int> queue{0};
  std::vector<bool> seen(r->pretty.size(), false);
  seen[0] = true;
  while (!queue.empty()) {
    int id = queue.front();
    queue.pop_front();
    for (const auto& ref : r->graph.nodes(id).children()) {
      if (ref.node_id() < 0 || ref.node_id() >= r->graph.nodes_size()) {
        throw DataLossError("The object graph of checkpoint " + path + " refers to a missing node");
      }
      if (seen[static_cast<size_t>(ref.node_id())]) continue;
      seen[static_cast<size_t>(ref.node_id())] = true;
      r->pretty[static_cast<size_t>(ref.node_id())] = r->pretty[static_cast<size_t>(id)] + "." + ref.local_name();
      queue.push_back(ref.node_id());
    }
  }
  match(*r, 0, root);
  if (!r->deferred.empty()) {
    std::lock_guard<std::mutex> lock(g_restores_mu);
    pending_restores().push_back(r);
  }
  return r;
}

// ---- the status restore() returns

struct StatusState : NativeState {
  std::shared_ptr<Restore> restore;
};

Restore& restore_of(const Value& self) { return *native_state<StatusState>(self)->restore; }

/// Live objects with values (variables) reachable from the root that no
/// checkpoint node matched.
std::vector<Value> unmatched_python_objects(const Restore& r) {
  ObjectGraphView g = walk(r.root);
  std::vector<Value> out;
  for (const Value& v : g.nodes) {
    if (!v.is_variable()) continue;
    bool found = std::any_of(r.matched.begin(), r.matched.end(),
                             [&](const auto& m) { return m.second.is_variable() && m.second.as_variable() == v.as_variable(); });
    if (!found) out.push_back(v);
  }
  return out;
}

std::string repr_list(const std::vector<Value>& vs, size_t limit) {
  std::string s = "[";
  for (size_t i = 0; i < vs.size() && i < limit; ++i) s += (i ? ", " : "") + repr(vs[i]);
  return s + "]";
}

Value assert_existing_objects_matched(const std::vector<Value>& a) {
  Restore& r = restore_of(a[0]);
  std::vector<Value> unused = unmatched_python_objects(r);
  if (!unused.empty()) {
    size_t shown = std::min<size_t>(10, unused.size());
    throw AssertionError("Found " + std::to_string(unused.size()) +
                         " Python objects that were not bound to checkpointed values, likely due to changes in the "
                         "Python program. Showing " + std::to_string(shown) + " of " + std::to_string(unused.size()) +
                         " unmatched objects: " + repr_list(unused, shown));
  }
  return a[0];
}

Value assert_consumed(const std::vector<Value>& a) {
  assert_existing_objects_matched(a);
  Restore& r = restore_of(a[0]);
  for (int id = 0; id < r.graph.nodes_size(); ++id) {
    const ObjectProto& node = r.graph.nodes(id);
    if (node.attributes().empty() || r.matched.count(id)) continue;
    std::string text;
    google::protobuf::TextFormat::PrintToString(node, &text);
    throw AssertionError("Unresolved object in checkpoint " + r.pretty[static_cast<size_t>(id)] + ": " + text);
  }
  return a[0];
}

Value assert_nontrivial_match(const std::vector<Value>& a) {
  Restore& r = restore_of(a[0]);
  if (r.matched.size() <= 1) {
    throw AssertionError("Nothing except the root object matched a checkpointed value. Typically this means that the "
                         "checkpoint does not match the Python program. The following objects have no matching "
                         "checkpointed value: " + repr_list(unmatched_python_objects(r), 1000));
  }
  return a[0];
}

const Value& status_class() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    attrs.push_back(native_method("CheckpointLoadStatus.assert_consumed", "assert_consumed", {self}, assert_consumed));
    attrs.push_back(native_method("CheckpointLoadStatus.assert_existing_objects_matched",
                                  "assert_existing_objects_matched", {self}, assert_existing_objects_matched));
    attrs.push_back(native_method("CheckpointLoadStatus.assert_nontrivial_match", "assert_nontrivial_match", {self},
                                  assert_nontrivial_match));
    attrs.push_back(native_method("CheckpointLoadStatus.expect_partial", "expect_partial", {self},
                                  [](const std::vector<Value>& a) { return a[0]; }));
    // Eagerly values are assigned as they are matched: nothing is left to run.
    for (const char* name : {"run_restore_ops", "initialize_or_restore"}) {
      attrs.push_back(native_method(std::string("CheckpointLoadStatus.") + name, name,
                                    {self, {"session", Value()}}, [](const std::vector<Value>&) { return Value(); }));
    }
    return make_class("CheckpointLoadStatus", {}, std::move(attrs));
  }();
  return cls;
}

// ---- tf.train.Checkpoint

/// The save counter, made on first use (an int64 variable the checkpoint
/// saves as its dependency "save_counter").
Value save_counter(const Value& self) {
  if (!self.hasattr("save_counter") || self.getattr("save_counter").is_none()) {
    self.setattr("save_counter", variable_value::create(Value(Tensor::scalar<int64_t>(0)), DType::Int64,
                                                        Value("save_counter"), Value(), false));
  }
  return self.getattr("save_counter");
}

std::string path_arg(const Value& v, const char* what) {
  if (!v.is_str()) throw TypeError(std::string(what) + " must be a string, got " + repr(v));
  return v.as_str();
}

Value checkpoint_init(std::vector<Value> args, Kwargs kwargs) {
  const Value& self = args.at(0);
  if (args.size() > 2) throw TypeError("Checkpoint.__init__() takes from 1 to 2 positional arguments but " +
                                       std::to_string(args.size()) + " were given");
  if (args.size() == 2 && !args[1].is_none()) {
    throw NotImplementedError("agc: tf.train.Checkpoint(root) is not supported yet; pass the objects by keyword");
  }
  std::sort(kwargs.begin(), kwargs.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  for (const auto& [name, value] : kwargs) {
    if (name == "root") {
      throw NotImplementedError("agc: tf.train.Checkpoint(root=...) is not supported yet; pass the objects by keyword");
    }
    if (!is_trackable(value)) {
      throw ValueError("`Checkpoint` was expecting " + name +
                       " to be a trackable object (an object derived from `Trackable`), got " + str(value) +
                       ". If you believe this object should be trackable (i.e. it is part of the TensorFlow Python "
                       "API and manages state), please open an issue.");
    }
    self.setattr(name, value);
  }
  return Value();
}

const Value& checkpoint_class() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    attrs.emplace_back("__init__", Value::callable("Checkpoint.__init__", checkpoint_init));
    Param self{"self", std::nullopt};
    attrs.push_back(native_method("Checkpoint.save", "save", {self, {"file_prefix", std::nullopt}, {"options", Value()}},
                                  [](const std::vector<Value>& a) -> Value {
                                    Value counter = save_counter(a[0]);
                                    variable_value::assign(counter, Value(Tensor::scalar<int64_t>(1)),
                                                           variable_value::AssignOp::Add);
                                    int64_t n = counter.as_variable()->read().scalar_value<int64_t>();
                                    std::string path = path_arg(a[1], "file_prefix") + "-" + std::to_string(n);
                                    write_checkpoint(a[0], path);
                                    // As TF's Checkpoint.save: the state names this
                                    // checkpoint alone, without timestamps.
                                    CheckpointStateFile state;
                                    state.model_checkpoint_path = path;
                                    state.all_model_checkpoint_paths = {path};
                                    write_checkpoint_state(std::filesystem::path(path).parent_path().string(), state);
                                    return Value(path);
                                  }));
    attrs.push_back(native_method("Checkpoint.write", "write", {self, {"file_prefix", std::nullopt}, {"options", Value()}},
                                  [](const std::vector<Value>& a) -> Value {
                                    std::string path = path_arg(a[1], "file_prefix");
                                    write_checkpoint(a[0], path);
                                    return Value(path);
                                  }));
    auto read = [](const std::vector<Value>& a) -> Value {
      if (a[1].is_none()) throw NotImplementedError("agc: Checkpoint.restore(None) (initializing only) is not supported yet");
      auto state = std::make_shared<StatusState>();
      state->restore = restore_checkpoint(a[0], path_arg(a[1], "save_path"));
      return native_object(status_class(), state);
    };
    // restore is read plus the save counter, which then continues from the
    // checkpoint's (read, as write, leaves the counter alone: a checkpoint
    // written without one still matches every object it has).
    attrs.push_back(native_method("Checkpoint.restore", "restore", {self, {"save_path", std::nullopt}, {"options", Value()}},
                                  [read](const std::vector<Value>& a) -> Value {
                                    if (!a[1].is_none()) save_counter(a[0]);
                                    return read(a);
                                  }));
    attrs.push_back(native_method("Checkpoint.read", "read", {self, {"save_path", std::nullopt}, {"options", Value()}},
                                  read));
    return make_class("Checkpoint", {}, std::move(attrs));
  }();
  return cls;
}

}  // namespace

void checkpoint_restore_deferred() {
  std::lock_guard<std::mutex> lock(g_restores_mu);
  auto& all = pending_restores();
  for (auto& r : all) retry(*r);
  all.erase(std::remove_if(all.begin(), all.end(), [](const auto& r) { return r->deferred.empty(); }), all.end());
}

const Value& tf::api::train_Checkpoint() { return checkpoint_class(); }

void checkpoint_write(const Value& checkpoint, const std::string& prefix) { write_checkpoint(checkpoint, prefix); }

Value checkpoint_read(const Value& root, const std::string& path) {
  auto state = std::make_shared<StatusState>();
  state->restore = restore_checkpoint(root, path);
  return native_object(status_class(), state);
}

ObjectGraphView object_graph_view(const Value& root, const ExtraChildren& extra) { return walk(root, extra); }

void write_object_graph(const ObjectGraphView& view, const std::string& prefix) { write_graph(view, prefix); }

Value checkpoint_save_counter(const Value& checkpoint) { return save_counter(checkpoint); }

std::optional<CheckpointStateFile> read_checkpoint_state(const std::string& dir, const std::string& filename) {
  namespace fs = std::filesystem;
  std::ifstream in(fs::path(dir) / filename);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  tensorflow::CheckpointState proto;
  // TF logs a parse error and ignores the file.
  if (!google::protobuf::TextFormat::ParseFromString(text.str(), &proto)) return std::nullopt;
  if (proto.model_checkpoint_path().empty()) throw ValueError("Invalid checkpoint state loaded from " + dir);
  auto join = [&](const std::string& p) { return fs::path(p).is_absolute() ? p : (fs::path(dir) / p).string(); };
  CheckpointStateFile state;
  state.model_checkpoint_path = join(proto.model_checkpoint_path());
  for (const auto& p : proto.all_model_checkpoint_paths()) state.all_model_checkpoint_paths.push_back(join(p));
  state.all_model_checkpoint_timestamps.assign(proto.all_model_checkpoint_timestamps().begin(),
                                               proto.all_model_checkpoint_timestamps().end());
  state.last_preserved_timestamp = proto.last_preserved_timestamp();
  return state;
}

void write_checkpoint_state(const std::string& dir, const CheckpointStateFile& state) {
  namespace fs = std::filesystem;
  const fs::path base = fs::absolute(dir.empty() ? fs::path(".") : fs::path(dir)).lexically_normal();
  auto relative = [&](const std::string& p) {
    return fs::absolute(p).lexically_normal().lexically_relative(base).string();
  };
  tensorflow::CheckpointState proto;
  proto.set_model_checkpoint_path(relative(state.model_checkpoint_path));
  for (const auto& p : state.all_model_checkpoint_paths) proto.add_all_model_checkpoint_paths(relative(p));
  // generate_checkpoint_state_proto appends the latest when the list does not end with it.
  if (proto.all_model_checkpoint_paths().empty() ||
      proto.all_model_checkpoint_paths().rbegin()->compare(proto.model_checkpoint_path()) != 0) {
    proto.add_all_model_checkpoint_paths(proto.model_checkpoint_path());
  }
  for (double t : state.all_model_checkpoint_timestamps) proto.add_all_model_checkpoint_timestamps(t);
  if (state.last_preserved_timestamp != 0) proto.set_last_preserved_timestamp(state.last_preserved_timestamp);
  std::string text;
  google::protobuf::TextFormat::PrintToString(proto, &text);
  fs::path file = base / "checkpoint";
  if (proto.model_checkpoint_path() == "checkpoint") {
    throw RuntimeError("Save path '" + state.model_checkpoint_path +
                       "' conflicts with path used for checkpoint state.  Please use a different save path.");
  }
  // Written aside and renamed, as TF's atomic_write_string_to_file, so a
  // reader never sees half a state.
  std::string tmp = file.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    if (!out) throw InternalError("Failed to write " + tmp);
  }
  fs::rename(tmp, file);
}

/// tf.train.list_variables(ckpt_dir_or_file): (key, shape) of every saved
/// tensor in key order, the object graph's own entry included, as TF lists them.
Value tf::impl::list_variables(const TfCall& c) {
  std::string path = path_arg(c["ckpt_dir_or_file"], "ckpt_dir_or_file");
  if (std::filesystem::is_directory(path)) {
    auto state = read_checkpoint_state(path);
    if (!state) {
      throw ValueError("Couldn't find 'checkpoint' file or checkpoints in given directory " + path);
    }
    path = state->model_checkpoint_path;
  }
  BundleReader reader(path);
  std::vector<std::string> keys = reader.keys();
  std::sort(keys.begin(), keys.end());
  std::vector<Value> out;
  for (const std::string& key : keys) {
    std::vector<Value> dims;
    const Shape& shape = reader.get(key).shape();
    for (int i = 0; i < shape.rank(); ++i) dims.emplace_back(shape.dim(i));
    out.push_back(Value::tuple({Value(key), Value::list(std::move(dims))}));
  }
  return Value::list(std::move(out));
}

Value tf::impl::latest_checkpoint(const TfCall& c) {
  std::string dir = path_arg(c["checkpoint_dir"], "checkpoint_dir");
  std::string name = c["latest_filename"].is_none() ? "checkpoint" : path_arg(c["latest_filename"], "latest_filename");
  auto state = read_checkpoint_state(dir, name);
  if (!state || !std::filesystem::exists(bundle_index_file(state->model_checkpoint_path))) return Value();
  return Value(state->model_checkpoint_path);
}

}  // namespace ag

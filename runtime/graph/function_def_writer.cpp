// graph/function_def's writer: traced graphs as a FunctionDefLibrary.
#include "runtime/graph/function_def.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include <google/protobuf/text_format.h>

#include "runtime/core/error.h"
#include "runtime/core/proto/graph_def.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/graph/control_flow.h"
#include "runtime/graph/node_def_format.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using node_def::signature_of;
using node_def::Span;
using node_def::spans;
using node_def::write_attr;

/// The type, number and type-list attrs argument `a` gives a NodeDef, from
/// the dtypes of the tensors it takes (an attr already set is kept).
void arg_attrs(const TfArg& a, const std::vector<DType>& types,
               google::protobuf::Map<std::string, tensorflow::AttrValue>& attrs) {
  if (!a.type_attr.empty() && !types.empty() && !attrs.count(a.type_attr)) attrs[a.type_attr].set_type(proto::tf_data_type(types[0]));
  if (!a.number_attr.empty() && !attrs.count(a.number_attr)) attrs[a.number_attr].set_i(static_cast<int64_t>(types.size()));
  if (!a.type_list_attr.empty() && !attrs.count(a.type_list_attr)) {
    auto* l = attrs[a.type_list_attr].mutable_list();
    for (DType t : types) l->add_type(proto::tf_data_type(t));
  }
}

/// A name as a FunctionDef argument's: lower case, '/' and others as '_' (TF's
/// arg names are the placeholders' lowercased).
std::string arg_name(const std::string& node_name) {
  std::string out;
  for (char c : node_name) out += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
  return out.empty() ? std::string("arg") : out;
}

/// The variables (ids) that `g`'s nodes and the graphs they hold name, in
/// first-use order: a function's resource arguments.
void collect_variables(const Graph& g, std::vector<int64_t>& out) {
  for (const auto& n : g.nodes()) {
    if (n->attrs.has("var")) {
      int64_t id = n->attrs.get<int64_t>("var");
      if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
    }
    for (const auto& sub : n->subgraphs) collect_variables(*sub, out);
  }
}

std::vector<int64_t> variables_of(std::initializer_list<const Graph*> graphs) {
  std::vector<int64_t> out;
  for (const Graph* g : graphs) collect_variables(*g, out);
  return out;
}

/// Attributes agc keeps for itself on If/While/call nodes (error wording,
/// loop shape invariants, the callee's name): TF's ops do not have them, so
/// they are written as TF's attrs (output_shapes, f) or not at all.
bool agc_only_attr(const Node& n, const std::string& key) {
  if (key == "var") return true;
  if (n.op->tf_signature) {
    for (const TfArg& a : n.op->tf_signature->inputs) {
      if (a.from_attr() && a.attr == key) return true;  // written as the input it is in TF
    }
  }
  switch (n.op->role()) {
    case OpRole::Batched: return key == "f" || key == "num_captured";  // the rest are TF's
    case OpRole::If:
    case OpRole::While:
    case OpRole::Call:
    case OpRole::DeviceCall: return true;
    default: return false;
  }
}

}  // namespace

// ---- writing

/// How a function's FunctionDef arguments relate to its graph: `specs` are
/// the non-resource arguments, `binds[i]` the argument graph input i reads
/// (an If branch takes the other branch's captures too, unused), then one
/// resource argument per variable. A While's cond and body take TF's loop
/// variables: a counter and the iteration limit first, the captures and
/// resources passed through.
struct FunctionDefWriter::Layout {
  enum class Kind { Plain, WhileCond, WhileBody };
  Kind kind = Kind::Plain;
  std::vector<TensorSpec> specs;
  std::vector<std::string> hints;
  std::vector<size_t> binds;
  std::vector<int64_t> variables;
  bool limited = false;  // WhileCond: the loop has maximum_iterations
  std::vector<std::string> output_names;  // Plain: the results' names (default output_<i>)
};

/// One FunctionDef being written: its argument and node names (one name
/// space, so a node never shadows an argument), its resource arguments. Or,
/// made with a GraphDef, the graph's top level as TF's GraphDef spells it:
/// arguments are Placeholder nodes, and a tensor is named "node" or
/// "node:index".
class FunctionDefWriter::Builder {
 public:
  Builder(FunctionDefWriter& w, tensorflow::FunctionDef* def) : w_(w), def_(def) {}
  Builder(FunctionDefWriter& w, tensorflow::GraphDef* graph) : w_(w), graph_(graph) {}

  std::string arg(const std::string& hint, const TensorSpec& spec) {
    if (graph_) {
      tensorflow::NodeDef* nd = extra("Placeholder", hint);
      (*nd->mutable_attr())["dtype"].set_type(proto::tf_data_type(spec.dtype));
      proto::write_shape(spec.shape, (*nd->mutable_attr())["shape"].mutable_shape());
      output_shapes(nd, {spec});
      return nd->name();
    }
    std::string n = unique(arg_name(hint));
    auto* a = def_->mutable_signature()->add_input_arg();
    a->set_name(n);
    a->set_type(proto::tf_data_type(spec.dtype));
    tensorflow::AttrValue shapes;
    proto::write_shape(spec.shape, shapes.mutable_list()->add_shape());
    (*(*def_->mutable_arg_attr())[static_cast<uint32_t>(def_->signature().input_arg_size() - 1)].mutable_attr())
        ["_output_shapes"] = shapes;
    return n;
  }

  void resources(const std::vector<int64_t>& vars, const Graph& g) {
    // Named after the first node reading each, as TF names them.
    std::map<int64_t, std::string> hint;
    std::function<void(const Graph&)> find = [&](const Graph& sub) {
      for (const auto& n : sub.nodes()) {
        if (n->attrs.has("var")) hint.emplace(n->attrs.get<int64_t>("var"), n->name);
        for (const auto& s : n->subgraphs) find(*s);
      }
    };
    find(g);
    for (int64_t id : vars) {
      std::string r = unique(arg_name(hint.count(id) ? hint[id] : std::string("variable")) + "_resource");
      resource_[id] = r;
      if (graph_) {
        // A tf.function's graph captures each variable's handle as a placeholder.
        tensorflow::NodeDef* nd = add_node_def();
        nd->set_name(r);
        nd->set_op("Placeholder");
        (*nd->mutable_attr())["dtype"].set_type(tensorflow::DT_RESOURCE);
        proto::write_shape(Shape{}, (*nd->mutable_attr())["shape"].mutable_shape());
        continue;
      }
      auto* a = def_->mutable_signature()->add_input_arg();
      a->set_name(r);
      a->set_type(tensorflow::DT_RESOURCE);
    }
  }
  const std::string& resource(int64_t id) const { return resource_.at(id); }

  /// Writes `g`'s nodes, graph input i read from argument `inputs[i]`.
  void nodes(const Graph& g, const std::vector<std::string>& inputs) {
    for (size_t i = 0; i < g.inputs().size(); ++i) names_[g.inputs()[i]] = inputs[i];
    for (const auto& n : g.nodes()) {
      if (names_.count(n.get())) continue;
      names_[n.get()] = unique(n->name);
    }
    for (const auto& n : g.nodes()) {
      if (std::find(g.inputs().begin(), g.inputs().end(), n.get()) != g.inputs().end()) continue;
      node(*n);
    }
  }

  /// A tensor of the graph written as a FunctionDef (or GraphDef) input string.
  std::string tensor(const Output& o) const {
    const std::string& name = names_.at(o.node);
    if (o.node->op->role() == OpRole::Argument) return name;
    if (graph_) {
      const int index = o.node->op->role() == OpRole::While ? o.index + 2 : o.index;  // after TF's counter and limit
      return index == 0 ? name : name + ":" + std::to_string(index);
    }
    if (!o.node->op->tf_signature && w_.for_viewing_) return name + ":output:" + std::to_string(o.index);
    switch (o.node->op->role()) {
      case OpRole::Call:
      case OpRole::DeviceCall:
      case OpRole::If: return name + ":output:" + std::to_string(o.index);
      case OpRole::Batched: return name + ":out_tensors:" + std::to_string(o.index);
      case OpRole::While: return name + ":output:" + std::to_string(o.index + 2);  // after TF's counter and limit
      default: break;
    }
    const TfSignature& s = signature_of(*o.node->op);
    std::vector<Span> sp = spans(s.outputs, o.node->outputs.size(), o.node->attrs, o.node->op->name, false);
    for (size_t k = 0; k < sp.size(); ++k) {
      if (static_cast<size_t>(o.index) >= sp[k].start && static_cast<size_t>(o.index) < sp[k].start + sp[k].count) {
        return name + ":" + s.outputs[k].name + ":" + std::to_string(static_cast<size_t>(o.index) - sp[k].start);
      }
    }
    throw InternalError("output " + std::to_string(o.index) + " of " + o.node->name + " is in no TF argument");
  }

  /// A NodeDef of the function's own (a While's counter), named from `hint`.
  tensorflow::NodeDef* extra(const std::string& op, const std::string& hint) {
    tensorflow::NodeDef* nd = add_node_def();
    nd->set_name(unique(hint));
    nd->set_op(op);
    return nd;
  }
  std::string const_i32(const std::string& hint, int32_t v) { return constant(hint, Tensor::scalar<int32_t>(v)); }
  std::string constant(const std::string& hint, const Tensor& v) {
    tensorflow::NodeDef* nd = extra("Const", hint);
    (*nd->mutable_attr())["dtype"].set_type(proto::tf_data_type(v.dtype()));
    proto::write_tensor(v, (*nd->mutable_attr())["value"].mutable_tensor());
    output_shapes(nd, {TensorSpec{v.dtype(), v.shape()}});
    return graph_ ? nd->name() : nd->name() + ":output:0";
  }

  void ret(const std::string& tensor, tensorflow::DataType type, std::string o = {}) {
    if (o.empty()) o = "output_" + std::to_string(def_->signature().output_arg_size());
    auto* a = def_->mutable_signature()->add_output_arg();
    a->set_name(o);
    a->set_type(type);
    (*def_->mutable_ret())[o] = tensor;
  }

  bool stateful() const { return stateful_; }

 private:
  std::string unique(const std::string& base) {
    std::string n = base;
    for (int i = 1; taken_.count(n); ++i) n = base + "_" + std::to_string(i);
    taken_.insert(n);
    return n;
  }

  void node(const Node& n) {
    stateful_ = stateful_ || n.stateful();
    tensorflow::NodeDef* nd = add_node_def();
    nd->set_name(names_.at(&n));
    nd->set_op(n.op->name);
    if (!n.device.empty()) nd->set_device(n.device);
    auto& attrs = *nd->mutable_attr();
    switch (n.op->role()) {
      case OpRole::Call: call(n, nd); break;
      case OpRole::DeviceCall: device_call(n, nd); break;
      case OpRole::Batched: batch_function(n, nd); break;
      case OpRole::If: if_node(n, nd); break;
      case OpRole::While: while_node(n, nd); break;
      default: op_node(n, nd); break;
    }
    for (const auto& [key, value] : n.attrs.items()) {
      if (!agc_only_attr(n, key)) write_attr(value, &attrs[key]);
    }
    for (const Node* c : n.control_inputs) {
      if (c->op->role() != OpRole::Argument) nd->add_input("^" + names_.at(c));
    }
    if (w_.for_viewing_) {
      auto shapes = attrs.find("output_shapes");  // If's and While's, in TF's output order
      if (shapes != attrs.end()) {
        tensorflow::AttrValue copy = shapes->second;  // inserting may move the map's entries
        attrs["_output_shapes"] = std::move(copy);
      } else {
        output_shapes(nd, n.outputs);
      }
    }
  }

  void op_node(const Node& n, tensorflow::NodeDef* nd) {
    if (!n.op->tf_signature && w_.for_viewing_) return agc_op_node(n, nd);
    const TfSignature& s = signature_of(*n.op);
    auto& attrs = *nd->mutable_attr();
    std::vector<Span> in = spans(s.inputs, n.inputs.size(), n.attrs, n.op->name, true);
    for (size_t k = 0; k < s.inputs.size(); ++k) {
      const TfArg& a = s.inputs[k];
      if (a.resource) {
        if (!n.attrs.has("var")) throw InternalError(n.op->name + " without its variable");
        nd->add_input(resource(n.attrs.get<int64_t>("var")));
        continue;
      }
      if (a.from_attr()) {
        const Tensor value = node_def::attr_input_value(a, n.attrs);
        nd->add_input(constant(n.name + "/" + a.name, value));
        arg_attrs(a, {value.dtype()}, attrs);
        continue;
      }
      std::vector<DType> types;
      for (size_t i = 0; i < in[k].count; ++i) {
        nd->add_input(tensor(n.inputs[in[k].start + i]));
        types.push_back(n.inputs[in[k].start + i].spec().dtype);
      }
      arg_attrs(a, types, attrs);
    }
    std::vector<Span> outs = spans(s.outputs, n.outputs.size(), n.attrs, n.op->name, false);
    for (size_t k = 0; k < s.outputs.size(); ++k) {
      std::vector<DType> types;
      for (size_t i = 0; i < outs[k].count; ++i) types.push_back(n.outputs[outs[k].start + i].dtype);
      arg_attrs(s.outputs[k], types, attrs);
    }
  }

  /// An op TF does not have (a fused kernel), for viewing: its tensors in
  /// order, its subgraphs as functions named by attrs "body", "body_1", ...
  void agc_op_node(const Node& n, tensorflow::NodeDef* nd) {
    for (const Output& in : n.inputs) nd->add_input(tensor(in));
    for (size_t k = 0; k < n.subgraphs.size(); ++k) {
      std::string f = w_.fresh(n.name + "_body");
      w_.write(*n.subgraphs[k], f);
      func(&(*nd->mutable_attr())[k == 0 ? std::string("body") : "body_" + std::to_string(k)], f);
    }
  }

  /// Inputs `from`..`to` (default: the last) of `n`, then the resources
  /// `vars`; their types to `types`.
  void inputs(const Node& n, size_t from, const std::vector<int64_t>& vars, tensorflow::NodeDef* nd,
              tensorflow::AttrValue* types, size_t to = SIZE_MAX) {
    for (size_t i = from; i < std::min(to, n.inputs.size()); ++i) {
      nd->add_input(tensor(n.inputs[i]));
      types->mutable_list()->add_type(proto::tf_data_type(n.inputs[i].spec().dtype));
    }
    for (int64_t v : vars) {
      nd->add_input(resource(v));
      types->mutable_list()->add_type(tensorflow::DT_RESOURCE);
    }
  }

  void outputs(const Node& n, tensorflow::AttrValue* types, tensorflow::AttrValue* shapes) {
    for (const TensorSpec& o : n.outputs) {
      types->mutable_list()->add_type(proto::tf_data_type(o.dtype));
      if (shapes) proto::write_shape(o.shape, shapes->mutable_list()->add_shape());
    }
  }

  static void func(tensorflow::AttrValue* a, const std::string& name) { a->mutable_func()->set_name(name); }

  /// PartitionedCall(args: Tin) -> (output: Tout), f: the callee.
  void call(const Node& n, tensorflow::NodeDef* nd) {
    const Graph& body = *n.subgraphs[0];
    std::string f = n.attrs.has("f") ? n.attrs.get<std::string>("f") : w_.fresh(n.name);
    std::vector<int64_t> vars = w_.write(body, f);
    auto& attrs = *nd->mutable_attr();
    inputs(n, 0, vars, nd, &attrs["Tin"]);
    outputs(n, &attrs["Tout"], nullptr);
    func(&attrs["f"], f);
    attrs["config"].set_s("");
    attrs["config_proto"].set_s("");
    attrs["executor_type"].set_s("");
  }

  /// TPUPartitionedCall(args: Tin, device_ordinal: int32) -> (output: Tout).
  void device_call(const Node& n, tensorflow::NodeDef* nd) {
    const Graph& body = *n.subgraphs[0];
    std::string f = n.attrs.has("f") ? n.attrs.get<std::string>("f") : w_.fresh(n.name);
    std::vector<int64_t> vars = w_.write(body, f);
    auto& attrs = *nd->mutable_attr();
    inputs(n, 0, vars, nd, &attrs["Tin"], n.inputs.size() - 1);
    nd->add_input(tensor(n.inputs.back()));
    outputs(n, &attrs["Tout"], nullptr);
    func(&attrs["f"], f);
    attrs["autotuner_thresh"].set_i(n.attrs.get_or<int64_t>("autotuner_thresh", 0));
  }

  /// BatchFunction(in_tensors: Tin, captured_tensors: Tcaptured) ->
  /// (out_tensors: Tout); the variables the function reads are captured.
  void batch_function(const Node& n, tensorflow::NodeDef* nd) {
    const Graph& body = *n.subgraphs[0];
    std::string f = n.attrs.get<std::string>("f");
    std::vector<int64_t> vars = w_.write(body, f);
    auto& attrs = *nd->mutable_attr();
    const size_t batched = n.inputs.size() - static_cast<size_t>(n.attrs.get_or<int64_t>("num_captured", 0));
    inputs(n, 0, {}, nd, &attrs["Tin"], batched);
    inputs(n, batched, vars, nd, &attrs["Tcaptured"]);
    outputs(n, &attrs["Tout"], nullptr);
    func(&attrs["f"], f);
  }

  /// If(cond: Tcond, input: Tin) -> (output: Tout): both branches take every
  /// input (agc's branches take their own captures only).
  void if_node(const Node& n, tensorflow::NodeDef* nd) {
    const Graph& then_g = *n.subgraphs[0];
    const Graph& else_g = *n.subgraphs[1];
    std::vector<int64_t> vars = variables_of({&then_g, &else_g});
    Layout base;
    for (size_t i = 1; i < n.inputs.size(); ++i) {
      base.specs.push_back(n.inputs[i].spec());
      base.hints.push_back(i <= then_g.num_args() ? then_g.inputs()[i - 1]->name : "input_" + std::to_string(i - 1));
    }
    base.variables = vars;
    const size_t args = then_g.num_args(), t_caps = then_g.captures().size(), e_caps = else_g.captures().size();
    Layout t = base, e = base;
    for (size_t i = 0; i < args + t_caps; ++i) t.binds.push_back(i);
    for (size_t i = 0; i < args; ++i) e.binds.push_back(i);
    for (size_t i = 0; i < e_caps; ++i) e.binds.push_back(args + t_caps + i);
    std::string then_name = w_.fresh(n.name + "_true"), else_name = w_.fresh(n.name + "_false");
    w_.write_layout(then_g, then_name, t);
    w_.write_layout(else_g, else_name, e);
    nd->add_input(tensor(n.inputs[0]));
    auto& attrs = *nd->mutable_attr();
    attrs["Tcond"].set_type(proto::tf_data_type(n.inputs[0].spec().dtype));
    inputs(n, 1, vars, nd, &attrs["Tin"]);
    outputs(n, &attrs["Tout"], &attrs["output_shapes"]);
    func(&attrs["then_branch"], then_name);
    func(&attrs["else_branch"], else_name);
    attrs["_lower_using_switch_merge"].set_b(true);
  }

  /// While(input: T) -> (output: T) as TF's while_v2 writes it: the loop
  /// variables are a counter, the iteration limit (-1: none), agc's loop
  /// variables, the captures and the resources; cond and body take them all.
  void while_node(const Node& n, tensorflow::NodeDef* nd) {
    const Graph& cond_g = *n.subgraphs[0];
    const Graph& body_g = *n.subgraphs[1];
    std::vector<int64_t> vars = variables_of({&cond_g, &body_g});
    const size_t loop = body_g.num_args(), c_caps = cond_g.captures().size(), b_caps = body_g.captures().size();
    const int64_t limit = n.attrs.get_or<int64_t>("maximum_iterations", -1);
    Layout base;
    base.specs = {TensorSpec{DType::Int32, Shape{}}, TensorSpec{DType::Int32, Shape{}}};
    base.hints = {"loop_counter", "maximum_iterations"};
    for (size_t i = 0; i < n.inputs.size(); ++i) {
      base.specs.push_back(i < loop ? n.outputs[i] : n.inputs[i].spec());  // the loop's shapes, invariants applied
      base.hints.push_back(i < loop ? body_g.inputs()[i]->name : "capture_" + std::to_string(i - loop));
    }
    base.variables = vars;
    Layout c = base, b = base;
    c.kind = Layout::Kind::WhileCond;
    c.limited = limit >= 0;
    b.kind = Layout::Kind::WhileBody;
    for (size_t i = 0; i < loop; ++i) {
      c.binds.push_back(2 + i);
      b.binds.push_back(2 + i);
    }
    for (size_t i = 0; i < c_caps; ++i) c.binds.push_back(2 + loop + i);
    for (size_t i = 0; i < b_caps; ++i) b.binds.push_back(2 + loop + c_caps + i);
    std::string cond_name = w_.fresh(n.name + "_cond"), body_name = w_.fresh(n.name + "_body");
    w_.write_layout(cond_g, cond_name, c);
    w_.write_layout(body_g, body_name, b);
    auto& attrs = *nd->mutable_attr();
    nd->add_input(const_i32(n.name + "/loop_counter", 0));
    nd->add_input(const_i32(n.name + "/maximum_iterations", static_cast<int32_t>(limit)));
    auto* types = &attrs["T"];
    types->mutable_list()->add_type(tensorflow::DT_INT32);
    types->mutable_list()->add_type(tensorflow::DT_INT32);
    inputs(n, 0, vars, nd, types);
    auto* shapes = &attrs["output_shapes"];
    for (const TensorSpec& s : base.specs) proto::write_shape(s.shape, shapes->mutable_list()->add_shape());
    for (size_t i = 0; i < vars.size(); ++i) proto::write_shape(Shape{}, shapes->mutable_list()->add_shape());
    func(&attrs["cond"], cond_name);
    func(&attrs["body"], body_name);
    attrs["parallel_iterations"].set_i(10);
    attrs["_num_original_outputs"].set_i(static_cast<int64_t>(base.specs.size() + vars.size()));
    attrs["_lower_using_switch_merge"].set_b(true);
  }

  tensorflow::NodeDef* add_node_def() { return graph_ ? graph_->add_node() : def_->add_node_def(); }

  /// Viewing: the node's output shapes as TF's as_graph_def(add_shapes=True)
  /// records them, which TensorBoard and Netron show on the edges.
  void output_shapes(tensorflow::NodeDef* nd, const std::vector<TensorSpec>& specs) const {
    if (!w_.for_viewing_) return;
    auto* list = (*nd->mutable_attr())["_output_shapes"].mutable_list();
    for (const TensorSpec& s : specs) proto::write_shape(s.shape, list->add_shape());
  }

  FunctionDefWriter& w_;
  tensorflow::FunctionDef* def_ = nullptr;
  tensorflow::GraphDef* graph_ = nullptr;
  std::set<std::string> taken_;
  std::map<int64_t, std::string> resource_;
  std::unordered_map<const Node*, std::string> names_;
  bool stateful_ = false;
};

FunctionDefWriter::FunctionDefWriter(bool for_viewing)
    : library_(std::make_shared<tensorflow::FunctionDefLibrary>()), for_viewing_(for_viewing) {}
FunctionDefWriter::~FunctionDefWriter() = default;

std::string FunctionDefWriter::fresh(const std::string& base) {
  std::string n;
  do {
    n = base + "_" + std::to_string(next_id_++);
  } while (written_.count(n));
  return n;
}

std::vector<int64_t> FunctionDefWriter::write(const Graph& g, const std::string& name,
                                              const std::vector<std::string>& output_names) {
  if (auto it = written_.find(name); it != written_.end()) return it->second;
  Layout l;
  for (size_t i = 0; i < g.inputs().size(); ++i) {
    l.specs.push_back(g.inputs()[i]->outputs[0]);
    l.hints.push_back(g.inputs()[i]->name);
    l.binds.push_back(i);
  }
  l.variables = variables_of({&g});
  l.output_names = output_names;
  write_layout(g, name, l);
  return l.variables;
}

void FunctionDefWriter::write_layout(const Graph& g, const std::string& name, const Layout& l) {
  written_[name] = l.variables;
  tensorflow::FunctionDef def;
  def.mutable_signature()->set_name(name);
  Builder b(*this, &def);
  std::vector<std::string> args;
  for (size_t i = 0; i < l.specs.size(); ++i) args.push_back(b.arg(l.hints[i], l.specs[i]));
  b.resources(l.variables, g);
  std::vector<std::string> bound;
  for (size_t i : l.binds) bound.push_back(args[i]);
  b.nodes(g, bound);
  switch (l.kind) {
    case Layout::Kind::Plain:
      for (size_t i = 0; i < g.outputs().size(); ++i) {
        const Output& o = g.outputs()[i];
        b.ret(b.tensor(o), proto::tf_data_type(o.spec().dtype), i < l.output_names.size() ? l.output_names[i] : std::string());
      }
      break;
    case Layout::Kind::WhileCond: {
      std::string out = b.tensor(g.outputs()[0]);
      if (l.limited) {
        tensorflow::NodeDef* less = b.extra("Less", "Less");
        less->add_input(args[0]);
        less->add_input(args[1]);
        (*less->mutable_attr())["T"].set_type(tensorflow::DT_INT32);
        tensorflow::NodeDef* both = b.extra("LogicalAnd", "LogicalAnd");
        both->add_input(less->name() + ":z:0");
        both->add_input(out);
        out = both->name() + ":z:0";
      }
      b.ret(out, tensorflow::DT_BOOL);
      break;
    }
    case Layout::Kind::WhileBody: {
      tensorflow::NodeDef* add = b.extra("AddV2", "add");
      add->add_input(args[0]);
      add->add_input(b.const_i32("add/y", 1));
      (*add->mutable_attr())["T"].set_type(tensorflow::DT_INT32);
      b.ret(add->name() + ":z:0", tensorflow::DT_INT32);
      b.ret(args[1], tensorflow::DT_INT32);
      for (const Output& o : g.outputs()) b.ret(b.tensor(o), proto::tf_data_type(o.spec().dtype));
      for (size_t i = 2 + g.outputs().size(); i < args.size(); ++i) b.ret(args[i], proto::tf_data_type(l.specs[i].dtype));
      for (int64_t v : l.variables) b.ret(b.resource(v), tensorflow::DT_RESOURCE);
      break;
    }
  }
  def.mutable_signature()->set_is_stateful(b.stateful());
  *library_->add_function() = std::move(def);
}

void FunctionDefWriter::write_graph_def(const Graph& g, tensorflow::GraphDef* out) {
  // The GraphDef version a SavedModel's GraphDef records (api/saved_model_save).
  out->mutable_versions()->set_producer(1286);
  out->mutable_versions()->set_min_consumer(12);
  Builder b(*this, out);
  std::vector<std::string> args;
  for (const Node* in : g.inputs()) args.push_back(b.arg(in->name, in->outputs[0]));
  b.resources(variables_of({&g}), g);
  // A GraphDef names no results: a traced graph returns through the
  // Identity nodes tracing gave it, as TF's FuncGraph does.
  b.nodes(g, args);
  *out->mutable_library() = *library_;
}

void export_graph_def(const Graph& g, tensorflow::GraphDef* out) {
  FunctionDefWriter w(/*for_viewing=*/true);
  w.write_graph_def(g, out);
}

std::string graph_def_text(const Graph& g) {
  tensorflow::GraphDef def;
  export_graph_def(g, &def);
  std::string text;
  google::protobuf::TextFormat::PrintToString(def, &text);
  return text;
}

ExportedFunction export_function_def(const Graph& g, const std::string& name) {
  FunctionDefWriter w;
  ExportedFunction out;
  out.variables = w.write(g, name);
  out.library = w.library();
  for (const auto& f : out.library->function()) {
    if (f.signature().name() == name) out.def = &f;
  }
  return out;
}

}  // namespace ag

#include "runtime/graph/function_def.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include "runtime/core/error.h"
#include "runtime/core/proto/graph_def.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

/// Where each of an arg list's args starts among a node's tensors, and how
/// many it takes: a list takes what the single args leave when it is the
/// only one, else its count is the node's number attr.
struct Span {
  size_t start = 0, count = 0;
};

std::vector<Span> spans(const std::vector<TfArg>& args, size_t n_tensors, const Attrs& attrs, const std::string& op,
                        bool skip_resources) {
  size_t singles = 0, lists = 0;
  for (const TfArg& a : args) {
    if (skip_resources && a.resource) continue;
    if (a.is_list()) {
      ++lists;
    } else {
      ++singles;
    }
  }
  if (singles > n_tensors || (lists == 0 && singles != n_tensors)) {
    throw InvalidArgumentError("op " + op + " has " + std::to_string(n_tensors) + " tensors where its TF arguments take " +
                               std::to_string(singles));
  }
  std::vector<Span> out;
  size_t at = 0;
  for (const TfArg& a : args) {
    if (skip_resources && a.resource) {
      out.push_back({at, 0});
      continue;
    }
    size_t count = 1;
    if (a.is_list()) {
      if (lists == 1) {
        count = n_tensors - singles;
      } else if (!a.number_attr.empty() && attrs.has(a.number_attr)) {
        count = static_cast<size_t>(attrs.get<int64_t>(a.number_attr));
      } else {
        throw UnimplementedError("agc cannot tell the sizes of " + op + "'s argument lists");
      }
    }
    out.push_back({at, count});
    at += count;
  }
  if (at != n_tensors) {
    throw InvalidArgumentError("op " + op + "'s argument lists take " + std::to_string(at) + " tensors, not " +
                               std::to_string(n_tensors));
  }
  return out;
}

const TfSignature& signature_of(const OpDef& op) {
  if (!op.tf_signature) {
    throw UnimplementedError("op " + op.name + " cannot be written to a FunctionDef yet: agc has not declared its "
                             "TensorFlow arguments");
  }
  return *op.tf_signature;
}

// ---- attribute values

void write_attr(const AttrValue& v, tensorflow::AttrValue* out) {
  std::visit(
      [&]<class T>(const T& x) {
        if constexpr (std::is_same_v<T, int64_t>) {
          out->set_i(x);
        } else if constexpr (std::is_same_v<T, double>) {
          out->set_f(static_cast<float>(x));
        } else if constexpr (std::is_same_v<T, bool>) {
          out->set_b(x);
        } else if constexpr (std::is_same_v<T, std::string>) {
          out->set_s(x);
        } else if constexpr (std::is_same_v<T, DType>) {
          out->set_type(static_cast<tensorflow::DataType>(proto::data_type(x)));
        } else if constexpr (std::is_same_v<T, Shape>) {
          proto::write_shape(x, out->mutable_shape());
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          for (int64_t i : x) out->mutable_list()->add_i(i);
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          for (double f : x) out->mutable_list()->add_f(static_cast<float>(f));
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          for (const std::string& s : x) out->mutable_list()->add_s(s);
        } else {
          proto::write_tensor(x, out->mutable_tensor());
        }
      },
      v);
}

/// An attribute as agc holds it; nullopt for kinds agc's ops never read
/// (type lists, function names, placeholders).
std::optional<AttrValue> read_attr(const tensorflow::AttrValue& v) {
  switch (v.value_case()) {
    case tensorflow::AttrValue::kI: return AttrValue(v.i());
    case tensorflow::AttrValue::kF: return AttrValue(static_cast<double>(v.f()));
    case tensorflow::AttrValue::kB: return AttrValue(v.b());
    case tensorflow::AttrValue::kS: return AttrValue(v.s());
    case tensorflow::AttrValue::kType: {
      std::optional<DType> t = proto::dtype_of(v.type());
      if (!t) throw UnimplementedError("agc has no dtype " + proto::data_type_name(v.type()));
      return AttrValue(*t);
    }
    case tensorflow::AttrValue::kShape: return AttrValue(proto::read_shape(v.shape()));
    case tensorflow::AttrValue::kTensor: return AttrValue(proto::read_tensor(v.tensor()));
    case tensorflow::AttrValue::kList: {
      const auto& l = v.list();
      if (l.i_size() > 0) return AttrValue(std::vector<int64_t>(l.i().begin(), l.i().end()));
      if (l.f_size() > 0) return AttrValue(std::vector<double>(l.f().begin(), l.f().end()));
      if (l.s_size() > 0) return AttrValue(std::vector<std::string>(l.s().begin(), l.s().end()));
      if (l.type_size() > 0 || l.shape_size() > 0 || l.func_size() > 0 || l.tensor_size() > 0) return std::nullopt;
      return AttrValue(std::vector<int64_t>{});
    }
    default: return std::nullopt;
  }
}

/// The type, number and type-list attrs argument `a` gives a NodeDef, from
/// the dtypes of the tensors it takes (an attr already set is kept).
void arg_attrs(const TfArg& a, const std::vector<DType>& types,
               google::protobuf::Map<std::string, tensorflow::AttrValue>& attrs) {
  auto data_type = [](DType t) { return static_cast<tensorflow::DataType>(proto::data_type(t)); };
  if (!a.type_attr.empty() && !types.empty() && !attrs.count(a.type_attr)) attrs[a.type_attr].set_type(data_type(types[0]));
  if (!a.number_attr.empty() && !attrs.count(a.number_attr)) attrs[a.number_attr].set_i(static_cast<int64_t>(types.size()));
  if (!a.type_list_attr.empty() && !attrs.count(a.type_list_attr)) {
    auto* l = attrs[a.type_list_attr].mutable_list();
    for (DType t : types) l->add_type(data_type(t));
  }
}

/// A name as a FunctionDef argument's: lower case, '/' and others as '_' (TF's
/// arg names are the placeholders' lowercased).
std::string arg_name(const std::string& node_name) {
  std::string out;
  for (char c : node_name) out += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
  return out.empty() ? std::string("arg") : out;
}

}  // namespace

ExportedFunction export_function_def(const Graph& g, const std::string& name) {
  auto def = std::make_shared<tensorflow::FunctionDef>();
  tensorflow::OpDef* sig = def->mutable_signature();
  sig->set_name(name);
  // Arguments: the graph's inputs, then one resource per variable used.
  std::unordered_map<const Node*, std::string> args;
  std::set<std::string> taken;
  auto unique = [&](std::string base) {
    std::string n = base;
    for (int i = 1; taken.count(n); ++i) n = base + "_" + std::to_string(i);
    taken.insert(n);
    return n;
  };
  for (const Node* in : g.inputs()) {
    std::string n = unique(arg_name(in->name));
    args[in] = n;
    auto* a = sig->add_input_arg();
    a->set_name(n);
    a->set_type(static_cast<tensorflow::DataType>(proto::data_type(in->outputs[0].dtype)));
    tensorflow::AttrValue shapes;
    proto::write_shape(in->outputs[0].shape, shapes.mutable_list()->add_shape());
    (*(*def->mutable_arg_attr())[static_cast<uint32_t>(sig->input_arg_size() - 1)].mutable_attr())["_output_shapes"] = shapes;
  }
  ExportedFunction out;
  std::map<int64_t, std::string> resources;
  for (const auto& n : g.nodes()) {
    if (!n->attrs.has("var") || resources.count(n->attrs.get<int64_t>("var"))) continue;
    int64_t id = n->attrs.get<int64_t>("var");
    std::string r = unique(arg_name(n->name) + "_resource");
    resources[id] = r;
    out.variables.push_back(id);
    auto* a = sig->add_input_arg();
    a->set_name(r);
    a->set_type(tensorflow::DT_RESOURCE);
  }
  // A tensor as a FunctionDef input string.
  auto tensor_name = [&](const Output& o) -> std::string {
    if (auto it = args.find(o.node); it != args.end()) return it->second;
    const TfSignature& s = signature_of(*o.node->op);
    std::vector<Span> sp = spans(s.outputs, o.node->outputs.size(), o.node->attrs, o.node->op->name, false);
    for (size_t k = 0; k < sp.size(); ++k) {
      if (static_cast<size_t>(o.index) >= sp[k].start && static_cast<size_t>(o.index) < sp[k].start + sp[k].count) {
        return o.node->name + ":" + s.outputs[k].name + ":" + std::to_string(static_cast<size_t>(o.index) - sp[k].start);
      }
    }
    throw InternalError("output " + std::to_string(o.index) + " of " + o.node->name + " is in no TF argument");
  };
  bool stateful = false;
  for (const auto& n : g.nodes()) {
    if (args.count(n.get())) continue;
    if (!n->subgraphs.empty()) {
      throw UnimplementedError("op " + n->op->name + " (node " + n->name + ") cannot be written to a FunctionDef "
                               "yet: agc does not write control flow and function calls");
    }
    const TfSignature& s = signature_of(*n->op);
    stateful = stateful || n->stateful();
    tensorflow::NodeDef* nd = def->add_node_def();
    nd->set_name(n->name);
    nd->set_op(n->op->name);
    if (!n->device.empty()) nd->set_device(n->device);
    std::vector<Span> in = spans(s.inputs, n->inputs.size(), n->attrs, n->op->name, true);
    auto& attrs = *nd->mutable_attr();
    for (size_t k = 0; k < s.inputs.size(); ++k) {
      const TfArg& a = s.inputs[k];
      if (a.resource) {
        if (!n->attrs.has("var")) throw InternalError(n->op->name + " without its variable");
        nd->add_input(resources.at(n->attrs.get<int64_t>("var")));
        continue;
      }
      for (size_t i = 0; i < in[k].count; ++i) nd->add_input(tensor_name(n->inputs[in[k].start + i]));
      std::vector<DType> types;
      for (size_t i = 0; i < in[k].count; ++i) types.push_back(n->inputs[in[k].start + i].spec().dtype);
      arg_attrs(a, types, attrs);
    }
    std::vector<Span> outs = spans(s.outputs, n->outputs.size(), n->attrs, n->op->name, false);
    for (size_t k = 0; k < s.outputs.size(); ++k) {
      std::vector<DType> types;
      for (size_t i = 0; i < outs[k].count; ++i) types.push_back(n->outputs[outs[k].start + i].dtype);
      arg_attrs(s.outputs[k], types, attrs);
    }
    for (const auto& [key, value] : n->attrs.items()) {
      if (key == "var") continue;
      write_attr(value, &attrs[key]);
    }
    for (const Node* c : n->control_inputs) {
      if (!args.count(c)) nd->add_input("^" + c->name);
    }
  }
  sig->set_is_stateful(stateful);
  for (size_t i = 0; i < g.outputs().size(); ++i) {
    std::string o = "output_" + std::to_string(i);
    auto* a = sig->add_output_arg();
    a->set_name(o);
    a->set_type(static_cast<tensorflow::DataType>(proto::data_type(g.outputs()[i].spec().dtype)));
    (*def->mutable_ret())[o] = tensor_name(g.outputs()[i]);
  }
  out.def = std::move(def);
  return out;
}

std::shared_ptr<Graph> import_function_def(const tensorflow::FunctionDef& def, const std::vector<int64_t>& variables) {
  const tensorflow::OpDef& sig = def.signature();
  const OpRegistry& reg = OpRegistry::global();
  // Every op agc lacks, named at once.
  std::set<std::string> missing;
  for (const auto& nd : def.node_def()) {
    if (!reg.find(nd.op())) missing.insert(nd.op());
  }
  if (!missing.empty()) {
    std::string names;
    for (const std::string& m : missing) names += (names.empty() ? "" : ", ") + m;
    throw NotFoundError("Function " + sig.name() + " uses op" + (missing.size() > 1 ? "s" : "") + " agc does not have: " +
                        names + " (agc's ops are listed in docs/api.md)");
  }
  auto g = std::make_shared<Graph>(sig.name());
  std::unordered_map<std::string, Output> arg_tensors;
  std::unordered_map<std::string, int64_t> resource_args;
  size_t next_variable = 0;
  for (int i = 0; i < sig.input_arg_size(); ++i) {
    const auto& a = sig.input_arg(i);
    if (a.type() == tensorflow::DT_RESOURCE) {
      if (next_variable >= variables.size()) {
        throw InvalidArgumentError("Function " + sig.name() + " takes more resource arguments than the " +
                                   std::to_string(variables.size()) + " variables given");
      }
      resource_args[a.name()] = variables[next_variable++];
      continue;
    }
    std::optional<DType> t = proto::dtype_of(a.type());
    if (!t) throw UnimplementedError("agc has no dtype " + proto::data_type_name(a.type()) + " (argument " + a.name() + ")");
    Shape shape = Shape::unknown_rank();
    if (auto it = def.arg_attr().find(static_cast<uint32_t>(i)); it != def.arg_attr().end()) {
      if (auto s = it->second.attr().find("_output_shapes"); s != it->second.attr().end() && s->second.list().shape_size() == 1) {
        shape = proto::read_shape(s->second.list().shape(0));
      }
    }
    arg_tensors[a.name()] = g->placeholder({*t, shape}, a.name());
  }
  // The nodes in an order where each comes after its inputs.
  std::unordered_map<std::string, const tensorflow::NodeDef*> by_name;
  for (const auto& nd : def.node_def()) by_name[nd.name()] = &nd;
  std::unordered_map<std::string, Node*> made;
  std::set<std::string> visiting;
  std::function<Node*(const std::string&)> make;
  // An argument's name, or "node:output_arg:index", as the tensor it names.
  auto resolve = [&](const std::string& ref, const std::string& user) -> Output {
    if (auto a = arg_tensors.find(ref); a != arg_tensors.end()) return a->second;
    auto bad = [&] { return InvalidArgumentError("Function " + sig.name() + ": " + user + " reads '" + ref + "', which names no argument or node output"); };
    size_t c1 = ref.find(':');
    size_t c2 = c1 == std::string::npos ? std::string::npos : ref.find(':', c1 + 1);
    if (c2 == std::string::npos || c2 + 1 == ref.size() ||
        !std::all_of(ref.begin() + static_cast<std::ptrdiff_t>(c2 + 1), ref.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        ref.size() - c2 > 10) {
      throw bad();
    }
    Node* p = make(ref.substr(0, c1));
    const std::string arg = ref.substr(c1 + 1, c2 - c1 - 1);
    const auto index = static_cast<size_t>(std::stoll(ref.substr(c2 + 1)));
    const TfSignature& ps = signature_of(*p->op);
    std::vector<Span> sp = spans(ps.outputs, p->outputs.size(), p->attrs, p->op->name, false);
    for (size_t k = 0; k < ps.outputs.size(); ++k) {
      if (ps.outputs[k].name == arg && index < sp[k].count) return p->output(static_cast<int>(sp[k].start + index));
    }
    throw bad();
  };
  make = [&](const std::string& name) -> Node* {
    if (auto it = made.find(name); it != made.end()) return it->second;
    auto it = by_name.find(name);
    if (it == by_name.end()) throw InvalidArgumentError("Function " + sig.name() + ": no node named " + name);
    if (!visiting.insert(name).second) throw InvalidArgumentError("Function " + sig.name() + " has a cycle at node " + name);
    const tensorflow::NodeDef& nd = *it->second;
    const OpDef& op = *reg.find(nd.op());
    Attrs attrs;
    for (const auto& [key, value] : nd.attr()) {
      if (std::optional<AttrValue> v = read_attr(value)) attrs.set(key, std::move(*v));
    }
    std::vector<Output> inputs;
    std::vector<Node*> control;
    for (const std::string& ref : nd.input()) {
      if (!ref.empty() && ref[0] == '^') {
        control.push_back(make(ref.substr(1)));
      } else if (auto r = resource_args.find(ref); r != resource_args.end()) {
        attrs.set("var", r->second);  // agc's variable ops name their variable by attr
      } else {
        inputs.push_back(resolve(ref, "node " + name));
      }
    }
    Node* n = g->add_node(op, std::move(inputs), std::move(attrs), nd.name());
    for (Node* c : control) {
      if (std::find(n->control_inputs.begin(), n->control_inputs.end(), c) == n->control_inputs.end()) {
        n->control_inputs.push_back(c);
      }
    }
    if (!nd.device().empty()) n->device = nd.device();
    visiting.erase(name);
    made[name] = n;
    return n;
  };
  for (const auto& nd : def.node_def()) make(nd.name());
  for (const auto& a : sig.output_arg()) {
    auto it = def.ret().find(a.name());
    if (it == def.ret().end()) throw InvalidArgumentError("Function " + sig.name() + " returns nothing for " + a.name());
    g->outputs().push_back(resolve(it->second, "output " + a.name()));
  }
  return g;
}

}  // namespace ag

// graph/function_def's reader: a FunctionDefLibrary's functions as graphs.
#include "runtime/graph/function_def.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include "runtime/core/error.h"
#include "runtime/core/proto/graph_def.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/graph/control_flow.h"
#include "runtime/graph/node_def_format.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using node_def::read_attr;
using node_def::signature_of;
using node_def::Span;
using node_def::spans;


/// The functions a FunctionDef's nodes name (f, branches, cond and body).
std::vector<std::string> called_functions(const tensorflow::FunctionDef& def) {
  std::vector<std::string> out;
  for (const auto& nd : def.node_def()) {
    for (const auto& [key, value] : nd.attr()) {
      if (value.value_case() == tensorflow::AttrValue::kFunc) out.push_back(value.func().name());
    }
  }
  return out;
}

}  // namespace

FunctionDefReader::FunctionDefReader(std::shared_ptr<const tensorflow::FunctionDefLibrary> library)
    : library_(std::move(library)) {
  for (const auto& f : library_->function()) by_name_[f.signature().name()] = &f;
}

const tensorflow::FunctionDef* FunctionDefReader::find(const std::string& name) const {
  auto it = by_name_.find(name);
  return it == by_name_.end() ? nullptr : it->second;
}

void FunctionDefReader::check_ops(const std::string& name) const {
  const OpRegistry& reg = OpRegistry::global();
  std::set<std::string> missing, seen;
  std::vector<std::string> todo{name};
  while (!todo.empty()) {
    std::string f = todo.back();
    todo.pop_back();
    if (!seen.insert(f).second) continue;
    const tensorflow::FunctionDef* def = find(f);
    if (def == nullptr) throw NotFoundError("Function " + f + " is not in the function library");
    for (const auto& nd : def->node_def()) {
      if (!reg.find(nd.op())) missing.insert(nd.op());
    }
    for (std::string& c : called_functions(*def)) todo.push_back(std::move(c));
  }
  if (!missing.empty()) {
    std::string names;
    for (const std::string& m : missing) names += (names.empty() ? "" : ", ") + m;
    throw NotFoundError("Function " + name + " uses op" + (missing.size() > 1 ? "s" : "") + " agc does not have: " +
                        names + " (agc's ops are listed in docs/api.md)");
  }
}

std::shared_ptr<Graph> FunctionDefReader::read(const std::string& name, const std::vector<int64_t>& variables,
                                               Graph* parent) const {
  if (parent == nullptr) check_ops(name);
  const tensorflow::FunctionDef* found = find(name);
  if (found == nullptr) throw NotFoundError("Function " + name + " is not in the function library");
  const tensorflow::FunctionDef& def = *found;
  const tensorflow::OpDef& sig = def.signature();
  const OpRegistry& reg = OpRegistry::global();
  auto g = std::make_shared<Graph>(sig.name(), parent);
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
    const Shape shape = node_def::arg_output_shape(def, i).value_or(Shape::unknown_rank());
    arg_tensors[a.name()] = g->placeholder({*t, shape}, a.name());
  }
  // The nodes in an order where each comes after its inputs.
  std::unordered_map<std::string, const tensorflow::NodeDef*> by_name;
  for (const auto& nd : def.node_def()) by_name[nd.name()] = &nd;
  std::unordered_map<std::string, Node*> made;
  // A functional node's TF output index -> agc's (-1: a resource agc drops).
  std::unordered_map<Node*, std::vector<int>> out_index;
  std::set<Node*> batch_outputs;  // BatchFunction names its outputs out_tensors
  std::set<std::string> visiting;
  std::function<Node*(const std::string&)> make;
  auto bad_ref = [&](const std::string& ref, const std::string& user) {
    return InvalidArgumentError("Function " + sig.name() + ": " + user + " reads '" + ref +
                                "', which names no argument or node output");
  };
  // An argument's name, or "node:output_arg:index", as the tensor it names.
  auto resolve = [&](const std::string& ref, const std::string& user) -> Output {
    if (auto a = arg_tensors.find(ref); a != arg_tensors.end()) return a->second;
    size_t c1 = ref.find(':');
    size_t c2 = c1 == std::string::npos ? std::string::npos : ref.find(':', c1 + 1);
    if (c2 == std::string::npos || c2 + 1 == ref.size() ||
        !std::all_of(ref.begin() + static_cast<std::ptrdiff_t>(c2 + 1), ref.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        ref.size() - c2 > 10) {
      throw bad_ref(ref, user);
    }
    Node* p = make(ref.substr(0, c1));
    const std::string arg = ref.substr(c1 + 1, c2 - c1 - 1);
    const auto index = static_cast<size_t>(std::stoll(ref.substr(c2 + 1)));
    if (auto it = out_index.find(p); it != out_index.end()) {
      const char* want = batch_outputs.count(p) ? "out_tensors" : "output";
      if (arg != want || index >= it->second.size() || it->second[index] < 0) throw bad_ref(ref, user);
      return p->output(it->second[index]);
    }
    const TfSignature& ps = signature_of(*p->op);
    std::vector<Span> sp = spans(ps.outputs, p->outputs.size(), p->attrs, p->op->name, false);
    for (size_t k = 0; k < ps.outputs.size(); ++k) {
      if (ps.outputs[k].name == arg && index < sp[k].count) return p->output(static_cast<int>(sp[k].start + index));
    }
    throw bad_ref(ref, user);
  };
  auto func_attr = [&](const tensorflow::NodeDef& nd, const char* key) -> std::string {
    auto it = nd.attr().find(key);
    if (it == nd.attr().end() || it->second.value_case() != tensorflow::AttrValue::kFunc) {
      throw InvalidArgumentError("Function " + sig.name() + ": node " + nd.name() + " (" + nd.op() + ") has no function attr '" +
                                 key + "'");
    }
    return it->second.func().name();
  };
  make = [&](const std::string& name) -> Node* {
    if (auto it = made.find(name); it != made.end()) return it->second;
    auto it = by_name.find(name);
    if (it == by_name.end()) throw InvalidArgumentError("Function " + sig.name() + ": no node named " + name);
    if (!visiting.insert(name).second) throw InvalidArgumentError("Function " + sig.name() + " has a cycle at node " + name);
    const tensorflow::NodeDef& nd = *it->second;
    const OpDef& op = *reg.find(nd.op());
    std::vector<Output> inputs;
    std::vector<int64_t> vars;  // the resources a functional node passes, in order
    std::vector<Node*> control;
    for (const std::string& ref : nd.input()) {
      if (!ref.empty() && ref[0] == '^') {
        control.push_back(make(ref.substr(1)));
      } else if (auto r = resource_args.find(ref); r != resource_args.end()) {
        vars.push_back(r->second);
      } else {
        inputs.push_back(resolve(ref, "node " + name));
      }
    }
    Node* n = nullptr;
    // The positions of a function's non-resource outputs among all its outputs.
    auto kept_outputs = [&](const std::string& f) {
      std::vector<int> map;
      int next = 0;
      for (const auto& a : find(f)->signature().output_arg()) map.push_back(a.type() != tensorflow::DT_RESOURCE ? next++ : -1);
      return map;
    };
    switch (op.role()) {
      case OpRole::Call: {
        std::string f = func_attr(nd, "f");
        n = add_call(*g, std::move(inputs), read(f, vars, g.get()), f, nd.name());
        out_index[n] = kept_outputs(f);
        break;
      }
      case OpRole::DeviceCall: {
        if (inputs.empty()) {
          throw InvalidArgumentError("Function " + sig.name() + ": " + nd.op() + " node " + name + " has no device ordinal");
        }
        std::string f = func_attr(nd, "f");
        Output ordinal = inputs.back();
        inputs.pop_back();
        n = add_device_call(*g, std::move(inputs), ordinal, read(f, vars, g.get()), f, nd.name());
        // How the converter placed it (underscore attrs: "_bfloat16_optimization", ...).
        for (const auto& [key, value] : nd.attr()) {
          if (key.rfind('_', 0) != 0) continue;
          if (std::optional<AttrValue> v = read_attr(value)) n->attrs.set(key, std::move(*v));
        }
        out_index[n] = kept_outputs(f);
        break;
      }
      case OpRole::Batched: {
        std::string f = func_attr(nd, "f");
        auto tin = nd.attr().find("Tin");
        const size_t batched = tin == nd.attr().end() ? inputs.size() : static_cast<size_t>(tin->second.list().type_size());
        if (batched > inputs.size()) {
          throw InvalidArgumentError("Function " + sig.name() + ": BatchFunction node " + name + " has fewer inputs than Tin");
        }
        std::vector<Output> captured(inputs.begin() + static_cast<std::ptrdiff_t>(batched), inputs.end());
        inputs.resize(batched);
        Attrs options;
        for (const auto& [key, value] : nd.attr()) {
          if (key == "f" || key == "Tin" || key == "Tcaptured" || key == "Tout") continue;
          if (std::optional<AttrValue> v = read_attr(value)) options.set(key, std::move(*v));
        }
        n = add_batch_function(*g, std::move(inputs), std::move(captured), read(f, vars, g.get()), f, std::move(options),
                               nd.name());
        std::vector<int>& map = out_index[n];
        for (size_t i = 0; i < n->outputs.size(); ++i) map.push_back(static_cast<int>(i));
        batch_outputs.insert(n);
        break;
      }
      case OpRole::If: {
        if (inputs.empty()) throw InvalidArgumentError("Function " + sig.name() + ": If node " + name + " has no condition");
        Output cond = inputs[0];
        inputs.erase(inputs.begin());
        n = add_if(*g, cond, std::move(inputs), read(func_attr(nd, "then_branch"), vars, g.get()),
                   read(func_attr(nd, "else_branch"), vars, g.get()), {}, nd.name());
        n->attrs.set("branches", std::vector<std::string>{func_attr(nd, "then_branch"), func_attr(nd, "else_branch")});
        out_index[n] = kept_outputs(func_attr(nd, "then_branch"));
        break;
      }
      case OpRole::While: {
        WhileOptions options;
        options.name = nd.name();
        if (auto s = nd.attr().find("output_shapes"); s != nd.attr().end()) {
          // A loop variable whose shape the loop relaxes (TF's shape invariants).
          for (size_t i = 0; i < inputs.size() && static_cast<int>(i) < s->second.list().shape_size(); ++i) {
            Shape shape = proto::read_shape(s->second.list().shape(static_cast<int>(i)));
            options.shape_invariants.push_back(shape == inputs[i].spec().shape ? std::nullopt : std::optional<Shape>(shape));
          }
        }
        std::shared_ptr<Graph> cond_g = read(func_attr(nd, "cond"), vars, g.get());
        std::shared_ptr<Graph> body_g = read(func_attr(nd, "body"), vars, g.get());
        n = add_while(*g, std::move(inputs), std::move(cond_g), std::move(body_g), options);
        n->attrs.set("branches", std::vector<std::string>{func_attr(nd, "cond"), func_attr(nd, "body")});
        out_index[n] = kept_outputs(func_attr(nd, "body"));
        break;
      }
      default: {
        Attrs attrs;
        for (const auto& [key, value] : nd.attr()) {
          if (std::optional<AttrValue> v = read_attr(value)) attrs.set(key, std::move(*v));
        }
        if (vars.size() > 1) throw UnimplementedError("op " + nd.op() + " (node " + name + ") takes several resources");
        if (!vars.empty()) attrs.set("var", vars[0]);  // agc's variable ops name their variable by attr
        const std::vector<TfArg>* args = op.tf_signature ? &op.tf_signature->inputs : nullptr;
        if (args && std::any_of(args->begin(), args->end(), [](const TfArg& a) { return a.from_attr(); })) {
          // TF's inputs agc holds as attrs: constants, taken out of the inputs
          // (such signatures have no argument lists: one tensor per arg).
          std::vector<Output> kept;
          size_t i = 0;
          for (const TfArg& a : *args) {
            if (a.resource || i >= inputs.size()) continue;
            if (!a.from_attr()) {
              kept.push_back(inputs[i++]);
              continue;
            }
            const Tensor* value = Graph::constant_value(inputs[i++]);
            if (value == nullptr) {
              throw UnimplementedError("agc needs input " + a.name + " of " + nd.op() + " (node " + name +
                                       ") to be a constant");
            }
            attrs.set(a.attr, node_def::attr_from_input(a, *value, nd.op()));
          }
          kept.insert(kept.end(), inputs.begin() + static_cast<std::ptrdiff_t>(i), inputs.end());
          inputs = std::move(kept);
        }
        n = g->add_node(op, std::move(inputs), std::move(attrs), nd.name());
        break;
      }
    }
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
    if (a.type() == tensorflow::DT_RESOURCE) continue;
    auto it = def.ret().find(a.name());
    if (it == def.ret().end()) throw InvalidArgumentError("Function " + sig.name() + " returns nothing for " + a.name());
    g->outputs().push_back(resolve(it->second, "output " + a.name()));
  }
  return g;
}

std::shared_ptr<Graph> import_function_def(const tensorflow::FunctionDef& def, const std::vector<int64_t>& variables) {
  auto lib = std::make_shared<tensorflow::FunctionDefLibrary>();
  *lib->add_function() = def;
  return FunctionDefReader(lib).read(def.signature().name(), variables);
}

}  // namespace ag

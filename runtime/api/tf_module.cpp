// tf.Module as a class of the object model: __init__(name=None), and the
// properties name, variables, trainable_variables and submodules, which walk
// the instance's attributes as TF's _flatten_module does: attributes in
// sorted name order, into lists, tuples and dicts, each variable and module
// once; a module's own leaves first, then its submodules' in turn.
// Name scoping (TF wraps methods in the module's name scope) is not modelled:
// node names are the plain op names.
#include "runtime/api/tf_module.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

#include "runtime/api/python_api.h"
#include "runtime/core/variable.h"
#include "runtime/function/concrete_function.h"
#include "runtime/value/object_model.h"

namespace ag {
namespace {

using Predicate = std::function<bool(const Value& var)>;

/// Walks one attribute value: variables to `vars`, modules to `modules`.
void walk_leaves(const Value& v, const Predicate& pred, std::vector<Value>& vars, std::set<const void*>& seen,
                 std::vector<Value>& modules) {
  switch (v.kind()) {
    case Kind::Variable:
      if (seen.insert(v.as_variable().get()).second && pred(v)) vars.push_back(v);
      return;
    case Kind::List:
    case Kind::Tuple:
      for (const Value& item : v.items()) walk_leaves(item, pred, vars, seen, modules);
      return;
    case Kind::Dict:
      for (const auto& [k, item] : v.as_dict().entries) walk_leaves(item, pred, vars, seen, modules);
      return;
    case Kind::Object:
      if (is_module(v) && seen.insert(&v.as_object()).second) modules.push_back(v);
      return;
    default: return;
  }
}

void flatten(const Value& module, const Predicate& pred, std::vector<Value>& vars, std::set<const void*>& seen,
             std::vector<Value>* all_modules) {
  std::vector<std::pair<std::string, Value>> attrs = module.as_object().attrs;
  std::stable_sort(attrs.begin(), attrs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Value> modules;
  for (const auto& [k, v] : attrs) walk_leaves(v, pred, vars, seen, modules);
  for (const Value& m : modules) {
    if (all_modules != nullptr) all_modules->push_back(m);
    flatten(m, pred, vars, seen, all_modules);
  }
}

Value module_property(std::function<Value(const Value&)> fn) {
  return make_property(Value::callable("property", [fn](std::vector<Value> args, Kwargs) -> Value { return fn(args.at(0)); }));
}

Value make_module_class() {
  return make_class(
      "Module", {},
      {{"__init__", Value::callable("__init__",
                                    [](std::vector<Value> args, Kwargs kwargs) -> Value {
                                      static const std::vector<Param> params = {{"self", std::nullopt}, {"name", Value()}};
                                      std::vector<Value> a =
                                          bind_arguments("Module.__init__", params, std::move(args), std::move(kwargs));
                                      Value name = a[1];
                                      if (!name.is_none() && !name.is_str()) {
                                        throw TypeError("name must be a string or None");
                                      }
                                      a[0].setattr("_name", name.is_none() ? Value(camel_to_snake(a[0].type_name())) : name);
                                      return Value();
                                    })},
       {"name", module_property([](const Value& self) -> Value {
          for (const auto& [k, v] : self.as_object().attrs) {
            if (k == "_name") return v;
          }
          // A subclass whose __init__ does not call super().__init__().
          return Value(camel_to_snake(self.type_name()));
        })},
       {"variables", module_property([](const Value& self) -> Value {
          return module_variables(self, VariableKind::All);
        })},
       {"trainable_variables", module_property([](const Value& self) -> Value {
          return module_variables(self, VariableKind::Trainable);
        })},
       {"non_trainable_variables", module_property([](const Value& self) -> Value {
          return module_variables(self, VariableKind::NonTrainable);
        })},
       {"submodules", module_property([](const Value& self) -> Value {
          std::vector<Value> vars, modules;
          std::set<const void*> seen{&self.as_object()};
          flatten(self, [](const Value&) { return false; }, vars, seen, &modules);
          return Value::tuple(std::move(modules));
        })}});
}

}  // namespace

std::string camel_to_snake(const std::string& name) {
  // TF's re.sub(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))", r"_\1", name).lower()
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(name[i]);
    if (std::isupper(c) && i > 0) {
      unsigned char prev = static_cast<unsigned char>(name[i - 1]);
      bool after_lower = std::islower(prev) || std::isdigit(prev);
      bool before_lower = i + 1 < name.size() && std::islower(static_cast<unsigned char>(name[i + 1]));
      if (after_lower || before_lower) out += '_';
    }
    out += static_cast<char>(std::tolower(c));
  }
  return out;
}

bool is_module(const Value& v) { return is_instance(v, tf::api::Module()); }

Value module_variables(const Value& module, VariableKind kind) {
  std::vector<Value> vars, modules;
  std::set<const void*> seen{&module.as_object()};
  Predicate pred = [kind](const Value& var) {
    return kind == VariableKind::All || truthy(var.getattr("trainable")) == (kind == VariableKind::Trainable);
  };
  flatten(module, pred, vars, seen, nullptr);
  return Value::tuple(std::move(vars));
}

namespace tf::api {

const Value& Module() {
  static const Value cls = make_module_class();
  return cls;
}

}  // namespace tf::api

}  // namespace ag

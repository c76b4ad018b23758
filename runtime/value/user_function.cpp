#include "runtime/value/user_function.h"

#include "runtime/core/error.h"

namespace ag {

std::vector<Value> bind_arguments(const std::string& fn_name, const std::vector<Param>& params, std::vector<Value> args,
                                  Kwargs kwargs) {
  if (args.size() > params.size()) {
    throw TypeError(fn_name + "() takes " + std::to_string(params.size()) + " positional argument" +
                    (params.size() == 1 ? "" : "s") + " but " + std::to_string(args.size()) +
                    (args.size() == 1 ? " was" : " were") + " given");
  }
  std::vector<std::optional<Value>> bound(params.size());
  for (size_t i = 0; i < args.size(); ++i) bound[i] = std::move(args[i]);
  for (auto& [key, value] : kwargs) {
    size_t i = 0;
    while (i < params.size() && params[i].name != key) ++i;
    if (i == params.size()) throw TypeError(fn_name + "() got an unexpected keyword argument '" + key + "'");
    if (bound[i]) throw TypeError(fn_name + "() got multiple values for argument '" + key + "'");
    bound[i] = std::move(value);
  }
  std::vector<std::string> missing;
  std::vector<Value> out;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!bound[i] && params[i].default_value) bound[i] = *params[i].default_value;
    if (!bound[i]) {
      missing.push_back("'" + params[i].name + "'");
      continue;
    }
    out.push_back(std::move(*bound[i]));
  }
  if (!missing.empty()) {
    std::string names;
    for (size_t i = 0; i < missing.size(); ++i) {
      names += (i == 0 ? "" : i + 1 == missing.size() ? (missing.size() > 2 ? ", and " : " and ") : ", ") + missing[i];
    }
    throw TypeError(fn_name + "() missing " + std::to_string(missing.size()) + " required positional argument" +
                    (missing.size() == 1 ? "" : "s") + ": " + names);
  }
  return out;
}

namespace {
thread_local bool t_autograph_enabled = false;
}  // namespace

bool autograph_enabled() { return t_autograph_enabled; }

AutographScope::AutographScope(bool enabled) : saved_(t_autograph_enabled) { t_autograph_enabled = enabled; }
AutographScope::~AutographScope() { t_autograph_enabled = saved_; }

Value make_function(std::string name, std::vector<Param> params, Body body, Body converted) {
  auto u = std::make_shared<UserFunction>();
  u->qualname = name;
  u->name = std::move(name);
  u->params = std::move(params);
  u->body = std::move(body);
  u->converted = std::move(converted);
  std::string callable_name = u->name;
  CallFn call = [u](std::vector<Value> args, Kwargs kwargs) -> Value {
    return u->current()(bind_arguments(u->qualname, u->params, std::move(args), std::move(kwargs)));
  };
  return Value::callable(std::move(callable_name), std::move(call), std::move(u));
}

const std::vector<Param>* function_params(const Value& callable) {
  if (!callable.is_callable() || !callable.as_callable().user) return nullptr;
  return &callable.as_callable().user->params;
}

}  // namespace ag

#include "runtime/value/user_function.h"

#include "runtime/core/error.h"
#include "runtime/value/iteration.h"

namespace ag {

std::vector<Value> bind_arguments(const std::string& fn_name, const std::vector<Param>& params, std::vector<Value> args,
                                  Kwargs kwargs) {
  // The call does not bind: Python's TypeError, worded from the two shapes
  // (binding_error.h), as the transpiler words it at transpile time.
  const size_t given = args.size();
  auto fail = [&]() {
    std::vector<ParamShape> shapes;
    for (const Param& p : params) shapes.push_back({p.name, p.kind, p.default_value.has_value()});
    std::vector<std::string_view> keys;
    for (const auto& kv : kwargs) keys.push_back(kv.first);
    return TypeError(binding_error(fn_name, shapes, given, keys));
  };
  // The signature's layout: positional parameters first (in a def they are
  // a prefix), then *args, keyword-only ones and **kwargs.
  std::vector<size_t> positional;
  std::optional<size_t> varargs, varkw;
  for (size_t i = 0; i < params.size(); ++i) {
    switch (params[i].kind) {
      case ParamKind::PositionalOnly:
      case ParamKind::PositionalOrKeyword: positional.push_back(i); break;
      case ParamKind::VarPositional: varargs = i; break;
      case ParamKind::VarKeyword: varkw = i; break;
      case ParamKind::KeywordOnly: break;
    }
  }
  std::vector<std::optional<Value>> bound(params.size());
  std::vector<Value> extra;
  for (size_t i = 0; i < given; ++i) {
    if (i < positional.size()) {
      bound[positional[i]] = std::move(args[i]);
    } else {
      extra.push_back(std::move(args[i]));
    }
  }
  std::vector<std::pair<Value, Value>> extra_kw;
  for (auto& [key, value] : kwargs) {
    size_t i = 0;
    while (i < params.size() && !(params[i].name == key && (params[i].kind == ParamKind::PositionalOrKeyword ||
                                                            params[i].kind == ParamKind::KeywordOnly))) {
      ++i;
    }
    if (i == params.size()) {
      if (!varkw) throw fail();
      extra_kw.emplace_back(Value(key), std::move(value));
      continue;
    }
    if (bound[i]) throw fail();
    bound[i] = std::move(value);
  }
  if (given > positional.size() && !varargs) throw fail();
  for (size_t i = 0; i < params.size(); ++i) {
    if (i == varargs) {
      bound[i] = Value::tuple(std::move(extra));
    } else if (i == varkw) {
      bound[i] = Value::dict(std::move(extra_kw));
    } else if (!bound[i] && params[i].default_value) {
      bound[i] = *params[i].default_value;
    } else if (!bound[i]) {
      throw fail();
    }
  }
  std::vector<Value> out;
  out.reserve(params.size());
  for (auto& b : bound) out.push_back(std::move(*b));
  return out;
}

namespace {

/// The items of `parts`, each starred one iterated; `what` names the place
/// in Python's TypeError ("f() argument after * ...", "Value after * ...").
std::vector<Value> splat(const std::string& what, const std::vector<ArgPart>& parts) {
  std::vector<Value> out;
  for (const ArgPart& p : parts) {
    if (!p.star) {
      out.push_back(p.value);
      continue;
    }
    std::optional<Iteration> it;
    try {
      it.emplace(p.value);
    } catch (const TypeError&) {
      throw TypeError(what + " after * must be an iterable, not " + p.value.type_name());
    }
    for (const Value& x : *it) out.push_back(x);
  }
  return out;
}

}  // namespace

std::vector<Value> unpack_args(const std::string& callee, const std::vector<ArgPart>& parts) {
  return splat(callee + " argument", parts);
}

Kwargs unpack_kwargs(const std::string& callee, const std::vector<KwargPart>& parts) {
  Kwargs out;
  auto add = [&](const std::string& name, const Value& v) {
    for (const auto& [k, _] : out) {
      if (k == name) throw TypeError(callee + " got multiple values for keyword argument '" + name + "'");
    }
    out.emplace_back(name, v);
  };
  for (const KwargPart& p : parts) {
    if (!p.name.empty()) {
      add(p.name, p.value);
      continue;
    }
    if (!p.value.is_dict()) {
      throw TypeError(callee + " argument after ** must be a mapping, not " + p.value.type_name());
    }
    for (const auto& [k, v] : p.value.as_dict().entries) {
      if (!k.is_str()) throw TypeError("keywords must be strings");
      add(k.as_str(), v);
    }
  }
  return out;
}

Value call_unpacked(UnpackedCall call) {
  // CPython names the callee as _PyObject_FunctionStr does: a function by
  // its module and qualified name, anything else by its name.
  std::string callee;
  if (call.callee.is_callable()) {
    const CallableObj& c = call.callee.as_callable();
    callee = (c.user ? "__main__." + c.user->qualname : c.name) + "()";
  } else {
    callee = call.callee.type_name() + " object";
  }
  std::vector<Value> args = unpack_args(callee, call.args);
  Kwargs kwargs = unpack_kwargs(callee, call.kwargs);
  return call.callee(std::move(args), std::move(kwargs));
}

std::vector<Value> display_items(const std::vector<ArgPart>& parts) { return splat("Value", parts); }

Value dict_display(const std::vector<DictPart>& parts) {
  std::vector<std::pair<Value, Value>> items;
  for (const DictPart& p : parts) {
    if (!p.star) {
      items.emplace_back(p.key, p.value);
      continue;
    }
    if (!p.value.is_dict()) throw TypeError("'" + p.value.type_name() + "' object is not a mapping");
    for (const auto& [k, v] : p.value.as_dict().entries) items.emplace_back(k, v);
  }
  return Value::dict(std::move(items));
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

Value with_converted_code(Value f, const char* code) {
  f.as_callable().user->converted_code = code;
  return f;
}

const std::vector<Param>* function_params(const Value& callable) {
  if (!callable.is_callable() || !callable.as_callable().user) return nullptr;
  return &callable.as_callable().user->params;
}

}  // namespace ag

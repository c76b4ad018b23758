#include "runtime/value/object_model.h"

#include <algorithm>
#include <cstdio>

#include "runtime/value/tensor_spec_value.h"
#include "runtime/value/user_function.h"

namespace ag {
namespace {

const ClassInfo* class_info(const Value& v) {
  if (!v.is_object()) return nullptr;
  const ObjectObj& o = v.as_object();
  if (o.class_name != "type") return nullptr;
  return dynamic_cast<const ClassInfo*>(o.native.get());
}

const ClassInfo& checked_class(const Value& v) {
  if (const ClassInfo* c = class_info(v)) return *c;
  throw TypeError("'" + v.type_name() + "' object is not a class");
}

void collect_mro(const Value& cls, std::vector<Value>& out) {
  for (const Value& seen : out) {
    if (seen.is(cls)) return;
  }
  out.push_back(cls);
  for (const Value& base : checked_class(cls).bases) collect_mro(base, out);
}

const Value* own_attr(const ObjectObj& o, std::string_view name) {
  for (const auto& [k, v] : o.attrs) {
    if (k == name) return &v;
  }
  return nullptr;
}

/// The attribute `name` on the classes of `order` from position `start`.
std::optional<Value> lookup_in(const std::vector<Value>& order, size_t start, std::string_view name) {
  for (size_t i = start; i < order.size(); ++i) {
    if (const Value* v = own_attr(order[i].as_object(), name)) return *v;
  }
  return std::nullopt;
}

std::optional<Value> class_lookup(const Value& cls, std::string_view name) {
  // The MRO is collect_mro's depth-first order, so the first class on a
  // depth-first walk that has the attribute is the MRO's first: no MRO built
  // (instance attribute writes ask this, see check_settable).
  if (const Value* v = own_attr(cls.as_object(), name)) return *v;
  for (const Value& base : checked_class(cls).bases) {
    if (std::optional<Value> v = class_lookup(base, name)) return v;
  }
  return std::nullopt;
}

/// A class attribute as seen through `self`: functions bound, descriptors asked.
Value bind_to(const Value& attr, const Value& self, const Value& cls) {
  if (attr.is_callable()) return bind_method(attr, self);
  if (attr.is_object() && !attr.as_object().cls.is_none()) {
    if (std::optional<Value> get = class_lookup(attr.as_object().cls, "__get__")) {
      return (*get)({attr, self, cls}, {});
    }
  }
  return attr;
}

/// A class attribute read through the class: a descriptor gets no instance
/// (__get__(None, cls): a staticmethod's function, a property itself);
/// functions stay plain.
Value through_class(const Value& attr, const Value& cls) {
  if (attr.is_object() && !is_class(attr) && !attr.as_object().cls.is_none()) {
    if (std::optional<Value> get = class_lookup(attr.as_object().cls, "__get__")) return (*get)({attr, Value(), cls}, {});
  }
  return attr;
}

struct PropertyState : NativeState {
  Value getter;
  Value setter;  ///< None: read-only
};

}  // namespace

Value make_class(std::string name, std::vector<Value> bases, std::vector<std::pair<std::string, Value>> attrs) {
  for (const Value& b : bases) {
    if (!is_class(b)) {
      throw TypeError("class " + name + " cannot derive from a '" + b.type_name() + "' value (bases must be classes)");
    }
  }
  for (auto& [attr_name, v] : attrs) {
    if (v.is_callable() && v.as_callable().user) v.as_callable().user->qualname = name + "." + attr_name;
  }
  Value cls = Value::object("type");
  ObjectObj& o = cls.as_object();
  o.attrs = std::move(attrs);
  auto info = std::make_shared<ClassInfo>();
  info->name = std::move(name);
  info->bases = std::move(bases);
  o.native = std::move(info);
  return cls;
}

bool is_class(const Value& v) { return class_info(v) != nullptr; }

const std::string& class_name(const Value& cls) { return checked_class(cls).name; }

std::vector<Value> mro(const Value& cls) {
  std::vector<Value> out;
  collect_mro(cls, out);
  return out;
}

bool is_subclass(const Value& sub, const Value& cls) {
  if (!is_class(sub)) return false;
  for (const Value& c : mro(sub)) {
    if (c.is(cls)) return true;
  }
  return false;
}

bool is_instance(const Value& v, const Value& cls) {
  return v.is_object() && !v.as_object().cls.is_none() && is_subclass(v.as_object().cls, cls);
}

Value super_getattr(const Value& cls, const Value& self, std::string_view name) {
  if (!is_class(cls)) throw TypeError("super() argument 1 must be a type, not " + cls.type_name());
  const Value& self_cls = is_class(self) ? self : self.is_object() ? self.as_object().cls : Value();
  std::vector<Value> order = self_cls.is_none() ? std::vector<Value>{} : mro(self_cls);
  size_t start = order.size();
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i].is(cls)) start = i + 1;
  }
  // super(C, obj) needs obj to be a C (or a subclass of C).
  if (start == order.size() && std::none_of(order.begin(), order.end(), [&](const Value& c) { return c.is(cls); })) {
    throw TypeError("super(type, obj): obj must be an instance or subtype of type");
  }
  if (std::optional<Value> v = lookup_in(order, start, name)) return bind_to(*v, self, self_cls);
  throw AttributeError("'super' object has no attribute '" + std::string(name) + "'");
}

namespace {

/// The class of a descriptor kind (staticmethod, classmethod) whose
/// __get__(descriptor, instance, owner) is get(its __func__, the arguments).
Value descriptor_class(const char* name, Value (*get)(const Value& fn, const std::vector<Value>& args)) {
  return make_class(name, {}, {{"__get__", Value::callable("__get__", [get](std::vector<Value> args, Kwargs) -> Value {
                                  return get(args.at(0).getattr("__func__"), args);
                                })}});
}

/// An instance of descriptor class `cls` holding `fn` as __func__.
Value function_descriptor(const Value& cls, Value fn) {
  Value d = Value::object(class_name(cls));
  d.as_object().cls = cls;
  d.setattr("__func__", std::move(fn));
  return d;
}

}  // namespace

bool set_property(const Value& obj, std::string_view name, const Value& v) {
  const Value& cls = obj.as_object().cls;
  if (cls.is_none() || is_class(obj)) return false;
  std::optional<Value> attr = class_lookup(cls, name);
  if (!attr || !attr->is_object()) return false;
  const PropertyState* p = native_state<PropertyState>(*attr);
  if (p == nullptr) return false;
  if (p->setter.is_none()) {
    throw AttributeError("property '" + std::string(name) + "' of '" + class_name(cls) + "' object has no setter");
  }
  p->setter({obj, v}, {});
  return true;
}

Value make_staticmethod(Value fn) {
  static const Value cls =
      descriptor_class("staticmethod", [](const Value& f, const std::vector<Value>&) { return f; });
  return function_descriptor(cls, std::move(fn));
}

Value make_classmethod(Value fn) {
  static const Value cls = descriptor_class("classmethod", [](const Value& f, const std::vector<Value>& args) {
    // __get__(descriptor, instance, owner): bound to the owner class.
    Value owner = args.size() > 2 && !args[2].is_none() ? args[2] : args.at(1).as_object().cls;
    return bind_method(f, owner);
  });
  return function_descriptor(cls, std::move(fn));
}

Value make_property(Value getter, Value setter) {
  static const Value property_class = make_class(
      "property", {},
      {{"__get__", Value::callable("__get__", [](std::vector<Value> args, Kwargs) -> Value {
          // __get__(prop, instance, owner): the property itself through the class.
          if (args.size() < 2 || args[1].is_none()) return args.at(0);
          return native_state<PropertyState>(args[0])->getter({args[1]}, {});
        })},
       // @name.setter / @name.getter: a copy with that accessor replaced.
       {"setter", Value::callable("setter", [](std::vector<Value> args, Kwargs) -> Value {
          if (args.size() != 2) throw TypeError("setter() takes exactly one argument");
          return make_property(native_state<PropertyState>(args[0])->getter, args[1]);
        })},
       {"getter", Value::callable("getter", [](std::vector<Value> args, Kwargs) -> Value {
          if (args.size() != 2) throw TypeError("getter() takes exactly one argument");
          return make_property(args[1], native_state<PropertyState>(args[0])->setter);
        })}});
  Value p = Value::object("property");
  p.as_object().cls = property_class;
  auto st = std::make_shared<PropertyState>();
  st->getter = std::move(getter);
  st->setter = std::move(setter);
  p.as_object().native = std::move(st);
  return p;
}

Value bind_method(const Value& callable, const Value& self) {
  const CallableObj& c = callable.as_callable();
  std::shared_ptr<UserFunction> user;
  if (c.user && !c.user->params.empty()) {
    // tf.function(obj.method) reads the parameters after self.
    user = std::make_shared<UserFunction>();
    user->name = c.user->name;
    user->qualname = c.user->qualname;
    user->converted_code = c.user->converted_code;
    user->params.assign(c.user->params.begin() + 1, c.user->params.end());
    auto bind = [&self](const Body& body) -> Body {
      if (!body) return nullptr;
      return [body, self](const std::vector<Value>& args) {
        std::vector<Value> all;
        all.reserve(args.size() + 1);
        all.push_back(self);
        all.insert(all.end(), args.begin(), args.end());
        return body(all);
      };
    };
    user->body = bind(c.user->body);
    user->converted = bind(c.user->converted);
  }
  // Arguments are bound by the function itself (self included), so its
  // TypeErrors count self as Python's do.
  return Value::callable(
      c.name,
      [callable, self](std::vector<Value> args, Kwargs kwargs) -> Value {
        args.insert(args.begin(), self);
        return callable.as_callable().fn(std::move(args), std::move(kwargs));
      },
      std::move(user));
}

std::optional<Value> object_getattr(const Value& obj, std::string_view name) {
  const ObjectObj& o = obj.as_object();
  if (const Value* v = own_attr(o, name)) return is_class(obj) ? through_class(*v, obj) : *v;
  if (const ClassInfo* info = class_info(obj)) {
    if (std::optional<Value> v = lookup_in(mro(obj), 1, name)) return through_class(*v, obj);
    if (name == "__name__" || name == "__qualname__") return Value(info->name);
    if (name == "__bases__") return Value::tuple(info->bases);
    if (name == "__mro__") return Value::tuple(mro(obj));
    throw AttributeError("type object '" + info->name + "' has no attribute '" + std::string(name) + "'");
  }
  if (o.cls.is_none()) return std::nullopt;
  if (std::optional<Value> v = class_lookup(o.cls, name)) return bind_to(*v, obj, o.cls);
  if (name == "__class__") return o.cls;
  if (std::optional<Value> ga = class_lookup(o.cls, "__getattr__")) {
    return bind_to(*ga, obj, o.cls)({Value(name)}, {});
  }
  return std::nullopt;
}

std::optional<Value> special_method(const Value& v, std::string_view name) {
  if (!v.is_object() || v.as_object().cls.is_none() || is_class(v)) return std::nullopt;
  const Value& cls = v.as_object().cls;
  if (std::optional<Value> m = class_lookup(cls, name)) return bind_to(*m, v, cls);
  return std::nullopt;
}

bool object_hasattr(const Value& obj, std::string_view name) {
  const ObjectObj& o = obj.as_object();
  if (own_attr(o, name)) return true;
  if (is_class(obj)) return lookup_in(mro(obj), 1, name).has_value() || name == "__name__";
  if (o.cls.is_none()) return false;
  if (class_lookup(o.cls, name) || name == "__class__") return true;
  if (class_lookup(o.cls, "__getattr__")) {
    try {
      (void)object_getattr(obj, name);
      return true;
    } catch (const AttributeError&) {
      return false;
    }
  }
  return false;
}

Value NativeState::call(std::vector<Value>, Kwargs) {
  throw InternalError("NativeState::call on a state that is not callable");
}

Value object_call(const Value& obj, std::vector<Value> args, Kwargs kwargs) {
  if (NativeState* native = obj.as_object().native.get(); native && native->callable()) {
    return native->call(std::move(args), std::move(kwargs));
  }
  if (const ClassInfo* info = class_info(obj)) {
    if (std::optional<Value> make = class_lookup(obj, "__agc_new__")) {
      // Natively made instances (exceptions, layers): the class builds them.
      Value inst = (*make)({obj}, {});
      if (std::optional<Value> init = class_lookup(obj, "__init__")) {
        bind_to(*init, inst, obj)(std::move(args), std::move(kwargs));
      }
      return inst;
    }
    Value inst = Value::object(info->name);
    inst.as_object().cls = obj;
    std::optional<Value> init = class_lookup(obj, "__init__");
    if (!init) {
      if (!args.empty() || !kwargs.empty()) throw TypeError(info->name + "() takes no arguments");
      return inst;
    }
    Value r = bind_to(*init, inst, obj)(std::move(args), std::move(kwargs));
    if (!r.is_none()) throw TypeError("__init__() should return None, not '" + r.type_name() + "'");
    return inst;
  }
  const ObjectObj& o = obj.as_object();
  if (!o.cls.is_none()) {
    if (std::optional<Value> call = class_lookup(o.cls, "__call__")) {
      return bind_to(*call, obj, o.cls)(std::move(args), std::move(kwargs));
    }
  }
  throw TypeError("'" + obj.type_name() + "' object is not callable");
}

std::string object_text(const Value& obj, bool as_repr) {
  if (obj.is_ellipsis()) return "Ellipsis";
  const ObjectObj& o = obj.as_object();
  if (const ClassInfo* info = class_info(obj)) {
    // A class names its module as Python's repr does: a user's is __main__'s,
    // a built-in one (its __module__ "builtins", e.g. ValueError) none.
    std::string module = "__main__";
    for (const auto& [k, v] : o.attrs) {
      if (k == "__module__" && v.is_str()) module = v.as_str();
    }
    return "<class '" + (module == "builtins" ? std::string() : module + ".") + info->name + "'>";
  }
  if (!o.cls.is_none()) {
    std::optional<Value> m;
    if (!as_repr) m = class_lookup(o.cls, "__str__");
    if (!m) m = class_lookup(o.cls, "__repr__");
    if (m) {
      Value s = bind_to(*m, obj, o.cls)({}, {});
      if (!s.is_str()) {
        throw TypeError(std::string(as_repr || !class_lookup(o.cls, "__str__") ? "__repr__" : "__str__") +
                        " returned non-string (type " + s.type_name() + ")");
      }
      return s.as_str();
    }
  } else if (std::optional<TensorSpec> spec = tensor_spec_of(obj)) {
    return tensor_spec_repr(*spec, tensor_spec_name(obj));
  }
  return "<__main__." + o.class_name + " object at " + address_text(&o) + ">";
}

std::pair<std::string, Value> native_method(const std::string& qualname, const char* name, std::vector<Param> params,
                                            std::function<Value(const std::vector<Value>&)> fn) {
  return {name, Value::callable(name, [qualname, params = std::move(params), fn = std::move(fn)](
                                          std::vector<Value> args, Kwargs kwargs) -> Value {
            return fn(bind_arguments(qualname, params, std::move(args), std::move(kwargs)));
          })};
}

const Value& not_implemented() {
  static const Value* v = new Value(Value::object("NotImplementedType"));  // never destroyed
  return *v;
}

std::optional<Value> object_binary(const Value& a, const Value& b, std::string_view method, std::string_view reflected) {
  if (std::optional<Value> m = special_method(a, method)) {
    Value r = (*m)({b}, {});
    if (!r.is(not_implemented())) return r;
  }
  if (std::optional<Value> m = special_method(b, reflected)) {
    Value r = (*m)({a}, {});
    if (!r.is(not_implemented())) return r;
  }
  return std::nullopt;
}

Value native_object(const Value& cls, std::shared_ptr<NativeState> state) {
  Value v = Value::object(class_name(cls));
  v.as_object().cls = cls;
  v.as_object().native = std::move(state);
  return v;
}

}  // namespace ag

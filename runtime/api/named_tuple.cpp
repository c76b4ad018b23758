#include "runtime/api/named_tuple.h"

#include <algorithm>
#include <map>
#include <optional>
#include <memory>
#include <mutex>
#include <utility>

#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"

namespace ag::tf {
namespace {

struct NamedTupleState : NativeState {
  std::vector<Value> items;
};

const std::vector<Value>& items_of(const Value& self) { return native_state<NamedTupleState>(self)->items; }

Value instance(const Value& cls, std::vector<Value> items) {
  auto state = std::make_shared<NamedTupleState>();
  state->items = std::move(items);
  return native_object(cls, std::move(state));
}

/// The class of one namedtuple type. `defaults`: collections.namedtuple's
/// (the class is then callable); null for TF's results, made by the runtime.
Value make_named_tuple_class(const std::string& type_name, const std::vector<std::string>& fields,
                             const std::vector<Value>* defaults) {
  std::vector<std::pair<std::string, Value>> attrs;
  Param self{"self", std::nullopt};
  const std::string q = type_name + ".";
  if (defaults) {
    // Python's generated `__new__(_cls, f1, f2=d2, ...)`: its binding and
    // TypeError texts ("Point.__new__() missing 1 required positional
    // argument: 'y'"), the instance standing for _cls.
    std::vector<Param> params{{"_cls", std::nullopt}};
    const size_t first_default = fields.size() - defaults->size();
    for (size_t i = 0; i < fields.size(); ++i) {
      params.push_back({fields[i], i >= first_default ? std::optional<Value>((*defaults)[i - first_default])
                                                      : std::nullopt});
    }
    attrs.push_back({"__init__", Value::callable(q + "__init__", [new_name = q + "__new__", params](
                                                                     std::vector<Value> args, Kwargs kwargs) {
                       Value self = args.at(0);
                       auto state = std::make_shared<NamedTupleState>();
                       state->items = bind_arguments(new_name, params, std::move(args), std::move(kwargs));
                       state->items.erase(state->items.begin());
                       self.as_object().native = std::move(state);
                       return Value();
                     })});
    std::vector<Value> names;
    for (const std::string& f : fields) names.emplace_back(f);
    attrs.push_back({"_fields", Value::tuple(names)});
    attrs.push_back(native_method(q + "_asdict", "_asdict", {self}, [fields](const std::vector<Value>& a) {
      Value d = Value::dict();
      for (size_t i = 0; i < fields.size(); ++i) d.as_dict().set(Value(fields[i]), items_of(a[0]).at(i));
      return d;
    }));
    attrs.push_back({"_replace", Value::callable(q + "_replace", [fields, type_name](std::vector<Value> args, Kwargs kwargs) {
                       if (args.size() != 1) throw TypeError(type_name + "._replace() takes 1 positional argument");
                       std::vector<Value> items = items_of(args[0]);
                       for (const auto& [k, v] : kwargs) {
                         auto it = std::find(fields.begin(), fields.end(), k);
                         if (it == fields.end()) throw ValueError("Got unexpected field names: ['" + k + "']");
                         items[static_cast<size_t>(it - fields.begin())] = v;
                       }
                       return instance(args[0].as_object().cls, std::move(items));
                     })});
  }
  attrs.push_back(native_method(q + "__len__", "__len__", {self}, [](const std::vector<Value>& a) {
    return Value(static_cast<int64_t>(items_of(a[0]).size()));
  }));
  attrs.push_back(native_method(q + "__getitem__", "__getitem__", {self, {"key", std::nullopt}},
                                [](const std::vector<Value>& a) { return getitem(Value::tuple(items_of(a[0])), a[1]); }));
  attrs.push_back(native_method(q + "__getslice__", "__getslice__",
                                {self, {"start", std::nullopt}, {"stop", std::nullopt}, {"step", std::nullopt}},
                                [](const std::vector<Value>& a) {
                                  return getslice(Value::tuple(items_of(a[0])), SliceSpec{a[1], a[2], a[3]});
                                }));
  attrs.push_back(native_method(q + "__iter__", "__iter__", {self},
                                [](const std::vector<Value>& a) { return Value::tuple(items_of(a[0])); }));
  attrs.push_back(native_method(q + "__eq__", "__eq__", {self, {"other", std::nullopt}}, [](const std::vector<Value>& a) {
    const Value& other = a[1];
    NamedTupleState* o = native_state<NamedTupleState>(other);
    return Value::tuple(items_of(a[0])) == (o != nullptr ? Value::tuple(o->items) : other);
  }));
  // Ordering is the tuple's, against a tuple or another named tuple
  // (`sys.version_info >= (3, 8)`); anything else declines, so Python's
  // TypeError names both types.
  auto ordering = [&](const char* name, Value (*cmp)(const Value&, const Value&)) {
    attrs.push_back(native_method(q + name, name, {self, {"other", std::nullopt}}, [cmp](const std::vector<Value>& a) {
      const Value& other = a[1];
      if (NamedTupleState* o = native_state<NamedTupleState>(other)) {
        return cmp(Value::tuple(items_of(a[0])), Value::tuple(o->items));
      }
      if (!other.is_tuple()) return not_implemented();
      return cmp(Value::tuple(items_of(a[0])), other);
    }));
  };
  ordering("__lt__", [](const Value& x, const Value& y) { return x < y; });
  ordering("__le__", [](const Value& x, const Value& y) { return x <= y; });
  ordering("__gt__", [](const Value& x, const Value& y) { return x > y; });
  ordering("__ge__", [](const Value& x, const Value& y) { return x >= y; });
  auto text = [type_name, fields](const std::vector<Value>& a) {
    const std::vector<Value>& items = items_of(a[0]);
    std::string s = type_name + "(";
    for (size_t i = 0; i < items.size(); ++i) s += (i > 0 ? ", " : "") + fields[i] + "=" + repr(items[i]);
    return Value(s + ")");
  };
  attrs.push_back(native_method(q + "__repr__", "__repr__", {self}, text));
  attrs.push_back(native_method(q + "__str__", "__str__", {self}, text));
  for (size_t i = 0; i < fields.size(); ++i) {
    attrs.push_back({fields[i], make_property(Value::callable(q + fields[i], [i](std::vector<Value> args, Kwargs) {
                       return items_of(args.at(0)).at(i);
                     }))});
  }
  Value cls = make_class(type_name, {}, std::move(attrs));
  if (defaults) {
    // A classmethod: Point._make(iterable).
    cls.setattr("_make", Value::callable(q + "_make", [cls = WeakValue(cls), fields, type_name](std::vector<Value> args, Kwargs) {
                  if (args.size() != 1) throw TypeError(type_name + "._make() takes 1 positional argument");
                  std::vector<Value> items = iterate(args[0]);
                  if (items.size() != fields.size()) {
                    throw TypeError("Expected " + std::to_string(fields.size()) + " arguments, got " +
                                    std::to_string(items.size()));
                  }
                  return instance(cls.lock(), std::move(items));
                }));
  }
  return cls;
}

}  // namespace

Value named_tuple_class(const std::string& type_name, const std::vector<std::string>& fields,
                        std::vector<Value> defaults) {
  return make_named_tuple_class(type_name, fields, &defaults);
}

Value named_tuple(const std::string& type_name, const std::vector<std::string>& fields, std::vector<Value> items) {
  static std::mutex mu;
  static std::map<std::string, Value> classes;
  Value cls;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = classes.find(type_name);
    if (it == classes.end()) it = classes.emplace(type_name, make_named_tuple_class(type_name, fields, nullptr)).first;
    cls = it->second;
  }
  return instance(cls, std::move(items));
}

}  // namespace ag::tf

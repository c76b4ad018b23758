#include "runtime/api/named_tuple.h"

#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "runtime/value/object_model.h"

namespace ag::tf {
namespace {

struct NamedTupleState : NativeState {
  std::vector<Value> items;
};

const std::vector<Value>& items_of(const Value& self) { return native_state<NamedTupleState>(self)->items; }

/// The class of one namedtuple type, made once per type name (its fields
/// are the same every time TF makes it).
Value make_named_tuple_class(const std::string& type_name, const std::vector<std::string>& fields) {
  std::vector<std::pair<std::string, Value>> attrs;
  Param self{"self", std::nullopt};
  const std::string q = type_name + ".";
  attrs.push_back(native_method(q + "__len__", "__len__", {self}, [](const std::vector<Value>& a) {
    return Value(static_cast<int64_t>(items_of(a[0]).size()));
  }));
  attrs.push_back(native_method(q + "__getitem__", "__getitem__", {self, {"key", std::nullopt}},
                                [](const std::vector<Value>& a) { return getitem(Value::tuple(items_of(a[0])), a[1]); }));
  attrs.push_back(native_method(q + "__iter__", "__iter__", {self},
                                [](const std::vector<Value>& a) { return Value::tuple(items_of(a[0])); }));
  attrs.push_back(native_method(q + "__eq__", "__eq__", {self, {"other", std::nullopt}}, [](const std::vector<Value>& a) {
    const Value& other = a[1];
    NamedTupleState* o = native_state<NamedTupleState>(other);
    return Value::tuple(items_of(a[0])) == (o != nullptr ? Value::tuple(o->items) : other);
  }));
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
  return make_class(type_name, {}, std::move(attrs));
}

}  // namespace

Value named_tuple(const std::string& type_name, const std::vector<std::string>& fields, std::vector<Value> items) {
  static std::mutex mu;
  static std::map<std::string, Value> classes;
  Value cls;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = classes.find(type_name);
    if (it == classes.end()) it = classes.emplace(type_name, make_named_tuple_class(type_name, fields)).first;
    cls = it->second;
  }
  auto state = std::make_shared<NamedTupleState>();
  state->items = std::move(items);
  return native_object(cls, std::move(state));
}

}  // namespace ag::tf

// Python's collections module (py_modules.def's collections rows).
// defaultdict, OrderedDict and Counter are dicts of a flavor (DictObj::Flavor:
// what a missing key does, their own methods and printing, in
// runtime/value/value_dict.cpp and value_methods.cpp), so everything that
// takes a dict takes them; namedtuple makes a class (runtime/api/named_tuple.h);
// deque is a native class over std::deque.
#include <algorithm>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/named_tuple.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"
#include "runtime/value/iteration.h"
#include "runtime/value/object_model.h"

namespace ag::pymod::impl {
namespace {

Value flavored(Value d, DictObj::Flavor flavor) {
  d.as_dict().flavor = flavor;
  return d;
}

/// `Name` as Python's identifier rules and namedtuple's read them.
bool valid_field(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); });
}

struct DequeState : NativeState {
  std::deque<Value> items;
  std::optional<int64_t> maxlen;

  void push(Value v, bool left) {
    if (maxlen && *maxlen == 0) return;
    if (maxlen && static_cast<int64_t>(items.size()) == *maxlen) {
      if (left) {
        items.pop_back();
      } else {
        items.pop_front();
      }
    }
    if (left) {
      items.push_front(std::move(v));
    } else {
      items.push_back(std::move(v));
    }
  }
};

DequeState& deque_of(const Value& self) { return *native_state<DequeState>(self); }

const Value& deque_class() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    Param x{"x", std::nullopt};
    auto method = [&](const char* name, std::vector<Param> params, std::function<Value(const std::vector<Value>&)> fn) {
      attrs.push_back(native_method(std::string("deque.") + name, name, std::move(params), std::move(fn)));
    };
    method("append", {self, x}, [](const std::vector<Value>& a) {
      deque_of(a[0]).push(a[1], false);
      return Value();
    });
    method("appendleft", {self, x}, [](const std::vector<Value>& a) {
      deque_of(a[0]).push(a[1], true);
      return Value();
    });
    method("extend", {self, {"iterable", std::nullopt}}, [](const std::vector<Value>& a) {
      for (Value& v : iterate(a[1])) deque_of(a[0]).push(std::move(v), false);
      return Value();
    });
    method("extendleft", {self, {"iterable", std::nullopt}}, [](const std::vector<Value>& a) {
      for (Value& v : iterate(a[1])) deque_of(a[0]).push(std::move(v), true);
      return Value();
    });
    auto pop = [](bool left) {
      return [left](const std::vector<Value>& a) {
        std::deque<Value>& d = deque_of(a[0]).items;
        if (d.empty()) throw IndexError("pop from an empty deque");
        Value v = left ? d.front() : d.back();
        if (left) {
          d.pop_front();
        } else {
          d.pop_back();
        }
        return v;
      };
    };
    method("pop", {self}, pop(false));
    method("popleft", {self}, pop(true));
    method("clear", {self}, [](const std::vector<Value>& a) {
      deque_of(a[0]).items.clear();
      return Value();
    });
    method("rotate", {self, {"n", Value(1)}}, [](const std::vector<Value>& a) {
      std::deque<Value>& d = deque_of(a[0]).items;
      if (d.empty()) return Value();
      int64_t n = static_cast<int64_t>(d.size());
      int64_t k = ((a[1].as_int() % n) + n) % n;
      std::rotate(d.begin(), d.begin() + (n - k), d.end());
      return Value();
    });
    method("count", {self, x}, [](const std::vector<Value>& a) {
      const std::deque<Value>& d = deque_of(a[0]).items;
      return Value(static_cast<int64_t>(std::count_if(d.begin(), d.end(), [&](const Value& v) { return py_equal(v, a[1]); })));
    });
    method("__len__", {self}, [](const std::vector<Value>& a) {
      return Value(static_cast<int64_t>(deque_of(a[0]).items.size()));
    });
    method("__getitem__", {self, {"index", std::nullopt}}, [](const std::vector<Value>& a) {
      const std::deque<Value>& d = deque_of(a[0]).items;
      if (!a[1].is_int()) throw TypeError("sequence index must be integer, not '" + a[1].type_name() + "'");
      int64_t i = a[1].as_int(), n = static_cast<int64_t>(d.size());
      if (i < 0) i += n;
      if (i < 0 || i >= n) throw IndexError("deque index out of range");
      return d[static_cast<size_t>(i)];
    });
    method("__iter__", {self}, [](const std::vector<Value>& a) {
      const std::deque<Value>& d = deque_of(a[0]).items;
      return py_iter(Value::list(std::vector<Value>(d.begin(), d.end())));
    });
    method("__contains__", {self, x}, [](const std::vector<Value>& a) {
      const std::deque<Value>& d = deque_of(a[0]).items;
      return Value(std::any_of(d.begin(), d.end(), [&](const Value& v) { return py_equal(v, a[1]); }));
    });
    method("__repr__", {self}, [](const std::vector<Value>& a) {
      const DequeState& s = deque_of(a[0]);
      std::string out = repr(Value::list(std::vector<Value>(s.items.begin(), s.items.end())));
      return Value("deque(" + out + (s.maxlen ? ", maxlen=" + std::to_string(*s.maxlen) : "") + ")");
    });
    attrs.push_back({"maxlen", make_property(Value::callable("deque.maxlen", [](std::vector<Value> a, Kwargs) {
                       const DequeState& s = deque_of(a.at(0));
                       return s.maxlen ? Value(*s.maxlen) : Value();
                     }))});
    return make_class("deque", {}, std::move(attrs));
  }();
  return cls;
}

}  // namespace

Value collections_defaultdict(const TfCall& c) {
  const Value& factory = c["default_factory"];
  if (!factory.is_none() && !truthy(py::callable({factory}, {}))) {
    throw TypeError("first argument must be callable or None");
  }
  Value d = flavored(py::dict(c["args"].items(), {}), DictObj::Flavor::DefaultDict);
  for (const auto& [k, v] : c["kwargs"].as_dict().entries) d.as_dict().set(k, v);
  d.as_dict().default_factory = factory;
  return d;
}

Value collections_ordered_dict(const TfCall& c) {
  Value d = flavored(py::dict(c["args"].items(), {}), DictObj::Flavor::OrderedDict);
  for (const auto& [k, v] : c["kwargs"].as_dict().entries) d.as_dict().set(k, v);
  return d;
}

Value collections_counter(const TfCall& c) {
  Value d = flavored(Value::dict(), DictObj::Flavor::Counter);
  if (!c["iterable"].is_none()) d.getattr("update")({c["iterable"]}, {});
  if (c["kwds"].as_dict().size() > 0) d.getattr("update")({c["kwds"]}, {});
  return d;
}

Value collections_namedtuple(const TfCall& c) {
  const std::string type_name = c["typename"].as_str();
  std::vector<std::string> fields;
  if (c["field_names"].is_str()) {
    // "x y" or "x, y", as namedtuple splits it.
    std::string names = c["field_names"].as_str();
    std::replace(names.begin(), names.end(), ',', ' ');
    size_t i = 0;
    while (i < names.size()) {
      size_t j = names.find(' ', i);
      if (j == std::string::npos) j = names.size();
      if (j > i) fields.push_back(names.substr(i, j - i));
      i = j + 1;
    }
  } else {
    for (const Value& f : iterate(c["field_names"])) fields.push_back(str(f));
  }
  if (!valid_field(type_name)) {
    throw ValueError("Type names and field names must be valid identifiers: '" + type_name + "'");
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    if (!valid_field(f)) throw ValueError("Type names and field names must be valid identifiers: '" + f + "'");
    if (f[0] == '_') throw ValueError("Field names cannot start with an underscore: '" + f + "'");
    if (std::find(fields.begin(), fields.begin() + static_cast<std::ptrdiff_t>(i), f) != fields.begin() + static_cast<std::ptrdiff_t>(i)) {
      throw ValueError("Encountered duplicate field name: '" + f + "'");
    }
  }
  std::vector<Value> defaults;
  if (!c["defaults"].is_none()) defaults = iterate(c["defaults"]);
  if (defaults.size() > fields.size()) throw TypeError("Got more default values than field names");
  return tf::named_tuple_class(type_name, fields, std::move(defaults));
}

Value collections_deque(const TfCall& c) {
  auto s = std::make_shared<DequeState>();
  if (!c["maxlen"].is_none()) {
    if (!c["maxlen"].is_int()) throw TypeError("an integer is required");
    if (c["maxlen"].as_int() < 0) throw ValueError("maxlen must be non-negative");
    s->maxlen = c["maxlen"].as_int();
  }
  if (!c["iterable"].is_none()) {
    for (Value& v : iterate(c["iterable"])) s->push(std::move(v), false);
  }
  return native_object(deque_class(), std::move(s));
}

}  // namespace ag::pymod::impl

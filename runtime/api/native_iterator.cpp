#include "runtime/api/native_iterator.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "runtime/value/object_model.h"

namespace ag {
namespace {

struct NativeIteratorState : NativeState {
  std::function<Value()> next;
  std::function<std::string()> text;  // repr; null: Python's default <name object at ...>
};

}  // namespace

Value native_iterator_class(const std::string& module, const std::string& name) {
  static std::map<std::string, Value>* classes = new std::map<std::string, Value>();  // never destroyed
  static std::mutex mu;
  const std::string qualified = module == "builtins" ? name : module + "." + name;
  std::lock_guard<std::mutex> lock(mu);
  auto it = classes->find(qualified);
  if (it != classes->end()) return it->second;
  std::vector<std::pair<std::string, Value>> attrs;
  Param self{"self", std::nullopt};
  const std::string q = name + ".";
  attrs.push_back(native_method(q + "__next__", "__next__", {self}, [](const std::vector<Value>& a) {
    return native_state<NativeIteratorState>(a[0])->next();
  }));
  attrs.push_back(native_method(q + "__iter__", "__iter__", {self}, [](const std::vector<Value>& a) { return a[0]; }));
  attrs.push_back(native_method(q + "__repr__", "__repr__", {self}, [qualified](const std::vector<Value>& a) {
    const NativeIteratorState* s = native_state<NativeIteratorState>(a[0]);
    return Value(s->text ? s->text() : "<" + qualified + " object at " + address_text(s) + ">");
  }));
  attrs.emplace_back("__module__", Value(module));
  return classes->emplace(qualified, make_class(name, {}, std::move(attrs))).first->second;
}

Value native_iterator(const std::string& module, const std::string& name, std::function<Value()> next,
                      std::function<std::string()> text) {
  auto s = std::make_shared<NativeIteratorState>();
  s->next = std::move(next);
  s->text = std::move(text);
  return native_object(native_iterator_class(module, name), std::move(s));
}

}  // namespace ag

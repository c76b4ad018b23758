#include "runtime/value/iteration.h"

#include <memory>

#include "runtime/value/object_model.h"

namespace ag {
namespace {

/// The iterator object of iter(list) and friends: a snapshot of the items.
struct SequenceIteratorState : NativeState {
  std::vector<Value> items;
  size_t next = 0;
};

const Value& sequence_iterator_class() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    attrs.push_back(native_method("iterator.__next__", "__next__", {self}, [](const std::vector<Value>& a) -> Value {
      auto* s = native_state<SequenceIteratorState>(a[0]);
      if (s->next >= s->items.size()) throw StopIteration("");
      return s->items[s->next++];
    }));
    attrs.push_back(native_method("iterator.__iter__", "__iter__", {self}, [](const std::vector<Value>& a) { return a[0]; }));
    return make_class("iterator", {}, std::move(attrs));
  }();
  return cls;
}

}  // namespace

Iteration::Iteration(const Value& iterable) {
  if (iterable.is_object()) {
    if (std::optional<Value> iter = special_method(iterable, "__iter__")) {
      Value it = (*iter)({}, {});
      if (std::optional<Value> next = special_method(it, "__next__")) {
        next_method_ = *next;
        return;
      }
      items_ = iterate(it);
      return;
    }
  }
  items_ = iterate(iterable);
}

std::optional<Value> Iteration::next() {
  if (!next_method_.is_none()) {
    try {
      return next_method_({}, {});
    } catch (const StopIteration&) {
      next_method_ = Value();
      next_ = items_.size();
      return std::nullopt;
    }
  }
  if (next_ >= items_.size()) return std::nullopt;
  return items_[next_++];
}

Value py_iter(const Value& v) {
  if (v.is_object()) {
    if (std::optional<Value> iter = special_method(v, "__iter__")) {
      Value it = (*iter)({}, {});
      if (!special_method(it, "__next__")) {
        throw TypeError("iter() returned non-iterator of type '" + it.type_name() + "'");
      }
      return it;
    }
  }
  auto s = std::make_shared<SequenceIteratorState>();
  s->items = iterate(v);
  return native_object(sequence_iterator_class(), std::move(s));
}

Value py_next(const Value& it) {
  if (std::optional<Value> next = special_method(it, "__next__")) return (*next)({}, {});
  throw TypeError("'" + it.type_name() + "' object is not an iterator");
}

}  // namespace ag

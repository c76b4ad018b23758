// Python's closure cells for generated code. A local variable that a nested
// function which may outlive its frame uses lives in a Cell: a shared box, so
// the function sees the frame's later assignments (Python's late binding),
// its `nonlocal` writes reach the frame, and the variable lives as long as
// any function holding it. Generated code declares such a variable as
// `ag::Cell count(...)`, reads and writes it as `*count`, and a closure
// captures the Cell by copy (the box is shared, never the value copied).
//
// A nested function that calls itself would hold the cell of its own name,
// which holds the function: with reference counting and no cycle collector
// the two would never be freed. Such a function reaches itself through a
// SelfRef instead, which does not keep it alive (it is alive whenever it runs).
#pragma once

#include <memory>
#include <utility>

#include "runtime/value/value.h"

namespace ag {

class Cell {
 public:
  /// A new cell holding `v`. Implicit, so that a parameter a closure captures
  /// is declared as a Cell and made from the argument the caller passes.
  Cell(Value v = Value()) : box_(std::make_shared<Value>(std::move(v))) {}  // NOLINT
  /// The variable: `*count = *count + 1`.
  Value& operator*() const { return *box_; }
  Value* operator->() const { return box_.get(); }

 private:
  std::shared_ptr<Value> box_;
};

/// A nested function's reference to itself. Copies share it; bind() it to the
/// function once made, get() it in the function's body.
class SelfRef {
 public:
  SelfRef() : slot_(std::make_shared<WeakValue>()) {}
  /// Points the reference at `fn` (the def's value, decorators applied); returns fn.
  Value bind(Value fn) const {
    *slot_ = WeakValue(fn);
    return fn;
  }
  /// The function; None only once nothing holds it (never while it runs).
  Value get() const { return slot_->lock(); }

 private:
  std::shared_ptr<WeakValue> slot_;
};

/// A SelfRef's function held strongly: what the frame of a generator defined
/// in a function keeps, since the generator may outlive every other
/// reference to that function (Python's closure cell would keep it).
class HeldRef {
 public:
  explicit HeldRef(Value fn) : fn_(std::move(fn)) {}
  Value get() const { return fn_; }

 private:
  Value fn_;
};

}  // namespace ag

// Python iterator objects whose __next__ is native code: the lazy builtins
// (map, filter) and itertools' endless iterators (count, cycle, repeat).
#pragma once

#include <functional>
#include <string>

#include "runtime/value/value.h"

namespace ag {

/// An iterator object of class `module`.`name` (module "builtins" for map
/// and filter) whose __next__ is `next` (throwing StopIteration at the end)
/// and whose __iter__ is itself. Its repr is `text()`, or when `text` is
/// null CPython's default: `<map object at 0x...>`,
/// `<itertools.cycle object at 0x...>`. One class per module and name, so
/// type() and isinstance see the same class for every such iterator.
Value native_iterator(const std::string& module, const std::string& name, std::function<Value()> next,
                      std::function<std::string()> text = nullptr);

/// The class of the native iterators of `module`.`name` (isinstance(m, map)).
Value native_iterator_class(const std::string& module, const std::string& name);

}  // namespace ag

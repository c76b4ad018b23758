// Python's class model as generated code uses it: classes made at run time
// (a `class` statement runs when the module does), instances whose attribute
// lookup falls back to their class and its bases, methods bound to `self`,
// and the protocols the seeds rely on: __init__ when a class is called,
// __call__ when an instance is, __str__/__repr__ for print, super().
//
// A class is an object of class "type"; an instance is an object whose
// ObjectObj::cls is its class. tf.Module and the Keras layers are classes
// made the same way (runtime/api/tf_module.cpp, runtime/api/keras_layers.cpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "runtime/value/value.h"

namespace ag {

/// A `class name(bases): ...` statement: `attrs` are the class body's
/// bindings in order (methods are callables taking self first; a method
/// decorated with @tf.function is a Function value). Calling the class makes
/// an instance and calls __init__ (TypeError in Python's words when the
/// arguments do not fit it).
Value make_class(std::string name, std::vector<Value> bases, std::vector<std::pair<std::string, Value>> attrs);

bool is_class(const Value& v);
/// isinstance(v, cls) for classes made by make_class (bases included).
bool is_instance(const Value& v, const Value& cls);

/// super().attr inside a method of `cls` whose self is `self`: the attribute
/// looked up from the next class in cls's method resolution order, bound to self.
Value super_getattr(const Value& cls, const Value& self, std::string_view name);

}  // namespace ag

// Python's class model as generated code uses it: classes made at run time
// (a `class` statement runs when the module does), instances whose attribute
// lookup falls back to their class and its bases, methods bound to `self`,
// and the protocols the seeds rely on: __init__ when a class is called,
// __call__ when an instance is, __str__/__repr__ for print, super(); and
// len(), x[k], iteration, `in`, ==/!= and truth through __len__,
// __getitem__, __iter__, __contains__, __eq__ and __bool__ (value_index.cpp,
// value_ops.cpp call special_method()).
//
// A class is an object of class "type" (ObjectObj::class_name "type") whose
// attrs are the class body's bindings and whose native state is a ClassInfo
// (name, bases); an instance is an object whose ObjectObj::cls is its class.
// tf.Module and the Keras layers are classes made the same way
// (runtime/api/tf_module.cpp, runtime/api/keras_layers.cpp); so are the
// runtime's own kinds of object (tf.function values, graphs, exceptions),
// whose methods are callables taking self first, as a user's are.
//
// Lookup order (the method resolution order, MRO): the class, then each base
// depth first, left to right, a class reached twice counted at its first
// visit. This equals Python's C3 order for single inheritance and for the
// diamond-free hierarchies the seeds use; it differs from C3 only for diamonds.
//
// Binding: a callable found on the class (a user function, or a native method)
// is bound to the instance (self prepended); an object found on the class
// whose class defines __get__ (a tf.function value, a property) is asked for
// its binding: __get__(attr, instance, cls). Attributes of the instance
// itself are never bound, as in Python.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/value/user_function.h"
#include "runtime/value/value.h"

namespace ag {

/// The runtime-side state of an object implemented natively (ObjectObj::native).
struct NativeState {
  virtual ~NativeState() = default;
  /// A natively callable instance (a tf.function): calling the object is
  /// call(), which object_call runs without looking up the class's __call__
  /// or binding it (that dispatch cost a Function value 5x its cache-hit
  /// call). Only for classes whose __call__ is call() itself and that
  /// programs cannot subclass.
  virtual bool callable() const { return false; }
  virtual Value call(std::vector<Value> args, Kwargs kwargs);
};

/// A class's own layout: its name and bases (its attrs are the ObjectObj's).
struct ClassInfo : NativeState {
  std::string name;
  std::vector<Value> bases;
};

/// A `class name(bases): ...` statement: `attrs` are the class body's
/// bindings in order (methods are callables taking self first; a method
/// decorated with @tf.function is a Function value). Calling the class makes
/// an instance and calls __init__ (TypeError in Python's words when the
/// arguments do not fit it). User functions among `attrs` are renamed
/// "name.attr" in their messages, as Python's qualified names read.
Value make_class(std::string name, std::vector<Value> bases, std::vector<std::pair<std::string, Value>> attrs);

bool is_class(const Value& v);
/// isinstance(v, cls) for classes made by make_class (bases included).
bool is_instance(const Value& v, const Value& cls);
/// issubclass(sub, cls).
bool is_subclass(const Value& sub, const Value& cls);
/// The class's name ("Count").
const std::string& class_name(const Value& cls);
/// The MRO of `cls` (cls first), as described above.
std::vector<Value> mro(const Value& cls);

/// super().attr inside a method of `cls` whose self is `self`: the attribute
/// looked up from the next class in cls's method resolution order, bound to self.
Value super_getattr(const Value& cls, const Value& self, std::string_view name);

/// A property (Python's property(fget, fset)): reading the attribute through
/// an instance calls `getter(instance)`; writing it calls
/// `setter(instance, value)`, or raises AttributeError when setter is None.
/// Its `setter`/`getter` methods give the decorator forms.
Value make_property(Value getter, Value setter = Value());
/// `obj.name = v` through a property of obj's class: calls its setter and
/// returns true; false when `name` is no property there; AttributeError
/// (CPython 3.11's text) for a property without a setter.
bool set_property(const Value& obj, std::string_view name, const Value& v);
/// staticmethod(fn): `fn` itself, read through the class or an instance.
Value make_staticmethod(Value fn);
/// classmethod(fn): `fn` bound to the class, read through it or an instance.
Value make_classmethod(Value fn);

/// `callable` bound to `self`: calling it calls callable(self, *args).
Value bind_method(const Value& callable, const Value& self);

/// A method of a native class, for make_class's attrs: `fn` gets one value
/// per parameter (`params` start with self), bound as Python binds them, so
/// argument errors read as Python's and name `qualname` ("GradientTape.watch").
std::pair<std::string, Value> native_method(const std::string& qualname, const char* name, std::vector<Param> params,
                                            std::function<Value(const std::vector<Value>&)> fn);
/// An instance of the native class `cls` holding `state` (native_state reads it).
Value native_object(const Value& cls, std::shared_ptr<NativeState> state);

/// The native state of `v` as a T, or nullptr when v holds no T.
template <class T>
T* native_state(const Value& v) {
  if (!v.is_object()) return nullptr;
  return dynamic_cast<T*>(v.as_object().native.get());
}

// ---- The object paths of Value's attribute access, calls and text
// (value.cpp and value_str.cpp call these for Kind::Object).

/// getattr on an object: its own attributes, then its class's (bound), then
/// __getattr__. nullopt when absent (the caller raises AttributeError); a
/// class raises "type object 'C' has no attribute 'x'" itself.
std::optional<Value> object_getattr(const Value& obj, std::string_view name);
bool object_hasattr(const Value& obj, std::string_view name);
/// Calling an object: a class constructs, an instance calls __call__.
Value object_call(const Value& obj, std::vector<Value> args, Kwargs kwargs);
/// The special method `name` (__len__, __getitem__, __iter__, __eq__,
/// __bool__, __contains__) of an instance's class, bound to it: Python looks
/// special methods up on the type, never on the instance. nullopt when `v` is
/// not an instance of a class or its class does not define it.
std::optional<Value> special_method(const Value& v, std::string_view name);
/// Python's NotImplemented: what a binary special method returns to let the
/// other operand's reflected method try (one object per process).
const Value& not_implemented();
/// `a op b` by the operands' special methods, as Python tries them: a's
/// `method` (__add__), then b's `reflected` (__radd__) unless it returned
/// NotImplemented; nullopt when neither is defined or both decline.
std::optional<Value> object_binary(const Value& a, const Value& b, std::string_view method, std::string_view reflected);
/// str()/repr() of an object: __str__/__repr__ when its class defines them,
/// else Python's defaults ("<__main__.Count object at 0x...>", "<class '__main__.Count'>").
std::string object_text(const Value& obj, bool as_repr);

}  // namespace ag

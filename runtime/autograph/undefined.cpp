#include "runtime/autograph/undefined.h"

namespace ag::autograph {
namespace {

constexpr const char* kUndefined = "Undefined";
constexpr const char* kUndefinedReturn = "UndefinedReturnValue";

bool is_object_of(const Value& v, const char* cls) { return v.is_object() && v.as_object().class_name == cls; }

}  // namespace

Value Undefined(const std::string& symbol_name) {
  Value v = Value::object(kUndefined);
  v.setattr("symbol_name", Value(symbol_name));
  return v;
}

bool is_undefined(const Value& v) { return is_object_of(v, kUndefined); }

std::string undefined_name(const Value& v) { return v.getattr("symbol_name").as_str(); }

Value UndefinedReturnValue() { return Value::object(kUndefinedReturn); }

bool is_undefined_return(const Value& v) { return is_object_of(v, kUndefinedReturn); }

bool is_none_or_undef(const Value& v) { return v.is_none() || is_undefined(v) || is_undefined_return(v); }

Value ld(const Value& v) {
  if (is_undefined(v)) throw UnboundLocalError("'" + undefined_name(v) + "' is used before assignment");
  return v;
}

Value read_local(const Value& v) {
  if (is_undefined(v)) {
    throw UnboundLocalError("cannot access local variable '" + undefined_name(v) +
                            "' where it is not associated with a value");
  }
  return v;
}

Value ldu(const std::function<Value()>& f, const std::string& name) {
  try {
    return f();
  } catch (const KeyError&) {
    return Undefined(name);
  } catch (const AttributeError&) {
    return Undefined(name);
  } catch (const NameError&) {
    return Undefined(name);
  }
}

}  // namespace ag::autograph

// The runtime's typed errors: Python's exceptions and TensorFlow's tf.errors
// classes, one C++ class per row of exceptions.def in the same hierarchy
// (ZeroDivisionError < ArithmeticError, InvalidArgumentError < OpError, ...),
// all deriving from ag::Error, which BaseException and Exception name.
// type_name() is the class name Python would print. Messages use
// TensorFlow's wording.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace ag {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  /// "InvalidArgumentError", "ValueError", ... as `type(e).__name__` prints it.
  virtual const char* type_name() const = 0;
  /// isinstance(e, Exception): false for the classes deriving from
  /// BaseException directly (SystemExit, KeyboardInterrupt, GeneratorExit),
  /// which `except Exception` does not catch.
  virtual bool is_exception() const { return true; }
};

#define AG_EXCEPTION_ROOT(Name, Base) using Name = Error;
#define AG_EXCEPTION(Name, Base)                                                                         \
  class Name : public Base {                                                                             \
   public:                                                                                               \
    using Base::Base;                                                                                    \
    const char* type_name() const override { return #Name; }                                             \
    bool is_exception() const override { return std::string_view(#Base) != "BaseException" && Base::is_exception(); } \
  };
#define AG_TF_ERROR(Name, Base, code) AG_EXCEPTION(Name, Base)
#include "runtime/core/exceptions.def"
#undef AG_EXCEPTION_ROOT
#undef AG_EXCEPTION
#undef AG_TF_ERROR

}  // namespace ag

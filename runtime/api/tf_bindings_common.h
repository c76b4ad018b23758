// Shorthands for the tf.* bindings (tf_bindings*.cpp): each binds TF's Python
// signature once (a static parameter list) and calls the typed ag::tf function.
// `name=` is accepted everywhere and ignored where the typed function takes no
// node name (the node keeps TF's default name hint).
#pragma once

#include "runtime/api/binding.h"
#include "runtime/api/python_api.h"

#define AG_BIND(py_name, ...)                                      \
  static const std::vector<::ag::Param> kParams = {__VA_ARGS__}; \
  std::vector<::ag::Value> a = ::ag::api::bind_tf(py_name, kParams, args, kwargs)

// f(x, name=None) -> ag::tf::f(x)
#define AG_TF_UNARY(cpp_name, param)                                 \
  Value cpp_name(std::vector<Value> args, Kwargs kwargs) {           \
    AG_BIND(#cpp_name, {param, std::nullopt}, {"name", Value()});                  \
    return ::ag::tf::cpp_name(a[0]);                                 \
  }

// f(x, y, name=None) -> ag::tf::f(x, y)
#define AG_TF_BINARY(cpp_name)                                       \
  Value cpp_name(std::vector<Value> args, Kwargs kwargs) {           \
    AG_BIND(#cpp_name, {"x", std::nullopt}, {"y", std::nullopt}, {"name", Value()});             \
    return ::ag::tf::cpp_name(a[0], a[1]);                           \
  }

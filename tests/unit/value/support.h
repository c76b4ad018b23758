// Helpers shared by the value layer's tests.
#pragma once

#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/ops/registry.h"
#include "runtime/value/value.h"

namespace ag::test {

/// The message of the exception `f` throws as E ("<no error>" if none).
template <class E, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "<no error>";
}

/// False (and a doctest MESSAGE) when an op the test needs is not registered.
inline bool have(std::initializer_list<const char*> ops) {
  for (const char* op : ops) {
    if (OpRegistry::global().find(op) == nullptr) {
      MESSAGE("skipped: op " << op << " is not registered yet");
      return false;
    }
  }
  return true;
}

/// A Python list of `v` (the `[a, b]` literal).
inline Value L(std::vector<Value> v) { return Value::list(std::move(v)); }

/// What `f` writes to file descriptor `fd` (1: stdout, 2: stderr).
template <class F>
std::string output_of(int fd, F&& f) {
  std::fflush(stdout);
  std::fflush(stderr);
  FILE* tmp = std::tmpfile();
  int saved = dup(fd);
  dup2(fileno(tmp), fd);
  f();
  std::fflush(stdout);
  std::fflush(stderr);
  dup2(saved, fd);
  close(saved);
  std::rewind(tmp);
  std::string out;
  char buf[256];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, tmp)) > 0) out.append(buf, n);
  std::fclose(tmp);
  return out;
}

/// self.method(*args, **kwargs).
inline Value call(const Value& self, const char* method, std::vector<Value> args = {}, Kwargs kwargs = {}) {
  return self.getattr(method)(std::move(args), std::move(kwargs));
}

/// The graph node a symbolic tensor value comes from.
inline const Node* node_of(const Value& v) { return v.as_tensor().output().node; }

}  // namespace ag::test

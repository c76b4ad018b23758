// An op type as C++ code names it: a checked constant from op_types.def
// (`ag::op::AddV2`), never a string literal. A name that is not registered
// fails a test (tests/unit/ops/op_types_test.cpp), not a user's program;
// constants also find their op without hashing its name.
#pragma once

#include <cstdint>
#include <string_view>

namespace ag {

class OpType {
 public:
  /// An op type that is data (a node attribute naming an op, a graph being
  /// loaded): C++ code names its ops with the ag::op constants instead.
  constexpr explicit OpType(std::string_view name) : name_(name) {}
  constexpr OpType(std::string_view name, int16_t index) : name_(name), index_(index) {}

  constexpr std::string_view name() const { return name_; }
  /// The constant's position in op_types.def, or -1 for a name given as data.
  constexpr int index() const { return index_; }
  friend constexpr bool operator==(OpType a, OpType b) { return a.name_ == b.name_; }

 private:
  std::string_view name_;
  int16_t index_ = -1;
};

namespace op {
namespace detail {
enum Index : int16_t {
#define AG_OP_TYPE(name) name,
#include "runtime/ops/op_types.def"
#undef AG_OP_TYPE
  kCount
};
}  // namespace detail

#define AG_OP_TYPE(name) inline constexpr OpType name{#name, detail::name};
#include "runtime/ops/op_types.def"
#undef AG_OP_TYPE

/// Every constant above, in op_types.def's order.
inline constexpr OpType kAll[] = {
#define AG_OP_TYPE(name) name,
#include "runtime/ops/op_types.def"
#undef AG_OP_TYPE
};
}  // namespace op

}  // namespace ag

#include "runtime/ops/tf_op_signature.h"

#include <algorithm>

#include "runtime/core/error.h"

namespace ag {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

/// TF's names of fixed arg types.
std::optional<DType> fixed_type(std::string_view t) {
  static const std::pair<std::string_view, DType> kTypes[] = {
      {"float", DType::Float32}, {"double", DType::Float64}, {"int32", DType::Int32},   {"int64", DType::Int64},
      {"bool", DType::Bool},     {"string", DType::String},  {"bfloat16", DType::BFloat16}, {"int8", DType::Int8},
      {"uint8", DType::UInt8},   {"variant", DType::Variant},
  };
  for (const auto& [name, dtype] : kTypes) {
    if (name == t) return dtype;
  }
  return std::nullopt;
}

std::vector<TfArg> parse_args(std::string_view op, std::string_view list) {
  std::vector<TfArg> out;
  list = trim(list);
  if (list.empty()) return out;
  auto bad = [&](std::string_view why) {
    return InternalError("malformed TF signature of " + std::string(op) + ": " + std::string(why));
  };
  while (!list.empty()) {
    size_t comma = list.find(',');
    std::string_view item = trim(list.substr(0, comma));
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    size_t colon = item.find(':');
    if (colon == std::string_view::npos) throw bad(item);
    TfArg a;
    a.name = std::string(trim(item.substr(0, colon)));
    std::string_view type = trim(item.substr(colon + 1));
    if (size_t eq = type.find('='); eq != std::string_view::npos) {
      std::string_view held = trim(type.substr(eq + 1));
      type = trim(type.substr(0, eq));
      size_t open = held.find('(');
      if (open == std::string_view::npos || held.back() != ')') throw bad(item);
      std::string_view kind = held.substr(0, open);
      if (kind == "shape") {
        a.attr_kind = TfArg::AttrKind::Shape;
      } else if (kind == "int") {
        a.attr_kind = TfArg::AttrKind::Int;
      } else {
        throw bad(item);
      }
      a.attr = std::string(held.substr(open + 1, held.size() - open - 2));
    }
    if (size_t star = type.find('*'); star != std::string_view::npos) {
      a.number_attr = std::string(trim(type.substr(0, star)));
      type = trim(type.substr(star + 1));
    } else if (type.size() > 2 && type.substr(type.size() - 2) == "[]") {
      a.type_list_attr = std::string(type.substr(0, type.size() - 2));
      out.push_back(std::move(a));
      continue;
    }
    if (type == "resource") {
      a.resource = true;
    } else if (std::optional<DType> fixed = fixed_type(type)) {
      a.type = fixed;
    } else if (!type.empty()) {
      a.type_attr = std::string(type);
    } else {
      throw bad(item);
    }
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace

TfSignature parse_tf_signature(std::string_view op, std::string_view spec) {
  size_t arrow = spec.find("->");
  if (arrow == std::string_view::npos) {
    throw InternalError("malformed TF signature of " + std::string(op) + ": no '->'");
  }
  TfSignature s{parse_args(op, spec.substr(0, arrow)), parse_args(op, spec.substr(arrow + 2))};
  const bool held = std::any_of(s.inputs.begin(), s.inputs.end(), [](const TfArg& a) { return a.from_attr(); });
  const bool lists = std::any_of(s.inputs.begin(), s.inputs.end(), [](const TfArg& a) { return a.is_list(); });
  if (held && lists) throw InternalError("TF signature of " + std::string(op) + " mixes argument lists with inputs held as attrs");
  for (const TfArg& a : s.outputs) {
    if (a.from_attr()) throw InternalError("TF signature of " + std::string(op) + ": an output held as an attr");
  }
  return s;
}

}  // namespace ag

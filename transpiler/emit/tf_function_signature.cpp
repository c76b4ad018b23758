#include "transpiler/emit/tf_function_signature.h"

#include <fmt/format.h>

#include "transpiler/passes/pass.h"

namespace agc::emit {

using namespace agc::ast;

namespace {

/// agc's dtypes (runtime/core/dtype.h) by TF's names and their C++ element
/// types (the runtime's dtype_of<T>), with TF's aliases.
struct DTypeRow {
  const char* name;
  const char* tf_name;
  const char* cpp_type;
  bool arithmetic;
};
constexpr DTypeRow kDTypes[] = {
    {"float32", "float32", "float", true},
    {"float64", "float64", "double", true},
    {"double", "float64", "double", true},
    {"int32", "int32", "int32_t", true},
    {"int64", "int64", "int64_t", true},
    {"bool", "bool", "bool", true},
    {"string", "string", "std::string", false},
    {"bfloat16", "bfloat16", "ag::bfloat16", false},
    {"int8", "int8", "int8_t", true},
    {"uint8", "uint8", "uint8_t", true},
};

const DTypeRow* find_dtype(const std::string& name) {
  for (const DTypeRow& r : kDTypes) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

const Constant* constant(const Ref& e, ConstantValue::Kind kind) {
  const auto* c = e->dyn<Constant>();
  return c && c->value.kind == kind ? c : nullptr;
}

/// The argument of a call given at `position` or as keyword `name`, or null.
const Ref* argument(const Call& c, size_t position, const char* name) {
  if (position < c.args.size()) return &c.args[position];
  for (const Ref& k : c.keywords) {
    if (k->as<Keyword>().arg == name) return &k->as<Keyword>().value;
  }
  return nullptr;
}

/// The spec `e` denotes, or nullopt with `why` set.
std::optional<TensorSpecText> read_spec(const Ref& e, const std::map<std::string, std::string>& imports,
                                        std::string& why) {
  const auto* call = e->dyn<Call>();
  if (!call || passes::resolve_import_path(call->func, imports) != "tensorflow.TensorSpec" ||
      call->args.size() > 3) {
    why = "is not a tf.TensorSpec(shape, dtype)";
    return std::nullopt;
  }
  for (const Ref& k : call->keywords) {
    const std::string& arg = k->as<Keyword>().arg;
    if (arg != "shape" && arg != "dtype" && arg != "name") {
      why = "passes tf.TensorSpec an argument other than shape, dtype and name";
      return std::nullopt;
    }
  }
  TensorSpecText spec;
  // The shape: None (any rank), or a list or tuple of ints and Nones.
  const Ref* shape = argument(*call, 0, "shape");
  if (!shape) {
    why = "has no shape";
    return std::nullopt;
  }
  if (!constant(*shape, ConstantValue::Kind::None)) {
    const Refs* dims = nullptr;
    if (const auto* l = (*shape)->dyn<List>()) dims = &l->elts;
    if (const auto* t = (*shape)->dyn<Tuple>()) dims = &t->elts;
    if (!dims) {
      why = "has a shape that is not a literal list or tuple";
      return std::nullopt;
    }
    spec.shape.emplace();
    for (const Ref& d : *dims) {
      if (constant(d, ConstantValue::Kind::None)) {
        spec.shape->push_back(-1);
      } else if (const Constant* n = constant(d, ConstantValue::Kind::Int); n && n->value.text.size() < 18) {
        spec.shape->push_back(std::stoll(n->value.text));
      } else {
        why = "has a dimension that is neither an int nor None";
        return std::nullopt;
      }
    }
  }
  // The dtype: tf.float32 (float32 when not given) or its name as a string.
  std::string dtype = "float32";
  if (const Ref* d = argument(*call, 1, "dtype")) {
    std::string path = passes::resolve_import_path(*d, imports);
    if (const Constant* s = constant(*d, ConstantValue::Kind::Str)) {
      dtype = s->value.text;
    } else if (path.rfind("tensorflow.dtypes.", 0) == 0) {
      dtype = path.substr(18);
    } else if (path.rfind("tensorflow.", 0) == 0) {
      dtype = path.substr(11);
    } else {
      why = "has a dtype that is not a literal tf.<dtype>";
      return std::nullopt;
    }
  }
  const DTypeRow* row = find_dtype(dtype);
  if (!row) {
    why = fmt::format("has dtype '{}', which has no C++ element type in agc", dtype);
    return std::nullopt;
  }
  spec.dtype = row->tf_name;
  spec.cpp_type = row->cpp_type;
  spec.arithmetic = row->arithmetic;
  return spec;
}

}  // namespace

std::string TensorSpecText::text() const {
  if (!shape) return dtype + "[any shape]";
  std::string dims;
  for (int64_t d : *shape) dims += (dims.empty() ? "" : ", ") + (d < 0 ? std::string("None") : std::to_string(d));
  return dtype + "[" + dims + "]";
}

TfFunctionSignature tf_function_signature(const FunctionDef& f, size_t num_params,
                                          const std::map<std::string, std::string>& imports) {
  TfFunctionSignature out;
  if (f.decorator_list.empty()) return out;
  const Ref& outermost = f.decorator_list.front();
  const auto* call = outermost->dyn<Call>();
  if (passes::resolve_import_path(call ? call->func : outermost, imports) != "tensorflow.function") return out;
  out.is_tf_function = true;
  // tf.function(func=None, input_signature=None, ...)
  const Ref* signature = call ? argument(*call, 1, "input_signature") : nullptr;
  if (!signature || constant(*signature, ConstantValue::Kind::None)) return out;
  const Refs* elts = nullptr;
  if (const auto* l = (*signature)->dyn<List>()) elts = &l->elts;
  if (const auto* t = (*signature)->dyn<Tuple>()) elts = &t->elts;
  if (!elts) {
    out.unread = "its input_signature is not a literal list or tuple";
    return out;
  }
  if (elts->size() != num_params) {
    out.unread = fmt::format("its input_signature has {} specs for {} parameters", elts->size(), num_params);
    return out;
  }
  std::vector<TensorSpecText> specs;
  for (size_t i = 0; i < elts->size(); ++i) {
    std::string why;
    std::optional<TensorSpecText> spec = read_spec((*elts)[i], imports, why);
    if (!spec) {
      out.unread = fmt::format("input_signature[{}] {}", i, why);
      return out;
    }
    specs.push_back(std::move(*spec));
  }
  out.specs = std::move(specs);
  return out;
}

}  // namespace agc::emit

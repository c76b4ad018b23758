#include "runtime/api/tf_call.h"

#include "runtime/graph/tracing.h"

namespace ag::tf {
namespace {

// TF's _VALID_OP_NAME_REGEX, ^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$: what a name
// given at the top of a function's graph must match (Graph.name_scope).
bool valid_root_name(std::string_view s) {
  auto alnum = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (s.empty() || !(alnum(s[0]) || s[0] == '.')) return false;
  for (char c : s.substr(1)) {
    if (!(alnum(c) || c == '_' || c == '.' || c == '\\' || c == '/' || c == '>' || c == '-')) return false;
  }
  return true;
}

}  // namespace

TfFunction::TfFunction(std::string_view signature, std::string_view op, std::string_view hint)
    : sig_(ag::api::parse_signature(signature)), op_(op), hint_(hint) {}

TfCall TfFunction::bind(std::vector<Value> args, Kwargs kwargs) const {
  return TfCall(*this, ag::api::bind(sig_, std::move(args), std::move(kwargs)));
}

const Value& TfCall::operator[](std::string_view param) const {
  std::optional<size_t> i = fn_->signature().find(param);
  if (!i) {
    throw InternalError(fn_->signature().name + "() has no parameter '" + std::string(param) +
                        "' in runtime/api/tf_functions.def (a bug in agc)");
  }
  return args_[*i];
}

std::string_view TfCall::node_name() const {
  std::optional<size_t> i = fn_->signature().find("name");
  if (!i || args_[*i].is_none() || current_graph() == nullptr) return fn_->hint();
  const Value& name = args_[*i];
  // Graph.name_scope(name): a str (re.match's TypeError otherwise), checked
  // against the root pattern; "" means no name, a trailing "/" a scope's own.
  if (!name.is_str()) throw TypeError("expected string or bytes-like object");
  std::string_view s = name.as_str();
  if (s.empty()) return fn_->hint();
  if (!valid_root_name(s)) {
    throw ValueError("'" + std::string(s) + "' is not a valid root scope name. A root scope name has to match the " +
                     "following pattern: ^[A-Za-z0-9.][A-Za-z0-9_.\\\\/>-]*$");
  }
  if (s.back() == '/') s.remove_suffix(1);
  return s;
}

}  // namespace ag::tf

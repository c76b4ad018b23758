#include "runtime/value/binding_error.h"

#include <vector>

namespace ag {
namespace {

std::string plural(size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

/// "'a'", "'a' and 'b'", "'a', 'b', and 'c'": CPython's list of missing names.
std::string name_list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == names.size() ? (names.size() > 2 ? ", and " : " and ") : ", ") + names[i];
  }
  return out;
}

bool is_positional(ParamKind k) { return k == ParamKind::PositionalOnly || k == ParamKind::PositionalOrKeyword; }

}  // namespace

std::string binding_error(std::string_view fn_name, std::span<const ParamShape> params, size_t positional,
                          std::span<const std::string_view> keywords) {
  const std::string fn(fn_name);
  size_t npositional = 0;
  bool varargs = false, varkw = false;
  for (const ParamShape& p : params) {
    npositional += is_positional(p.kind) ? 1 : 0;
    varargs = varargs || p.kind == ParamKind::VarPositional;
    varkw = varkw || p.kind == ParamKind::VarKeyword;
  }
  std::vector<bool> bound(params.size(), false);
  for (size_t i = 0, k = 0; i < params.size() && k < positional; ++i) {
    if (is_positional(params[i].kind)) {
      bound[i] = true;
      ++k;
    }
  }
  // Keywords first, as CPython checks them before counting positionals.
  for (std::string_view key : keywords) {
    size_t i = 0;
    while (i < params.size() && !(params[i].name == key && (params[i].kind == ParamKind::PositionalOrKeyword ||
                                                            params[i].kind == ParamKind::KeywordOnly))) {
      ++i;
    }
    if (i == params.size()) {
      if (varkw) continue;
      std::string posonly;
      for (std::string_view k : keywords) {
        for (const ParamShape& p : params) {
          if (p.kind == ParamKind::PositionalOnly && p.name == k) {
            posonly += (posonly.empty() ? "'" : ", '") + std::string(k) + "'";
          }
        }
      }
      if (!posonly.empty()) return fn + "() got some positional-only arguments passed as keyword arguments: " + posonly;
      return fn + "() got an unexpected keyword argument '" + std::string(key) + "'";
    }
    if (bound[i]) return fn + "() got multiple values for argument '" + std::string(key) + "'";
    bound[i] = true;
  }
  if (positional > npositional && !varargs) {
    size_t defaults = 0, kwonly_given = 0;
    for (const ParamShape& p : params) defaults += is_positional(p.kind) && p.has_default ? 1 : 0;
    for (size_t i = 0; i < params.size(); ++i) kwonly_given += params[i].kind == ParamKind::KeywordOnly && bound[i];
    std::string sig = defaults ? "from " + std::to_string(npositional - defaults) + " to " +
                                     std::to_string(npositional) + " positional arguments"
                               : plural(npositional, "positional argument");
    std::string kwonly = kwonly_given ? std::string(" positional argument") + (positional == 1 ? "" : "s") +
                                            " (and " + plural(kwonly_given, "keyword-only argument") + ")"
                                      : "";
    return fn + "() takes " + sig + " but " + std::to_string(positional) + kwonly + " " +
           (positional == 1 && !kwonly_given ? "was" : "were") + " given";
  }
  std::vector<std::string> missing, missing_kwonly;
  for (size_t i = 0; i < params.size(); ++i) {
    const ParamShape& p = params[i];
    if (bound[i] || p.has_default || p.kind == ParamKind::VarPositional || p.kind == ParamKind::VarKeyword) continue;
    (is_positional(p.kind) ? missing : missing_kwonly).push_back("'" + std::string(p.name) + "'");
  }
  if (!missing.empty()) {
    return fn + "() missing " + plural(missing.size(), "required positional argument") + ": " + name_list(missing);
  }
  if (!missing_kwonly.empty()) {
    return fn + "() missing " + plural(missing_kwonly.size(), "required keyword-only argument") + ": " +
           name_list(missing_kwonly);
  }
  return "";
}

}  // namespace ag

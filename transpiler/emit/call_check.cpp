#include "transpiler/emit/call_check.h"

namespace agc::emit {

using namespace agc::ast;
using ag::ParamKind;

namespace {

/// `text` split at its top-level commas (not those in quotes or brackets), trimmed.
std::vector<std::string_view> split_params(std::string_view text) {
  std::vector<std::string_view> out;
  int depth = 0;
  char quote = 0;
  size_t begin = 0;
  auto push = [&](size_t end) {
    std::string_view p = text.substr(begin, end - begin);
    while (!p.empty() && p.front() == ' ') p.remove_prefix(1);
    while (!p.empty() && p.back() == ' ') p.remove_suffix(1);
    if (!p.empty()) out.push_back(p);
  };
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      push(i);
      begin = i + 1;
    }
  }
  push(text.size());
  return out;
}

}  // namespace

void SignatureShape::add(std::string_view spec, bool& star) {
  if (spec == "/") {
    for (Param& p : params_) {
      if (p.kind == ParamKind::PositionalOrKeyword) p.kind = ParamKind::PositionalOnly;
    }
    return;
  }
  if (spec == "*") {
    star = true;
    return;
  }
  if (spec.starts_with("**")) {
    params_.push_back({std::string(spec.substr(2)), ParamKind::VarKeyword, false});
    return;
  }
  if (spec.starts_with("*")) {
    params_.push_back({std::string(spec.substr(1)), ParamKind::VarPositional, false});
    star = true;
    return;
  }
  size_t eq = spec.find('=');
  std::string_view name = spec.substr(0, eq);
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  params_.push_back(
      {std::string(name), star ? ParamKind::KeywordOnly : ParamKind::PositionalOrKeyword, eq != std::string_view::npos});
}

SignatureShape SignatureShape::parse(std::string_view text) {
  size_t open = text.find('(');
  size_t close = text.rfind(')');
  SignatureShape out = parse_params(std::string(text.substr(0, open)),
                                    open == std::string_view::npos || close == std::string_view::npos
                                        ? std::string_view()
                                        : text.substr(open + 1, close - open - 1));
  return out;
}

SignatureShape SignatureShape::parse_params(std::string name, std::string_view params) {
  SignatureShape out;
  out.name_ = std::move(name);
  bool star = false;
  for (std::string_view p : split_params(params)) out.add(p, star);
  return out;
}

SignatureShape SignatureShape::of(const FunctionDef& f, std::string name) {
  SignatureShape out;
  out.name_ = std::move(name);
  const Arguments& a = f.args->as<Arguments>();
  // `defaults` belong to the last positional parameters.
  const size_t npositional = a.posonlyargs.size() + a.args.size();
  size_t i = 0;
  auto positional = [&](const Ref& arg, ParamKind kind) {
    out.params_.push_back({arg->as<Arg>().arg, kind, i + a.defaults.size() >= npositional});
    ++i;
  };
  for (const Ref& p : a.posonlyargs) positional(p, ParamKind::PositionalOnly);
  for (const Ref& p : a.args) positional(p, ParamKind::PositionalOrKeyword);
  if (a.vararg) out.params_.push_back({a.vararg->as<Arg>().arg, ParamKind::VarPositional, false});
  for (size_t k = 0; k < a.kwonlyargs.size(); ++k) {
    bool has_default = k < a.kw_defaults.size() && a.kw_defaults[k];
    out.params_.push_back({a.kwonlyargs[k]->as<Arg>().arg, ParamKind::KeywordOnly, has_default});
  }
  if (a.kwarg) out.params_.push_back({a.kwarg->as<Arg>().arg, ParamKind::VarKeyword, false});
  return out;
}

std::vector<ag::ParamShape> SignatureShape::params() const {
  std::vector<ag::ParamShape> out;
  for (const Param& p : params_) out.push_back({p.name, p.kind, p.has_default});
  return out;
}

bool SignatureShape::accepts_keyword(std::string_view k) const {
  for (const Param& p : params_) {
    if (p.kind == ParamKind::VarKeyword) return true;
    if (p.name == k && (p.kind == ParamKind::PositionalOrKeyword || p.kind == ParamKind::KeywordOnly)) return true;
  }
  return false;
}

std::vector<std::string_view> SignatureShape::keyword_names() const {
  std::vector<std::string_view> out;
  for (const Param& p : params_) {
    if (p.kind == ParamKind::PositionalOrKeyword || p.kind == ParamKind::KeywordOnly) out.push_back(p.name);
  }
  return out;
}

std::string call_error(const SignatureShape& sig, const Refs& args, const Refs& keywords) {
  std::vector<std::string_view> names;
  for (const Ref& a : args) {
    if (a->is<Starred>()) return "";
  }
  for (const Ref& k : keywords) {
    const std::string& name = k->as<Keyword>().arg;
    if (name.empty()) return "";  // **mapping
    names.push_back(name);
  }
  std::vector<ag::ParamShape> params = sig.params();
  return ag::binding_error(sig.name(), params, args.size(), names);
}

std::string_view unexpected_keyword(const SignatureShape& sig, const Refs& keywords) {
  for (const Ref& k : keywords) {
    const std::string& name = k->as<Keyword>().arg;
    if (!name.empty() && !sig.accepts_keyword(name)) return name;
  }
  return "";
}

}  // namespace agc::emit

#include "runtime/api/tf_signature.h"

#include <cctype>
#include <iterator>
#include <stdexcept>
#include <utility>

#include "runtime/value/dtype_value.h"

namespace ag::api {
namespace {

class SignatureParser {
 public:
  explicit SignatureParser(std::string_view text) : s_(text) {}

  Signature parse() {
    Signature sig;
    sig.name = identifier();
    expect('(');
    bool defaults = false;
    while (!accept(')')) {
      if (!sig.params.empty()) expect(',');
      if (sig.varkw) fail("**kwargs must be the last parameter");
      if (accept('*')) {
        bool two = accept('*');
        std::optional<size_t>& slot = two ? sig.varkw : sig.varargs;
        if (slot || (!two && sig.varkw)) fail("a second *args or **kwargs");
        slot = sig.params.size();
        sig.params.push_back({identifier(), std::nullopt, two ? ParamKind::VarKeyword : ParamKind::VarPositional});
        continue;
      }
      Param p{identifier()};
      if (sig.varargs) p.kind = ParamKind::KeywordOnly;
      if (accept('=')) {
        p.default_value = literal();
        defaults = true;
      } else if (sig.varargs) {
        fail("a keyword-only parameter without a default");
      } else if (defaults) {
        fail("a parameter without a default after one with a default");
      }
      sig.params.push_back(std::move(p));
    }
    skip_spaces();
    if (i_ != s_.size()) fail("text after ')'");
    return sig;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("bad signature \"" + std::string(s_) + "\" at " + std::to_string(i_) + ": " + what);
  }

  void skip_spaces() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }

  bool accept(char c) {
    skip_spaces();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!accept(c)) fail(std::string("expected '") + c + "'");
  }

  static bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

  std::string identifier() {
    skip_spaces();
    size_t b = i_;
    while (i_ < s_.size() && ident_char(s_[i_])) ++i_;
    if (b == i_ || std::isdigit(static_cast<unsigned char>(s_[b]))) fail("expected a name");
    return std::string(s_.substr(b, i_ - b));
  }

  Value literal() {
    skip_spaces();
    if (i_ < s_.size() && s_[i_] == '\'') return string_literal();
    if (i_ < s_.size() && (s_[i_] == '-' || std::isdigit(static_cast<unsigned char>(s_[i_])))) return number();
    std::string dotted = identifier();
    while (accept('.')) dotted += "." + identifier();
    if (dotted == "None") return Value();
    if (dotted == "True") return Value(true);
    if (dotted == "False") return Value(false);
    if (dotted == "sys.stdout" || dotted == "sys.stderr") return Value(dotted);
    for (std::string_view prefix : {"tf.dtypes.", "tf."}) {
      DType t;
      if (dotted.starts_with(prefix) && dtype_from_name(std::string_view(dotted).substr(prefix.size()), t)) {
        return dtype_value(t);
      }
    }
    fail("unsupported default " + dotted);
  }

  Value string_literal() {
    std::string out;
    for (++i_; i_ < s_.size() && s_[i_] != '\''; ++i_) {
      if (s_[i_] != '\\') {
        out += s_[i_];
        continue;
      }
      if (++i_ == s_.size()) break;
      switch (s_[i_]) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case '\\': out += '\\'; break;
        case '\'': out += '\''; break;
        default: fail("unsupported escape");
      }
    }
    if (i_ == s_.size()) fail("unterminated string");
    ++i_;
    return Value(out);
  }

  Value number() {
    size_t b = i_;
    if (s_[i_] == '-') ++i_;
    bool is_float = false;
    while (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' || s_[i_] == 'e')) {
      is_float = is_float || s_[i_] == '.' || s_[i_] == 'e';
      // An exponent's sign: 1e-12.
      if (s_[i_] == 'e' && i_ + 1 < s_.size() && (s_[i_ + 1] == '-' || s_[i_ + 1] == '+')) ++i_;
      ++i_;
    }
    std::string text(s_.substr(b, i_ - b));
    try {
      if (is_float) return Value(std::stod(text));
      return Value(static_cast<int64_t>(std::stoll(text)));
    } catch (const std::logic_error&) {
      fail("bad number " + text);
    }
  }

  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

std::optional<size_t> Signature::find(std::string_view param) const {
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].name == param) return i;
  }
  return std::nullopt;
}

Signature parse_signature(std::string_view text) { return SignatureParser(text).parse(); }

std::vector<Value> bind(const Signature& sig, std::vector<Value> args, Kwargs kwargs) {
  return bind_arguments(sig.name, sig.params, std::move(args), std::move(kwargs));
}

}  // namespace ag::api

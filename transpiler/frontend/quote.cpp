#include "transpiler/frontend/quote.h"

#include <unordered_map>

#include "transpiler/ast/mutator.h"
#include "transpiler/base/diagnostic.h"
#include "transpiler/frontend/parse.h"

namespace agc::frontend {
using namespace agc::ast;
namespace {

/// textwrap.dedent: removes the indentation common to all non-blank lines.
std::string dedent(std::string_view text) {
  size_t common = std::string::npos;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    size_t indent = line.find_first_not_of(" \t");
    if (indent != std::string_view::npos) common = std::min(common, indent);
    pos = end + 1;
  }
  if (common == std::string::npos) common = 0;
  std::string out;
  pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (line.find_first_not_of(" \t") != std::string_view::npos) out += line.substr(common);
    out += '\n';
    pos = end + 1;
  }
  return out;
}

/// The parsed template, keyed by the literal's address. Per thread, so no lock:
/// each thread parses each template once.
const Refs& parsed_template(const char* text) {
  struct Entry {
    std::shared_ptr<SourceFile> file;
    Refs body;
  };
  thread_local std::unordered_map<const char*, Entry> cache;
  auto it = cache.find(text);
  if (it != cache.end()) return it->second.body;
  auto file = std::make_shared<SourceFile>("<template>", dedent(text));
  DiagnosticSink sink;
  Module m = frontend::parse_template(file, sink);
  AGC_CHECK(!sink.has_errors()) << "bad template:\n" << file->text() << sink.render_all();
  return cache.emplace(text, Entry{file, std::move(m.body)}).first->second.body;
}

/// Copies the template, substituting placeholders.
class Substituter : public AstMutator {
 public:
  Substituter(const Replacements& r, SourceSpan span) : r_(r), span_(span) {}

  Refs statements(const Refs& body) {
    Refs out;
    for (const auto& s : body) {
      Stmts r = mutate_stmt(s);
      out.insert(out.end(), r.begin(), r.end());
    }
    return out;
  }

 protected:
  const Replacement* lookup(const std::string& id) const {
    auto it = r_.find(id);
    return it == r_.end() ? nullptr : &it->second;
  }

  /// The nodes a placeholder name stands for, copied and with its context.
  Refs expand(const Name& placeholder, const Replacement& rep) {
    Refs out;
    if (const auto* id = std::get_if<std::string>(&rep.value)) {
      out.push_back(name(*id, placeholder.ctx, span_));
    } else if (const auto* node = std::get_if<Ref>(&rep.value)) {
      if (*node) out.push_back(with_context(rep.copy ? deep_copy(*node) : *node, placeholder.ctx));
    } else {
      for (const auto& n : std::get<Refs>(rep.value)) out.push_back(with_context(rep.copy ? deep_copy(n) : n, placeholder.ctx));
    }
    return out;
  }

  Ref fresh(const Ref& n) {
    auto c = clone_node(*n);
    c->span = span_;
    switch (c->kind) {
      case NodeKind::Name:
        static_cast<Name&>(*c).from_source = false;
        break;
      case NodeKind::FunctionDef: {
        auto& f = static_cast<FunctionDef&>(*c);
        if (const auto* rep = lookup(f.name)) f.name = std::get<std::string>(rep->value);
        break;
      }
      case NodeKind::Arg: {
        auto& a = static_cast<Arg&>(*c);
        if (const auto* rep = lookup(a.arg)) a.arg = std::get<std::string>(rep->value);
        break;
      }
      default:
        break;
    }
    return c;
  }

  Ref mutate_node(const Ref& n) override {
    if (const auto* nm = n->dyn<Name>()) {
      if (const auto* rep = lookup(nm->id)) {
        Refs e = expand(*nm, *rep);
        AGC_CHECK(e.size() == 1) << "placeholder '" << nm->id << "' needs exactly one node here";
        return e[0];
      }
    }
    return fresh(rebuild(n));
  }

  // Every template node is copied (to take the span), so lists always change.
  bool rewrite_list(const Refs& items, Refs& out) override {
    out.clear();
    for (const auto& c : items) {
      if (c) {
        if (const auto* nm = c->dyn<Name>()) {
          if (const auto* rep = lookup(nm->id)) {
            Refs e = expand(*nm, *rep);
            out.insert(out.end(), e.begin(), e.end());
            continue;
          }
        }
      }
      out.push_back(c ? mutate(c) : c);
    }
    return true;
  }

  Stmts mutate_statement(const Ref& s) override {
    // A placeholder standing alone as a statement expands to statements.
    if (const auto* e = s->dyn<Expr>()) {
      if (const auto* nm = e->value->dyn<Name>()) {
        if (const auto* rep = lookup(nm->id)) {
          if (const auto* nodes = std::get_if<Refs>(&rep->value)) return *nodes;
          if (const auto* node = std::get_if<Ref>(&rep->value)) {
            if (!*node) return {};
            if (is_stmt((*node)->kind)) return *node;
            auto wrapped = make<Expr>((*node)->span);
            wrapped->value = *node;
            return wrapped;
          }
        }
      }
    }
    return fresh(rebuild(s));
  }

 private:
  const Replacements& r_;
  SourceSpan span_;
};

}  // namespace

Refs quote(const char* text, const Replacements& replacements, SourceSpan span) {
  Substituter s(replacements, span);
  return s.statements(parsed_template(text));
}

Ref quote_expr(const char* text, const Replacements& replacements, SourceSpan span) {
  Refs body = quote(text, replacements, span);
  AGC_CHECK(body.size() == 1 && body[0]->is<Expr>()) << "expression template expected: " << text;
  return body[0]->as<Expr>().value;
}

}  // namespace agc::frontend

#include "transpiler/report/conversion_report.h"

#include <algorithm>
#include <functional>
#include <map>

#include "transpiler/ast/visitor.h"
#include "transpiler/report/function_modes.h"
#include "transpiler/report/statement_report.h"
#include "transpiler/report/value_flow.h"

namespace agc::report {

using namespace ast;
using passes::ConversionFacts;
using passes::StagedStatement;

namespace {

std::string position(const SourceSpan& span) {
  if (!span.known()) return "?";
  SourceFile::LineCol lc = span.file->line_col(span.begin);
  return span.file->path() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col);
}

/// The statement's first line as written, from its start.
std::string first_line(const SourceSpan& span) {
  if (!span.known()) return "";
  SourceFile::LineCol lc = span.file->line_col(span.begin);
  std::string_view line = span.file->line_text(lc.line);
  uint32_t from = span.begin - span.file->line_start(lc.line);
  std::string text(line.substr(std::min<size_t>(from, line.size())));
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.pop_back();
  return text;
}

/// Where a def's `def` keyword is: its span starts at its decorators.
SourceSpan def_keyword(const FunctionDef& f) {
  if (!f.span.known()) return f.span;
  const SourceFile& file = *f.span.file;
  uint32_t from = f.decorator_list.empty() ? f.span.begin : f.decorator_list.back()->span.end;
  for (uint32_t line = file.line_col(from).line; line <= file.line_count(); ++line) {
    std::string_view text = file.line_text(line);
    size_t indent = text.find_first_not_of(" \t");
    if (indent == std::string_view::npos) continue;
    std::string_view rest = text.substr(indent);
    if (rest.rfind("def ", 0) == 0 || rest.rfind("async def ", 0) == 0) {
      uint32_t at = file.line_start(line) + static_cast<uint32_t>(indent);
      return {&file, at, at};
    }
  }
  return f.span;
}

class ReportWriter {
 public:
  explicit ReportWriter(const passes::ConvertedModule& cm)
      : cm_(cm), module_env_(module_values(cm.module, cm.imports)), modes_(function_modes(cm)) {}

  std::string run() {
    for (const passes::ConvertedEntity& e : cm_.entities) {
      if (!e.requested) continue;
      if (!out_.empty()) out_ += "\n";
      entity(e);
    }
    return out_;
  }

 private:
  void entity(const passes::ConvertedEntity& e) {
    const FunctionDef& fn = e.entity.fn->as<FunctionDef>();
    const FunctionMode& mode = modes_.at(e.entity.fn.get());
    line(position(def_keyword(fn)) + ": " + first_line(def_keyword(fn)));
    detail("-> " + describe(mode));
    if (!e.converted) return;
    Parameters params{fn.name, mode.method, mode.tensor_specs};
    FunctionValues values(fn, params, module_env_, cm_.imports);
    if (std::string a = arguments(fn, mode); !a.empty()) detail("arguments: " + a);
    StatementReport statements(fn, e.facts, values, mode);
    // The lowerings' guards, by the span of the first statement they guard.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<const StagedStatement*>> guards;
    if (mode.converted()) {
      for (const StagedStatement& s : e.facts.statements) {
        if (statements.is_guard(s)) guards[{s.span.begin, s.span.end}].push_back(&s);
      }
    }
    walk(fn.body, [&](const Ref& s) {
      if (auto g = guards.find({s->span.begin, s->span.end}); g != guards.end()) {
        for (const StagedStatement* f : g->second) block(f->span, statements.guard(*f));
        guards.erase(g);
      }
      if (const auto* d = s->dyn<FunctionDef>()) {
        line(position(def_keyword(*d)) + ": " + first_line(def_keyword(*d)));
        detail("-> nested in " + fn.name + ": converted with it");
        return;
      }
      if (s->is<If>() || s->is<While>() || s->is<For>()) {
        block(s->span, statements.statement(*s));
      } else if (StatementLines e = statements.conditional_expressions(*s); !e.details.empty()) {
        block(s->span, e);
      }
    });
    // Guards the walk did not meet (each guards a statement as written, so
    // none should be left).
    for (const auto& [span, facts] : guards) {
      for (const StagedStatement* f : facts) block(f->span, statements.guard(*f));
    }
  }

  /// Every statement under `body` in source order, nested defs included
  /// (not lambdas, classes, or the bodies of nested classes).
  static void walk(const Refs& body, const std::function<void(const Ref&)>& visit) {
    for (const Ref& s : body) {
      visit(s);
      if (s->is<ClassDef>()) continue;
      for_each_child(*s, [&](const Ref& c) {
        if (is_stmt(c->kind)) walk({c}, visit);
        else if (c->kind == NodeKind::ExceptHandler) walk(c->as<ExceptHandler>().body, visit);
      });
    }
  }

  void block(const SourceSpan& span, const StatementLines& lines) {
    line(position(span) + ": " + (lines.header.empty() ? first_line(span) : lines.header));
    for (const std::string& d : lines.details) detail(d);
  }

  void line(const std::string& s) { out_ += s + "\n"; }
  void detail(const std::string& s) { out_ += "    " + s + "\n"; }

  const passes::ConvertedModule& cm_;
  Env module_env_;
  std::map<const Node*, FunctionMode> modes_;
  std::string out_;
};

}  // namespace

void request_report(passes::ModuleRequest& request) {
  request.record_facts = true;
  request.decorator_features = true;
}

std::string conversion_report(const passes::ConvertedModule& cm) { return ReportWriter(cm).run(); }

}  // namespace agc::report

#include "transpiler/passes/convert_module.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "transpiler/analysis/module_scope.h"
#include "transpiler/ast/mutator.h"
#include "transpiler/ast/visitor.h"
#include "transpiler/base/check.h"
#include "transpiler/base/parallel.h"
#include "transpiler/frontend/parse.h"

namespace agc::passes {

using namespace ast;

namespace {

void collect_entities(const Refs& body, const std::string& prefix, bool in_class, std::vector<Entity>& out) {
  for (const auto& s : body) {
    if (const auto* f = s->dyn<FunctionDef>()) {
      out.push_back({s, prefix + f->name});
    } else if (const auto* c = s->dyn<ClassDef>()) {
      if (!in_class) collect_entities(c->body, c->name + ".", true, out);
    } else if (const auto* i = s->dyn<If>()) {
      collect_entities(i->body, prefix, in_class, out);
      collect_entities(i->orelse, prefix, in_class, out);
    } else if (const auto* t = s->dyn<Try>()) {
      collect_entities(t->body, prefix, in_class, out);
      for (const auto& h : t->handlers) collect_entities(h->as<ExceptHandler>().body, prefix, in_class, out);
      collect_entities(t->orelse, prefix, in_class, out);
      collect_entities(t->finalbody, prefix, in_class, out);
    } else if (const auto* w = s->dyn<With>()) {
      collect_entities(w->body, prefix, in_class, out);
    } else if (const auto* fo = s->dyn<For>()) {
      collect_entities(fo->body, prefix, in_class, out);
    } else if (const auto* wh = s->dyn<While>()) {
      collect_entities(wh->body, prefix, in_class, out);
    }
  }
}

/// `original` with each of its nested defs (the outermost ones) replaced by
/// its conversion in `converted`: the def there with the same name and span,
/// which the passes keep.
class NestedDefsConverted : public AstMutator {
 public:
  NestedDefsConverted(const Ref& original, const Ref& converted)
      : AstMutator(kinds({NodeKind::FunctionDef})), root_(original.get()) {
    collect(converted);
  }

 protected:
  Stmts visit_FunctionDef(const Ptr<FunctionDef>& n) override {
    if (n.get() == root_) return AstMutator::visit_FunctionDef(n);
    auto it = converted_.find({n->span.begin, n->span.end, n->name});
    AGC_CHECK(it != converted_.end()) << "no conversion of the nested def '" << n->name << "'";
    return it->second;
  }

 private:
  void collect(const Ref& n) {
    if (const auto* f = n->dyn<FunctionDef>()) converted_.emplace(Key{n->span.begin, n->span.end, f->name}, n);
    for_each_child(*n, [&](const Ref& c) {
      if (is_stmt(c->kind) || c->kind == NodeKind::ExceptHandler) collect(c);
    });
  }
  using Key = std::tuple<uint32_t, uint32_t, std::string>;
  const Node* root_;
  std::map<Key, Ref> converted_;
};

/// `options` plus the features a def's `@tf.function(experimental_autograph_options=X)`
/// names: X is a tf.autograph.experimental.Feature member or a tuple or list
/// of them, read through `imports` (module_aliases). ALL means every feature agc implements; LISTS, AUTO_CONTROL_DEPS
/// and NAME_SCOPES change nothing agc converts (its own list conversion is on
/// by default). Anything else is reported: agc reads X when it converts.
/// The module's names bound once, at module level, to a dotted path through
/// its imports (`Feature = tf.autograph.experimental.Feature`), as imports.
std::map<std::string, std::string> module_aliases(const Module& m, const std::map<std::string, std::string>& imports) {
  std::map<std::string, std::string> out = imports;
  std::map<std::string, int> bindings;
  for (const Ref& s : m.body) {
    const auto* a = s->dyn<Assign>();
    if (!a) continue;
    for (const Ref& t : a->targets) {
      const auto* n = t->dyn<Name>();
      if (!n) continue;
      std::string path = resolve_import_path(a->value, imports);
      if (++bindings[n->id] == 1 && !path.empty() && !imports.count(n->id)) out[n->id] = path;
      if (bindings[n->id] > 1) out.erase(n->id);
    }
  }
  return out;
}

ConversionOptions with_decorator_features(ConversionOptions options, const FunctionDef& f,
                                         const std::map<std::string, std::string>& imports, DiagnosticSink& sink) {
  for (const Ref& d : f.decorator_list) {
    const auto* call = d->dyn<Call>();
    if (!call || resolve_import_path(call->func, imports) != "tensorflow.function") continue;
    for (const Ref& k : call->keywords) {
      const Keyword& kw = k->as<Keyword>();
      if (kw.arg != "experimental_autograph_options") continue;
      const Refs* items = nullptr;
      Refs one{kw.value};
      if (const auto* t = kw.value->dyn<Tuple>()) items = &t->elts;
      else if (const auto* l = kw.value->dyn<List>()) items = &l->elts;
      else if (const auto* c = kw.value->dyn<Constant>(); c && c->value.kind == ConstantValue::Kind::None) continue;
      else items = &one;
      const std::string prefix = "tensorflow.autograph.experimental.Feature.";
      for (const Ref& item : *items) {
        std::string path = resolve_import_path(item, imports);
        std::string feature = path.rfind(prefix, 0) == 0 ? path.substr(prefix.size()) : "";
        const auto& supported = supported_optional_features();
        if (feature == "ALL") {
          options.optional_features.insert(supported.begin(), supported.end());
        } else if (std::find(supported.begin(), supported.end(), feature) != supported.end()) {
          options.optional_features.insert(feature);
        } else if (feature != "LISTS" && feature != "AUTO_CONTROL_DEPS" && feature != "NAME_SCOPES") {
          sink.unsupported(item->span, "experimental_autograph_options must name tf.autograph.experimental.Feature "
                                       "members (agc reads them when it converts the function)");
        }
      }
    }
  }
  return options;
}

}  // namespace

std::vector<Entity> find_entities(const Module& m) {
  std::vector<Entity> out;
  collect_entities(m.body, "", false, out);
  return out;
}

const ConvertedEntity* ConvertedModule::entity(const Node* original) const {
  auto it = index_.find(original);
  return it == index_.end() ? nullptr : &entities[it->second];
}

DiagnosticSink ConvertedModule::all_diagnostics() const {
  DiagnosticSink out;
  out.report_all(diagnostics);
  for (const ConvertedEntity& e : entities) {
    if (!e.requested) continue;
    for (const Diagnostic& d : e.problems) out.report(d);
  }
  return out;
}

ConvertedModule convert_module(const Module& m, const ModuleRequest& request,
                               const std::vector<Diagnostic>& parse_problems) {
  ConvertedModule out;
  out.module = m;
  for (Entity& e : find_entities(m)) out.entities.push_back({std::move(e), false, nullptr, nullptr, {}, {}});
  for (size_t i = 0; i < out.entities.size(); ++i) out.index_[out.entities[i].entity.fn.get()] = i;
  const size_t n = out.entities.size();
  for (const Diagnostic& d : parse_problems) {
    if (!d.function_local()) {
      out.diagnostics.report(d);
      continue;
    }
    auto holds = [&](const ConvertedEntity& e) {
      const SourceSpan& s = e.entity.fn->span;
      return d.span.begin >= s.begin && d.span.end <= s.end;
    };
    auto it = std::find_if(out.entities.begin(), out.entities.end(), holds);
    if (it != out.entities.end()) {
      it->problems.push_back(d);
    } else {
      out.module_code_problems.push_back(d);
    }
  }
  std::vector<bool> wanted(n, request.functions.empty());
  for (const auto& name : request.functions) {
    bool found = false;
    for (size_t i = 0; i < n; ++i) {
      const Entity& e = out.entities[i].entity;
      if (e.qualified_name == name || e.fn->as<FunctionDef>().name == name) {
        wanted[i] = true;
        found = true;
      }
    }
    if (!found) {
      out.diagnostics.error({m.file.get(), 0, 0}, fmt::format("no function named '{}' in {}", name, m.file->path()));
    }
  }
  for (size_t i = 0; i < n; ++i) out.entities[i].requested = wanted[i];
  if (out.has_errors()) return out;
  out.names = analysis::module_names(m);
  out.imports = analysis::module_imports(m);
  // Functions convert independently (each has its own namer and analyses), so
  // large modules convert on every core; results are kept in source order. A
  // pass observer prints as it goes, so it keeps conversion on one thread.
  // A function whose parsing found problems holds placeholders: not converted.
  std::vector<bool> parsed(n);
  for (size_t i = 0; i < n; ++i) parsed[i] = out.entities[i].problems.empty();
  std::vector<DiagnosticSink> sinks(n);
  const std::map<std::string, std::string> aliases =
      request.decorator_features ? module_aliases(m, out.imports) : std::map<std::string, std::string>{};
  parallel_for(n, request.observer ? 1 : 8, 16, [&](size_t i) {
    if (!wanted[i] || !parsed[i]) return;
    const Ref& fn = out.entities[i].entity.fn;
    ConversionOptions options = request.options;
    if (request.decorator_features) {
      options = with_decorator_features(options, fn->as<FunctionDef>(), aliases, sinks[i]);
      if (sinks[i].has_errors()) return;
    }
    ConversionFacts* facts = request.record_facts ? &out.entities[i].facts : nullptr;
    out.entities[i].converted =
        convert_entity(fn, options, out.names, out.imports, sinks[i], request.observer, facts);
  });
  for (size_t i = 0; i < n; ++i) {
    ConvertedEntity& e = out.entities[i];
    // What conversion reports fails only this function: TF runs it as written.
    for (Diagnostic d : sinks[i].diagnostics()) {
      if (d.severity == Severity::Error && d.raises.empty()) d.raises = "NotImplementedError";
      e.problems.push_back(std::move(d));
    }
    if (!wanted[i] || !parsed[i]) continue;
    const Ref& original = e.entity.fn;
    if (!e.converted) {
      e.plain = original;
      continue;
    }
    NestedDefsConverted nested(original, e.converted);
    Stmts plain = nested.mutate_stmt(original);
    AGC_CHECK(plain.size() == 1);
    e.plain = plain.front();
  }
  return out;
}

ConvertedModule convert_file(std::shared_ptr<const SourceFile> file, const ModuleRequest& request) {
  DiagnosticSink parsing;
  Module m = frontend::parse_module(std::move(file), parsing);
  if (parsing.has_file_errors()) {
    ConvertedModule out;
    out.module = std::move(m);
    out.diagnostics.report_all(parsing);
    return out;
  }
  return convert_module(m, request, parsing.diagnostics());
}

}  // namespace agc::passes

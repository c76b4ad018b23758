#include "transpiler/passes/pipeline.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "transpiler/ast/visitor.h"
#include "transpiler/base/python_limits.h"
#include "transpiler/passes/asserts.h"
#include "transpiler/passes/break_statements.h"
#include "transpiler/passes/call_trees.h"
#include "transpiler/passes/conditional_expressions.h"
#include "transpiler/passes/continue_statements.h"
#include "transpiler/passes/control_flow.h"
#include "transpiler/passes/directives.h"
#include "transpiler/passes/functions.h"
#include "transpiler/passes/lists.h"
#include "transpiler/passes/logical_expressions.h"
#include "transpiler/passes/return_statements.h"
#include "transpiler/passes/slices.h"
#include "transpiler/passes/unsupported_features.h"
#include "transpiler/passes/variables.h"

namespace agc::passes {

using namespace ast;

std::vector<PassInfo> pipeline(const ConversionOptions& options) {
  // AutoGraph's order (api.py, PyToTF.transform_ast). Canonicalizations first:
  // break leaves `continue` behind for continue_statements; continue runs before
  // loops are converted so it never sees the iteration machinery; returns are
  // lowered before control flow so returns inside branches and loops become
  // ordinary state. call_trees runs before control_flow so generated calls
  // (ag__.if_stmt, ...) are never wrapped; variables runs last so only names the
  // user wrote become ag__.ld.
  static const std::vector<PassInfo> base = {
      {"functions", convert_functions, true},
      {"directives", convert_directives, true},
      {"break_statements", convert_break_statements, true},
      {"asserts", convert_asserts},
      {"continue_statements", convert_continue_statements, true},
      {"return_statements", convert_return_statements, true},
      {"lists", convert_lists, true},
      {"slices", convert_slices},
      {"call_trees", convert_call_trees},
      {"control_flow", convert_control_flow},
      {"conditional_expressions", convert_conditional_expressions},
      {"logical_expressions", convert_logical_expressions},
      {"variables", convert_variables},
  };
  std::vector<PassInfo> passes;
  for (const auto& p : base) {
    std::string_view name = p.name;
    if ((name == "lists" || name == "slices") && !options.lists) continue;
    if (name == "asserts" && !options.uses("ASSERT_STATEMENTS")) continue;
    passes.push_back(p);
  }
  return passes;
}

namespace {

/// The most deeply nested statement under `n`: how many blocks deep it sits.
struct Deepest {
  int depth = 0;
  const Node* stmt = nullptr;
};
Deepest deepest_statement(const Ref& n, int depth = 0) {
  Deepest out{depth, n.get()};
  for_each_child(*n, [&](const Ref& c) {
    // `except` sits level with its `try`; expressions hold no statements.
    bool handler = c->kind == NodeKind::ExceptHandler;
    if (!handler && !is_stmt(c->kind)) return;
    Deepest d = deepest_statement(c, handler ? depth : depth + 1);
    if (d.depth > out.depth) out = d;
  });
  return out;
}

/// The least depth conversion nests the deepest statement of a function at,
/// known before converting, counted as deepest_statement() counts the
/// converted function: the root's body is at depth 2, since the converted
/// body sits in `with ag__.FunctionScope(...)`. No pass makes code shallower
/// (a branch or loop body becomes a def's body at its own depth, a return or
/// break guards the rest of its block, an elif stays in its if's else) but
/// one: break_statements moves the else block of a loop without a break
/// after the loop, so that block counts at the loop's own depth
/// (unsupported_features rejects loop else anyway).
Deepest least_converted_depth(const Ref& n, int depth = 1) {
  Deepest out{depth, n.get()};
  auto block = [&](const Refs& stmts, int d) {
    for (const Ref& c : stmts) {
      Deepest x = least_converted_depth(c, d);
      if (x.depth > out.depth) out = x;
    }
  };
  if (const auto* w = n->dyn<While>()) {
    block(w->body, depth + 1);
    block(w->orelse, depth);
  } else if (const auto* f = n->dyn<For>()) {
    block(f->body, depth + 1);
    block(f->orelse, depth);
  } else {
    for_each_child(*n, [&](const Ref& c) {
      bool handler = c->kind == NodeKind::ExceptHandler;
      if (!handler && !is_stmt(c->kind)) return;
      Deepest x = least_converted_depth(c, handler ? depth : depth + 1);
      if (x.depth > out.depth) out = x;
    });
  }
  return out;
}

}  // namespace

Ref convert_entity(const Ref& fn, const ConversionOptions& options,
                   const std::shared_ptr<const std::set<std::string>>& globals,
                   const std::map<std::string, std::string>& imports, DiagnosticSink& sink,
                   const PassObserver& observer, ConversionFacts* facts) {
  Namer namer(globals);
  analysis::AnalysisCache analyses;
  PassContext ctx{sink, namer, analyses, options, imports, fn, facts};
  size_t errors = sink.error_count();
  check_unsupported_features(fn, ctx);
  if (sink.error_count() > errors) return nullptr;
  // Past CPython's nesting limit the conversion fails (below, once
  // converted), and code nested that deep is an elif chain, whose conversion
  // grows with its depth squared: refuse it before converting.
  if (Deepest d = least_converted_depth(fn); d.depth >= kMaxIndentLevels) {
    const std::string& name = fn->as<FunctionDef>().name;
    SourceSpan at = d.stmt->span.known() ? d.stmt->span : fn->span;
    sink.error(at, fmt::format("converting '{}' would nest this code at least {} blocks deep, past the {} Python "
                               "accepts; split '{}' into smaller functions",
                               name, d.depth, kMaxIndentLevels - 1, name));
    return nullptr;
  }
  static const bool time_passes = std::getenv("AGC_TIME_PASSES") != nullptr;
  Ref cur = fn;
  const std::vector<PassInfo> passes = pipeline(options);
  size_t last_naming = 0;
  for (size_t i = 0; i < passes.size(); ++i) {
    if (passes[i].names_from_original) last_naming = i;
  }
  for (size_t i = 0; i < passes.size(); ++i) {
    const PassInfo& p = passes[i];
    auto start = std::chrono::steady_clock::now();
    Ref next;
    try {
      next = p.fn(cur, ctx);
    } catch (const DiagnosticError& e) {
      sink.report(e.diagnostic());
      return nullptr;
    }
    if (time_passes) {
      double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "agc: pass %-24s %10.1f us  (%s)\n", p.name, us, fn->as<FunctionDef>().name.c_str());
    }
    if (sink.error_count() > errors) return nullptr;
    if (observer && next != cur) observer(p.name, next);
    cur = next;
    // Passes read analyses of the tree they get and of the original (for
    // naming, until the last pass that names from it), never of an earlier
    // tree. The original's activity is as large as the function.
    if (i < last_naming) {
      analyses.retain_only({fn.get(), cur.get()});
    } else {
      analyses.retain_only({cur.get()});
    }
  }
  // Conversion nests code (branches and loop bodies become functions, guards
  // wrap what follows a return); output CPython could not read back is an error.
  if (Deepest d = deepest_statement(cur); d.depth >= kMaxIndentLevels) {
    const std::string& name = fn->as<FunctionDef>().name;
    SourceSpan at = d.stmt->span.known() ? d.stmt->span : fn->span;
    sink.error(at, fmt::format("converting '{}' nests this code {} blocks deep, past the {} Python accepts; split "
                               "'{}' into smaller functions",
                               name, d.depth, kMaxIndentLevels - 1, name));
    return nullptr;
  }
  // The converted entity is named as AutoGraph names it.
  auto renamed = clone(cur->as<FunctionDef>());
  renamed->name = "tf__" + renamed->name;
  return renamed;
}

}  // namespace agc::passes

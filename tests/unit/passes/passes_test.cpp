// Properties every conversion pass must have: spans survive rewrites, passes
// return the very same node when they have nothing to do, canonicalizing passes
// are idempotent, and the whole pipeline is deterministic.
#include <doctest/doctest.h>

#include <functional>

#include "tests/unit/support.h"
#include "transpiler/analysis/module_scope.h"
#include "transpiler/ast/visitor.h"
#include "transpiler/base/big_stack.h"
#include "transpiler/emit/to_code.h"
#include "transpiler/passes/convert_module.h"
#include "transpiler/passes/pipeline.h"

using namespace agc;
using namespace agc::ast;

namespace {

passes::ConversionOptions all_passes_options() {
  passes::ConversionOptions o;
  o.optional_features.insert("ASSERT_STATEMENTS");
  return o;
}

passes::PassFn find_pass(const std::string& name) {
  for (const auto& p : passes::pipeline(all_passes_options())) {
    if (name == p.name) return p.fn;
  }
  FAIL("no pass named " << name);
  return nullptr;
}

/// Runs one pass over the first function of `module`.
Ref run_pass(const std::string& name, const testing::Parsed& parsed, const Ref& fn) {
  static const std::map<std::string, std::string> no_imports;
  DiagnosticSink sink;
  Namer namer(analysis::module_names(parsed.module));
  analysis::AnalysisCache cache;
  auto imports = analysis::module_imports(parsed.module);
  auto options = all_passes_options();
  passes::PassContext ctx{sink, namer, cache, options, imports};
  Ref out = find_pass(name)(fn, ctx);
  REQUIRE_MESSAGE(!sink.has_errors(), sink.render_all());
  return out;
}

/// Every node of `root` has a span inside `file`.
class SpanChecker : public AstVisitor {
 public:
  explicit SpanChecker(const SourceFile* file) : file_(file) {}
  int missing = 0;

 protected:
  void check(const Node& n) {
    if (n.span.file != file_) ++missing;
  }
#define AGC_STMT(Name, Fields) \
  void visit_##Name(const Ptr<Name>& n) override { check(*n); visit_children(*n); }
#define AGC_EXPR(Name, Fields) AGC_STMT(Name, Fields)
#define AGC_AUX(Name, Fields) AGC_STMT(Name, Fields)
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX

 private:
  const SourceFile* file_;
};

const char* const kScoped =
    "def f(x, xs):\n"
    "  with ag__.FunctionScope('f', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, "
    "optional_features=(), internal_convert_user_code=True)) as fscope:\n";

// A function exercising every pass (for the pipeline-wide checks).
const char* const kEverything =
    "import tensorflow as tf\n"
    "def f(x, xs):\n"
    "  '''Doc.'''\n"
    "  out = []\n"
    "  for v in xs:\n"
    "    tf.autograph.experimental.set_loop_options(parallel_iterations=2)\n"
    "    if v < 0:\n"
    "      continue\n"
    "    if v > 100:\n"
    "      break\n"
    "    out.append(v)\n"
    "    out[0] = v\n"
    "  while x > 0:\n"
    "    assert x, 'positive'\n"
    "    if x == 3:\n"
    "      return out\n"
    "    x = x - 1 if x > 1 else x - 2\n"
    "  def g(a):\n"
    "    return a and not x\n"
    "  del xs\n"
    "  return g(x)\n";

}  // namespace

TEST_CASE("every node a pass creates carries a span from the user's file") {
  auto p = testing::parse(kEverything);
  REQUIRE(!p->sink.has_errors());
  Ref fn = p->body()[1];
  DiagnosticSink sink;
  auto imports = analysis::module_imports(p->module);
  Ref converted =
      passes::convert_entity(fn, all_passes_options(), analysis::module_names(p->module), imports, sink);
  REQUIRE_MESSAGE(converted, sink.render_all());
  SpanChecker c(p->module.file.get());
  c.visit(converted);
  CHECK(c.missing == 0);
}

TEST_CASE("a generated statement points at the user statement it replaces") {
  auto p = testing::parse("def f(x):\n  y = 0\n  while x > 0:\n    x = x - 1\n  return x\n");
  DiagnosticSink sink;
  Ref converted = passes::convert_entity(p->first(), {}, nullptr, {}, sink);
  REQUIRE(converted);
  // Find ag__.while_stmt(...) and check it points at the while statement (line 3).
  struct Finder : AstVisitor {
    const Node* found = nullptr;
    void visit_Call(const Ptr<Call>& n) override {
      if (ast::to_source(n->func) == "ag__.while_stmt") found = n.get();
      visit_children(*n);
    }
  } finder;
  finder.visit(converted);
  REQUIRE(finder.found);
  CHECK(finder.found->span.file->line_col(finder.found->span.begin).line == 3);
}

TEST_CASE("a pass with nothing to do returns the very same node") {
  struct Case {
    const char* pass;
    std::string source;
  };
  std::string scoped = kScoped;
  const Case cases[] = {
      {"directives", "def f(x):\n  while x:\n    x = x - 1\n  return x\n"},
      {"break_statements", "def f(x):\n  while x:\n    x = x - 1\n  return x\n"},
      {"asserts", "def f(x):\n  return x\n"},
      {"continue_statements", "def f(xs):\n  for x in xs:\n    print(x)\n"},
      {"return_statements", scoped + "    print(x)\n"},
      {"lists", "def f(xs):\n  out = []\n  out.append(1)\n  for x in xs:\n    print(x)\n"},
      {"slices", "def f(xs):\n  xs[0] = 1\n  for x in xs:\n    x[1:2] = 0\n"},
      {"call_trees", scoped + "    return x + 1\n"},
      {"control_flow", "def f(x):\n  return x * 2\n"},
      {"conditional_expressions", "def f(x):\n  return x\n"},
      {"logical_expressions", "def f(a, b):\n  return a < b\n"},
      {"variables", "def f():\n  return 1\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.pass);
    auto p = testing::parse(c.source);
    REQUIRE_MESSAGE(!p->sink.has_errors(), p->errors());
    CHECK(run_pass(c.pass, *p, p->first()) == p->first());
  }
}

TEST_CASE("canonicalizing passes are idempotent") {
  const char* passes_list[] = {"directives",    "break_statements",        "continue_statements",
                               "lists",         "slices",                  "control_flow",
                               "asserts",       "conditional_expressions", "logical_expressions"};
  auto p = testing::parse(kEverything);
  REQUIRE(!p->sink.has_errors());
  for (const char* name : passes_list) {
    CAPTURE(name);
    Ref once = run_pass(name, *p, p->body()[1]);
    Ref twice = run_pass(name, *p, once);
    CHECK(ast::to_source(twice) == ast::to_source(once));
  }
}

TEST_CASE("conversion is deterministic: the same input gives byte-identical output") {
  auto convert = [] {
    auto p = testing::parse(kEverything);
    passes::ConvertedModule cm = passes::convert_module(p->module);
    REQUIRE_MESSAGE(!cm.has_errors(), cm.diagnostics.render_all());
    return emit::to_code(cm);
  };
  std::string first = convert();
  REQUIRE(!first.empty());
  for (int i = 0; i < 3; ++i) CHECK(convert() == first);
}

TEST_CASE("user names stay wrapped in ag__.ld and generated names never are") {
  auto p = testing::parse("def f(x):\n  while x > 0:\n    x = x - 1\n  return x\n");
  DiagnosticSink sink;
  Ref converted = passes::convert_entity(p->first(), {}, nullptr, {}, sink);
  std::string text = ast::to_source(converted);
  CHECK(text.find("ag__.ld(x)") != std::string::npos);
  CHECK(text.find("ag__.ld(do_return)") == std::string::npos);
  CHECK(text.find("ag__.ld(ag__") == std::string::npos);
  CHECK(text.find("fscope.ret(retval_, do_return)") != std::string::npos);
}

TEST_CASE("unsupported constructs are reported for each occurrence at its line") {
  auto p = testing::parse(
      "def f(xs):\n"
      "  for x in xs:\n"
      "    pass\n"
      "  else:\n"
      "    pass\n"
      "  while xs:\n"
      "    break\n"
      "  else:\n"
      "    pass\n"
      "  return self.__hidden\n");
  REQUIRE(!p->sink.has_errors());
  DiagnosticSink sink;
  CHECK(!passes::convert_entity(p->first(), {}, nullptr, {}, sink));
  std::string e = sink.render_all();
  CHECK(e.find("t.py:4:3: error: for/else is not supported") != std::string::npos);
  CHECK(e.find("t.py:8:3: error: while/else is not supported") != std::string::npos);
  CHECK(e.find("t.py:10:10: error: mangled names are not supported") != std::string::npos);
}

TEST_CASE("set_loop_options outside a loop or after other statements is reported") {
  auto p = testing::parse(
      "import tensorflow as tf\n"
      "def f(x):\n"
      "  tf.autograph.experimental.set_loop_options(parallel_iterations=1)\n"
      "  while x:\n"
      "    x = x - 1\n"
      "    tf.autograph.experimental.set_loop_options(parallel_iterations=1)\n"
      "  return x\n");
  DiagnosticSink sink;
  CHECK(!passes::convert_entity(p->body()[1], {}, nullptr, analysis::module_imports(p->module), sink));
  std::string e = sink.render_all();
  CHECK(e.find("t.py:3:3: error: set_loop_options must be used inside a loop body") != std::string::npos);
  CHECK(e.find("t.py:6:5: error: set_loop_options must be the first statement in the loop block") !=
        std::string::npos);
}

namespace {

// `def f(x):` followed by `n` copies of `if x > i: return x`: each return
// guards the rest of the block, so the output nests about one level per copy.
std::string sequential_returns(int n) {
  std::string src = "def f(x):\n";
  for (int i = 0; i < n; ++i) src += "  if x > " + std::to_string(i) + ":\n    return x\n";
  return src + "  return x\n";
}

}  // namespace

TEST_CASE("converted code stays within the 99 nested blocks Python accepts") {
  // 96 returns print 99 levels deep (checked against CPython's compile()).
  auto ok = testing::parse(sequential_returns(96));
  DiagnosticSink sink_ok;
  CHECK(passes::convert_entity(ok->first(), {}, nullptr, {}, sink_ok));
  CHECK(!sink_ok.has_errors());

  auto deep = testing::parse(sequential_returns(97));
  DiagnosticSink sink;
  CHECK(!passes::convert_entity(deep->first(), {}, nullptr, {}, sink));
  CHECK(sink.render_all().find("t.py:195:5: error: converting 'f' nests this code 100 blocks deep, past the 99 "
                               "Python accepts") != std::string::npos);
}

TEST_CASE("an elif chain nested past 99 blocks is refused before it is converted") {
  // The conversion nests each elif one def deeper than the one before; the
  // input shows it, so the entity fails before the passes (and before the
  // analyses, whose work grows with the chain).
  auto chain = [](int ifs) {
    std::string src = "def f(x):\n";
    for (int k = 0; k < ifs; ++k) src += std::string(k ? "  elif" : "  if") + " x == " + std::to_string(k) + ":\n    y = 1\n";
    return src + "  return y\n";
  };
  auto ok = testing::parse(chain(97));
  DiagnosticSink sink_ok;
  CHECK(passes::convert_entity(ok->first(), {}, nullptr, {}, sink_ok));
  CHECK(!sink_ok.has_errors());

  bool converted = true;
  std::vector<std::string> passes_run;
  std::string errors;
  run_on_big_stack([&] {
    auto deep = testing::parse(chain(2500));
    DiagnosticSink sink;
    converted = passes::convert_entity(deep->first(), {}, nullptr, {}, sink,
                                       [&](const char* pass, const Ref&) { passes_run.push_back(pass); }) != nullptr;
    errors = sink.render_all();
  });
  CHECK(!converted);
  CHECK(passes_run.empty());
  CHECK(errors.find("t.py:5001:5: error: converting 'f' would nest this code at least 2502 blocks deep, past the 99 "
                    "Python accepts") != std::string::npos);
}

TEST_CASE("long and chains and chained comparisons convert link by link, in linear time") {
  // Each link of the chain is built around the ones after it (or, for a
  // chained comparison, before it) without copying them.
  auto count = [](const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
  };
  std::string chain = "def f(x):\n  return x > 0", compare = "def f(x):\n  return x";
  for (int k = 1; k < 20000; ++k) chain += " or x > " + std::to_string(k);
  for (int k = 0; k < 3000; ++k) compare += " != " + std::to_string(k);
  passes::ConversionOptions equality;
  equality.optional_features.insert("EQUALITY_OPERATORS");
  std::string chain_text, compare_text;
  run_on_big_stack([&] {
    auto p = testing::parse(chain + "\n");
    DiagnosticSink sink;
    chain_text = ast::to_source(passes::convert_entity(p->first(), {}, nullptr, {}, sink));
    auto q = testing::parse(compare + "\n");
    compare_text = ast::to_source(passes::convert_entity(q->first(), equality, nullptr, {}, sink));
  });
  CHECK(count(chain_text, "ag__.or_((lambda : (ag__.ld(x) > ") == 19999);
  CHECK(chain_text.find("(lambda : (ag__.ld(x) > 19998)), (lambda : (ag__.ld(x) > 19999)))") != std::string::npos);
  CHECK(count(compare_text, "ag__.and_(") == 2999);
  CHECK(count(compare_text, "ag__.not_eq(") == 3000);
  CHECK(compare_text.find("(lambda : ag__.not_eq(2998, 2999)))") != std::string::npos);
}

TEST_CASE("a block cannot stack more than 100 return guards, and fails cleanly at 8000") {
  auto p = testing::parse(sequential_returns(8000));
  DiagnosticSink sink;
  CHECK(!passes::convert_entity(p->first(), {}, nullptr, {}, sink));
  std::string e = sink.render_all();
  CHECK(e.find("t.py:204:3: error: the code from here on would be nested more than 100 levels deep") !=
            std::string::npos);
}

TEST_CASE("an entity's plain form is the def as written with its nested defs converted") {
  auto p = testing::parse(
      "def f(xs):\n"
      "  out = []\n"
      "  for x in xs:\n"
      "    def g(y):\n"
      "      if y:\n"
      "        return 1\n"
      "      return 2\n"
      "    out.append(g(x))\n"
      "  return out\n");
  passes::ConvertedModule cm = passes::convert_module(p->module);
  REQUIRE_MESSAGE(!cm.has_errors(), cm.diagnostics.render_all());
  const Ref& plain = cm.entity(p->first().get())->plain;
  REQUIRE(plain);
  std::string text = ast::to_source(plain);
  // The def's own code stays as written (its loop, its append)...
  CHECK(text.find("def f(xs):\n    out = []\n    for x in xs:\n") == 0);
  CHECK(text.find("out.append(g(x))") != std::string::npos);
  CHECK(text.find("ag__.for_stmt") == std::string::npos);
  // ... and its nested def is the one the conversion of f holds.
  CHECK(text.find("with ag__.FunctionScope('g', 'fscope_1'") != std::string::npos);
  CHECK(text.find("ag__.if_stmt") != std::string::npos);
}

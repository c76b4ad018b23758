// Runs a directory of golden files and compares (or, with AGC_BLESS=1, rewrites)
// their expectations.
//
//   golden_runner to_code DIR     to-code output of each case's module
//   golden_runner passes DIR      DIR/<pass>.txt: that one pass alone, per function
//   golden_runner errors DIR      rendered diagnostics (file named input.py)
//   golden_runner cpp DIR         the C++ emitter's output (header, then source);
//                                 a program's, or a library's for a case with option --lib
//   golden_runner cpp_errors DIR  the C++ emitter's diagnostics, warnings included
//   golden_runner report DIR      agc explain's report of each case's module
//   golden_runner samples GOLDEN_DIR SAMPLES_DIR
//                                 to-code of SAMPLES_DIR/<x>.py vs GOLDEN_DIR/<x>.out, byte for byte
//   golden_runner report_samples GOLDEN_DIR SAMPLES_DIR
//                                 agc explain's report of SAMPLES_DIR/<x>.py for each GOLDEN_DIR/<x>.out
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/support/golden.h"
#include "transpiler/analysis/analysis_cache.h"
#include "transpiler/analysis/module_scope.h"
#include "transpiler/ast/python_printer.h"
#include "transpiler/ast/visitor.h"
#include "transpiler/base/check.h"
#include "transpiler/emit/cpp_emitter.h"
#include "transpiler/emit/to_code.h"
#include "transpiler/frontend/parse.h"
#include "transpiler/passes/convert_module.h"
#include "transpiler/passes/pipeline.h"
#include "transpiler/report/conversion_report.h"

namespace fs = std::filesystem;
using namespace agc;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
}

bool bless() {
  const char* b = std::getenv("AGC_BLESS");
  return b && std::string(b) == "1";
}

passes::ModuleRequest request_from(const std::vector<std::string>& options, std::string& error) {
  passes::ModuleRequest r;
  for (size_t i = 0; i < options.size(); ++i) {
    const std::string& o = options[i];
    if (o == "--autograph-compat") {
      r.options.lists = false;
    } else if (o.rfind("--optional-features=", 0) == 0) {
      std::stringstream ss(o.substr(20));
      std::string f;
      while (std::getline(ss, f, ',')) r.options.optional_features.insert(f);
    } else if (o == "--function" && i + 1 < options.size()) {
      r.functions.push_back(options[++i]);
    } else {
      error = "unknown option " + o;
    }
  }
  return r;
}

/// to-code output of `source` (a file named `path`), or its rendered diagnostics.
std::string run_to_code(const std::string& source, const passes::ModuleRequest& request, bool& had_errors,
                        const std::string& path = "input.py") {
  passes::ConvertedModule cm = passes::convert_file(std::make_shared<SourceFile>(path, source), request);
  DiagnosticSink all = cm.all_diagnostics();
  had_errors = all.has_errors();
  return had_errors ? all.render_all() : emit::to_code(cm);
}

/// agc explain's report of `source` (a file named `path`), or its rendered diagnostics.
std::string run_report(const std::string& source, passes::ModuleRequest request, bool& had_errors,
                       const std::string& path = "input.py") {
  report::request_report(request);
  passes::ConvertedModule cm = passes::convert_file(std::make_shared<SourceFile>(path, source), request);
  DiagnosticSink all = cm.all_diagnostics();
  had_errors = all.has_errors();
  return had_errors ? all.render_all() : report::conversion_report(cm);
}

/// The C++ emitter's output for `source` (module "input"), or its diagnostics
/// (warnings too, with `with_warnings`).
std::string run_emit_cpp(const std::string& source, const passes::ModuleRequest& request, bool with_warnings,
                         bool library, bool& had_errors) {
  passes::ModuleRequest cpp_request{request.options, {}, {}};
  cpp_request.decorator_features = true;
  passes::ConvertedModule cm = passes::convert_file(std::make_shared<SourceFile>("input.py", source), cpp_request);
  DiagnosticSink sink;
  sink.report_all(cm.diagnostics);
  emit::CppOutput out = emit::emit_cpp(cm, "input", library, sink);
  had_errors = sink.has_errors();
  if (had_errors || (with_warnings && !sink.diagnostics().empty())) return sink.render_all();
  return out.header + "// ---- input.cpp\n" + out.source();
}

/// Hidden loop annotations (extra tests, set_loop_options), which the printer
/// does not show, as comment lines.
class AnnotationLister : public ast::AstVisitor {
 public:
  std::string out;

 protected:
  void visit_For(const ast::Ptr<ast::For>& n) override {
    describe("for", *n, n->extra_test, n->loop_opts);
    visit_children(*n);
  }
  void visit_While(const ast::Ptr<ast::While>& n) override {
    describe("while", *n, nullptr, n->loop_opts);
    visit_children(*n);
  }

 private:
  void describe(const char* what, const ast::Node& n, const ast::Ref& extra,
                const std::vector<ast::LoopOption>& opts) {
    std::string line = n.span.known() ? std::to_string(n.span.file->line_col(n.span.begin).line) : "?";
    if (extra) out += "\n# " + std::string(what) + " loop at line " + line + ": extra test " + ast::to_source(extra);
    for (const auto& o : opts) {
      out += "\n# " + std::string(what) + " loop at line " + line + ": option " + o.key + "=" + ast::to_source(o.value);
    }
  }
};

/// One pass alone over every function of `source`.
std::string run_pass(const std::string& pass, const std::string& source, const passes::ModuleRequest& request,
                     bool& had_errors) {
  auto file = std::make_shared<SourceFile>("input.py", source);
  DiagnosticSink sink;
  ast::Module m = frontend::parse_module(file, sink);
  std::string out;
  passes::PassFn fn = nullptr;
  passes::ConversionOptions all = request.options;
  all.lists = true;
  all.optional_features.insert("ASSERT_STATEMENTS");
  for (const auto& p : passes::pipeline(all)) {
    if (pass == p.name) fn = p.fn;
  }
  if (!fn) {
    had_errors = true;
    return "unknown pass " + pass;
  }
  auto globals = analysis::module_names(m);
  auto imports = analysis::module_imports(m);
  for (const auto& e : passes::find_entities(m)) {
    Namer namer(globals);
    analysis::AnalysisCache analyses;
    passes::PassContext ctx{sink, namer, analyses, request.options, imports};
    ast::Ref r = fn(e.fn, ctx);
    if (!out.empty()) out += "\n\n";
    out += ast::to_source(r);
    AnnotationLister annotations;
    annotations.visit(r);
    out += annotations.out;
  }
  had_errors = sink.has_errors();
  return had_errors ? sink.render_all() : out;
}

int run_corpus(const std::string& mode, const fs::path& dir) {
  int failures = 0, total = 0;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".txt") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::string error;
    auto cases = agc::testing::parse_golden(read(path), error);
    if (!error.empty()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), error.c_str());
      ++failures;
      continue;
    }
    bool changed = false;
    for (auto& c : cases) {
      ++total;
      std::string opt_error;
      std::vector<std::string> options = c.options;
      const bool library = std::erase(options, std::string("--lib")) > 0;
      auto request = request_from(options, opt_error);
      bool had_errors = false;
      std::string actual;
      if (!opt_error.empty()) {
        actual = opt_error;
        had_errors = true;
      } else if (mode == "passes") {
        actual = run_pass(path.stem().string(), c.input, request, had_errors);
      } else if (mode == "cpp" || mode == "cpp_errors") {
        bool errors_mode = mode == "cpp_errors";
        actual = run_emit_cpp(c.input, request, errors_mode, library, had_errors);
        if (errors_mode && actual.rfind("// ", 0) == 0) actual = "(no errors)";
      } else if (mode == "report") {
        actual = run_report(c.input, request, had_errors);
      } else {
        actual = run_to_code(c.input, request, had_errors);
        if (mode == "errors" && !had_errors) actual = "(no errors)";
      }
      actual = agc::testing::rstrip(actual);
      std::string expected = c.expected;
      if (c.from_tf) {
        actual = agc::testing::canonicalize_set_order(actual);
        expected = agc::testing::canonicalize_set_order(expected);
      }
      if (actual == expected) continue;
      bool errors_mode = mode == "errors" || mode == "cpp_errors";
      bool may_bless = !c.from_tf && (errors_mode || actual.find("error:") == std::string::npos);
      if (bless() && may_bless) {
        c.expected = actual;
        changed = true;
        continue;
      }
      ++failures;
      std::fprintf(stderr, "FAIL %s:%d: %s%s\n--- expected\n%s\n--- actual\n%s\n---\n", path.c_str(), c.line,
                   c.name.c_str(), c.from_tf ? " (source: tf, not blessable)" : "", expected.c_str(),
                   actual.c_str());
    }
    if (changed) write(path, agc::testing::format_golden(cases));
  }
  std::printf("%d/%d golden cases passed in %s\n", total - failures, total, dir.c_str());
  return failures == 0 ? 0 : 1;
}

/// `report`: agc explain's report of the samples that have a golden file,
/// else to-code of every sample.
int run_samples(const fs::path& golden_dir, const fs::path& samples_dir, bool report) {
  int failures = 0, total = 0;
  std::vector<fs::path> samples;
  if (report) {
    for (const auto& e : fs::directory_iterator(golden_dir)) {
      if (e.path().extension() == ".out") samples.push_back(samples_dir / (e.path().stem().string() + ".py"));
    }
  } else {
    for (const auto& e : fs::directory_iterator(samples_dir)) {
      if (e.path().extension() == ".py") samples.push_back(e.path());
    }
  }
  std::sort(samples.begin(), samples.end());
  for (const auto& sample : samples) {
    ++total;
    bool had_errors = false;
    std::string name = "samples/" + samples_dir.filename().string() + "/" + sample.filename().string();
    std::string actual = !fs::exists(sample) ? "(missing sample " + sample.string() + ")"
                         : report ? run_report(read(sample), {}, had_errors, name)
                                  : run_to_code(read(sample), {}, had_errors, "samples/" + sample.filename().string());
    fs::path golden = golden_dir / (sample.stem().string() + ".out");
    std::string expected = fs::exists(golden) ? read(golden) : "(missing golden file)";
    if (actual == expected) continue;
    if (bless() && !had_errors) {
      write(golden, actual);
      continue;
    }
    ++failures;
    std::fprintf(stderr, "FAIL %s vs %s\n--- expected\n%s\n--- actual\n%s\n---\n", sample.c_str(), golden.c_str(),
                 expected.c_str(), actual.c_str());
  }
  std::printf("%d/%d samples match their golden files\n", total - failures, total);
  return failures == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fputs("usage: golden_runner to_code|passes|errors|cpp|cpp_errors|report DIR | samples|report_samples "
               "GOLDEN_DIR SAMPLES_DIR\n",
               stderr);
    return 2;
  }
  std::string mode = argv[1];
  try {
    if ((mode == "samples" || mode == "report_samples") && argc == 4) {
      return run_samples(argv[2], argv[3], mode == "report_samples");
    }
    if (mode == "to_code" || mode == "passes" || mode == "errors" || mode == "cpp" || mode == "cpp_errors" ||
        mode == "report") {
      return run_corpus(mode, argv[2]);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "golden_runner: %s\n", e.what());
    return 1;
  }
  std::fputs("golden_runner: bad arguments\n", stderr);
  return 2;
}

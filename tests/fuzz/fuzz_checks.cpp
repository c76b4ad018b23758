#include "tests/fuzz/fuzz_checks.h"

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string_view>

#include <sys/wait.h>
#include <unistd.h>

#include <tree_sitter/api.h>

#include "transpiler/base/check.h"
#include "transpiler/base/diagnostic.h"
#include "transpiler/base/python_limits.h"
#include "transpiler/ast/python_printer.h"
#include "transpiler/emit/to_code.h"
#include "transpiler/passes/convert_module.h"
#include "transpiler/frontend/parse.h"
#include "transpiler/report/conversion_report.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace agc::fuzz {
namespace {

/// Well-formed UTF-8 (overlong two-byte forms count as malformed).
bool valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    if (len == 2 && c < 0xC2) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += len;
  }
  return true;
}

/// `s` with every byte outside printable ASCII as \xNN.
std::string printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

/// Records problems (as "kind: detail") and checks diagnostics for them.
class Checker {
 public:
  Checker(Stats& stats, std::vector<std::string>& problems) : stats_(stats), problems_(problems) {}

  void fail(const std::string& kind, const std::string& detail) {
    ++stats_.failure_kinds[kind];
    problems_.push_back(kind + ": " + detail);
  }

  /// Every diagnostic in `sink` must be well formed; `file` is the mutant.
  void check_sink(const DiagnosticSink& sink, const SourceFile& file, const char* phase) {
    size_t errors = 0;
    for (const auto& d : sink.diagnostics()) {
      if (d.severity == Severity::Error) ++errors;
      check_diagnostic(d, file, phase, false);
    }
    if (errors != sink.error_count()) {
      fail("sink-count", std::string(phase) + ": error_count() disagrees with the diagnostics");
    }
    try {
      (void)sink.render_all();
    } catch (const std::exception& e) {
      fail("render-throws", std::string(phase) + ": render_all threw: " + e.what());
    }
  }

 private:
  void check_diagnostic(const Diagnostic& d, const SourceFile& file, const char* phase, bool is_note) {
    std::string where = std::string(phase) + ": '" + printable(d.message) + "'";
    if (d.message.empty()) fail("empty-message", std::string(phase) + ": a diagnostic has an empty message");
    if (!valid_utf8(d.message)) fail("message-not-utf8", where);
    bool control = false;
    for (unsigned char c : d.message) control = control || c < 0x20 || c == 0x7f;
    if (control) fail("message-control-char", where);
    if (is_note && d.severity != Severity::Note) fail("note-severity", where);
    if (!is_note && d.severity == Severity::Note) fail("note-at-top-level", where);
    const char* sev = severity_name(d.severity);
    std::string rendered;
    try {
      rendered = render(d);
    } catch (const std::exception& e) {
      fail("render-throws", where + ": " + e.what());
      return;
    }
    if (d.span.file != nullptr) {
      const SourceFile& f = *d.span.file;
      if (d.span.file != &file) fail("span-foreign-file", where + " points into '" + f.path() + "'");
      size_t size = f.text().size();
      if (d.span.begin > d.span.end || d.span.end > size) {
        fail("span-out-of-range", where + ": span [" + std::to_string(d.span.begin) + ", " +
                                      std::to_string(d.span.end) + ") in a file of " + std::to_string(size) +
                                      " bytes");
      } else {
        auto lc = f.line_col(d.span.begin);
        std::string prefix =
            f.path() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.col) + ": " + sev + ": ";
        if (lc.line < 1 || lc.col < 1) fail("bad-line-col", where);
        if (rendered.rfind(prefix, 0) != 0) {
          fail("render-prefix", where + ": rendered as '" + printable(rendered.substr(0, 120)) + "', wanted '" +
                                    printable(prefix) + "...'");
        }
        // The rendering is: header, source line, caret line.
        size_t nl1 = rendered.find('\n');
        size_t nl2 = nl1 == std::string::npos ? nl1 : rendered.find('\n', nl1 + 1);
        size_t nl3 = nl2 == std::string::npos ? nl2 : rendered.find('\n', nl2 + 1);
        if (nl3 == std::string::npos) fail("render-shape", where + ": rendering lacks the source and caret lines");
      }
    } else {
      std::string prefix = std::string("agc: ") + sev + ": ";
      if (rendered.rfind(prefix, 0) != 0) fail("render-prefix", where + ": unknown span rendered without 'agc: '");
      if (!is_note) {
        ++stats_.unknown_span_errors;
        ++stats_.unknown_span_messages[d.message.substr(0, 80)];
      }
    }
    for (const auto& n : d.notes) check_diagnostic(n, file, phase, true);
  }

  Stats& stats_;
  std::vector<std::string>& problems_;
};

/// Deepest indentation (in columns) and bracket nesting of `text`, roughly
/// (brackets inside strings count too; this only decides what is checkable).
void nesting_of(const std::string& text, size_t& max_indent, size_t& max_brackets) {
  max_indent = max_brackets = 0;
  size_t depth = 0, col = 0;
  bool at_line_start = true;
  for (char c : text) {
    if (c == '\n') {
      at_line_start = true;
      col = 0;
      continue;
    }
    if (at_line_start && (c == ' ' || c == '\t')) {
      col += c == '\t' ? 8 - col % 8 : 1;
      max_indent = std::max(max_indent, col);
      continue;
    }
    at_line_start = false;
    if (c == '(' || c == '[' || c == '{') max_brackets = std::max(max_brackets, ++depth);
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
  }
}

/// True when tree-sitter parses `text` without ERROR or MISSING nodes.
bool is_valid_python(const std::string& text) {
  TSParser* p = ts_parser_new();
  ts_parser_set_language(p, tree_sitter_python());
  TSTree* t = ts_parser_parse_string(p, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  bool ok = t != nullptr && !ts_node_has_error(ts_tree_root_node(t));
  if (t) ts_tree_delete(t);
  ts_parser_delete(p);
  return ok;
}

/// One to_code run: its output and its rendered diagnostics.
struct Conversion {
  bool ran = false;
  std::string output;
  std::string diagnostics;
};

const char* const kPath = "mutant.py";

/// One parse_module run of the mutant (as file kPath) and what it produced.
struct PipelineRun {
  std::shared_ptr<const SourceFile> file;
  DiagnosticSink parse_sink;
  ast::Module module;
  bool parsed = false;
  std::string parse_diagnostics;
};

/// Runs `f`; any exception that escapes is a failure. False if one did.
template <class F>
bool guarded(Checker& c, const std::string& what, F&& f) {
  try {
    f();
    return true;
  } catch (const InternalError& e) {
    c.fail("internal-error", what + ": " + e.what());
  } catch (const DiagnosticError& e) {
    c.fail("diagnostic-error-escaped", what + ": " + printable(render(e.diagnostic())));
  } catch (const std::bad_alloc&) {
    c.fail("bad-alloc", what + ": std::bad_alloc");
  } catch (const std::exception& e) {
    c.fail("std-exception", what + ": " + e.what());
  } catch (...) {
    c.fail("unknown-exception", what + ": a non-std exception");
  }
  return false;
}

void run_parse(Checker& c, const std::string& text, PipelineRun& run) {
  run.file = std::make_shared<SourceFile>(kPath, text);
  guarded(c, "parse_module", [&] { run.module = frontend::parse_module(run.file, run.parse_sink); });
  c.check_sink(run.parse_sink, *run.file, "parse_module");
  run.parse_diagnostics = run.parse_sink.render_all();
  // Valid Python agc cannot convert fails only its function: the module keeps its statements.
  run.parsed = !run.parse_sink.has_file_errors();
  if (!run.parsed && !run.module.body.empty()) {
    c.fail("module-not-empty", "parse_module reported errors but returned statements");
  }
}

Conversion run_to_code(Checker& c, const PipelineRun& run, const passes::ModuleRequest& req, const char* label) {
  Conversion conv;
  DiagnosticSink sink;
  conv.ran = guarded(c, std::string("to_code ") + label, [&] {
    passes::ConvertedModule cm = passes::convert_module(run.module, req, run.parse_sink.diagnostics());
    sink.report_all(cm.diagnostics);
    if (!sink.has_errors()) conv.output = emit::to_code(cm);
  });
  c.check_sink(sink, *run.file, label);
  conv.diagnostics = sink.render_all();
  if (sink.has_errors() && !conv.output.empty()) c.fail("output-despite-errors", std::string(label));
  if (!conv.ran) conv.diagnostics += "<exception>";
  return conv;
}

/// One `agc explain` run: the report, or the diagnostics when there are any.
std::string run_explain(Checker& c, const PipelineRun& run, passes::ModuleRequest req, const char* label) {
  std::string out;
  report::request_report(req);
  guarded(c, std::string("explain ") + label, [&] {
    passes::ConvertedModule cm = passes::convert_module(run.module, req, run.parse_sink.diagnostics());
    out = cm.has_errors() ? cm.diagnostics.render_all() : report::conversion_report(cm);
  });
  return out;
}

std::string describe_request(const passes::ModuleRequest& req) {
  std::string s = std::string("lists=") + (req.options.lists ? "on" : "off") + " features={";
  for (const auto& f : req.options.optional_features) s += f + ",";
  s += "} functions={";
  for (const auto& f : req.functions) s += f + ",";
  return s + "}";
}

}  // namespace

PythonOracle::~PythonOracle() {
  if (to_) std::fclose(to_);  // Python sees end of input and exits
  if (from_) std::fclose(from_);
  if (pid_ > 0) waitpid(pid_, nullptr, 0);
}

bool PythonOracle::start(const std::string& python) {
  // Reads "<length>\n<source>" and answers "ok" or "error <message>", one line each.
  static const char* const kScript =
      "import sys, warnings\n"
      "warnings.simplefilter('ignore')\n"
      "i, o = sys.stdin.buffer, sys.stdout\n"
      "while True:\n"
      "    line = i.readline()\n"
      "    if not line: break\n"
      "    src = i.read(int(line))\n"
      "    try:\n"
      "        compile(src, 'mutant.py', 'exec', dont_inherit=True)\n"
      "        o.write('ok\\n')\n"
      "    except BaseException as e:\n"
      "        o.write(('error ' + type(e).__name__ + ': ' + str(e)).replace('\\n', ' ') + '\\n')\n"
      "    o.flush()\n";
  int to_child[2], from_child[2];
  if (pipe(to_child) != 0 || pipe(from_child) != 0) return false;
  pid_ = fork();
  if (pid_ < 0) return false;
  if (pid_ == 0) {
    dup2(to_child[0], 0);
    dup2(from_child[1], 1);
    close(to_child[1]);
    close(from_child[0]);
    execlp(python.c_str(), python.c_str(), "-c", kScript, static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  close(to_child[0]);
  close(from_child[1]);
  std::signal(SIGPIPE, SIG_IGN);
  to_ = fdopen(to_child[1], "w");
  from_ = fdopen(from_child[0], "r");
  if (to_ == nullptr || from_ == nullptr) return false;
  std::string probe = compile("x = 1\n");
  return to_ != nullptr && probe == "ok";  // compile() drops the pipes if Python is gone
}

std::string PythonOracle::compile(const std::string& text) {
  if (!to_ || !from_) return "ok";
  std::fprintf(to_, "%zu\n", text.size());
  std::fwrite(text.data(), 1, text.size(), to_);
  std::fflush(to_);
  std::string reply;
  for (int ch; (ch = std::fgetc(from_)) != EOF && ch != '\n';) reply += static_cast<char>(ch);
  if (reply.empty()) {
    std::fputs("mutation_fuzz: the Python oracle died; continuing without it\n", stderr);
    std::fclose(to_);
    std::fclose(from_);
    to_ = from_ = nullptr;
    return "ok";
  }
  return reply;
}

std::vector<std::string> check_source(const std::string& text, std::mt19937& rng, Stats& stats,
                                      const CheckOptions& options, bool* parsed_clean) {
  bool exhaustive = options.exhaustive;
  PythonOracle* oracle = options.oracle;
  std::vector<std::string> problems;
  Checker c(stats, problems);
  PipelineRun first;
  run_parse(c, text, first);
  {
    // Parsing again, from a SourceFile at another address, gives the same diagnostics.
    PipelineRun again;
    run_parse(c, text, again);
    if (again.parse_diagnostics != first.parse_diagnostics) {
      c.fail("nondeterministic-parse", "diagnostics differ:\n--- first\n" + first.parse_diagnostics +
                                           "--- second\n" + again.parse_diagnostics);
    }
  }
  if (parsed_clean) *parsed_clean = first.parsed;
  if (!first.parsed) return problems;
  ++stats.parsed_clean;
  bool cpython_accepts = true;
  if (oracle) {
    std::string verdict = oracle->compile(text);
    cpython_accepts = verdict == "ok";
    if (!cpython_accepts) c.fail("accepts-invalid-python", "parse_module accepted what CPython rejects: " + verdict);
  }

  // Random request details; drawn up front so they do not depend on results.
  const auto& features = passes::supported_optional_features();
  std::vector<std::string> identifiers;
  for (size_t i = 0; i < text.size();) {
    if (std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_') {
      size_t j = i;
      while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
      identifiers.push_back(text.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
  struct Variant {
    passes::ModuleRequest req;
    bool observe = false;
  };
  std::vector<Variant> variants;
  for (bool lists : {true, false}) {
    if (exhaustive) {
      for (bool all : {false, true}) {
        Variant v;
        v.req.options.lists = lists;
        if (all) v.req.options.optional_features.insert(features.begin(), features.end());
        v.observe = true;
        variants.push_back(v);
      }
      continue;
    }
    Variant v;
    v.req.options.lists = lists;
    for (const auto& f : features) {
      if (rng() % 3 == 0) v.req.options.optional_features.insert(f);
    }
    if (rng() % 8 == 0 && !identifiers.empty()) {
      std::string name = identifiers[rng() % identifiers.size()];
      if (rng() % 2 == 0) name += "." + identifiers[rng() % identifiers.size()];
      v.req.functions.push_back(name);
    }
    v.observe = rng() % 4 == 0;
    variants.push_back(v);
  }
  bool all_converted = true;
  for (const Variant& v : variants) {
    const passes::ModuleRequest& req = v.req;
    bool observe = v.observe;
    std::string label = describe_request(req);
    passes::ModuleRequest observed = req;
    if (observe) {
      // What `--dump-after=all` does: print the function after every pass.
      observed.observer = [](const char*, const ast::Ref& fn) { (void)ast::to_source(fn); };
    }
    Conversion a = run_to_code(c, first, observed, label.c_str());
    // Determinism: a fresh parse of the same text converts to the same bytes.
    PipelineRun again;
    run_parse(c, text, again);
    Conversion b = run_to_code(c, again, req, label.c_str());
    if (a.output != b.output || a.diagnostics != b.diagnostics) {
      c.fail("nondeterministic-output", label + ": two conversions of the same text differ:\n--- first\n" +
                                            a.output + a.diagnostics + "--- second\n" + b.output + b.diagnostics);
    }
    if (!a.diagnostics.empty()) {
      ++stats.convert_errors;
      all_converted = false;
    } else if (a.ran) {
      size_t indent = 0, brackets = 0;
      nesting_of(a.output, indent, brackets);
      // CPython stops at 100 indentation levels (the pipeline refuses to print
      // deeper code) and at 200 nested brackets (conversion can add brackets:
      // each call gains converted_call's, as in AutoGraph; only counted).
      if (indent > 4 * (kMaxIndentLevels - 1)) {
        c.fail("output-too-deep", label + ": printed code is nested deeper than Python accepts");
      }
      if (brackets > 200) ++stats.too_deep_for_cpython;
      // tree-sitter-python cannot track indentation past 255 columns.
      if (indent > 250 || brackets > 150) {
        ++stats.unverified_outputs;
      } else if (!is_valid_python(a.output)) {
        c.fail("invalid-output", label + ": converted code is not valid Python:\n" + a.output);
      }
      if (oracle && cpython_accepts && indent <= 400 && brackets <= 190) {
        std::string verdict = oracle->compile(a.output);
        if (verdict != "ok") {
          c.fail("output-rejected-by-cpython", label + ": " + verdict + "; the converted code:\n" + a.output);
        }
      }
    }
    if (!a.ran) all_converted = false;
    // agc explain reads the same conversion with its facts: never throws,
    // and says the same twice.
    if (run_explain(c, first, req, label.c_str()) != run_explain(c, again, req, label.c_str())) {
      c.fail("nondeterministic-report", label + ": two reports of the same text differ");
    }
  }
  if (all_converted) ++stats.converted;
  return problems;
}

}  // namespace agc::fuzz

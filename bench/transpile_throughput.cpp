// Transpile throughput: lines per second of the whole `agc to-code` path
// (parse + lowering + passes + printing) on a large generated module, against
// tree-sitter parsing alone measured in the same run (the baseline).
//
// The module comes from model_code_gen.h: TF2-style templates instantiated from
// a fixed seed, so every run measures the same text.
//
//   bench_transpile [--lines N] [--repeats N] [--write FILE]
#include <fmt/format.h>
#include <tree_sitter/api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "bench/model_code_gen.h"
#include "transpiler/base/diagnostic.h"
#include "transpiler/base/source.h"
#include "transpiler/emit/to_code.h"
#include "transpiler/frontend/parse.h"
#include "transpiler/passes/convert_module.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace {

// ---------------------------------------------------------------- timing

/// Results fold into this so that the optimizer cannot drop the timed work.
volatile size_t g_sink = 0;

struct Timing {
  double wall_ms;  // best steady_clock time: the figure reported
  double cpu_ms;   // best process CPU time: shows how much waiting on a busy machine inflated wall_ms
};

/// Best (minimum) wall and CPU time in milliseconds of `repeats` calls of `f`.
template <class F>
Timing best_of(int repeats, F&& f) {
  Timing best{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  for (int r = 0; r < repeats; ++r) {
    std::clock_t c0 = std::clock();
    auto t0 = std::chrono::steady_clock::now();
    f();
    auto t1 = std::chrono::steady_clock::now();
    std::clock_t c1 = std::clock();
    best.wall_ms = std::min(best.wall_ms, std::chrono::duration<double, std::milli>(t1 - t0).count());
    best.cpu_ms = std::min(best.cpu_ms, 1000.0 * static_cast<double>(c1 - c0) / CLOCKS_PER_SEC);
  }
  return best;
}

void tree_sitter_parse(const std::string& text) {
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  g_sink = g_sink + ts_node_child_count(ts_tree_root_node(tree));
  ts_tree_delete(tree);
  ts_parser_delete(parser);
}

/// parse_module on a fresh SourceFile (building its line index is agc's work too).
agc::ast::Module parse(const std::string& text, agc::DiagnosticSink& sink) {
  return agc::frontend::parse_module(std::make_shared<agc::SourceFile>("generated.py", text), sink);
}

std::string full(const std::string& text, agc::DiagnosticSink& sink) {
  agc::ast::Module m = parse(text, sink);
  if (sink.has_errors()) return "";
  agc::passes::ConvertedModule cm = agc::passes::convert_module(m);
  sink.report_all(cm.diagnostics);
  return sink.has_errors() ? "" : agc::emit::to_code(cm);
}

size_t count_lines(const std::string& s) {
  size_t n = static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
  return n + (!s.empty() && s.back() != '\n' ? 1 : 0);
}

/// 1234567 → "1,234,567".
std::string grouped(double v) {
  std::string digits = fmt::format("{:.0f}", v);
  std::string out;
  for (size_t k = 0; k < digits.size(); ++k) {
    if (k > 0 && (digits.size() - k) % 3 == 0) out += ',';
    out += digits[k];
  }
  return out;
}

const char* kUsage =
    "usage: bench_transpile [--lines N] [--repeats N] [--write FILE]\n"
    "\n"
    "Generates about N lines (default 20000) of TF2-style model code, checks that\n"
    "agc converts it without diagnostics, then prints the best of --repeats runs\n"
    "(default 7) of: tree-sitter parsing alone (the baseline), parse_module (parse +\n"
    "lowering), and the full to-code path (parse + passes + printing).\n"
    "--write FILE also writes the generated source, e.g. for `agc to-code FILE`.\n";

bool parse_count(const char* s, long min, long max, long& out) {
  char* end = nullptr;
  long v = std::strtol(s, &end, 10);
  if (end == s || *end != '\0' || v < min || v > max) return false;
  out = v;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  long lines = 20000;
  long repeats = 7;
  std::string write_path;
  for (int a = 1; a < argc; ++a) {
    std::string_view arg = argv[a];
    bool has_value = a + 1 < argc;
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (arg == "--lines" && has_value) {
      if (!parse_count(argv[++a], 1, 10'000'000, lines)) {
        std::fprintf(stderr, "bench_transpile: --lines needs a count between 1 and 10000000\n");
        return 2;
      }
    } else if (arg == "--repeats" && has_value) {
      if (!parse_count(argv[++a], 1, 1000, repeats)) {
        std::fprintf(stderr, "bench_transpile: --repeats needs a count between 1 and 1000\n");
        return 2;
      }
    } else if (arg == "--write" && has_value) {
      write_path = argv[++a];
    } else {
      std::fprintf(stderr, "bench_transpile: bad argument '%s'\n%s", argv[a], kUsage);
      return 2;
    }
  }

  const agc::bench::GeneratedCode generated = agc::bench::generate_model_code(static_cast<size_t>(lines));
  const std::string& text = generated.text;
  const size_t n_lines = count_lines(text);

  if (!write_path.empty()) {
    std::ofstream f(write_path, std::ios::binary);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!f) {
      std::fprintf(stderr, "bench_transpile: cannot write '%s'\n", write_path.c_str());
      return 1;
    }
  }

  // One untimed run: the input must convert cleanly (and this warms up caches
  // such as the parsed quote() templates).
  std::string converted;
  {
    agc::DiagnosticSink sink;
    converted = full(text, sink);
    if (sink.has_errors() || !sink.diagnostics().empty()) {
      std::fprintf(stderr, "bench_transpile: the generated module does not convert cleanly:\n%s",
                   sink.render_all().c_str());
      return 1;
    }
  }

  const int n = static_cast<int>(repeats);
  const Timing ts = best_of(n, [&] { tree_sitter_parse(text); });
  const Timing parsed = best_of(n, [&] {
    agc::DiagnosticSink sink;
    agc::ast::Module m = parse(text, sink);
    g_sink = g_sink + sink.error_count();
  });
  const Timing converted_t = best_of(n, [&] {
    agc::DiagnosticSink sink;
    g_sink = g_sink + full(text, sink).size();
  });
  const double ts_ms = ts.wall_ms, parse_ms = parsed.wall_ms, full_ms = converted_t.wall_ms;

  const double mb = static_cast<double>(text.size()) / 1e6;
  auto row = [&](const char* name, const Timing& t) {
    fmt::print("  {:<36} {:>9.2f} {:>9.2f} {:>12} {:>7.2f}\n", name, t.wall_ms, t.cpu_ms,
               grouped(static_cast<double>(n_lines) / (t.wall_ms / 1e3)), mb / (t.wall_ms / 1e3));
  };
#if defined(__OPTIMIZE__)
  const char* build = "optimized";
#else
  const char* build = "NOT optimized: figures are meaningless, use --buildtype=release";
#endif
#if defined(__SANITIZE_ADDRESS__)
  build = "sanitizers on: figures are meaningless";
#endif
  fmt::print("transpile throughput (agc to-code), best of {} runs; build: {}\n", n, build);
  fmt::print("  input:  {} lines, {} bytes, {} generated definitions\n", n_lines, text.size(), generated.definitions);
  fmt::print("  output: {} lines, {} bytes of converted code\n\n", count_lines(converted), converted.size());
  fmt::print("  {:<36} {:>9} {:>9} {:>12} {:>7}\n", "phase", "wall ms", "cpu ms", "lines/s", "MB/s");
  row("tree-sitter parse (baseline)", ts);
  row("parse_module (parse + lowering)", parsed);
  row("to_code (parse + passes + print)", converted_t);
  fmt::print("\n  passes + print (to_code - parse_module): {:.2f} ms, {:.0f}% of to_code\n", full_ms - parse_ms,
             100.0 * (full_ms - parse_ms) / full_ms);
  fmt::print("  lowering (parse_module - tree-sitter):   {:.2f} ms\n", parse_ms - ts_ms);
  fmt::print("  ratio full/baseline:     {:.2f}x the time of tree-sitter parsing\n", full_ms / ts_ms);
  fmt::print("  ratio full/parse_module: {:.2f}x the time of parse_module\n", full_ms / parse_ms);
  const double lps = static_cast<double>(n_lines) / (full_ms / 1e3);
  fmt::print("  target >= 100,000 lines/s end to end: {} ({} lines/s)\n", lps >= 100'000 ? "met" : "NOT met",
             grouped(lps));
  return 0;
}

// agc graph: draws the graph a tf.function traces. Builds FILE.py as `agc run`
// does (the same cache), then runs the program in its graph mode
// (runtime/api/program_graph.h: `prog --graph=dot FUNC ARGS_JSON`), which
// traces FUNC and writes DOT or GraphDef text; SVG and PNG are that DOT laid
// out by Graphviz's `dot` program, run here, so the runtime knows no Graphviz.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>

#include "transpiler/cli/commands.h"
#include "transpiler/cli/toolchain.h"

namespace agc::cli {

namespace {

const char* kGraphHelp =
    "usage: agc graph [options] FILE.py FUNC [ARGS_JSON]\n"
    "\n"
    "Builds FILE.py (as 'agc run' does, through the same cache), runs its\n"
    "module-level code, traces FUNC on ARGS_JSON as FUNC.get_concrete_function()\n"
    "would, and draws the traced graph: a box per node with its name, op and\n"
    "output types (\"add (AddV2)\\nfloat32[3]\"), data edges solid, control edges\n"
    "dashed, If/While branches and bodies and called tf.functions as nested\n"
    "clusters under their node.\n"
    "\n"
    "FUNC is a module-level @tf.function, a Python function (traced as\n"
    "tf.function(FUNC) would trace it), an object whose __call__ is one, or a\n"
    "ConcreteFunction (then without ARGS_JSON). ARGS_JSON is one call's arguments,\n"
    "as for 'agc run': [{\"tensor\": [1, 2], \"dtype\": \"float32\"}, 3]; leave it out\n"
    "for a function with an input_signature. What the program prints (module\n"
    "code, print() while tracing) goes to stderr.\n"
    "\n"
    "Exit status: 0 when the graph is written; 1 when FILE.py does not build,\n"
    "module-level code raises, FUNC is not a module-level name or cannot be\n"
    "traced, ARGS_JSON is wrong, tracing raises (a Python traceback on stderr),\n"
    "or Graphviz is missing or fails; 2 on bad usage.\n"
    "\n"
    "options (anywhere on the line):\n"
    "  --format FORMAT            dot: Graphviz's DOT text (the default)\n"
    "                             svg, png: laid out by Graphviz's dot program\n"
    "                             ($AGC_DOT, else dot on PATH; Debian: apt-get install graphviz)\n"
    "                             pbtxt: TensorFlow's GraphDef in protobuf text format,\n"
    "                             which TensorBoard's graph view and Netron open\n"
    "                             (without --format: from OUT's extension, else dot)\n"
    "  -o, --output OUT           write the graph to OUT (default: stdout)\n"
    "  --optimized                the graph after agc's graph optimizer (constant\n"
    "                             folding, CSE, If lowering, fusion, ...): the one calls run\n";

int usage_error(const std::string& msg) {
  std::fprintf(stderr, "agc graph: error: %s\n(run 'agc graph --help' for usage)\n", msg.c_str());
  return 2;
}

/// The format OUT's extension names, or "".
std::string format_of_extension(const std::string& out) {
  size_t dot = out.find_last_of('.');
  if (dot == std::string::npos || out.find('/', dot) != std::string::npos) return {};
  std::string ext = out.substr(dot + 1);
  if (ext == "gv") return "dot";
  if (ext == "dot" || ext == "svg" || ext == "png" || ext == "pbtxt") return ext;
  return {};
}

/// Graphviz's layout program: $AGC_DOT, else `dot`; "" when it is not there.
std::string graphviz_program() {
  const char* env = std::getenv("AGC_DOT");
  std::string dot = env != nullptr && *env != '\0' ? env : "dot";
  if (dot.find('/') != std::string::npos) return ::access(dot.c_str(), X_OK) == 0 ? dot : std::string();
  return on_path(dot) ? dot : std::string();
}

/// Copies file `path` to stdout (an SVG or PNG drawn without -o).
bool copy_to_stdout(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::cout << in.rdbuf();
  std::cout.flush();
  return static_cast<bool>(std::cout);
}

}  // namespace

int run_graph(const std::vector<std::string>& args) {
  std::vector<std::string> positional;
  std::string format, output;
  bool optimized = false, have_output = false;
  BuildOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string error;
    auto value = [&](const std::string& flag, std::string& into) {
      if (a.size() > flag.size() && a.compare(0, flag.size() + 1, flag + "=") == 0) {
        into = a.substr(flag.size() + 1);
        return true;
      }
      if (a != flag) return false;
      if (i + 1 >= args.size()) {
        error = flag + " needs a value";
        return true;
      }
      into = args[++i];
      return true;
    };
    if (a == "-h" || a == "--help") {
      std::printf("%s%s%s  -h, --help                 show this help\n", kGraphHelp, kBuildOptionsHelp,
                  kConversionOptionsHelp);
      return 0;
    } else if (value("--format", format)) {
      if (!error.empty()) return usage_error(error);
    } else if (value("--output", output) || value("-o", output)) {
      if (!error.empty()) return usage_error(error);
      have_output = true;
    } else if (a == "--optimized") {
      optimized = true;
    } else if (parse_build_option(a, options, error)) {
      if (!error.empty()) return usage_error(error);
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("unknown option '" + a + "'");
    } else {
      positional.push_back(a);
    }
  }
  if (positional.empty()) return usage_error("missing FILE.py");
  if (positional.size() < 2) return usage_error("missing FUNC, the function to draw");
  if (positional.size() > 3) {
    return usage_error("one ARGS_JSON at most: agc graph draws one trace (got " + std::to_string(positional.size() - 2) +
                       ")");
  }
  if (have_output && output.empty()) return usage_error("-o needs a file name");
  if (format.empty()) format = format_of_extension(output);
  if (format.empty()) format = "dot";
  if (format != "dot" && format != "svg" && format != "png" && format != "pbtxt") {
    return usage_error("unknown --format '" + format + "' (dot, svg, png or pbtxt)");
  }
  // Before the build, which takes seconds: a drawing needs Graphviz.
  std::string graphviz;
  const bool laid_out = format == "svg" || format == "png";
  if (laid_out) {
    graphviz = graphviz_program();
    if (graphviz.empty()) {
      const char* env = std::getenv("AGC_DOT");
      std::fprintf(stderr,
                   "agc graph: error: --format %s needs Graphviz's dot program, which %s\n"
                   "  install Graphviz (Debian: apt-get install graphviz), or write DOT with --format dot\n",
                   format.c_str(),
                   env != nullptr && *env != '\0' ? ("AGC_DOT names but is not there: '" + std::string(env) + "'").c_str()
                                                  : "is not on PATH");
      return 1;
    }
  }

  const std::string& path = positional[0];
  std::string program = cached_program(path, options);
  const bool verbose = options.verbose;
  if (program.empty()) return 1;

  // The program writes DOT or GraphDef text; for SVG and PNG, DOT to a
  // scratch file that Graphviz then lays out.
  std::optional<WorkDir> work;
  std::string dot_file;
  if (laid_out) {
    work.emplace();
    if (work->path().empty()) {
      std::fprintf(stderr, "agc graph: error: cannot create a scratch directory: %s\n", std::strerror(errno));
      return 1;
    }
    dot_file = work->path() + "/graph.dot";
  }
  // argv[0] is the name the program's errors go by.
  std::vector<std::string> argv = {"agc graph", std::string("--graph=") + (laid_out ? "dot" : format)};
  if (optimized) argv.push_back("--optimized");
  if (laid_out || have_output) argv.insert(argv.end(), {"--graph-output", laid_out ? dot_file : output});
  argv.insert(argv.end(), positional.begin() + 1, positional.end());
  int status = run_program(program, argv);
  if (status != 0) return status < 0 ? 1 : status;
  if (!laid_out) return 0;

  const std::string drawn = have_output ? output : work->path() + "/graph." + format;
  std::vector<std::string> dot_cmd = {graphviz, "-T" + format, dot_file, "-o", drawn};
  if (verbose) std::fprintf(stderr, "agc: %s\n", shell_quote(dot_cmd).c_str());
  ToolResult r = run_tool(dot_cmd);
  if (r.status != 0) {
    std::fputs(r.output.c_str(), stderr);
    std::fprintf(stderr, "agc graph: error: Graphviz failed%s: %s\n",
                 r.status > 0 ? (" (exit status " + std::to_string(r.status) + ")").c_str() : "",
                 shell_quote(dot_cmd).c_str());
    return 1;
  }
  if (verbose) std::fputs(r.output.c_str(), stderr);
  if (!have_output && !copy_to_stdout(drawn)) {
    std::fprintf(stderr, "agc graph: error: cannot write the %s to stdout\n", format.c_str());
    return 1;
  }
  return 0;
}

}  // namespace agc::cli

// agc: AutoGraph-style Python → C++ transpiler. Dispatches to subcommands.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "transpiler/base/big_stack.h"
#include "transpiler/base/check.h"
#include "transpiler/cli/commands.h"

namespace {

const char* kUsage =
    "usage: agc <command> [options]\n"
    "\n"
    "Converts Python functions written in the TensorFlow 2 style (@tf.function,\n"
    "tf.* ops, Python if/for/while over tensors) the way TensorFlow's AutoGraph does.\n"
    "\n"
    "commands:\n"
    "  to-code FILE.py     print the AutoGraph-converted code of the file's functions,\n"
    "                      exactly as tf.autograph.to_code shows it\n"
    "  explain FILE.py     say what AutoGraph's rules make of each if/while/for before\n"
    "                      anything runs: staged or Python, and why (to-code --report)\n"
    "  emit-cpp FILE.py -o DIR\n"
    "                      write the file as C++ (DIR/<stem>.h and DIR/<stem>.cpp)\n"
    "  build FILE.py -o OUT [--lib]\n"
    "                      compile it into a program (or a static library)\n"
    "  run FILE.py [FUNC ARGS_JSON... [--results OUT.jsonl]]\n"
    "                      build (cached) and run it, then call FUNC on each ARGS_JSON\n"
    "  graph FILE.py FUNC [ARGS_JSON] [--format dot|svg|png|pbtxt] [-o OUT] [--optimized]\n"
    "                      draw the graph FUNC traces on ARGS_JSON (svg/png need Graphviz)\n"
    "  saved-model show DIR\n"
    "                      print a SavedModel's signatures and functions\n"
    "                      (as saved_model_cli show --all)\n"
    "\n"
    "Run 'agc <command> --help' for the options of a command.\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::puts("agc 0.1.0");
    return 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "to-code") return agc::run_on_big_stack([&] { return agc::cli::run_to_code(args); });
    if (command == "explain") return agc::run_on_big_stack([&] { return agc::cli::run_explain(args); });
    if (command == "emit-cpp") return agc::run_on_big_stack([&] { return agc::cli::run_emit_cpp(args); });
    if (command == "build") return agc::run_on_big_stack([&] { return agc::cli::run_build(args); });
    if (command == "run") return agc::run_on_big_stack([&] { return agc::cli::run_run(args); });
    if (command == "graph") return agc::run_on_big_stack([&] { return agc::cli::run_graph(args); });
    if (command == "saved-model" || command == "convert" || command == "serve") {
      return agc::cli::run_model_tool(command, args);
    }
  } catch (const agc::InternalError& e) {
    std::fprintf(stderr, "agc: %s\n", e.what());
    return 3;
  } catch (const std::bad_alloc&) {
    std::fputs("agc: error: out of memory\n", stderr);
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "agc: internal error (this is a bug in agc): %s\n", e.what());
    return 3;
  }
  std::fprintf(stderr, "agc: error: unknown command '%s'\n\n%s", command.c_str(), kUsage);
  return 2;
}

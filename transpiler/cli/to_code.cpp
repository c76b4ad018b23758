// agc to-code: prints converted functions as tf.autograph.to_code would.
#include <cstdio>
#include <memory>
#include <sstream>

#include "transpiler/ast/python_printer.h"
#include "transpiler/cli/commands.h"
#include "transpiler/emit/to_code.h"
#include "transpiler/passes/convert_module.h"
#include "transpiler/passes/pipeline.h"
#include "transpiler/report/conversion_report.h"

namespace agc::cli {

namespace {

const char* kToCodeHelp =
    "usage: agc to-code FILE.py [options]\n"
    "\n"
    "Prints the AutoGraph-converted code of every function in FILE.py (module-level\n"
    "functions and methods of module-level classes), each as\n"
    "print(tf.autograph.to_code(f)) prints it.\n"
    "\n"
    "options:\n"
    "  --function NAME            print only NAME (a function, or Class.method);\n"
    "                             repeat to print several\n"
    "  --autograph-compat         turn off agc's list conversion (append/pop and item\n"
    "                             assignment in loops), so that any input prints exactly\n"
    "                             as TensorFlow prints it\n"
    "  --optional-features=LIST   AutoGraph optional features, comma-separated:\n"
    "                             ASSERT_STATEMENTS, BUILTIN_FUNCTIONS, EQUALITY_OPERATORS\n"
    "                             (as tf.function(experimental_autograph_options=...))\n"
    "  --dump-after=PASS|all      after the named pass (or every pass), print the\n"
    "                             function to stderr when the pass changed it\n"
    "  --report                   print the conversion report instead of the code\n"
    "                             (agc explain)\n"
    "  -h, --help                 show this help\n"
    "\n"
    "Exit status: 0 on success, 1 if FILE.py has errors (reported on stderr as\n"
    "file:line:col; the functions that do convert are still printed when the\n"
    "errors are in others), 2 on bad command-line usage.\n";

const char* kExplainHelp =
    "usage: agc explain FILE.py [options]\n"
    "\n"
    "Prints, before anything runs, what AutoGraph's rules make of every function\n"
    "in FILE.py and of each if, while and for in it: staged (tf.cond,\n"
    "tf.while_loop, a tf.data loop) or run as Python (a loop then unrolls at trace\n"
    "time), what decides it (a Tensor, a Python value, the caller's argument),\n"
    "the variables it carries, and what TensorFlow raises where a rule is broken.\n"
    "The same as 'agc to-code FILE.py --report'.\n"
    "\n"
    "options:\n"
    "  --function NAME            explain only NAME (a function, or Class.method);\n"
    "                             repeat to explain several\n"
    "  --autograph-compat         explain the conversion without agc's list\n"
    "                             conversion, as TensorFlow converts\n"
    "  --optional-features=LIST   AutoGraph optional features, comma-separated\n"
    "  -h, --help                 show this help\n"
    "\n"
    "Exit status: 0 on success, 1 if FILE.py has errors (reported on stderr; the\n"
    "functions that do convert are still explained), 2 on bad command-line usage.\n";

bool split_option(const std::string& arg, const std::string& name, std::string& value) {
  if (arg.rfind(name + "=", 0) != 0) return false;
  value = arg.substr(name.size() + 1);
  return true;
}

/// to-code, or with `report` its conversion report (agc explain, whose
/// usage `command` names).
int to_code(const std::vector<std::string>& args, bool report, const char* command) {
  std::string path;
  passes::ModuleRequest request;
  std::string dump_after;
  const bool explain = std::string(command) == "explain";
  auto usage_error = [command](const std::string& msg) {
    std::fprintf(stderr, "agc %s: error: %s\n(run 'agc %s --help' for usage)\n", command, msg.c_str(), command);
    return 2;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string value;
    if (a == "-h" || a == "--help") {
      std::fputs(explain ? kExplainHelp : kToCodeHelp, stdout);
      return 0;
    } else if (a == "--report" && !explain) {
      report = true;
    } else if (a == "--function") {
      if (i + 1 >= args.size()) return usage_error("--function needs a NAME");
      request.functions.push_back(args[++i]);
    } else if (split_option(a, "--function", value)) {
      request.functions.push_back(value);
    } else if (a == "--autograph-compat") {
      request.options.lists = false;
    } else if (split_option(a, "--optional-features", value)) {
      std::stringstream ss(value);
      std::string f;
      while (std::getline(ss, f, ',')) {
        if (f.empty()) continue;
        bool known = false;
        for (const auto& s : passes::supported_optional_features()) known = known || s == f;
        if (!known) return usage_error("unknown optional feature '" + f + "'");
        request.options.optional_features.insert(f);
      }
    } else if (split_option(a, "--dump-after", value) && !explain) {
      dump_after = value;
    } else if (!a.empty() && a[0] == '-' && a != "-") {
      return usage_error("unknown option '" + a + "'");
    } else if (path.empty()) {
      path = a;
    } else {
      return usage_error("more than one input file ('" + path + "' and '" + a + "')");
    }
  }
  if (path.empty()) return usage_error("missing FILE.py");
  if (!dump_after.empty()) {
    bool known = dump_after == "all";
    for (const auto& p : passes::pipeline(request.options)) known = known || dump_after == p.name;
    if (!known) return usage_error("--dump-after: unknown pass '" + dump_after + "'");
    request.observer = [dump_after](const char* pass, const ast::Ref& fn) {
      if (dump_after != "all" && dump_after != pass) return;
      std::string text = ast::to_source(fn);
      std::fprintf(stderr, "# ---- after %s\n%s\n\n", pass, text.c_str());
    };
  }
  std::string text;
  if (!read_source_file(path, text)) return 1;
  auto file = std::make_shared<SourceFile>(path, std::move(text));
  if (report) report::request_report(request);
  passes::ConvertedModule cm = passes::convert_file(file, request);
  // Every function that converts is printed; one agc cannot convert is
  // diagnosed, as tf.autograph.to_code raises for it alone.
  if (!cm.has_errors()) {
    std::string out = report ? report::conversion_report(cm) : emit::to_code(cm);
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  DiagnosticSink all = cm.all_diagnostics();
  if (all.has_errors()) {
    std::fputs(all.render_all().c_str(), stderr);
    return 1;
  }
  return 0;
}

}  // namespace

int run_to_code(const std::vector<std::string>& args) { return to_code(args, false, "to-code"); }
int run_explain(const std::vector<std::string>& args) { return to_code(args, true, "explain"); }

}  // namespace agc::cli

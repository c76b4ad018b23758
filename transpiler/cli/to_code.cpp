// agc to-code: prints converted functions as tf.autograph.to_code would.
#include <cstdio>
#include <memory>
#include <sstream>

#include "transpiler/ast/python_printer.h"
#include "transpiler/cli/commands.h"
#include "transpiler/emit/to_code.h"
#include "transpiler/passes/convert_module.h"
#include "transpiler/passes/pipeline.h"

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
    "  -h, --help                 show this help\n"
    "\n"
    "Exit status: 0 on success, 1 if FILE.py has errors (reported on stderr as\n"
    "file:line:col; the functions that do convert are still printed when the\n"
    "errors are in others), 2 on bad command-line usage.\n";

bool split_option(const std::string& arg, const std::string& name, std::string& value) {
  if (arg.rfind(name + "=", 0) != 0) return false;
  value = arg.substr(name.size() + 1);
  return true;
}

}  // namespace

int run_to_code(const std::vector<std::string>& args) {
  std::string path;
  passes::ModuleRequest request;
  std::string dump_after;
  auto usage_error = [](const std::string& msg) {
    std::fprintf(stderr, "agc to-code: error: %s\n(run 'agc to-code --help' for usage)\n", msg.c_str());
    return 2;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string value;
    if (a == "-h" || a == "--help") {
      std::fputs(kToCodeHelp, stdout);
      return 0;
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
    } else if (split_option(a, "--dump-after", value)) {
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
  passes::ConvertedModule cm = passes::convert_file(file, request);
  // Every function that converts is printed; one agc cannot convert is
  // diagnosed, as tf.autograph.to_code raises for it alone.
  if (!cm.has_errors()) {
    std::string out = emit::to_code(cm);
    std::fwrite(out.data(), 1, out.size(), stdout);
  }
  DiagnosticSink all = cm.all_diagnostics();
  if (all.has_errors()) {
    std::fputs(all.render_all().c_str(), stderr);
    return 1;
  }
  return 0;
}

}  // namespace agc::cli

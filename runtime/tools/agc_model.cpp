// agc-model: the commands of `agc` that work on saved models rather than
// Python source (the transpiler cannot link the runtime, so `agc` runs this
// program for them): `saved-model show`, and the TPU converter and server
// as they land. Errors print as "agc: error: <TF's class>: <message>" with
// exit status 1; usage mistakes exit with status 2.
#include <cstdio>
#include <string>
#include <vector>

#include "runtime/api/saved_model.h"
#include "runtime/core/error.h"

namespace {

const char* kUsage =
    "usage: agc saved-model show DIR\n"
    "       agc saved-model show --dir DIR [--all]\n"
    "                      print a SavedModel's signatures and concrete functions,\n"
    "                      as `saved_model_cli show --all` does\n";

int usage_error(const std::string& why) {
  std::fprintf(stderr, "agc: error: %s\n\n%s", why.c_str(), kUsage);
  return 2;
}

int saved_model(const std::vector<std::string>& args) {
  if (args.empty() || args[0] != "show") return usage_error("saved-model takes the subcommand 'show'");
  std::string dir;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--all") continue;
    if (a == "--dir") {
      if (i + 1 >= args.size()) return usage_error("--dir needs a directory");
      dir = args[++i];
    } else if (a.rfind("--dir=", 0) == 0) {
      dir = a.substr(6);
    } else if (a.rfind("--", 0) == 0) {
      return usage_error("unknown option '" + a + "'");
    } else if (dir.empty()) {
      dir = a;
    } else {
      return usage_error("more than one directory given ('" + dir + "' and '" + a + "')");
    }
  }
  if (dir.empty()) return usage_error("saved-model show needs a SavedModel directory");
  std::string text = ag::saved_model_show_all(dir);
  // saved_model_cli ends "Concrete Functions:" without a newline when there are none.
  if (text.empty() || text.back() != '\n') text += '\n';
  std::fputs(text.c_str(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "saved-model") return saved_model(args);
  } catch (const ag::Error& e) {
    std::fprintf(stderr, "agc: error: %s: %s\n", e.type_name(), e.what());
    return 1;
  }
  return usage_error("unknown command '" + command + "'");
}

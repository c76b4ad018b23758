// `agc saved-model`, `agc convert`, `agc serve`: commands on saved models,
// which need the runtime (protobuf, the graph, the executor) that the
// transpiler does not link. They are the runtime's agc-model program
// (runtime/tools/agc_model.cpp), run in this process's place: AGC_MODEL_TOOL
// names it; else AGC_RUNTIME_DIR/bin/agc-model for a runtime put there;
// else an installed agc's (PREFIX/<libexecdir>/agc-model); else the one this
// build made.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "agc_config.h"
#include "transpiler/cli/commands.h"
#include "transpiler/cli/toolchain.h"

namespace agc::cli {

int run_model_tool(const std::string& command, const std::vector<std::string>& args) {
  std::string tool = AGC_MODEL_TOOL;
  if (const char* t = std::getenv("AGC_MODEL_TOOL"); t != nullptr && *t != '\0') {
    tool = t;
  } else if (const char* rt = std::getenv("AGC_RUNTIME_DIR"); rt != nullptr && *rt != '\0') {
    tool = std::string(rt) + "/bin/agc-model";
  } else if (std::optional<Installation> installed = installation()) {
    tool = installed->model_tool;
  }
  std::vector<std::string> all{tool, command};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  ::execv(tool.c_str(), argv.data());
  std::fprintf(stderr, "agc: error: cannot run %s (needed for 'agc %s'): %s\n", tool.c_str(), command.c_str(),
               std::strerror(errno));
  return 2;
}

}  // namespace agc::cli

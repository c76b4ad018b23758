#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

#include "transpiler/cli/commands.h"

namespace agc::cli {

bool read_source_file(const std::string& path, std::string& out) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    std::fprintf(stderr, "agc: error: cannot read '%s': %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    std::fprintf(stderr, "agc: error: '%s' is a directory, not a Python file\n", path.c_str());
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "agc: error: cannot read '%s': %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    std::fprintf(stderr, "agc: error: cannot read '%s'\n", path.c_str());
    return false;
  }
  out = ss.str();
  return true;
}

}  // namespace agc::cli

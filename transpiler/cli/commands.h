// The agc subcommands. Each takes its arguments (after the subcommand name) and
// returns the process exit status: 0 success, 1 diagnostics, 2 usage errors.
#pragma once

#include <string>
#include <vector>

namespace agc::cli {

int run_to_code(const std::vector<std::string>& args);

/// Reads a whole file; on failure prints `agc: error: ...` and returns false.
bool read_source_file(const std::string& path, std::string& out);

}  // namespace agc::cli

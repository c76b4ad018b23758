#include "tests/fuzz/libfuzzer/fuzz_target.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <unistd.h>

namespace ag::fuzz {
namespace {

const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    // Memory-backed when it can be: rewriting a file on ext4 flushes it to
    // disk (auto_da_alloc), a quarter of a file target's time.
    const char* tmp = std::getenv("TMPDIR");
    std::filesystem::path base = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : tmp && *tmp ? tmp : "/tmp";
    std::filesystem::path d = base / ("agc-fuzz-" + std::to_string(::getpid()));
    std::error_code ec;
    std::filesystem::create_directories(d, ec);
    if (ec) fail("cannot create the scratch directory " + d.string() + ": " + ec.message());
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(scratch_dir(), ignored);
    });
    return d;
  }();
  return dir;
}

}  // namespace

void fail(const std::string& what) {
  std::fprintf(stderr, "\nfuzz target failure: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

bool tracing() {
  static const bool on = std::getenv("AGC_FUZZ_TRACE") != nullptr;
  return on;
}

void check_error(const Error& e, std::string_view context) {
  std::string_view message = e.what();
  if (tracing()) std::fprintf(stderr, "%.*s: %s: %s\n", static_cast<int>(context.size()), context.data(), e.type_name(), e.what());
  if (message.find_first_not_of(" \t\n") == std::string_view::npos) {
    fail(std::string(context) + ": " + e.type_name() + " with an empty message");
  }
}

std::string scratch_path(std::string_view name) { return (scratch_dir() / std::string(name)).string(); }

void write_file(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out.flush()) fail("cannot write the scratch file " + path);
}

}  // namespace ag::fuzz

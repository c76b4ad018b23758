#include "tests/unit/layering/layering.h"

#include <doctest/doctest.h>

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using agc::layering::check;
using agc::layering::parse_rules;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

/// A throwaway source tree.
struct Tree {
  fs::path root = fs::temp_directory_path() / ("agc-layering-" + std::to_string(::getpid()));
  Tree() { fs::remove_all(root); }
  ~Tree() { fs::remove_all(root); }
  void write(const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text;
  }
};

const char* kRules =
    "Layer order of rt: low < mid < high\n"
    "Layer order of tr: front < back\n"
    "The tr includes from the rt only: *.def\n";

}  // namespace

TEST_CASE("the source tree follows the layer order docs/architecture.md states") {
  fs::path root = AGC_SOURCE_ROOT;
  auto rules = parse_rules(read(root / "docs" / "architecture.md"));
  REQUIRE(rules.orders.size() == 2);
  CHECK(joined(check(root, rules)) == "");
}

TEST_CASE("a file including a later layer, an unplaced directory and a cycle are each reported") {
  Tree t;
  t.write("rt/low/a.h", "#include \"rt/mid/b.h\"\n");
  t.write("rt/mid/b.h", "#include \"rt/low/c.h\"\n");
  t.write("rt/low/c.h", "#include \"rt/low/a.h\"\n#include <vector>\n#include \"agc_config.h\"\n");
  t.write("rt/high/ok.cpp", "#include \"rt/low/c.h\"\n#include \"rt/mid/b.h\"\n");
  t.write("rt/extra/x.h", "");
  t.write("tr/back/e.cpp", "#include \"rt/low/t.def\"\n#include \"rt/low/c.h\"\n#include \"tr/front/f.h\"\n");
  t.write("tr/front/f.h", "");
  auto problems = check(t.root, parse_rules(kRules));
  CHECK(joined(problems) ==
        "rt/extra/: a directory missing from the layer order of rt\n"
        "rt/extra/x.h: outside every layer of rt\n"
        "rt/low/a.h: includes rt/mid/b.h (layer mid comes after low)\n"
        "tr/back/e.cpp: includes rt/low/c.h, which tr may not include\n"
        "include cycle: rt/low/c.h -> rt/low/a.h -> rt/mid/b.h -> rt/low/c.h\n");
}

TEST_CASE("an architecture document without a layer order is an error, not a pass") {
  CHECK_THROWS_WITH(parse_rules("# Architecture\nno order here\n"),
                    "architecture.md states no 'Layer order of ...' line");
}

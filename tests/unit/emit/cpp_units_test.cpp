// A module's C++ cut into translation units for a parallel build.
#include <doctest/doctest.h>

#include <string>

#include "transpiler/emit/cpp_emitter.h"

using namespace agc::emit;

namespace {

CppOutput module_with(size_t definitions, size_t size_each) {
  CppOutput out;
  CppOutput::Parts& p = out.parts;
  p.head = "HEAD\n";
  p.data = "DATA\n";
  for (size_t i = 0; i < definitions; ++i) {
    std::string name = "f" + std::to_string(i);
    p.definitions.push_back(name + "{" + std::string(size_each, '.') + "}\n");
    p.declarations.push_back(name + ";\n");
  }
  p.run = "RUN\n";
  p.close = "CLOSE\n";
  p.rest = "MAIN\n";
  return out;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("one unit is the module's one source") {
  CppOutput out = module_with(3, 10);
  CHECK(out.source() == "HEAD\nDATA\nf0{..........}\nf1{..........}\nf2{..........}\nRUN\nCLOSE\nMAIN\n");
  CHECK(out.source_size() == out.source().size());
  CHECK(translation_units(out, 1) == std::vector<std::string>{out.source()});
  CHECK(translation_units(module_with(0, 0), 4) == std::vector<std::string>{"HEAD\nDATA\nRUN\nCLOSE\nMAIN\n"});
}

TEST_CASE("definitions are dealt out in order; each unit declares them all, the first holds the data, run and main") {
  CppOutput out = module_with(6, 100);
  std::vector<std::string> units = translation_units(out, 3);
  REQUIRE(units.size() == 3);
  const std::string all = "HEAD\nf0;\nf1;\nf2;\nf3;\nf4;\nf5;\n\n";
  CHECK(units[0] == all + "DATA\nf0{" + std::string(100, '.') + "}\nf1{" + std::string(100, '.') +
                        "}\nRUN\nCLOSE\nMAIN\n");
  CHECK(units[1] == all + "f2{" + std::string(100, '.') + "}\nf3{" + std::string(100, '.') + "}\nCLOSE\n");
  CHECK(has(units[2], "f4{"));
  CHECK(has(units[2], "f5{"));
  CHECK_FALSE(has(units[2], "DATA"));
  CHECK_FALSE(has(units[2], "RUN"));
}

TEST_CASE("never more units than definitions, plus the first") {
  std::vector<std::string> units = translation_units(module_with(2, 100), 8);
  CHECK(units.size() <= 3);
  size_t defined = 0;
  for (const std::string& u : units) defined += has(u, "f0{") + has(u, "f1{");
  CHECK(defined == 2);
}

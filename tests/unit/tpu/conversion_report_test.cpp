#include <doctest/doctest.h>

#include "runtime/tpu/conversion_report.h"

using namespace ag::tpu;

TEST_CASE("the report of the seed's two TPU functions, character for character") {
  CHECK(conversion_report(70, {{"tpu_func_1", 1017}, {"tpu_func_2", 1017}}) ==
        "-------- Conversion Report --------\n"
        "TPU cost of the model: 96.67% (2034/2104)\n"
        "CPU cost of the model:  3.33% (70/2104)\n"
        "\n"
        "Cost breakdown\n"
        "================================\n"
        "%         Cost    Name\n"
        "--------------------------------\n"
        "3.33      70      [CPU cost]\n"
        "48.34     1017    tpu_func_1\n"
        "48.34     1017    tpu_func_2\n"
        "--------------------------------\n");
}

TEST_CASE("everything on the TPU, nothing at all, and values wider than their column") {
  std::string all = conversion_report(0, {{"tpu_func", 5}});
  CHECK(all.find("TPU cost of the model: 100.00% (5/5)\n") != std::string::npos);
  CHECK(all.find("CPU cost of the model:  0.00% (0/5)\n") != std::string::npos);
  CHECK(all.find("\n0.00      0       [CPU cost]\n100.00    5       tpu_func\n") != std::string::npos);
  std::string none = conversion_report(0, {});
  CHECK(none.find("TPU cost of the model:  0.00% (0/0)\n") != std::string::npos);
  CHECK(none.find("\n0.00      0       [CPU cost]\n---") != std::string::npos);
  std::string wide = conversion_report(1, {{"big", 123456789}});
  CHECK(wide.find("\n100.00    123456789 big\n") != std::string::npos);
}

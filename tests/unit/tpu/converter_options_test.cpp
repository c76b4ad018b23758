#include <doctest/doctest.h>

#include "runtime/core/error.h"
#include "runtime/tpu/converter_options.h"

using namespace ag;
using namespace ag::tpu;

TEST_CASE("the seed's option strings parse, backslash-newlines included (B2)") {
  ConverterOptions a = parse_converter_options(R"( \
    tpu_functions { \
      function_alias: "tpu_func" \
    } \
    batch_options { \
      num_batch_threads: 2 \
      max_batch_size: 8 \
      batch_timeout_micros: 5000 \
      allowed_batch_sizes: 2 \
      allowed_batch_sizes: 4 \
      allowed_batch_sizes: 8 \
      max_enqueued_batches: 10 \
    } \
    external_feature_configs { \
      quantization_options { \
        signature_keys: "serving_default" \
        representative_datasets: { \
          key: "serving_default" \
          value: { \
            tfrecord_file_path: "/tmp/data.tfrecord" \
          } \
        } \
      } \
    } )");
  REQUIRE(a.tpu_functions_size() == 1);
  CHECK(a.tpu_functions(0).function_alias() == "tpu_func");
  CHECK(a.batch_options(0).allowed_batch_sizes_size() == 3);
  CHECK(a.batch_options(0).max_enqueued_batches() == 10);
  const auto& q = a.external_feature_configs().quantization_options();
  CHECK(q.representative_datasets().at("serving_default").tfrecord_file_path() == "/tmp/data.tfrecord");

  // List syntax, enums by name or number, Python-style bools, `name: {`.
  ConverterOptions b = parse_converter_options(
      "tpu_functions: { jit_compile_functions: True }\n"
      "batch_options { allowed_batch_sizes: [2, 4, 8] disable_large_batch_splitting: t }\n"
      "bfloat16_optimization: 2  # DISABLED\n"
      "io_shape_optimization: ENABLED\n"
      "bfloat16_optimization_options { scope: ALL filterlist: \"Softmax\" }\n");
  CHECK(b.tpu_functions(0).jit_compile_functions());
  CHECK(b.batch_options(0).allowed_batch_sizes(2) == 8);
  CHECK(b.batch_options(0).disable_large_batch_splitting());
  CHECK(b.bfloat16_optimization() == ConverterOptions::DISABLED);
  CHECK(b.bfloat16_optimization_options().scope() == BFloat16OptimizationOptions::ALL);

  // B3: an empty string is valid, with nothing selected.
  CHECK(parse_converter_options("").tpu_functions_size() == 0);
}

// Positions are protobuf's (where its tokenizer stands when it finds the
// error), 1-based.
TEST_CASE("parse errors in protobuf's words with line and column (B1)") {
  auto error = [](const char* text) {
    try {
      parse_converter_options(text);
    } catch (const InvalidArgumentError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(error("tpu_functions { function_alias: \"f\" }\nfoo: 1") ==
        "Failed to parse converter_options_string: 2:4: Message type \"ConverterOptions\" has no field named \"foo\".");
  CHECK(error("bfloat16_optimization: SOMETIMES") ==
        "Failed to parse converter_options_string: 1:33: Unknown enumeration value of \"SOMETIMES\" for field "
        "\"bfloat16_optimization\".");
  CHECK(error("tpu_functions {\n  function_alias: \"a\"\n  concrete_function_name: \"b\"\n}") ==
        "Failed to parse converter_options_string: 3:25: Field \"concrete_function_name\" is specified along with "
        "field \"function_alias\", another member of oneof \"name\".");
  CHECK(error("disable_default_optimizations=True") ==
        "Failed to parse converter_options_string: 1:30: Expected \":\", found \"=\".");
}

TEST_CASE("checks of the options themselves (B7) and the effective state of an optimization") {
  CHECK_THROWS_WITH_AS(check_converter_options(parse_converter_options("batch_options {} batch_options {}")),
                       "Only one batch_options entry is supported", UnimplementedError);
  CHECK_THROWS_WITH_AS(check_converter_options(parse_converter_options("xla_sharding_options { num_cores_per_replica: 0 }")),
                       "num_cores_per_replica must be >= 1", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(check_converter_options(parse_converter_options("xla_sharding_options { num_cores_per_replica: 2 }")),
                       "topology is required when num_cores_per_replica > 1", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(check_converter_options(parse_converter_options(
                           "xla_sharding_options { num_cores_per_replica: 1 device_assignment: [0, 0, 0] }")),
                       "device_assignment must have 4 entries per core", InvalidArgumentError);
  check_converter_options(parse_converter_options(
      "xla_sharding_options { num_cores_per_replica: 2 topology: \"x\" device_assignment: [0,0,0,0,0,0,0,1] }"));

  ConverterOptions off = parse_converter_options("disable_default_optimizations: true io_shape_optimization: ENABLED");
  CHECK(!optimization_enabled(off.bfloat16_optimization(), off));   // DEFAULT, turned off globally
  CHECK(optimization_enabled(off.io_shape_optimization(), off));    // explicit ENABLED wins
  ConverterOptions on = parse_converter_options("");
  CHECK(optimization_enabled(on.bfloat16_optimization(), on));
  CHECK(!optimization_enabled(ConverterOptions::DISABLED, on));
}

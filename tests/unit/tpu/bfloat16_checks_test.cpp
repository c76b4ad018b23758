// The bfloat16 optimization's conversion checks (B34, B35) on a model
// written by hand: A (on the TPU) casts to bfloat16; C (on the CPU) adds.
#include <doctest/doctest.h>

#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/tpu/bfloat16_checks.h"
#include "runtime/tpu/converter_options.h"
#include "tests/unit/error_text.h"

using namespace ag;
using namespace ag::tpu;
using ag::test::error_text;

namespace {

tensorflow::MetaGraphDef bf16_model() {
  tensorflow::MetaGraphDef m;
  auto* a = m.mutable_graph_def()->mutable_library()->add_function();
  a->mutable_signature()->set_name("A");
  auto* cast = a->add_node_def();
  cast->set_name("Cast");
  cast->set_op("Cast");
  (*cast->mutable_attr())["DstT"].set_type(tensorflow::DT_BFLOAT16);
  auto* c = m.mutable_graph_def()->mutable_library()->add_function();
  c->mutable_signature()->set_name("C");
  auto* add = c->add_node_def();
  add->set_name("add");
  add->set_op("AddV2");
  (*add->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
  return m;
}

std::vector<std::string> check(const tensorflow::MetaGraphDef& m, const std::string& text) {
  ConverterOptions options = parse_converter_options(text);
  ModelFunctions f(m);
  return check_bfloat16(options, f, bfloat16_scope(options, f, {"A"}, m));
}

}  // namespace

TEST_CASE("B35: a TPU scope with bfloat16 ops already fails unless skip_safety_checks") {
  tensorflow::MetaGraphDef m = bf16_model();
  CHECK(error_text([&] { check(m, ""); }) ==
        "FailedPreconditionError: bfloat16 optimization: the model already contains bfloat16 ops (Cast); set "
        "skip_safety_checks to proceed");
  CHECK(check(m, "bfloat16_optimization_options { skip_safety_checks: true }").empty());
}

TEST_CASE("B34: filterlist names no op of the scope has are warned about; scope ALL takes the CPU functions too") {
  tensorflow::MetaGraphDef m = bf16_model();
  auto w = check(m, "bfloat16_optimization_options { skip_safety_checks: true filterlist: 'Cast' filterlist: 'AddV2' }");
  REQUIRE(w.size() == 1);
  CHECK(w[0] == "bfloat16_optimization_options.filterlist: no op of type 'AddV2' is in the optimized functions; ignored");
  CHECK(check(m, "bfloat16_optimization_options { scope: ALL skip_safety_checks: true filterlist: 'AddV2' }").empty());
}

// TPU function selection (B3-B6), the indirect-call check (B8) and placement
// (B9) on a MetaGraphDef written by hand: W (the serving signature's
// function) calls A; A calls B directly and C through H.
#include <doctest/doctest.h>

#include "runtime/core/error.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/tpu/converter_options.h"
#include "runtime/tpu/model_functions.h"
#include "runtime/tpu/placement.h"
#include "runtime/tpu/tpu_selection.h"
#include "tests/unit/error_text.h"
#include "tests/unit/tpu/support.h"

using namespace ag;
using namespace ag::tpu;
using ag::test::add_function;
using ag::test::error_text;

namespace {

void add_call(tensorflow::FunctionDef* f, const std::string& node, const std::string& callee) {
  tensorflow::NodeDef* nd = f->add_node_def();
  nd->set_name(node);
  nd->set_op("StatefulPartitionedCall");
  nd->add_input("x");
  nd->add_input("^other");
  (*nd->mutable_attr())["f"].mutable_func()->set_name(callee);
  (*nd->mutable_attr())["config_proto"].set_s("");
}

tensorflow::MetaGraphDef model() {
  tensorflow::MetaGraphDef m;
  add_call(add_function(m, "W"), "call", "A");
  tensorflow::FunctionDef* a = add_function(m, "A");
  add_call(a, "to_b", "B");
  add_call(a, "to_h", "H");
  add_call(add_function(m, "H"), "to_c", "C");
  add_function(m, "B");
  add_function(m, "C");
  auto& aliases = *m.mutable_meta_info_def()->mutable_function_aliases();
  aliases["A"] = "a";
  aliases["B"] = "b";
  aliases["C"] = "c";
  tensorflow::NodeDef* entry = m.mutable_graph_def()->add_node();
  entry->set_name("StatefulPartitionedCall");
  entry->set_op("StatefulPartitionedCall");
  entry->add_input("serving_default_x");
  (*entry->mutable_attr())["f"].mutable_func()->set_name("W");
  (*(*m.mutable_signature_def())["serving_default"].mutable_outputs())["output_0"].set_name("StatefulPartitionedCall:0");
  return m;
}

std::vector<TpuSelection> select(const tensorflow::MetaGraphDef& m, const std::string& options) {
  ModelFunctions f(m);
  auto s = select_tpu_functions(parse_converter_options(options), f);
  check_indirect_calls(s, f);
  return s;
}

const tensorflow::FunctionDef& function(const tensorflow::MetaGraphDef& m, const std::string& name) {
  for (const auto& f : m.graph_def().library().function()) {
    if (f.signature().name() == name) return f;
  }
  throw std::logic_error("no function " + name);
}

}  // namespace

TEST_CASE("functions are selected by alias, concrete name and signature; report names follow the entry") {
  tensorflow::MetaGraphDef m = model();
  auto s = select(m, "tpu_functions { function_alias: 'a' } tpu_functions { concrete_function_name: 'B' }");
  REQUIRE(s.size() == 2);
  CHECK(s[0].report_name == "a");
  CHECK(s[0].functions == std::vector<std::string>{"A"});
  CHECK(s[1].report_name == "B");
  auto sig = select(m, "tpu_functions { signature_name: 'serving_default' }");
  REQUIRE(sig.size() == 1);
  CHECK(sig[0].functions == std::vector<std::string>{"W"});
  CHECK(sig[0].signature);
  CHECK(select(m, "").empty());  // B3
}

TEST_CASE("B4, B5, B6: unknown names, a function selected twice, jit_compile_functions") {
  tensorflow::MetaGraphDef m = model();
  CHECK(error_text([&] { select(m, "tpu_functions { function_alias: 'nope' }"); }) ==
        "NotFoundError: Function alias \"nope\" not found in the SavedModel");
  CHECK(error_text([&] { select(m, "tpu_functions { concrete_function_name: '__inference_x_1' }"); }) ==
        "NotFoundError: Function \"__inference_x_1\" not found in the function library");
  CHECK(error_text([&] { select(m, "tpu_functions { signature_name: 'predict' }"); }) ==
        "NotFoundError: Signature \"predict\" not found in the SavedModel");
  CHECK(error_text([&] { select(m, "tpu_functions { function_alias: 'a' } tpu_functions { concrete_function_name: 'A' }"); }) ==
        "InvalidArgumentError: Function \"A\" is specified more than once in tpu_functions");
  CHECK(select(m, "tpu_functions { jit_compile_functions: true }").empty());
  auto* node = m.mutable_object_graph_def()->add_nodes()->mutable_function();
  node->add_concrete_functions("B");
  node->mutable_function_spec()->set_jit_compile(tensorflow::FunctionSpec::ON);
  auto jit = select(m, "tpu_functions { jit_compile_functions: true }");
  REQUIRE(jit.size() == 1);
  CHECK(jit[0].functions == std::vector<std::string>{"B"});
  CHECK(jit[0].report_name == "b");
  CHECK(error_text([&] { select(m, "tpu_functions { jit_compile_functions: true } tpu_functions { function_alias: 'b' }"); }) ==
        "InvalidArgumentError: Function \"B\" is specified more than once in tpu_functions");
}

TEST_CASE("B8: a TPU function may call another directly, not through a third function") {
  tensorflow::MetaGraphDef m = model();
  CHECK(select(m, "tpu_functions { function_alias: 'a' } tpu_functions { function_alias: 'b' }").size() == 2);
  CHECK(error_text([&] { select(m, "tpu_functions { function_alias: 'a' } tpu_functions { function_alias: 'c' }"); }) ==
        "InvalidArgumentError: Unable to place both \"A\" and \"C\" on the TPU because \"A\" indirectly calls \"C\". "
        "This behavior is unsupported because it can cause invalid graphs to be generated.");
  // Also when the function in between is itself on the TPU.
  CHECK(error_text([&] {
          select(m, "tpu_functions { function_alias: 'a' } tpu_functions { concrete_function_name: 'H' } "
                    "tpu_functions { function_alias: 'c' }");
        }) ==
        "InvalidArgumentError: Unable to place both \"A\" and \"C\" on the TPU because \"A\" indirectly calls \"C\". "
        "This behavior is unsupported because it can cause invalid graphs to be generated.");
}

TEST_CASE("B9: CPU call sites become TPUPartitionedCall fed by TPUOrdinalSelector; calls inside TPU code stay") {
  tensorflow::MetaGraphDef m = model();
  ModelFunctions f(m);
  auto s = select_tpu_functions(parse_converter_options("tpu_functions { function_alias: 'a' }"), f);
  tensorflow::MetaGraphDef out = m;
  place_on_tpu(out, s, f, PlacementOptions{});
  const auto& w = function(out, "W");
  REQUIRE(w.node_def_size() == 2);
  const auto& call = w.node_def(0);
  CHECK(call.op() == "TPUPartitionedCall");
  REQUIRE(call.input_size() == 3);
  CHECK(call.input(0) == "x");
  CHECK(call.input(1) == "call/TPUOrdinalSelector:device_ordinals:0");
  CHECK(call.input(2) == "^other");  // control inputs stay last
  CHECK(call.attr().at("f").func().name() == "A");
  CHECK(call.attr().count("config_proto") == 0);
  CHECK(call.attr().at("autotuner_thresh").i() == 0);
  CHECK(w.node_def(1).op() == "TPUOrdinalSelector");
  // Inside A (TPU code) the calls are compiled with it: unchanged.
  CHECK(function(out, "A").node_def(0).op() == "StatefulPartitionedCall");
  CHECK(function(out, "H").node_def(0).op() == "StatefulPartitionedCall");
  CHECK(out.graph_def().node(0).op() == "StatefulPartitionedCall");
}

TEST_CASE("B9: a signature placed whole runs through a CPU stub") {
  tensorflow::MetaGraphDef m = model();
  auto* obj = m.mutable_object_graph_def();
  obj->add_nodes()->mutable_bare_concrete_function()->set_concrete_function_name("W");
  (*obj->mutable_concrete_functions())["W"].add_bound_inputs(7);
  ModelFunctions f(m);
  auto s = select_tpu_functions(parse_converter_options("tpu_functions { signature_name: 'serving_default' }"), f);
  tensorflow::MetaGraphDef out = m;
  place_on_tpu(out, s, f, PlacementOptions{});
  CHECK(out.graph_def().node(0).attr().at("f").func().name() == "W_cpu_stub");
  const auto& stub = function(out, "W_cpu_stub");
  CHECK(stub.signature().input_arg_size() == 1);
  CHECK(stub.ret().at("output_0") == "TPUPartitionedCall:output:0");
  bool placed = false;
  for (const auto& nd : stub.node_def()) placed = placed || (nd.op() == "TPUPartitionedCall" && nd.attr().at("f").func().name() == "W");
  CHECK(placed);
  CHECK(out.object_graph_def().nodes(0).bare_concrete_function().concrete_function_name() == "W_cpu_stub");
  CHECK(out.object_graph_def().concrete_functions().at("W_cpu_stub").bound_inputs(0) == 7);
  CHECK(function(out, "W").node_def(0).op() == "StatefulPartitionedCall");  // W itself runs on the TPU
}

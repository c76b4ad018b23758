// The converter's batching (B13-B15) on a placed MetaGraphDef written by
// hand: W (the serving signature's function) calls the TPU function A, whose
// argument is float32[None, 10]; C is a CPU function W also calls.
#include <doctest/doctest.h>

#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/tpu/batching_insertion.h"
#include "runtime/tpu/converter_options.h"
#include "runtime/tpu/placement.h"
#include "tests/unit/error_text.h"

using namespace ag;
using namespace ag::tpu;
using ag::test::error_text;

namespace {

tensorflow::FunctionDef* add_def(tensorflow::MetaGraphDef& m, const std::string& name, const Shape& arg) {
  tensorflow::FunctionDef* f = m.mutable_graph_def()->mutable_library()->add_function();
  f->mutable_signature()->set_name(name);
  auto* a = f->mutable_signature()->add_input_arg();
  a->set_name("x");
  a->set_type(tensorflow::DT_FLOAT);
  auto* r = f->mutable_signature()->add_input_arg();
  r->set_name("w_resource");
  r->set_type(tensorflow::DT_RESOURCE);
  tensorflow::AttrValue shapes;
  proto::write_shape(arg, shapes.mutable_list()->add_shape());
  (*(*f->mutable_arg_attr())[0].mutable_attr())["_output_shapes"] = shapes;
  auto* o = f->mutable_signature()->add_output_arg();
  o->set_name("output_0");
  o->set_type(tensorflow::DT_FLOAT);
  (*f->mutable_ret())["output_0"] = "x";
  return f;
}

void add_caller(tensorflow::FunctionDef* f, const std::string& node, const std::string& callee) {
  tensorflow::NodeDef* nd = f->add_node_def();
  nd->set_name(node);
  nd->set_op("StatefulPartitionedCall");
  nd->add_input("x");
  nd->add_input("w_resource");
  auto& a = *nd->mutable_attr();
  a["f"].mutable_func()->set_name(callee);
  a["Tin"].mutable_list()->add_type(tensorflow::DT_FLOAT);
  a["Tin"].mutable_list()->add_type(tensorflow::DT_RESOURCE);
  a["Tout"].mutable_list()->add_type(tensorflow::DT_FLOAT);
}

tensorflow::MetaGraphDef batch_model(const Shape& a_arg = Shape{kUnknownDim, 10}) {
  tensorflow::MetaGraphDef m;
  tensorflow::FunctionDef* w = add_def(m, "W", Shape{kUnknownDim, 10});
  add_caller(w, "to_a", "A");
  add_caller(w, "to_c", "C");
  (*w->mutable_ret())["output_0"] = "to_a:output:0";
  add_def(m, "A", a_arg);
  add_def(m, "C", Shape{kUnknownDim, 10});
  (*m.mutable_meta_info_def()->mutable_function_aliases())["A"] = "tpu_func";
  (*m.mutable_meta_info_def()->mutable_function_aliases())["C"] = "cpu_func";
  tensorflow::NodeDef* entry = m.mutable_graph_def()->add_node();
  entry->set_name("StatefulPartitionedCall");
  entry->set_op("StatefulPartitionedCall");
  (*entry->mutable_attr())["f"].mutable_func()->set_name("W");
  (*entry->mutable_attr())["Tin"].mutable_list()->add_type(tensorflow::DT_FLOAT);
  (*entry->mutable_attr())["Tin"].mutable_list()->add_type(tensorflow::DT_RESOURCE);
  (*entry->mutable_attr())["Tout"].mutable_list()->add_type(tensorflow::DT_FLOAT);
  entry->add_input("serving_default_x");
  entry->add_input("w");
  (*(*m.mutable_signature_def())["serving_default"].mutable_outputs())["output_0"].set_name("StatefulPartitionedCall:0");
  return m;
}

const char* kSeedBatching =
    "tpu_functions { function_alias: 'tpu_func' } "
    "batch_options { num_batch_threads: 2 max_batch_size: 8 batch_timeout_micros: 5000 allowed_batch_sizes: 2 "
    "allowed_batch_sizes: 4 allowed_batch_sizes: 8 max_enqueued_batches: 10 }";

tensorflow::MetaGraphDef convert_model(const tensorflow::MetaGraphDef& m, const std::string& text) {
  ConverterOptions options = parse_converter_options(text);
  ModelFunctions f(m);
  auto s = select_tpu_functions(options, f);
  tensorflow::MetaGraphDef out = m;
  place_on_tpu(out, s, f, PlacementOptions{});
  insert_batching(out, options, s, f);
  return out;
}

const tensorflow::FunctionDef& find_function(const tensorflow::MetaGraphDef& m, const std::string& name) {
  for (const auto& f : m.graph_def().library().function()) {
    if (f.signature().name() == name) return f;
  }
  throw std::logic_error("no function " + name);
}

}  // namespace

TEST_CASE("B13: the TPU call site is wrapped in a BatchFunction with the entry's options") {
  tensorflow::MetaGraphDef out = convert_model(batch_model(), kSeedBatching);
  const auto& w = find_function(out, "W");
  const tensorflow::NodeDef& b = w.node_def(0);
  CHECK(b.name() == "to_a");
  CHECK(b.op() == "BatchFunction");
  REQUIRE(b.input_size() == 2);
  CHECK(b.input(0) == "x");           // batched
  CHECK(b.input(1) == "w_resource");  // captured
  CHECK(b.attr().at("Tin").list().type_size() == 1);
  CHECK(b.attr().at("Tcaptured").list().type(0) == tensorflow::DT_RESOURCE);
  CHECK(b.attr().at("num_batch_threads").i() == 2);
  CHECK(b.attr().at("max_batch_size").i() == 8);
  CHECK(b.attr().at("batch_timeout_micros").i() == 5000);
  CHECK(b.attr().at("allowed_batch_sizes").list().i_size() == 3);
  CHECK(b.attr().at("max_enqueued_batches").i() == 10);
  CHECK(b.attr().at("enable_large_batch_splitting").b());  // the converter's default
  CHECK(w.ret().at("output_0") == "to_a:out_tensors:0");
  // Its function holds the TPU call.
  const auto& f = find_function(out, b.attr().at("f").func().name());
  CHECK(f.node_def(0).op() == "TPUPartitionedCall");
  CHECK(f.node_def(0).attr().at("f").func().name() == "A");
  CHECK(f.node_def(0).input(2) == "TPUOrdinalSelector:device_ordinals:0");
  // The CPU function's call stays as it was.
  CHECK(w.node_def(1).op() == "StatefulPartitionedCall");
  // disable_large_batch_splitting turns splitting off.
  auto off = convert_model(batch_model(), std::string(kSeedBatching).replace(std::string(kSeedBatching).size() - 1, 1,
                                                                   "disable_large_batch_splitting: true }"));
  CHECK_FALSE(find_function(off, "W").node_def(0).attr().at("enable_large_batch_splitting").b());
}

TEST_CASE("B13: experimental components wrap a CPU function's calls, or the whole signature") {
  std::string alias = std::string(kSeedBatching);
  alias.replace(alias.size() - 1, 1, "experimental { function_alias: 'cpu_func' } }");
  auto by_alias = convert_model(batch_model(), alias);
  CHECK(find_function(by_alias, "W").node_def(1).op() == "BatchFunction");
  CHECK(find_function(by_alias, "W").node_def(0).op() == "TPUPartitionedCall");  // not wrapped
  std::string sig = std::string(kSeedBatching);
  sig.replace(sig.size() - 1, 1, "experimental { signature_name: 'serving_default' } }");
  auto whole = convert_model(batch_model(), sig);
  CHECK(whole.graph_def().node(0).op() == "BatchFunction");
  CHECK(whole.graph_def().node(0).input(0) == "serving_default_x");
}

TEST_CASE("B14: batched inputs need an unknown dim 0; a batched function runs on the CPU") {
  CHECK(error_text([] { convert_model(batch_model(Shape{4, 10}), kSeedBatching); }) ==
        "InvalidArgumentError: Cannot batch \"A\": input 0 has shape (4, 10); dimension 0 must be unknown (None or -1)");
  CHECK(error_text([] { convert_model(batch_model(Shape{}), kSeedBatching); }) ==
        "InvalidArgumentError: Cannot batch \"A\": input 0 has shape (); dimension 0 must be unknown (None or -1)");
  std::string on_tpu = std::string(kSeedBatching);
  on_tpu.replace(on_tpu.size() - 1, 1, "experimental { function_alias: 'tpu_func' } }");
  CHECK(error_text([&] { convert_model(batch_model(), on_tpu); }) ==
        "InvalidArgumentError: Batch function \"A\" must be called on the CPU");
}

TEST_CASE("B15: with disable_default_optimizations, existing batch ops take the options; none are added") {
  tensorflow::MetaGraphDef batched = convert_model(batch_model(), kSeedBatching);
  std::string again = "disable_default_optimizations: true batch_options { num_batch_threads: 4 max_batch_size: 16 "
                      "batch_timeout_micros: 100 allowed_batch_sizes: 16 max_enqueued_batches: 3 }";
  const int before = batched.graph_def().library().function_size();
  ConverterOptions options = parse_converter_options(again);
  ModelFunctions f(batched);
  insert_batching(batched, options, {}, f);
  CHECK(batched.graph_def().library().function_size() == before);
  const auto& b = find_function(batched, "W").node_def(0);
  CHECK(b.attr().at("num_batch_threads").i() == 4);
  CHECK(b.attr().at("max_batch_size").i() == 16);
  CHECK(b.attr().at("allowed_batch_sizes").list().i(0) == 16);
}

// The ops of a SavedModel's functions as TF spells them: every op TF has
// declares TF's argument lists (tf_signature), and the NodeDefs of the ops a
// user's model most often holds read as TF's REGISTER_OP names them. (Each
// op's own round trip runs in the op sweep: tests/unit/ops/function_def_round_trip.h.)
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>

#include "runtime/core/proto/graph_def.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/core/tensor_format.h"
#include "runtime/core/variable.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/function_def.h"
#include "runtime/ops/eager.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/registry.h"

using namespace ag;

// Named: the unity build puts this file beside function_def_test.cpp.
namespace function_def_ops {

/// Ops agc has that no FunctionDef holds as a plain NodeDef: its own fused
/// ops (made by passes after tracing), and the ones function_def writes by
/// their role (arguments, calls, If, While).
const std::set<std::string> kWrittenByRoleOrInternal = {
    "FusedMatMul",  "FusedElementwise", "FusedScalar", "Placeholder",    "If",
    "While",        "StatelessIf",      "StatelessWhile", "PartitionedCall", "StatefulPartitionedCall",
    "TPUPartitionedCall",
    "BatchFunction",
};

/// TF ops whose agc form differs from TF's, so no signature is declared yet
/// (the FunctionDef writer names them): agc's iterators name their dataset by
/// attr where TF passes resources; agc's EagerPyFunc keeps Tout as ints, not
/// list(type); agc's Parse ops take their keys and dense defaults as attrs in
/// its own layout.
const std::set<std::string> kNotYetTf = {
    "AnonymousIteratorV3", "IteratorGetNextAsOptional", "DeleteIterator",
    "EagerPyFunc",         "ParseSingleExample",        "ParseExampleV2",
};

const tensorflow::NodeDef& node_def(const ExportedFunction& e, const std::string& op) {
  for (const auto& n : e.def->node_def()) {
    if (n.op() == op) return n;
  }
  FAIL("no " << op << " node");
  throw std::logic_error("unreachable");
}

std::shared_ptr<Graph> read_back(const ExportedFunction& e) {
  std::string bytes;
  REQUIRE(e.library->SerializeToString(&bytes));
  auto lib = std::make_shared<tensorflow::FunctionDefLibrary>();
  REQUIRE(lib->ParseFromString(bytes));
  return FunctionDefReader(lib).read(e.def->signature().name(), {});
}

std::vector<Tensor> run_graph(const Graph& g, std::vector<Tensor> args) { return compile(g).plan().run(args); }

void check_same(const std::vector<Tensor>& got, const std::vector<Tensor>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("output " << i);
    CHECK(got[i].dtype() == want[i].dtype());
    CHECK(got[i].shape() == want[i].shape());
    CHECK(tf_print_format(got[i], -1) == tf_print_format(want[i], -1));
  }
}

}  // namespace function_def_ops

using namespace function_def_ops;

TEST_CASE("every op TF has declares TF's arguments, but agc's own and those written by their role") {
  std::vector<std::string> missing, stale;
  for (const auto& op : OpRegistry::global().ops()) {
    const bool exempt = kWrittenByRoleOrInternal.count(op->name) > 0 || kNotYetTf.count(op->name) > 0;
    if (!op->tf_signature && !exempt) missing.push_back(op->name);
    if (op->tf_signature && exempt) stale.push_back(op->name);
  }
  INFO("ops without tf_signature(...): " << doctest::toString(missing));
  CHECK(missing.empty());
  INFO("ops listed as unwritable that declare TF arguments: " << doctest::toString(stale));
  CHECK(stale.empty());
  for (const std::string& name : kNotYetTf) CHECK_MESSAGE(OpRegistry::global().find(name) != nullptr, name);
}

TEST_CASE("Conv2D, GatherV2, Transpose, OneHot, TopKV2 NodeDefs spell TF's argument and type attr names") {
  Graph g("f");
  Output x = g.placeholder({DType::Float32, Shape{1, 4, 4, 1}}, "x");
  Output w = g.placeholder({DType::Float32, Shape{2, 2, 1, 2}}, "w");
  Output idx = g.placeholder({DType::Int64, Shape{3}}, "idx");
  Node* conv = g.add_node(op::Conv2D, {x, w},
                          Attrs{{"strides", std::vector<int64_t>{1, 1, 1, 1}}, {"padding", std::string("VALID")},
                                {"data_format", std::string("NHWC")}, {"dilations", std::vector<int64_t>{1, 1, 1, 1}}},
                          "Conv2D");
  Output perm = g.constant(Tensor::from_vector<int32_t>({4}, {0, 3, 1, 2}));
  Node* tr = g.add_node(op::Transpose, {conv->output(0), perm}, {}, "transpose");
  Node* gather = g.add_node(op::GatherV2, {tr->output(0), idx, g.constant(Tensor::scalar<int32_t>(2))},
                            Attrs{{"batch_dims", int64_t{0}}}, "GatherV2");
  Node* hot = g.add_node(op::OneHot,
                         {idx, g.constant(Tensor::scalar<int32_t>(4)), g.constant(Tensor::scalar<float>(1)),
                          g.constant(Tensor::scalar<float>(0))},
                         Attrs{{"axis", int64_t{-1}}}, "one_hot");
  Node* top = g.add_node(op::TopKV2, {gather->output(0), g.constant(Tensor::scalar<int32_t>(2))},
                         Attrs{{"sorted", true}, {"index_type", DType::Int32}}, "TopKV2");
  g.outputs() = {top->output(0), top->output(1), hot->output(0)};
  ExportedFunction e = export_function_def(g, "f");

  const auto& c = node_def(e, "Conv2D");
  CHECK(c.input(0) == "x");
  CHECK(c.input(1) == "w");
  CHECK(c.attr().at("T").type() == tensorflow::DT_FLOAT);
  CHECK(c.attr().at("padding").s() == "VALID");
  CHECK(c.attr().at("strides").list().i_size() == 4);
  const auto& t = node_def(e, "Transpose");
  CHECK(t.input(0) == "Conv2D:output:0");
  CHECK(t.attr().at("Tperm").type() == tensorflow::DT_INT32);
  const auto& gd = node_def(e, "GatherV2");
  CHECK(gd.input(0) == "transpose:y:0");
  CHECK(gd.input(1) == "idx");
  CHECK(gd.attr().at("Tparams").type() == tensorflow::DT_FLOAT);
  CHECK(gd.attr().at("Tindices").type() == tensorflow::DT_INT64);
  CHECK(gd.attr().at("Taxis").type() == tensorflow::DT_INT32);
  CHECK(gd.attr().at("batch_dims").i() == 0);
  const auto& h = node_def(e, "OneHot");
  CHECK(h.attr().at("TI").type() == tensorflow::DT_INT64);
  CHECK(h.attr().at("T").type() == tensorflow::DT_FLOAT);
  CHECK(h.attr().at("axis").i() == -1);
  const auto& k = node_def(e, "TopKV2");
  CHECK(k.input(0) == "GatherV2:output:0");
  CHECK(k.attr().at("Tk").type() == tensorflow::DT_INT32);
  CHECK(k.attr().at("index_type").type() == tensorflow::DT_INT32);
  CHECK(e.def->ret().at("output_0") == "TopKV2:values:0");
  CHECK(e.def->ret().at("output_1") == "TopKV2:indices:0");
  CHECK(e.def->ret().at("output_2") == "one_hot:output:0");

  auto back = read_back(e);
  std::vector<Tensor> args = {Tensor::from_vector<float>({1, 4, 4, 1}, {1, 5, 2, 0, 3, 3, 1, 4, 0, 2, 7, 1, 6, 2, 5, 8}),
                              Tensor::from_vector<float>({2, 2, 1, 2}, {1, 0, 0.5f, 1, -1, 2, 0, 1}),
                              Tensor::from_vector<int64_t>({3}, {2, 0, 1})};
  check_same(run_graph(*back, args), run_graph(g, args));
}

TEST_CASE("StringSplitV2, StringLength, Fill, Range, Where, SelectV2 NodeDefs spell TF's names and read back") {
  Graph g("s");
  Output text = g.placeholder({DType::String, Shape{2}}, "text");
  Output n = g.placeholder({DType::Int32, Shape{}}, "n");
  Node* split = g.add_node(op::StringSplitV2, {text, g.constant(Tensor::scalar<std::string>(" "))},
                           Attrs{{"maxsplit", int64_t{-1}}}, "StringSplit");
  Node* len = g.add_node(op::StringLength, {split->output(1)}, Attrs{{"unit", std::string("BYTE")}}, "StringLength");
  Node* fill = g.add_node(op::Fill, {g.constant(Tensor::from_vector<int32_t>({1}, {3})), g.constant(Tensor::scalar<int32_t>(7))},
                          {}, "Fill");
  Node* range = g.add_node(op::Range, {g.constant(Tensor::scalar<int32_t>(0)), n, g.constant(Tensor::scalar<int32_t>(1))},
                           Attrs{{"Tidx", DType::Int32}}, "range");
  Node* where = g.add_node(op::Where, {len->output(0)}, {}, "Where");
  Node* less = g.add_node(op::Less, {range->output(0), fill->output(0)}, {}, "Less");
  Node* sel = g.add_node(op::SelectV2, {less->output(0), range->output(0), fill->output(0)}, {}, "SelectV2");
  g.outputs() = {split->output(0), split->output(2), len->output(0), where->output(0), sel->output(0)};
  ExportedFunction e = export_function_def(g, "s");

  const auto& sp = node_def(e, "StringSplitV2");
  CHECK(sp.input(0) == "text");
  CHECK(sp.attr().at("maxsplit").i() == -1);
  CHECK(e.def->ret().at("output_0") == "StringSplit:indices:0");
  CHECK(e.def->ret().at("output_1") == "StringSplit:shape:0");
  CHECK(node_def(e, "StringLength").input(0) == "StringSplit:values:0");
  CHECK(node_def(e, "StringLength").attr().at("unit").s() == "BYTE");
  const auto& f = node_def(e, "Fill");
  CHECK(f.attr().at("index_type").type() == tensorflow::DT_INT32);
  CHECK(f.attr().at("T").type() == tensorflow::DT_INT32);
  CHECK(node_def(e, "Range").input(1) == "n");
  CHECK(node_def(e, "Where").input(0) == "StringLength:output:0");
  CHECK(e.def->ret().at("output_3") == "Where:index:0");
  const auto& s = node_def(e, "SelectV2");
  CHECK(s.input(0) == "Less:z:0");
  CHECK(s.input(1) == "range:output:0");

  auto back = read_back(e);
  std::vector<Tensor> args = {Tensor::from_vector<std::string>({2}, {"a bb", "ccc d ee"}), Tensor::scalar<int32_t>(3)};
  check_same(run_graph(*back, args), run_graph(g, args));
}

TEST_CASE("TensorList ops that take a list read it through TF's variant arguments") {
  // The list comes in as an argument (the ops that make one are not TF's yet).
  Tensor list = run_op1(op::TensorListReserve, std::vector<Tensor>{Tensor::scalar<int32_t>(2)},
                        Attrs{{"element_dtype", DType::Float32}, {"element_shape", Shape{}}});
  Graph g("l");
  Output handle = g.placeholder({DType::Variant, Shape{}}, "handle");
  Output x = g.placeholder({DType::Float32, Shape{}}, "x");
  Node* set = g.add_node(op::TensorListSetItem, {handle, g.constant(Tensor::scalar<int32_t>(1)), x},
                         Attrs{{"resize_if_index_out_of_bounds", false}}, "TensorListSetItem");
  Node* push = g.add_node(op::TensorListPushBack, {set->output(0), x}, {}, "TensorListPushBack");
  Node* len = g.add_node(op::TensorListLength, {push->output(0)}, {}, "TensorListLength");
  g.outputs() = {len->output(0)};
  ExportedFunction e = export_function_def(g, "l");
  CHECK(e.def->signature().input_arg(0).type() == tensorflow::DT_VARIANT);
  const auto& p = node_def(e, "TensorListPushBack");
  CHECK(p.input(0) == "TensorListSetItem:output_handle:0");
  CHECK(p.attr().at("element_dtype").type() == tensorflow::DT_FLOAT);
  CHECK(node_def(e, "TensorListLength").input(0) == "TensorListPushBack:output_handle:0");
  CHECK(e.def->ret().at("output_0") == "TensorListLength:length:0");
  auto back = read_back(e);
  std::vector<Tensor> args = {list, Tensor::scalar<float>(2)};
  CHECK(run_graph(*back, args)[0].scalar_value<int32_t>() == 3);
}

TEST_CASE("TensorList ops pass the element shape as TF's constant input, and read it back into the attr") {
  Graph g("lists");
  Output x = g.placeholder({DType::Float32, Shape{3, 2}}, "x");
  Output n = g.placeholder({DType::Int32, Shape{}}, "n");
  const Attrs pair{{"element_dtype", DType::Float32}, {"element_shape", Shape{2}}};
  const Attrs rows{{"element_dtype", DType::Float32}, {"element_shape", Shape{kUnknownDim, 2}}};
  const Attrs any{{"element_dtype", DType::Float32}, {"element_shape", Shape::unknown_rank()}};
  Node* reserve = g.add_node(op::TensorListReserve, {n}, pair, "TensorArrayV2");
  Node* set = g.add_node(op::TensorListSetItem, {reserve->output(0), g.constant(Tensor::scalar<int32_t>(0)),
                                                  g.add_node(op::Relu, {x}, {}, "relu")->output(0)},
                         Attrs{{"resize_if_index_out_of_bounds", false}}, "TensorListSetItem");
  (void)set;
  Node* from = g.add_node(op::TensorListFromTensor, {x}, pair, "TensorListFromTensor");
  Node* item = g.add_node(op::TensorListGetItem, {from->output(0), g.constant(Tensor::scalar<int32_t>(1))}, pair,
                          "TensorListGetItem");
  Node* pop = g.add_node(op::TensorListPopBack, {from->output(0)}, pair, "TensorListPopBack");
  Node* stack = g.add_node(op::TensorListStack, {pop->output(0)}, Attrs{{"element_dtype", DType::Float32},
                                                                       {"element_shape", Shape{2}},
                                                                       {"num_elements", int64_t{-1}}},
                           "TensorListStack");
  Node* gather = g.add_node(op::TensorListGather, {from->output(0), g.constant(Tensor::from_vector<int32_t>({2}, {2, 0}))},
                            pair, "TensorListGather");
  Node* split = g.add_node(op::TensorListSplit, {x, g.constant(Tensor::from_vector<int64_t>({2}, {1, 2}))}, rows,
                           "TensorListSplit");
  Node* concat = g.add_node(op::TensorListConcatV2, {split->output(0), g.constant(Tensor(DType::Int64, Shape{0}))}, rows,
                            "TensorListConcatV2");
  Node* empty = g.add_node(op::EmptyTensorList, {}, any, "EmptyTensorList");
  Node* push = g.add_node(op::TensorListPushBack, {empty->output(0), item->output(0)}, {}, "TensorListPushBack");
  Node* len = g.add_node(op::TensorListLength, {push->output(0)}, {}, "TensorListLength");
  g.outputs() = {item->output(0), stack->output(0), gather->output(0), concat->output(0), concat->output(1),
                 pop->output(1), len->output(0)};
  ExportedFunction e = export_function_def(g, "lists");

  // TF's argument order, the element shape a constant int32 input (-1: unknown).
  auto shape_input = [&](const tensorflow::NodeDef& nd, int i) {
    const std::string name = nd.input(i).substr(0, nd.input(i).find(':'));
    for (const auto& c : e.def->node_def()) {
      if (c.name() == name && c.op() == "Const") return proto::read_tensor(c.attr().at("value").tensor());
    }
    FAIL("input " << i << " of " << nd.name() << " is no Const");
    return Tensor();
  };
  const auto& r = node_def(e, "TensorListReserve");
  REQUIRE(r.input_size() == 2);
  CHECK(r.input(1) == "n");
  CHECK(array::int_values(shape_input(r, 0)) == std::vector<int64_t>{2});
  CHECK(r.attr().at("shape_type").type() == tensorflow::DT_INT32);
  CHECK(r.attr().count("element_shape") == 0);
  const auto& gi = node_def(e, "TensorListGetItem");
  REQUIRE(gi.input_size() == 3);
  CHECK(gi.input(0) == "TensorListFromTensor:output_handle:0");
  CHECK(array::int_values(shape_input(gi, 2)) == std::vector<int64_t>{2});
  const auto& c = node_def(e, "TensorListConcatV2");
  REQUIRE(c.input_size() == 3);
  CHECK(array::int_values(shape_input(c, 1)) == std::vector<int64_t>{-1, 2});
  const auto& el = node_def(e, "EmptyTensorList");
  REQUIRE(el.input_size() == 2);
  CHECK(shape_input(el, 0).shape() == Shape{});
  CHECK(shape_input(el, 0).scalar_value<int32_t>() == -1);
  CHECK(shape_input(el, 1).scalar_value<int32_t>() == -1);
  CHECK(node_def(e, "TensorListSplit").input_size() == 3);
  CHECK(node_def(e, "TensorListStack").attr().at("num_elements").i() == -1);
  CHECK(e.def->ret().at("output_4") == "TensorListConcatV2:lengths:0");
  CHECK(e.def->ret().at("output_5") == "TensorListPopBack:tensor:0");

  auto back = read_back(e);
  for (const auto& node : back->nodes()) {
    if (node->op->name == "TensorListGetItem") CHECK(node->attrs.get<Shape>("element_shape") == Shape{2});
    if (node->op->name == "TensorListConcatV2") CHECK(node->attrs.get<Shape>("element_shape") == (Shape{kUnknownDim, 2}));
    if (node->op->name == "EmptyTensorList") CHECK_FALSE(node->attrs.get<Shape>("element_shape").rank_known());
  }
  std::vector<Tensor> args = {Tensor::from_vector<float>({3, 2}, {1, -2, 3, 4, -5, 6}), Tensor::scalar<int32_t>(2)};
  check_same(run_graph(*back, args), run_graph(g, args));
}

TEST_CASE("a Generator's StatefulUniform reads its state through TF's resource and algorithm inputs") {
  auto state = Variable::create(Tensor::from_vector<int64_t>({3}, {1234, 0, 0}), "StateVar");
  Graph g("r");
  Output shape = g.placeholder({DType::Int64, Shape{1}}, "shape");
  Node* u = g.add_node(op::StatefulUniform, {g.constant(Tensor::scalar<int64_t>(1)), shape},
                       Attrs{{"var", state->id()}, {"dtype", DType::Float32}}, "StatefulUniform");
  g.outputs() = {u->output(0)};
  ExportedFunction e = export_function_def(g, "r");
  REQUIRE(e.variables == std::vector<int64_t>{state->id()});
  const auto& nd = node_def(e, "StatefulUniform");
  REQUIRE(nd.input_size() == 3);
  CHECK(nd.input(0) == e.def->signature().input_arg(1).name());  // the state, a resource argument
  CHECK(e.def->signature().input_arg(1).type() == tensorflow::DT_RESOURCE);
  CHECK(nd.input(1) == "Const:output:0");
  CHECK(nd.input(2) == "shape");
  CHECK(nd.attr().at("dtype").type() == tensorflow::DT_FLOAT);
  CHECK(nd.attr().at("shape_dtype").type() == tensorflow::DT_INT64);
  CHECK(nd.attr().count("var") == 0);
  CHECK(e.def->signature().is_stateful());

  std::vector<Tensor> args = {Tensor::from_vector<int64_t>({1}, {4})};
  std::vector<Tensor> want = run_graph(g, args);
  state->assign(Tensor::from_vector<int64_t>({3}, {1234, 0, 0}));
  std::string bytes;
  REQUIRE(e.library->SerializeToString(&bytes));
  auto lib = std::make_shared<tensorflow::FunctionDefLibrary>();
  REQUIRE(lib->ParseFromString(bytes));
  auto back = FunctionDefReader(lib).read("r", {state->id()});
  check_same(run_graph(*back, args), want);
  CHECK(state->read().data<int64_t>()[0] == 1234 + 4 * 256);  // the loaded graph moved the state on
}

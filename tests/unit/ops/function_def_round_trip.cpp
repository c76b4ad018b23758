#include "tests/unit/ops/function_def_round_trip.h"

#include <doctest/doctest.h>

#include <map>
#include <mutex>

#include "runtime/core/proto/graph_def.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/function_def.h"
#include "runtime/graph/node_def_format.h"
#include "tests/unit/ops/sweep.h"

namespace ag::test {
namespace {

/// Calls per op written and read back: the first ones, so the sweep stays fast.
constexpr int kCallsPerOp = 3;

/// How many tensors arg `a` of a NodeDef takes: 1, or its list's length as
/// the NodeDef's number or type-list attr says (TF's reading of the lists).
int count_of(const TfArg& a, const tensorflow::NodeDef& nd, const std::string& what) {
  if (!a.is_list()) return 1;
  const std::string& attr = !a.number_attr.empty() ? a.number_attr : a.type_list_attr;
  auto it = nd.attr().find(attr);
  if (it == nd.attr().end()) {
    FAIL_CHECK(what << ": the NodeDef has no attr " << attr << " for list arg " << a.name);
    return -1;
  }
  return !a.number_attr.empty() ? static_cast<int>(it->second.i()) : it->second.list().type_size();
}

/// CHECKs that arg `a`'s tensors, of dtypes `types`, are what the NodeDef's
/// attrs say: its type attr, each type of its type list, its fixed type.
void check_arg_types(const TfArg& a, const std::vector<DType>& types, const tensorflow::NodeDef& nd,
                     const std::string& what) {
  INFO(what << ", TF arg " << a.name);
  for (size_t i = 0; i < types.size(); ++i) {
    tensorflow::DataType t = proto::tf_data_type(types[i]);
    if (!a.type_attr.empty()) {
      REQUIRE_MESSAGE(nd.attr().count(a.type_attr) == 1, "the NodeDef has no type attr " << a.type_attr);
      CHECK(nd.attr().at(a.type_attr).type() == t);
    } else if (!a.type_list_attr.empty()) {
      CHECK(nd.attr().at(a.type_list_attr).list().type(static_cast<int>(i)) == t);
    } else if (a.type) {
      CHECK(types[i] == *a.type);
    }
  }
}

void round_trip(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs, const std::vector<Tensor>& outputs) {
  const TfSignature& sig = *op.tf_signature;
  const std::string what = "FunctionDef round trip of " + op.name;
  INFO(what);
  Graph g("round_trip");
  std::vector<Output> in;
  for (const Tensor& t : inputs) in.push_back(g.constant(t));
  Node* n = g.add_node(op, in, attrs, op.name);
  for (size_t i = 0; i < n->outputs.size(); ++i) g.outputs().push_back(n->output(static_cast<int>(i)));
  ExportedFunction e = export_function_def(g, "round_trip");

  // The NodeDef, as TF reads it: each input arg takes its list's length from
  // the NodeDef's attrs, in declaration order, from the Consts in order.
  const tensorflow::NodeDef* nd = nullptr;
  std::map<std::string, const tensorflow::NodeDef*> consts;
  for (const auto& d : e.def->node_def()) {
    if (d.op() == op.name) nd = &d;
    if (d.op() == "Const") consts[d.name() + ":output:0"] = &d;
  }
  REQUIRE(nd != nullptr);
  // An input agc holds as an attr is one more Const, with the attr's value.
  int held = 0;
  for (const TfArg& a : sig.inputs) held += a.from_attr();
  CHECK(nd->input_size() == static_cast<int>(inputs.size()) + held);
  int at = 0, next = 0;  // the NodeDef's input, the node's
  for (const TfArg& a : sig.inputs) {
    int count = a.from_attr() ? 1 : count_of(a, *nd, what);
    std::vector<DType> types;
    for (int i = 0; i < count && at < nd->input_size(); ++i, ++at) {
      auto c = consts.find(nd->input(at));
      REQUIRE_MESSAGE(c != consts.end(), "input " << at << " reads " << nd->input(at) << ", not a Const's output");
      const Tensor value = proto::read_tensor(c->second->attr().at("value").tensor());
      const Tensor want = a.from_attr() ? node_def::attr_input_value(a, attrs) : inputs[static_cast<size_t>(next++)];
      CHECK(value.dtype() == want.dtype());
      if (a.from_attr()) CHECK(value.shape() == want.shape());
      types.push_back(want.dtype());
    }
    check_arg_types(a, types, *nd, what);
  }
  CHECK(next == static_cast<int>(inputs.size()));
  // The function's results name the node's output args: "node:arg:index".
  int out = 0;
  for (const TfArg& a : sig.outputs) {
    int count = count_of(a, *nd, what);
    std::vector<DType> types;
    for (int i = 0; i < count && out < static_cast<int>(n->outputs.size()); ++i, ++out) {
      CHECK(e.def->ret().at("output_" + std::to_string(out)) == nd->name() + ":" + a.name + ":" + std::to_string(i));
      types.push_back(n->outputs[static_cast<size_t>(out)].dtype);
    }
    check_arg_types(a, types, *nd, what);
  }
  CHECK(out == static_cast<int>(n->outputs.size()));

  // Through bytes, read back, run: the same results.
  std::string bytes;
  REQUIRE(e.library->SerializeToString(&bytes));
  auto lib = std::make_shared<tensorflow::FunctionDefLibrary>();
  REQUIRE(lib->ParseFromString(bytes));
  std::shared_ptr<Graph> back = FunctionDefReader(lib).read("round_trip", {});
  REQUIRE(back->outputs().size() == outputs.size());
  if (n->stateful()) {
    // Run once, eagerly, by the sweep: its effects (a print, a Python call,
    // a random state's step) are not repeated; the types read back must be.
    for (size_t i = 0; i < outputs.size(); ++i) CHECK(back->outputs()[i].spec() == g.outputs()[i].spec());
    return;
  }
  std::vector<Tensor> want = compile(g).plan().run({});
  std::vector<Tensor> got = compile(*back).plan().run({});
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    if (want[i].dtype() != DType::Variant) {
      sweep::expect_close(got[i], want[i], what + ", output " + std::to_string(i), 0, 0);
    }
  }
}

}  // namespace

void check_function_def_round_trip(const OpDef& op, const std::vector<Tensor>& inputs, const Attrs& attrs,
                                   const std::vector<Tensor>& outputs) {
  if (!op.tf_signature || attrs.has("var")) return;  // a variable op needs a variable: state_ops_test
  for (const Tensor& t : inputs) {
    if (t.dtype() == DType::Variant) return;  // no Const holds a TensorList
  }
  static std::mutex mu;
  static std::map<std::string, int> calls;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (calls[op.name]++ >= kCallsPerOp) return;
  }
  try {
    round_trip(op, inputs, attrs, outputs);
  } catch (const std::exception& ex) {
    FAIL_CHECK("FunctionDef round trip of " << op.name << " threw: " << ex.what());
  }
}

}  // namespace ag::test

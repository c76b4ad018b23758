// Scope ALL's rounding of the CPU's functions (B33) on a FunctionDef written
// by hand: F(x) = unstack(x * 1.001) summed, and an int32 cast of x; each
// float32 value is read through a Cast to bfloat16 and back, the int32 one
// is not, and the function computes what the TPU's rule gives.
#include <doctest/doctest.h>

#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/function_def.h"
#include "runtime/tpu/bfloat16_cpu_scope.h"
#include "tests/unit/tpu/support.h"

using namespace ag;
using namespace ag::tpu;

namespace {

int count_casts(const tensorflow::FunctionDef& f, tensorflow::DataType to) {
  int n = 0;
  for (const auto& nd : f.node_def()) n += nd.op() == "Cast" && nd.attr().at("DstT").type() == to;
  return n;
}

}  // namespace

TEST_CASE("B33 scope ALL: every float32 argument and op result of a CPU function is rounded to bfloat16") {
  tensorflow::MetaGraphDef m;
  tensorflow::FunctionDef* f = test::add_function(m, "F");
  tensorflow::NodeDef* c = test::add_node(f, "c", "Const", {});
  proto::write_tensor(Tensor::scalar<float>(1.001f), (*c->mutable_attr())["value"].mutable_tensor());
  (*c->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
  (*test::add_node(f, "mul", "Mul", {"x", "c:output:0"})->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
  tensorflow::NodeDef* unstack = test::add_node(f, "unstack", "Unpack", {"mul:z:0"});
  (*unstack->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
  (*unstack->mutable_attr())["num"].set_i(2);
  (*unstack->mutable_attr())["axis"].set_i(0);
  (*test::add_node(f, "add", "AddV2", {"unstack:output:0", "unstack:output:1"})->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
  tensorflow::NodeDef* cast = test::add_node(f, "to_int", "Cast", {"x"});
  (*cast->mutable_attr())["SrcT"].set_type(tensorflow::DT_FLOAT);
  (*cast->mutable_attr())["DstT"].set_type(tensorflow::DT_INT32);
  (*f->mutable_ret())["output_0"] = "add:z:0";
  const tensorflow::MetaGraphDef original = m;

  round_to_bfloat16(m, {"F"});
  const tensorflow::FunctionDef& r = m.graph_def().library().function(0);
  // x, c, mul, unstack's two outputs and add: six values rounded; the int32 cast's is not.
  CHECK(count_casts(r, tensorflow::DT_BFLOAT16) == 6);
  CHECK(count_casts(r, tensorflow::DT_FLOAT) == 6);
  CHECK(r.ret().at("output_0") != "add:z:0");

  auto run = [](const tensorflow::MetaGraphDef& model, const Tensor& x) {
    auto library = std::make_shared<tensorflow::FunctionDefLibrary>(model.graph_def().library());
    return compile(*FunctionDefReader(library).read("F", {})).plan().run(std::vector<Tensor>{x}).at(0);
  };
  const Tensor x = Tensor::from_vector<float>(Shape{2}, {3.14159f, 1.0f});
  // bf16(3.14159) = 3.140625, 1.001 -> 1.0: 3.140625 + 1.0 = 4.140625 -> bf16 4.125.
  CHECK(run(m, x).scalar_value<float>() == 4.125f);
  CHECK(run(original, x).scalar_value<float>() == doctest::Approx(4.14573f).epsilon(1e-5));
}

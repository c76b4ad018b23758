#include <doctest/doctest.h>

#include "runtime/ops/eager.h"
#include "runtime/ops/registry.h"

using namespace ag;

TEST_CASE("every registered op has a shape rule and a CPU kernel") {
  const OpRegistry& reg = OpRegistry::global();
  CHECK(!reg.ops().empty());
  for (const auto& op : reg.ops()) {
    INFO(op->name);
    CHECK(static_cast<bool>(op->infer));
    CHECK(static_cast<bool>(op->cpu()));
    CHECK(reg.find(op->name) == op.get());
  }
}

TEST_CASE("every op type C++ code names (op_types.def) is registered, and finds its own op") {
  const OpRegistry& reg = OpRegistry::global();
  for (const OpType& t : op::kAll) {
    INFO(t.name());
    const OpDef* by_name = reg.find(t.name());
    REQUIRE(by_name != nullptr);
    CHECK(&reg.get(t) == by_name);
    CHECK(&reg.get(OpType{t.name()}) == by_name);
  }
}

TEST_CASE("unknown ops and wrong arity are typed errors") {
  CHECK_THROWS_AS(run_op(OpType{"NoSuchOp"}, {}), NotFoundError);
  std::vector<Tensor> two{Tensor::scalar<float>(1), Tensor::scalar<float>(2)};
  CHECK_THROWS_WITH_AS(run_op(op::Identity, two), "Identity expects 1 inputs, got 2", InvalidArgumentError);
}

TEST_CASE("Const and Identity run eagerly") {
  Tensor v = Tensor::from_vector<int32_t>({2}, {4, 1});
  Tensor c = run_op1(op::Const, {}, Attrs{{"value", v}});
  CHECK(c.shares_storage_with(v));
  std::vector<Tensor> in{c};
  Tensor i = run_op1(op::Identity, in);
  CHECK(i.data<int32_t>()[0] == 4);
}

TEST_CASE("an attribute a node lacks or holds with another type is InvalidArgumentError naming it") {
  // Found by saved_model_fuzz: a SavedModel's Const without its "value" raised
  // InternalError ("missing attribute"), as if agc were at fault; a NodeDef
  // read from a file may lack any attribute, as TF's errors say.
  CHECK_THROWS_WITH_AS(run_op1(op::Const, {}, Attrs{}), "NodeDef missing attr 'value'", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run_op1(op::Const, {}, Attrs{{"value", int64_t{3}}}),
                       "attr 'value' has a value of type 'int' where 'tensor' is expected", InvalidArgumentError);
  Attrs a{{"axis", std::vector<int64_t>{1}}};
  CHECK_THROWS_WITH_AS(a.get<std::string>("axis"), "attr 'axis' has a value of type 'list(int)' where 'string' is expected",
                       InvalidArgumentError);
}

TEST_CASE("registering a name twice is a bug in agc") {
  OpRegistry reg;
  reg.op("A").inputs(0);
  CHECK_THROWS_AS(reg.op("A"), InternalError);
}

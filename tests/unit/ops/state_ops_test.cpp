#include <doctest/doctest.h>

#include "runtime/core/variable.h"
#include "runtime/ops/eager.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;

AG_SWEEP_COVERS("ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp");

TEST_CASE("variable ops read and assign in order, checking types as TF does") {
  auto v = Variable::create(Tensor::from_vector<float>({2}, {1, 2}), "v");
  Attrs a{{"var", v->id()}};
  Tensor r = run_op1(op::ReadVariableOp, {}, a);
  CHECK(r.data<float>()[1] == 2);
  std::vector<Tensor> in{Tensor::from_vector<float>({2}, {5, 6})};
  CHECK(run_op(op::AssignVariableOp, in, a).empty());
  CHECK(v->read().data<float>()[0] == 5);
  CHECK(r.data<float>()[0] == 1);  // an earlier read keeps its value

  std::vector<Tensor> bad_dtype{Tensor::from_vector<int32_t>({2}, {1, 2})};
  CHECK_THROWS_WITH_AS(run_op(op::AssignVariableOp, bad_dtype, a),
                       "Trying to assign variable with wrong dtype. Expected float got int32", InvalidArgumentError);
  std::vector<Tensor> bad_shape{Tensor::from_vector<float>({3}, {1, 2, 3})};
  CHECK_THROWS_WITH_AS(run_op(op::AssignVariableOp, bad_shape, a),
                       "Trying to assign to variable with tensor with wrong shape. Expected [2] got [3]",
                       InvalidArgumentError);

  if (OpRegistry::global().find("AddV2") && OpRegistry::global().find("Sub")) {
    std::vector<Tensor> one{Tensor::from_vector<float>({2}, {1, 1})};
    run_op(op::AssignAddVariableOp, one, a);
    CHECK(v->read().data<float>()[1] == 7);
    run_op(op::AssignSubVariableOp, one, a);
    run_op(op::AssignSubVariableOp, one, a);
    CHECK(v->read().data<float>()[1] == 5);
  } else {
    MESSAGE("AddV2/Sub not registered yet: AssignAdd/AssignSub not run");
  }
}

TEST_CASE("assign_add updates in place only what no one else holds") {
  if (!OpRegistry::global().find("AddV2")) return;
  auto v = Variable::create(Tensor::from_vector<float>({3}, {1, 2, 3}), "v");
  Attrs a{{"var", v->id()}};
  std::vector<Tensor> one{Tensor::from_vector<float>({3}, {1, 1, 1})};
  run_op(op::AssignAddVariableOp, one, a);  // the initial value is shared with the caller: a copy
  const float* storage = v->read().data<float>();
  run_op(op::AssignAddVariableOp, one, a);  // now the variable's own storage: in place
  CHECK(v->read().data<float>() == storage);
  CHECK(v->read().data<float>()[2] == 5);

  Tensor held = v->read();  // a read the caller keeps, like `t = v.value()`
  run_op(op::AssignAddVariableOp, one, a);
  CHECK(held.data<float>()[2] == 5);
  CHECK(v->read().data<float>()[2] == 6);
  CHECK(v->read().data<float>() != held.data<float>());
}

TEST_CASE("a destroyed variable is a typed error") {
  int64_t id;
  {
    auto v = Variable::create(Tensor::scalar<float>(1));
    id = v->id();
  }
  CHECK_THROWS_AS(run_op(op::ReadVariableOp, {}, Attrs{{"var", id}}), NotFoundError);
}

TEST_CASE("a prepared kernel whose variable is gone raises TF's FailedPreconditionError") {
  auto v = Variable::create(Tensor::scalar<int32_t>(3));
  const OpDef& read = OpRegistry::global().get(op::ReadVariableOp);
  Attrs a{{"var", v->id()}};
  std::vector<TensorSpec> outs{{DType::Int32, Shape{}}};
  Kernel k = read.cpu()(KernelSpec{"ReadVariableOp", {}, outs, a});
  Tensor out[1];
  KernelContext ctx{{}, out};
  k(ctx);
  CHECK(out[0].scalar_value<int32_t>() == 3);
  std::string name = "_AnonymousVar" + std::to_string(v->id());
  v.reset();
  std::string want = "Error while reading resource variable " + name +
                     " from Container: localhost. This could mean that the variable was uninitialized. Not found: "
                     "Resource localhost/" + name + "/N10tensorflow3VarE does not exist.";
  CHECK_THROWS_WITH_AS(k(ctx), want.c_str(), FailedPreconditionError);
}

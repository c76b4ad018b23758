#include <doctest/doctest.h>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;

AG_SWEEP_COVERS("Placeholder");

TEST_CASE("running a Placeholder is TF's must-feed error") {
  Attrs a{{"dtype", DType::Float32}, {"shape", Shape{2}}};
  CHECK_THROWS_WITH_AS(run_op(op::Placeholder, {}, a),
                       "You must feed a value for placeholder tensor with dtype float32 and shape [2]",
                       InvalidArgumentError);
}

AG_SWEEP_COVERS("NoOp");

TEST_CASE("a NoOp runs and returns nothing") { CHECK(run_op(op::NoOp, {}).empty()); }

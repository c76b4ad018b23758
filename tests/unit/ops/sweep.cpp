#include "tests/unit/ops/sweep.h"

#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "runtime/ops/elementwise_def.h"
#include "runtime/ops/registry.h"

namespace ag::sweep {
namespace {

std::set<std::string>& covered() {
  static std::set<std::string> s;
  return s;
}

}  // namespace

Covers::Covers(std::initializer_list<const char*> ops) {
  for (const char* op : ops) covered().insert(op);
}

void expect_close(const Tensor& got, const Tensor& want, const std::string& what, double rtol, double atol) {
  INFO(what);
  REQUIRE(got.defined());
  REQUIRE(got.dtype() == want.dtype());
  REQUIRE(got.shape().str() == want.shape().str());
  int64_t n = want.num_elements();
  if (want.dtype() == DType::String) {
    for (int64_t i = 0; i < n; ++i) {
      if (got.data<std::string>()[i] != want.data<std::string>()[i]) {
        FAIL_CHECK("element " << i << ": got '" << got.data<std::string>()[i] << "', want '"
                              << want.data<std::string>()[i] << "'");
        return;
      }
    }
    return;
  }
  bool exact = !is_floating(want.dtype());
  for (int64_t i = 0; i < n; ++i) {
    double g = element(got, i), w = element(want, i);
    bool ok = exact ? g == w
                    : (std::isnan(g) && std::isnan(w)) || g == w || std::fabs(g - w) <= atol + rtol * std::fabs(w);
    if (!ok) {
      FAIL_CHECK("element " << i << ": got " << g << ", want " << w);
      return;
    }
  }
}

}  // namespace ag::sweep

TEST_CASE("every registered op is covered by a sweep case") {
  for (const auto& op : ag::OpRegistry::global().ops()) {
    INFO("op " << op->name << " has no sweep case (AG_SWEEP_COVERS)");
    CHECK(ag::sweep::covered().count(op->name) == 1);
  }
}

TEST_CASE("every registered op holds a decision in each slot of its definition") {
  using ag::CostKind;
  using ag::GradientDecision;
  using ag::TpuFacts;
  for (const auto& op : ag::OpRegistry::global().ops()) {
    INFO("op " << op->name);
    CHECK_MESSAGE(static_cast<bool>(op->infer), "no shape rule");
    CHECK_MESSAGE(static_cast<bool>(op->cpu()), "no CPU kernel");
    // A gradient function, "not differentiable" or "not implemented yet".
    CHECK_MESSAGE(op->gradient.kind != GradientDecision::Kind::Unset, "no gradient decision");
    CHECK_MESSAGE((op->gradient.kind == GradientDecision::Kind::Function) == static_cast<bool>(op->gradient.fn),
                  "a gradient function exactly when the decision is one");
    CHECK_MESSAGE(op->cost.kind != CostKind::Unset, "no cost decision");
    CHECK_MESSAGE((op->cost.kind == CostKind::Contraction) == (op->cost.contraction != nullptr),
                  "a contraction's dimensions exactly when its cost is a contraction's");
    CHECK_MESSAGE(op->tpu.kind != TpuFacts::Kind::Unset, "no TPU decision");
    CHECK_MESSAGE((op->tpu.kind == TpuFacts::Kind::Unsupported) == !op->tpu.reason.empty(),
                  "a reason exactly when the TPU cannot run it");
    // An elementwise semantic is defined on the dtypes the op accepts, with a
    // block step for each and the arity its inputs have.
    if (const ag::ElementwiseDef* e = op->elementwise) {
      CHECK((op->min_inputs == e->arity && op->max_inputs == e->arity));
      for (int t = 0; t < ag::kNumDTypes; ++t) {
        const auto dt = static_cast<ag::DType>(t);
        CHECK_MESSAGE(e->takes(dt) == (e->block_for(dt) != nullptr), "block step for " << ag::dtype_name(dt));
      }
    }
  }
}

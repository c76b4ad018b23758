#include <doctest/doctest.h>

#include "transpiler/emit/public_api.h"

using namespace agc::emit;
using Outcome = PublicLookup::Outcome;

TEST_CASE("a TensorFlow name is found with its kind and argspec") {
  PublicLookup l = lookup_public("tensorflow", "math.reduce_sum");
  REQUIRE(l.outcome == Outcome::Found);
  CHECK(l.found->kind == NameKind::Function);
  CHECK(l.found->params == "input_tensor, axis=, keepdims=, name=");
  CHECK(lookup_public("tensorflow", "keras").found->kind == NameKind::Module);
  CHECK(lookup_public("tensorflow", "float32").found->kind == NameKind::Value);
  CHECK(lookup_public("tensorflow", "Variable").found->kind == NameKind::Class);
  CHECK(find_public("tensorflow", "einsum")->params == "equation, *inputs, **kwargs");
}

TEST_CASE("a name missing from a listed module names the module and the member") {
  PublicLookup l = lookup_public("tensorflow", "math.reduse_sum");
  CHECK(l.outcome == Outcome::Missing);
  CHECK(l.module == "math");
  CHECK(l.attr == "reduse_sum");
  l = lookup_public("tensorflow", "kerass.layers.Dense");
  CHECK(l.outcome == Outcome::Missing);
  CHECK(l.module == "");
  CHECK(l.attr == "kerass");
}

TEST_CASE("nothing is claimed under a module whose members are not listed") {
  CHECK(lookup_public("tensorflow", "compat.v1.NoSuchOp").outcome == Outcome::Unknown);
  // tf.estimator is a module of TF 2.10-2.15 the 2.20-era listing lacks: known, its members not.
  CHECK(lookup_public("tensorflow", "estimator").outcome == Outcome::Found);
  CHECK(lookup_public("tensorflow", "estimator.Estimator").outcome == Outcome::Unknown);
  // raw_ops is listed: a misspelt op is missing.
  CHECK(lookup_public("tensorflow", "raw_ops.MatMul").outcome == Outcome::Found);
  CHECK(lookup_public("tensorflow", "raw_ops.NoSuchOp").outcome == Outcome::Missing);
  // An attribute of a class is not listed either: the class is what is found.
  PublicLookup l = lookup_public("tensorflow", "Variable.assign");
  CHECK(l.outcome == Outcome::Found);
  CHECK(l.found->path == "Variable");
}

TEST_CASE("NumPy and the standard modules are listed from the modules themselves") {
  CHECK(lookup_public("numpy", "zeros").outcome == Outcome::Found);
  CHECK(lookup_public("numpy", "zeroes").outcome == Outcome::Missing);
  CHECK(lookup_public("numpy", "random.seed").outcome == Outcome::Found);
  CHECK(lookup_public("math", "sqrt").found->params == "x, /");
  CHECK(lookup_public("math", "sqr").outcome == Outcome::Missing);
}

TEST_CASE("module names read as Python prints them") {
  CHECK(python_module_name("tensorflow", "") == "tensorflow");
  CHECK(python_module_name("tensorflow", "math") == "tensorflow._api.v2.math");
  CHECK(python_module_name("tensorflow", "keras.layers") == "keras.api._v2.keras.layers");
  CHECK(python_module_name("numpy", "random") == "numpy.random");
  CHECK(python_module_name("math", "") == "math");
}

TEST_CASE("a module's members are its direct members only") {
  bool has_math = false, has_nested = false;
  for (const PublicName& n : public_members("tensorflow", "")) {
    has_math = has_math || n.path == "math";
    has_nested = has_nested || n.path.find('.') != std::string_view::npos;
  }
  CHECK(has_math);
  CHECK(!has_nested);
}

// The tf.* table (runtime/api/tf_functions.def) and what is generated from
// it: every op it names is registered, every signature parses and fits its
// row's kind, and the generated bindings honour `name=` while tracing.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_signature.h"
#include "runtime/api/tf_table_macros.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/tracing.h"
#include "runtime/ops/registry.h"
#include "tests/unit/error_text.h"

using namespace ag;
using ag::test::error_text;
namespace tf_api = ag::tf::api;

namespace {

enum class RowKind { Unary, Binary, Fn, Class, Value };

struct Row {
  RowKind kind;
  std::string cpp_name;
  std::vector<std::string> paths;
  std::string signature;  // "" for values
  std::string op;
  std::string hint;
};

std::vector<Row> rows() {
  std::vector<Row> out;
#define AG_TF_UNARY(cpp_name, paths, signature, op, hint) \
  out.push_back({RowKind::Unary, #cpp_name, {AG_TF_UNPAREN paths}, signature, op, hint});
#define AG_TF_BINARY(cpp_name, paths, signature, op, hint) \
  out.push_back({RowKind::Binary, #cpp_name, {AG_TF_UNPAREN paths}, signature, op, hint});
#define AG_TF_FN(cpp_name, paths, signature, impl, op, hint) \
  out.push_back({RowKind::Fn, #cpp_name, {AG_TF_UNPAREN paths}, signature, op, hint});
#define AG_TF_CLASS(cpp_name, paths, signature, impl) \
  out.push_back({RowKind::Class, #cpp_name, {AG_TF_UNPAREN paths}, signature, "", ""});
#define AG_TF_VALUE(cpp_name, paths, what) out.push_back({RowKind::Value, #cpp_name, {AG_TF_UNPAREN paths}, "", "", ""});
#include "runtime/api/tf_functions.def"
  return out;
}

std::vector<std::string> param_names(const ag::api::Signature& s) {
  std::vector<std::string> out;
  for (const Param& p : s.params) out.push_back(p.name);
  return out;
}

const Node* node_of(const Value& v) { return v.as_tensor().output().node; }

}  // namespace

TEST_CASE("every op type the table names is registered") {
  int named = 0;
  for (const Row& r : rows()) {
    if (r.op.empty()) continue;
    ++named;
    INFO("tf." << r.paths[0] << " names op " << r.op);
    CHECK(OpRegistry::global().find(r.op) != nullptr);
  }
  CHECK(named > 40);
}

TEST_CASE("every row's signature parses and fits its kind") {
  std::set<std::string> paths, cpp_names;
  for (const Row& r : rows()) {
    INFO("tf." << r.paths[0] << ": " << r.signature);
    CHECK(cpp_names.insert(r.cpp_name).second);
    for (const std::string& p : r.paths) CHECK(paths.insert(p).second);  // one row per path
    if (r.kind == RowKind::Value) continue;
    ag::api::Signature s;
    REQUIRE_NOTHROW(s = ag::api::parse_signature(r.signature));
    std::vector<std::string> names = param_names(s);
    switch (r.kind) {
      case RowKind::Unary:
        // f(x, name=None): the tensor, then the node's name.
        REQUIRE(names.size() == 2);
        CHECK(names[1] == "name");
        CHECK(!s.params[0].default_value);
        CHECK(s.params[1].default_value->is_none());
        break;
      case RowKind::Binary:
        REQUIRE(names.size() == 3);
        CHECK(names[2] == "name");
        CHECK(!s.params[0].default_value);
        CHECK(!s.params[1].default_value);
        CHECK(s.params[2].default_value->is_none());
        break;
      case RowKind::Fn:
      case RowKind::Class:
      case RowKind::Value: break;
    }
    // A node-name hint is what TF names the node when `name` is None: a
    // function with one takes `name`.
    if (!r.hint.empty()) CHECK(s.find("name"));
    if (!r.op.empty()) CHECK(r.kind != RowKind::Class);
  }
}

TEST_CASE("the node-name hints are the table's") {
  CHECK(tf::hint::reduce_sum == "Sum");
  CHECK(tf::hint::tanh == "Tanh");
  CHECK(tf::hint::transpose == "transpose");
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{2}}, "x"));
  CHECK(node_of(tf::tanh(x))->name == "Tanh");
  CHECK(node_of(tf::maximum(x, 1.0))->name == "Maximum");
  CHECK(node_of(tf::reduce_sum(x))->name == "Sum");
  CHECK(node_of(tf::tanh(x, "act"))->name == "act");
}

TEST_CASE("name= names the node while tracing, made unique as TF does") {
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{2, 3}}, "x"));
  CHECK(node_of(tf_api::tanh({x}, {{"name", "act"}}))->name == "act");
  CHECK(node_of(tf_api::tanh({x, "act"}, {}))->name == "act_1");
  CHECK(node_of(tf_api::subtract({x, 1.0}, {{"name", "diff"}}))->name == "diff");
  CHECK(node_of(tf_api::logical_not({tf_api::less({x, 0.0}, {})}, {{"name", "not_neg"}}))->name == "not_neg");
  CHECK(node_of(tf_api::reduce_sum({x}, {{"axis", 0}, {"name", "total"}}))->name == "total");
  CHECK(node_of(tf_api::argmax({x}, {{"name", "best"}}))->name == "best");
  CHECK(node_of(tf_api::reshape({x, Value::list({Value(6)})}, {{"name", "flat"}}))->name == "flat");
  CHECK(node_of(tf_api::constant({1.0}, {{"name", "one"}}))->name == "one");
  CHECK(node_of(tf_api::cast({x, tf_api::int32()}, {{"name", "as_int"}}))->name == "as_int");
  CHECK(node_of(tf_api::where({tf_api::less({x, 0.0}, {}), x, 0.0}, {{"name", "relu_ish"}}))->name == "relu_ish");
  CHECK(node_of(tf_api::softmax({x}, {{"name", "probs"}}))->name == "probs");
  // TF's default names when `name` is None or absent: the row's hint, or the
  // default of the signature ("range" for tf.range, whose name='range').
  CHECK(node_of(tf_api::tanh({x}, {{"name", Value()}}))->name == "Tanh");
  CHECK(node_of(tf_api::range({3}, {}))->name == "range");
  CHECK(node_of(tf_api::range({3}, {{"name", Value()}}))->name == "Range_1");  // names are unique case-insensitively
  CHECK(node_of(tf_api::where({tf_api::less({x, 0.0}, {})}, {}))->name == "Where");
  CHECK(node_of(tf_api::tanh({x}, {{"name", ""}}))->name == "Tanh_1");
}

TEST_CASE("a name TF rejects is its error while tracing, and ignored eagerly") {
  {
    Graph g("f");
    TraceScope scope(g);
    Value x(g.placeholder({DType::Float32, Shape{2}}, "x"));
    CHECK(error_text([&] { tf_api::tanh({x}, {{"name", "bad name"}}); }) ==
          "ValueError: 'bad name' is not a valid root scope name. A root scope name has to match the following "
          "pattern: ^[A-Za-z0-9.][A-Za-z0-9_.\\\\/>-]*$");
    CHECK(error_text([&] { tf_api::tanh({x}, {{"name", "_x"}}); }).rfind("ValueError: '_x' is not a valid", 0) == 0);
    CHECK(error_text([&] { tf_api::tanh({x}, {{"name", 3}}); }) == "TypeError: expected string or bytes-like object");
    CHECK(node_of(tf_api::tanh({x}, {{"name", "scope/act"}}))->name == "scope/act");
  }
  CHECK(str(tf_api::tanh({0.0}, {{"name", "bad name"}})) == "tf.Tensor(0.0, shape=(), dtype=float32)");
}

TEST_CASE("plain op wrappers convert their operands as TF's ops do") {
  CHECK(str(tf_api::subtract({5, 2}, {})) == "tf.Tensor(3, shape=(), dtype=int32)");
  CHECK(str(tf_api::subtract({tf::constant(5.0), 2}, {})) == "tf.Tensor(3.0, shape=(), dtype=float32)");
  CHECK(str(tf_api::maximum({2, tf::constant(1.5)}, {})) == "tf.Tensor(2.0, shape=(), dtype=float32)");
  CHECK(str(tf_api::less({tf::constant(1.0), 2}, {})) == "tf.Tensor(True, shape=(), dtype=bool)");
  CHECK(error_text([] { tf_api::subtract({tf::constant(5), 2.5}, {}); }).rfind("TypeError: Cannot convert 2.5", 0) == 0);
  CHECK(str(tf_api::sqrt({4.0}, {})) == "tf.Tensor(2.0, shape=(), dtype=float32)");
}

TEST_CASE("a row is all a plain op wrapper needs: values, dtypes and node names") {
  // reciprocal, squared_difference and the bitwise functions are rows only.
  CHECK(str(tf_api::reciprocal({4.0}, {})) == "tf.Tensor(0.25, shape=(), dtype=float32)");
  CHECK(str(tf_api::squared_difference({3, tf::constant(1)}, {})) == "tf.Tensor(4, shape=(), dtype=int32)");
  CHECK(str(tf_api::bitwise_and({12, 10}, {})) == "tf.Tensor(8, shape=(), dtype=int32)");
  CHECK(str(tf_api::bitwise_or({12, 10}, {})) == "tf.Tensor(14, shape=(), dtype=int32)");
  CHECK(str(tf_api::bitwise_xor({12, 10}, {{"name", "x"}})) == "tf.Tensor(6, shape=(), dtype=int32)");
  CHECK(str(tf_api::invert({0}, {})) == "tf.Tensor(-1, shape=(), dtype=int32)");
  CHECK(str(tf::invert(Value(tf::constant(5)))) == "tf.Tensor(-6, shape=(), dtype=int32)");
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Int32, Shape{2}}, "x"));
  CHECK(node_of(tf_api::bitwise_and({x, 3}, {}))->name == "BitwiseAnd");
  CHECK(node_of(tf_api::invert({x}, {{"name", "flipped"}}))->name == "flipped");
  CHECK(node_of(tf_api::squared_difference({x, x}, {}))->name == "SquaredDifference");
}

TEST_CASE("tf.print binds *inputs and its keyword-only options") {
  CHECK(error_text([] { tf_api::print({1}, {{"output_stream", "file"}}); }).rfind("ValueError: Unsupported output stream", 0) ==
        0);
  CHECK(error_text([] { tf_api::einsum({"ij->ji", 1}, {{"bogus", 1}}); }) ==
        "TypeError: Invalid keyword arguments for this function: bogus.");
}

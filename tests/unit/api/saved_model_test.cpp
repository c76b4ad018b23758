// tf.saved_model (runtime/api/saved_model_*.cpp): what no program can do to
// a SavedModel directory (corrupt saved_model.pb, truncated variables), and
// saves that must fail before writing anything.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "runtime/api/python_api.h"
#include "runtime/api/saved_model.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/function/function_value.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/value/variable_value.h"
#include "tests/unit/error_text.h"

using namespace ag;
using ag::test::error_text;
namespace fs = std::filesystem;

namespace {

std::string fresh_dir(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("agc_saved_model_test_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(p);
  return p.string();
}

/// A tf.Module with variable `w` and tf.function `f(x) = x * w` traced for float32[None].
Value module_with_function(const Value& w) {
  Value m = tf::api::Module()({}, {});
  m.setattr("w", w);
  FunctionOptions options;
  options.input_signature = std::vector<Value>{make_tensor_spec(Shape{kUnknownDim}, DType::Float32, "x")};
  auto f = std::make_shared<Function>(
      "f", std::vector<Param>{{"x", std::nullopt}},
      [w](const std::vector<Value>& args) { return args.at(0) * variable_value::read(w); }, options);
  m.setattr("f", function_value(f));
  return m;
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
}

}  // namespace

TEST_CASE("a saved module loads and runs; damaged files are clear errors") {
  Value w = variable_value::create(Value(Tensor::scalar<float>(3)));
  Value m = module_with_function(w);
  std::string dir = fresh_dir("damaged");
  tf::api::saved_model_save({m, Value(dir)}, {});
  Value loaded = tf::api::saved_model_load({Value(dir)}, {});
  Value x = Value(TensorHandle(Tensor::from_vector<float>({2}, {1, 2})));
  CHECK(str(loaded.getattr("f")({x})) == "tf.Tensor([3. 6.], shape=(2,), dtype=float32)");
  CHECK(str(getitem(loaded.getattr("signatures"), Value("serving_default"))({}, {{"x", x}})) ==
        "{'output_0': <tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 6.], dtype=float32)>}");

  fs::path data = fs::path(dir) / "variables" / "variables.data-00000-of-00001";
  std::string bytes;
  {
    std::ifstream in(data, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  write_bytes(data, bytes.substr(0, 2));
  std::string truncated = error_text([&] { tf::api::saved_model_load({Value(dir)}, {}); });
  CHECK(truncated.rfind("DataLossError: ", 0) == 0);
  CHECK(truncated.find("variables.data-00000-of-00001") != std::string::npos);

  write_bytes(fs::path(dir) / "saved_model.pb", "not a saved model");
  CHECK(error_text([&] { tf::api::saved_model_load({Value(dir)}, {}); }) ==
        "OSError: Cannot parse file " + dir + "/saved_model.pb: Error parsing message with type 'tensorflow.SavedModel'.");
  CHECK(error_text([&] { tf::api::saved_model_load({Value(dir + "/nope")}, {}); }) ==
        "OSError: SavedModel file does not exist at: " + dir + "/nope/{saved_model.pbtxt|saved_model.pb}");
  fs::remove_all(dir);
}

TEST_CASE("an object graph whose function captures itself is DataLossError, not a stack overflow") {
  // Found by saved_model_fuzz: make(function) -> concrete -> make(bound input)
  // went round the cycle until the stack ran out.
  Value w = variable_value::create(Value(Tensor::scalar<float>(3)));
  std::string dir = fresh_dir("cyclic");
  tf::api::saved_model_save({module_with_function(w), Value(dir)}, {});
  fs::path pb = fs::path(dir) / "saved_model.pb";
  tensorflow::SavedModel model;
  {
    std::ifstream in(pb, std::ios::binary);
    REQUIRE(model.ParseFromIstream(&in));
  }
  auto* graph = model.mutable_meta_graphs(0)->mutable_object_graph_def();
  int function_node = -1;
  for (int i = 0; i < graph->nodes_size(); ++i) {
    if (graph->nodes(i).has_function()) function_node = i;
  }
  REQUIRE(function_node >= 0);
  const std::string& concrete = graph->nodes(function_node).function().concrete_functions(0);
  (*graph->mutable_concrete_functions())[concrete].add_bound_inputs(function_node);
  write_bytes(pb, model.SerializeAsString());
  CHECK(error_text([&] { tf::api::saved_model_load({Value(dir)}, {}); }) ==
        "DataLossError: The object graph of SavedModel " + dir + " is cyclic: node " +
            std::to_string(function_node) + " depends on itself");
  fs::remove_all(dir);
}

TEST_CASE("a save that cannot be written fails before the directory exists") {
  // A function reading a variable the module does not track.
  Value w = variable_value::create(Value(Tensor::scalar<float>(3)));
  Value m = module_with_function(w);
  m.setattr("w", Value());
  std::string dir = fresh_dir("untracked");
  std::string e = error_text([&] { tf::api::saved_model_save({m, Value(dir)}, {}); });
  CHECK(e.rfind("AssertionError: Tried to export a function which references an 'untracked' resource. TensorFlow "
                "objects (e.g. tf.Variable) captured by functions must be 'tracked' by assigning them to an attribute "
                "of a tracked object or assigned to an attribute of the main object directly. See the information "
                "below:\n\tFunction name = b'__inference_f_",
                0) == 0);
  CHECK(!fs::exists(dir));
  // Options that are not SaveOptions, aliases of the wrong type.
  CHECK(error_text([&] { tf::api::saved_model_save({m, Value(dir)}, {{"options", Value(3)}}); }) ==
        "TypeError: options must be a tf.saved_model.SaveOptions, got int");
  Value bad = tf::api::saved_model_SaveOptions()({}, {{"function_aliases", Value::dict({{Value("a"), Value(3)}})}});
  CHECK(error_text([&] { tf::api::saved_model_save({module_with_function(w), Value(dir)}, {{"options", bad}}); }) ==
        "TypeError: Unsupported type f<class 'int'>. Functions in `function_aliases` should be created by "
        "tf.function, or concrete functions, or collections of concrete functions.");
  CHECK(error_text([&] { tf::api::saved_model_save({Value(3), Value(dir)}, {}); }) ==
        "ValueError: Expected an object of type `Trackable`, such as `tf.Module` or a subclass of the `Trackable` "
        "class, for export. Got 3 with type <class 'int'>.");
  CHECK(!fs::exists(dir));
}

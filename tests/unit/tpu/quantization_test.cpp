// The converter's post-training quantization (B37-B44) on a MetaGraphDef
// written by hand: signature serving_default runs W(x) = x · w + b with w
// and b constants, x float32 [2, 3]. The quantized function is run as the
// converted model runs it and checked against quantization_params and
// quantized_matmul (the helpers' arithmetic, tested on their own vectors).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <unistd.h>

#include "runtime/core/proto/representative_dataset.pb.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/core/tfrecord.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/function_def.h"
#include "runtime/tpu/calibration.h"
#include "runtime/tpu/converter_options.h"
#include "runtime/tpu/quantization.h"
#include "runtime/tpu/quantization_params.h"
#include "runtime/tpu/quantized_matmul.h"
#include "tests/unit/error_text.h"
#include "tests/unit/tpu/support.h"

using namespace ag;
using namespace ag::tpu;
using ag::test::add_function;
using ag::test::error_text;

namespace {

namespace fs = std::filesystem;

const std::vector<float> kWeights = {0.5f, -1.25f, 2.0f, 0.75f, -0.3f, 1.1f, 0.05f, 0.9f, -2.2f, 1.7f, 0.6f, -0.4f};
const std::vector<float> kBias = {0.1f, -0.2f, 0.3f, 0.05f};

tensorflow::NodeDef* add_node(tensorflow::FunctionDef* f, const std::string& name, const std::string& op,
                              std::vector<std::string> inputs) {
  tensorflow::NodeDef* n = f->add_node_def();
  n->set_name(name);
  n->set_op(op);
  for (const std::string& in : inputs) n->add_input(in);
  return n;
}

void add_const(tensorflow::FunctionDef* f, const std::string& name, const Tensor& t) {
  tensorflow::NodeDef* n = add_node(f, name, "Const", {});
  proto::write_tensor(t, (*n->mutable_attr())["value"].mutable_tensor());
  (*n->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
}

/// serving_default: W(x) = MatMul(x, w) + b, x float32 [2, 3], w [3, 4].
tensorflow::MetaGraphDef dense_model() {
  tensorflow::MetaGraphDef m;
  tensorflow::FunctionDef* f = add_function(m, "W");
  add_const(f, "w", Tensor::from_vector<float>(Shape{3, 4}, kWeights));
  add_const(f, "b", Tensor::from_vector<float>(Shape{4}, kBias));
  tensorflow::NodeDef* mm = add_node(f, "MatMul", "MatMul", {"x", "w:output:0"});
  (*mm->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
  tensorflow::NodeDef* add = add_node(f, "add", "AddV2", {"MatMul:product:0", "b:output:0"});
  (*add->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
  (*f->mutable_ret())["output_0"] = "add:z:0";
  tensorflow::NodeDef* ph = m.mutable_graph_def()->add_node();
  ph->set_name("serving_default_x");
  ph->set_op("Placeholder");
  tensorflow::NodeDef* call = m.mutable_graph_def()->add_node();
  call->set_name("StatefulPartitionedCall");
  call->set_op("StatefulPartitionedCall");
  call->add_input("serving_default_x");
  (*call->mutable_attr())["f"].mutable_func()->set_name("W");
  auto& sig = (*m.mutable_signature_def())["serving_default"];
  (*sig.mutable_inputs())["x"].set_name("serving_default_x:0");
  (*sig.mutable_outputs())["output_0"].set_name("StatefulPartitionedCall:0");
  return m;
}

Tensor run_w(const tensorflow::MetaGraphDef& m, const Tensor& x) {
  auto library = std::make_shared<tensorflow::FunctionDefLibrary>(m.graph_def().library());
  Executable e = compile(*FunctionDefReader(library).read("W", {}));
  return e.plan().run(std::vector<Tensor>{x}).at(0);
}

/// A directory for the test's dataset files, removed afterwards.
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("agc_quantization_test_" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

/// Writes samples {key: tensor} as the representative dataset file `name`.
std::string write_dataset(const TempDir& dir, const std::string& name, const std::string& key,
                          const std::vector<Tensor>& samples) {
  std::string path = (dir.path / name).string();
  TFRecordWriter w(path);
  for (const Tensor& t : samples) {
    tensorflow::quantization::RepresentativeDataSample s;
    proto::write_tensor(t, &(*s.mutable_tensor_proto_inputs())[key]);
    w.write(s.SerializeAsString());
  }
  w.close();
  return path;
}

QuantizationOptions options_from(const std::string& text) {
  return parse_converter_options("external_feature_configs { quantization_options { " + text + " } }")
      .external_feature_configs()
      .quantization_options();
}

std::vector<Tensor> samples() {
  std::vector<Tensor> out;
  for (int i = 0; i < 4; ++i) {
    std::vector<float> v;
    for (int j = 0; j < 6; ++j) v.push_back(std::sin(static_cast<float>(i * 6 + j)) * (1.0f + static_cast<float>(i)));
    out.push_back(Tensor::from_vector<float>(Shape{2, 3}, v));
  }
  return out;
}

bool has_op(const tensorflow::MetaGraphDef& m, const std::string& op) {
  for (const auto& n : m.graph_def().library().function(0).node_def()) {
    if (n.op() == op) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("B37: quantization options get TF's defaults") {
  QuantizationOptions o = quantization_defaults(options_from(""));
  CHECK(o.tags_size() == 1);
  CHECK(o.tags(0) == "serve");
  CHECK(o.signature_keys(0) == "serving_default");
  CHECK(o.op_set() == QuantizationOptions::XLA);
  CHECK(o.quantization_method() == QuantizationOptions::STATIC_RANGE);
  CHECK(o.calibration_options().calibration_method() == CalibrationOptions::CALIBRATION_METHOD_MIN_MAX);
  CHECK(o.min_num_elements_for_weights() == 0);
  CHECK(quantization_defaults(options_from("quantization_method: DYNAMIC_RANGE")).min_num_elements_for_weights() == 1024);
  CHECK(quantization_defaults(options_from("quantization_method: WEIGHT_ONLY min_num_elements_for_weights: 5"))
            .min_num_elements_for_weights() == 5);
}

TEST_CASE("static range: the MatMul and its bias become an int8 product, B41's arithmetic exactly") {
  TempDir dir;
  std::vector<Tensor> data = samples();
  std::string path = write_dataset(dir, "data", "x", data);
  tensorflow::MetaGraphDef m = dense_model();
  const tensorflow::MetaGraphDef original = m;
  std::vector<std::string> warnings = quantize_model(
      m, options_from("representative_datasets { key: 'serving_default' value { tfrecord_file_path: '" + path + "' } }"),
      dir.path.string());
  REQUIRE(warnings.size() == 1);  // 4 samples < 200
  CHECK(warnings[0] == "The representative dataset of signature 'serving_default' has 4 samples; more than 200 are "
                       "recommended for calibration");
  CHECK(has_op(m, "XlaDotV2"));
  CHECK_FALSE(has_op(m, "MatMul"));

  // The reference: ranges as MIN_MAX calibrates them over the samples.
  Calibrator in(CalibrationOptions::CALIBRATION_METHOD_MIN_MAX), out(CalibrationOptions::CALIBRATION_METHOD_MIN_MAX);
  for (const Tensor& x : data) {
    in.collect({x.data<float>(), 6});
    Tensor y = run_w(original, x);
    out.collect({y.data<float>(), 8});
  }
  QuantParams pin = activation_params(in.range()->min, in.range()->max);
  QuantParams pout = activation_params(out.range()->min, out.range()->max);
  Tensor w = Tensor::from_vector<float>(Shape{3, 4}, kWeights);
  QuantParams pw = weight_params(w);
  for (const Tensor& x : data) {
    Tensor expected = dequantize(quantized_matmul(quantize(x, pin), pin, quantize(w, pw, kWeightQMin, kWeightQMax),
                                                  {pw}, Tensor::from_vector<float>(Shape{4}, kBias), pout),
                                 pout);
    Tensor got = run_w(m, x);
    REQUIRE(got.shape() == expected.shape());
    for (int i = 0; i < 8; ++i) CHECK(got.data<float>()[i] == expected.data<float>()[i]);
    // And close to the float model: within a few output steps.
    Tensor f = run_w(original, x);
    for (int i = 0; i < 8; ++i) CHECK(std::fabs(got.data<float>()[i] - f.data<float>()[i]) < 4 * pout.scale);
  }
}

TEST_CASE("static range: a MatMul reading another's result reads it quantized and back") {
  // W(x) = (x · w) · v: the second MatMul's input is the first's output.
  tensorflow::MetaGraphDef m = dense_model();
  tensorflow::FunctionDef* f = m.mutable_graph_def()->mutable_library()->mutable_function(0);
  add_const(f, "v", Tensor::from_vector<float>(Shape{4, 2}, {0.3f, -0.7f, 1.2f, 0.1f, -0.5f, 0.9f, 0.25f, -1.0f}));
  tensorflow::NodeDef* mm = add_node(f, "MatMul_1", "MatMul", {"MatMul:product:0", "v:output:0"});
  (*mm->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
  f->mutable_node_def()->DeleteSubrange(3, 1);  // the add: W returns MatMul_1
  (*f->mutable_ret())["output_0"] = "MatMul_1:product:0";
  const tensorflow::MetaGraphDef original = m;
  TempDir dir;
  std::string path = write_dataset(dir, "data", "x", samples());
  quantize_model(
      m, options_from("representative_datasets { key: 'serving_default' value { tfrecord_file_path: '" + path + "' } }"),
      dir.path.string());
  int dots = 0;
  for (const auto& n : m.graph_def().library().function(0).node_def()) dots += n.op() == "XlaDotV2";
  CHECK(dots == 2);
  CHECK_FALSE(has_op(m, "MatMul"));
  // Two 8-bit steps in a row: within 3% of the outputs' spread.
  float lo = 0, hi = 0;
  for (const Tensor& x : samples()) {
    Tensor want = run_w(original, x);
    for (int i = 0; i < 4; ++i) lo = std::min(lo, want.data<float>()[i]), hi = std::max(hi, want.data<float>()[i]);
  }
  for (const Tensor& x : samples()) {
    Tensor got = run_w(m, x), want = run_w(original, x);
    for (int i = 0; i < 4; ++i) CHECK(std::fabs(got.data<float>()[i] - want.data<float>()[i]) < 0.03f * (hi - lo));
  }
}

TEST_CASE("dynamic range: each call's activation range, the int32 sum scaled back to float") {
  tensorflow::MetaGraphDef m = dense_model();
  const tensorflow::MetaGraphDef original = m;
  quantize_model(m, options_from("quantization_method: DYNAMIC_RANGE min_num_elements_for_weights: -1"), "");
  CHECK(has_op(m, "XlaDotV2"));
  Tensor w = Tensor::from_vector<float>(Shape{3, 4}, kWeights);
  QuantParams pw = weight_params(w);
  Tensor wq = quantize(w, pw, kWeightQMin, kWeightQMax);
  for (const Tensor& x : samples()) {
    // B41's activation parameters in float64, as the graph computes them.
    double lo = 0, hi = 0;
    for (int i = 0; i < 6; ++i) {
      lo = std::min(lo, static_cast<double>(x.data<float>()[i]));
      hi = std::max(hi, static_cast<double>(x.data<float>()[i]));
    }
    const double scale = hi == lo ? 1.0 : (hi - lo) / 255.0;
    const double zp = hi == lo ? 0.0 : std::clamp(std::round(-128.0 - lo / scale), -128.0, 127.0);
    Tensor got = run_w(m, x);
    Tensor f = run_w(original, x);
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 4; ++j) {
        int32_t acc = 0;
        for (int k = 0; k < 3; ++k) {
          double q = std::clamp(std::round(static_cast<double>(x.data<float>()[i * 3 + k]) / scale) + zp, -128.0, 127.0);
          acc += (static_cast<int32_t>(q) - static_cast<int32_t>(zp)) * wq.data<int8_t>()[k * 4 + j];
        }
        const float expected = static_cast<float>(static_cast<double>(acc) * (scale * static_cast<double>(pw.scale)));
        CHECK(got.data<float>()[i * 4 + j] == expected + kBias[j]);
        CHECK(std::fabs(got.data<float>()[i * 4 + j] - f.data<float>()[i * 4 + j]) < 0.2f);
      }
    }
  }
}

TEST_CASE("weight only: the MatMul reads its int8 weights dequantized; small weights stay float (B40)") {
  tensorflow::MetaGraphDef m = dense_model();
  quantize_model(m, options_from("quantization_method: WEIGHT_ONLY enable_per_channel_quantization: true "
                                 "min_num_elements_for_weights: 12"),
                 "");
  CHECK(has_op(m, "MatMul"));
  CHECK_FALSE(has_op(m, "XlaDotV2"));
  Tensor w = Tensor::from_vector<float>(Shape{3, 4}, kWeights);
  std::vector<QuantParams> pw = per_channel_weight_params(w, -1);
  Tensor wd = dequantize_per_channel(quantize_per_channel(w, pw, -1), pw, -1);
  for (const Tensor& x : samples()) {
    Tensor got = run_w(m, x);
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 4; ++j) {
        float acc = 0;
        for (int k = 0; k < 3; ++k) acc += x.data<float>()[i * 3 + k] * wd.data<float>()[k * 4 + j];
        CHECK(got.data<float>()[i * 4 + j] == doctest::Approx(acc + kBias[j]).epsilon(1e-6));
      }
    }
  }
  // 12 weights < 13: left as they are.
  tensorflow::MetaGraphDef small = dense_model();
  quantize_model(small, options_from("quantization_method: WEIGHT_ONLY min_num_elements_for_weights: 13"), "");
  CHECK(small.graph_def().library().function(0).node_def_size() == dense_model().graph_def().library().function(0).node_def_size());
}

TEST_CASE("B43/B44: dataset checks with TF's texts, unreached ops stay float") {
  TempDir dir;
  tensorflow::MetaGraphDef m = dense_model();
  CHECK(error_text([&] { quantize_model(m, options_from(""), ""); }) ==
        "ValueError: When `representative_dataset` is not provided, the model should be trained with "
        "quantization-aware training (QAT).");
  CHECK(error_text([&] {
          quantize_model(m, options_from("representative_datasets { key: 'other' value { tfrecord_file_path: 'x' } }"),
                         "");
        }) == "ValueError: The signature keys and the keys of representative dataset map do not match. Signature keys: "
              "{'serving_default'}, representative dataset map: {'other'}.");
  std::string wrong = write_dataset(dir, "wrong", "y", samples());
  CHECK(error_text([&] {
          quantize_model(
              m, options_from("representative_datasets { key: 'serving_default' value { tfrecord_file_path: '" + wrong + "' } }"),
              "");
        }) == "ValueError: Invalid input keys for representative sample. The function expects input keys of: {'x'}. "
              "Got: {'y'}. Please provide correct input keys for representative samples.");
  CHECK(error_text([&] {
          quantize_model(m, options_from("quantization_method: DYNAMIC_RANGE enable_per_channel_quantization: true"), "");
        }) == "ValueError: Currently, per-channel quantization is supported for Uniform Quantized opset and Weight-only.");
  CHECK(error_text([&] {
          quantize_model(m, options_from("quantization_method: DYNAMIC_RANGE signature_keys: 'nope'"), "");
        }) == "ValueError: Signature key 'nope' is not in the SavedModel");
  // No sample: nothing calibrated, the MatMul stays float (B44).
  std::string empty = write_dataset(dir, "empty", "x", {});
  std::vector<std::string> warnings = quantize_model(
      m, options_from("representative_datasets { key: 'serving_default' value { tfrecord_file_path: '" + empty + "' } }"),
      "");
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[1] == "No representative sample reached W/MatMul: they stay float32 (B44)");
  CHECK(has_op(m, "MatMul"));
  CHECK(error_text([&] {
          quantize_model(
              m, options_from("representative_datasets { key: 'serving_default' value { tfrecord_file_path: '" +
                              (dir.path / "missing").string() + "' } }"),
              "");
        }).find("NotFoundError") == 0);
}

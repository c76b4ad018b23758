// The converter's post-training quantization (B37-B44) on MetaGraphDefs
// written by hand: signature serving_default runs W(x) = x · w + b with w
// and b constants, x float32 [2, 3], or a convolution, a Gather, a
// BatchMatMul. The quantized function is run as the converted model runs it
// and checked against quantization_params and quantized_matmul (the
// helpers' arithmetic, tested on their own vectors) or against B41's
// arithmetic written out here.
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
#include "runtime/ops/eager.h"
#include "runtime/ops/registry.h"
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
using ag::test::add_node;
using ag::test::error_text;

namespace {

namespace fs = std::filesystem;

const std::vector<float> kWeights = {0.5f, -1.25f, 2.0f, 0.75f, -0.3f, 1.1f, 0.05f, 0.9f, -2.2f, 1.7f, 0.6f, -0.4f};
const std::vector<float> kBias = {0.1f, -0.2f, 0.3f, 0.05f};

void add_const(tensorflow::FunctionDef* f, const std::string& name, const Tensor& t) {
  tensorflow::NodeDef* n = add_node(f, name, "Const", {});
  proto::write_tensor(t, (*n->mutable_attr())["value"].mutable_tensor());
  (*n->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
}

void set_type(tensorflow::NodeDef* n, const char* attr = "T") { (*n->mutable_attr())[attr].set_type(tensorflow::DT_FLOAT); }

/// Signature serving_default calling function `fn` on its input x.
void add_signature(tensorflow::MetaGraphDef& m, const std::string& fn) {
  tensorflow::NodeDef* ph = m.mutable_graph_def()->add_node();
  ph->set_name("serving_default_x");
  ph->set_op("Placeholder");
  tensorflow::NodeDef* call = m.mutable_graph_def()->add_node();
  call->set_name("StatefulPartitionedCall");
  call->set_op("StatefulPartitionedCall");
  call->add_input("serving_default_x");
  (*call->mutable_attr())["f"].mutable_func()->set_name(fn);
  auto& sig = (*m.mutable_signature_def())["serving_default"];
  (*sig.mutable_inputs())["x"].set_name("serving_default_x:0");
  (*sig.mutable_outputs())["output_0"].set_name("StatefulPartitionedCall:0");
}

/// Declares argument x's shape, as TF's FunctionDefs do (arg_attr _output_shapes).
void set_arg_shape(tensorflow::FunctionDef* f, const Shape& s) {
  tensorflow::AttrValue shapes;
  proto::write_shape(s, shapes.mutable_list()->add_shape());
  (*(*f->mutable_arg_attr())[0].mutable_attr())["_output_shapes"] = shapes;
}

/// serving_default: W(x) = MatMul(x, w) + b, x float32 [2, 3], w [3, 4].
tensorflow::MetaGraphDef dense_model() {
  tensorflow::MetaGraphDef m;
  tensorflow::FunctionDef* f = add_function(m, "W");
  add_const(f, "w", Tensor::from_vector<float>(Shape{3, 4}, kWeights));
  add_const(f, "b", Tensor::from_vector<float>(Shape{4}, kBias));
  set_type(add_node(f, "MatMul", "MatMul", {"x", "w:output:0"}));
  set_type(add_node(f, "add", "AddV2", {"MatMul:product:0", "b:output:0"}));
  (*f->mutable_ret())["output_0"] = "add:z:0";
  add_signature(m, "W");
  return m;
}

/// serving_default: W(x) = Relu(BiasAdd(Conv2D(x, k), c)), x float32
/// [1, 5, 5, 4], k [3, 3, 4 / groups, 3 · groups], `padding` SAME, VALID or
/// EXPLICIT (1, 0, 2, 1), `stride` both ways; `op` DepthwiseConv2dNative
/// makes k [3, 3, 4, 2] (8 output channels).
tensorflow::MetaGraphDef conv_model(const std::string& padding, int stride, int groups, bool known_shape = true,
                                    const std::string& op = "Conv2D") {
  tensorflow::MetaGraphDef m;
  tensorflow::FunctionDef* f = add_function(m, "W");
  if (known_shape) set_arg_shape(f, Shape{-1, 5, 5, 4});
  const bool depthwise = op == "DepthwiseConv2dNative";
  const int64_t cg = depthwise ? 4 : 4 / groups, oc = depthwise ? 8 : 3 * groups;
  std::vector<float> k, c;
  for (int64_t i = 0; i < 9 * cg * oc / (depthwise ? 4 : 1); ++i) k.push_back(std::cos(static_cast<float>(i) * 0.7f) * 0.8f);
  for (int64_t i = 0; i < oc; ++i) c.push_back(0.05f * static_cast<float>(i) - 0.1f);
  add_const(f, "k", Tensor::from_vector<float>(depthwise ? Shape{3, 3, 4, 2} : Shape{3, 3, cg, oc}, k));
  add_const(f, "c", Tensor::from_vector<float>(Shape{oc}, c));
  tensorflow::NodeDef* conv = add_node(f, "Conv2D", op, {"x", "k:output:0"});
  set_type(conv);
  auto& attrs = *conv->mutable_attr();
  for (int v : {1, stride, stride, 1}) attrs["strides"].mutable_list()->add_i(v);
  for (int v : {1, 1, 1, 1}) attrs["dilations"].mutable_list()->add_i(v);
  attrs["padding"].set_s(padding);
  attrs["data_format"].set_s("NHWC");
  if (padding == "EXPLICIT") {
    for (int v : {0, 0, 1, 0, 2, 1, 0, 0}) attrs["explicit_paddings"].mutable_list()->add_i(v);
  }
  tensorflow::NodeDef* bias = add_node(f, "BiasAdd", "BiasAdd", {"Conv2D:output:0", "c:output:0"});
  set_type(bias);
  (*bias->mutable_attr())["data_format"].set_s("NHWC");
  set_type(add_node(f, "Relu", "Relu", {"BiasAdd:output:0"}));
  (*f->mutable_ret())["output_0"] = "Relu:activations:0";
  add_signature(m, "W");
  return m;
}

std::vector<Tensor> conv_samples() {
  std::vector<Tensor> out;
  for (int i = 0; i < 5; ++i) {
    std::vector<float> v;
    for (int j = 0; j < 100; ++j) v.push_back(std::sin(static_cast<float>(i * 100 + j) * 0.37f) * (1.0f + 0.5f * static_cast<float>(i)));
    out.push_back(Tensor::from_vector<float>(Shape{1, 5, 5, 4}, v));
  }
  return out;
}

Tensor run_w(const tensorflow::MetaGraphDef& m, const Tensor& x) {
  auto library = std::make_shared<tensorflow::FunctionDefLibrary>(m.graph_def().library());
  Executable e = compile(*FunctionDefReader(library).read("W", {}));
  return e.plan().run(std::vector<Tensor>{x}).at(0);
}

/// The largest |a − b| over two same-shaped float tensors, and b's spread.
std::pair<float, float> max_error(const Tensor& a, const Tensor& b) {
  REQUIRE(a.shape() == b.shape());
  float err = 0, lo = 0, hi = 0;
  for (int64_t i = 0; i < a.num_elements(); ++i) {
    err = std::max(err, std::fabs(a.data<float>()[i] - b.data<float>()[i]));
    lo = std::min(lo, b.data<float>()[i]);
    hi = std::max(hi, b.data<float>()[i]);
  }
  return {err, hi - lo};
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

int count_op(const tensorflow::MetaGraphDef& m, const std::string& op) {
  int count = 0;
  for (const auto& n : m.graph_def().library().function(0).node_def()) count += n.op() == op;
  return count;
}

bool has_op(const tensorflow::MetaGraphDef& m, const std::string& op) { return count_op(m, op) > 0; }

std::string dataset_option(const std::string& path) {
  return "representative_datasets { key: 'serving_default' value { tfrecord_file_path: '" + path + "' } }";
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
  set_type(add_node(f, "MatMul_1", "MatMul", {"MatMul:product:0", "v:output:0"}));
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

TEST_CASE("static range: a convolution with its bias and Relu becomes an int8 XlaConvV2, B41's arithmetic exactly") {
  // SAME with stride 2: padding (1, 1) both ways on a 5x5 input, zero-point padded.
  TempDir dir;
  const std::vector<Tensor> data = conv_samples();
  std::string path = write_dataset(dir, "data", "x", data);
  tensorflow::MetaGraphDef m = conv_model("SAME", 2, 1);
  const tensorflow::MetaGraphDef original = m;
  quantize_model(m, options_from(dataset_option(path)), dir.path.string());
  CHECK(count_op(m, "XlaConvV2") == 1);
  CHECK(count_op(m, "PadV2") == 1);
  for (const char* op : {"Conv2D", "BiasAdd", "Relu"}) CHECK_FALSE(has_op(m, op));

  Calibrator in(CalibrationOptions::CALIBRATION_METHOD_MIN_MAX), out(CalibrationOptions::CALIBRATION_METHOD_MIN_MAX);
  for (const Tensor& x : data) {
    in.collect({x.data<float>(), 100});
    Tensor y = run_w(original, x);
    out.collect({y.data<float>(), static_cast<size_t>(y.num_elements())});
  }
  const QuantParams pin = activation_params(in.range()->min, in.range()->max);
  const QuantParams pout = activation_params(out.range()->min, out.range()->max);
  const tensorflow::FunctionDef& fo = original.graph_def().library().function(0);
  const Tensor k = proto::read_tensor(fo.node_def(0).attr().at("value").tensor());
  const Tensor c = proto::read_tensor(fo.node_def(1).attr().at("value").tensor());
  const QuantParams pk = weight_params(k);
  const Tensor kq = quantize(k, pk, kWeightQMin, kWeightQMax);
  for (const Tensor& x : data) {
    const Tensor xq = quantize(x, pin);
    Tensor got = run_w(m, x);
    REQUIRE(got.shape() == Shape{1, 3, 3, 3});
    int mismatches = 0;
    for (int64_t i = 0; i < 3; ++i) {
      for (int64_t j = 0; j < 3; ++j) {
        for (int64_t o = 0; o < 3; ++o) {
          int32_t acc = quantize_bias(c.data<float>()[o], pin.scale, pk.scale);
          for (int64_t r = 0; r < 3; ++r) {
            for (int64_t s = 0; s < 3; ++s) {
              const int64_t ih = 2 * i - 1 + r, iw = 2 * j - 1 + s;
              if (ih < 0 || ih >= 5 || iw < 0 || iw >= 5) continue;  // padding: the zero point, (zp − zp) · w
              for (int64_t ch = 0; ch < 4; ++ch) {
                acc += (xq.data<int8_t>()[(ih * 5 + iw) * 4 + ch] - pin.zero_point) *
                       kq.data<int8_t>()[((r * 3 + s) * 4 + ch) * 3 + o];
              }
            }
          }
          const double ratio = static_cast<double>(pin.scale) * static_cast<double>(pk.scale) / static_cast<double>(pout.scale);
          const double q = std::clamp(std::round(static_cast<double>(acc) * ratio) + pout.zero_point,
                                      std::max(-128.0, double(pout.zero_point)), 127.0);
          const float expected = static_cast<float>((q - pout.zero_point) * static_cast<double>(pout.scale));
          mismatches += got.data<float>()[(i * 3 + j) * 3 + o] != expected;
        }
      }
    }
    CHECK(mismatches == 0);
    // Within 3% of the calibrated output range.
    CHECK(max_error(got, run_w(original, x)).first < 0.03f * (out.range()->max - out.range()->min));
  }
}

TEST_CASE("dynamic range and weight only: grouped convolutions with explicit and VALID padding") {
  for (const char* padding : {"EXPLICIT", "VALID"}) {
    CAPTURE(padding);
    tensorflow::MetaGraphDef m = conv_model(padding, 1, 2);
    const tensorflow::MetaGraphDef original = m;
    quantize_model(m, options_from("quantization_method: DYNAMIC_RANGE min_num_elements_for_weights: -1"), "");
    CHECK(count_op(m, "XlaConvV2") == 1);
    CHECK(count_op(m, "PadV2") == (std::string(padding) == "EXPLICIT" ? 1 : 0));
    CHECK(has_op(m, "Relu"));  // dynamic range fuses nothing
    for (const Tensor& x : conv_samples()) {
      auto [err, spread] = max_error(run_w(m, x), run_w(original, x));
      CHECK(err < 0.03f * spread);
    }
    tensorflow::MetaGraphDef wo = original;
    quantize_model(wo, options_from("quantization_method: WEIGHT_ONLY enable_per_channel_quantization: true "
                                    "min_num_elements_for_weights: -1"),
                   "");
    CHECK(has_op(wo, "Conv2D"));
    CHECK_FALSE(has_op(wo, "XlaConvV2"));
    for (const Tensor& x : conv_samples()) {
      auto [err, spread] = max_error(run_w(wo, x), run_w(original, x));
      CHECK(err < 0.01f * spread);
    }
  }
}

TEST_CASE("B39: a quantizable op the conversion cannot quantize stays float, and the warning says why") {
  // No declared input shape: the convolution's groups are unknown.
  tensorflow::MetaGraphDef m = conv_model("SAME", 2, 1, false);
  std::vector<std::string> warnings =
      quantize_model(m, options_from("quantization_method: DYNAMIC_RANGE min_num_elements_for_weights: -1"), "");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "W/Conv2D (Conv2D): the conversion does not know its input's depth; it stays float32 (B39)");
  CHECK(has_op(m, "Conv2D"));
}

TEST_CASE("a 3-D convolution becomes a 3-D XlaConvV2") {
  tensorflow::MetaGraphDef m;
  tensorflow::FunctionDef* f = add_function(m, "W");
  set_arg_shape(f, Shape{1, 4, 4, 4, 2});
  std::vector<float> k;
  for (int i = 0; i < 2 * 2 * 2 * 2 * 3; ++i) k.push_back(std::sin(static_cast<float>(i)) * 0.7f);
  add_const(f, "k", Tensor::from_vector<float>(Shape{2, 2, 2, 2, 3}, k));
  tensorflow::NodeDef* conv = add_node(f, "Conv3D", "Conv3D", {"x", "k:output:0"});
  set_type(conv);
  for (int v : {1, 2, 1, 1, 1}) (*conv->mutable_attr())["strides"].mutable_list()->add_i(v);
  (*conv->mutable_attr())["padding"].set_s("SAME");
  (*f->mutable_ret())["output_0"] = "Conv3D:output:0";
  add_signature(m, "W");
  const tensorflow::MetaGraphDef original = m;
  CHECK(quantize_model(m, options_from("quantization_method: DYNAMIC_RANGE min_num_elements_for_weights: -1"), "").empty());
  CHECK(has_op(m, "XlaConvV2"));
  CHECK(has_op(m, "PadV2"));
  CHECK_FALSE(has_op(m, "Conv3D"));
  for (int i = 0; i < 3; ++i) {
    std::vector<float> v;
    for (int j = 0; j < 128; ++j) v.push_back(std::cos(static_cast<float>(i * 128 + j) * 0.3f) * 2.0f);
    const Tensor x = Tensor::from_vector<float>(Shape{1, 4, 4, 4, 2}, v);
    auto [err, spread] = max_error(run_w(m, x), run_w(original, x));
    CHECK(err < 0.03f * spread);
  }
}

TEST_CASE("BatchMatMulV2 over a sequence and MatMul with transpose_a become XlaDotV2s") {
  // W(x) = BatchMatMulV2(x [2, 2, 3], w [3, 4]) + b.
  tensorflow::MetaGraphDef m = dense_model();
  tensorflow::FunctionDef* f = m.mutable_graph_def()->mutable_library()->mutable_function(0);
  set_arg_shape(f, Shape{2, 2, 3});
  f->mutable_node_def(2)->set_op("BatchMatMulV2");
  f->mutable_node_def(3)->set_input(0, "MatMul:output:0");
  const tensorflow::MetaGraphDef original = m;
  TempDir dir;
  std::vector<Tensor> data;
  const std::vector<Tensor> rows = samples();
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<float> v(rows[i].data<float>(), rows[i].data<float>() + 6);
    const Tensor& next = rows[(i + 1) % rows.size()];
    v.insert(v.end(), next.data<float>(), next.data<float>() + 6);
    data.push_back(Tensor::from_vector<float>(Shape{2, 2, 3}, v));
  }
  quantize_model(m, options_from(dataset_option(write_dataset(dir, "data", "x", data))), dir.path.string());
  CHECK(count_op(m, "XlaDotV2") == 1);
  CHECK_FALSE(has_op(m, "BatchMatMulV2"));
  for (const Tensor& x : data) {
    Tensor got = run_w(m, x);
    CHECK(got.shape() == Shape{2, 2, 4});
    auto [err, spread] = max_error(got, run_w(original, x));
    CHECK(err < 0.03f * spread);
  }
  // transpose_a: x [3, 2] read as its transpose.
  tensorflow::MetaGraphDef t = dense_model();
  (*t.mutable_graph_def()->mutable_library()->mutable_function(0)->mutable_node_def(2)->mutable_attr())["transpose_a"].set_b(true);
  const tensorflow::MetaGraphDef t_original = t;
  quantize_model(t, options_from("quantization_method: DYNAMIC_RANGE min_num_elements_for_weights: -1"), "");
  CHECK(has_op(t, "Transpose"));
  for (const Tensor& x : samples()) {
    Tensor xt = x.reshaped(Shape{3, 2});
    auto [err, spread] = max_error(run_w(t, xt), run_w(t_original, xt));
    CHECK(err < 0.03f * spread);
  }
}

TEST_CASE("Gather: rows read from an int8 table and dequantized, whatever the method") {
  tensorflow::MetaGraphDef m;
  tensorflow::FunctionDef* f = add_function(m, "W");
  f->mutable_signature()->mutable_input_arg(0)->set_type(tensorflow::DT_INT32);
  std::vector<float> table;
  for (int i = 0; i < 24; ++i) table.push_back(std::sin(static_cast<float>(i)) * 3.0f);
  add_const(f, "table", Tensor::from_vector<float>(Shape{6, 4}, table));
  tensorflow::NodeDef* axis = add_node(f, "axis", "Const", {});
  proto::write_tensor(Tensor::scalar<int32_t>(0), (*axis->mutable_attr())["value"].mutable_tensor());
  (*axis->mutable_attr())["dtype"].set_type(tensorflow::DT_INT32);
  tensorflow::NodeDef* gather = add_node(f, "GatherV2", "GatherV2", {"table:output:0", "x", "axis:output:0"});
  set_type(gather, "Tparams");
  (*gather->mutable_attr())["Tindices"].set_type(tensorflow::DT_INT32);
  (*gather->mutable_attr())["Taxis"].set_type(tensorflow::DT_INT32);
  (*f->mutable_ret())["output_0"] = "GatherV2:output:0";
  add_signature(m, "W");
  quantize_model(m, options_from("quantization_method: DYNAMIC_RANGE min_num_elements_for_weights: -1"), "");
  CHECK(count_op(m, "Const") == 3);  // the int8 table, its scale, the axis
  const Tensor t = Tensor::from_vector<float>(Shape{6, 4}, table);
  const QuantParams p = weight_params(t);
  const Tensor expected = dequantize(quantize(t, p, kWeightQMin, kWeightQMax), p);
  Tensor got = run_w(m, Tensor::from_vector<int32_t>(Shape{3}, {5, 0, 5}));
  REQUIRE(got.shape() == Shape{3, 4});
  for (int j = 0; j < 4; ++j) {
    CHECK(got.data<float>()[j] == expected.data<float>()[20 + j]);
    CHECK(got.data<float>()[4 + j] == expected.data<float>()[j]);
  }
}

TEST_CASE("a depthwise convolution becomes a grouped XlaConvV2, a group per input channel") {
  TempDir dir;
  std::string path = write_dataset(dir, "data", "x", conv_samples());
  tensorflow::MetaGraphDef m = conv_model("SAME", 2, 1, true, "DepthwiseConv2dNative");
  const tensorflow::MetaGraphDef original = m;
  quantize_model(m, options_from(dataset_option(path)), dir.path.string());
  REQUIRE(count_op(m, "XlaConvV2") == 1);
  CHECK_FALSE(has_op(m, "DepthwiseConv2dNative"));
  for (const auto& n : m.graph_def().library().function(0).node_def()) {
    if (n.op() != "Const" || n.name().find("weight") == std::string::npos) continue;
    CHECK(proto::read_tensor(n.attr().at("value").tensor()).shape() == Shape{3, 3, 1, 8});
  }
  float lo = 0, hi = 0;
  for (const Tensor& x : conv_samples()) {
    Tensor y = run_w(original, x);
    for (int64_t i = 0; i < y.num_elements(); ++i) lo = std::min(lo, y.data<float>()[i]), hi = std::max(hi, y.data<float>()[i]);
  }
  for (const Tensor& x : conv_samples()) CHECK(max_error(run_w(m, x), run_w(original, x)).first < 0.03f * (hi - lo));
  // Weight only, per channel: the filter read back as [3, 3, 4, 2].
  tensorflow::MetaGraphDef wo = original;
  quantize_model(wo, options_from("quantization_method: WEIGHT_ONLY enable_per_channel_quantization: true "
                                  "min_num_elements_for_weights: -1"),
                 "");
  CHECK(has_op(wo, "DepthwiseConv2dNative"));
  CHECK(has_op(wo, "Reshape"));
  for (const Tensor& x : conv_samples()) CHECK(max_error(run_w(wo, x), run_w(original, x)).first < 0.01f * (hi - lo));
}

TEST_CASE("QAT: static range without a dataset takes the ranges the fake quantizations learned") {
  // W(x) = FakeQuant(FakeQuant(x, -2, 3) · FakeQuant(w) + b, -4, 6), ranges as Consts.
  tensorflow::MetaGraphDef m = dense_model();
  tensorflow::FunctionDef* f = m.mutable_graph_def()->mutable_library()->mutable_function(0);
  auto fake_quant = [&](const std::string& name, const std::string& in, float lo, float hi) {
    add_const(f, name + "/min", Tensor::scalar<float>(lo));
    add_const(f, name + "/max", Tensor::scalar<float>(hi));
    add_node(f, name, "FakeQuantWithMinMaxVars", {in, name + "/min:output:0", name + "/max:output:0"});
    return name + ":outputs:0";
  };
  const std::string x = fake_quant("fq_x", "x", -2.0f, 3.0f);
  const std::string w = fake_quant("fq_w", "w:output:0", -2.5f, 2.5f);
  for (auto& n : *f->mutable_node_def()) {
    if (n.name() == "MatMul") n.set_input(0, x), n.set_input(1, w);
  }
  (*f->mutable_ret())["output_0"] = fake_quant("fq_y", "add:z:0", -4.0f, 6.0f);
  const tensorflow::MetaGraphDef original = m;
  CHECK(quantize_model(m, options_from(""), "").empty());
  CHECK(has_op(m, "XlaDotV2"));
  CHECK_FALSE(has_op(m, "MatMul"));
  // The output's folded into the requantization, the weights' frozen: the input's stays.
  CHECK(count_op(m, "FakeQuantWithMinMaxVars") == 1);

  const QuantParams pin = activation_params(-2.0f, 3.0f), pout = activation_params(-4.0f, 6.0f);
  auto fake_quantized = [](const Tensor& v, float lo, float hi) {
    return run_op(*OpRegistry::global().find("FakeQuantWithMinMaxVars"),
                  std::vector<Tensor>{v, Tensor::scalar<float>(lo), Tensor::scalar<float>(hi)})[0];
  };
  const Tensor wf = fake_quantized(Tensor::from_vector<float>(Shape{3, 4}, kWeights), -2.5f, 2.5f);
  const QuantParams pw = weight_params(wf);
  for (const Tensor& xs : samples()) {
    // B41's arithmetic with the trained ranges on the fake-quantized input.
    Tensor want = dequantize(quantized_matmul(quantize(fake_quantized(xs, -2.0f, 3.0f), pin), pin, quantize(wf, pw, kWeightQMin, kWeightQMax), {pw},
                                              Tensor::from_vector<float>(Shape{4}, kBias), pout),
                             pout);
    Tensor got = run_w(m, xs);
    for (int i = 0; i < 8; ++i) CHECK(got.data<float>()[i] == want.data<float>()[i]);
    CHECK(max_error(got, run_w(original, xs)).first < 3 * pout.scale);
  }
  // Without the output's fake quantization the product stays float, with a warning.
  tensorflow::MetaGraphDef partial = original;
  (*partial.mutable_graph_def()->mutable_library()->mutable_function(0)->mutable_ret())["output_0"] = "add:z:0";
  std::vector<std::string> warnings = quantize_model(partial, options_from(""), "");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "No 8-bit fake quantization gives the input and output ranges of W/MatMul: they stay float32");
}

#include "runtime/tpu/quantization.h"

#include <map>
#include <memory>
#include <optional>
#include <set>

#include "runtime/core/error.h"
#include "runtime/core/proto/representative_dataset.pb.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/core/tfrecord.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/function_def.h"
#include "runtime/ops/quantization_ops.h"
#include "runtime/tpu/calibration.h"
#include "runtime/tpu/function_def_edit.h"
#include "runtime/tpu/model_functions.h"
#include "runtime/tpu/quantization_params.h"
#include "runtime/tpu/quantization_targets.h"
#include "runtime/tpu/quantized_form.h"

namespace ag::tpu {
namespace {

using tensorflow::FunctionDef;
using tensorflow::NodeDef;
using Method = QuantizationOptions::Method;
using Sample = std::map<std::string, Tensor>;

/// [S1] recommends more than 200 representative samples (B43).
constexpr size_t kRecommendedSamples = 200;

// ---- calibration

/// Static range calibrates the products' activations; a Gather's rows are
/// dequantized as they are read.
bool calibrated(const Target& t) { return t.kind != QuantRole::Gather; }


std::string python_set(const std::set<std::string>& items) {
  if (items.empty()) return "set()";
  std::string out = "{";
  for (const std::string& s : items) out += (out.size() > 1 ? ", '" : "'") + s + "'";
  return out + "}";
}

std::vector<Sample> read_samples(const std::string& path) {
  TFRecordReader reader(path);
  std::vector<Sample> out;
  std::string record;
  while (reader.next(record)) {
    tensorflow::quantization::RepresentativeDataSample proto;
    if (!proto.ParseFromString(record)) {
      throw DataLossError("Record " + std::to_string(out.size()) + " of representative dataset " + path +
                          " is not a RepresentativeDataSample");
    }
    Sample s;
    for (const auto& [key, tensor] : proto.tensor_proto_inputs()) s.emplace(key, proto::read_tensor(tensor));
    out.push_back(std::move(s));
  }
  return out;
}

/// Signature `key` of `meta` as a plan, and which input key each of its
/// graph's inputs takes. Its variables hold their saved values while `vars` lives.
struct SignatureRun {
  Executable executable;
  std::vector<std::string> input_keys;
  std::vector<std::shared_ptr<Variable>> vars;
};

SignatureRun signature_run(const tensorflow::MetaGraphDef& meta, const std::string& key, const ModelValues& model) {
  ModelFunctions functions(meta);
  const std::string fn = functions.signature_function(key);
  const FunctionDef* def = functions.find(fn);
  const NodeDef* call = nullptr;
  for (const NodeDef& n : meta.graph_def().node()) {
    auto f = n.attr().find("f");
    if (f != n.attr().end() && f->second.has_func() && f->second.func().name() == fn) call = &n;
  }
  if (def == nullptr || call == nullptr) throw NotFoundError("The SavedModel has no function for signature " + key);
  const auto& inputs = meta.signature_def().at(key).inputs();
  SignatureRun run;
  run.vars = bound_variables(*def, model);
  std::vector<int64_t> ids;
  for (const auto& v : run.vars) ids.push_back(v->id());
  for (int i = 0; i < def->signature().input_arg_size(); ++i) {
    if (def->signature().input_arg(i).type() == tensorflow::DT_RESOURCE) continue;
    const std::string placeholder = i < call->input_size() ? node_of(call->input(i)) : std::string();
    std::string found;
    for (const auto& [k, info] : inputs) {
      if (node_of(info.name()) == placeholder) found = k;
    }
    if (found.empty()) throw NotFoundError("Argument " + std::to_string(i) + " of signature " + key + " has no input key");
    run.input_keys.push_back(found);
  }
  auto library = std::make_shared<tensorflow::FunctionDefLibrary>(meta.graph_def().library());
  run.executable = compile(*FunctionDefReader(library).read(fn, ids));
  return run;
}

/// Restores the previous calibration observer when it goes.
class ObserverScope {
 public:
  explicit ObserverScope(CalibrationObserver o) : previous_(set_calibration_observer(std::move(o))) {}
  ~ObserverScope() { set_calibration_observer(std::move(previous_)); }
  ObserverScope(const ObserverScope&) = delete;
  ObserverScope& operator=(const ObserverScope&) = delete;

 private:
  CalibrationObserver previous_;
};

/// `meta` with each calibrated target's input and output read through a CustomAggregator.
tensorflow::MetaGraphDef calibration_model(const tensorflow::MetaGraphDef& meta, const std::vector<Target>& targets) {
  tensorflow::MetaGraphDef copy = meta;
  for (const Target& t : targets) {
    if (!calibrated(t)) continue;
    FunctionDef& f = function_named(copy, t.function);
    auto aggregate = [&](const std::string& ref, const std::string& name, const std::string& id) {
      NodeDef* n = f.add_node_def();
      n->set_name(name);
      n->set_op("CustomAggregator");
      n->add_input(ref);
      (*n->mutable_attr())["id"].set_s(id);
      return output_ref(*n);
    };
    NodeDef& node = *find_node(f, t.node);
    node.set_input(0, aggregate(node.input(0), t.node + "/calibration_input", t.id() + ":input"));
    const std::string out_name = node_of(t.output) + "/calibration_output";
    replace_uses(f, t.output, aggregate(t.output, out_name, t.id() + ":output"), out_name);
  }
  return copy;
}

void check_dataset_keys(const QuantizationOptions& options) {
  std::set<std::string> signature_keys(options.signature_keys().begin(), options.signature_keys().end());
  std::set<std::string> dataset_keys;
  for (const auto& [k, v] : options.representative_datasets()) dataset_keys.insert(k);
  if (dataset_keys.empty()) {
    throw ValueError("When `representative_dataset` is not provided, the model should be trained with "
                     "quantization-aware training (QAT).");
  }
  if (signature_keys != dataset_keys) {
    throw ValueError("The signature keys and the keys of representative dataset map do not match. Signature keys: " +
                     python_set(signature_keys) + ", representative dataset map: " + python_set(dataset_keys) + ".");
  }
}

/// Each quantized signature's representative samples, read and checked
/// against the signature's input keys (B43).
std::map<std::string, std::vector<Sample>> representative_samples(const tensorflow::MetaGraphDef& meta,
                                                                  const QuantizationOptions& options,
                                                                  std::vector<std::string>& warnings) {
  std::map<std::string, std::vector<Sample>> out;
  for (const std::string& key : options.signature_keys()) {
    std::set<std::string> expected;
    for (const auto& [k, info] : meta.signature_def().at(key).inputs()) expected.insert(k);
    std::vector<Sample> samples = read_samples(options.representative_datasets().at(key).tfrecord_file_path());
    for (const Sample& s : samples) {
      std::set<std::string> got;
      for (const auto& [k, v] : s) got.insert(k);
      if (got != expected) {
        throw ValueError("Invalid input keys for representative sample. The function expects input keys of: " +
                         python_set(expected) + ". Got: " + python_set(got) +
                         ". Please provide correct input keys for representative samples.");
      }
    }
    if (samples.size() < kRecommendedSamples) {
      warnings.push_back("The representative dataset of signature '" + key + "' has " + std::to_string(samples.size()) +
                         " samples; more than 200 are recommended for calibration");
    }
    out.emplace(key, std::move(samples));
  }
  return out;
}

/// Runs the calibration model on every signature's samples; each
/// CustomAggregator's values go to the calibrator of its id.
void calibrate(const tensorflow::MetaGraphDef& model_def, const std::map<std::string, std::vector<Sample>>& samples,
               const ModelValues& model, std::map<std::string, Calibrator>& calibrators) {
  ObserverScope scope([&](const std::string& id, const Tensor& values) {
    auto c = calibrators.find(id);
    if (c != calibrators.end()) c->second.collect({values.data<float>(), static_cast<size_t>(values.num_elements())});
  });
  for (const auto& [key, key_samples] : samples) {
    SignatureRun run = signature_run(model_def, key, model);
    for (const Sample& s : key_samples) {
      std::vector<Tensor> args;
      for (const std::string& k : run.input_keys) args.push_back(s.at(k));
      run.executable.plan().run(args);
    }
  }
}

}  // namespace

QuantizationOptions quantization_defaults(QuantizationOptions o) {
  if (o.tags().empty()) o.add_tags("serve");
  if (o.signature_keys().empty()) o.add_signature_keys("serving_default");
  if (o.op_set() == QuantizationOptions::OP_SET_UNSPECIFIED) o.set_op_set(QuantizationOptions::XLA);
  if (o.quantization_method() == QuantizationOptions::METHOD_UNSPECIFIED) {
    o.set_quantization_method(QuantizationOptions::STATIC_RANGE);
  }
  if (o.calibration_options().calibration_method() == CalibrationOptions::CALIBRATION_METHOD_UNSPECIFIED) {
    o.mutable_calibration_options()->set_calibration_method(CalibrationOptions::CALIBRATION_METHOD_MIN_MAX);
  }
  if (o.min_num_elements_for_weights() == 0 && o.quantization_method() != QuantizationOptions::STATIC_RANGE) {
    o.set_min_num_elements_for_weights(1024);
  }
  return o;
}

std::vector<std::string> quantize_model(tensorflow::MetaGraphDef& meta, const QuantizationOptions& given,
                                        const std::string& input_dir) {
  const QuantizationOptions options = quantization_defaults(given);
  const Method method = options.quantization_method();
  const bool static_range = method == QuantizationOptions::STATIC_RANGE;
  check_per_channel_quantization(options.enable_per_channel_quantization(), options.op_set(), method);

  ModelFunctions functions(meta);
  std::set<std::string> quantized;
  std::vector<std::string> signature_functions;
  for (const std::string& key : options.signature_keys()) {
    const std::string fn = functions.signature_function(key);
    if (fn.empty()) throw ValueError("Signature key '" + key + "' is not in the SavedModel");
    signature_functions.push_back(fn);
    for (std::string& g : functions.reachable(fn)) quantized.insert(std::move(g));
  }
  // Static range without a representative dataset takes a QAT model's
  // trained ranges (B43: a model without them needs the dataset).
  const bool trained = static_range && options.representative_datasets().empty() && has_fake_quant(meta, quantized);
  if (static_range && !trained) check_dataset_keys(options);
  const ModelValues model = read_model_values(meta, input_dir);
  Targets targets = find_targets(meta, quantized, model, node_input_shapes(meta, signature_functions, model), static_range);

  std::vector<std::string> warnings;
  // Each calibrated target's input and output ranges, by "id:input" / "id:output".
  std::map<std::string, CalibratedRange> ranges;
  if (trained) {
    for (Target& t : targets.quantized) {
      if (!calibrated(t)) continue;
      if (std::optional<TrainedRanges> r = fold_trained_ranges(meta, t, model)) {
        ranges[t.id() + ":input"] = {r->input.first, r->input.second};
        ranges[t.id() + ":output"] = {r->output.first, r->output.second};
      }
    }
  } else if (static_range) {
    std::map<std::string, std::vector<Sample>> samples = representative_samples(meta, options, warnings);
    const CalibrationMethod cm = options.calibration_options().calibration_method();
    std::map<std::string, Calibrator> calibrators;
    for (const Target& t : targets.quantized) {
      if (!calibrated(t)) continue;
      calibrators.emplace(t.id() + ":input", Calibrator(cm));
      calibrators.emplace(t.id() + ":output", Calibrator(cm));
    }
    if (!calibrators.empty()) calibrate(calibration_model(meta, targets.quantized), samples, model, calibrators);
    for (const auto& [id, c] : calibrators) {
      if (std::optional<CalibratedRange> r = c.range()) ranges[id] = *r;
    }
  }

  const bool per_channel = options.enable_per_channel_quantization();
  std::vector<std::string> unreached;
  for (const Target& t : targets.quantized) {
    const int64_t min_elements = options.min_num_elements_for_weights();
    if (!static_range && min_elements > 0 && t.weight.num_elements() < min_elements) {
      continue;  // B40: too small to be worth it
    }
    FunctionDef& f = function_named(meta, t.function);
    const QuantizedWeight w = quantize_weight(t, per_channel);
    if (t.kind == QuantRole::Gather) {
      emit_gather(f, t, w);
      continue;
    }
    if (method == QuantizationOptions::WEIGHT_ONLY) {
      emit_weight_only(f, t, w);
      continue;
    }
    if (method == QuantizationOptions::DYNAMIC_RANGE) {
      emit_dynamic(f, t, w);
    } else {
      auto in = ranges.find(t.id() + ":input"), out = ranges.find(t.id() + ":output");
      if (in == ranges.end() || out == ranges.end()) {
        unreached.push_back(t.id());
        continue;
      }
      emit_static(f, t, w, activation_params(in->second.min, in->second.max),
                  activation_params(out->second.min, out->second.max));
    }
    // The product and its fused ops go, then the weight's and bias's
    // sources nothing else reads.
    std::vector<std::string> sources;
    std::vector<std::string> replaced = t.fused;
    replaced.insert(replaced.begin(), t.node);
    for (const std::string& name : replaced) {
      const NodeDef* n = find_node(f, name);
      for (const std::string& in : n->input()) {
        if (!is_arg(in)) sources.push_back(node_of(in));
      }
      remove_node(f, name);
    }
    for (const std::string& source : sources) remove_if_unused(f, source);
  }
  if (!unreached.empty()) {
    std::string list;
    for (const std::string& id : unreached) list += (list.empty() ? "" : ", ") + id;
    warnings.push_back(trained ? "No 8-bit fake quantization gives the input and output ranges of " + list +
                                     ": they stay float32"
                               : "No representative sample reached " + list + ": they stay float32 (B44)");
  }
  for (const std::string& why : targets.left_float) warnings.push_back(why + "; it stays float32 (B39)");
  return warnings;
}

}  // namespace ag::tpu

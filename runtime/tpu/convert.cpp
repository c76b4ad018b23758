#include "runtime/tpu/convert.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "runtime/core/error.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/saved_model_file.h"
#include "runtime/core/tensor_bundle.h"
#include "runtime/tpu/batching_insertion.h"
#include "runtime/tpu/bfloat16_checks.h"
#include "runtime/tpu/bfloat16_cpu_scope.h"
#include "runtime/tpu/conversion_report.h"
#include "runtime/tpu/converter_options.h"
#include "runtime/tpu/model_cost.h"
#include "runtime/tpu/model_functions.h"
#include "runtime/tpu/placement.h"
#include "runtime/tpu/quantization.h"
#include "runtime/tpu/tpu_selection.h"

namespace ag::tpu {
namespace {

namespace fs = std::filesystem;

/// The converted model written at `out` through a sibling temporary
/// directory: the input's variables and assets, the new saved_model.pb.
void write_output(const std::string& input_dir, const std::string& out, const tensorflow::SavedModel& model) {
  std::error_code ec;
  if (fs::exists(out, ec) && !(fs::is_directory(out, ec) && fs::is_empty(out, ec))) {
    throw AlreadyExistsError("Output directory " + out + " already exists and is not empty");
  }
  fs::path target = fs::absolute(out, ec);
  fs::path tmp = target.parent_path() / (target.filename().string() + ".agc-tmp-" + std::to_string(::getpid()));
  fs::remove_all(tmp, ec);
  try {
    fs::create_directories(tmp);
    for (const char* sub : {"variables", "assets"}) {
      fs::path from = fs::path(input_dir) / sub;
      if (fs::exists(from)) fs::copy(from, tmp / sub, fs::copy_options::recursive);
    }
    std::string bytes;
    if (!model.SerializeToString(&bytes)) throw InternalError("agc could not serialize the converted SavedModel");
    std::ofstream pb(tmp / "saved_model.pb", std::ios::binary | std::ios::trunc);
    pb.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    pb.close();
    if (!pb) throw PermissionDeniedError("Failed to write " + (tmp / "saved_model.pb").string());
    if (fs::exists(target)) fs::remove(target);  // empty, checked above
    fs::rename(tmp, target);
  } catch (const fs::filesystem_error& e) {
    fs::remove_all(tmp, ec);
    throw PermissionDeniedError(std::string("Failed to write the converted model: ") + e.what());
  } catch (...) {
    fs::remove_all(tmp, ec);
    throw;
  }
}

/// The variables the output will copy must be whole: every value of the
/// checkpoint read once (DataLossError for a truncated or corrupt file).
void check_variables(const std::string& input_dir, const tensorflow::SavedModel& model) {
  for (const auto& m : model.meta_graphs()) {
    for (const auto& node : m.object_graph_def().nodes()) {
      if (node.has_variable()) {
        BundleReader reader((fs::path(input_dir) / "variables" / "variables").string());
        for (const std::string& key : reader.keys()) reader.get(key);
        return;
      }
    }
  }
}

}  // namespace

std::string convert_saved_model(const std::string& input_dir, const std::string& output_dir,
                                const std::string& converter_options) {
  ConverterOptions options = parse_converter_options(converter_options);
  check_converter_options(options);
  std::shared_ptr<tensorflow::SavedModel> model = read_saved_model(input_dir);
  check_variables(input_dir, *model);
  tensorflow::MetaGraphDef* meta = nullptr;
  const tensorflow::MetaGraphDef& found = find_meta_graph(*model, {});
  for (auto& m : *model->mutable_meta_graphs()) {
    if (&m == &found) meta = &m;
  }
  std::vector<TpuSelection> selected;
  ModelCost cost;
  std::string warnings;
  {
    ModelFunctions functions(*meta);
    selected = select_tpu_functions(options, functions);
    check_indirect_calls(selected, functions);
    cost = model_cost(*meta, functions, selected);
    // The report costs the model as given; quantization rewrites nodes
    // inside functions (no function is added or removed), before placement.
    if (options.has_external_feature_configs() && options.external_feature_configs().has_quantization_options()) {
      for (const std::string& w : quantize_model(*meta, options.external_feature_configs().quantization_options(), input_dir)) {
        warnings += "WARNING: " + w + "\n";
      }
    }
    PlacementOptions placement;
    placement.io_shape_optimization = optimization_enabled(options.io_shape_optimization(), options);
    placement.bfloat16_optimization = optimization_enabled(options.bfloat16_optimization(), options);
    if (options.has_xla_sharding_options()) {
      placement.num_cores_per_replica = options.xla_sharding_options().num_cores_per_replica();
    }
    if (placement.bfloat16_optimization) {
      const std::vector<std::string> tpu = tpu_function_names(selected);
      std::vector<std::string> scope = bfloat16_scope(options, functions, tpu, *meta);
      for (const std::string& w : check_bfloat16(options, functions, scope)) warnings += "WARNING: " + w + "\n";
      if (options.bfloat16_optimization_options().scope() == BFloat16OptimizationOptions::ALL) {
        // The TPU functions are rounded by the emulator; the rest here (B33).
        std::set<std::string> on_tpu;
        for (const std::string& f : tpu) {
          for (std::string& g : functions.reachable(f)) on_tpu.insert(std::move(g));
        }
        std::vector<std::string> cpu;
        for (const std::string& f : functions.served()) {
          if (!on_tpu.count(f)) cpu.push_back(f);
        }
        round_to_bfloat16(*meta, cpu);
      }
    }
    // Placement adds functions to the library `functions` points into: a copy is rewritten.
    tensorflow::MetaGraphDef converted = *meta;
    place_on_tpu(converted, selected, functions, placement);
    insert_batching(converted, options, selected, functions);
    *meta = std::move(converted);
  }
  write_output(input_dir, output_dir, *model);
  return warnings + conversion_report(cost.cpu, cost.tpu);
}

}  // namespace ag::tpu

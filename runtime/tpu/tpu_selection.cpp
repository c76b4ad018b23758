#include "runtime/tpu/tpu_selection.h"

#include <algorithm>
#include <functional>
#include <set>

#include "runtime/core/error.h"

namespace ag::tpu {

std::vector<TpuSelection> select_tpu_functions(const ConverterOptions& options, const ModelFunctions& model) {
  std::vector<TpuSelection> out;
  std::set<std::string> taken;
  auto take = [&](TpuSelection& s, const std::string& f) {
    if (!taken.insert(f).second) {
      throw InvalidArgumentError("Function \"" + f + "\" is specified more than once in tpu_functions");
    }
    s.functions.push_back(f);
  };
  for (const TpuFunction& entry : options.tpu_functions()) {
    TpuSelection s;
    switch (entry.name_case()) {
      case TpuFunction::kFunctionAlias: {
        std::vector<std::string> fs = model.aliased(entry.function_alias());
        if (fs.empty()) {
          throw NotFoundError("Function alias \"" + entry.function_alias() + "\" not found in the SavedModel");
        }
        s.report_name = entry.function_alias();
        for (const std::string& f : fs) take(s, f);
        break;
      }
      case TpuFunction::kConcreteFunctionName: {
        const std::string& f = entry.concrete_function_name();
        if (model.find(f) == nullptr) throw NotFoundError("Function \"" + f + "\" not found in the function library");
        s.report_name = f;
        take(s, f);
        break;
      }
      case TpuFunction::kSignatureName: {
        std::string f = model.signature_function(entry.signature_name());
        if (f.empty()) throw NotFoundError("Signature \"" + entry.signature_name() + "\" not found in the SavedModel");
        s.report_name = entry.signature_name();
        s.signature = true;
        take(s, f);
        break;
      }
      case TpuFunction::kJitCompileFunctions: {
        if (!entry.jit_compile_functions()) continue;
        for (const std::string& f : model.jit_compiled()) {
          TpuSelection one;
          std::string alias = model.alias_of(f);
          one.report_name = alias.empty() ? f : alias;
          take(one, f);
          out.push_back(std::move(one));
        }
        continue;
      }
      case TpuFunction::NAME_NOT_SET: continue;
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::string> tpu_function_names(const std::vector<TpuSelection>& selected) {
  std::vector<std::string> out;
  for (const TpuSelection& s : selected) out.insert(out.end(), s.functions.begin(), s.functions.end());
  return out;
}

void check_indirect_calls(const std::vector<TpuSelection>& selected, const ModelFunctions& model) {
  std::vector<std::string> tpu = tpu_function_names(selected);
  std::set<std::string> is_tpu(tpu.begin(), tpu.end());
  for (const std::string& f : tpu) {
    // Depth first from F; a TPU function G called by any function but F itself.
    std::set<std::string> seen{f};
    std::function<void(const std::string&)> visit = [&](const std::string& h) {
      for (const std::string& g : model.callees(h)) {
        if (h != f && g != f && is_tpu.count(g)) {
          throw InvalidArgumentError("Unable to place both \"" + f + "\" and \"" + g + "\" on the TPU because \"" + f +
                                     "\" indirectly calls \"" + g +
                                     "\". This behavior is unsupported because it can cause invalid graphs to be "
                                     "generated.");
        }
        if (seen.insert(g).second) visit(g);
      }
    };
    visit(f);
  }
}

}  // namespace ag::tpu

// EagerPyFunc (py_func.h): the registry of host functions and the op.
#include <mutex>
#include <unordered_map>

#include "runtime/ops/families.h"
#include "runtime/ops/py_func.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

struct HostFunctions {
  std::mutex mu;
  std::unordered_map<std::string, HostFunction> by_token;
  uint64_t next = 0;
};

HostFunctions& host_functions() {
  static HostFunctions* r = new HostFunctions;  // never destroyed: kernels may outlive static destruction
  return *r;
}

HostFunction find_host_function(const std::string& token) {
  HostFunctions& r = host_functions();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.by_token.find(token);
  if (it == r.by_token.end()) {
    // TF's FuncRegistry: a graph from another process names a function this one never registered.
    throw UnknownError("KeyError: '" + token + "'");
  }
  return it->second;
}

std::vector<DType> output_dtypes(const Attrs& attrs) {
  std::vector<DType> out;
  for (int64_t d : attrs.get_or<std::vector<int64_t>>("Tout", {})) out.push_back(static_cast<DType>(d));
  return out;
}

}  // namespace

std::string register_host_function(HostFunction fn) {
  HostFunctions& r = host_functions();
  std::lock_guard<std::mutex> lock(r.mu);
  std::string token = "pyfunc_" + std::to_string(r.next++);
  r.by_token.emplace(token, std::move(fn));
  return token;
}

void register_py_func_ops(OpRegistry& reg) {
  // EagerPyFunc(input: Tin) -> Tout; attrs token (the host function), Tout
  // (the output dtypes). Stateful: the function may have side effects, so the
  // node runs even when nothing reads its outputs. Its outputs' shapes are
  // unknown until it runs.
  reg.op("EagerPyFunc")
      .inputs(0, -1)
      .outputs(-1)
      .stateful()
      .infer([](const InferContext& c) {
        (void)find_host_function(c.attrs.get_or<std::string>("token", ""));
        std::vector<TensorSpec> out;
        for (DType d : output_dtypes(c.attrs)) out.push_back({d, Shape::unknown_rank()});
        return out;
      })
      .cpu([](const KernelSpec& s) {
        HostFunction fn = find_host_function(s.attrs.get_or<std::string>("token", ""));
        std::vector<DType> dtypes = output_dtypes(s.attrs);
        return Kernel([fn, dtypes](KernelContext& k) {
          std::vector<Tensor> inputs;
          for (size_t i = 0; i < k.inputs.size(); ++i) inputs.push_back(k.input(i));
          std::vector<Tensor> outputs = fn(inputs);
          if (outputs.size() != dtypes.size()) {
            throw InvalidArgumentError("The function returned " + std::to_string(outputs.size()) +
                                       " values, but expects to see " + std::to_string(dtypes.size()) + " values.");
          }
          for (size_t i = 0; i < outputs.size(); ++i) {
            if (outputs[i].dtype() != dtypes[i]) {
              throw InvalidArgumentError("The function's output " + std::to_string(i) + " is " +
                                         dtype_name(outputs[i].dtype()) + ", but the op declares " +
                                         dtype_name(dtypes[i]));
            }
            k.set_output(i, std::move(outputs[i]));
          }
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("a py_function runs on the host")
      .not_differentiable();
}

}  // namespace ag

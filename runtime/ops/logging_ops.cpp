// Logging ops (see families.h): PrintV2, the stateful op behind tf.print,
// which writes through a replaceable sink (logging_ops.h), and Assert.
#include "runtime/ops/logging_ops.h"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <string>
#include <type_traits>

#include "runtime/core/tensor_format.h"
#include "runtime/ops/families.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

std::mutex& sink_mutex() {
  static std::mutex m;
  return m;
}

PrintSink& current_sink() {
  static PrintSink sink;
  return sink;
}

const char* const kStreams[] = {"stdout", "stderr", "log(info)", "log(warning)", "log(error)"};

bool valid_stream(const std::string& s) {
  return s.rfind("file://", 0) == 0 || std::find(std::begin(kStreams), std::end(kStreams), s) != std::end(kStreams);
}

}  // namespace

PrintSink set_print_sink(PrintSink sink) {
  std::lock_guard<std::mutex> lock(sink_mutex());
  PrintSink old = std::move(current_sink());
  current_sink() = std::move(sink);
  return old;
}

void default_print_sink(std::string_view stream, std::string_view text) {
  if (stream.substr(0, 7) == "file://") {
    std::string path(stream.substr(7));
    if (FILE* f = std::fopen(path.c_str(), "a")) {
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
      return;
    }
    throw InvalidArgumentError("Could not open file: " + path);  // TF's OpenAppendable failure, reworded
  }
  FILE* out = stream == "stdout" ? stdout : stderr;
  // Flush the other stream first so stdout and stderr keep program order.
  std::fflush(out == stdout ? stderr : stdout);
  std::fwrite(text.data(), 1, text.size(), out);
  std::fflush(out);
}

void emit_print(std::string_view stream, std::string_view text) {
  std::lock_guard<std::mutex> lock(sink_mutex());
  if (current_sink()) {
    current_sink()(stream, text);
  } else {
    default_print_sink(stream, text);
  }
}


void register_logging_ops(OpRegistry& reg) {
  // PrintV2(input: string scalar); attrs output_stream ("stderr"), end ("\n").
  reg.op("PrintV2")
      .tf_signature("input: string ->")
      .inputs(1)
      .outputs(0)
      .stateful()
      .infer([](const InferContext& c) {
        kernels::check_dtype(c, 0, DType::String);
        const Shape& s = c.inputs[0].shape;
        if (s.rank_known() && s.rank() != 0) {
          throw InvalidArgumentError("Input is expected to be scalar, but got " + s.debug_string());
        }
        std::string stream = c.attrs.get_or<std::string>("output_stream", "stderr");
        if (!valid_stream(stream)) {
          throw InvalidArgumentError("Unknown output stream: " + stream +
                                     ", Valid streams are: stdout, stderr, log(info), log(warning), log(error)");
        }
        return std::vector<TensorSpec>{};
      })
      .cpu([](const KernelSpec& s) {
        std::string stream = s.attrs.get_or<std::string>("output_stream", "stderr");
        std::string end = s.attrs.get_or<std::string>("end", "\n");
        return Kernel([stream, end](KernelContext& k) {
          const Tensor& in = k.input(0);
          if (in.rank() != 0) {
            throw InvalidArgumentError("Input is expected to be scalar, but got " + in.shape().debug_string());
          }
          std::string text = in.scalar_value<std::string>() + end;
          emit_print(stream, text);
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("printing runs on the host")
      .not_differentiable();

  // Assert(condition: bool scalar, data...): stateful; attr summarize (3).
  // When the condition is false: InvalidArgumentError "assertion failed: "
  // followed by each data tensor in brackets, strings unquoted, as TF's kernel.
  reg.op("Assert")
      .tf_signature("condition: bool, data: T[] ->")
      .inputs(1, -1)
      .outputs(0)
      .stateful()
      .infer([](const InferContext& c) {
        kernels::check_dtype(c, 0, DType::Bool);
        const Shape& s = c.inputs[0].shape;
        if (s.rank_known() && s.rank() != 0) {
          throw InvalidArgumentError("In[0] (condition) must be a scalar, got shape " + s.debug_string());
        }
        return std::vector<TensorSpec>{};
      })
      .cpu([](const KernelSpec& s) {
        int summarize = static_cast<int>(s.attrs.get_or<int64_t>("summarize", 3));
        return Kernel([summarize](KernelContext& k) {
          const Tensor& cond = k.input(0);
          if (cond.num_elements() != 1) {
            throw InvalidArgumentError("In[0] (condition) must be a scalar, got shape " + cond.shape().debug_string());
          }
          if (cond.scalar_value<bool>()) return;
          std::string msg = "assertion failed: ";
          for (size_t i = 1; i < k.inputs.size(); ++i) {
            msg += (i > 1 ? " [" : "[") + tf_summarize_value(k.input(i), summarize) + "]";
          }
          throw InvalidArgumentError(msg);
        });
      })
      .cost(CostKind::Host)
      .tpu_unsupported("assertions run on the host")
      .not_differentiable();
}

}  // namespace ag

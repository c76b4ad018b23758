#include "runtime/tpu/converter_options.h"

#include <string>

#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include "runtime/core/error.h"

namespace ag::tpu {
namespace {

/// Keeps protobuf's first error with its position (0-based from protobuf).
class FirstError : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, google::protobuf::io::ColumnNumber column, const std::string& message) override {
    if (!error_.empty()) return;
    error_ = std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": " + message;
  }
  void AddWarning(int, google::protobuf::io::ColumnNumber, const std::string&) override {}
  const std::string& error() const { return error_; }

 private:
  std::string error_;
};

}  // namespace

ConverterOptions parse_converter_options(std::string_view text) {
  // B2: "\\\n" is whitespace; the backslash becomes a space, so lines and
  // columns stay the user's.
  std::string input(text);
  for (size_t i = 0; i + 1 < input.size(); ++i) {
    if (input[i] == '\\' && (input[i + 1] == '\n' || (input[i + 1] == '\r' && i + 2 < input.size() && input[i + 2] == '\n'))) {
      input[i] = ' ';
    }
  }
  ConverterOptions options;
  FirstError errors;
  google::protobuf::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  if (!parser.ParseFromString(input, &options)) {
    throw InvalidArgumentError("Failed to parse converter_options_string: " +
                               (errors.error().empty() ? std::string("unparsable input") : errors.error()));
  }
  return options;
}

void check_converter_options(const ConverterOptions& options) {
  if (options.batch_options_size() > 1) throw UnimplementedError("Only one batch_options entry is supported");
  if (options.has_xla_sharding_options()) {
    const XlaShardingOptions& x = options.xla_sharding_options();
    if (x.num_cores_per_replica() < 1) throw InvalidArgumentError("num_cores_per_replica must be >= 1");
    if (x.num_cores_per_replica() > 1 && x.topology().empty()) {
      throw InvalidArgumentError("topology is required when num_cores_per_replica > 1");
    }
    if (x.device_assignment_size() != 0 && x.device_assignment_size() != 4 * x.num_cores_per_replica()) {
      throw InvalidArgumentError("device_assignment must have 4 entries per core");
    }
  }
}

bool optimization_enabled(ConverterOptions::State state, const ConverterOptions& options) {
  switch (state) {
    case ConverterOptions::ENABLED: return true;
    case ConverterOptions::DISABLED: return false;
    default: return !options.disable_default_optimizations();
  }
}

}  // namespace ag::tpu

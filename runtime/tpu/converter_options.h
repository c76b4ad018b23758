// The converter's options: --converter_options_string parsed as protobuf
// text format over the ConverterOptions schema (core/proto/
// converter_options.proto; TPU_EMULATOR.md section 2), its checks that need
// no model (B1, B2, B7), and the effective state of an optimization.
#pragma once

#include <string_view>

#include "runtime/core/proto/converter_options.pb.h"

namespace ag::tpu {

/// Parses `text` (B2: a backslash before a newline, as a shell passes the
/// seed's multi-line option string, is whitespace). InvalidArgumentError
/// "Failed to parse converter_options_string: LINE:COL: DETAIL" with
/// protobuf's own detail (B1), 1-based.
ConverterOptions parse_converter_options(std::string_view text);

/// B7's checks of what the options say by themselves: one batch_options
/// entry at most (UnimplementedError), and xla_sharding_options' cores,
/// topology and device assignment (InvalidArgumentError).
void check_converter_options(const ConverterOptions& options);

/// Whether an optimization in `state` runs: ENABLED yes, DISABLED no,
/// DEFAULT unless disable_default_optimizations.
bool optimization_enabled(ConverterOptions::State state, const ConverterOptions& options);

}  // namespace ag::tpu

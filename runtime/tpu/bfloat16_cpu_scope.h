// The bfloat16 optimization over the CPU's functions (TPU_EMULATOR.md B33,
// scope ALL): on the TPU the emulator rounds every float32 value of a placed
// function to bfloat16 when it compiles it; with scope ALL the converter
// does the same to the functions that stay on the CPU, in the FunctionDefs,
// so any runtime that loads the model computes as the optimized model does.
// Each float32 argument and op result is followed by a Cast to bfloat16 and
// back, and its readers read that. Ops keep computing in float32 on bfloat16
// values, rounded once (the emulator's rule, [E]); a filterlisted op (B34)
// computes in float32 and is cast back to bfloat16, which is the same.
#pragma once

#include <string>
#include <vector>

#include "runtime/core/proto/saved_model.pb.h"

namespace ag::tpu {

/// Rounds every float32 value of `functions` (names in `meta`'s library) to
/// bfloat16; calls, If, While and identities pass values their functions
/// and producers rounded, and are left alone, as are ops agc does not know.
void round_to_bfloat16(tensorflow::MetaGraphDef& meta, const std::vector<std::string>& functions);

}  // namespace ag::tpu

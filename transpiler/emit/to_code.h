// to_code: a converted module's functions as Python text, each printed the way
// `print(tf.autograph.to_code(f))` prints it (the function, then a blank line).
#pragma once

#include <string>

#include "transpiler/passes/convert_module.h"

namespace agc::emit {

/// The converted code of the module's converted entities, in source order.
/// `cm` must hold no error.
std::string to_code(const passes::ConvertedModule& cm);

}  // namespace agc::emit

// Python's repr() of literal values, byte for byte, as the printers need it:
// strings pick their quote and escape like CPython, floats use the shortest
// round-trip digits with Python's switch to exponent notation.
#pragma once

#include <string>
#include <string_view>

#include "transpiler/ast/ast.h"

namespace agc::ast {

/// repr() of a str given as UTF-8: 'abc', "it's", '\n'.
std::string repr_str(std::string_view utf8);
/// repr() of a bytes value: b'ab\x00'.
std::string repr_bytes(std::string_view bytes);
/// repr() of a float: 1.0, 0.1, 1e-05, 1e+16, inf, -0.0.
std::string repr_float(double v);
/// repr() of an imaginary literal: 2j, 2.5j, 1e+16j.
std::string repr_imag(double v);
/// repr() of a constant as astunparse writes it (Ellipsis as `...`, infinities as 1e309).
std::string repr_constant(const ast::ConstantValue& v);

}  // namespace agc::ast

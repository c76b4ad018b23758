// Asserts (AutoGraph's converters/asserts.py), with the ASSERT_STATEMENTS
// optional feature only (tf.function leaves it off, and so does agc):
//
//   assert x > 0, 'msg'      ag__.assert_stmt(x > 0, lambda: 'msg')
//
// The message must be a string constant.
#pragma once

#include "transpiler/passes/pass.h"

namespace agc::passes {

ast::Ref convert_asserts(const ast::Ref& fn, PassContext& ctx);

}  // namespace agc::passes

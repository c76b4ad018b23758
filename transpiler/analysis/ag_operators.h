// AutoGraph's operators in converted code: `ag__.if_stmt(...)`,
// `ag__.converted_call(...)`, ... The conversion spells `ag__` itself (a name
// not from the user's source), so a user's own `ag__.x(...)` is never taken
// for one.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "transpiler/ast/ast.h"

namespace agc::analysis {

/// `name` for `ag__.name` as the conversion spells it, else "".
std::string_view ag_attribute(const ast::Ref& e);
/// `op` for a call `ag__.op(...)` the conversion made, else "".
std::string_view ag_operator(const ast::Ref& e);

/// `ag__.ld(x)` -> x; anything else unchanged.
const ast::Ref& unwrap_ld(const ast::Ref& e);

/// The call `ag__.converted_call(f, (a, b), None, fscope)`, or `f(a, b)`
/// written directly, when it passes only positional arguments, none starred:
/// its callee (ld unwrapped); else null.
const ast::Ref* positional_callee(const ast::Ref& call);

/// The names `X` of `X = ag__.list_append(X, ...)` and `X, _ =
/// ag__.list_pop(X, ...)` anywhere in `body`: the lists a loop with that body
/// grows or shrinks, which the runtime keeps as TensorArrays when the loop is
/// staged (its list_symbols; `X[i] = v` keeps the length, see set_item).
std::set<std::string> list_mutation_targets(const ast::Refs& body);

}  // namespace agc::analysis

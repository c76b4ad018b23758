// Walks the statements of one function, in post-order within each block (inner
// statements before the compound statement holding them), without entering
// nested functions; those are handed to `on_nested` after the walk, each once.
// Dataflow analyses use it to annotate a function and then recurse.
#pragma once

#include <functional>
#include <vector>

#include "transpiler/ast/ast.h"

namespace agc::analysis {

void for_each_statement(const ast::Node* function, const std::function<void(const ast::Node*)>& on_statement,
                        const std::function<void(const ast::Node*)>& on_nested);

}  // namespace agc::analysis

// S-expression dump of the AST, for unit tests and `--dump-after`: every node
// kind with its fields in nodes.def order, e.g. (Assign [(Name x Store)] (Constant 1)).
#pragma once

#include <string>

#include "transpiler/ast/ast.h"

namespace agc::ast {

std::string dump(const Ref& n);
std::string dump(const Refs& ns);

}  // namespace agc::ast

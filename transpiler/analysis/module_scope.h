// The names a module binds at top level (its globals, which AutoGraph's namer
// must not reuse and the C++ emitter declares) and its imports.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "transpiler/ast/ast.h"

namespace agc::analysis {

/// Names the module binds outside functions and classes: assignments, loop and
/// `with` targets, `del` targets, except-clause names, defs, classes and
/// imports, inside any of its compound statements.
std::shared_ptr<const std::set<std::string>> module_names(const ast::Module& m);
/// Module-level imports: local name → dotted module path (`tf` → `tensorflow`).
std::map<std::string, std::string> module_imports(const ast::Module& m);

/// A tf.* path without TF's versioned prefix (`import tensorflow.compat.v1
/// as tf`: "compat.v1.matmul" -> "matmul"); `path` when it has none.
std::string_view without_tf_compat(std::string_view path);

}  // namespace agc::analysis

// What the converter's tests share: MetaGraphDefs written by hand.
#pragma once

#include <string>
#include <vector>

#include "runtime/core/proto/saved_model.pb.h"

namespace ag::test {

/// Adds FunctionDef `name` to `m`'s library: f(x: float) -> output_0: float,
/// no nodes, no result bound yet.
inline tensorflow::FunctionDef* add_function(tensorflow::MetaGraphDef& m, const std::string& name) {
  tensorflow::FunctionDef* f = m.mutable_graph_def()->mutable_library()->add_function();
  f->mutable_signature()->set_name(name);
  auto* a = f->mutable_signature()->add_input_arg();
  a->set_name("x");
  a->set_type(tensorflow::DT_FLOAT);
  auto* o = f->mutable_signature()->add_output_arg();
  o->set_name("output_0");
  o->set_type(tensorflow::DT_FLOAT);
  return f;
}

/// Adds node `name` of op `op` reading `inputs` to `f`.
inline tensorflow::NodeDef* add_node(tensorflow::FunctionDef* f, const std::string& name, const std::string& op,
                                     const std::vector<std::string>& inputs) {
  tensorflow::NodeDef* n = f->add_node_def();
  n->set_name(name);
  n->set_op(op);
  for (const std::string& in : inputs) n->add_input(in);
  return n;
}

}  // namespace ag::test

// The functions of a SavedModel's MetaGraphDef and who calls whom: what the
// converter selects TPU functions from (aliases, concrete names, signatures,
// jit_compile; TPU_EMULATOR.md B3-B6), checks calls between them in (B8)
// and charges costs to (section 7). A call is any function-valued attr of a
// node (a call's f, an If's branches, a While's cond and body); the
// GraphDef's own nodes are the model's entry points, on the CPU.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tensorflow {
class MetaGraphDef;
class FunctionDef;
}  // namespace tensorflow

namespace ag::tpu {

class ModelFunctions {
 public:
  explicit ModelFunctions(const tensorflow::MetaGraphDef& meta);

  const tensorflow::FunctionDef* find(const std::string& name) const;
  /// The functions `f` calls directly, in node order, each once.
  const std::vector<std::string>& callees(const std::string& f) const;
  /// `f` and every function it reaches, depth first in callee order.
  std::vector<std::string> reachable(const std::string& f) const;
  /// The concrete functions saved under `alias` (SaveOptions.function_aliases),
  /// sorted by name.
  std::vector<std::string> aliased(const std::string& alias) const;
  /// The alias of concrete function `f`, or "".
  std::string alias_of(const std::string& f) const;
  /// The function signature `key` runs (its GraphDef call's f), or "".
  std::string signature_function(const std::string& key) const;
  /// The concrete functions of tf.functions traced with jit_compile=True
  /// (the object graph's FunctionSpec), and FunctionDefs marked
  /// _XlaMustCompile, sorted by name.
  std::vector<std::string> jit_compiled() const;
  /// The functions the signatures run, and all they reach, each once.
  std::vector<std::string> served() const;

 private:
  const tensorflow::MetaGraphDef& meta_;
  std::map<std::string, const tensorflow::FunctionDef*> functions_;
  std::map<std::string, std::vector<std::string>> callees_;
  std::map<std::string, std::string> signatures_;  // key -> function
};

}  // namespace ag::tpu

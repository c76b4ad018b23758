// agc-api-doc: docs/api.md from the tf.* and np.* tables (tf_functions.def,
// np_functions.def), so the list of supported names and their signatures
// cannot drift from the code.
//   agc-api-doc                 prints the page
//   agc-api-doc --check FILE    exit status 1, with a note, when FILE differs
// The api-doc test (suite fast) runs the second form on docs/api.md.
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>

#include "runtime/api/tf_table_macros.h"

namespace {

std::string code(std::string_view s) { return "`" + std::string(s) + "`"; }

// "tf.tanh(x, name=None)": the signature with the main path for its def name.
std::string call(std::string_view path, std::string_view signature, const char* module = "tf.") {
  return code(module + std::string(path) + std::string(signature.substr(signature.find('('))));
}

// " (also `tf.math.tanh`, `tf.nn.tanh`)" for the aliases after the main path.
template <size_t N>
std::string aliases(const char* const (&paths)[N], const char* module = "tf.") {
  std::string out;
  for (size_t i = 1; i < N; ++i) out += std::string(i == 1 ? " (also " : ", ") + code(std::string(module) + paths[i]);
  return N > 1 ? out + ")" : out;
}

// ": op `Tanh`, node `Tanh`": the op a plain wrapper applies, TF's node name.
std::string facts(std::string_view op, std::string_view hint) {
  std::string out;
  if (!op.empty()) out += "op " + code(op);
  if (!hint.empty()) out += std::string(out.empty() ? "" : ", ") + "node " + code(hint);
  return out.empty() ? "" : ": " + out;
}

std::string page() {
  std::ostringstream out;
  out << "# The tf.* API\n\n"
         "<!-- Generated from runtime/api/tf_functions.def, np_functions.def and py_modules.def by agc-api-doc (runtime/api/api_doc.cpp): do not edit.\n"
         "     Regenerate: build-dev/runtime/agc-api-doc > docs/api.md (the api-doc test fails when it is stale). -->\n\n"
         "Every `tf.*` name generated code may use. A function binds its arguments to\n"
         "TensorFlow's Python signature, shown here (keyword names and defaults; Python's\n"
         "TypeError texts for arguments that do not fit). While tracing, `name=` names the\n"
         "node a function adds; without it the node gets TensorFlow's default name, given\n"
         "below as `node` (made unique as TensorFlow does: `Add`, `Add_1`, ...). Functions\n"
         "built from several ops or from Python's operators (`tf.tensordot`, `tf.einsum`,\n"
         "`tf.divide`, `tf.truediv`, `tf.random.*`) accept `name=` and ignore it. Any other\n"
         "`tf.*` name is an error at transpile time.\n";
#define AG_TF_GROUP(title) out << "\n## " << title << "\n\n";
#define AG_TF_ENTRY(paths, head, tail)                     \
  {                                                       \
    static const char* const p[] = {AG_TF_UNPAREN paths}; \
    out << "- " << head << aliases(p) << tail << "\n";    \
  }
#define AG_TF_UNARY(cpp_name, paths, signature, op, hint) \
  AG_TF_ENTRY(paths, call(AG_TF_FIRST paths, signature), facts(op, hint))
#define AG_TF_BINARY(cpp_name, paths, signature, op, hint) \
  AG_TF_ENTRY(paths, call(AG_TF_FIRST paths, signature), facts(op, hint))
#define AG_TF_FN(cpp_name, paths, signature, impl, op, hint) \
  AG_TF_ENTRY(paths, call(AG_TF_FIRST paths, signature), facts(op, hint))
#define AG_TF_CLASS(cpp_name, paths, signature, impl) \
  AG_TF_ENTRY(paths, "class " + call(AG_TF_FIRST paths, signature), "")
#define AG_TF_VALUE(cpp_name, paths, what) \
  AG_TF_ENTRY(paths, code(std::string("tf.") + AG_TF_FIRST paths), std::string(": ") + what)
#include "runtime/api/tf_functions.def"
#undef AG_TF_ENTRY
  out << "\n# NumPy (`import numpy as np`)\n\n"
         "The `np.*` names generated code may use (docs/user-guide.md says how NumPy values\n"
         "behave). Arrays and NumPy scalars also have the methods and attributes listed\n"
         "there (`a.shape`, `a.sum(axis=0)`, `x.item()`, ...). Any other `np.*` name is\n"
         "an error at transpile time.\n";
#define AG_NP_ENTRY(paths, head, tail)                          \
  {                                                            \
    static const char* const p[] = {AG_TF_UNPAREN paths};      \
    out << "- " << head << aliases(p, "np.") << tail << "\n"; \
  }
#define AG_NP_GROUP(title) out << "\n## " << title << "\n\n";
#define AG_NP_FN(cpp_name, paths, signature, impl, data) AG_NP_ENTRY(paths, call(AG_TF_FIRST paths, signature, "np."), "")
#define AG_NP_VALUE(cpp_name, paths, what) \
  AG_NP_ENTRY(paths, code(std::string("np.") + AG_TF_FIRST paths), std::string(": ") + what)
#include "runtime/api/np_functions.def"
#undef AG_NP_ENTRY
  out << "\n# Python's standard modules (`import math`, `import time`)\n\n"
         "The names of the standard modules agc compiles (runtime/api/py_modules.def), computed\n"
         "and failing as CPython 3.11's do. Any other name of these modules, and any other\n"
         "module, is an error at transpile time.\n";
#define AG_PY_MODULE(name) out << "\n## " << code(name) << "\n\n";
#define AG_PY_FN(cpp_name, paths, signature, impl, data) out << "- " << call(AG_TF_FIRST paths, signature, "") << "\n";
#define AG_PY_VALUE(cpp_name, paths, what) \
  out << "- " << code(AG_TF_FIRST paths) << ": " << what << "\n";
#include "runtime/api/py_modules.def"
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::string text = page();
  if (argc == 1) {
    std::cout << text;
    return 0;
  }
  if (argc != 3 || std::strcmp(argv[1], "--check") != 0) {
    std::cerr << "usage: agc-api-doc [--check FILE]\n";
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  std::stringstream file;
  file << in.rdbuf();
  if (in && file.str() == text) return 0;
  std::cerr << argv[2] << " is stale: it is not what runtime/api/tf_functions.def, np_functions.def and py_modules.def give.\n"
            << "Regenerate it: <build dir>/runtime/agc-api-doc > docs/api.md\n";
  return 1;
}

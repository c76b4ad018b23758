// EagerPyFunc, TF's op behind tf.py_function (and behind AutoGraph's print of
// tensors in graph code): when the graph runs, the node calls a host function
// on its inputs' values and its outputs are that function's results. The
// function is registered under a token, the node's `token` attribute, as TF
// registers the Python function of a py_function in its FuncRegistry.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runtime/core/tensor.h"

namespace ag {

/// A host function of an EagerPyFunc node: its inputs' values in, its
/// outputs out (as many as the node's Tout, of those dtypes).
using HostFunction = std::function<std::vector<Tensor>(const std::vector<Tensor>& inputs)>;

/// Registers `fn` and returns its token ("pyfunc_0", "pyfunc_1", ... as TF
/// names them). Registrations last as long as the process: a graph that
/// holds the token may run at any time.
std::string register_host_function(HostFunction fn);

}  // namespace ag

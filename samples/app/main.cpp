// How a C++ app embeds agc: include the header `agc emit-cpp model.py` wrote,
// build tensors with the runtime's API, and call the converted functions. The
// first call per signature traces; later calls run the cached plan.
#include <cstdio>

#include "model.h"

int main() {
  ag::Value x = ag::tf::constant(ag::Value::list({ag::Value::list({1.0, -2.0}), ag::Value::list({0.5, 3.0})}));
  ag::Value w = ag::tf::constant(ag::Value::list({ag::Value::list({1.0, 0.0, -1.0}), ag::Value::list({0.5, 1.0, 2.0})}));
  ag::Value b = ag::tf::constant(ag::Value::list({0.0, 1.0, 1.0}));
  std::printf("%s\n", ag::str(model::dense_relu(x, w, b)).c_str());
  for (int n : {6, 27}) {
    ag::Value steps = model::collatz_steps(ag::tf::constant(n));
    std::printf("collatz_steps(%d) = %s\n", n, ag::str(steps).c_str());
  }
  return 0;
}

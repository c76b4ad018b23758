// How a C++ app embeds agc: include the header `agc emit-cpp --lib model.py`
// wrote and call the converted functions. The first call per signature
// traces; later calls run the cached plan.
#include <cstdio>
#include <span>
#include <string>

#include "model.h"

int main() {
  // Every function takes ag::Values: tensors made with the runtime's API,
  // Python numbers, strings and lists.
  ag::Value x = ag::tf::constant(ag::Value::list({ag::Value::list({1.0, -2.0}), ag::Value::list({0.5, 3.0})}));
  ag::Value w = ag::tf::constant(ag::Value::list({ag::Value::list({1.0, 0.0, -1.0}), ag::Value::list({0.5, 1.0, 2.0})}));
  ag::Value b = ag::tf::constant(ag::Value::list({0.0, 1.0, 1.0}));
  std::printf("%s\n", ag::str(model::dense_relu(x, w, b)).c_str());

  // A tf.function with an input_signature also takes the app's own buffers
  // (borrowed for the call, not copied), and a plain number for a scalar;
  // ag::elements reads a result's elements, its dtype checked.
  const float features[2][2] = {{1.0f, -2.0f}, {0.5f, 3.0f}};
  ag::Value probs = model::classifier_predict(ag::TensorView<float>(&features[0][0], {2, 2}));
  std::span<const float> p = ag::elements<float>(probs);
  for (int row = 0; row < 2; ++row) {
    std::printf("classifier.predict row %d: %.4f %.4f %.4f\n", row, p[3 * row], p[3 * row + 1], p[3 * row + 2]);
  }
  for (int n : {6, 27}) {
    std::printf("collatz_steps(%d) = %d\n", n, ag::elements<int32_t>(model::collatz_steps(n))[0]);
  }

  // Everything a call throws is an ag::Error: TF's class name and message.
  try {
    model::classifier_predict(ag::TensorView<float>(&features[0][0], {1, 4}));
  } catch (const ag::Error& e) {
    std::string message = e.what();
    std::printf("%s: %s\n", e.type_name(), message.substr(0, message.find('\n')).c_str());
  }
  return 0;
}

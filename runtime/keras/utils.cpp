// tf.keras.utils: the helpers the Keras examples call around a model.
// to_categorical is Keras 2.15's (np_utils.py): labels as ints, a trailing
// dim of 1 dropped, one row of `num_classes` per label (NumPy's IndexError
// for a label out of range), in a NumPy array of `dtype`.
// set_random_seed seeds Python's random, NumPy's and TensorFlow's generators,
// as Keras's does.
#include <algorithm>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/core/error.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/user_function.h"

namespace ag::keras {
namespace {

Value to_categorical(const std::vector<Value>& a) {
  Tensor y = ndarray::to_array(a[0], DType::Int64);
  std::vector<int64_t> shape(y.shape().dims().begin(), y.shape().dims().end());
  if (shape.size() > 1 && shape.back() == 1) shape.pop_back();
  const int64_t n = y.num_elements();
  const int64_t* labels = y.data<int64_t>();
  int64_t classes = 0;
  if (a[1].is_none() || (a[1].is_index() && a[1].as_int() == 0)) {
    if (n == 0) throw ValueError("zero-size array to reduction operation maximum which has no identity");
    classes = *std::max_element(labels, labels + n) + 1;
  } else {
    classes = a[1].as_int();
  }
  Tensor out(DType::Float64, Shape{n, classes});
  std::fill_n(out.data<double>(), n * classes, 0.0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t c = labels[i] < 0 ? labels[i] + classes : labels[i];
    if (c < 0 || c >= classes) {
      throw IndexError("index " + std::to_string(labels[i]) + " is out of bounds for axis 1 with size " +
                       std::to_string(classes));
    }
    out.data<double>()[i * classes + c] = 1.0;
  }
  shape.push_back(classes);
  return ndarray::array(ndarray::cast(out.reshaped(Shape(std::span<const int64_t>(shape))), require_dtype(a[2])));
}

Value set_random_seed(const std::vector<Value>& a) {
  if (!a[0].is_index()) {
    throw ValueError("Expected `seed` argument to be an integer. Received: seed=" + str(a[0]) + " (of type " +
                     a[0].type_name() + ")");
  }
  pymod::api::random_seed({a[0]}, {});
  np::api::random_seed({a[0]}, {});
  tf::api::random_set_seed({a[0]}, {});
  return Value();
}

}  // namespace
}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_utils_to_categorical() {
  static const Value fn =
      make_function("to_categorical", {{"y", std::nullopt}, {"num_classes", Value()}, {"dtype", Value("float32")}},
                    keras::to_categorical);
  return fn;
}

const Value& keras_utils_set_random_seed() {
  static const Value fn = make_function("set_random_seed", {{"seed", std::nullopt}}, keras::set_random_seed);
  return fn;
}

}  // namespace ag::tf::api

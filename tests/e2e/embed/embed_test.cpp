// A C++ app embedding tests/e2e/embed/embed_model.py through the header agc
// generated for it: typed entry points over the app's own buffers (borrowed,
// never copied, never pointed into afterwards), spans over results, module
// objects and their tf.function methods, the module's __name__, and every
// kind of bad call caught as an ag::Error with TF's class name and message.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "embed_model.h"

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what.c_str());
    ++failures;
  }
}

// The error `f` throws as "TypeName: message" ("<no error>" when none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ag::Error& e) {
    return std::string(e.type_name()) + ": " + e.what();
  }
  return "<no error>";
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

int main() {
  // The module ran as a library: __name__ is its name, no __main__ block.
  check(ag::str(embed_model::module_name()) == "embed_model", "__name__ is " + ag::str(embed_model::module_name()));
  check(!ag::truthy(embed_model::main_ran()), "the __main__ block ran in a library");

  // Typed overloads over the app's buffers, results read as spans.
  float xs[6] = {1, 2, 3, 4, 5, 6};
  ag::Value scaled = embed_model::scaler_scale(ag::TensorView<float>(xs, {2, 3}));
  std::span<const float> s = ag::elements<float>(scaled);
  check(s.size() == 6 && s[0] == 2 && s[5] == 12, "scaler.scale: " + ag::str(scaled));
  check(ag::tensor_of(scaled).shape() == ag::Shape({2, 3}), "scaler.scale's shape");
  std::vector<int64_t> v = {10, 20, 30};
  ag::Value picked = embed_model::scaler_pick(2, ag::TensorView<int64_t>(v, {3}));
  check(ag::elements<int64_t>(picked)[0] == 30, "scaler.pick (a method of the base class's subclass): " + ag::str(picked));
  check(ag::str(embed_model::scaler_call(ag::Value(1.5))) == "tf.Tensor(2.5, shape=(), dtype=float32)",
        "scaler(x) through scaler_call");
  check(ag::str(embed_model::add(2)) == "3", "add's literal default");
  std::vector<std::string> words = {"ab", "cd"};
  ag::Value loud = embed_model::shout(ag::TensorView<std::string>(words, {2}));
  check(ag::elements<std::string>(loud)[1] == "CD", "shout: " + ag::str(loud));

  // The object itself, and the generic entry points with the runtime's values.
  ag::Value k = embed_model::scaler().getattr("k");
  check(ag::str(k).find("numpy=2.0") != std::string::npos, "scaler().k: " + ag::str(k));
  ag::Value t = ag::tf::constant(ag::Value::list({1.0, 2.0}));
  check(ag::str(embed_model::total(t)) == "tf.Tensor(3.0, shape=(), dtype=float32)", "total(ag::Value)");

  // No copy of a borrowed input: a 16 MB sum allocates next to nothing.
  std::vector<float> big(4 << 20, 0.5f);
  embed_model::total(ag::TensorView<float>(big, {static_cast<int64_t>(big.size())}));  // traced once
  ag::reset_buffer_peak();
  int64_t before = ag::buffer_stats().current;
  ag::Value sum = embed_model::total(ag::TensorView<float>(big, {static_cast<int64_t>(big.size())}));
  check(ag::elements<float>(sum)[0] == 0.5f * static_cast<float>(big.size()), "total of 4M halves");
  int64_t grew = ag::buffer_stats().peak - before;
  check(grew < (1 << 20), "total(view) allocated " + std::to_string(grew) + " bytes: the input was copied");

  // Nothing points into the app's buffer after the call: a result that is
  // the input, and an input a module-level list keeps, hold copies.
  float ys[3] = {7, 8, 9};
  ag::Value same = embed_model::scaler_same(ag::TensorView<float>(ys, {3}));
  {
    ag::BorrowedTensor b = ag::borrow(ag::TensorView<float>(ys, {3}));
    embed_model::remember(ag::Value(b.tensor()));
  }
  ys[0] = -1;
  check(ag::elements<float>(same)[0] == 7, "scaler.same's result changed with the app's buffer");
  check(ag::elements<float>(embed_model::recall(0))[0] == 7, "the kept input changed with the app's buffer");

  // Bad calls: ag::Errors with TF's class names and messages, never a crash.
  std::string e = error_of([&] { embed_model::scaler_scale(ag::TensorView<float>(xs, {3, 2})); });
  check(starts_with(e, "ValueError: Python inputs incompatible with input_signature:") &&
            e.find("TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)") != std::string::npos,
        "a bad shape: " + e);
  e = error_of([] { embed_model::scaler_scale(ag::tf::constant(ag::Value::list({ag::Value::list({1, 2, 3})}))); });
  check(starts_with(e, "ValueError: Python inputs incompatible with input_signature:") &&
            e.find("dtype=int32") != std::string::npos,
        "a bad dtype: " + e);
  e = error_of([] { embed_model::scaler().getattr("scale")({1.0, 2.0}); });
  check(e == "TypeError: scale() takes 1 positional argument but 2 were given", "too many arguments: " + e);
  e = error_of([] { embed_model::scaler()({}); });
  check(starts_with(e, "TypeError: ") && e.find("missing 1 required positional argument: 'x'") != std::string::npos,
        "too few arguments: " + e);
  e = error_of([&] { embed_model::scaler_pick(5, ag::TensorView<int64_t>(v, {3})); });
  check(starts_with(e, "InvalidArgumentError: ") && e.find("5 is not in [0, 3)") != std::string::npos,
        "an index out of range in a kernel: " + e);
  e = error_of([] { embed_model::fail(3); });
  check(e == "ValueError: bad 3", "the module raises: " + e);
  try {
    embed_model::fail(4);
  } catch (const ag::ValueError& err) {
    check(std::strcmp(err.type_name(), "ValueError") == 0, "caught as ag::ValueError");
  }
  e = error_of([&] { ag::TensorView<float> w(std::span<const float>(xs, 6), {4}); });
  check(e == "InvalidArgumentError: Expected 4 values for shape [4], got 6", "a view of the wrong size: " + e);
  e = error_of([&] { (void)ag::elements<int32_t>(scaled); });
  check(e == "InvalidArgumentError: int32 expected, got float32", "a span of the wrong type: " + e);
  e = error_of([] { (void)ag::elements<float>(embed_model::add(ag::Value::tuple({1}), ag::Value::tuple({2}))); });
  check(e == "TypeError: Expected an eager tensor, got tuple", "a span of a tuple: " + e);

  if (failures == 0) std::printf("ok\n");
  return failures == 0 ? 0 : 1;
}

// tf.TensorArray through the C++ API generated code calls: TF's documented
// examples (eager and in a tf.function), a TensorArray carried by staged loops,
// AutoGraph's list operators turning a Python list into one, and the errors.
#include <cmath>

#include "runtime/core/tensor_format.h"
#include "runtime/value/tensor_array.h"
#include "tests/unit/autograph/support.h"
#include "tests/unit/error_text.h"

using namespace ag;
using namespace ag::autograph;
using namespace ag::test;

namespace {

std::string repr_of(const Value& v) { return repr(v); }


Value call(const Value& obj, const char* method, std::vector<Value> args = {}) {
  return obj.getattr(method)(std::move(args));
}

}  // namespace

TEST_CASE("TensorArray docstring example 1: eager writes, reads and stack") {
  Value ta = tensor_array::create(DType::Float32, Value(0), true, Value(false));
  ta = call(ta, "write", {Value(0), Value(10)});
  ta = call(ta, "write", {Value(1), Value(20)});
  ta = call(ta, "write", {Value(2), Value(30)});
  CHECK(repr_of(call(ta, "read", {Value(0)})) == "<tf.Tensor: shape=(), dtype=float32, numpy=10.0>");
  CHECK(repr_of(call(ta, "read", {Value(1)})) == "<tf.Tensor: shape=(), dtype=float32, numpy=20.0>");
  CHECK(repr_of(call(ta, "stack")) ==
        "<tf.Tensor: shape=(3,), dtype=float32, numpy=array([10., 20., 30.], dtype=float32)>");
  CHECK(repr_of(call(ta, "size")) == "<tf.Tensor: shape=(), dtype=int32, numpy=3>");
}

TEST_CASE("TensorArray docstring example 2: fibonacci in a tf.function") {
  // ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True); ta = ta.unstack([0., 1.])
  // for i in range(2, n): ta = ta.write(i, ta.read(i - 1) + ta.read(i - 2))   (n a Python int: unrolled)
  Function fib("fibonacci", {{"n", {}}}, [](const std::vector<Value>& a) {
    Value ta = tensor_array::create(DType::Float32, Value(0), true);
    ta = call(ta, "unstack", {Value::list({Value(0.0), Value(1.0)})});
    for (int64_t i = 2; i < a[0].as_int(); ++i) {
      ta = call(ta, "write", {Value(i), call(ta, "read", {Value(i - 1)}) + call(ta, "read", {Value(i - 2)})});
    }
    return call(ta, "stack");
  });
  CHECK(repr_of(fib({Value(7)})) ==
        "<tf.Tensor: shape=(7,), dtype=float32, numpy=array([0., 1., 1., 2., 3., 5., 8.], dtype=float32)>");
}

TEST_CASE("a TensorArray is a loop variable of a staged for over tf.range") {
  // ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
  // for i in tf.range(x): v = v + i; ta = ta.write(i, v)
  // return ta.stack()
  Function f = fn1([](const std::vector<Value>& a) {
    Value ta = tensor_array::create(DType::Int32, Value(0), true);
    Value v(1), i = Undefined("i");
    State s{{&ta, &v, &i}};
    LoopOptions opts;
    opts.iterate_names = "i";
    for_stmt(tf::range(a[0]), {},
             [&](const Value& itr) {
               i = itr;
               v = v + i;
               ta = call(ta, "write", {i, v});
             },
             s.get(), s.set(), {"ta", "v", "i"}, opts);
    CHECK(ta.is_tensor_array());
    return call(ta, "stack");
  });
  CHECK(str(f({i32(5)})) == "tf.Tensor([ 1  2  4  7 11], shape=(5,), dtype=int32)");
  CHECK(str(f({i32(0)})) == "tf.Tensor([], shape=(0,), dtype=int32)");
  CHECK(has_while(f.get_concrete_function({i32(1)})->graph()));
}

TEST_CASE("dynamic_rnn: states of a tf.range loop stacked by a TensorArray") {
  // h = tanh(x[t] @ W + h @ U + b) for t in tf.range(T); outputs.write(t, h)
  const int64_t T = 4, B = 2, H = 3;
  Function rnn("rnn", {{"x", {}}, {"w", {}}, {"u", {}}}, [&](const std::vector<Value>& a) {
    Value x = a[0], w = a[1], u = a[2];
    Value h = tf::zeros(Value::list({Value(B), Value(H)}));
    Value out = tensor_array::create(DType::Float32, getitem(tf::shape(x), Value(0)));
    Value t = Undefined("t");
    State s{{&h, &out, &t}};
    LoopOptions opts;
    opts.iterate_names = "t";
    for_stmt(tf::range(getitem(tf::shape(x), Value(0))), {},
             [&](const Value& itr) {
               t = itr;
               h = tf::tanh(tf::matmul(getitem(x, t), w) + tf::matmul(h, u) + Value(0.5));
               out = call(out, "write", {t, h});
             },
             s.get(), s.set(), {"h", "out", "t"}, opts);
    return call(out, "stack");
  });
  std::vector<float> xs(static_cast<size_t>(T * B * H)), ws(static_cast<size_t>(H * H)), us(ws.size());
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = 0.1f * static_cast<float>(i % 7) - 0.3f;
  for (size_t i = 0; i < ws.size(); ++i) ws[i] = 0.05f * static_cast<float>(i) - 0.2f;
  for (size_t i = 0; i < us.size(); ++i) us[i] = 0.1f - 0.03f * static_cast<float>(i);
  Value x(Tensor::from_vector<float>(Shape{T, B, H}, xs));
  Value r = rnn({x, Value(Tensor::from_vector<float>(Shape{H, H}, ws)), Value(Tensor::from_vector<float>(Shape{H, H}, us))});
  const Tensor& got = r.as_tensor().value();
  REQUIRE(got.shape() == Shape{T, B, H});
  // The same recurrence by hand.
  std::vector<float> h(static_cast<size_t>(B * H), 0.0f);
  for (int64_t step = 0; step < T; ++step) {
    std::vector<float> nh(h.size());
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t j = 0; j < H; ++j) {
        float acc = 0.5f;
        for (int64_t k = 0; k < H; ++k) {
          acc += xs[static_cast<size_t>((step * B + b) * H + k)] * ws[static_cast<size_t>(k * H + j)];
          acc += h[static_cast<size_t>(b * H + k)] * us[static_cast<size_t>(k * H + j)];
        }
        nh[static_cast<size_t>(b * H + j)] = std::tanh(acc);
      }
    }
    h = nh;
    for (size_t k = 0; k < h.size(); ++k) {
      CHECK(got.data<float>()[static_cast<size_t>(step * B * H) + k] == doctest::Approx(h[k]).epsilon(1e-5));
    }
  }
}

TEST_CASE("list_append in a staged loop turns the Python list into a TensorArray") {
  // out = []
  // for i in tf.range(n): out = ag__.list_append(out, i * i)
  // return ag__.list_stack(out)  (tf.stack(out))
  Function f = fn1([](const std::vector<Value>& a) {
    Value out = Value::list();
    Value i = Undefined("i");
    State s{{&out, &i}};
    LoopOptions opts;
    opts.iterate_names = "i";
    opts.list_symbols = {"out"};
    for_stmt(tf::range(a[0]), {},
             [&](const Value& itr) {
               i = itr;
               out = list_append(out, i * i);
             },
             s.get(), s.set(), {"out", "i"}, opts);
    return tf::stack(out);
  });
  CHECK(str(f({i32(4)})) == "tf.Tensor([0 1 4 9], shape=(4,), dtype=int32)");
  // A list with items keeps them first; list_pop takes the last one back.
  Function g = fn1([](const std::vector<Value>& a) {
    Value out = Value::list({f32(-1)});
    Value last(0.0);
    LoopOptions opts;
    opts.list_symbols = {"out"};
    Value k(a[0]);
    State ks{{&out, &last, &k}};
    while_stmt([&] { return k > Value(0); },
               [&] {
                 out = list_append(out, tf::cast(k, DType::Float32));
                 out = list_append(out, tf::cast(k, DType::Float32) * Value(10.0));
                 auto [o, popped] = list_pop(out);
                 out = o;
                 last = popped;
                 k = k - Value(1);
               },
               ks.get(), ks.set(), {"out", "last", "k"}, opts);
    return Value::tuple({list_stack(out), last});
  });
  Value r = g({i32(3)});
  CHECK(str(r.items()[0]) == "tf.Tensor([-1.  3.  2.  1.], shape=(4,), dtype=float32)");
  CHECK(str(r.items()[1]) == "tf.Tensor(10.0, shape=(), dtype=float32)");
  // In plain Python (eager) the list stays a list.
  Value py = Value::list();
  py = list_append(py, Value(1));
  CHECK(py.is_list());
  CHECK(repr(py) == "[1]");
}

TEST_CASE("TensorArray errors read as TF's") {
  Value ta = tensor_array::create(DType::Float32, Value(2));
  CHECK(error_text([&] { call(ta, "write", {Value(2), Value(1.0)}); }) ==
        "OutOfRangeError: Tried to write to index 2 but array is not resizeable and size is: 2 ");
  CHECK(error_text([&] { call(ta, "write", {Value(-1), Value(1.0)}); }) ==
        "OutOfRangeError: Writing to negative indices (index -1) is not allowed.");
  CHECK(error_text([&] { call(ta, "write", {Value(0), i32(1)}); }) ==
        "InvalidArgumentError: TensorArray dtype is float32 but Op is trying to write dtype int32 ");
  CHECK(error_text([&] { call(ta, "read", {Value(5)}); }) ==
        "OutOfRangeError: Tried to read from index 5 but array size is: 2 ");
  // Reading an unwritten slot of unknown element shape.
  CHECK(error_text([&] { call(ta, "read", {Value(1)}); }) ==
        "ValueError: Cannot convert a partially known TensorShape <unknown> to a Tensor.");
  call(ta, "write", {Value(0), fvec({1, 2})});
  CHECK(error_text([&] { call(ta, "write", {Value(1), fvec({1, 2, 3})}); }) ==
        "ValueError: Incompatible shape for value ((3,)), expected ((2,))");
  call(ta, "read", {Value(0)});  // clear_after_read (default True)
  CHECK(error_text([&] { call(ta, "read", {Value(0)}); }) ==
        "InvalidArgumentError: Could not read index 0 twice because it was cleared after a previous read (perhaps "
        "try setting clear_after_read = false?)");
  CHECK(error_text([] { tensor_array::create(DType::Float32); }) ==
        "ValueError: Size must be declared for TensorArrays when eager execution is enabled.");

  // In a graph: shape inference at trace time, bounds at run time (the kernel's words).
  Function f = fn1([](const std::vector<Value>& a) {
    Value t = tensor_array::create(DType::Float32, Value(2));
    t = call(t, "write", {a[0], fvec({1, 2})});
    return call(t, "stack");
  });
  CHECK(str(f({i32(1)})) == "tf.Tensor(\n[[0. 0.]\n [1. 2.]], shape=(2, 2), dtype=float32)");
  CHECK(error_text([&] { f({i32(2)}); }) ==
        "InvalidArgumentError: Trying to modify element 2 in a list with 2 elements.");
  Function g = fn1([](const std::vector<Value>& a) {
    Value t = tensor_array::create(DType::Float32, Value(2));
    t = call(t, "write", {Value(0), a[0]});
    return call(t, "write", {Value(1), fvec({1, 2, 3})});
  });
  CHECK(error_text([&] { g({fvec({1, 2})}); }) == "ValueError: Inconsistent shapes: saw (3,) but expected (2,) ");
}

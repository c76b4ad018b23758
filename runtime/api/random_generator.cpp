// tf.random.Generator (TF's stateful_random_ops.py), Philox only: a
// generator is its state, a tf.Variable of int64[3] (counter low, counter
// high, key), and each draw is one Stateful* op that reads the state and
// moves it on (ops/stateful_random_ops.cpp), so a generator made from a seed
// replays TF's numbers call for call. from_seed(1234) is the state
// [1234, 0, 0] (_make_1d_state: the int cut into 64-bit words); split(n) and
// make_seeds(n) draw n int64 keys (uniform_full_int) as TF does.
#include <mutex>
#include <random>

#include "runtime/api/tf_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/api/python_api.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"

namespace ag::tf {
namespace {

constexpr int64_t kPhilox = 1;
/// TF creates the state as Variable(name="StateVar") under name_scope("random_generator").
constexpr const char* kStateVarName = "random_generator/StateVar";

struct GeneratorState : NativeState {
  Value state;  // the tf.Variable
  int64_t alg = kPhilox;
};

GeneratorState& generator_of(const Value& v) {
  auto* g = native_state<GeneratorState>(v);
  if (g == nullptr) throw TypeError("expected a tf.random.Generator, got " + ag::repr(v));
  return *g;
}

/// TF's convert_alg_to_int for the algorithms agc has: Philox (None, "philox", 1).
int64_t generator_algorithm(const Value& alg) {
  if (alg.is_none()) return kPhilox;
  if (alg.is_str() && (alg.as_str() == "philox" || alg.as_str() == "auto_select")) return kPhilox;
  if (alg.is_int() && alg.as_int() == kPhilox) return kPhilox;
  if ((alg.is_str() && alg.as_str() == "threefry") || (alg.is_int() && alg.as_int() == 2)) {
    throw UnimplementedError("tf.random.Generator with alg='threefry' is not supported by agc: use 'philox'");
  }
  throw ValueError("Argument `alg` got unsupported value " + ag::repr(alg) +
                   ". Supported values are RNG_ALG_PHILOX for the Philox algorithm, RNG_ALG_THREEFRY for the ThreeFry "
                   "algorithm, and RNG_ALG_AUTO_SELECT for auto-selection.");
}

/// _make_1d_state(3, seed): an int cut into 64-bit words (low first, Python's
/// infinite two's complement for negatives); a list of ints truncated to 3
/// or padded with zeros on the left.
Tensor state_from_seed(const Value& seed) {
  Tensor t(DType::Int64, Shape{3});
  int64_t* s = t.data<int64_t>();
  if (seed.is_int() || seed.is_bool()) {
    int64_t v = seed.as_int();
    s[0] = v;
    s[1] = s[2] = v < 0 ? -1 : 0;
    return t;
  }
  TensorHandle h = seed.is_tensor() ? seed.as_tensor() : to_tensor(seed, DType::Int64);
  if (h.symbolic()) throw NotImplementedError("a Generator's seed must be known when it is made");
  Tensor v = h.value();
  if (v.rank() != 1) {
    throw ValueError("Argument `seed` must be 1-D, got " + std::to_string(v.rank()) + "-D");
  }
  std::vector<int64_t> words;
  for (int64_t i = 0; i < v.num_elements() && i < 3; ++i) {
    words.push_back(v.dtype() == DType::Int32 ? v.data<int32_t>()[i] : v.data<int64_t>()[i]);
  }
  size_t pad = 3 - words.size();
  for (size_t i = 0; i < 3; ++i) s[i] = i < pad ? 0 : words[i - pad];
  return t;
}

Value make_generator(const Tensor& state, int64_t alg) {
  auto g = std::make_shared<GeneratorState>();
  g->state = variable_value::create(Value(state), DType::Int64, Value(kStateVarName), Value(), /*trainable=*/false);
  g->alg = alg;
  return native_object(api::random_Generator(), g);
}

TensorHandle generator_shape_arg(const Value& shape) { return shape.is_tensor() ? shape.as_tensor() : to_tensor(shape, DType::Int32); }

DType generator_dtype_or(const Value& v, DType d) { return v.is_none() ? d : require_dtype(v); }

/// One Stateful* op on g's state.
Value generator_draw(const Value& self, OpType op, const Value& shape, DType dtype, const char* hint,
           std::vector<TensorHandle> extra = {}) {
  GeneratorState& g = generator_of(self);
  std::vector<TensorHandle> in{TensorHandle(Tensor::scalar<int64_t>(g.alg)), generator_shape_arg(shape)};
  for (TensorHandle& h : extra) in.push_back(std::move(h));
  Attrs attrs{{"var", g.state.as_variable()->id()}};
  if (extra.empty()) attrs.set("dtype", dtype);
  return Value(apply_op1(op, in, attrs, hint));
}

Value generator_full_int(const Value& self, const Value& shape, DType dtype) {
  if (dtype != DType::Int32 && dtype != DType::Int64) {
    throw UnimplementedError("Generator.uniform_full_int supports int32 and int64 here, not " + dtype_repr(dtype));
  }
  return generator_draw(self, op::StatefulUniformFullInt, shape, dtype, "StatefulUniformFullInt");
}

/// count int64 keys, as TF's _make_int64_keys.
Value int64_keys(const Value& self, const Value& count) {
  return generator_full_int(self, Value::list({count}), DType::Int64);
}

std::mutex g_global_mu;
Value& global_generator() {
  static Value* g = new Value();
  return *g;
}

Value non_deterministic_generator(int64_t alg) {
  std::random_device rd;
  Tensor t(DType::Int64, Shape{3});
  for (int i = 0; i < 3; ++i) t.data<int64_t>()[i] = static_cast<int64_t>((uint64_t{rd()} << 32) | rd());
  return make_generator(t, alg);
}

}  // namespace

const Value& api::random_Generator() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    Param shape{"shape", std::nullopt};
    Param name{"name", Value()};
    attrs.push_back(native_method("Generator.__init__", "__init__",
                                  {self, {"copy_from", Value()}, {"state", Value()}, {"alg", Value()}},
                                  [](const std::vector<Value>& a) {
                                    auto g = std::make_shared<GeneratorState>();
                                    if (!a[1].is_none()) {
                                      GeneratorState& from = generator_of(a[1]);
                                      g->state = variable_value::create(Value(variable_value::read(from.state)),
                                                                        DType::Int64, Value(kStateVarName), Value(), false);
                                      g->alg = from.alg;
                                    } else {
                                      if (a[2].is_none()) {
                                        throw ValueError("Must provide either `copy_from` or `state`");
                                      }
                                      g->alg = generator_algorithm(a[3]);
                                      ag::Tensor st = state_from_seed(a[2]);
                                      g->state = variable_value::create(Value(st), DType::Int64, Value(kStateVarName), Value(), false);
                                    }
                                    a[0].as_object().native = std::move(g);
                                    return Value();
                                  }));
    attrs.push_back(native_method("Generator.from_seed", "from_seed", {{"seed", std::nullopt}, {"alg", Value()}},
                                  [](const std::vector<Value>& a) {
                                    int64_t alg = generator_algorithm(a[1]);
                                    return make_generator(state_from_seed(a[0]), alg);
                                  }));
    attrs.push_back(native_method("Generator.from_state", "from_state", {{"state", std::nullopt}, {"alg", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    int64_t alg = generator_algorithm(a[1]);
                                    return make_generator(state_from_seed(a[0]), alg);
                                  }));
    attrs.push_back(native_method("Generator.from_non_deterministic_state", "from_non_deterministic_state",
                                  {{"alg", Value()}},
                                  [](const std::vector<Value>& a) { return non_deterministic_generator(generator_algorithm(a[0])); }));
    attrs.push_back({"state", make_property(Value::callable("Generator.state", [](std::vector<Value> a, Kwargs) {
                       return generator_of(a.at(0)).state;
                     }))});
    attrs.push_back({"algorithm", make_property(Value::callable("Generator.algorithm", [](std::vector<Value> a, Kwargs) {
                       return Value(generator_of(a.at(0)).alg);
                     }))});
    attrs.push_back(native_method(
        "Generator.normal", "normal",
        {self, shape, {"mean", Value(0.0)}, {"stddev", Value(1.0)}, {"dtype", Value()}, name},
        [](const std::vector<Value>& a) {
          DType t = generator_dtype_or(a[4], DType::Float32);
          Value rnd = generator_draw(a[0], op::StatefulStandardNormalV2, a[1], t, "StatefulStandardNormalV2");
          return tf::add(tf::multiply(rnd, Value(to_tensor(a[3], t))), Value(to_tensor(a[2], t)));
        }));
    attrs.push_back(native_method(
        "Generator.truncated_normal", "truncated_normal",
        {self, shape, {"mean", Value(0.0)}, {"stddev", Value(1.0)}, {"dtype", Value()}, name},
        [](const std::vector<Value>& a) {
          DType t = generator_dtype_or(a[4], DType::Float32);
          Value rnd = generator_draw(a[0], op::StatefulTruncatedNormal, a[1], t, "StatefulTruncatedNormal");
          return tf::add(tf::multiply(rnd, Value(to_tensor(a[3], t))), Value(to_tensor(a[2], t)));
        }));
    attrs.push_back(native_method(
        "Generator.uniform", "uniform",
        {self, shape, {"minval", Value(0)}, {"maxval", Value()}, {"dtype", Value()}, name},
        [](const std::vector<Value>& a) {
          DType t = generator_dtype_or(a[4], DType::Float32);
          Value minval = a[2], maxval = a[3];
          if (is_integer(t)) {
            if (minval.is_none() != maxval.is_none()) {
              throw ValueError("For integer dtype <dtype: '" + dtype_repr(t) +
                               "'>, minval and maxval must be both `None` or both non-`None`; got minval=" +
                               ag::str(minval) + " and maxval=" + ag::str(maxval));
            }
            if (minval.is_none()) return generator_full_int(a[0], a[1], t);
          } else if (maxval.is_none()) {
            maxval = Value(1);
          }
          TensorHandle lo = to_tensor(minval, t), hi = to_tensor(maxval, t);
          if (is_integer(t)) {
            return generator_draw(a[0], op::StatefulUniformInt, a[1], t, "StatefulUniformInt", {lo, hi});
          }
          if (!is_floating(t)) throw TypeError("Invalid dtype " + dtype_repr(t) + " for Generator.uniform");
          Value rnd = generator_draw(a[0], op::StatefulUniform, a[1], t, "StatefulUniform");
          return tf::add(tf::multiply(rnd, tf::subtract(Value(hi), Value(lo))), Value(lo));
        }));
    attrs.push_back(native_method("Generator.reset_from_seed", "reset_from_seed", {self, {"seed", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    variable_value::assign(generator_of(a[0]).state, Value(state_from_seed(a[1])),
                                                           variable_value::AssignOp::Assign);
                                    return Value();
                                  }));
    attrs.push_back(native_method("Generator.reset", "reset", {self, {"state", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    variable_value::assign(generator_of(a[0]).state, Value(to_tensor(a[1], DType::Int64)),
                                                           variable_value::AssignOp::Assign);
                                    return Value();
                                  }));
    attrs.push_back(native_method("Generator.uniform_full_int", "uniform_full_int", {self, shape, {"dtype", Value()}, name},
                                  [](const std::vector<Value>& a) {
                                    return generator_full_int(a[0], a[1], generator_dtype_or(a[2], DType::Int64));
                                  }));
    attrs.push_back(native_method("Generator.make_seeds", "make_seeds", {self, {"count", Value(1)}},
                                  [](const std::vector<Value>& a) {
                                    Value keys = int64_keys(a[0], a[1]);
                                    return tf::stack(Value::list({keys, tf::zeros_like(keys)}));
                                  }));
    attrs.push_back(native_method("Generator.split", "split", {self, {"count", Value(1)}},
                                  [](const std::vector<Value>& a) {
                                    GeneratorState& g = generator_of(a[0]);
                                    Value keys = int64_keys(a[0], a[1]);
                                    TensorHandle k = keys.as_tensor();
                                    if (k.symbolic()) {
                                      throw NotImplementedError("Generator.split inside tf.function is not supported by agc");
                                    }
                                    std::vector<Value> out;
                                    for (int64_t i = 0; i < k.value().num_elements(); ++i) {
                                      ag::Tensor st(DType::Int64, Shape{3});
                                      st.data<int64_t>()[0] = 0;
                                      st.data<int64_t>()[1] = 0;
                                      st.data<int64_t>()[2] = k.value().data<int64_t>()[i];
                                      out.push_back(make_generator(st, g.alg));
                                    }
                                    return Value::list(std::move(out));
                                  }));
    return make_class("Generator", {}, std::move(attrs));
  }();
  return cls;
}

namespace impl {

Value generator_from_seed(const TfCall& c) {
  int64_t alg = generator_algorithm(c["alg"]);
  return make_generator(state_from_seed(c["seed"]), alg);
}

Value generator_from_state(const TfCall& c) {
  int64_t alg = generator_algorithm(c["alg"]);
  return make_generator(state_from_seed(c["state"]), alg);
}

Value generator_from_non_deterministic_state(const TfCall& c) {
  return non_deterministic_generator(generator_algorithm(c["alg"]));
}

Value get_global_generator(const TfCall&) {
  std::lock_guard<std::mutex> lock(g_global_mu);
  Value& g = global_generator();
  if (g.is_none()) g = non_deterministic_generator(kPhilox);
  return g;
}

Value set_global_generator(const TfCall& c) {
  generator_of(c["generator"]);
  std::lock_guard<std::mutex> lock(g_global_mu);
  global_generator() = c["generator"];
  return Value();
}

}  // namespace impl
}  // namespace ag::tf

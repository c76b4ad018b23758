// Dicts and hashing: insertion-ordered entries with a hash index; keys are
// compared as Python does, so 1, 1.0 and True are one key.
#include <algorithm>
#include <cmath>
#include <functional>

#include "runtime/graph/graph.h"
#include "runtime/value/exception_value.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/set_value.h"
#include "runtime/value/value.h"

namespace ag {
namespace {

size_t mix(size_t h, size_t x) { return h ^ (x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

size_t int_hash(int64_t i) { return std::hash<int64_t>{}(i); }

}  // namespace

size_t hash(const Value& v) {
  switch (v.kind()) {
    case Kind::None: return 0x5bd1e995;
    case Kind::Bool:
    case Kind::Int: return int_hash(v.as_int());
    case Kind::Float: {
      double d = v.as_float();
      if (std::isfinite(d) && d == std::floor(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
        return int_hash(static_cast<int64_t>(d));  // hash(2.0) == hash(2)
      }
      if (std::isnan(d)) return 0x7ff8;
      return std::hash<double>{}(d);
    }
    case Kind::Str: return std::hash<std::string>{}(v.as_str());
    case Kind::Tuple: {
      size_t h = 0x345678;
      for (const Value& x : v.items()) h = mix(h, hash(x));
      return h;
    }
    case Kind::Tensor: {
      // A TF1 graph's tensors hash by identity (TF's legacy graph mode:
      // feed_dict keys); eager and tf.function tensors do not hash.
      const TensorHandle& t = v.as_tensor();
      if (t.symbolic() && t.output().node->graph->v1()) {
        return mix(std::hash<const void*>{}(t.output().node), static_cast<size_t>(t.output().index));
      }
      throw TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.");
    }
    case Kind::Callable: return std::hash<const void*>{}(&v.as_callable());
    case Kind::Object: return std::hash<const void*>{}(&v.as_object());
    case Kind::TensorArray: return std::hash<const void*>{}(&v.as_tensor_array());
    case Kind::Variable: return std::hash<const void*>{}(v.as_variable().get());
    case Kind::NDArray: return ndarray::hash(v);
    case Kind::Set: return static_cast<size_t>(set_value::py_hash(v));  // TypeError for a set
    default: break;
  }
  throw TypeError("unhashable type: '" + v.type_name() + "'");
}

int64_t DictObj::find(const Value& key) const {
  auto [lo, hi] = index_.equal_range(hash(key));
  for (auto it = lo; it != hi; ++it) {
    const Value& k = entries[it->second].first;
    if (k.is(key) || py_equal(k, key)) return static_cast<int64_t>(it->second);
  }
  return -1;
}

const Value& DictObj::at(const Value& key) const {
  int64_t i = find(key);
  if (i < 0) raise_key_error(key);
  return entries[static_cast<size_t>(i)].second;
}

Value DictObj::subscript(const Value& key) {
  int64_t i = find(key);
  if (i >= 0) return entries[static_cast<size_t>(i)].second;
  if (flavor == Flavor::Counter) return Value(0);
  if (flavor == Flavor::DefaultDict && !default_factory.is_none()) {
    Value v = default_factory({}, {});
    set(key, v);
    return v;
  }
  raise_key_error(key);
}

std::vector<std::pair<Value, Value>> counter_most_common(const Value& counter) {
  std::vector<std::pair<Value, Value>> out = counter.as_dict().entries;
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return truthy(b.second < a.second); });
  return out;
}

void DictObj::set(const Value& key, Value v) {
  int64_t i = find(key);
  if (i >= 0) {
    entries[static_cast<size_t>(i)].second = std::move(v);  // the first key object stays, as in Python
    return;
  }
  index_.emplace(hash(key), entries.size());
  entries.emplace_back(key, std::move(v));
}

void DictObj::erase(const Value& key) {
  int64_t i = find(key);
  if (i < 0) raise_key_error(key);
  entries.erase(entries.begin() + i);
  reindex();
}

void DictObj::reindex() {
  index_.clear();
  for (size_t i = 0; i < entries.size(); ++i) index_.emplace(hash(entries[i].first), i);
}

}  // namespace ag

// TFRecord files and tf.train.Example records from Python:
// tf.data.TFRecordDataset, tf.io.TFRecordWriter, tf.io.FixedLenFeature and
// VarLenFeature,
// tf.io.parse_single_example / parse_example (the ParseSingleExample and
// ParseExampleV2 ops, so they trace into map functions), and the
// tf.train.Example builders (Example, Features, Feature, BytesList,
// FloatList, Int64List) whose SerializeToString() gives a record as bytes.
#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "runtime/api/binding.h"
#include "runtime/api/data_dataset.h"
#include "runtime/api/python_api.h"
#include "runtime/api/sparse_tensor.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/proto/example.pb.h"
#include "runtime/core/tfrecord.h"
#include "runtime/data/datasets.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/bytes_value.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"

namespace ag {
namespace {

// ---- tf.io.TFRecordWriter

struct WriterState : NativeState {
  std::unique_ptr<TFRecordWriter> writer;
};

TFRecordWriter& writer_of(const Value& self) {
  auto* s = native_state<WriterState>(self);
  if (!s || !s->writer) throw TypeError("TFRecordWriter method called on an object that is not a TFRecordWriter");
  return *s->writer;
}

/// The bytes of a record or of a BytesList item: bytes, or a string scalar
/// tensor's value. nullopt for anything else.
std::optional<std::string> bytes_of(const Value& v) {
  if (bytes_value::is_bytes(v)) return bytes_value::data(v);
  if (v.is_tensor() && !v.as_tensor().symbolic() && v.as_tensor().dtype() == DType::String &&
      v.as_tensor().value().num_elements() == 1) {
    return v.as_tensor().value().data<std::string>()[0];
  }
  return std::nullopt;
}

/// TFRecordWriter.write's record: bytes, or a str (pybind11 takes its UTF-8).
std::string record_bytes(const Value& v) {
  if (v.is_str()) return v.as_str();
  if (std::optional<std::string> b = bytes_of(v)) return *b;
  throw TypeError("write(): incompatible function arguments. The following argument types are supported:\n"
                  "    1. (self: tensorflow.python.lib.io._pywrap_record_io.RecordWriter, record: str) -> None\n\n"
                  "Invoked with: " + repr(v));
}

// ---- tf.train.Example and its parts: one protobuf message each

struct MessageState : NativeState {
  std::unique_ptr<google::protobuf::Message> message;
};

template <class M>
M& message_of(const Value& v, const char* what) {
  auto* s = native_state<MessageState>(v);
  M* m = s ? dynamic_cast<M*>(s->message.get()) : nullptr;
  if (!m) throw TypeError(std::string("Parameter to MergeFrom() must be instance of same class: expected ") + what +
                          " got " + v.type_name() + ".");
  return *m;
}

const Value& message_class(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, Value> classes;
  std::lock_guard<std::mutex> lock(mu);
  auto it = classes.find(name);
  if (it != classes.end()) return it->second;
  std::vector<std::pair<std::string, Value>> attrs;
  Param self{"self", std::nullopt};
  attrs.push_back(native_method(name + ".SerializeToString", "SerializeToString", {self},
                                [](const std::vector<Value>& a) {
                                  std::string out;
                                  native_state<MessageState>(a[0])->message->SerializeToString(&out);
                                  return bytes_value::make(std::move(out));
                                }));
  auto text = [](const std::vector<Value>& a) { return Value(native_state<MessageState>(a[0])->message->DebugString()); };
  attrs.push_back(native_method(name + ".__str__", "__str__", {self}, text));
  attrs.push_back(native_method(name + ".__repr__", "__repr__", {self}, text));
  return classes.emplace(name, make_class(name, {}, std::move(attrs))).first->second;
}

template <class M>
Value message_value(std::unique_ptr<M> m) {
  const std::string name = M::descriptor()->name();
  auto s = std::make_shared<MessageState>();
  s->message = std::move(m);
  return native_object(message_class(name), std::move(s));
}

/// The values of a *List(value=...): a list, tuple or tensor (None: empty).
std::vector<Value> list_values(const Value& v) {
  if (v.is_none()) return {};
  if (v.is_tensor()) {
    std::vector<Value> out;
    const TensorHandle& h = v.as_tensor();
    if (h.symbolic()) throw TypeError("a tf.train list cannot hold a symbolic tensor");
    if (h.shape().rank() == 0) return {v};
    for (int64_t i = 0; i < h.shape().dim(0); ++i) out.push_back(getitem(v, Value(i)));
    return out;
  }
  return iterate(v);
}

// ---- parsing

/// A FixedLenFeature, or a VarLenFeature (var_len: parsed into a SparseTensor).
struct FeatureState : NativeState {
  Shape shape;
  DType dtype = DType::Float32;
  Value default_value;
  bool var_len = false;
};

const Value& var_len_feature_class() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    attrs.push_back(native_method("VarLenFeature.__repr__", "__repr__", {{"self", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    return Value("VarLenFeature(dtype=tf." +
                                                 std::string(dtype_name(native_state<FeatureState>(a[0])->dtype)) + ")");
                                  }));
    return make_class("VarLenFeature", {}, std::move(attrs));
  }();
  return cls;
}

const Value& fixed_len_feature_class() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    attrs.push_back(native_method("FixedLenFeature.__repr__", "__repr__", {self}, [](const std::vector<Value>& a) {
      return Value("FixedLenFeature(shape=" + repr(a[0].getattr("shape")) + ", dtype=tf." +
                   dtype_name(native_state<FeatureState>(a[0])->dtype) + ", default_value=" +
                   repr(a[0].getattr("default_value")) + ")");
    }));
    return make_class("FixedLenFeature", {}, std::move(attrs));
  }();
  return cls;
}

/// parse_single_example / parse_example: the op over `serialized` for the
/// FixedLenFeatures and VarLenFeatures of `features`, the result a dict by
/// sorted key (TF's order), a VarLenFeature's value a SparseTensor.
Value parse(const Value& serialized, const Value& features, bool batched) {
  if (!features.is_dict()) throw TypeError("features must be a dict, got " + features.type_name());
  std::vector<std::pair<std::string, const FeatureState*>> specs, sparse;
  for (const auto& [k, v] : features.as_dict().entries) {
    auto* f = native_state<FeatureState>(v);
    if (!f) {
      throw ValueError("Unsupported feature " + repr(v) + " for key " + repr(k) +
                       ": agc parses tf.io.FixedLenFeature and tf.io.VarLenFeature");
    }
    (f->var_len ? sparse : specs).emplace_back(ag::api::str_arg(k, "features key"), f);
  }
  auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
  std::sort(specs.begin(), specs.end(), by_key);
  std::sort(sparse.begin(), sparse.end(), by_key);
  std::vector<std::string> keys, sparse_keys;
  std::vector<int64_t> types, dims, sparse_types;
  for (const auto& [key, f] : sparse) {
    sparse_keys.push_back(key);
    sparse_types.push_back(static_cast<int64_t>(f->dtype));
  }
  std::vector<TensorHandle> inputs{to_tensor(serialized, DType::String)};
  for (const auto& [key, f] : specs) {
    keys.push_back(key);
    types.push_back(static_cast<int64_t>(f->dtype));
    dims.push_back(f->shape.rank());
    for (int64_t d : f->shape.dims()) dims.push_back(d);
    if (f->default_value.is_none()) {
      inputs.emplace_back(Tensor(f->dtype, Shape{0}));
    } else {
      TensorHandle d = to_tensor(f->default_value, f->dtype);
      const int64_t n = d.shape().rank_known() && d.shape().fully_defined() ? d.shape().num_elements() : -1;
      if (n != 1 && n != f->shape.num_elements()) {
        throw ValueError("Cannot reshape a tensor with " + std::to_string(n) + " elements to shape " +
                         f->shape.debug_string() + " for the default value of feature '" + key + "'");
      }
      inputs.push_back(d);
    }
  }
  Attrs attrs{{"dense_keys", keys},   {"Tdense", types},           {"dense_shape_dims", dims},
              {"sparse_keys", sparse_keys}, {"sparse_types", sparse_types}};
  std::vector<TensorHandle> out = apply_op(batched ? op::ParseExampleV2 : op::ParseSingleExample, inputs, attrs,
                                           batched ? "ParseExampleV2" : "ParseSingleExample");
  std::vector<std::pair<std::string, Value>> entries;
  const size_t s = sparse_keys.size();
  for (size_t i = 0; i < s; ++i) {
    entries.emplace_back(sparse_keys[i], make_sparse_tensor(out[i], out[s + i], out[2 * s + i]));
  }
  for (size_t i = 0; i < keys.size(); ++i) entries.emplace_back(keys[i], Value(out[3 * s + i]));
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<Value, Value>> dict;
  for (auto& [k, v] : entries) dict.emplace_back(Value(k), std::move(v));
  return Value::dict(std::move(dict));
}

}  // namespace

namespace tf {

const Value& api::io_TFRecordWriter() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    attrs.push_back(native_method("TFRecordWriter.__init__", "__init__", {self, {"path", std::nullopt}, {"options", Value()}},
                                  [](const std::vector<Value>& a) {
                                    if (!a[2].is_none() && !(a[2].is_str() && a[2].as_str().empty())) {
                                      throw UnimplementedError("TFRecordWriter options (compression) are not "
                                                               "supported: agc writes uncompressed TFRecord files");
                                    }
                                    auto s = std::make_shared<WriterState>();
                                    s->writer = std::make_unique<TFRecordWriter>(ag::api::str_arg(a[1], "path"));
                                    a[0].as_object().native = std::move(s);
                                    return Value();
                                  }));
    attrs.push_back(native_method("TFRecordWriter.write", "write", {self, {"record", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    writer_of(a[0]).write(record_bytes(a[1]));
                                    return Value();
                                  }));
    attrs.push_back(native_method("TFRecordWriter.flush", "flush", {self}, [](const std::vector<Value>& a) {
      writer_of(a[0]).flush();
      return Value();
    }));
    attrs.push_back(native_method("TFRecordWriter.close", "close", {self}, [](const std::vector<Value>& a) {
      writer_of(a[0]).close();
      return Value();
    }));
    attrs.push_back(native_method("TFRecordWriter.__enter__", "__enter__", {self},
                                  [](const std::vector<Value>& a) { return a[0]; }));
    attrs.push_back(native_method("TFRecordWriter.__exit__", "__exit__",
                                  {self, {"exc_type", Value()}, {"exc_value", Value()}, {"traceback", Value()}},
                                  [](const std::vector<Value>& a) {
                                    writer_of(a[0]).close();
                                    return Value(false);
                                  }));
    return make_class("TFRecordWriter", {}, std::move(attrs));
  }();
  return cls;
}

namespace impl {

Value tfrecord_dataset(const TfCall& c) {
  std::vector<std::string> files;
  const Value& names = c["filenames"];
  if (ag::api::dataset_of(names)) {
    throw UnimplementedError("TFRecordDataset over a dataset of filenames is not supported: pass the file names");
  }
  if (names.is_str()) {
    files.push_back(names.as_str());
  } else {
    TensorHandle t = to_tensor(names, DType::String);
    if (t.symbolic()) throw NotImplementedError("TFRecordDataset's filenames must be known when it is made");
    const Tensor& v = t.value();
    if (v.shape().rank() > 1) {
      throw InvalidArgumentError("`filenames` must be a scalar or a vector, but got shape " + v.shape().str());
    }
    for (int64_t i = 0; i < v.num_elements(); ++i) files.push_back(v.data<std::string>()[i]);
  }
  std::string compression = c["compression_type"].is_none() ? "" : ag::api::str_arg(c["compression_type"], "compression_type");
  return ag::api::dataset_value(data::tfrecord_dataset(std::move(files), std::move(compression)));
}

Value fixed_len_feature(const TfCall& c) {
  auto s = std::make_shared<FeatureState>();
  s->shape = shape_from_value(c["shape"]);
  if (!s->shape.fully_defined()) {
    throw ValueError("FixedLenFeature shape must be fully defined, got " + s->shape.str());
  }
  s->dtype = require_dtype(c["dtype"]);
  if (s->dtype != DType::Float32 && s->dtype != DType::Int64 && s->dtype != DType::String) {
    throw ValueError("Unsupported dtype " + dtype_repr(s->dtype) + " for FixedLenFeature: tf.train.Example holds "
                     "float32, int64 and string values");
  }
  s->default_value = c["default_value"];
  Value v = native_object(fixed_len_feature_class(), s);
  std::vector<Value> dims;
  for (int64_t d : s->shape.dims()) dims.emplace_back(d);
  v.setattr("shape", Value::list(std::move(dims)));
  v.setattr("dtype", c["dtype"]);
  v.setattr("default_value", c["default_value"]);
  return v;
}

Value var_len_feature(const TfCall& c) {
  auto s = std::make_shared<FeatureState>();
  s->dtype = require_dtype(c["dtype"]);
  s->var_len = true;
  if (s->dtype != DType::Float32 && s->dtype != DType::Int64 && s->dtype != DType::String) {
    throw ValueError("Unsupported dtype " + dtype_repr(s->dtype) + " for VarLenFeature: tf.train.Example holds "
                     "float32, int64 and string values");
  }
  Value v = native_object(var_len_feature_class(), s);
  v.setattr("dtype", c["dtype"]);
  return v;
}

Value parse_single_example(const TfCall& c) { return parse(c["serialized"], c["features"], false); }
Value parse_example(const TfCall& c) { return parse(c["serialized"], c["features"], true); }

Value train_bytes_list(const TfCall& c) {
  auto m = std::make_unique<tensorflow::BytesList>();
  for (const Value& v : list_values(c["value"])) {
    std::optional<std::string> b = bytes_of(v);
    // protobuf's own check: a bytes field takes no str.
    if (!b) throw TypeError(repr(v) + " has type " + v.type_name() + ", but expected one of: bytes");
    m->add_value(*b);
  }
  return message_value(std::move(m));
}

Value train_float_list(const TfCall& c) {
  auto m = std::make_unique<tensorflow::FloatList>();
  for (const Value& v : list_values(c["value"])) {
    m->add_value(v.is_tensor() ? ag::api::tensor_scalar(v, "float").as_float() : v.as_float());
  }
  return message_value(std::move(m));
}

Value train_int64_list(const TfCall& c) {
  auto m = std::make_unique<tensorflow::Int64List>();
  for (const Value& v : list_values(c["value"])) m->add_value(ag::api::int_arg(v, "value"));
  return message_value(std::move(m));
}

Value train_feature(const TfCall& c) {
  auto m = std::make_unique<tensorflow::Feature>();
  if (!c["bytes_list"].is_none()) *m->mutable_bytes_list() = message_of<tensorflow::BytesList>(c["bytes_list"], "BytesList");
  if (!c["float_list"].is_none()) *m->mutable_float_list() = message_of<tensorflow::FloatList>(c["float_list"], "FloatList");
  if (!c["int64_list"].is_none()) *m->mutable_int64_list() = message_of<tensorflow::Int64List>(c["int64_list"], "Int64List");
  return message_value(std::move(m));
}

Value train_features(const TfCall& c) {
  auto m = std::make_unique<tensorflow::Features>();
  if (!c["feature"].is_none()) {
    if (!c["feature"].is_dict()) throw TypeError("feature must be a dict of tf.train.Feature");
    for (const auto& [k, v] : c["feature"].as_dict().entries) {
      (*m->mutable_feature())[ag::api::str_arg(k, "feature key")] = message_of<tensorflow::Feature>(v, "Feature");
    }
  }
  return message_value(std::move(m));
}

Value train_example(const TfCall& c) {
  auto m = std::make_unique<tensorflow::Example>();
  if (!c["features"].is_none()) *m->mutable_features() = message_of<tensorflow::Features>(c["features"], "Features");
  return message_value(std::move(m));
}

}  // namespace impl
}  // namespace tf
}  // namespace ag

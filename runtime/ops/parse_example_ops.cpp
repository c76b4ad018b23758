// Parsing tf.train.Example records (tf.io.parse_single_example / parse_example
// with FixedLenFeature and VarLenFeature): ParseSingleExample takes one
// serialized record (a string scalar), ParseExampleV2 a vector of them (a
// batch dimension first). Attributes: dense_keys (the fixed-length
// features, sorted as TF sorts them), Tdense (their dtypes), dense_shapes
// (each shape as its rank then its dims, in dense_shape_dims), sparse_keys
// and sparse_types (the variable-length ones). Inputs: the records, then one
// default per dense key (an empty tensor: the feature is required). Outputs
// in TF's order: per sparse key its indices, then their values, then their
// dense shapes (a SparseTensor each: [n, 1] indices and shape [n] for one
// record; [total, 2] (record, position) and [batch, longest] for a batch),
// then the dense values. The messages are libprotobuf's, compiled from
// core/proto/example.proto.
#include <algorithm>
#include <span>
#include <string>

#include "runtime/core/proto/example.pb.h"
#include "runtime/ops/families.h"
#include "runtime/ops/kernels/op_types.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

struct DenseFeature {
  std::string key;
  DType dtype;
  Shape shape;
};

struct SparseFeature {
  std::string key;
  DType dtype;
};

/// A feature's dtype attr: float32, int64 or string (what tf.train.Example
/// holds); a graph from a file may give any number.
DType feature_dtype(int64_t t, const char* attr, size_t i) {
  const auto d = static_cast<DType>(t);
  if (t != static_cast<int64_t>(DType::Float32) && t != static_cast<int64_t>(DType::Int64) &&
      t != static_cast<int64_t>(DType::String)) {
    throw InvalidArgumentError(std::string(attr) + "[" + std::to_string(i) + "] must be float32, int64 or string, not " +
                               (t >= 0 && t < kNumDTypes ? std::string(dtype_name(d)) : "dtype " + std::to_string(t)));
  }
  return d;
}

/// Throws unless the list attrs `keys` and `types` have one entry per key.
void check_lengths(const char* keys, size_t n_keys, const char* types, size_t n_types) {
  if (n_keys != n_types) {
    throw InvalidArgumentError("len(" + std::string(keys) + ") != len(" + types + "): " + std::to_string(n_keys) +
                               " vs. " + std::to_string(n_types));
  }
}

std::vector<SparseFeature> sparse_features(const Attrs& a) {
  std::vector<SparseFeature> out;
  if (!a.has("sparse_keys")) return out;
  const auto& keys = a.get<std::vector<std::string>>("sparse_keys");
  const auto& types = a.get<std::vector<int64_t>>("sparse_types");
  check_lengths("sparse_keys", keys.size(), "sparse_types", types.size());
  for (size_t i = 0; i < keys.size(); ++i) out.push_back({keys[i], feature_dtype(types[i], "sparse_types", i)});
  return out;
}

std::vector<DenseFeature> dense_features(const Attrs& a) {
  const auto& keys = a.get<std::vector<std::string>>("dense_keys");
  const auto& types = a.get<std::vector<int64_t>>("Tdense");
  const auto& dims = a.get<std::vector<int64_t>>("dense_shape_dims");
  check_lengths("dense_keys", keys.size(), "Tdense", types.size());
  std::vector<DenseFeature> out;
  size_t at = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    // dense_shape_dims: each shape's rank, then its dims (all known).
    const int64_t rank = at < dims.size() ? dims[at++] : -1;
    if (rank < 0 || static_cast<uint64_t>(rank) > dims.size() - at) {
      throw InvalidArgumentError("dense_shape_dims does not hold a shape for dense key " + std::to_string(i) + " ('" +
                                 keys[i] + "')");
    }
    Shape shape(std::span<const int64_t>(dims.data() + at, static_cast<size_t>(rank)));
    at += static_cast<size_t>(rank);
    for (int64_t d : shape.dims()) {
      if (d < 0) throw InvalidArgumentError("dense_shapes[" + std::to_string(i) + "] must be fully defined, not " + shape.debug_string());
    }
    (void)shape.num_elements();  // InvalidArgumentError when the dims overflow
    out.push_back({keys[i], feature_dtype(types[i], "Tdense", i), shape});
  }
  return out;
}

/// The inputs after the records: one default per dense feature, of its dtype.
void check_defaults(const InferContext& c, const std::vector<DenseFeature>& features) {
  if (c.inputs.size() != 1 + features.size()) {
    throw InvalidArgumentError(std::string(c.op) + " takes the records and one default per dense key: " +
                               std::to_string(1 + features.size()) + " inputs, not " + std::to_string(c.inputs.size()));
  }
  for (size_t i = 0; i < features.size(); ++i) kernels::check_dtype(c, 1 + i, features[i].dtype);
}

const char* kind_name(tensorflow::Feature::KindCase k) {
  switch (k) {
    case tensorflow::Feature::kBytesList: return "string";
    case tensorflow::Feature::kFloatList: return "float";
    case tensorflow::Feature::kInt64List: return "int64";
    default: return "unknown";
  }
}

tensorflow::Feature::KindCase kind_of(DType t) {
  switch (t) {
    case DType::Float32: return tensorflow::Feature::kFloatList;
    case DType::Int64: return tensorflow::Feature::kInt64List;
    default: return tensorflow::Feature::kBytesList;
  }
}

/// Writes feature `f`'s values (count elements) into out at element `at`.
void copy_values(const tensorflow::Feature& f, Tensor& out, int64_t at, int64_t count) {
  switch (f.kind_case()) {
    case tensorflow::Feature::kFloatList:
      for (int64_t i = 0; i < count; ++i) out.data<float>()[at + i] = f.float_list().value(static_cast<int>(i));
      return;
    case tensorflow::Feature::kInt64List:
      for (int64_t i = 0; i < count; ++i) out.data<int64_t>()[at + i] = f.int64_list().value(static_cast<int>(i));
      return;
    default:
      for (int64_t i = 0; i < count; ++i) out.data<std::string>()[at + i] = f.bytes_list().value(static_cast<int>(i));
      return;
  }
}

int64_t value_count(const tensorflow::Feature& f) {
  switch (f.kind_case()) {
    case tensorflow::Feature::kFloatList: return f.float_list().value_size();
    case tensorflow::Feature::kInt64List: return f.int64_list().value_size();
    case tensorflow::Feature::kBytesList: return f.bytes_list().value_size();
    default: return 0;
  }
}

/// Parses `records` (each serialized) into one output per feature, row r of
/// each output from records[r].
void parse(const std::vector<DenseFeature>& features, const std::vector<SparseFeature>& sparse,
           const std::string* records, int64_t n, KernelContext& k, const Shape& batch) {
  std::vector<Tensor> outs;
  for (const DenseFeature& f : features) {
    Shape shape = batch;
    for (int64_t d : f.shape.dims()) shape.push_back(d);
    outs.emplace_back(f.dtype, shape);
  }
  tensorflow::Example example;
  // Per sparse feature, per record: its values' count (they are copied after).
  std::vector<std::vector<int64_t>> counts(sparse.size(), std::vector<int64_t>(static_cast<size_t>(n), 0));
  std::vector<tensorflow::Example> examples(sparse.empty() ? 0 : static_cast<size_t>(n));
  for (int64_t r = 0; r < n; ++r) {
    if (!example.ParseFromString(records[r])) {
      throw InvalidArgumentError("Could not parse example input, value: '" + records[r] + "'");
    }
    const auto& map = example.features().feature();
    for (size_t i = 0; i < sparse.size(); ++i) {
      auto it = map.find(sparse[i].key);
      if (it == map.end() || it->second.kind_case() == tensorflow::Feature::KIND_NOT_SET) continue;
      if (it->second.kind_case() != kind_of(sparse[i].dtype)) {
        throw InvalidArgumentError("Name: <unknown>, Key: " + sparse[i].key + ", Index: " + std::to_string(r) +
                                   ".  Data types don't match. Data type: " + kind_name(it->second.kind_case()) +
                                   " but expected type: " + dtype_tf_string(sparse[i].dtype));
      }
      counts[i][static_cast<size_t>(r)] = value_count(it->second);
    }
    if (!sparse.empty()) examples[static_cast<size_t>(r)] = example;
    for (size_t i = 0; i < features.size(); ++i) {
      const DenseFeature& f = features[i];
      const int64_t per = f.shape.num_elements();
      auto it = map.find(f.key);
      if (it == map.end() || it->second.kind_case() == tensorflow::Feature::KIND_NOT_SET) {
        const Tensor& def = k.input(1 + i);
        if (def.num_elements() != 0 && def.num_elements() != 1 && def.num_elements() != per) {
          throw InvalidArgumentError("The default value of feature " + f.key + " has " +
                                     std::to_string(def.num_elements()) + " elements, but its shape " +
                                     f.shape.debug_string() + " holds " + std::to_string(per));
        }
        if (def.num_elements() == 0 && per != 0) {
          throw InvalidArgumentError("Feature: " + f.key + " (data type: " + dtype_tf_string(f.dtype) +
                                     ") is required but could not be found.");
        }
        for (int64_t e = 0; e < per; ++e) {
          if (f.dtype == DType::String) {
            outs[i].data<std::string>()[r * per + e] = def.data<std::string>()[def.num_elements() == 1 ? 0 : e];
          } else if (f.dtype == DType::Float32) {
            outs[i].data<float>()[r * per + e] = def.data<float>()[def.num_elements() == 1 ? 0 : e];
          } else {
            outs[i].data<int64_t>()[r * per + e] = def.data<int64_t>()[def.num_elements() == 1 ? 0 : e];
          }
        }
        continue;
      }
      const tensorflow::Feature& feature = it->second;
      if (feature.kind_case() != kind_of(f.dtype)) {
        throw InvalidArgumentError("Name: <unknown>, Key: " + f.key + ", Index: " + std::to_string(r) +
                                   ".  Data types don't match. Data type: " + kind_name(feature.kind_case()) +
                                   " but expected type: " + dtype_tf_string(f.dtype));
      }
      if (value_count(feature) != per) {
        throw InvalidArgumentError("Name: <unknown>, Key: " + f.key + ", Index: " + std::to_string(r) +
                                   ".  Number of " + kind_name(feature.kind_case()) +
                                   " values != expected.  Values size: " + std::to_string(value_count(feature)) +
                                   " but output shape: " + f.shape.debug_string());
      }
      copy_values(feature, outs[i], r * per, per);
    }
  }
  const bool batched = batch.rank() == 1;
  const size_t s = sparse.size();
  for (size_t i = 0; i < s; ++i) {
    int64_t total = 0, longest = 0;
    for (int64_t c : counts[i]) {
      total += c;
      longest = std::max(longest, c);
    }
    Tensor indices(DType::Int64, Shape{total, batched ? 2 : 1});
    Tensor values(sparse[i].dtype, Shape{total});
    int64_t at = 0;
    for (int64_t r = 0; r < n; ++r) {
      const int64_t c = counts[i][static_cast<size_t>(r)];
      if (c == 0) continue;
      const tensorflow::Feature& f = examples[static_cast<size_t>(r)].features().feature().at(sparse[i].key);
      copy_values(f, values, at, c);
      for (int64_t j = 0; j < c; ++j) {
        int64_t* row = indices.data<int64_t>() + (at + j) * (batched ? 2 : 1);
        if (batched) {
          row[0] = r;
          row[1] = j;
        } else {
          row[0] = j;
        }
      }
      at += c;
    }
    k.set_output(i, std::move(indices));
    k.set_output(s + i, std::move(values));
    k.set_output(2 * s + i, batched ? Tensor::from_vector<int64_t>(Shape{2}, {n, longest})
                                    : Tensor::from_vector<int64_t>(Shape{1}, {total}));
  }
  for (size_t i = 0; i < outs.size(); ++i) k.set_output(3 * s + i, std::move(outs[i]));
}

std::vector<TensorSpec> infer(const InferContext& c, bool batched) {
  std::vector<DenseFeature> features = dense_features(c.attrs);
  std::vector<SparseFeature> sparse = sparse_features(c.attrs);
  check_defaults(c, features);
  const Shape& in = c.inputs[0].shape;
  if (c.inputs[0].dtype != DType::String) throw InvalidArgumentError("serialized must be a string tensor");
  if (in.rank_known() && in.rank() != (batched ? 1 : 0)) {
    throw InvalidArgumentError(std::string("Expected serialized to be a ") + (batched ? "vector" : "scalar") +
                               ", got shape: " + in.debug_string());
  }
  std::vector<TensorSpec> out;
  for (size_t i = 0; i < sparse.size(); ++i) out.push_back({DType::Int64, Shape{kUnknownDim, batched ? 2 : 1}});
  for (const SparseFeature& f : sparse) out.push_back({f.dtype, Shape{kUnknownDim}});
  for (size_t i = 0; i < sparse.size(); ++i) out.push_back({DType::Int64, Shape{batched ? 2 : 1}});
  for (const DenseFeature& f : features) {
    Shape shape = batched ? Shape{in.rank_known() ? in.dim(0) : kUnknownDim} : Shape{};
    for (int64_t d : f.shape.dims()) shape.push_back(d);
    out.push_back({f.dtype, shape});
  }
  return out;
}

}  // namespace

void register_parse_example_ops(OpRegistry& reg) {
  for (bool batched : {false, true}) {
    reg.op(batched ? "ParseExampleV2" : "ParseSingleExample")
        .inputs(1, 1 << 16)
        .outputs(-1)
        .infer([batched](const InferContext& c) { return infer(c, batched); })
        .cpu([batched](const KernelSpec& s) {
          std::vector<DenseFeature> features = dense_features(s.attrs);
          std::vector<SparseFeature> sparse = sparse_features(s.attrs);
          return Kernel([features, sparse, batched](KernelContext& k) {
            const Tensor& records = k.input(0);
            parse(features, sparse, records.data<std::string>(), records.num_elements(), k,
                  batched ? Shape{records.num_elements()} : Shape{});
          });
        })
        .cost(CostKind::Host)
        .tpu_unsupported("parsing records runs on the host")
        .not_differentiable();
  }
}

}  // namespace ag

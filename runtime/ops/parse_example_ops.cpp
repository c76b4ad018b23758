// Parsing tf.train.Example records (tf.io.parse_single_example / parse_example
// with FixedLenFeature): ParseSingleExample takes one serialized record (a
// string scalar), ParseExampleV2 a vector of them (a batch dimension first).
// Attributes: dense_keys (the features, sorted as TF sorts them), Tdense
// (their dtypes), dense_shapes (each shape as its rank then its dims, in
// dense_shape_dims). Inputs: the records, then one default per key (an
// empty tensor: the feature is required). The messages are libprotobuf's,
// compiled from core/proto/example.proto.
#include <string>

#include "runtime/core/proto/example.pb.h"
#include "runtime/ops/families.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

struct DenseFeature {
  std::string key;
  DType dtype;
  Shape shape;
};

std::vector<DenseFeature> dense_features(const Attrs& a) {
  const auto& keys = a.get<std::vector<std::string>>("dense_keys");
  const auto& types = a.get<std::vector<int64_t>>("Tdense");
  const auto& dims = a.get<std::vector<int64_t>>("dense_shape_dims");
  std::vector<DenseFeature> out;
  size_t at = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto rank = static_cast<size_t>(dims.at(at++));
    Shape shape(std::span<const int64_t>(dims.data() + at, rank));
    at += rank;
    out.push_back({keys[i], static_cast<DType>(types.at(i)), shape});
  }
  return out;
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
void parse(const std::vector<DenseFeature>& features, const std::string* records, int64_t n, KernelContext& k,
           const Shape& batch) {
  std::vector<Tensor> outs;
  for (const DenseFeature& f : features) {
    Shape shape = batch;
    for (int64_t d : f.shape.dims()) shape.push_back(d);
    outs.emplace_back(f.dtype, shape);
  }
  tensorflow::Example example;
  for (int64_t r = 0; r < n; ++r) {
    if (!example.ParseFromString(records[r])) {
      throw InvalidArgumentError("Could not parse example input, value: '" + records[r] + "'");
    }
    const auto& map = example.features().feature();
    for (size_t i = 0; i < features.size(); ++i) {
      const DenseFeature& f = features[i];
      const int64_t per = f.shape.num_elements();
      auto it = map.find(f.key);
      if (it == map.end() || it->second.kind_case() == tensorflow::Feature::KIND_NOT_SET) {
        const Tensor& def = k.input(1 + i);
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
  for (size_t i = 0; i < outs.size(); ++i) k.set_output(i, std::move(outs[i]));
}

std::vector<TensorSpec> infer(const InferContext& c, bool batched) {
  std::vector<DenseFeature> features = dense_features(c.attrs);
  const Shape& in = c.inputs[0].shape;
  if (c.inputs[0].dtype != DType::String) throw InvalidArgumentError("serialized must be a string tensor");
  if (in.rank_known() && in.rank() != (batched ? 1 : 0)) {
    throw InvalidArgumentError(std::string("Expected serialized to be a ") + (batched ? "vector" : "scalar") +
                               ", got shape: " + in.debug_string());
  }
  std::vector<TensorSpec> out;
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
          return Kernel([features, batched](KernelContext& k) {
            const Tensor& records = k.input(0);
            parse(features, records.data<std::string>(), records.num_elements(), k,
                  batched ? Shape{records.num_elements()} : Shape{});
          });
        })
        .cost(CostKind::Host)
        .tpu_unsupported("parsing records runs on the host")
        .not_differentiable();
  }
}

}  // namespace ag

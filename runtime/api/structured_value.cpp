#include "runtime/api/structured_value.h"

#include "runtime/core/error.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/tensor_spec_value.h"

namespace ag {
namespace {

DType read_dtype(int t) {
  std::optional<DType> d = proto::dtype_of(t);
  if (!d) throw UnimplementedError("agc has no dtype " + proto::data_type_name(t));
  return *d;
}

void encode_spec(const Shape& shape, DType dtype, const std::string& name, tensorflow::StructuredValue* out) {
  auto* spec = out->mutable_tensor_spec_value();
  spec->set_name(name);
  proto::write_shape(shape, spec->mutable_shape());
  spec->set_dtype(proto::tf_data_type(dtype));
}

}  // namespace

void encode_structure(const Value& v, tensorflow::StructuredValue* out) {
  if (std::optional<TensorSpec> s = tensor_spec_of(v)) return encode_spec(s->shape, s->dtype, tensor_spec_name(v), out);
  if (std::optional<Shape> s = tensor_shape_of(v)) return proto::write_shape(*s, out->mutable_tensor_shape_value());
  if (dtype_value_name(v) != nullptr) return out->set_tensor_dtype_value(proto::tf_data_type(require_dtype(v)));
  switch (v.kind()) {
    case Kind::None: out->mutable_none_value(); return;
    case Kind::Bool: out->set_bool_value(v.as_bool()); return;
    case Kind::Int: out->set_int64_value(v.as_int()); return;
    case Kind::Float: out->set_float64_value(v.as_float()); return;
    case Kind::Str: out->set_string_value(v.as_str()); return;
    case Kind::Tensor: return encode_spec(v.as_tensor().shape(), v.as_tensor().dtype(), "", out);
    case Kind::List:
      for (const Value& item : v.items()) encode_structure(item, out->mutable_list_value()->add_values());
      out->mutable_list_value();
      return;
    case Kind::Tuple:
      for (const Value& item : v.items()) encode_structure(item, out->mutable_tuple_value()->add_values());
      out->mutable_tuple_value();
      return;
    case Kind::Dict: {
      auto* fields = out->mutable_dict_value()->mutable_fields();
      for (const auto& [key, item] : v.as_dict().entries) {
        if (!key.is_str()) throw UnimplementedError("agc cannot save a dict with a " + key.type_name() + " key");
        encode_structure(item, &(*fields)[key.as_str()]);
      }
      return;
    }
    default: throw UnimplementedError("agc cannot save a " + v.type_name() + " in a function's signature");
  }
}

Value decode_structure(const tensorflow::StructuredValue& s) {
  using SV = tensorflow::StructuredValue;
  switch (s.kind_case()) {
    case SV::kNoneValue:
    case SV::KIND_NOT_SET: return Value();
    case SV::kBoolValue: return Value(s.bool_value());
    case SV::kInt64Value: return Value(static_cast<int64_t>(s.int64_value()));
    case SV::kFloat64Value: return Value(s.float64_value());
    case SV::kStringValue: return Value(s.string_value());
    case SV::kTensorShapeValue: return tensor_shape(proto::read_shape(s.tensor_shape_value()));
    case SV::kTensorDtypeValue: return dtype_value(read_dtype(s.tensor_dtype_value()));
    case SV::kTensorSpecValue: {
      const auto& spec = s.tensor_spec_value();
      return make_tensor_spec(proto::read_shape(spec.shape()), read_dtype(spec.dtype()), spec.name());
    }
    case SV::kListValue:
    case SV::kTupleValue: {
      const auto& values = s.kind_case() == SV::kListValue ? s.list_value().values() : s.tuple_value().values();
      std::vector<Value> items;
      for (const auto& item : values) items.push_back(decode_structure(item));
      return s.kind_case() == SV::kListValue ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    case SV::kDictValue: {
      // TF's dicts are keyed by str and flatten in sorted key order.
      std::map<std::string, const SV*> sorted;
      for (const auto& [key, item] : s.dict_value().fields()) sorted[key] = &item;
      std::vector<std::pair<Value, Value>> items;
      for (const auto& [key, item] : sorted) items.emplace_back(Value(key), decode_structure(*item));
      return Value::dict(std::move(items));
    }
    case SV::kNamedTupleValue: {
      std::vector<Value> items;
      for (const auto& pair : s.named_tuple_value().values()) items.push_back(decode_structure(pair.value()));
      return Value::tuple(std::move(items));
    }
    default:
      throw UnimplementedError("agc cannot read this part of a SavedModel's function signature (StructuredValue kind " +
                               std::to_string(static_cast<int>(s.kind_case())) + ": composite tensors and NumPy values)");
  }
}

}  // namespace ag

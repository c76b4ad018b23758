#include "runtime/core/proto_convert.h"

#include <cstring>

#include "runtime/core/error.h"
#include "runtime/core/proto/graph_def.pb.h"

namespace ag::proto {
namespace {

struct Entry {
  DType dtype;
  int number;
};
constexpr Entry kTypes[] = {
    {DType::Float32, tensorflow::DT_FLOAT}, {DType::Float64, tensorflow::DT_DOUBLE}, {DType::Int32, tensorflow::DT_INT32},
    {DType::Int64, tensorflow::DT_INT64},   {DType::Bool, tensorflow::DT_BOOL},      {DType::String, tensorflow::DT_STRING},
    {DType::BFloat16, tensorflow::DT_BFLOAT16}, {DType::Int8, tensorflow::DT_INT8}, {DType::UInt8, tensorflow::DT_UINT8},
    {DType::Variant, tensorflow::DT_VARIANT},
};

/// Copies `n` values of the typed field `vals` into `out`, the last one
/// repeating (TF's compressed TensorProto).
template <class T, class Field>
void fill_from(const Field& vals, T* out, int64_t n, const char* what) {
  if (vals.empty()) return;  // all zeros
  if (vals.size() > n) throw InvalidArgumentError(std::string("TensorProto has more ") + what + " values than its shape holds");
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(vals.Get(static_cast<int>(std::min<int64_t>(i, vals.size() - 1))));
}

}  // namespace

int data_type(DType t) {
  for (const Entry& e : kTypes) {
    if (e.dtype == t) return e.number;
  }
  throw InternalError("dtype without a DataType number");
}

std::optional<DType> dtype_of(int t) {
  for (const Entry& e : kTypes) {
    if (e.number == t) return e.dtype;
  }
  return std::nullopt;
}

std::string data_type_name(int t) {
  if (tensorflow::DataType_IsValid(t)) return tensorflow::DataType_Name(static_cast<tensorflow::DataType>(t));
  return "DataType " + std::to_string(t);
}

void write_shape(const Shape& s, tensorflow::TensorShapeProto* out) {
  out->Clear();
  if (!s.rank_known()) {
    out->set_unknown_rank(true);
    return;
  }
  for (int64_t d : s.dims()) out->add_dim()->set_size(d);
}

Shape read_shape(const tensorflow::TensorShapeProto& s) {
  if (s.unknown_rank()) return Shape::unknown_rank();
  Shape out;
  for (const auto& d : s.dim()) {
    if (d.size() < -1) throw InvalidArgumentError("Shape " + s.ShortDebugString() + " has a negative dimension");
    out.push_back(d.size());
  }
  return out;
}

void write_tensor(const Tensor& t, tensorflow::TensorProto* out) {
  out->Clear();
  out->set_dtype(static_cast<tensorflow::DataType>(data_type(t.dtype())));
  write_shape(t.shape(), out->mutable_tensor_shape());
  if (t.dtype() == DType::String) {
    for (int64_t i = 0; i < t.num_elements(); ++i) out->add_string_val(t.data<std::string>()[i]);
    return;
  }
  if (t.dtype() == DType::Variant) throw InvalidArgumentError("A variant tensor (a TensorList) has no TensorProto in agc");
  out->set_tensor_content(std::string(static_cast<const char*>(t.raw_data()), t.byte_size()));
}

Tensor read_tensor(const tensorflow::TensorProto& p) {
  std::optional<DType> dtype = dtype_of(p.dtype());
  if (!dtype || *dtype == DType::Variant) {
    throw UnimplementedError("agc cannot hold a tensor of " + data_type_name(p.dtype()));
  }
  Shape shape = read_shape(p.tensor_shape());
  if (!shape.fully_defined()) throw InvalidArgumentError("TensorProto shape " + shape.str() + " is not fully defined");
  Tensor t(*dtype, shape);
  const int64_t n = t.num_elements();
  if (*dtype == DType::String) {
    auto* out = t.data<std::string>();
    fill_from(p.string_val(), out, n, "string");
    return t;
  }
  if (!p.tensor_content().empty()) {
    if (p.tensor_content().size() != t.byte_size()) {
      throw InvalidArgumentError("TensorProto tensor_content holds " + std::to_string(p.tensor_content().size()) +
                                 " bytes; shape " + shape.str() + " of " + dtype_name(*dtype) + " needs " +
                                 std::to_string(t.byte_size()));
    }
    std::memcpy(t.raw_data(), p.tensor_content().data(), t.byte_size());
    return t;
  }
  std::memset(t.raw_data(), 0, t.byte_size());
  switch (*dtype) {
    case DType::Float32: fill_from(p.float_val(), t.data<float>(), n, "float"); break;
    case DType::Float64: fill_from(p.double_val(), t.data<double>(), n, "double"); break;
    case DType::Int32: fill_from(p.int_val(), t.data<int32_t>(), n, "int"); break;
    case DType::Int8: fill_from(p.int_val(), t.data<int8_t>(), n, "int"); break;
    case DType::UInt8: fill_from(p.int_val(), t.data<uint8_t>(), n, "int"); break;
    case DType::Int64: fill_from(p.int64_val(), t.data<int64_t>(), n, "int64"); break;
    case DType::Bool: fill_from(p.bool_val(), t.data<bool>(), n, "bool"); break;
    case DType::BFloat16: {
      // half_val holds each bfloat16's 16 bits.
      auto* out = static_cast<uint16_t*>(t.raw_data());
      fill_from(p.half_val(), out, n, "half");
      break;
    }
    default: throw UnimplementedError("agc cannot read a TensorProto of " + data_type_name(p.dtype()));
  }
  return t;
}

}  // namespace ag::proto

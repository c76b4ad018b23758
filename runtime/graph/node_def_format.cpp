#include "runtime/graph/node_def_format.h"

#include "runtime/core/error.h"
#include "runtime/core/proto/graph_def.pb.h"
#include "runtime/core/proto_convert.h"

namespace ag::node_def {

std::vector<Span> spans(const std::vector<TfArg>& args, size_t n_tensors, const Attrs& attrs, const std::string& op,
                        bool skip_resources) {
  size_t singles = 0, lists = 0;
  for (const TfArg& a : args) {
    if ((skip_resources && a.resource) || a.from_attr()) continue;
    if (a.is_list()) {
      ++lists;
    } else {
      ++singles;
    }
  }
  if (singles > n_tensors || (lists == 0 && singles != n_tensors)) {
    throw InvalidArgumentError("op " + op + " has " + std::to_string(n_tensors) + " tensors where its TF arguments take " +
                               std::to_string(singles));
  }
  std::vector<Span> out;
  size_t at = 0;
  for (const TfArg& a : args) {
    if ((skip_resources && a.resource) || a.from_attr()) {
      out.push_back({at, 0});
      continue;
    }
    size_t count = 1;
    if (a.is_list()) {
      if (lists == 1) {
        count = n_tensors - singles;
      } else if (!a.number_attr.empty() && attrs.has(a.number_attr)) {
        count = static_cast<size_t>(attrs.get<int64_t>(a.number_attr));
      } else {
        throw UnimplementedError("agc cannot tell the sizes of " + op + "'s argument lists");
      }
    }
    out.push_back({at, count});
    at += count;
  }
  if (at != n_tensors) {
    throw InvalidArgumentError("op " + op + "'s argument lists take " + std::to_string(at) + " tensors, not " +
                               std::to_string(n_tensors));
  }
  return out;
}

const TfSignature& signature_of(const OpDef& op) {
  if (!op.tf_signature) {
    throw UnimplementedError("op " + op.name + " cannot be written to a FunctionDef yet: agc has not declared its "
                             "TensorFlow arguments");
  }
  return *op.tf_signature;
}

Tensor attr_input_value(const TfArg& a, const Attrs& attrs) {
  if (a.attr_kind == TfArg::AttrKind::Int) return Tensor::scalar<int32_t>(static_cast<int32_t>(attrs.get_or<int64_t>(a.attr, -1)));
  const Shape s = attrs.get_or<Shape>(a.attr, Shape::unknown_rank());
  if (!s.rank_known()) return Tensor::scalar<int32_t>(-1);
  std::vector<int32_t> dims;
  for (int64_t d : s.dims()) dims.push_back(d < 0 ? -1 : static_cast<int32_t>(d));
  return Tensor::from_vector<int32_t>(Shape{static_cast<int64_t>(dims.size())}, dims);
}

AttrValue attr_from_input(const TfArg& a, const Tensor& t, const std::string& op) {
  if (t.dtype() != DType::Int32 && t.dtype() != DType::Int64) {
    throw InvalidArgumentError("op " + op + "'s " + a.name + " must be int32 or int64, got " + dtype_name(t.dtype()));
  }
  auto at = [&](int64_t i) {
    return t.dtype() == DType::Int32 ? static_cast<int64_t>(t.data<int32_t>()[i]) : t.data<int64_t>()[i];
  };
  if (a.attr_kind == TfArg::AttrKind::Int) {
    if (t.num_elements() != 1) throw InvalidArgumentError("op " + op + "'s " + a.name + " must be a scalar");
    return at(0);
  }
  if (t.rank() == 0) {
    if (at(0) != -1) {
      throw InvalidArgumentError("op " + op + "'s " + a.name + " is a scalar other than -1 (unknown rank): " +
                                 std::to_string(at(0)));
    }
    return Shape::unknown_rank();
  }
  if (t.rank() != 1) throw InvalidArgumentError("op " + op + "'s " + a.name + " must be a vector or -1");
  std::vector<int64_t> dims;
  for (int64_t i = 0; i < t.num_elements(); ++i) dims.push_back(at(i) < 0 ? kUnknownDim : at(i));
  return Shape(dims);
}

// ---- attribute values

void write_attr(const AttrValue& v, tensorflow::AttrValue* out) {
  std::visit(
      [&]<class T>(const T& x) {
        if constexpr (std::is_same_v<T, int64_t>) {
          out->set_i(x);
        } else if constexpr (std::is_same_v<T, double>) {
          out->set_f(static_cast<float>(x));
        } else if constexpr (std::is_same_v<T, bool>) {
          out->set_b(x);
        } else if constexpr (std::is_same_v<T, std::string>) {
          out->set_s(x);
        } else if constexpr (std::is_same_v<T, DType>) {
          out->set_type(proto::tf_data_type(x));
        } else if constexpr (std::is_same_v<T, Shape>) {
          proto::write_shape(x, out->mutable_shape());
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          for (int64_t i : x) out->mutable_list()->add_i(i);
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          for (double f : x) out->mutable_list()->add_f(static_cast<float>(f));
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          for (const std::string& s : x) out->mutable_list()->add_s(s);
        } else {
          proto::write_tensor(x, out->mutable_tensor());
        }
      },
      v);
}

std::optional<AttrValue> read_attr(const tensorflow::AttrValue& v) {
  switch (v.value_case()) {
    case tensorflow::AttrValue::kI: return AttrValue(v.i());
    case tensorflow::AttrValue::kF: return AttrValue(static_cast<double>(v.f()));
    case tensorflow::AttrValue::kB: return AttrValue(v.b());
    case tensorflow::AttrValue::kS: return AttrValue(v.s());
    case tensorflow::AttrValue::kType: {
      std::optional<DType> t = proto::dtype_of(v.type());
      if (!t) throw UnimplementedError("agc has no dtype " + proto::data_type_name(v.type()));
      return AttrValue(*t);
    }
    case tensorflow::AttrValue::kShape: return AttrValue(proto::read_shape(v.shape()));
    case tensorflow::AttrValue::kTensor: return AttrValue(proto::read_tensor(v.tensor()));
    case tensorflow::AttrValue::kList: {
      const auto& l = v.list();
      if (l.i_size() > 0) return AttrValue(std::vector<int64_t>(l.i().begin(), l.i().end()));
      if (l.f_size() > 0) return AttrValue(std::vector<double>(l.f().begin(), l.f().end()));
      if (l.s_size() > 0) return AttrValue(std::vector<std::string>(l.s().begin(), l.s().end()));
      if (l.type_size() > 0 || l.shape_size() > 0 || l.func_size() > 0 || l.tensor_size() > 0) return std::nullopt;
      return AttrValue(std::vector<int64_t>{});
    }
    default: return std::nullopt;
  }
}

std::optional<Shape> arg_output_shape(const tensorflow::FunctionDef& f, int i) {
  auto attrs = f.arg_attr().find(static_cast<uint32_t>(i));
  if (attrs == f.arg_attr().end()) return std::nullopt;
  auto shapes = attrs->second.attr().find("_output_shapes");
  if (shapes == attrs->second.attr().end() || shapes->second.list().shape_size() != 1) return std::nullopt;
  return proto::read_shape(shapes->second.list().shape(0));
}

}  // namespace ag::node_def

#include "runtime/tpu/quantization.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "runtime/core/error.h"
#include "runtime/core/object_graph_values.h"
#include "runtime/core/proto/representative_dataset.pb.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/proto/xla_data.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/core/tfrecord.h"
#include "runtime/core/variable.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/function_def.h"
#include "runtime/graph/node_def_format.h"
#include "runtime/ops/quantization_ops.h"
#include "runtime/ops/registry.h"
#include "runtime/tpu/calibration.h"
#include "runtime/tpu/model_functions.h"
#include "runtime/tpu/quantization_params.h"
#include "runtime/tpu/quantized_matmul.h"

namespace ag::tpu {
namespace {

using tensorflow::FunctionDef;
using tensorflow::NodeDef;
using Method = QuantizationOptions::Method;
using Sample = std::map<std::string, Tensor>;

/// [S1] recommends more than 200 representative samples (B43).
constexpr size_t kRecommendedSamples = 200;

// ---- a FunctionDef's tensor references: "arg", "node:output:i", "^node"

bool is_control(const std::string& ref) { return !ref.empty() && ref[0] == '^'; }
bool is_arg(const std::string& ref) { return !is_control(ref) && ref.find(':') == std::string::npos; }
std::string node_of(const std::string& ref) { return ref.substr(is_control(ref) ? 1 : 0, ref.find(':')); }

const OpDef* op_of(const NodeDef& n) { return OpRegistry::global().find(n.op()); }

const NodeDef* find_node(const FunctionDef& f, const std::string& name) {
  for (const NodeDef& n : f.node_def()) {
    if (n.name() == name) return &n;
  }
  return nullptr;
}

int arg_index(const FunctionDef& f, const std::string& name) {
  for (int i = 0; i < f.signature().input_arg_size(); ++i) {
    if (f.signature().input_arg(i).name() == name) return i;
  }
  return -1;
}

/// Output 0 of node `n` as FunctionDefs name it ("MatMul:product:0").
std::string output_ref(const NodeDef& n) {
  const OpDef* op = op_of(n);
  return n.name() + ":" + node_def::signature_of(*op).outputs.at(0).name + ":0";
}

/// How many node inputs and results read `ref`.
int uses(const FunctionDef& f, const std::string& ref) {
  int count = 0;
  for (const NodeDef& n : f.node_def()) count += static_cast<int>(std::count(n.input().begin(), n.input().end(), ref));
  for (const auto& [name, r] : f.ret()) count += r == ref;
  return count;
}

/// Every read of `from` (node inputs, results) reads `to` instead, but in
/// node `except`.
void replace_uses(FunctionDef& f, const std::string& from, const std::string& to, const std::string& except) {
  for (NodeDef& n : *f.mutable_node_def()) {
    if (n.name() == except) continue;
    for (std::string& in : *n.mutable_input()) {
      if (in == from) in = to;
    }
  }
  for (auto& [name, r] : *f.mutable_ret()) {
    if (r == from) r = to;
  }
}

void remove_node(FunctionDef& f, const std::string& name) {
  auto* nodes = f.mutable_node_def();
  for (int i = 0; i < nodes->size(); ++i) {
    if (nodes->Get(i).name() == name) {
      nodes->DeleteSubrange(i, 1);
      return;
    }
  }
}

/// Removes node `name` when nothing reads it any more, and then the
/// constant, identity or variable read that fed it, as freezing leaves them.
void remove_if_unused(FunctionDef& f, const std::string& name) {
  const NodeDef* n = find_node(f, name);
  if (n == nullptr) return;
  for (const NodeDef& other : f.node_def()) {
    for (const std::string& in : other.input()) {
      if (!is_arg(in) && node_of(in) == name) return;
    }
  }
  for (const auto& [key, r] : f.ret()) {
    if (!is_arg(r) && node_of(r) == name) return;
  }
  const OpDef* op = op_of(*n);
  if (op == nullptr || !(op->role() == OpRole::Constant || op->role() == OpRole::Identity || op->traits.reads_variable)) {
    return;
  }
  std::string input = n->input_size() > 0 && !is_arg(n->input(0)) ? node_of(n->input(0)) : std::string();
  remove_node(f, name);
  if (!input.empty()) remove_if_unused(f, input);
}

// ---- the variables behind resource arguments

/// For each function, the object-graph node of the variable each resource
/// argument holds: a concrete function's captures are its last arguments
/// (its bound_inputs, in order), and a resource a node passes on binds the
/// callee's argument (calls: input i is argument i; If: input i + 1).
using ArgVariables = std::map<std::string, std::map<int, int>>;

ArgVariables argument_variables(const tensorflow::MetaGraphDef& meta) {
  std::map<std::string, const FunctionDef*> defs;
  for (const FunctionDef& f : meta.graph_def().library().function()) defs[f.signature().name()] = &f;
  ArgVariables out;
  for (const auto& [name, saved] : meta.object_graph_def().concrete_functions()) {
    auto it = defs.find(name);
    if (it == defs.end()) continue;
    const int first = it->second->signature().input_arg_size() - saved.bound_inputs_size();
    for (int i = 0; i < saved.bound_inputs_size() && first >= 0; ++i) out[name][first + i] = saved.bound_inputs(i);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const auto& [name, def] : defs) {
      auto known = out.find(name);
      if (known == out.end()) continue;
      for (const NodeDef& n : def->node_def()) {
        const OpDef* op = op_of(n);
        if (op == nullptr) continue;
        const int offset = op->role() == OpRole::If ? 1 : 0;
        for (const auto& [attr, v] : n.attr()) {
          if (!v.has_func()) continue;
          for (int i = offset; i < n.input_size(); ++i) {
            if (!is_arg(n.input(i))) continue;
            auto var = known->second.find(arg_index(*def, n.input(i)));
            if (var == known->second.end()) continue;
            changed = out[v.func().name()].emplace(i - offset, var->second).second || changed;
          }
        }
      }
    }
  }
  return out;
}

struct ModelValues {
  ArgVariables arguments;
  std::map<int, Tensor> variables;  // by object-graph node
};

/// The value `ref` has in every call, when the conversion knows it: a
/// Const, a saved variable's read, or an identity of either.
std::optional<Tensor> constant_of(const FunctionDef& f, const std::string& ref, const ModelValues& model) {
  if (is_arg(ref) || is_control(ref)) return std::nullopt;
  const NodeDef* n = find_node(f, node_of(ref));
  const OpDef* op = n == nullptr ? nullptr : op_of(*n);
  if (op == nullptr) return std::nullopt;
  if (op->role() == OpRole::Constant) {
    auto v = n->attr().find("value");
    if (v == n->attr().end() || !v->second.has_tensor()) return std::nullopt;
    return proto::read_tensor(v->second.tensor());
  }
  if (op->role() == OpRole::Identity && n->input_size() > 0) return constant_of(f, n->input(0), model);
  if (op->traits.reads_variable && n->input_size() > 0 && is_arg(n->input(0))) {
    auto fn = model.arguments.find(f.signature().name());
    if (fn == model.arguments.end()) return std::nullopt;
    auto node = fn->second.find(arg_index(f, n->input(0)));
    if (node == fn->second.end()) return std::nullopt;
    auto value = model.variables.find(node->second);
    if (value == model.variables.end()) return std::nullopt;
    return value->second;
  }
  return std::nullopt;
}

// ---- what gets quantized

/// A float32 MatMul whose right operand the conversion knows.
struct Target {
  std::string function;
  std::string matmul;  // node
  std::string output;  // where its float result is read: the MatMul's, or the fused add's
  std::string add;     // the fused AddV2 node (static range), or ""
  Tensor weight;       // float32 [K, N]
  Tensor bias;         // float32 [N], or undefined
  std::string id() const { return function + "/" + matmul; }
};

Tensor transposed(const Tensor& w) {
  const int64_t rows = w.shape().dim(0), cols = w.shape().dim(1);
  Tensor t(DType::Float32, Shape{cols, rows});
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) t.data<float>()[j * rows + i] = w.data<float>()[i * cols + j];
  }
  return t;
}

bool is_float32(const NodeDef& n, const char* attr) {
  auto t = n.attr().find(attr);
  return t != n.attr().end() && proto::dtype_of(t->second.type()) == DType::Float32;
}

bool attr_true(const NodeDef& n, const char* attr) {
  auto t = n.attr().find(attr);
  return t != n.attr().end() && t->second.b();
}

std::vector<Target> find_targets(const tensorflow::MetaGraphDef& meta, const std::set<std::string>& functions,
                                 const ModelValues& model, bool fuse_bias) {
  std::vector<Target> out;
  for (const FunctionDef& f : meta.graph_def().library().function()) {
    if (!functions.count(f.signature().name())) continue;
    for (const NodeDef& n : f.node_def()) {
      const OpDef* op = op_of(n);
      if (op == nullptr || op->traits.semantic != OpSemantic::MatMul || !is_float32(n, "T") ||
          attr_true(n, "transpose_a") || n.input_size() < 2) {
        continue;
      }
      std::optional<Tensor> w = constant_of(f, n.input(1), model);
      if (!w || w->dtype() != DType::Float32 || w->rank() != 2) continue;
      Target t{f.signature().name(), n.name(), output_ref(n), "", attr_true(n, "transpose_b") ? transposed(*w) : *w, Tensor()};
      if (fuse_bias && uses(f, t.output) == 1) {
        // Its one reader, when it adds a constant [N] (x·w + b).
        for (const NodeDef& u : f.node_def()) {
          const OpDef* uop = op_of(u);
          if (uop == nullptr || uop->traits.semantic != OpSemantic::Add || u.input_size() != 2 || !is_float32(u, "T")) continue;
          int self = u.input(0) == t.output ? 0 : u.input(1) == t.output ? 1 : -1;
          if (self < 0) continue;
          std::optional<Tensor> b = constant_of(f, u.input(1 - self), model);
          if (b && b->dtype() == DType::Float32 && b->rank() == 1 && b->shape().dim(0) == t.weight.shape().dim(1)) {
            t.add = u.name();
            t.bias = *b;
            t.output = output_ref(u);
          }
        }
      }
      out.push_back(std::move(t));
    }
  }
  return out;
}

FunctionDef& function_named(tensorflow::MetaGraphDef& meta, const std::string& name) {
  for (FunctionDef& f : *meta.mutable_graph_def()->mutable_library()->mutable_function()) {
    if (f.signature().name() == name) return f;
  }
  throw InternalError("quantization: no function " + name);
}

// ---- emitting TF nodes

tensorflow::AttrValue type_attr(DType t) {
  tensorflow::AttrValue v;
  v.set_type(proto::tf_data_type(t));
  return v;
}

/// Adds nodes to a FunctionDef under one name prefix; each call returns the
/// added node's output 0.
class Emitter {
 public:
  Emitter(FunctionDef& f, std::string prefix) : f_(f), prefix_(std::move(prefix)) {}

  std::string op(const std::string& name, const std::string& type, const std::vector<std::string>& inputs,
                 const std::map<std::string, tensorflow::AttrValue>& attrs) {
    NodeDef* n = f_.add_node_def();
    n->set_name(prefix_ + "/" + name + "_" + std::to_string(next_++));
    n->set_op(type);
    for (const std::string& in : inputs) n->add_input(in);
    for (const auto& [k, v] : attrs) (*n->mutable_attr())[k] = v;
    return output_ref(*n);
  }
  std::string constant(const std::string& name, const Tensor& t) {
    tensorflow::AttrValue value;
    proto::write_tensor(t, value.mutable_tensor());
    return op(name, "Const", {}, {{"value", value}, {"dtype", type_attr(t.dtype())}});
  }
  std::string f64(double v) { return constant("c", Tensor::scalar<double>(v)); }
  std::string binary(const std::string& type, const std::string& a, const std::string& b, DType t) {
    return op(type, type, {a, b}, {{"T", type_attr(t)}});
  }
  std::string unary(const std::string& type, const std::string& a, DType t) { return op(type, type, {a}, {{"T", type_attr(t)}}); }
  std::string cast(const std::string& a, DType from, DType to) {
    tensorflow::AttrValue truncate;
    truncate.set_b(false);
    return op("Cast", "Cast", {a}, {{"SrcT", type_attr(from)}, {"DstT", type_attr(to)}, {"Truncate", truncate}});
  }
  /// round(y) half away from zero, y float64: sign(y) · floor(|y| + 0.5),
  /// exact for every float64 that is a float32 quotient's.
  std::string round(const std::string& y) {
    const DType d = DType::Float64;
    return binary("Mul", unary("Sign", y, d), unary("Floor", binary("AddV2", unary("Abs", y, d), f64(0.5), d), d), d);
  }
  /// x clamped to [lo, hi], float64.
  std::string clamp(const std::string& x, double lo, double hi) {
    const DType d = DType::Float64;
    return binary("Maximum", binary("Minimum", x, f64(hi), d), f64(lo), d);
  }
  /// x (float64) quantized with `scale` and `zero_point` (float64 scalars) to int8 (B41).
  std::string quantize(const std::string& x, const std::string& scale, const std::string& zero_point) {
    const DType d = DType::Float64;
    std::string q = round(binary("RealDiv", x, scale, d));
    return cast(clamp(binary("AddV2", q, zero_point, d), kActivationQMin, kActivationQMax), d, DType::Int8);
  }
  /// int8 x [M, K] · int8 w [K, N] summed in int32.
  std::string dot(const std::string& x, const std::string& w) {
    xla::DotDimensionNumbers dn;
    dn.add_lhs_contracting_dimensions(1);
    dn.add_rhs_contracting_dimensions(0);
    tensorflow::AttrValue numbers, precision;
    numbers.set_s(dn.SerializeAsString());
    precision.set_s("");
    return op("XlaDotV2", "XlaDotV2", {x, w},
              {{"LhsT", type_attr(DType::Int8)},
               {"RhsT", type_attr(DType::Int8)},
               {"preferred_element_type", type_attr(DType::Int32)},
               {"dimension_numbers", numbers},
               {"precision_config", precision}});
  }
  const std::string& prefix() const { return prefix_; }

 private:
  FunctionDef& f_;
  std::string prefix_;
  int next_ = 0;
};

Tensor vector_f64(const std::vector<double>& v) {
  return Tensor::from_vector<double>(Shape{static_cast<int64_t>(v.size())}, v);
}

/// The quantized weights of a target and their parameters (one, or one per
/// output channel).
struct QuantizedWeight {
  Tensor values;  // int8 [K, N]
  std::vector<QuantParams> params;
  float scale(int64_t j) const { return params[params.size() == 1 ? 0 : static_cast<size_t>(j)].scale; }
  /// Σ_k w[k][j] times `zero_point`: the zero point's share of each output's int32 sum.
  Tensor zero_point_share(int32_t zero_point) const {
    const int64_t k = values.shape().dim(0), n = values.shape().dim(1);
    std::vector<int32_t> share(static_cast<size_t>(n), 0);
    for (int64_t r = 0; r < k; ++r) {
      for (int64_t j = 0; j < n; ++j) share[j] += zero_point * values.data<int8_t>()[r * n + j];
    }
    return Tensor::from_vector<int32_t>(Shape{n}, share);
  }
};

QuantizedWeight quantize_weight(const Tensor& w, bool per_channel) {
  if (per_channel) {
    std::vector<QuantParams> params = per_channel_weight_params(w, -1);
    return {quantize_per_channel(w, params, -1), params};
  }
  QuantParams p = weight_params(w);
  return {quantize(w, p, kWeightQMin, kWeightQMax), {p}};
}

/// The scale of each output channel's int32 sum over `out_scale`
/// (s_in · s_w[j] / s_out), in double as quantized_matmul's requantize.
Tensor requantize_ratios(const QuantizedWeight& w, double in_scale, double out_scale) {
  std::vector<double> r;
  for (int64_t j = 0; j < w.values.shape().dim(1); ++j) r.push_back(in_scale * static_cast<double>(w.scale(j)) / out_scale);
  return vector_f64(r);
}

/// What the target's MatMul reads now: a target rewritten before it may
/// have replaced its input.
std::string activation_of(const FunctionDef& f, const Target& t) { return find_node(f, t.matmul)->input(0); }

/// B41's static-range MatMul, the float result read where `t.output` was.
void emit_static(FunctionDef& f, const Target& t, const QuantizedWeight& w, QuantParams in, QuantParams out) {
  Emitter e(f, t.matmul + "/quantized");
  const DType d = DType::Float64;
  std::string x = e.cast(activation_of(f, t), DType::Float32, d);
  std::string xq = e.quantize(x, e.f64(in.scale), e.f64(in.zero_point));
  std::string acc = e.dot(xq, e.constant("weight", w.values));
  acc = e.binary("Sub", acc, e.constant("zero_point_share", w.zero_point_share(in.zero_point)), DType::Int32);
  if (t.bias.defined()) {
    const int64_t n = t.bias.shape().dim(0);
    std::vector<int32_t> bias(static_cast<size_t>(n));
    for (int64_t j = 0; j < n; ++j) bias[j] = quantize_bias(t.bias.data<float>()[j], in.scale, w.scale(j));
    acc = e.binary("AddV2", acc, e.constant("bias", Tensor::from_vector<int32_t>(Shape{n}, bias)), DType::Int32);
  }
  std::string scaled = e.binary("Mul", e.cast(acc, DType::Int32, d),
                                e.constant("scale", requantize_ratios(w, in.scale, out.scale)), d);
  std::string q = e.clamp(e.binary("AddV2", e.round(scaled), e.f64(out.zero_point), d), kActivationQMin, kActivationQMax);
  std::string real = e.binary("Mul", e.binary("Sub", q, e.f64(out.zero_point), d), e.f64(out.scale), d);
  std::string result = e.cast(real, d, DType::Float32);
  replace_uses(f, t.output, result, "");
}

/// The dynamic-range MatMul: the activation's range from its values in each
/// call (B41's formulas, in float64), the int32 sum scaled back to float.
void emit_dynamic(FunctionDef& f, const Target& t, const QuantizedWeight& w) {
  Emitter e(f, t.matmul + "/quantized");
  const DType d = DType::Float64;
  std::string x = e.cast(activation_of(f, t), DType::Float32, d);
  tensorflow::AttrValue int32_type = type_attr(DType::Int32), no;
  no.set_b(false);
  std::string flat = e.op("Reshape", "Reshape", {x, e.constant("shape", Tensor::from_vector<int32_t>(Shape{1}, {-1}))},
                          {{"T", type_attr(d)}, {"Tshape", int32_type}});
  std::string axis = e.constant("axis", Tensor::scalar<int32_t>(0));
  auto reduce = [&](const char* type) {
    return e.op(type, type, {flat, axis}, {{"T", type_attr(d)}, {"Tidx", int32_type}, {"keep_dims", no}});
  };
  std::string lo = e.binary("Minimum", reduce("Min"), e.f64(0), d);
  std::string hi = e.binary("Maximum", reduce("Max"), e.f64(0), d);
  std::string range = e.binary("Sub", hi, lo, d);
  std::string empty = e.op("Equal", "Equal", {range, e.f64(0)}, {{"T", type_attr(d)}, {"incompatible_shape_error", no}});
  auto select = [&](const std::string& when_empty, const std::string& otherwise) {
    return e.op("SelectV2", "SelectV2", {empty, when_empty, otherwise}, {{"T", type_attr(d)}});
  };
  std::string scale = select(e.f64(1), e.binary("RealDiv", range, e.f64(255), d));
  std::string zero_point =
      select(e.f64(0), e.clamp(e.round(e.binary("Sub", e.f64(-128), e.binary("RealDiv", lo, scale, d), d)),
                               kActivationQMin, kActivationQMax));
  std::string xq = e.quantize(x, scale, zero_point);
  std::string acc = e.dot(xq, e.constant("weight", w.values));
  // The zero point is a tensor here: its share is zero_point · Σ_k w[k][j].
  std::string share = e.binary("Mul", e.cast(zero_point, d, DType::Int32), e.constant("weight_sums", w.zero_point_share(1)),
                               DType::Int32);
  acc = e.binary("Sub", acc, share, DType::Int32);
  std::vector<double> ws;
  for (int64_t j = 0; j < w.values.shape().dim(1); ++j) ws.push_back(w.scale(j));
  std::string real = e.binary("Mul", e.cast(acc, DType::Int32, d), e.binary("Mul", scale, e.constant("weight_scale", vector_f64(ws)), d), d);
  replace_uses(f, t.output, e.cast(real, d, DType::Float32), "");
}

/// Weight only: the MatMul reads its int8 weights dequantized.
void emit_weight_only(FunctionDef& f, const Target& t, const QuantizedWeight& w) {
  Emitter e(f, t.matmul + "/quantized");
  const int64_t n = w.values.shape().dim(1);
  std::vector<float> scales;
  for (int64_t j = 0; j < static_cast<int64_t>(w.params.size()); ++j) scales.push_back(w.scale(j));
  Tensor scale = w.params.size() == 1 ? Tensor::scalar<float>(scales[0]) : Tensor::from_vector<float>(Shape{n}, scales);
  std::string real = e.binary("Mul", e.cast(e.constant("weight", w.values), DType::Int8, DType::Float32),
                              e.constant("weight_scale", scale), DType::Float32);
  for (NodeDef& node : *f.mutable_node_def()) {
    if (node.name() != t.matmul) continue;
    std::string old = node.input(1);
    node.set_input(1, real);
    (*node.mutable_attr())["transpose_b"].set_b(false);
    if (!is_arg(old)) remove_if_unused(f, node_of(old));
    return;
  }
}

// ---- calibration

std::string python_set(const std::set<std::string>& items) {
  if (items.empty()) return "set()";
  std::string out = "{";
  for (const std::string& s : items) out += (out.size() > 1 ? ", '" : "'") + s + "'";
  return out + "}";
}

std::vector<Sample> read_samples(const std::string& path) {
  TFRecordReader reader(path);
  std::vector<Sample> out;
  std::string record;
  while (reader.next(record)) {
    tensorflow::quantization::RepresentativeDataSample proto;
    if (!proto.ParseFromString(record)) {
      throw DataLossError("Record " + std::to_string(out.size()) + " of representative dataset " + path +
                          " is not a RepresentativeDataSample");
    }
    Sample s;
    for (const auto& [key, tensor] : proto.tensor_proto_inputs()) s.emplace(key, proto::read_tensor(tensor));
    out.push_back(std::move(s));
  }
  return out;
}

/// Signature `key` of `meta` as a plan, and which input key each of its
/// graph's inputs takes. Its variables hold their saved values while `vars` lives.
struct SignatureRun {
  Executable executable;
  std::vector<std::string> input_keys;
  std::vector<std::shared_ptr<Variable>> vars;
};

SignatureRun signature_run(const tensorflow::MetaGraphDef& meta, const std::string& key, const ModelValues& model) {
  ModelFunctions functions(meta);
  const std::string fn = functions.signature_function(key);
  const FunctionDef* def = functions.find(fn);
  const NodeDef* call = nullptr;
  for (const NodeDef& n : meta.graph_def().node()) {
    auto f = n.attr().find("f");
    if (f != n.attr().end() && f->second.has_func() && f->second.func().name() == fn) call = &n;
  }
  if (def == nullptr || call == nullptr) throw NotFoundError("The SavedModel has no function for signature " + key);
  const auto& inputs = meta.signature_def().at(key).inputs();
  SignatureRun run;
  std::vector<int64_t> ids;
  auto captured = model.arguments.find(fn);
  for (int i = 0; i < def->signature().input_arg_size(); ++i) {
    if (def->signature().input_arg(i).type() == tensorflow::DT_RESOURCE) {
      const int* node = nullptr;
      if (captured != model.arguments.end()) {
        auto id = captured->second.find(i);
        if (id != captured->second.end()) node = &id->second;
      }
      if (node == nullptr || !model.variables.count(*node)) {
        throw NotFoundError("agc cannot tell which saved variable argument " + std::to_string(i) + " of " + fn + " holds");
      }
      run.vars.push_back(Variable::create(model.variables.at(*node), def->signature().input_arg(i).name()));
      ids.push_back(run.vars.back()->id());
      continue;
    }
    const std::string placeholder = i < call->input_size() ? node_of(call->input(i)) : std::string();
    std::string found;
    for (const auto& [k, info] : inputs) {
      if (node_of(info.name()) == placeholder) found = k;
    }
    if (found.empty()) throw NotFoundError("Argument " + std::to_string(i) + " of signature " + key + " has no input key");
    run.input_keys.push_back(found);
  }
  auto library = std::make_shared<tensorflow::FunctionDefLibrary>(meta.graph_def().library());
  run.executable = compile(*FunctionDefReader(library).read(fn, ids));
  return run;
}

/// Restores the previous calibration observer when it goes.
class ObserverScope {
 public:
  explicit ObserverScope(CalibrationObserver o) : previous_(set_calibration_observer(std::move(o))) {}
  ~ObserverScope() { set_calibration_observer(std::move(previous_)); }
  ObserverScope(const ObserverScope&) = delete;
  ObserverScope& operator=(const ObserverScope&) = delete;

 private:
  CalibrationObserver previous_;
};

/// `meta` with each target's input and output read through a CustomAggregator.
tensorflow::MetaGraphDef calibration_model(const tensorflow::MetaGraphDef& meta, const std::vector<Target>& targets) {
  tensorflow::MetaGraphDef copy = meta;
  for (const Target& t : targets) {
    FunctionDef& f = function_named(copy, t.function);
    auto aggregate = [&](const std::string& ref, const std::string& name, const std::string& id) {
      NodeDef* n = f.add_node_def();
      n->set_name(name);
      n->set_op("CustomAggregator");
      n->add_input(ref);
      (*n->mutable_attr())["id"].set_s(id);
      return output_ref(*n);
    };
    std::string in = aggregate(activation_of(f, t), t.matmul + "/calibration_input", t.id() + ":input");
    for (NodeDef& n : *f.mutable_node_def()) {
      if (n.name() == t.matmul) n.set_input(0, in);
    }
    const std::string out_name = node_of(t.output) + "/calibration_output";
    replace_uses(f, t.output, aggregate(t.output, out_name, t.id() + ":output"), out_name);
  }
  return copy;
}

void check_dataset_keys(const QuantizationOptions& options) {
  std::set<std::string> signature_keys(options.signature_keys().begin(), options.signature_keys().end());
  std::set<std::string> dataset_keys;
  for (const auto& [k, v] : options.representative_datasets()) dataset_keys.insert(k);
  if (dataset_keys.empty()) {
    throw ValueError("When `representative_dataset` is not provided, the model should be trained with "
                     "quantization-aware training (QAT).");
  }
  if (signature_keys != dataset_keys) {
    throw ValueError("The signature keys and the keys of representative dataset map do not match. Signature keys: " +
                     python_set(signature_keys) + ", representative dataset map: " + python_set(dataset_keys) + ".");
  }
}

/// Each quantized signature's representative samples, read and checked
/// against the signature's input keys (B43).
std::map<std::string, std::vector<Sample>> representative_samples(const tensorflow::MetaGraphDef& meta,
                                                                  const QuantizationOptions& options,
                                                                  std::vector<std::string>& warnings) {
  std::map<std::string, std::vector<Sample>> out;
  for (const std::string& key : options.signature_keys()) {
    std::set<std::string> expected;
    for (const auto& [k, info] : meta.signature_def().at(key).inputs()) expected.insert(k);
    std::vector<Sample> samples = read_samples(options.representative_datasets().at(key).tfrecord_file_path());
    for (const Sample& s : samples) {
      std::set<std::string> got;
      for (const auto& [k, v] : s) got.insert(k);
      if (got != expected) {
        throw ValueError("Invalid input keys for representative sample. The function expects input keys of: " +
                         python_set(expected) + ". Got: " + python_set(got) +
                         ". Please provide correct input keys for representative samples.");
      }
    }
    if (samples.size() < kRecommendedSamples) {
      warnings.push_back("The representative dataset of signature '" + key + "' has " + std::to_string(samples.size()) +
                         " samples; more than 200 are recommended for calibration");
    }
    out.emplace(key, std::move(samples));
  }
  return out;
}

/// Runs the calibration model on every signature's samples; each
/// CustomAggregator's values go to the calibrator of its id.
void calibrate(const tensorflow::MetaGraphDef& model_def, const std::map<std::string, std::vector<Sample>>& samples,
               const ModelValues& model, std::map<std::string, Calibrator>& calibrators) {
  ObserverScope scope([&](const std::string& id, const Tensor& values) {
    auto c = calibrators.find(id);
    if (c != calibrators.end()) c->second.collect({values.data<float>(), static_cast<size_t>(values.num_elements())});
  });
  for (const auto& [key, key_samples] : samples) {
    SignatureRun run = signature_run(model_def, key, model);
    for (const Sample& s : key_samples) {
      std::vector<Tensor> args;
      for (const std::string& k : run.input_keys) args.push_back(s.at(k));
      run.executable.plan().run(args);
    }
  }
}

}  // namespace

QuantizationOptions quantization_defaults(QuantizationOptions o) {
  if (o.tags().empty()) o.add_tags("serve");
  if (o.signature_keys().empty()) o.add_signature_keys("serving_default");
  if (o.op_set() == QuantizationOptions::OP_SET_UNSPECIFIED) o.set_op_set(QuantizationOptions::XLA);
  if (o.quantization_method() == QuantizationOptions::METHOD_UNSPECIFIED) {
    o.set_quantization_method(QuantizationOptions::STATIC_RANGE);
  }
  if (o.calibration_options().calibration_method() == CalibrationOptions::CALIBRATION_METHOD_UNSPECIFIED) {
    o.mutable_calibration_options()->set_calibration_method(CalibrationOptions::CALIBRATION_METHOD_MIN_MAX);
  }
  if (o.min_num_elements_for_weights() == 0 && o.quantization_method() != QuantizationOptions::STATIC_RANGE) {
    o.set_min_num_elements_for_weights(1024);
  }
  return o;
}

std::vector<std::string> quantize_model(tensorflow::MetaGraphDef& meta, const QuantizationOptions& given,
                                        const std::string& input_dir) {
  const QuantizationOptions options = quantization_defaults(given);
  const Method method = options.quantization_method();
  check_per_channel_quantization(options.enable_per_channel_quantization(), options.op_set(), method);
  if (method == QuantizationOptions::STATIC_RANGE) check_dataset_keys(options);

  ModelFunctions functions(meta);
  std::set<std::string> quantized;
  for (const std::string& key : options.signature_keys()) {
    const std::string fn = functions.signature_function(key);
    if (fn.empty()) throw ValueError("Signature key '" + key + "' is not in the SavedModel");
    for (std::string& g : functions.reachable(fn)) quantized.insert(std::move(g));
  }
  ModelValues model{argument_variables(meta), {}};
  for (const auto& node : meta.object_graph_def().nodes()) {
    if (node.has_variable()) {
      model.variables = read_object_graph_values(input_dir + "/variables/variables");
      break;
    }
  }
  std::vector<Target> targets = find_targets(meta, quantized, model, method == QuantizationOptions::STATIC_RANGE);

  std::vector<std::string> warnings;
  std::map<std::string, Calibrator> calibrators;
  if (method == QuantizationOptions::STATIC_RANGE) {
    std::map<std::string, std::vector<Sample>> samples = representative_samples(meta, options, warnings);
    const CalibrationMethod cm = options.calibration_options().calibration_method();
    for (const Target& t : targets) {
      calibrators.emplace(t.id() + ":input", Calibrator(cm));
      calibrators.emplace(t.id() + ":output", Calibrator(cm));
    }
    if (!targets.empty()) calibrate(calibration_model(meta, targets), samples, model, calibrators);
  }

  const bool per_channel = options.enable_per_channel_quantization();
  std::vector<std::string> unreached;
  for (const Target& t : targets) {
    const int64_t min_elements = options.min_num_elements_for_weights();
    if (method != QuantizationOptions::STATIC_RANGE && min_elements > 0 && t.weight.num_elements() < min_elements) {
      continue;  // B40: too small to be worth it
    }
    FunctionDef& f = function_named(meta, t.function);
    QuantizedWeight w = quantize_weight(t.weight, per_channel);
    if (method == QuantizationOptions::WEIGHT_ONLY) {
      emit_weight_only(f, t, w);
      continue;
    }
    if (method == QuantizationOptions::DYNAMIC_RANGE) {
      emit_dynamic(f, t, w);
    } else {
      std::optional<CalibratedRange> in = calibrators.at(t.id() + ":input").range();
      std::optional<CalibratedRange> out = calibrators.at(t.id() + ":output").range();
      if (!in || !out) {
        unreached.push_back(t.id());
        continue;
      }
      emit_static(f, t, w, activation_params(in->min, in->max), activation_params(out->min, out->max));
    }
    // The MatMul and its fused add go, then the weight's and bias's sources
    // nothing else reads.
    std::vector<std::string> sources;
    for (const std::string& name : {t.matmul, t.add}) {
      const NodeDef* n = name.empty() ? nullptr : find_node(f, name);
      if (n == nullptr) continue;
      for (const std::string& in : n->input()) {
        if (!is_arg(in)) sources.push_back(node_of(in));
      }
      remove_node(f, name);
    }
    for (const std::string& source : sources) remove_if_unused(f, source);
  }
  if (!unreached.empty()) {
    std::string list;
    for (const std::string& id : unreached) list += (list.empty() ? "" : ", ") + id;
    warnings.push_back("No representative sample reached " + list + ": they stay float32 (B44)");
  }
  return warnings;
}

}  // namespace ag::tpu

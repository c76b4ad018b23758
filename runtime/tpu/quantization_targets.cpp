#include "runtime/tpu/quantization_targets.h"

#include <algorithm>

#include "runtime/core/error.h"
#include "runtime/core/object_graph_values.h"
#include "runtime/core/proto_convert.h"
#include "runtime/graph/function_def.h"
#include "runtime/graph/node_def_format.h"
#include "runtime/ops/eager.h"
#include "runtime/tpu/function_def_edit.h"

namespace ag::tpu {
namespace {

using tensorflow::FunctionDef;
using tensorflow::NodeDef;

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

Attrs attrs_of(const NodeDef& n) {
  Attrs a;
  for (const auto& [k, v] : n.attr()) {
    if (std::optional<AttrValue> x = node_def::read_attr(v)) a.set(k, std::move(*x));
  }
  return a;
}

Tensor transposed(const Tensor& w) {
  const int64_t rows = w.shape().dim(0), cols = w.shape().dim(1);
  Tensor t(DType::Float32, Shape{cols, rows});
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) t.data<float>()[j * rows + i] = w.data<float>()[i * cols + j];
  }
  return t;
}

QuantRole role_of(const NodeDef& n) {
  const OpDef* op = op_of(n);
  return op == nullptr ? QuantRole::None : op->tpu.quantization;
}

/// The shape the conversion knows for input `i` of node `n` of `f`.
Shape input_shape(const std::map<std::string, std::vector<Shape>>& shapes, const FunctionDef& f, const NodeDef& n,
                  size_t i) {
  auto it = shapes.find(f.signature().name() + "/" + n.name());
  return it == shapes.end() || it->second.size() <= i ? Shape::unknown_rank() : it->second[i];
}

/// Why a Dot node cannot be quantized, or "" when `t` now holds it (or it
/// has no known operand).
std::string dot_target(const FunctionDef& f, const NodeDef& n, const ModelValues& model,
                       const std::map<std::string, std::vector<Shape>>& shapes, Target& t) {
  std::optional<Tensor> w = constant_of(f, n.input(1), model);
  if (!w || w->dtype() != DType::Float32) return "";
  if (attr_true(n, "adj_x")) return "its left operand is adjoint (adj_x)";
  if (w->rank() != 2) return "its right operand has rank " + std::to_string(w->rank()) + ", not 2";
  const Shape x = input_shape(shapes, f, n, 0);
  const OpDef* op = op_of(n);
  if (x.rank_known()) {
    t.activation_rank = x.rank();
  } else if (op->traits.semantic != OpSemantic::MatMul) {
    return "the conversion does not know its input's rank";
  }
  t.transpose_x = attr_true(n, "transpose_a");
  t.weight = attr_true(n, "transpose_b") || attr_true(n, "adj_y") ? transposed(*w) : *w;
  return {};
}

/// A convolution's window from its NodeDef (Conv2D, DepthwiseConv2dNative,
/// Conv3D: strides and dilations over batch, spatial..., channels), the
/// padding made explicit from the input shape `in` where SAME needs it; the
/// reason when the conversion cannot tell it.
std::string conv_window(const NodeDef& n, const Shape& in, const Shape& filter, int spatial, ConvWindowForm& w) {
  const Attrs a = attrs_of(n);
  const std::string format = a.get_or<std::string>("data_format", spatial == 2 ? "NHWC" : "NDHWC");
  if (format != "NHWC" && format != "NDHWC") return "its data_format is " + format;
  const std::vector<int64_t> strides = a.get_or<std::vector<int64_t>>("strides", {});
  const std::vector<int64_t> dilations = a.get_or<std::vector<int64_t>>("dilations", std::vector<int64_t>(static_cast<size_t>(spatial + 2), 1));
  const std::vector<int64_t> explicit_pads = a.get_or<std::vector<int64_t>>("explicit_paddings", {});
  const std::string padding = a.get_or<std::string>("padding", "");
  const size_t rank = static_cast<size_t>(spatial + 2);
  if (strides.size() != rank || dilations.size() != rank || (padding == "EXPLICIT" && explicit_pads.size() != 2 * rank)) {
    return "its window attrs are malformed";
  }
  for (int d = 1; d <= spatial; ++d) {
    const size_t u = static_cast<size_t>(d);
    const int64_t k = filter.dim(d - 1), stride = strides[u], dil = dilations[u];
    const int64_t eff = (k - 1) * dil + 1;
    std::array<int64_t, 2> pad{0, 0};
    if (padding == "EXPLICIT") {
      pad = {explicit_pads[2 * u], explicit_pads[2 * u + 1]};
    } else if (padding == "SAME") {
      // TF's SAME: the output has ceil(in / stride) positions; with stride
      // 1 the padding is the window's overhang whatever the input's size.
      int64_t total = eff - 1;
      if (stride != 1) {
        const int64_t size = in.rank_known() && in.rank() == spatial + 2 ? in.dim(d) : kUnknownDim;
        if (size == kUnknownDim) return "its SAME padding with strides depends on an input size the conversion does not know";
        total = std::max<int64_t>(0, ((size + stride - 1) / stride - 1) * stride + eff - size);
      }
      pad = {total / 2, total - total / 2};
    } else if (padding != "VALID") {
      return "its padding is " + padding;
    }
    w.strides.push_back(stride);
    w.dilations.push_back(dil);
    w.pads.push_back(pad);
  }
  return {};
}

/// A Conv2D or Conv3D, or a DepthwiseConv2dNative (`depthwise`) as the
/// grouped convolution it is: its [KH, KW, C, M] filter read as
/// [KH, KW, 1, C·M], a group per input channel.
std::string conv_target(const FunctionDef& f, const NodeDef& n, const ModelValues& model,
                        const std::map<std::string, std::vector<Shape>>& input_shapes, bool depthwise, Target& t) {
  std::optional<Tensor> w = constant_of(f, n.input(1), model);
  if (!w || w->dtype() != DType::Float32) return "";
  if (w->rank() != 4 && w->rank() != 5) return "its filter has rank " + std::to_string(w->rank());
  const int spatial = w->rank() - 2;
  const Shape in = input_shape(input_shapes, f, n, 0);
  const int64_t depth = in.rank_known() && in.rank() == spatial + 2 ? in.dim(spatial + 1) : kUnknownDim;
  if (depth == kUnknownDim) return "the conversion does not know its input's depth";
  if (std::string why = conv_window(n, in, w->shape(), spatial, t.window); !why.empty()) return why;
  const Shape& ws = w->shape();
  t.kind = QuantRole::Conv;
  t.weight = depthwise ? w->reshaped(Shape{ws.dim(0), ws.dim(1), 1, ws.dim(2) * ws.dim(3)}) : *w;
  if (depthwise) t.depthwise_filter_shape = ws;
  t.window.groups = depth / std::max<int64_t>(t.weight.shape().dim(spatial), 1);
  return {};
}

std::string gather_target(const FunctionDef& f, const NodeDef& n, const ModelValues& model, Target& t) {
  std::optional<Tensor> table = constant_of(f, n.input(0), model);
  if (!table || table->dtype() != DType::Float32) return "";
  auto batch_dims = n.attr().find("batch_dims");
  if (batch_dims != n.attr().end() && batch_dims->second.i() != 0) return "it has batch_dims";
  t.weight = *table;
  return {};
}

/// Fuses into `t` what alone reads its result: a constant [N] added over
/// the last dim, then a Relu or Relu6.
void fuse_after(const FunctionDef& f, const ModelValues& model, Target& t) {
  const int64_t n = t.weight.shape().dim(t.weight.rank() - 1);
  const NodeDef* r = sole_reader(f, t.output);
  const OpDef* op = r == nullptr ? nullptr : op_of(*r);
  auto nchw = [](const NodeDef& add) {
    auto format = add.attr().find("data_format");
    return format != add.attr().end() && format->second.s() == "NCHW";
  };
  const bool adds = op != nullptr && r->input_size() == 2 &&
                    (op->traits.semantic == OpSemantic::Add || (op->tpu.quantization == QuantRole::Bias && !nchw(*r)));
  if (adds && attr_is(*r, "T", DType::Float32)) {
    const int self = r->input(0) == t.output ? 0 : 1;
    std::optional<Tensor> b = constant_of(f, r->input(1 - self), model);
    if (b && b->dtype() == DType::Float32 && b->rank() == 1 && b->shape().dim(0) == n) {
      t.bias = *b;
      t.fused.push_back(r->name());
      t.output = output_ref(*r);
    }
  }
  r = sole_reader(f, t.output);
  const QuantRole act = r == nullptr ? QuantRole::None : role_of(*r);
  if ((act == QuantRole::Relu || act == QuantRole::Relu6) && attr_is(*r, "T", DType::Float32)) {
    t.activation = act;
    t.fused.push_back(r->name());
    t.output = output_ref(*r);
  }
}

void collect_shapes(const Graph& g, const std::string& name, std::map<std::string, std::vector<Shape>>& out) {
  for (const auto& n : g.nodes()) {
    std::vector<Shape> shapes;
    for (const Output& in : n->inputs) shapes.push_back(in.spec().shape);
    out.emplace(name + "/" + n->name, std::move(shapes));
    std::vector<std::string> names;
    if (n->attrs.has("f")) names.push_back(n->attrs.get<std::string>("f"));
    if (n->attrs.has("branches")) names = n->attrs.get<std::vector<std::string>>("branches");
    for (size_t i = 0; i < n->subgraphs.size() && i < names.size(); ++i) collect_shapes(*n->subgraphs[i], names[i], out);
  }
}

}  // namespace

ModelValues read_model_values(const tensorflow::MetaGraphDef& meta, const std::string& input_dir) {
  ModelValues model{argument_variables(meta), {}};
  for (const auto& node : meta.object_graph_def().nodes()) {
    if (node.has_variable()) {
      model.variables = read_object_graph_values(input_dir + "/variables/variables");
      break;
    }
  }
  return model;
}

std::vector<std::shared_ptr<Variable>> bound_variables(const FunctionDef& fn, const ModelValues& model) {
  std::vector<std::shared_ptr<Variable>> out;
  const std::string& name = fn.signature().name();
  auto captured = model.arguments.find(name);
  for (int i = 0; i < fn.signature().input_arg_size(); ++i) {
    if (fn.signature().input_arg(i).type() != tensorflow::DT_RESOURCE) continue;
    const int* node = nullptr;
    if (captured != model.arguments.end()) {
      auto id = captured->second.find(i);
      if (id != captured->second.end()) node = &id->second;
    }
    if (node == nullptr || !model.variables.count(*node)) {
      throw NotFoundError("agc cannot tell which saved variable argument " + std::to_string(i) + " of " + name +
                          " holds");
    }
    out.push_back(Variable::create(model.variables.at(*node), fn.signature().input_arg(i).name()));
  }
  return out;
}

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
  if (op->tpu.quantization == QuantRole::FakeQuant) {
    // A QAT model's fake-quantized weights: the op run on its known inputs.
    std::vector<Tensor> inputs;
    for (const std::string& in : n->input()) {
      if (is_control(in)) continue;
      std::optional<Tensor> v = constant_of(f, in, model);
      if (!v) return std::nullopt;
      inputs.push_back(std::move(*v));
    }
    return run_op(*op, inputs, attrs_of(*n)).at(0);
  }
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

Targets find_targets(const tensorflow::MetaGraphDef& meta, const std::set<std::string>& functions,
                     const ModelValues& model, const std::map<std::string, std::vector<Shape>>& input_shapes,
                     bool fuse) {
  Targets out;
  for (const FunctionDef& f : meta.graph_def().library().function()) {
    if (!functions.count(f.signature().name())) continue;
    for (const NodeDef& n : f.node_def()) {
      const QuantRole kind = role_of(n);
      const bool conv = kind == QuantRole::Conv || kind == QuantRole::DepthwiseConv;
      const bool product = kind == QuantRole::Dot || conv;
      if (!(product || kind == QuantRole::Gather) || n.input_size() < 2) continue;
      if (!attr_is(n, product ? "T" : "Tparams", DType::Float32)) continue;
      Target t;
      t.kind = kind;
      t.function = f.signature().name();
      t.node = n.name();
      t.output = output_ref(n);
      const std::string why = kind == QuantRole::Dot ? dot_target(f, n, model, input_shapes, t)
                              : conv ? conv_target(f, n, model, input_shapes, kind == QuantRole::DepthwiseConv, t)
                                     : gather_target(f, n, model, t);
      if (!why.empty()) {
        out.left_float.push_back(t.id() + " (" + n.op() + "): " + why);
        continue;
      }
      if (!t.weight.defined()) continue;  // no operand the conversion knows: nothing to quantize
      if (fuse && product) fuse_after(f, model, t);
      out.quantized.push_back(std::move(t));
    }
  }
  return out;
}

namespace {

/// The fake quantization `ref` comes from, through identities, or null.
const NodeDef* fake_quant_producing(const FunctionDef& f, const std::string& ref) {
  if (is_arg(ref) || is_control(ref)) return nullptr;
  const NodeDef* n = find_node(f, node_of(ref));
  const OpDef* op = n == nullptr ? nullptr : op_of(*n);
  if (op == nullptr) return nullptr;
  if (op->tpu.quantization == QuantRole::FakeQuant) return n;
  return op->role() == OpRole::Identity && n->input_size() > 0 ? fake_quant_producing(f, n->input(0)) : nullptr;
}

/// The range a fake quantization learned, when it is int8's grid (8 bits,
/// not narrow) and the conversion knows it (attrs, or constant inputs).
std::optional<std::pair<float, float>> fake_quant_range(const FunctionDef& f, const NodeDef& n, const ModelValues& model) {
  const Attrs a = attrs_of(n);
  if (a.get_or<int64_t>("num_bits", 8) != 8 || a.get_or<bool>("narrow_range", false)) return std::nullopt;
  if (n.input_size() < 3) {
    return std::pair{static_cast<float>(a.get_or<double>("min", -6.0)), static_cast<float>(a.get_or<double>("max", 6.0))};
  }
  std::optional<Tensor> lo = constant_of(f, n.input(1), model), hi = constant_of(f, n.input(2), model);
  if (!lo || !hi || lo->num_elements() != 1 || hi->num_elements() != 1) return std::nullopt;
  return std::pair{lo->data<float>()[0], hi->data<float>()[0]};
}

}  // namespace

bool has_fake_quant(const tensorflow::MetaGraphDef& meta, const std::set<std::string>& functions) {
  for (const FunctionDef& f : meta.graph_def().library().function()) {
    if (!functions.count(f.signature().name())) continue;
    for (const NodeDef& n : f.node_def()) {
      if (role_of(n) == QuantRole::FakeQuant) return true;
    }
  }
  return false;
}

std::optional<TrainedRanges> fold_trained_ranges(const tensorflow::MetaGraphDef& meta, Target& t, const ModelValues& model) {
  const FunctionDef* fn = find_function(meta, t.function);
  if (fn == nullptr) return std::nullopt;
  const FunctionDef& f = *fn;
  const NodeDef* n = find_node(f, t.node);
  const NodeDef* in = n == nullptr ? nullptr : fake_quant_producing(f, n->input(0));
  const NodeDef* out = sole_reader(f, t.output);
  if (in == nullptr || out == nullptr || role_of(*out) != QuantRole::FakeQuant || out->input(0) != t.output) {
    return std::nullopt;
  }
  std::optional<std::pair<float, float>> in_range = fake_quant_range(f, *in, model);
  std::optional<std::pair<float, float>> out_range = fake_quant_range(f, *out, model);
  if (!in_range || !out_range) return std::nullopt;
  t.fused.push_back(out->name());
  t.output = output_ref(*out);
  return TrainedRanges{*in_range, *out_range};
}

std::map<std::string, std::vector<Shape>> node_input_shapes(const tensorflow::MetaGraphDef& meta,
                                                            const std::vector<std::string>& signature_functions,
                                                            const ModelValues& model) {
  std::map<std::string, std::vector<Shape>> out;
  FunctionDefReader reader(std::make_shared<tensorflow::FunctionDefLibrary>(meta.graph_def().library()));
  for (const std::string& fn : signature_functions) {
    const FunctionDef* def = reader.find(fn);
    if (def == nullptr) continue;
    try {
      std::vector<std::shared_ptr<Variable>> vars = bound_variables(*def, model);
      std::vector<int64_t> ids;
      for (const auto& v : vars) ids.push_back(v->id());
      collect_shapes(*reader.read(fn, ids), fn, out);
    } catch (const Error&) {
      // An op agc lacks, or a variable it cannot place: no shapes from here.
    }
  }
  return out;
}

}  // namespace ag::tpu

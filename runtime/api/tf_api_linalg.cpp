// tf.tensordot and tf.einsum as compositions of registered ops (Transpose,
// Reshape, MatMul/BatchMatMulV2, Sum, Mul), as TF's Python tensordot does and
// as TF's Einsum kernel lowers its equations: going through apply_op, they run
// eagerly or trace into the current graph like every other ag::tf function.
#include <algorithm>
#include <string>
#include <vector>

#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/value/convert.h"

namespace ag::tf {
namespace {

using namespace common;

bool is_identity(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

TensorHandle transpose_unless_identity(const TensorHandle& x, const std::vector<int64_t>& perm,
                                       const std::string& name) {
  if (is_identity(perm)) return x;
  return apply(op::Transpose, {x, int32_vector(perm)}, name);
}

/// One dim of a reshape target: the product of some dims of some tensors
/// (none: 1). Kept symbolic so unknown dims can come from the runtime shape.
struct DimProduct {
  std::vector<std::pair<TensorHandle, int>> factors;

  int64_t static_value() const {
    int64_t p = 1;
    for (const auto& [t, axis] : factors) {
      int64_t d = t.shape().dim(axis);
      if (d == kUnknownDim) return kUnknownDim;
      p *= d;
    }
    return p;
  }
};

// Reshape to `dims` unless x has that static shape already. A target with one
// unknown dim uses -1; with more, the dims come from Shape/GatherV2/Prod at
// run time (TF's tensordot builds its dynamic shapes the same way).
TensorHandle reshape_to(const TensorHandle& x, const std::vector<DimProduct>& dims, const std::string& scope,
                        std::string name = {}) {
  if (name.empty()) name = scope + "/Reshape";
  std::vector<int64_t> target;
  int unknown = 0;
  for (const DimProduct& d : dims) {
    target.push_back(d.static_value());
    unknown += target.back() == kUnknownDim;
  }
  const Shape& s = x.shape();
  if (unknown == 0 && s.fully_defined() && std::equal(target.begin(), target.end(), s.dims().begin(), s.dims().end())) {
    return x;
  }
  if (unknown <= 1) return apply(op::Reshape, {x, int32_vector(target)}, name);
  std::vector<TensorHandle> parts;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (target[i] != kUnknownDim) {
      parts.push_back(int32_vector({target[i]}));
      continue;
    }
    std::vector<TensorHandle> factors;
    for (const auto& [t, axis] : dims[i].factors) {
      TensorHandle shape = apply(op::Shape, {t}, scope + "/Shape", Attrs{{"out_type", DType::Int32}});
      factors.push_back(apply(op::GatherV2, {shape, int32_vector({axis}), TensorHandle(Tensor::scalar<int32_t>(0))},
                              scope + "/GatherV2", Attrs{{"batch_dims", int64_t{0}}}));
    }
    TensorHandle p = factors[0];
    for (size_t f = 1; f < factors.size(); ++f) p = apply(op::Mul, {p, factors[f]}, scope + "/mul");
    parts.push_back(p);
  }
  int64_t n = static_cast<int64_t>(parts.size());
  parts.push_back(TensorHandle(Tensor::scalar<int32_t>(0)));
  TensorHandle shape = apply(op::ConcatV2, std::move(parts), scope + "/concat", Attrs{{"N", n}});
  return apply(op::Reshape, {x, shape}, name);
}

DimProduct dims_of(const TensorHandle& t, const std::vector<int64_t>& axes) {
  DimProduct d;
  for (int64_t a : axes) d.factors.emplace_back(t, static_cast<int>(a));
  return d;
}

// ---- tf.tensordot

std::vector<int64_t> tensordot_axis_list(const Value& v) {
  if (v.is_int()) return {v.as_int()};
  if (v.is_tensor()) throw UnimplementedError("tf.tensordot with tensor axes is not supported; pass Python ints");
  if (!v.is_list() && !v.is_tuple()) throw TypeError("object of type '" + v.type_name() + "' has no len()");
  std::vector<int64_t> out;
  for (const Value& i : v.items()) out.push_back(i.as_int());
  return out;
}

// math_ops._tensordot_axes: the contraction axes of a and of b.
std::pair<std::vector<int64_t>, std::vector<int64_t>> tensordot_axes(const TensorHandle& a, const Value& axes) {
  if (axes.is_int()) {
    int64_t n = axes.as_int();
    if (n < 0) throw ValueError("`axes` must be at least 0. Received: " + std::to_string(n) + ".");
    if (!a.shape().rank_known()) throw UnimplementedError("tf.tensordot with an int `axes` needs `a` of known rank");
    int64_t r = a.shape().rank();
    if (n > r) {
      throw ValueError("`axes` must not be larger than the number of dimensions of tensor " + str(Value(a)) +
                       ".  Received " + std::to_string(n) + ", vs tensor dimensions " + std::to_string(r) + ".");
    }
    std::vector<int64_t> aa, bb;
    for (int64_t i = r - n; i < r; ++i) aa.push_back(i);
    for (int64_t i = 0; i < n; ++i) bb.push_back(i);
    return {aa, bb};
  }
  if (axes.is_list() || axes.is_tuple()) {
    if (axes.items().size() != 2) {
      throw ValueError("`axes` must be an integer or have length 2. Received " + str(axes) + ".");
    }
    const Value& av = axes.items()[0];
    const Value& bv = axes.items()[1];
    std::vector<int64_t> aa, bb;
    if (av.is_int() && bv.is_int()) {
      aa = {av.as_int()};
      bb = {bv.as_int()};
    } else {
      if (av.is_int()) throw TypeError("object of type 'int' has no len()");
      aa = tensordot_axis_list(av);
      bb = tensordot_axis_list(bv);
    }
    if (aa.size() != bb.size()) {
      throw ValueError("Different number of contraction axes `a` and `b`, " + std::to_string(aa.size()) +
                       " != " + std::to_string(bb.size()) + ".");
    }
    return {aa, bb};
  }
  if (axes.is_tensor()) throw UnimplementedError("tf.tensordot with a tensor `axes` is not supported; pass Python ints");
  throw TypeError("tf.tensordot: `axes` must be an int or a pair of lists of ints, got " + repr(axes));
}

struct Flattened {
  TensorHandle matrix;
  TensorHandle transposed;            // the operand with its axes in matrix order
  std::vector<int64_t> free_axes;     // free axes of `transposed`
};

// math_ops._tensordot_reshape: `a` as a matrix [free, axes] ([axes, free] when flipped).
Flattened tensordot_reshape(const TensorHandle& a, std::vector<int64_t> axes, bool flipped) {
  const Shape& s = a.shape();
  if (!s.rank_known()) throw UnimplementedError("tf.tensordot needs operands of known rank");
  int64_t r = s.rank();
  for (int64_t& i : axes) {
    if (i < 0) i += r;
    if (i < 0 || i >= r) throw IndexError("list index out of range");
  }
  std::vector<int64_t> free;
  for (int64_t i = 0; i < r; ++i) {
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) free.push_back(i);
  }
  std::vector<int64_t> perm = flipped ? axes : free;
  const std::vector<int64_t>& rest = flipped ? free : axes;
  perm.insert(perm.end(), rest.begin(), rest.end());
  TensorHandle t = transpose_unless_identity(a, perm, "Tensordot/transpose");
  // In `t`, the free axes come first (or last when flipped).
  int64_t nf = static_cast<int64_t>(free.size()), na = static_cast<int64_t>(axes.size());
  std::vector<int64_t> t_free, t_axes;
  for (int64_t i = 0; i < nf; ++i) t_free.push_back(flipped ? na + i : i);
  for (int64_t i = 0; i < na; ++i) t_axes.push_back(flipped ? i : nf + i);
  std::vector<DimProduct> target = flipped ? std::vector<DimProduct>{dims_of(t, t_axes), dims_of(t, t_free)}
                                           : std::vector<DimProduct>{dims_of(t, t_free), dims_of(t, t_axes)};
  return {reshape_to(t, target, "Tensordot"), t, t_free};
}

// ---- tf.einsum

struct Equation {
  std::vector<std::string> inputs;
  std::string output;
  std::string ellipsis;  // the labels standing for "..."'s dims
};

bool is_label(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// special_math_ops._einsum_v2_parse_and_resolve_equation: the operands'
// subscripts and the output's, an ellipsis ("...") replaced by labels of
// its own for the dims it stands for (aligned from the right, as the
// operands broadcast), an implicit output (no "->") spelled out: the
// ellipsis' labels, then the labels appearing once, sorted.
Equation parse_equation(const std::string& equation, const std::vector<TensorHandle>& in) {
  std::string eq;
  for (char c : equation) {
    if (c != ' ') eq += c;
  }
  // One '#' per "..." while checking the format.
  std::string marked;
  for (size_t i = 0; i < eq.size();) {
    if (eq.compare(i, 3, "...") == 0) {
      marked += '#';
      i += 3;
    } else {
      marked += eq[i++];
    }
  }
  size_t arrow = marked.find("->");
  std::string lhs = marked.substr(0, arrow);
  std::string rhs = arrow == std::string::npos ? std::string() : marked.substr(arrow + 2);
  auto ok_term = [](const std::string& t) {
    return std::all_of(t.begin(), t.end(), [](char c) { return is_label(c) || c == '#'; }) &&
           std::count(t.begin(), t.end(), '#') <= 1;
  };
  Equation e;
  size_t start = 0;
  for (;;) {
    size_t comma = lhs.find(',', start);
    e.inputs.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  bool ok = ok_term(rhs) && std::all_of(e.inputs.begin(), e.inputs.end(), ok_term);
  if (!ok) throw ValueError("Subscripts have incorrect format: " + eq);
  if (e.inputs.size() != in.size()) {
    throw ValueError("Got " + std::to_string(in.size()) + " inputs for equation \"" + equation + "\", expecting " +
                     std::to_string(e.inputs.size()));
  }
  // The ellipsis' labels: letters the equation does not use.
  size_t ellipsis = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const std::string& t = e.inputs[i];
    if (t.find('#') == std::string::npos) continue;
    if (!in[i].shape().rank_known()) throw UnimplementedError("tf.einsum needs operands of known rank");
    const int64_t named = static_cast<int64_t>(t.size()) - 1;
    if (in[i].shape().rank() < named) {
      throw InvalidArgumentError("Expected input " + std::to_string(i) + " to have rank at least " +
                                 std::to_string(named) + " but got: " + std::to_string(in[i].shape().rank()));
    }
    ellipsis = std::max(ellipsis, static_cast<size_t>(in[i].shape().rank() - named));
  }
  std::string fresh;
  for (char c : std::string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")) {
    if (fresh.size() < ellipsis && marked.find(c) == std::string::npos) fresh += c;
  }
  if (fresh.size() < ellipsis) throw UnimplementedError("tf.einsum: too many labels in equation '" + equation + "'");
  e.ellipsis = fresh;
  for (size_t i = 0; i < in.size(); ++i) {
    std::string& t = e.inputs[i];
    size_t at = t.find('#');
    if (at == std::string::npos) continue;
    const size_t dims = static_cast<size_t>(in[i].shape().rank()) - (t.size() - 1);
    t.replace(at, 1, fresh.substr(fresh.size() - dims));
  }
  if (arrow == std::string::npos) {
    // Implicit output: the ellipsis' labels, then the labels appearing once, sorted.
    std::string labels;
    for (const std::string& t : e.inputs) {
      for (char c : t) {
        if (fresh.find(c) == std::string::npos) labels += c;
      }
    }
    std::sort(labels.begin(), labels.end());
    e.output = fresh;
    for (size_t i = 0; i < labels.size();) {
      size_t j = i;
      while (j < labels.size() && labels[j] == labels[i]) ++j;
      if (j - i == 1) e.output += labels[i];
      i = j;
    }
  } else {
    e.output = rhs;
    size_t at = e.output.find('#');
    if (at != std::string::npos) e.output.replace(at, 1, fresh);
  }
  std::string all;
  for (const std::string& t : e.inputs) all += t;
  for (size_t i = 0; i < e.output.size(); ++i) {
    if (e.output.find(e.output[i], i + 1) != std::string::npos) {
      throw ValueError("Output subscripts contain a label appearing more than once: " + equation);
    }
    if (all.find(e.output[i]) == std::string::npos) {
      throw ValueError(std::string("Output subscripts contain the label ") + e.output[i] +
                       " not present in the input subscripts.");
    }
  }
  return e;
}

/// The operands broadcast along the dims an ellipsis stands for, where one
/// has size 1 and another more (TF's einsum broadcasts those, and only those).
void broadcast_operands(const Equation& e, std::vector<TensorHandle>& in) {
  std::vector<std::pair<char, int64_t>> sizes;
  for (size_t i = 0; i < in.size(); ++i) {
    for (size_t k = 0; k < e.inputs[i].size() && in[i].shape().rank_known(); ++k) {
      if (e.ellipsis.find(e.inputs[i][k]) == std::string::npos) continue;
      const int64_t d = in[i].shape().dim(static_cast<int>(k));
      auto it = std::find_if(sizes.begin(), sizes.end(), [&](const auto& p) { return p.first == e.inputs[i][k]; });
      if (it == sizes.end()) sizes.emplace_back(e.inputs[i][k], d);
      else if (it->second == 1 || it->second == kUnknownDim) it->second = d;
    }
  }
  for (size_t i = 0; i < in.size(); ++i) {
    const Shape& s = in[i].shape();
    if (!s.fully_defined()) continue;
    std::vector<int64_t> target;
    bool differs = false;
    for (size_t k = 0; k < e.inputs[i].size(); ++k) {
      auto it = std::find_if(sizes.begin(), sizes.end(), [&](const auto& p) { return p.first == e.inputs[i][k]; });
      const int64_t want = it == sizes.end() ? kUnknownDim : it->second;
      const int64_t d = s.dim(static_cast<int>(k));
      differs = differs || (d == 1 && want > 1);
      target.push_back(d == 1 && want > 1 ? want : d);
    }
    if (differs) in[i] = apply(op::BroadcastTo, {in[i], int32_vector(target)}, "einsum/BroadcastTo");
  }
}

/// An operand whose subscripts name a label twice (a trace or a diagonal):
/// the two axes moved last and replaced by their diagonal, until every label
/// is named once.
TensorHandle take_diagonals(TensorHandle x, std::string& labels) {
  for (;;) {
    size_t first = std::string::npos, second = std::string::npos;
    for (size_t i = 0; i < labels.size() && first == std::string::npos; ++i) {
      size_t j = labels.find(labels[i], i + 1);
      if (j != std::string::npos) first = i, second = j;
    }
    if (first == std::string::npos) return x;
    std::vector<int64_t> perm;
    std::string rest;
    for (size_t i = 0; i < labels.size(); ++i) {
      if (i != first && i != second) {
        perm.push_back(static_cast<int64_t>(i));
        rest += labels[i];
      }
    }
    perm.push_back(static_cast<int64_t>(first));
    perm.push_back(static_cast<int64_t>(second));
    x = transpose_unless_identity(x, perm, "einsum/transpose");
    Tensor zero = Tensor::zeros(x.dtype(), Shape{});
    x = apply(op::MatrixDiagPartV3, {x, int32_vector({0}), TensorHandle(zero)}, "einsum/MatrixDiagPartV3",
              Attrs{{"align", std::string("RIGHT_LEFT")}});
    labels = rest + labels[first];
  }
}

// The Einsum kernel's checks: ranks, and one size per label.
void check_operands(const Equation& e, const std::vector<TensorHandle>& in) {
  std::vector<std::pair<char, int64_t>> sizes;
  for (size_t i = 0; i < in.size(); ++i) {
    const Shape& s = in[i].shape();
    const std::string& labels = e.inputs[i];
    if (!s.rank_known()) throw UnimplementedError("tf.einsum needs operands of known rank");
    if (s.rank() != static_cast<int>(labels.size())) {
      throw InvalidArgumentError("Expected input " + std::to_string(i) + " to have rank " +
                                 std::to_string(labels.size()) + " but got: " + std::to_string(s.rank()));
    }
    for (int axis = 0; axis < s.rank(); ++axis) {
      int64_t d = s.dim(axis);
      if (d == kUnknownDim) continue;
      auto it = std::find_if(sizes.begin(), sizes.end(), [&](const auto& p) { return p.first == labels[axis]; });
      if (it == sizes.end()) {
        sizes.emplace_back(labels[axis], d);
      } else if (it->second != 0 && it->second != d) {
        throw InvalidArgumentError("Expected dimension " + std::to_string(it->second) + " at axis " +
                                   std::to_string(axis) + " of the input shaped " + s.debug_string() +
                                   " but got dimension " + std::to_string(d));
      } else {
        it->second = d;
      }
    }
  }
}

bool has(const std::string& s, char c) { return s.find(c) != std::string::npos; }

// Sums `x` (labelled `labels`) over the labels `keep` lacks; updates `labels`.
TensorHandle reduce_missing(const TensorHandle& x, std::string& labels, const std::string& keep_a,
                            const std::string& keep_b) {
  std::vector<int64_t> axes;
  std::string kept;
  for (size_t i = 0; i < labels.size(); ++i) {
    if (has(keep_a, labels[i]) || has(keep_b, labels[i])) {
      kept += labels[i];
    } else {
      axes.push_back(static_cast<int64_t>(i));
    }
  }
  if (axes.empty()) return x;
  labels = kept;
  return apply(op::Sum, {x, int32_vector(axes)}, "einsum/Sum", Attrs{{"keep_dims", false}});
}

// `x` labelled `from`, transposed to the order of `to` (a permutation of `from`).
TensorHandle permute(const TensorHandle& x, const std::string& from, const std::string& to) {
  std::vector<int64_t> perm;
  for (char c : to) perm.push_back(static_cast<int64_t>(from.find(c)));
  return transpose_unless_identity(x, perm, "einsum/transpose");
}

// The labels of `s` in the order they have in `order`.
std::string ordered_as(const std::string& s, const std::string& order) {
  std::string out;
  for (char c : order) {
    if (has(s, c)) out += c;
  }
  return out;
}

TensorHandle einsum1(const Equation& e, const TensorHandle& x) {
  std::string labels = e.inputs[0];
  TensorHandle t = reduce_missing(x, labels, e.output, "");
  if (labels == e.inputs[0] && labels == e.output) return apply(op::Identity, {x}, "einsum/Identity");
  return permute(t, labels, e.output);
}

// No contracted label: a broadcasting product, each operand laid out in the
// output's order with size-1 dims for the labels it lacks.
TensorHandle einsum_product(const std::string& out, TensorHandle a, const std::string& la, TensorHandle b,
                            const std::string& lb) {
  auto expand = [&](TensorHandle t, const std::string& labels) {
    std::string order = ordered_as(labels, out);
    t = permute(t, labels, order);
    if (order.size() == out.size()) return t;
    std::vector<DimProduct> dims;
    for (char c : out) dims.push_back(has(order, c) ? dims_of(t, {static_cast<int64_t>(order.find(c))}) : DimProduct{});
    return reshape_to(t, dims, "einsum");
  };
  return apply(op::Mul, {expand(a, la), expand(b, lb)}, "einsum/Mul");
}

TensorHandle einsum2(const Equation& e, const TensorHandle& a0, const TensorHandle& b0) {
  std::string la = e.inputs[0], lb = e.inputs[1];
  const std::string& out = e.output;
  // Labels in one operand only and not in the output are summed first.
  TensorHandle a = reduce_missing(a0, la, out, lb);
  TensorHandle b = reduce_missing(b0, lb, out, la);
  std::string batch, contract, free_a, free_b;
  for (char c : out) {
    if (has(la, c) && has(lb, c)) batch += c;
    else if (has(la, c)) free_a += c;
    else free_b += c;
  }
  for (char c : la) {
    if (has(lb, c) && !has(out, c)) contract += c;
  }
  if (contract.empty()) return einsum_product(out, a, la, b, lb);

  // a as [batch..., free_a, contract], b as [batch..., contract, free_b].
  TensorHandle ta = permute(a, la, batch + free_a + contract);
  TensorHandle tb = permute(b, lb, batch + contract + free_b);
  auto range = [](size_t from, size_t n) {
    std::vector<int64_t> r;
    for (size_t i = 0; i < n; ++i) r.push_back(static_cast<int64_t>(from + i));
    return r;
  };
  size_t nb = batch.size(), nfa = free_a.size(), nfb = free_b.size(), nc = contract.size();
  std::vector<DimProduct> shape_a, shape_b;
  for (size_t i = 0; i < nb; ++i) {
    shape_a.push_back(dims_of(ta, {static_cast<int64_t>(i)}));
    shape_b.push_back(dims_of(tb, {static_cast<int64_t>(i)}));
  }
  shape_a.push_back(dims_of(ta, range(nb, nfa)));
  shape_a.push_back(dims_of(ta, range(nb + nfa, nc)));
  shape_b.push_back(dims_of(tb, range(nb, nc)));
  shape_b.push_back(dims_of(tb, range(nb + nc, nfb)));
  TensorHandle ma = reshape_to(ta, shape_a, "einsum");
  TensorHandle mb = reshape_to(tb, shape_b, "einsum");
  TensorHandle product = nb == 0 ? apply(op::MatMul, {ma, mb}, "einsum/MatMul",
                                         Attrs{{"transpose_a", false}, {"transpose_b", false}})
                                 : apply(op::BatchMatMulV2, {ma, mb}, "einsum/MatMul",
                                         Attrs{{"adj_x", false}, {"adj_y", false}});
  // [batch..., M, N] back to [batch..., free_a..., free_b...], then the output's order.
  std::vector<DimProduct> shape_out;
  for (size_t i = 0; i < nb + nfa; ++i) shape_out.push_back(dims_of(ta, {static_cast<int64_t>(i)}));
  for (size_t i = 0; i < nfb; ++i) shape_out.push_back(dims_of(tb, {static_cast<int64_t>(nb + nc + i)}));
  TensorHandle result = reshape_to(product, shape_out, "einsum");
  return permute(result, batch + free_a + free_b, out);
}

}  // namespace

Value tensordot(const Value& a, const Value& b, const Value& axes) {
  TensorHandle ta = to_tensor(a);
  TensorHandle tb = to_tensor(b);
  auto [a_axes, b_axes] = tensordot_axes(ta, axes);
  Flattened fa = tensordot_reshape(ta, a_axes, false);
  Flattened fb = tensordot_reshape(tb, b_axes, true);
  TensorHandle product =
      apply(op::MatMul, {fa.matrix, fb.matrix}, "Tensordot/MatMul", Attrs{{"transpose_a", false}, {"transpose_b", false}});
  std::vector<DimProduct> out;
  for (int64_t i : fa.free_axes) out.push_back(dims_of(fa.transposed, {i}));
  for (int64_t i : fb.free_axes) out.push_back(dims_of(fb.transposed, {i}));
  std::vector<int64_t> target;
  for (const DimProduct& d : out) target.push_back(d.static_value());
  const Shape& ps = product.shape();
  if (ps.fully_defined() && std::equal(target.begin(), target.end(), ps.dims().begin(), ps.dims().end())) {
    return Value(product);
  }
  return Value(reshape_to(product, out, "Tensordot", "Tensordot"));
}

Value einsum(const std::string& equation, const std::vector<Value>& inputs) {
  std::vector<TensorHandle> in;
  std::optional<DType> dt;
  for (const Value& v : inputs) {
    if (v.is_tensor() && !dt) dt = v.as_tensor().dtype();
  }
  for (const Value& v : inputs) in.push_back(v.is_tensor() ? v.as_tensor() : to_tensor(v, dt));
  Equation e = parse_equation(equation, in);
  broadcast_operands(e, in);
  check_operands(e, in);
  for (size_t i = 0; i < in.size(); ++i) in[i] = take_diagonals(in[i], e.inputs[i]);
  if (in.size() == 1) return Value(einsum1(e, in[0]));
  // Contracted left to right: each step keeps the labels the output or a
  // later operand still names.
  TensorHandle acc = in[0];
  std::string labels = e.inputs[0];
  for (size_t i = 1; i < in.size(); ++i) {
    std::string later = e.output;
    for (size_t j = i + 1; j < in.size(); ++j) later += e.inputs[j];
    std::string keep;
    if (i + 1 == in.size()) {
      keep = e.output;
    } else {
      for (char c : labels + e.inputs[i]) {
        if (has(later, c) && !has(keep, c)) keep += c;
      }
    }
    acc = einsum2(Equation{{labels, e.inputs[i]}, keep, {}}, acc, in[i]);
    labels = keep;
  }
  return Value(acc);
}

Value einsum(const std::string& equation, const Value& a) { return einsum(equation, std::vector<Value>{a}); }
Value einsum(const std::string& equation, const Value& a, const Value& b) {
  return einsum(equation, std::vector<Value>{a, b});
}

}  // namespace ag::tf

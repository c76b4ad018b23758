#include "runtime/graph/gradients.h"

#include <unordered_map>
#include <unordered_set>

#include "runtime/core/error.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

using KeySet = std::unordered_set<TensorKey, TensorKeyHash>;

[[noreturn]] void no_gradient(const TapeEntry& e) {
  throw LookupError("No gradient defined for operation '" + e.name + "' (op type: " + e.op->name +
                    "). In general every operation must have an associated `@tf.RegisterGradient` for correct "
                    "autodiff, which this op is lacking. If you want to pretend this operation is a constant in "
                    "your program, you may insert `tf.stop_gradient`. This can be useful to silence the error in "
                    "cases where you know gradients are not needed, e.g. the forward pass of tf.custom_gradient. "
                    "Please see more details in https://www.tensorflow.org/api_docs/python/tf/custom_gradient.");
}

}  // namespace

TapeGradContext::TapeGradContext(const TapeEntry& e, std::vector<std::optional<TensorHandle>> grads,
                                 std::vector<bool> needed)
    : e_(e), grads_(std::move(grads)), needed_(std::move(needed)) {
  for (const TensorHandle& t : e.inputs) wrap(t);
  for (const TensorHandle& t : e.outputs) wrap(t);
  grad_ids_.assign(e.outputs.size(), -1);
}

GradTensor TapeGradContext::grad(int i) {
  if (grad_ids_[i] < 0) grad_ids_[i] = grads_[i] ? wrap(*grads_[i]).id : zeros_like(output(i)).id;
  return {grad_ids_[i]};
}

const Tensor* TapeGradContext::value(GradTensor t) const {
  const TensorHandle& h = table_.at(t.id);
  if (!h.symbolic()) return &h.value();
  return Graph::constant_value(h.output());
}

std::vector<GradTensor> TapeGradContext::apply(OpType op, std::span<const GradTensor> inputs, const Attrs& attrs) {
  std::vector<TensorHandle> in;
  in.reserve(inputs.size());
  for (GradTensor t : inputs) in.push_back(table_.at(t.id));
  std::vector<GradTensor> out;
  for (TensorHandle& h : apply_op(op, in, attrs)) out.push_back(wrap(std::move(h)));
  return out;
}

GradTensor TapeGradContext::wrap(TensorHandle h) {
  specs_.push_back(TensorSpec{h.dtype(), h.shape()});
  table_.push_back(std::move(h));
  return {static_cast<int32_t>(table_.size() - 1)};
}

TensorHandle add_all(std::span<const TensorHandle> terms) {
  // Lists (a TensorList's gradient) add elementwise, which AddN does.
  if (terms.size() > 1 && terms[0].dtype() == DType::Variant) return apply_op1(op::AddN, terms, {}, "AddN");
  TensorHandle sum = terms[0];
  for (size_t i = 1; i < terms.size(); ++i) {
    TensorHandle pair[] = {sum, terms[i]};
    sum = apply_op1(op::AddV2, pair, {}, "add");
  }
  return sum;
}

std::vector<std::optional<TensorHandle>> compute_gradient(std::span<const TapeEntry> entries,
                                                          std::span<const TensorHandle> targets,
                                                          std::span<const std::optional<TensorHandle>> seeds,
                                                          std::span<const GradientSource> sources) {
  // Which tensors depend on a source: only their gradients are wanted.
  KeySet source_keys;
  for (const GradientSource& s : sources) source_keys.insert(s.key);
  KeySet depends = source_keys;
  for (const TapeEntry& e : entries) {
    bool any = false;
    for (const TensorKey& k : e.input_keys) any = any || depends.count(k);
    if (any) {
      for (const TensorHandle& o : e.outputs) depends.insert(key_of(o));
    }
  }

  // Gradients waiting to be summed, per tensor, in arrival order.
  std::unordered_map<TensorKey, std::vector<TensorHandle>, TensorKeyHash> pending;
  for (size_t i = 0; i < targets.size(); ++i) {
    const TensorHandle& t = targets[i];
    if (!is_trainable_dtype(t.dtype())) continue;  // an int or string target: no gradient (TF: vlog only)
    TensorHandle seed = seeds[i] ? *seeds[i] : apply_op1(op::OnesLike, std::span<const TensorHandle>(&t, 1), {}, "ones_like");
    pending[key_of(t)].push_back(std::move(seed));
  }

  std::unordered_map<TensorKey, TensorHandle, TensorKeyHash> result;
  auto take = [&](const TensorKey& k) -> std::optional<TensorHandle> {
    auto it = pending.find(k);
    if (it == pending.end()) return std::nullopt;
    TensorHandle sum = add_all(it->second);
    pending.erase(it);
    if (source_keys.count(k)) result.emplace(k, sum);
    return sum;
  };

  for (size_t idx = entries.size(); idx-- > 0;) {
    const TapeEntry& e = entries[idx];
    std::vector<std::optional<TensorHandle>> out_grads;
    bool any = false;
    for (const TensorHandle& o : e.outputs) {
      out_grads.push_back(take(key_of(o)));
      any = any || out_grads.back().has_value();
    }
    if (!any) continue;
    std::vector<bool> needed;
    bool any_needed = false;
    for (size_t i = 0; i < e.input_keys.size(); ++i) {
      needed.push_back(depends.count(e.input_keys[i]) != 0 && is_trainable_dtype(e.input_dtypes[i]));
      any_needed = any_needed || needed.back();
    }
    if (!any_needed) continue;

    std::vector<std::optional<TensorHandle>> in_grads;
    if (e.op == nullptr) {
      in_grads = e.backward(out_grads);
    } else {
      switch (e.op->gradient.kind) {
        case GradientDecision::Kind::Function: break;
        case GradientDecision::Kind::NotDifferentiable: continue;
        case GradientDecision::Kind::Unimplemented:
        case GradientDecision::Kind::Unset: no_gradient(e);
      }
      TapeGradContext c(e, std::move(out_grads), needed);
      for (GradTensor t : e.op->gradient.fn(c)) {
        in_grads.push_back(t ? std::optional<TensorHandle>(c.handle(t)) : std::nullopt);
      }
    }
    if (in_grads.size() != e.input_keys.size()) {
      throw InternalError("Recorded operation '" + e.name + "' returned too " +
                          (in_grads.size() < e.input_keys.size() ? "few" : "many") + " gradients. Expected " +
                          std::to_string(e.input_keys.size()) + " but received " + std::to_string(in_grads.size()));
    }
    for (size_t i = 0; i < in_grads.size(); ++i) {
      if (in_grads[i] && needed[i]) pending[e.input_keys[i]].push_back(std::move(*in_grads[i]));
    }
  }

  std::vector<std::optional<TensorHandle>> out;
  out.reserve(sources.size());
  for (const GradientSource& s : sources) {
    if (auto it = result.find(s.key); it != result.end()) {
      out.emplace_back(it->second);
    } else if (auto p = pending.find(s.key); p != pending.end()) {
      out.emplace_back(add_all(p->second));
    } else {
      out.emplace_back(std::nullopt);
    }
  }
  return out;
}

}  // namespace ag

namespace ag {

GraphGradient differentiate_graph(const Graph& g, std::span<const std::optional<TensorHandle>> seeds) {
  std::vector<TapeEntry> entries;
  for (const auto& n : g.nodes()) {
    OpRole role = n->op->role();
    if (role != OpRole::Argument && role != OpRole::Constant) entries.push_back(entry_of(*n));
  }
  std::vector<TensorHandle> targets;
  std::vector<std::optional<TensorHandle>> target_seeds;
  for (size_t i = 0; i < seeds.size(); ++i) {
    if (!seeds[i]) continue;
    targets.emplace_back(g.outputs()[i]);
    target_seeds.push_back(seeds[i]);
  }
  // Counted now: building the gradient may give `g` more arguments (a
  // loop's accumulators), which are not sources.
  const size_t n = g.num_args(), c = g.captures().size();
  std::vector<GradientSource> sources;
  for (const Node* p : g.inputs()) sources.push_back({TensorKey{p, 0}, p->outputs[0]});
  auto variables = variables_read(g);
  for (auto [id, dtype] : variables) sources.push_back({variable_key(id), TensorSpec{dtype, Shape::unknown_rank()}});
  std::vector<std::optional<TensorHandle>> all = compute_gradient(entries, targets, target_seeds, sources);
  GraphGradient out;
  out.args.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
  out.captures.assign(all.begin() + static_cast<std::ptrdiff_t>(n), all.begin() + static_cast<std::ptrdiff_t>(n + c));
  out.variables.assign(all.begin() + static_cast<std::ptrdiff_t>(n + c), all.end());
  return out;
}

}  // namespace ag

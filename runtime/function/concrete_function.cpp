#include "runtime/function/concrete_function.h"

#include <atomic>
#include <cctype>

#include "runtime/function/structure.h"
#include "runtime/function/taped_call.h"
#include "runtime/graph/control_flow.h"
#include "runtime/graph/tape.h"
#include "runtime/value/composite_tensor.h"
#include "runtime/value/tensor_spec_value.h"

namespace ag {
namespace {

std::atomic<int64_t> g_function_uid{1};

std::string header(const std::string& name, const std::vector<Param>& params, const std::vector<Value>& args,
                   bool with_literals) {
  std::string s = name + "(";
  for (size_t i = 0; i < params.size(); ++i) {
    if (i > 0) s += ", ";
    s += params[i].name;
    if (with_literals && i < args.size() && !args[i].is_tensor() && !tensor_spec_of(args[i]) &&
        (args[i].is_number() || args[i].is_str() || args[i].is_none())) {
      s += "=" + repr(args[i]);
    }
  }
  return s + ")";
}

}  // namespace

std::string describe_literal(const Value& v) { return v.type_name() + " value " + repr(v); }

std::string describe_tensor_spec(const TensorSpec& spec) {
  return std::string(dtype_name(spec.dtype)) + " Tensor, shape=" + spec.shape.str();
}

namespace {

/// repr of the TypeSpec of the composite `v` (traced or given).
std::string composite_spec_repr(const Value& v) {
  return type_spec_repr(*type_spec_state(composite_state(v)->type_spec()));
}

}  // namespace

ConcreteFunction::ConcreteFunction(std::string name, std::vector<Param> params, std::vector<Value> args,
                                   std::vector<TraceType> types, std::shared_ptr<Graph> graph, Value outputs,
                                   std::string inference_name)
    : name_(std::move(name)),
      inference_name_(inference_name.empty()
                          ? "__inference_" + name_ + "_" + std::to_string(g_function_uid.fetch_add(1))
                          : std::move(inference_name)),
      params_(std::move(params)),
      args_(std::move(args)),
      types_(std::move(types)),
      graph_(std::move(graph)),
      outputs_(std::move(outputs)) {
  executable_ = compile(*graph_);
}

void ConcreteFunction::flatten_tensor(const TensorHandle& traced, const TensorHandle& h,
                                      std::vector<const Tensor*>& tensors) const {
  if (h.symbolic()) throw InvalidArgumentError("calling a concrete function with a symbolic tensor is not supported");
  int index = static_cast<int>(tensors.size());
  if (h.dtype() != traced.dtype()) {
    throw InvalidArgumentError("cannot compute " + inference_name_ + " as input #" + std::to_string(index) +
                               "(zero-based) was expected to be a " + dtype_tf_string(traced.dtype()) +
                               " tensor but is a " + dtype_tf_string(h.dtype()) + " tensor [Op:" + inference_name_ +
                               "]");
  }
  if (!traced.shape().is_supertype_of(h.shape())) {
    throw InvalidArgumentError("cannot compute " + inference_name_ + " as input #" + std::to_string(index) +
                               "(zero-based) was expected to have shape " + traced.shape().str() + " but has shape " +
                               h.shape().str() + " [Op:" + inference_name_ + "]");
  }
  tensors.push_back(&h.value());
}

void ConcreteFunction::flatten_call(const Value& traced, const Value& given, const std::string& param,
                                    std::vector<const Tensor*>& tensors) const {
  if (traced.is_tensor()) {
    if (!given.is_tensor()) {
      throw TypeError("ConcreteFunction " + header(name_, params_, args_, false) + " was constructed with " +
                      describe_tensor_spec({traced.as_tensor().dtype(), traced.as_tensor().shape()}) + " in " +
                      param + ", but was called with " + describe_literal(given));
    }
    flatten_tensor(traced.as_tensor(), given.as_tensor(), tensors);
    return;
  }
  if (const CompositeState* traced_c = composite_state(traced)) {
    // A composite feeds its components, each checked as a tensor argument
    // (a RaggedTensor's flat values and row splits, in TF's component order).
    const CompositeState* given_c = composite_state(given);
    if (given_c == nullptr ||
        !same_spec_kind(*type_spec_state(given_c->type_spec()), *type_spec_state(traced_c->type_spec()))) {
      throw TypeError("ConcreteFunction " + header(name_, params_, args_, false) + " was constructed with " +
                      composite_spec_repr(traced) + " in " + param + ", but was called with " +
                      (given_c != nullptr ? composite_spec_repr(given) : describe_literal(given)));
    }
    std::vector<const TensorHandle*> want = traced_c->components();
    std::vector<const TensorHandle*> have = given_c->components();
    for (size_t i = 0; i < want.size(); ++i) flatten_tensor(*want[i], *have[i], tensors);
    return;
  }
  if (traced.is_list() || traced.is_tuple()) {
    if (!(given.is_list() || given.is_tuple()) || given.items().size() != traced.items().size()) {
      throw TypeError("ConcreteFunction " + header(name_, params_, args_, false) + " was constructed with " +
                      repr(traced) + " in " + param + ", but was called with " + repr(given));
    }
    for (size_t i = 0; i < traced.items().size(); ++i) {
      flatten_call(traced.items()[i], given.items()[i], param, tensors);
    }
    return;
  }
  if (traced.is_dict()) {
    if (!given.is_dict() || given.as_dict().size() != traced.as_dict().size()) {
      throw TypeError("ConcreteFunction " + header(name_, params_, args_, false) + " was constructed with " +
                      repr(traced) + " in " + param + ", but was called with " + repr(given));
    }
    for (const auto& [k, item] : traced.as_dict().entries) {
      flatten_call(item, given.as_dict().at(k), param, tensors);
    }
    return;
  }
  if (!TraceType::of(given).is_subtype_of(TraceType::of(traced))) {
    throw TypeError("ConcreteFunction " + header(name_, params_, args_, false) + " was constructed with " +
                    describe_literal(traced) + " in " + param + ", but was called with " + describe_literal(given));
  }
}

namespace {

/// The exact-type check behind matches_exactly (no allocation).
bool matches(const TraceType& t, const Value& v) {
  switch (t.kind()) {
    case TraceType::Kind::Tensor: {
      if (!v.is_tensor()) return false;
      const TensorHandle& h = v.as_tensor();
      return !h.symbolic() && h.value().dtype() == t.spec().dtype && h.value().shape() == t.spec().shape;
    }
    case TraceType::Kind::Literal:
      return !v.is_tensor() && !v.is_list() && !v.is_tuple() && !v.is_dict() && py_equal(t.literal(), v);
    case TraceType::Kind::Identity: return v.is(t.literal());
    case TraceType::Kind::List:
    case TraceType::Kind::Tuple: {
      if ((t.kind() == TraceType::Kind::List) != v.is_list() || !(v.is_list() || v.is_tuple())) return false;
      const auto& items = v.items();
      if (items.size() != t.children().size()) return false;
      for (size_t i = 0; i < items.size(); ++i) {
        if (!matches(t.children()[i], items[i])) return false;
      }
      return true;
    }
    case TraceType::Kind::Dict:
    case TraceType::Kind::Composite: return false;  // the slow path handles dicts and composites
  }
  return false;
}

/// The eager tensors of `given` in placeholder order (types already matched).
/// The tensors of `given` in flatten_call's order (`traced` gives the structure).
void collect_handles(const Value& traced, const Value& given, std::vector<TensorHandle>& out) {
  if (traced.is_tensor()) {
    out.push_back(given.as_tensor());
  } else if (composite_state(traced) != nullptr) {
    for (const TensorHandle* t : composite_state(given)->components()) out.push_back(*t);
  } else if (traced.is_list() || traced.is_tuple()) {
    for (size_t i = 0; i < traced.items().size(); ++i) collect_handles(traced.items()[i], given.items()[i], out);
  } else if (traced.is_dict()) {
    for (const auto& [k, item] : traced.as_dict().entries) collect_handles(item, given.as_dict().at(k), out);
  }
}

void collect_tensors(const TraceType& t, const Value& given, std::vector<const Tensor*>& tensors) {
  if (t.kind() == TraceType::Kind::Tensor) {
    tensors.push_back(&given.as_tensor().value());
  } else if (t.kind() == TraceType::Kind::List || t.kind() == TraceType::Kind::Tuple) {
    for (size_t i = 0; i < t.children().size(); ++i) collect_tensors(t.children()[i], given.items()[i], tensors);
  }
}

}  // namespace

bool ConcreteFunction::matches_exactly(std::span<const Value* const> args) const {
  if (args.size() != types_.size()) return false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!matches(types_[i], *args[i])) return false;
  }
  return true;
}

Value ConcreteFunction::call_bound(const std::vector<Value>& args) const {
  std::vector<const Tensor*> tensors;
  tensors.reserve(executable_.plan().num_args());
  for (size_t i = 0; i < params_.size(); ++i) flatten_call(args_[i], args[i], params_[i].name, tensors);
  if (any_tape_recording()) return call_taped(args);
  return run_plan(tensors, true);
}

Value ConcreteFunction::call_taped(const std::vector<Value>& args) const {
  std::vector<TensorHandle> inputs;
  for (size_t i = 0; i < params_.size(); ++i) collect_handles(args_[i], args[i], inputs);
  std::vector<TensorHandle> outputs;
  if (auto taped = run_graph_taped(*graph_, inputs)) {
    outputs = std::move(*taped);
  } else {
    std::shared_ptr<const SplitGradient> split;
    {
      std::lock_guard<std::mutex> lock(split_mu_);
      if (!split_) split_ = std::make_shared<const SplitGradient>(*graph_, inference_name_);
      split = split_;
    }
    outputs = split->call(inputs);
  }
  size_t next = 0;
  return map_tensors(outputs_, [&](const Value&) { return Value(outputs[next++]); });
}

Value ConcreteFunction::call_in_graph(const std::vector<Value>& args) const {
  Graph& g = *current_graph();
  std::vector<TensorHandle> inputs;
  for (size_t i = 0; i < params_.size(); ++i) collect_handles(args_[i], args[i], inputs);
  std::vector<Output> in;
  for (const TensorHandle& h : inputs) in.push_back(in_graph(g, h));
  Node* call = add_call(g, std::move(in), graph_->clone(&g), inference_name_);
  int next = 0;
  return map_tensors(outputs_, [&](const Value&) { return Value(call->output(next++)); });
}

Value ConcreteFunction::call_matched(std::span<const Value* const> args) const {
  if (any_tape_recording()) {
    std::vector<Value> copies;
    for (const Value* a : args) copies.push_back(*a);
    return call_bound(copies);
  }
  // The usual few tensors need no heap array.
  constexpr size_t kInline = 8;
  if (executable_.plan().num_args() <= kInline && types_.size() <= kInline) {
    const Tensor* inline_ptrs[kInline];
    size_t n = 0;
    bool flat = true;  // every parameter a tensor: one pointer each
    for (size_t i = 0; i < types_.size() && flat; ++i) {
      flat = types_[i].kind() == TraceType::Kind::Tensor;
      if (flat) inline_ptrs[n++] = &args[i]->as_tensor().value();
    }
    if (flat && n == executable_.plan().num_args()) return run_plan(std::span<const Tensor* const>(inline_ptrs, n), false);
  }
  std::vector<const Tensor*> tensors;
  tensors.reserve(executable_.plan().num_args());
  for (size_t i = 0; i < types_.size(); ++i) collect_tensors(types_[i], *args[i], tensors);
  return run_plan(tensors, true);
}

Value ConcreteFunction::run_plan(std::span<const Tensor* const> tensors, bool check) const {
  if (executable_.plan().num_outputs() == 1 && outputs_.is_tensor()) {
    Tensor one;
    if (check) executable_.plan().run(tensors, std::span<Tensor>(&one, 1));
    else executable_.plan().run_checked(tensors, std::span<Tensor>(&one, 1));
    return Value(std::move(one));
  }
  std::vector<Tensor> results(executable_.plan().num_outputs());
  if (check) executable_.plan().run(tensors, results);
  else executable_.plan().run_checked(tensors, results);
  size_t next = 0;
  return map_tensors(outputs_, [&](const Value&) { return Value(std::move(results[next++])); });
}

Value ConcreteFunction::operator()(std::vector<Value> args, Kwargs kwargs) const {
  // Python parameters default to their traced values; passing another value
  // is the TypeError call_bound raises.
  std::vector<Param> params = params_;
  for (size_t i = 0; i < params.size(); ++i) {
    TraceType::Kind k = types_[i].kind();
    if (k == TraceType::Kind::Literal || k == TraceType::Kind::Identity) params[i].default_value = args_[i];
  }
  std::vector<Value> given = args;
  bool keywords = !kwargs.empty();
  try {
    return call_bound(bind_arguments(name_, params, std::move(args), std::move(kwargs)));
  } catch (const TypeError&) {
    // TF's flat signature: positional arguments for the tensor parameters
    // alone, the Python ones keeping their traced values (TF falls back to it
    // when the structured call does not bind).
    std::vector<size_t> tensor_params;
    for (size_t i = 0; i < params_.size(); ++i) {
      TraceType::Kind k = types_[i].kind();
      if (k != TraceType::Kind::Literal && k != TraceType::Kind::Identity) tensor_params.push_back(i);
    }
    bool flat = !keywords && tensor_params.size() < params_.size() && given.size() == tensor_params.size();
    for (const Value& v : given) flat = flat && v.is_tensor();
    if (!flat) throw;
    std::vector<Value> bound = args_;
    for (size_t k = 0; k < tensor_params.size(); ++k) bound[tensor_params[k]] = given[k];
    return call_bound(bound);
  }
}

namespace {

/// TF's tensor_spec.sanitize_spec_name: lower case, '_' for anything not
/// alphanumeric, "tensor_" before a name not starting with a letter.
std::string sanitize_spec_name(const std::string& name) {
  if (name.empty()) return "unknown";
  std::string out;
  for (unsigned char c : name) out += std::isalnum(c) ? static_cast<char>(std::tolower(c)) : '_';
  return std::isalpha(static_cast<unsigned char>(out[0])) ? out : "tensor_" + out;
}

/// func_graph's convert_structure_to_signature for one argument: each tensor
/// a TensorSpec named after its path ("x", "x_0", "d_key"), each composite its
/// TypeSpec, the structure kept (a dict in the caller's key order), anything
/// else itself.
Value signature_of(const Value& v, const std::string& path) {
  if (v.is_tensor()) return make_tensor_spec(v.as_tensor().shape(), v.as_tensor().dtype(), sanitize_spec_name(path));
  if (const CompositeState* c = composite_state(v)) return c->type_spec();
  if (v.is_list() || v.is_tuple()) {
    std::vector<Value> items;
    for (size_t i = 0; i < v.items().size(); ++i) items.push_back(signature_of(v.items()[i], path + "_" + std::to_string(i)));
    return v.is_list() ? Value::list(std::move(items)) : Value::tuple(std::move(items));
  }
  if (v.is_dict()) {
    std::vector<std::pair<Value, Value>> items;
    for (const auto& [k, item] : v.as_dict().entries) items.emplace_back(k, signature_of(item, path + "_" + str(k)));
    return Value::dict(std::move(items));
  }
  return v;
}

}  // namespace

Value ConcreteFunction::structured_input_signature() const {
  std::vector<Value> args;
  for (size_t i = 0; i < params_.size() && i < args_.size(); ++i) args.push_back(signature_of(args_[i], params_[i].name));
  return Value::tuple({Value::tuple(std::move(args)), Value::dict()});
}

std::string ConcreteFunction::signature_summary() const {
  std::string s = header(name_, params_, args_, true) + "\n  Args:\n";
  for (size_t i = 0; i < params_.size(); ++i) {
    if (args_[i].is_tensor()) {
      s += "    " + params_[i].name + ": " +
           describe_tensor_spec({args_[i].as_tensor().dtype(), args_[i].as_tensor().shape()}) + "\n";
    } else if (composite_state(args_[i]) != nullptr) {
      // TF's pretty_print_spec prints any other TypeSpec by its repr.
      s += "    " + params_[i].name + ": " + composite_spec_repr(args_[i]) + "\n";
    } else if (args_[i].is_list() || args_[i].is_tuple() || args_[i].is_dict()) {
      s += "    " + params_[i].name + ": " + repr(args_[i]) + "\n";
    }
  }
  s += "  Returns:\n";
  if (outputs_.is_tensor()) {
    s += "    " + describe_tensor_spec({outputs_.as_tensor().dtype(), outputs_.as_tensor().shape()});
  } else if (outputs_.is_none()) {
    s += "    NoneTensorSpec()";
  } else if (composite_state(outputs_) != nullptr) {
    s += "    " + composite_spec_repr(outputs_);
  } else {
    // Nested results print as TF does: the structure with <n> leaves, then each leaf.
    std::vector<std::string> leaves;
    int n = 0;
    std::function<std::string(const Value&)> shape_of = [&](const Value& v) -> std::string {
      if (v.is_tensor()) {
        leaves.push_back(describe_tensor_spec({v.as_tensor().dtype(), v.as_tensor().shape()}));
        return "<" + std::to_string(++n) + ">";
      }
      if (composite_state(v) != nullptr) {
        leaves.push_back(composite_spec_repr(v));
        return "<" + std::to_string(++n) + ">";
      }
      if (v.is_list() || v.is_tuple()) {
        std::string t = v.is_list() ? "[" : "(";
        for (size_t i = 0; i < v.items().size(); ++i) t += (i ? ", " : "") + shape_of(v.items()[i]);
        return t + (v.is_tuple() && v.items().size() == 1 ? ",)" : v.is_list() ? "]" : ")");
      }
      if (v.is_dict()) {
        std::string t = "{";
        bool first = true;
        for (const auto& [k, item] : v.as_dict().entries) {
          t += (first ? "" : ", ") + repr(k) + ": " + shape_of(item);
          first = false;
        }
        return t + "}";
      }
      return repr(v);
    };
    s += "    " + shape_of(outputs_);
    for (size_t i = 0; i < leaves.size(); ++i) s += "\n      <" + std::to_string(i + 1) + ">: " + leaves[i];
  }
  return s;
}

}  // namespace ag

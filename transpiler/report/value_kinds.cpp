#include "transpiler/report/value_kinds.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "transpiler/emit/tf_api_table.h"
#include "transpiler/passes/pass.h"

namespace agc::report {

using namespace ast;

namespace {

constexpr size_t kMaxReasons = 3;

void add_reasons(std::vector<std::string>& to, const std::vector<std::string>& from) {
  for (const std::string& r : from) {
    if (to.size() >= kMaxReasons) return;
    if (!r.empty() && std::find(to.begin(), to.end(), r) == to.end()) to.push_back(r);
  }
}

/// The operands of an arithmetic or comparison: a Tensor anywhere makes a
/// Tensor (TF's operators convert the other side); otherwise the least known
/// kind wins, and only Python operands make a Python value.
ValueOf combine(const std::vector<ValueOf>& operands, const std::string& result_type) {
  auto with = [&](Kind k) {
    ValueOf out = ValueOf::of(k);
    for (const ValueOf& v : operands) {
      if (v.kind == k) add_reasons(out.reasons, v.reasons);
    }
    return out;
  };
  for (Kind k : {Kind::Tensor, Kind::Unknown, Kind::Mixed, Kind::Argument}) {
    for (const ValueOf& v : operands) {
      if (v.kind == k) return with(k);
    }
  }
  for (const ValueOf& v : operands) {
    if (v.kind != Kind::Python) return with(v.kind == Kind::TensorArray ? Kind::TensorArray : Kind::Unknown);
  }
  ValueOf out = with(Kind::Python);
  out.python_type = result_type;
  return out;
}

/// The numeric type of a Python arithmetic result, when both sides show it.
std::string arithmetic_type(const ValueOf& a, const ValueOf& b, BinOpKind op) {
  auto numeric = [](const std::string& t) { return t == "int" || t == "float" || t == "bool"; };
  if (!numeric(a.python_type) || !numeric(b.python_type)) return "";
  if (op == BinOpKind::Div || a.python_type == "float" || b.python_type == "float") return "float";
  return "int";
}

long long int_literal(const ValueOf& v) {
  if (v.python_type != "int" || v.literal.empty()) return -1;
  try {
    return std::stoll(v.literal);
  } catch (...) {
    return -1;
  }
}

/// What the tf.* function or value at `path` (after "tensorflow.") gives
/// when called (`call`) or read.
ValueOf tf_value(const std::string& path, bool call, const std::string& written) {
  std::optional<emit::TfApiEntry> entry = emit::find_tf_api(path);
  if (!entry) return ValueOf::of(Kind::Unknown, written + ": not a tf.* name agc knows");
  auto starts = [&](std::string_view prefix) { return path.rfind(prefix, 0) == 0; };
  if (!call) {
    // tf.float32, tf.newaxis, tf.data.AUTOTUNE: constants of the API.
    return entry->kind == emit::TfApiEntry::Kind::Value ? ValueOf::python("", written + " is a Python value")
                                                        : ValueOf::python("function");
  }
  if (starts("data.")) return ValueOf::of(Kind::Dataset, written + "(...) is a tf.data.Dataset");
  if (path == "TensorArray") return ValueOf::of(Kind::TensorArray, written + "(...) is a tf.TensorArray");
  if (path == "Variable") return ValueOf::of(Kind::Tensor, written + "(...) is a tf.Variable, a Tensor to conditions");
  if (path == "is_tensor" || path == "executing_eagerly") {
    return ValueOf::python("bool", written + "(...) is a Python bool");
  }
  // The API's functions that make no tensor: objects (Keras, tf.train,
  // tf.io), configuration, decorators and scopes, Python answers.
  static constexpr std::array<std::string_view, 12> kNotTensorNamespaces = {
      "keras.", "io.", "train.", "saved_model.", "config.", "compat.",
      "autograph.", "nest.", "test.", "random.Generator.", "quantization.experimental.", "summary."};
  static constexpr std::array<std::string_view, 15> kNotTensorFunctions = {
      "as_dtype", "type_spec_from_value", "function", "custom_gradient", "name_scope",
      "device", "init_scope", "control_dependencies", "print", "recompute_grad",
      "random.set_seed", "random.get_global_generator", "random.set_global_generator", "group", "Graph"};
  for (std::string_view ns : kNotTensorNamespaces) {
    if (starts(ns)) return ValueOf::of(Kind::Unknown, "what " + written + "(...) returns");
  }
  for (std::string_view f : kNotTensorFunctions) {
    if (path == f) return ValueOf::of(Kind::Unknown, "what " + written + "(...) returns");
  }
  // Python lists and tuples of Tensors (a for over one unrolls).
  static constexpr std::array<std::string_view, 11> kSequencesOfTensors = {
      "unstack", "split", "meshgrid", "unique", "math.top_k", "nn.top_k", "gradients", "clip_by_global_norm",
      "linalg.qr", "nn.moments", "nn.weighted_moments"};
  for (std::string_view f : kSequencesOfTensors) {
    if (path != f) continue;
    ValueOf v = ValueOf::python(path == "unstack" || path == "split" || path == "meshgrid" || path == "gradients"
                                    ? "list"
                                    : "tuple",
                                written + "(...) is a Python sequence of Tensors");
    v.element = std::make_shared<ValueOf>(ValueOf::of(Kind::Tensor, written + "(...) holds Tensors"));
    return v;
  }
  // A Tensor or a structure of them, as the functions given make.
  static constexpr std::array<std::string_view, 10> kStructures = {
      "cond", "case", "switch_case", "while_loop", "map_fn", "scan", "foldl", "foldr", "vectorized_map", "py_function"};
  for (std::string_view f : kStructures) {
    if (path == f) return ValueOf::of(Kind::Unknown, "what " + written + "(...) returns");
  }
  if (entry->kind == emit::TfApiEntry::Kind::Value && !starts("RaggedTensor")) {
    return ValueOf::of(Kind::Unknown, "what " + written + "(...) makes");
  }
  ValueOf t = ValueOf::of(Kind::Tensor, written + "(...) is a Tensor");
  t.range = path == "range";
  return t;
}

class Evaluator {
 public:
  Evaluator(const Env& env, const std::map<std::string, std::string>& imports) : env_(env), imports_(imports) {}

  ValueOf eval(const Ref& e) const {
    switch (e->kind) {
      case NodeKind::Constant: return constant(*e);
      case NodeKind::Name: return name(e->as<Name>().id);
      case NodeKind::Attribute: return attribute(e);
      case NodeKind::Subscript: return subscript(e->as<Subscript>());
      case NodeKind::BinOp: {
        const auto& b = e->as<BinOp>();
        return arithmetic(eval(b.left), eval(b.right), b.op);
      }
      case NodeKind::UnaryOp: {
        const auto& u = e->as<UnaryOp>();
        ValueOf v = eval(u.operand);
        if (v.kind != Kind::Python) return combine({v}, "");
        return combine({v}, u.op == UnaryOpKind::Not ? "bool" : v.python_type);
      }
      case NodeKind::Compare: return compare(e->as<Compare>());
      case NodeKind::BoolOp: return bool_op(e->as<BoolOp>());
      case NodeKind::IfExp: {
        const auto& i = e->as<IfExp>();
        ValueOf test = eval(i.test);
        ValueOf both = join(eval(i.body), eval(i.orelse));
        // ag__.if_exp stages a tf.cond on a Tensor test, which returns Tensors.
        if (test.kind == Kind::Tensor) return combine({test, both}, "");
        return both;
      }
      case NodeKind::Call: return call(e->as<Call>());
      case NodeKind::List:
      case NodeKind::Tuple:
      case NodeKind::Set: return display(e);
      case NodeKind::Dict: return ValueOf::python("dict");
      case NodeKind::ListComp: return ValueOf::python("list");
      case NodeKind::SetComp: return ValueOf::python("set");
      case NodeKind::DictComp: return ValueOf::python("dict");
      case NodeKind::GeneratorExp: return ValueOf::python("generator");
      case NodeKind::JoinedStr: return ValueOf::python("str");
      case NodeKind::Lambda: return ValueOf::python("function");
      case NodeKind::Slice: return ValueOf::python("slice");
      default: return ValueOf::of(Kind::Unknown, "what " + abbreviated(*e) + " is");
    }
  }

 private:
  static ValueOf constant(const Node& n) {
    const ConstantValue& c = n.as<Constant>().value;
    switch (c.kind) {
      case ConstantValue::Kind::None: return literal("NoneType", n);
      case ConstantValue::Kind::Bool: return literal("bool", n);
      case ConstantValue::Kind::Int: {
        ValueOf v = ValueOf::python("int");
        v.literal = c.text;  // in decimal, however written (0x10, 1_000)
        return v;
      }
      case ConstantValue::Kind::Float: return literal("float", n);
      case ConstantValue::Kind::Complex: return ValueOf::python("complex");
      case ConstantValue::Kind::Str: return ValueOf::python("str");
      case ConstantValue::Kind::Bytes: return ValueOf::python("bytes");
      case ConstantValue::Kind::Ellipsis: return ValueOf::python("ellipsis");
    }
    return ValueOf::python("");
  }

  static ValueOf literal(const char* type, const Node& n) {
    ValueOf v = ValueOf::python(type);
    v.literal = abbreviated(n);
    return v;
  }

  ValueOf name(const std::string& id) const {
    if (auto it = env_.find(id); it != env_.end()) return it->second;
    if (imports_.count(id)) return ValueOf::python("module");
    if (emit::find_builtin(id)) return ValueOf::python("builtin");
    return ValueOf::of(Kind::Unknown, id + ": not bound where agc can see it");
  }

  ValueOf attribute(const Ref& e) const {
    const auto& a = e->as<Attribute>();
    std::string path = passes::resolve_import_path(e, imports_);
    if (path.rfind("tensorflow.", 0) == 0) return tf_value(path.substr(11), false, abbreviated(*e));
    if (!path.empty()) return ValueOf::python("", abbreviated(*e) + " is a Python value");
    // A static shape is known when tracing: a TensorShape of ints (or None).
    if (a.attr == "shape") {
      ValueOf v = ValueOf::python("TensorShape", abbreviated(*e) + " is a static shape");
      v.element = std::make_shared<ValueOf>(ValueOf::python("int", abbreviated(*e) + "[i] is an int or None"));
      return v;
    }
    if (a.attr == "ndim" || a.attr == "dtype") return ValueOf::python("", abbreviated(*e) + " is known when tracing");
    return ValueOf::of(Kind::Unknown, "what " + abbreviated(*e) + " holds");
  }

  ValueOf subscript(const Subscript& s) const {
    ValueOf v = eval(s.value);
    switch (v.kind) {
      case Kind::Tensor: return combine({v}, "");
      case Kind::Python:
        if (v.element) return *v.element;
        if (v.python_type == "str") return ValueOf::python("str");
        return ValueOf::of(Kind::Unknown, "what " + abbreviated(*s.value) + " holds");
      case Kind::Argument:
      case Kind::Mixed: return v;
      default: return ValueOf::of(Kind::Unknown, "what " + abbreviated(*s.value) + " holds");
    }
  }

  ValueOf compare(const Compare& c) const {
    // `is`, `in` and their negations never make a Tensor.
    for (CmpOpKind op : c.ops) {
      if (op == CmpOpKind::Is || op == CmpOpKind::IsNot || op == CmpOpKind::In || op == CmpOpKind::NotIn) {
        return ValueOf::python("bool");
      }
    }
    std::vector<ValueOf> operands{eval(c.left)};
    for (const Ref& r : c.comparators) operands.push_back(eval(r));
    return combine(operands, "bool");
  }

  // ag__.and_/or_ decide on the first operand: a Tensor makes
  // tf.logical_and/or; a Python value is Python's `and`, whose result is
  // either operand.
  ValueOf bool_op(const BoolOp& b) const {
    ValueOf first = eval(b.values[0]);
    if (first.kind == Kind::Tensor) return first;
    ValueOf out = first;
    for (size_t i = 1; i < b.values.size(); ++i) out = join(out, eval(b.values[i]));
    return out;
  }

  ValueOf display(const Ref& e) const {
    const Refs& elts = e->kind == NodeKind::List ? e->as<List>().elts
                       : e->kind == NodeKind::Tuple ? e->as<Tuple>().elts
                                                    : e->as<Set>().elts;
    ValueOf v = ValueOf::python(e->kind == NodeKind::List ? "list" : e->kind == NodeKind::Tuple ? "tuple" : "set");
    v.length = static_cast<long long>(elts.size());
    std::shared_ptr<ValueOf> items;
    for (const Ref& x : elts) {
      if (x->is<Starred>()) {
        v.length = -1;
        items.reset();
        break;
      }
      ValueOf item = eval(x);
      items = std::make_shared<ValueOf>(items ? join(*items, item) : item);
    }
    v.element = items;
    return v;
  }

  ValueOf call(const Call& c) const {
    std::string written = abbreviated(*c.func);
    std::string path = passes::resolve_import_path(c.func, imports_);
    if (path.rfind("tensorflow.", 0) == 0) return tf_value(path.substr(11), true, written);
    if (!path.empty()) return ValueOf::python("", written + "(...) is a Python value");
    std::vector<ValueOf> args;
    for (const Ref& a : c.args) args.push_back(a->is<Starred>() ? ValueOf::of(Kind::Unknown) : eval(a));
    if (const auto* n = c.func->dyn<Name>(); n && !env_.count(n->id) && emit::find_builtin(n->id)) {
      return builtin(n->id, args, c);
    }
    if (const auto* a = c.func->dyn<Attribute>()) return method(eval(a->value), a->attr, written);
    return ValueOf::of(Kind::Unknown, "what " + written + "(...) returns");
  }

  // AutoGraph's py_builtins overloads: range, len, abs, int, float, any,
  // all, enumerate and zip look at what they are given.
  ValueOf builtin(const std::string& id, const std::vector<ValueOf>& args, const Call& c) const {
    if (id == "range") {
      ValueOf v = combine(args, "range");
      v.range = true;
      if (v.kind == Kind::Tensor) {
        v.reasons.insert(v.reasons.begin(), "range of a Tensor is tf.range");
        v.reasons.resize(std::min(v.reasons.size(), kMaxReasons));
      } else if (v.kind == Kind::Python) {
        v.element = std::make_shared<ValueOf>(ValueOf::python("int"));
        std::vector<long long> n;
        for (const ValueOf& a : args) n.push_back(int_literal(a));
        bool known = !n.empty() && n.size() <= 3 && std::find(n.begin(), n.end(), -1) == n.end() && c.keywords.empty();
        if (known) {
          long long start = n.size() > 1 ? n[0] : 0, stop = n.size() > 1 ? n[1] : n[0], step = n.size() > 2 ? n[2] : 1;
          if (step > 0) v.length = stop > start ? (stop - start + step - 1) / step : 0;
        }
      }
      return v;
    }
    if (id == "len" && args.size() == 1) {
      switch (args[0].kind) {
        case Kind::Python: return ValueOf::python("int");
        case Kind::Dataset: return ValueOf::of(Kind::Tensor, "len of a dataset is a Tensor");
        case Kind::Tensor:
          return ValueOf::of(Kind::Mixed, "len of a Tensor is a Python int when its first dimension is known when "
                                          "tracing, else a Tensor");
        default: return args[0];
      }
    }
    if (id == "abs" || id == "int" || id == "float" || id == "any" || id == "all") {
      std::string type = id == "abs" ? (args.empty() ? "" : args[0].python_type) : id == "int" ? "int"
                         : id == "float"                                        ? "float"
                                                                                : "bool";
      return combine(args, type);
    }
    if (id == "enumerate" || id == "zip" || id == "iter") {
      bool datasets = !args.empty(), python = !args.empty();
      for (const ValueOf& a : args) {
        datasets = datasets && a.kind == Kind::Dataset;
        python = python && a.kind == Kind::Python;
      }
      if (datasets) return ValueOf::of(Kind::Dataset, args[0].reasons.empty() ? "" : args[0].reasons[0]);
      if (python) return ValueOf::python(id);
      return ValueOf::of(Kind::Unknown, "what " + id + "(...) iterates over");
    }
    if (id == "isinstance" || id == "hasattr" || id == "callable" || id == "bool") return ValueOf::python("bool");
    if (id == "type" || id == "id" || id == "repr" || id == "str") return ValueOf::python(id == "id" ? "int" : id);
    if (id == "list" || id == "tuple" || id == "sorted" || id == "dict" || id == "set") {
      bool python = true;
      for (const ValueOf& a : args) python = python && a.kind == Kind::Python;
      if (python) {
        ValueOf v = ValueOf::python(id == "sorted" ? "list" : id);
        if (!args.empty() && args[0].element) v.element = args[0].element;
        return v;
      }
    }
    return ValueOf::of(Kind::Unknown, "what " + id + "(...) returns");
  }

  static ValueOf method(const ValueOf& on, const std::string& name, const std::string& written) {
    switch (on.kind) {
      case Kind::Dataset:
        if (name == "reduce" || name == "cardinality") {
          return ValueOf::of(Kind::Tensor, name + " of a dataset is a Tensor");
        }
        if (name == "as_numpy_iterator") return ValueOf::python("iterator");
        return on;  // map, batch, filter, ...: another dataset
      case Kind::TensorArray:
        if (name == "write" || name == "unstack" || name == "scatter" || name == "split") return on;
        if (name == "read" || name == "stack" || name == "gather" || name == "concat" || name == "size") {
          return ValueOf::of(Kind::Tensor, written + "(...) is a Tensor");
        }
        break;
      case Kind::Tensor:
        if (name == "numpy") return ValueOf::python("ndarray", written + "() is a NumPy value");
        break;
      case Kind::Python:
        if (!on.element || on.element->kind == Kind::Python) return ValueOf::python("");
        break;
      default: break;
    }
    return ValueOf::of(Kind::Unknown, "what " + written + "(...) returns");
  }

  const Env& env_;
  const std::map<std::string, std::string>& imports_;
};

}  // namespace

ValueOf ValueOf::of(Kind kind, std::string reason) {
  ValueOf v;
  v.kind = kind;
  if (!reason.empty()) v.reasons.push_back(std::move(reason));
  return v;
}

ValueOf ValueOf::python(std::string type, std::string reason) {
  ValueOf v = of(Kind::Python, std::move(reason));
  v.python_type = std::move(type);
  return v;
}

ValueOf ValueOf::explained_by(std::string reason) const {
  ValueOf v = *this;
  v.reasons = {std::move(reason)};
  add_reasons(v.reasons, reasons);
  return v;
}

ValueOf join(const ValueOf& a, const ValueOf& b) {
  ValueOf out;
  if (a.kind == b.kind) {
    out = a;
    if (a.python_type != b.python_type) out.python_type.clear();
    if (a.literal != b.literal) out.literal.clear();
    if (a.length != b.length) out.length = -1;
    if (a.range != b.range) out.range = false;
    if (a.element && b.element) out.element = std::make_shared<ValueOf>(join(*a.element, *b.element));
    else out.element.reset();
  } else if (a.kind == Kind::Unknown || b.kind == Kind::Unknown) {
    out.kind = Kind::Unknown;
  } else if ((a.kind == Kind::Argument && b.kind == Kind::Python) ||
             (a.kind == Kind::Python && b.kind == Kind::Argument)) {
    // `if n is None: n = 10` still depends on the caller.
    out.kind = Kind::Argument;
  } else {
    out.kind = Kind::Mixed;
  }
  out.reasons.clear();
  add_reasons(out.reasons, a.reasons);
  add_reasons(out.reasons, b.reasons);
  return out;
}

ValueOf element_of(const ValueOf& iterated) {
  switch (iterated.kind) {
    case Kind::Tensor:
    case Kind::Dataset: {
      ValueOf v = ValueOf::of(Kind::Tensor);
      v.reasons = iterated.reasons;
      return v;
    }
    case Kind::Python:
      if (iterated.element) return *iterated.element;
      return ValueOf::of(Kind::Unknown, "what the Python iterable holds");
    default: return iterated;
  }
}

std::string abbreviated(const Node& expr, size_t width) {
  // Only the user's code is quoted, and it has spans.
  if (!expr.span.known() || expr.span.end <= expr.span.begin) return "(generated code)";
  // As written, on one line.
  std::string_view text(expr.span.file->text());
  text = text.substr(expr.span.begin, expr.span.end - expr.span.begin);
  std::string s;
  bool space = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    bool continuation = c == '\\' && i + 1 < text.size() && (text[i + 1] == '\n' || text[i + 1] == '\r');
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || continuation) {
      space = !s.empty();
      continue;
    }
    if (space) s += ' ';
    space = false;
    s += c;
  }
  if (s.size() <= width) return s;
  size_t cut = width - 3;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return s.substr(0, cut) + "...";
}

ValueOf evaluate(const Ref& expr, const Env& env, const std::map<std::string, std::string>& imports) {
  return Evaluator(env, imports).eval(expr);
}

ValueOf arithmetic(const ValueOf& left, const ValueOf& right, BinOpKind op) {
  return combine({left, right}, arithmetic_type(left, right, op));
}

}  // namespace agc::report

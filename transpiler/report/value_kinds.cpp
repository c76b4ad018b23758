#include "transpiler/report/value_kinds.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "transpiler/ast/python_printer.h"
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

int line_of(const Node& n) { return n.span.known() ? static_cast<int>(n.span.file->line_col(n.span.begin).line) : 0; }

std::string at_line(const Node& n) {
  int line = line_of(n);
  return line > 0 ? " at line " + std::to_string(line) : "";
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
        ValueOf l = eval(b.left), r = eval(b.right);
        return combine({l, r}, arithmetic_type(l, r, b.op));
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
        if (name == "reduce" || name == "cardinality") return ValueOf::of(Kind::Tensor, name + " of a dataset is a Tensor");
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

/// Whether two environments hold the same kinds (reasons aside): a loop's
/// head is stable then.
bool same_kinds(const Env& a, const Env& b) {
  if (a.size() != b.size()) return false;
  for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib) {
    if (ia->first != ib->first || ia->second.kind != ib->second.kind ||
        ia->second.python_type != ib->second.python_type || ia->second.literal != ib->second.literal) {
      return false;
    }
  }
  return true;
}

/// Paths meeting: a name bound on one path only keeps that path's value (on
/// the other it is undefined, which the conversion reports on its own).
Env join_env(const Env& a, const Env& b) {
  Env out = a;
  for (const auto& [name, v] : b) {
    auto it = out.find(name);
    if (it == out.end()) out.emplace(name, v);
    else it->second = join(it->second, v);
  }
  return out;
}

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

// ---- the walk over statements

class ValueWalker {
 public:
  explicit ValueWalker(FunctionValues& out) : out_(out) {}

  void function(const FunctionDef& fn, const Parameters& p, Env env) {
    out_.params_[&fn] = p;
    const Arguments& a = fn.args->as<Arguments>();
    size_t position = 0;
    // Defaults belong to the last positional parameters.
    size_t positional = a.posonlyargs.size() + a.args.size();
    auto param = [&](const Ref& arg, bool first) {
      const std::string& id = arg->as<Arg>().arg;
      size_t i = position++;
      if (first && p.method) {
        env[id] = ValueOf::of(Kind::Unknown, id + ": the object the method is called on");
        return;
      }
      // An input_signature does not list a method's object.
      size_t spec = p.method ? i - 1 : i;
      if (spec < p.tensor_specs.size() && p.tensor_specs[spec]) {
        env[id] = ValueOf::of(Kind::Tensor, id + ": a tf.TensorSpec in " + p.function + "'s input_signature");
        return;
      }
      std::string reason = id + ": argument of " + p.function;
      size_t first_default = positional - std::min(positional, a.defaults.size());
      if (i >= first_default && i < positional) reason += " (default " + abbreviated(*a.defaults[i - first_default], 20) + ")";
      env[id] = ValueOf::of(Kind::Argument, reason);
    };
    for (const Ref& x : a.posonlyargs) param(x, position == 0);
    for (const Ref& x : a.args) param(x, position == 0);
    if (a.vararg) env[a.vararg->as<Arg>().arg] = ValueOf::python("tuple");
    for (const Ref& x : a.kwonlyargs) {
      const std::string& id = x->as<Arg>().arg;
      env[id] = ValueOf::of(Kind::Argument, id + ": argument of " + p.function);
    }
    if (a.kwarg) env[a.kwarg->as<Arg>().arg] = ValueOf::python("dict");
    block(fn.body, env, true);
  }

  void block(const Refs& stmts, Env& env, bool record) {
    for (const Ref& s : stmts) stmt(s, env, record);
  }

 private:
  ValueOf eval(const Ref& e, const Env& env) const { return Evaluator(env, out_.imports_).eval(e); }

  void bind(const Ref& target, const ValueOf& v, const std::string& reason, Env& env) {
    if (const auto* n = target->dyn<Name>()) {
      ValueOf bound = v;
      bound.reasons.clear();
      add_reasons(bound.reasons, {n->id + reason});
      add_reasons(bound.reasons, v.reasons);
      env[n->id] = std::move(bound);
      return;
    }
    const Refs* elts = target->kind == NodeKind::Tuple ? &target->as<Tuple>().elts
                       : target->kind == NodeKind::List ? &target->as<List>().elts
                                                        : nullptr;
    if (elts) {
      for (const Ref& t : *elts) bind(t, element_of(v), reason, env);
    } else if (const auto* s = target->dyn<Starred>()) {
      bind(s->value, ValueOf::python("list"), reason, env);
    }
  }

  void assign(const Refs& targets, const Ref& value, Env& env) {
    ValueOf v = eval(value, env);
    std::string reason = " = " + abbreviated(*value) + at_line(*value);
    for (const Ref& t : targets) {
      // a, b = x, y binds item by item.
      const auto* tt = t->dyn<Tuple>();
      const auto* vt = value->dyn<Tuple>();
      if (tt && vt && tt->elts.size() == vt->elts.size()) {
        for (size_t i = 0; i < tt->elts.size(); ++i) {
          bind(tt->elts[i], eval(vt->elts[i], env), " = " + abbreviated(*vt->elts[i]) + at_line(*value), env);
        }
        continue;
      }
      bind(t, v, reason, env);
    }
  }

  /// A loop: `iteration` walks the body once (binding the target first).
  /// Probing walks it until the head is stable (inner loops once each, so
  /// the cost grows with the nesting depth, not exponentially); then a
  /// recording walk starts from the stable head. After the loop, its head
  /// holds, or, for a loop that surely runs (a Python range or list that is
  /// not empty), what its last iteration leaves.
  template <class Iteration>
  void loop(const Node& n, Env& env, bool record, bool surely_runs, Iteration iteration) {
    const Env entry = env;
    Env head = entry, last;
    for (int probe = 0; probe < (record ? 4 : 1); ++probe) {
      last = head;
      iteration(last, false);
      Env next = join_env(head, last);
      bool stable = same_kinds(next, head);
      head = std::move(next);
      if (stable) break;
    }
    if (record) {
      out_.at_[&n] = {entry, head};
      last = head;
      iteration(last, true);
      head = join_env(head, last);
    }
    env = surely_runs ? std::move(last) : std::move(head);
  }

  void stmt(const Ref& s, Env& env, bool record) {
    // A simple statement holding `a if c else b` (ag__.if_exp) is reported too.
    bool compound = s->is<If>() || s->is<While>() || s->is<For>() || s->is<With>() || s->is<Try>() ||
                    s->is<FunctionDef>() || s->is<ClassDef>();
    if (record && !compound && (s->kinds_below() & kind_bit(NodeKind::IfExp))) out_.at_[s.get()] = {env, env};
    switch (s->kind) {
      case NodeKind::Assign: {
        const auto& a = s->as<Assign>();
        assign(a.targets, a.value, env);
        break;
      }
      case NodeKind::AnnAssign: {
        const auto& a = s->as<AnnAssign>();
        if (a.value) assign({a.target}, a.value, env);
        break;
      }
      case NodeKind::AugAssign: {
        const auto& a = s->as<AugAssign>();
        if (!a.target->is<Name>()) break;
        ValueOf old = Evaluator(env, out_.imports_).eval(a.target), rhs = eval(a.value, env);
        ValueOf v = combine({old, rhs}, arithmetic_type(old, rhs, a.op));
        bind(a.target, v, std::string(" ") + binop_text(a.op) + "= " + abbreviated(*a.value) + at_line(*s), env);
        break;
      }
      case NodeKind::If: {
        const auto& i = s->as<If>();
        if (record) out_.at_[s.get()] = {env, env};
        Env orelse = env;
        block(i.body, env, record);
        block(i.orelse, orelse, record);
        env = join_env(env, orelse);
        break;
      }
      case NodeKind::While: {
        const auto& w = s->as<While>();
        const auto* forever = w.test->dyn<Constant>();
        bool runs = forever && forever->value.kind == ConstantValue::Kind::Bool && forever->value.boolean;
        loop(*s, env, record, runs, [&](Env& e, bool rec) { block(w.body, e, rec); });
        block(w.orelse, env, record);
        break;
      }
      case NodeKind::For: {
        const auto& f = s->as<For>();
        ValueOf items = eval(f.iter, env);
        std::string reason = " iterates over " + abbreviated(*f.iter) + at_line(*s);
        bool runs = items.kind == Kind::Python && items.length > 0;
        loop(*s, env, record, runs, [&](Env& e, bool rec) {
          bind(f.target, element_of(items), reason, e);
          block(f.body, e, rec);
        });
        block(f.orelse, env, record);
        break;
      }
      case NodeKind::With: {
        const auto& w = s->as<With>();
        for (const Ref& item : w.items) {
          const auto& wi = item->as<WithItem>();
          if (wi.optional_vars) {
            bind(wi.optional_vars, ValueOf::of(Kind::Unknown, "what " + abbreviated(*wi.context_expr) + " gives"), "",
                 env);
          }
        }
        block(w.body, env, record);
        break;
      }
      case NodeKind::Try: {
        const auto& t = s->as<Try>();
        Env start = env;
        block(t.body, env, record);
        Env handlers = join_env(start, env);
        block(t.orelse, env, record);
        for (const Ref& h : t.handlers) {
          const auto& eh = h->as<ExceptHandler>();
          Env e = handlers;
          if (!eh.name.empty()) e[eh.name] = ValueOf::python("exception");
          block(eh.body, e, record);
          env = join_env(env, e);
        }
        block(t.finalbody, env, record);
        break;
      }
      case NodeKind::FunctionDef: {
        const auto& f = s->as<FunctionDef>();
        if (record) ValueWalker(out_).function(f, Parameters{f.name, false, {}}, env);
        env[f.name] = ValueOf::python("function");
        break;
      }
      case NodeKind::ClassDef: env[s->as<ClassDef>().name] = ValueOf::python("type"); break;
      case NodeKind::Import:
      case NodeKind::ImportFrom: {
        const Refs& names = s->kind == NodeKind::Import ? s->as<Import>().names : s->as<ImportFrom>().names;
        for (const Ref& n : names) {
          const auto& a = n->as<Alias>();
          std::string local = a.asname.empty() ? a.name.substr(0, a.name.find('.')) : a.asname;
          env[local] = ValueOf::python("module");
        }
        break;
      }
      case NodeKind::Delete:
        for (const Ref& t : s->as<Delete>().targets) {
          if (const auto* n = t->dyn<Name>()) env.erase(n->id);
        }
        break;
      default: break;
    }
  }

  FunctionValues& out_;
};

FunctionValues::FunctionValues(const FunctionDef& fn, const Parameters& params, const Env& outer,
                               const std::map<std::string, std::string>& imports)
    : imports_(imports) {
  ValueWalker(*this).function(fn, params, outer);
}

const FunctionValues::AtStatement* FunctionValues::at(const Node* stmt) const {
  auto it = at_.find(stmt);
  return it == at_.end() ? nullptr : &it->second;
}

const Parameters* FunctionValues::parameters(const Node* def) const {
  auto it = params_.find(def);
  return it == params_.end() ? nullptr : &it->second;
}

ValueOf FunctionValues::eval(const Ref& expr, const Env& env) const { return Evaluator(env, imports_).eval(expr); }

Env module_values(const Module& m, const std::map<std::string, std::string>& imports) {
  // The module's code runs once, before any function is traced: its
  // top-level statements in order, without recording.
  Env env;
  FunctionValues scratch(imports);
  ValueWalker(scratch).block(m.body, env, false);
  return env;
}

}  // namespace agc::report

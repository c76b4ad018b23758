#include "transpiler/emit/cpp_library.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "transpiler/base/check.h"
#include "transpiler/emit/cpp_emitter_impl.h"
#include "transpiler/emit/cpp_text.h"
#include "transpiler/emit/tf_function_signature.h"

namespace agc::emit {

using namespace agc::ast;

namespace {

/// A C++ default argument for a literal Python default, or "".
std::string literal_default(const Ref& d) {
  auto* c = d->dyn<Constant>();
  if (!c) return "";
  switch (c->value.kind) {
    case ConstantValue::Kind::None: return "ag::Value()";
    case ConstantValue::Kind::Bool: return c->value.boolean ? "ag::Value(true)" : "ag::Value(false)";
    case ConstantValue::Kind::Int: {
      std::string s = cpp_int(c->value.text);
      return s.empty() ? "" : "ag::Value(" + s + ")";
    }
    case ConstantValue::Kind::Float: return "ag::Value(" + cpp_double(c->value.number) + ")";
    case ConstantValue::Kind::Str: return "ag::Value(" + cpp_string(c->value.text) + ")";
    case ConstantValue::Kind::Complex:
    case ConstantValue::Kind::Bytes:
    case ConstantValue::Kind::Ellipsis: return "";
  }
  AGC_UNREACHABLE("constant kind");
}

class LibraryEmitter {
 public:
  LibraryEmitter(const Module& m, const std::map<std::string, std::string>& imports) : m_(m), imports_(imports) {}

  LibraryApi run() {
    // The last top-level def and class of each name (Python rebinds a name
    // defined twice), and the last simple statement binding each name.
    std::map<std::string, const FunctionDef*> last_def;
    std::map<std::string, const Node*> last_binding;
    for (const Ref& s : m_.body) {
      if (auto* f = s->dyn<FunctionDef>()) last_def[f->name] = f;
      if (auto* c = s->dyn<ClassDef>()) classes_[c->name] = c;
      for (const std::string& name : bound_names(*s)) last_binding[name] = s.get();
    }
    for (const Ref& s : m_.body) {
      if (auto* f = s->dyn<FunctionDef>(); f && last_def[f->name] == f) {
        callable(*f, cpp_ident(f->name), "def " + f->name, fmt::format("py::{}", cpp_ident(f->name)), false);
      } else if (const ClassDef* c = instance_of(*s); c && last_binding[object_name(*s)] == s.get()) {
        object(*s, object_name(*s), *c);
      }
    }
    return std::move(out_);
  }

 private:
  /// The names a simple top-level statement binds (compound statements'
  /// bindings are not followed: an entry point looks its object up when
  /// called, so a rebinding there changes only what the call finds).
  static std::vector<std::string> bound_names(const Node& s) {
    std::vector<std::string> out;
    auto targets = [&](const Ref& t, auto&& self) -> void {
      if (auto* n = t->dyn<Name>()) out.push_back(n->id);
      const Refs* parts = nullptr;
      if (auto* l = t->dyn<List>()) parts = &l->elts;
      if (auto* l = t->dyn<Tuple>()) parts = &l->elts;
      if (auto* st = t->dyn<Starred>()) self(st->value, self);
      if (parts) {
        for (const Ref& e : *parts) self(e, self);
      }
    };
    if (auto* a = s.dyn<Assign>()) {
      for (const Ref& t : a->targets) targets(t, targets);
    }
    if (auto* a = s.dyn<AugAssign>()) targets(a->target, targets);
    if (auto* a = s.dyn<AnnAssign>(); a && a->value) targets(a->target, targets);
    if (auto* f = s.dyn<FunctionDef>()) out.push_back(f->name);
    if (auto* c = s.dyn<ClassDef>()) out.push_back(c->name);
    const Refs* aliases = nullptr;
    if (auto* i = s.dyn<Import>()) aliases = &i->names;
    if (auto* i = s.dyn<ImportFrom>()) aliases = &i->names;
    for (size_t k = 0; aliases && k < aliases->size(); ++k) {
      const Alias& al = (*aliases)[k]->as<Alias>();
      // `import a.b` binds a; `from m import a.b` cannot be written.
      out.push_back(!al.asname.empty() ? al.asname : al.name.substr(0, al.name.find('.')));
    }
    return out;
  }

  /// The module class `s` instantiates when it is `NAME = Class(...)`, or null.
  const ClassDef* instance_of(const Node& s) const {
    auto* a = s.dyn<Assign>();
    if (!a || a->targets.size() != 1 || !a->targets[0]->is<Name>()) return nullptr;
    auto* call = a->value->dyn<Call>();
    auto* cls = call ? call->func->dyn<Name>() : nullptr;
    auto it = cls ? classes_.find(cls->id) : classes_.end();
    return it == classes_.end() ? nullptr : it->second;
  }
  static const std::string& object_name(const Node& s) { return s.as<Assign>().targets[0]->as<Name>().id; }

  /// Class `c`'s methods, its own first, then its module bases' (depth-first,
  /// left to right); a name is the first class's that defines it.
  void methods_of(const ClassDef& c, std::vector<const FunctionDef*>& out, std::set<std::string>& seen,
                  int depth) const {
    for (const Ref& b : c.body) {
      if (auto* f = b->dyn<FunctionDef>(); f && seen.insert(f->name).second) out.push_back(f);
    }
    for (const Ref& base : c.bases) {
      auto* n = base->dyn<Name>();
      auto it = n ? classes_.find(n->id) : classes_.end();
      // The depth bound keeps `class A(A)` (A rebound) from looping.
      if (it != classes_.end() && depth < 64) methods_of(*it->second, out, seen, depth + 1);
    }
  }

  std::string where(const Node& n) const {
    return fmt::format("{}:{}", m_.file->path(), m_.file->line_col(n.span.begin).line);
  }

  /// A C++ name for an entry point: `base`, with underscores added until no
  /// earlier entry point has it.
  std::string unique(std::string base) {
    while (!used_.insert(base).second) base += "_";
    return base;
  }

  void object(const Node& s, const std::string& name, const ClassDef& cls) {
    std::string cpp_name = unique(cpp_ident(name));
    out_.declarations += fmt::format("\n/// {}: {} = {}(...), the object (class {} at {});\n"
                                     "/// its tf.function methods follow\nag::Value {}();\n",
                                     where(s), name, cls.name, cls.name, where(cls), cpp_name);
    out_.definitions += fmt::format("\nag::Value {}() {{\n  return ag::library_call([] {{\n    init();\n    return "
                                    "py::{};\n  }});\n}}\n",
                                    cpp_name, cpp_ident(name));
    std::vector<const FunctionDef*> methods;
    std::set<std::string> seen;
    methods_of(cls, methods, seen, 0);
    for (const FunctionDef* f : methods) {
      std::string method = f->name == "__call__" ? "call" : f->name;
      callable(*f, cpp_ident(name + "_" + method), f->name == "__call__" ? name : name + "." + f->name,
               fmt::format("py::{}.getattr({})", cpp_ident(name), cpp_string(f->name)), true);
    }
  }

  /// The entry points calling `target` (a C++ expression of an ag::Value
  /// callable): `f`, or a tf.function method of an object (whose `self` is
  /// no parameter; other methods get none). `callee` is how Python calls it.
  void callable(const FunctionDef& f, const std::string& base, const std::string& callee, const std::string& target,
                bool method) {
    const Arguments& a = f.args->as<Arguments>();
    if (!a.posonlyargs.empty() || a.vararg || !a.kwonlyargs.empty() || a.kwarg) return;
    std::vector<std::string> params = cpp::param_names(a);
    if (method && params.empty()) return;
    if (method) params.erase(params.begin());
    TfFunctionSignature sig = tf_function_signature(f, params.size(), imports_);
    if (method && !sig.is_tf_function) return;
    std::string cpp_name = unique(base);
    // C++ defaults must be trailing: keep the literal defaults of a suffix.
    // Python's defaults belong to the last parameters.
    const size_t n = params.size(), num_defaults = std::min(n, a.defaults.size());
    std::vector<std::string> defaults(n);
    for (size_t i = n; i-- > n - num_defaults;) {
      std::string d = literal_default(a.defaults[a.defaults.size() - (n - i)]);
      if (d.empty()) break;
      defaults[i] = d;
    }
    std::string decl, def, call;
    for (size_t i = 0; i < params.size(); ++i) {
      std::string p = "ag::Value " + cpp_ident(params[i]);
      decl += (i ? ", " : "") + p + (defaults[i].empty() ? "" : " = " + defaults[i]);
      def += (i ? ", " : "") + p;
      call += (i ? ", " : "") + fmt::format("std::move({})", cpp_ident(params[i]));
    }
    std::string doc = fmt::format("/// {}: {}({})", where(f), callee, cpp::join(params));
    if (sig.is_tf_function) doc += sig.specs ? ", a tf.function with an input_signature" : ", a tf.function";
    if (!sig.unread.empty()) doc += fmt::format("\n/// (no typed overload: {})", sig.unread);
    out_.declarations += fmt::format("\n{}\nag::Value {}({});\n", doc, cpp_name, decl);
    out_.definitions += fmt::format(
        "\nag::Value {}({}) {{\n  return ag::library_call([&] {{\n    init();\n    return {}({{{}}}, {{}});\n  }});\n}}\n",
        cpp_name, def, target, call);
    if (sig.specs && !params.empty()) typed(cpp_name, params, *sig.specs);
  }

  /// The typed overload of `cpp_name`: a plain number for a scalar of a
  /// C++ arithmetic type, an ag::TensorView<T> of the app's elements for
  /// anything else, borrowed for the call; it calls the generic overload.
  void typed(const std::string& cpp_name, const std::vector<std::string>& params,
             const std::vector<TensorSpecText>& specs) {
    std::string decl, def, borrows, call;
    for (size_t i = 0; i < params.size(); ++i) {
      const TensorSpecText& s = specs[i];
      const std::string p = cpp_ident(params[i]);
      // A str or bfloat16 scalar stays a view: converting an argument to
      // std::string or ag::bfloat16 is a user-defined conversion, as to
      // ag::Value, so a call such as f("abc") would be ambiguous.
      bool scalar = s.shape && s.shape->empty() && s.arithmetic;
      std::string type = scalar ? s.cpp_type : "ag::TensorView<" + s.cpp_type + ">";
      decl += fmt::format("{}{} {} /* {} */", i ? ", " : "", type, p, s.text());
      def += fmt::format("{}{} {}", i ? ", " : "", type, p);
      if (scalar) {
        call += fmt::format("{}ag::Value(ag::Tensor::scalar<{}>({}))", i ? ", " : "", s.cpp_type, p);
      } else {
        borrows += fmt::format("  ag::BorrowedTensor ag_{} = ag::borrow({});\n", p, p);
        call += fmt::format("{}ag::Value(ag_{}.tensor())", i ? ", " : "", p);
      }
    }
    out_.declarations += fmt::format("ag::Value {}({});\n", cpp_name, decl);
    out_.definitions += fmt::format("\nag::Value {}({}) {{\n{}  return {}({});\n}}\n", cpp_name, def, borrows,
                                    cpp_name, call);
  }

  const Module& m_;
  const std::map<std::string, std::string>& imports_;
  std::map<std::string, const ClassDef*> classes_;
  /// The entry points' names so far, and py, the namespace of the module's
  /// own C++ beside them.
  std::set<std::string> used_ = {"py"};
  LibraryApi out_;
};

}  // namespace

LibraryApi library_api(const Module& m, const std::map<std::string, std::string>& imports) {
  return LibraryEmitter(m, imports).run();
}

}  // namespace agc::emit

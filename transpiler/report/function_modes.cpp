#include "transpiler/report/function_modes.h"

#include <functional>

#include "transpiler/ast/visitor.h"
#include "transpiler/passes/pass.h"

namespace agc::report {

using namespace ast;

namespace {

constexpr const char* kTfFunction = "tensorflow.function";
constexpr const char* kDoNotConvert = "tensorflow.autograph.experimental.do_not_convert";

bool is_false(const Ref& e) {
  const auto* c = e->dyn<Constant>();
  return c && c->value.kind == ConstantValue::Kind::Bool && !c->value.boolean;
}

/// What tf.function's keywords (`autograph=False`, `input_signature=[...]`) say.
void read_tf_function(const Call& call, const std::map<std::string, std::string>& imports, FunctionMode& mode) {
  mode.conversion = FunctionMode::Conversion::TfFunction;
  for (const Ref& k : call.keywords) {
    const Keyword& kw = k->as<Keyword>();
    if (kw.arg == "autograph" && is_false(kw.value)) mode.conversion = FunctionMode::Conversion::Unconverted;
    if (kw.arg != "input_signature") continue;
    const Refs* specs = kw.value->is<List>() ? &kw.value->as<List>().elts
                        : kw.value->is<Tuple>() ? &kw.value->as<Tuple>().elts
                                                : nullptr;
    if (!specs) continue;
    mode.has_signature = true;
    for (const Ref& s : *specs) {
      const auto* c = s->dyn<Call>();
      mode.tensor_specs.push_back(c && passes::resolve_import_path(c->func, imports) == "tensorflow.TensorSpec");
    }
  }
}

std::string decorator_path(const Ref& d, const std::map<std::string, std::string>& imports) {
  return passes::resolve_import_path(d->is<Call>() ? d->as<Call>().func : d, imports);
}

}  // namespace

std::map<const Node*, FunctionMode> function_modes(const passes::ConvertedModule& cm) {
  std::map<const Node*, FunctionMode> out;
  // tf.function(f, ...) anywhere in the module makes module-level f a tf.function.
  std::map<std::string, const Call*> wrapped;
  std::function<void(const Ref&)> find = [&](const Ref& n) {
    if (const auto* c = n->dyn<Call>(); c && !c->args.empty() && c->args[0]->is<Name>() &&
                                        passes::resolve_import_path(c->func, cm.imports) == kTfFunction) {
      wrapped[c->args[0]->as<Name>().id] = c;
    }
    for_each_child(*n, find);
  };
  for (const Ref& s : cm.module.body) find(s);

  for (const passes::ConvertedEntity& e : cm.entities) {
    const auto& fn = e.entity.fn->as<FunctionDef>();
    FunctionMode mode;
    bool in_class = e.entity.qualified_name.find('.') != std::string::npos;
    mode.method = in_class;
    for (const Ref& d : fn.decorator_list) {
      std::string path = decorator_path(d, cm.imports);
      if (path == kTfFunction) {
        if (const auto* call = d->dyn<Call>()) read_tf_function(*call, cm.imports, mode);
        else mode.conversion = FunctionMode::Conversion::TfFunction;
      } else if (path == kDoNotConvert) {
        mode.conversion = FunctionMode::Conversion::DoNotConvert;
      } else if (const auto* n = d->dyn<Name>(); n && n->id == "staticmethod" && in_class) {
        mode.method = false;
      }
    }
    auto it = wrapped.find(fn.name);
    if (!in_class && it != wrapped.end() && mode.conversion == FunctionMode::Conversion::WhenCalled) {
      read_tf_function(*it->second, cm.imports, mode);
      const SourceSpan& at = it->second->span;
      mode.wrapped_at = at.known() ? static_cast<int>(at.file->line_col(at.begin).line) : 0;
    }
    if (!e.converted && !e.problems.empty()) mode.failure = e.problems.front().message;
    out[e.entity.fn.get()] = std::move(mode);
  }
  return out;
}

std::string describe(const FunctionMode& mode) {
  if (!mode.failure.empty()) {
    return "agc cannot convert it (" + mode.failure + "); TensorFlow would run it unconverted";
  }
  switch (mode.conversion) {
    case FunctionMode::Conversion::TfFunction:
      if (mode.wrapped_at > 0) {
        return "wrapped by tf.function at line " + std::to_string(mode.wrapped_at) +
               ": AutoGraph converts it when that is traced; called directly, it runs as written";
      }
      return "a tf.function: AutoGraph converts it when it is traced";
    case FunctionMode::Conversion::Unconverted:
      return std::string("not converted: tf.function(autograph=False) ") +
             (mode.wrapped_at > 0 ? "at line " + std::to_string(mode.wrapped_at) + " " : "") +
             "traces it as written, so its if/while/for run as Python";
    case FunctionMode::Conversion::DoNotConvert:
      return "not converted (do_not_convert): it runs as written, so its if/while/for run as Python (agc does not "
             "support that decorator yet: agc run raises NotImplementedError)";
    case FunctionMode::Conversion::WhenCalled:
      return "converted when a tf.function calls it (AutoGraph converts what a tf.function calls); called outside "
             "one, it runs as written";
  }
  return "";
}

std::string arguments(const FunctionDef& fn, const FunctionMode& mode) {
  const Arguments& a = fn.args->as<Arguments>();
  std::vector<std::string> names;
  for (const Refs* list : {&a.posonlyargs, &a.args, &a.kwonlyargs}) {
    for (const Ref& x : *list) names.push_back(x->as<Arg>().arg);
  }
  if (mode.method && !names.empty()) names.erase(names.begin());
  if (names.empty()) return "";
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  if (mode.conversion != FunctionMode::Conversion::TfFunction) return list + ": what the caller passes";
  if (mode.has_signature) {
    return list + ": as its input_signature declares (a tf.TensorSpec is a Tensor when traced)";
  }
  return list + ": what the caller passes (a Tensor or a NumPy array is a Tensor in the trace; a Python value is a "
                "constant of it)";
}

}  // namespace agc::report

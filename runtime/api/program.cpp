#include "runtime/api/program.h"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>
#include <optional>
#include <string>

#include "runtime/api/embedding.h"
#include "runtime/api/json.h"
#include "runtime/api/program_graph.h"
#include "runtime/api/py_sys.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/traceback.h"
#include "runtime/core/tensor.h"
#include "runtime/core/variable.h"
#include "runtime/value/exception_value.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/variable_value.h"

namespace ag {

namespace {

// ---- ARGS_JSON -> Values.

// {"tensor": nested, "dtype": "float32"}: tf.constant(nested, dtype).
Value tensor_from_json(const json::Object& o) {
  const json::Json* elements = nullptr;
  const json::Json* dtype_name = nullptr;
  for (const auto& [key, v] : o) {
    if (key == "tensor") elements = &v;
    else if (key == "dtype") dtype_name = &v;
    else throw ValueError("a tensor object has only \"tensor\" and \"dtype\" members, not \"" + key + "\"");
  }
  std::optional<DType> dtype;
  if (dtype_name != nullptr) {
    DType d;
    if (!dtype_name->is_string()) throw ValueError("a tensor's \"dtype\" must be a string such as \"float32\"");
    if (!dtype_from_name(dtype_name->as_string(), d) || d == DType::Variant) {
      throw ValueError("unknown dtype \"" + dtype_name->as_string() + "\" (float32, float64, int32, int64, bool, string, ...)");
    }
    dtype = d;
  }
  return tf::constant(json_value(*elements), dtype);
}

}  // namespace

Value json_value(const json::Json& j) {
  if (j.is_null()) return Value();
  if (j.is_bool()) return Value(j.as_bool());
  if (j.is_int()) return Value(static_cast<long long>(j.as_int()));
  if (j.is_float()) return Value(j.as_float());
  if (j.is_string()) return Value(j.as_string());
  if (j.is_array()) {
    std::vector<Value> items;
    for (const json::Json& item : j.as_array()) items.push_back(json_value(item));
    return Value::list(std::move(items));
  }
  const json::Object& o = j.as_object();
  for (const auto& member : o) {
    if (member.first == "tensor") return tensor_from_json(o);
  }
  std::vector<std::pair<Value, Value>> entries;
  for (const auto& [key, v] : o) entries.emplace_back(Value(key), json_value(v));
  return Value::dict(std::move(entries));
}

namespace {

// ---- Values -> JSON.

constexpr int kMaxNesting = 1000;

// The float32 as the double with the shortest decimal digits that read back
// as the same float32 (0.1f -> 0.1, not 0.10000000149011612).
double shortest_float32(float f) {
  if (!std::isfinite(f)) return static_cast<double>(f);
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf - 1, f);
  if (ec != std::errc()) return static_cast<double>(f);
  *end = '\0';
  return std::strtod(buf, nullptr);
}

json::Json tensor_elements(const Tensor& t, int axis, int64_t& index) {
  if (axis == t.rank()) {
    int64_t i = index++;
    return dispatch_dtype(t.dtype(), [&]<class T>() -> json::Json {
      const T& x = t.data<T>()[i];
      if constexpr (std::is_same_v<T, float>) return json::Json(shortest_float32(x));
      else if constexpr (std::is_same_v<T, bfloat16>) return json::Json(shortest_float32(static_cast<float>(x)));
      else if constexpr (std::is_same_v<T, double>) return json::Json(x);
      else if constexpr (std::is_same_v<T, bool>) return json::Json(x);
      else if constexpr (std::is_same_v<T, std::string>) return json::Json(x);
      else return json::Json(static_cast<int64_t>(x));
    });
  }
  json::Array items;
  int64_t n = t.shape().dim(axis);
  items.reserve(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) items.push_back(tensor_elements(t, axis + 1, index));
  return json::Json(std::move(items));
}

}  // namespace

json::Json tensor_elements_json(const Tensor& t) {
  int64_t index = 0;
  return tensor_elements(t, 0, index);
}

namespace {

json::Json tensor_json(const Tensor& t) {
  int64_t index = 0;
  json::Array shape;
  for (int a = 0; a < t.rank(); ++a) shape.push_back(json::Json(static_cast<int64_t>(t.shape().dim(a))));
  return json::Json(json::Object{{"tensor", tensor_elements(t, 0, index)},
                                 {"dtype", json::Json(dtype_name(t.dtype()))},
                                 {"shape", json::Json(std::move(shape))}});
}

json::Json to_json(const Value& v, int depth);

// A dict key as json.dumps converts it.
std::string key_string(const Value& k) {
  switch (k.kind()) {
    case Kind::Str: return k.as_str();
    case Kind::Bool: return k.as_bool() ? "true" : "false";
    case Kind::None: return "null";
    case Kind::Int: return std::to_string(k.as_int());
    case Kind::Float: return json::write(json::Json(k.as_float()));
    default: throw TypeError("keys must be str, int, float, bool or None, not " + k.type_name());
  }
}

json::Json to_json(const Value& v, int depth) {
  if (depth > kMaxNesting) throw ValueError("Circular reference detected");
  switch (v.kind()) {
    case Kind::None: return json::Json(nullptr);
    case Kind::Bool: return json::Json(v.as_bool());
    case Kind::Int: return json::Json(v.as_int());
    case Kind::Float: return json::Json(v.as_float());
    case Kind::Str: return json::Json(v.as_str());
    case Kind::List:
    case Kind::Tuple: {
      json::Array items;
      for (const Value& item : v.items()) items.push_back(to_json(item, depth + 1));
      return json::Json(std::move(items));
    }
    case Kind::Dict: {
      json::Object members;
      for (const auto& [key, item] : v.as_dict().entries) members.emplace_back(key_string(key), to_json(item, depth + 1));
      return json::Json(std::move(members));
    }
    case Kind::Tensor: {
      const TensorHandle& h = v.as_tensor();
      if (h.symbolic()) throw TypeError("Object of type SymbolicTensor is not JSON serializable");
      if (h.value().dtype() == DType::Variant) throw TypeError("Object of type variant tensor is not JSON serializable");
      return tensor_json(h.value());
    }
    case Kind::Variable: return tensor_json(v.as_variable()->read());
    case Kind::NDArray: return tensor_json(ndarray::tensor(v));
    default: throw TypeError("Object of type " + v.type_name() + " is not JSON serializable");
  }
}

// ---- The program.

const ModuleInfo* g_module = nullptr;


void flush_all() {
  std::cout.flush();
  std::fflush(stdout);
  std::cerr.flush();
  std::fflush(stderr);
}

struct Outcome {
  bool ok = false;
  Value result;
  std::string type_name;
  std::string message;
  /// A SystemExit (sys.exit): the status the program exits with.
  std::optional<int> exit_status;
};

// Runs `f`, turning what it raises into an outcome (type and message).
template <class F>
Outcome capture(F&& f) {
  Outcome out;
  try {
    // Everything it throws is an Error then (std::bad_alloc a MemoryError,
    // any other exception a SystemError saying it is agc's bug).
    out.result = library_call(std::forward<F>(f));
    out.ok = true;
  } catch (const SystemExit& e) {
    out.type_name = e.type_name();
    const std::vector<Value>& args = exception_value(e).getattr("args").items();
    out.exit_status = pymod::exit_status(args.empty() ? Value() : args[0]);
  } catch (const Error& e) {
    out.type_name = e.type_name();
    out.message = e.what();
  }
  return out;
}

std::string program_name(int argc, char** argv, const ModuleInfo& module) {
  if (argc > 0 && argv[0] != nullptr && argv[0][0] != '\0') {
    const char* slash = std::strrchr(argv[0], '/');
    return slash ? slash + 1 : argv[0];
  }
  return module.name;
}

void print_usage(std::FILE* to, const std::string& prog, const ModuleInfo& module) {
  std::fprintf(to,
               "usage: %s                                  run %s\n"
               "       %s FUNC ARGS_JSON... [--results FILE]  then call FUNC once per ARGS_JSON\n"
               "       %s --graph=dot|pbtxt [--optimized] [--graph-output FILE] FUNC [ARGS_JSON]\n"
               "                                  then trace FUNC and write its graph\n"
               "\n"
               "ARGS_JSON: a JSON array of positional arguments, or {\"args\": [...], \"kwargs\": {...}};\n"
               "a tensor is {\"tensor\": [[1, 2], [3, 4]], \"dtype\": \"float32\"} (dtype optional).\n"
               "--results FILE writes one JSON line per call: {\"result\": ...} or\n"
               "{\"error\": {\"type\": ..., \"message\": ...}}; without it outcomes are printed.\n"
               "--graph writes FUNC's traced graph (--optimized: as calls run it) as Graphviz DOT or\n"
               "TensorFlow's GraphDef text to stdout or FILE; the program's own output goes to stderr.\n",
               prog.c_str(), module.file, prog.c_str(), prog.c_str());
}

/// Prints `prog: error: message`; returns `status`.
int report(const std::string& prog, int status, const std::string& message) {
  flush_all();
  std::fprintf(stderr, "%s: error: %s\n", prog.c_str(), message.c_str());
  std::fflush(stderr);
  return status;
}

/// Graph mode, once the module has run: traces `target` on `call` and writes
/// its graph to `output` (a file), else to `fd` (the program's stdout).
int draw_graph(const std::string& prog, const Value& target, const std::string& func, CallArguments call,
               const GraphRequest& request, const std::string* output, int fd) {
  std::string text;
  Outcome drawn = capture([&] {
    text = function_graph_text(target, func, std::move(call), request);
    return Value();
  });
  flush_all();
  if (drawn.exit_status) return *drawn.exit_status;  // sys.exit while tracing
  if (!drawn.ok) {
    // Tracing raised (or FUNC is no function): the traceback names the user's line.
    std::vector<TracebackEntry> tb = take_traceback();
    std::string msg = format_traceback(tb, traceback_type_name(drawn.type_name), drawn.message, source_of,
                                       TracebackStyle::Interpreter);
    std::fputs(msg.c_str(), stderr);
    std::fflush(stderr);
    return 1;
  }
  std::FILE* to = output != nullptr ? std::fopen(output->c_str(), "w") : fdopen(fd, "w");
  const std::string where = output != nullptr ? "'" + *output + "'" : std::string("stdout");
  if (to == nullptr) return report(prog, 1, "cannot write " + where + ": " + std::strerror(errno));
  bool written = std::fwrite(text.data(), 1, text.size(), to) == text.size();
  written = std::fclose(to) == 0 && written;
  if (!written) return report(prog, 1, "cannot write the graph to " + where + ": " + std::strerror(errno));
  return 0;
}

}  // namespace

const char* source_of(const char* file) {
  if (g_module != nullptr && g_module->file != nullptr && std::strcmp(file, g_module->file) == 0) return g_module->source;
  return nullptr;
}

CallArguments parse_call_arguments(std::string_view args_json) {
  json::Json j;
  try {
    j = json::parse(args_json);
  } catch (const json::JsonError& e) {
    throw ValueError(std::string("not valid JSON: ") + e.what());
  }
  CallArguments call;
  const json::Json* args = nullptr;
  const json::Json* kwargs = nullptr;
  if (j.is_array()) {
    args = &j;
  } else if (j.is_object()) {
    for (const auto& [key, v] : j.as_object()) {
      if (key == "args") args = &v;
      else if (key == "kwargs") kwargs = &v;
      else throw ValueError("an arguments object has only \"args\" and \"kwargs\" members, not \"" + key + "\"");
    }
    if (args != nullptr && !args->is_array()) throw ValueError("\"args\" must be a JSON array, not " + std::string(args->kind_name()));
    if (kwargs != nullptr && !kwargs->is_object()) {
      throw ValueError("\"kwargs\" must be a JSON object, not " + std::string(kwargs->kind_name()));
    }
  } else {
    throw ValueError(std::string("expected a JSON array of arguments or {\"args\": [...], \"kwargs\": {...}}, not ") +
                     j.kind_name());
  }
  if (args != nullptr) {
    for (const json::Json& a : args->as_array()) call.args.push_back(json_value(a));
  }
  if (kwargs != nullptr) {
    for (const auto& [key, v] : kwargs->as_object()) {
      for (const auto& seen : call.kwargs) {
        if (seen.first == key) throw ValueError("keyword argument \"" + key + "\" given twice");
      }
      call.kwargs.emplace_back(key, json_value(v));
    }
  }
  return call;
}

std::string value_to_json(const Value& v) { return json::write(to_json(v, 0)); }

std::string result_line(const Value& v) { return json::write(json::Json(json::Object{{"result", to_json(v, 0)}})); }

std::string error_line(const std::string& type_name, const std::string& message) {
  return json::write(json::Json(json::Object{
      {"error", json::Json(json::Object{{"type", json::Json(type_name)}, {"message", json::Json(message)}})}}));
}

int program_main(int argc, char** argv, const ModuleInfo& module) {
  g_module = &module;
  const std::string prog = program_name(argc, argv, module);
  pymod::set_argv(module.file, {});
  auto fail = [&](int status, const std::string& message) { return report(prog, status, message); };

  // The command line: FUNC, ARGS_JSON..., --results FILE anywhere after FUNC.
  std::string func;
  std::vector<std::string> arg_texts;
  std::string results_path;
  bool have_results = false;
  bool graph_mode = false;
  GraphRequest graph;
  std::string graph_output;
  bool have_graph_output = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      // The rest is the Python program's own: sys.argv[1:].
      pymod::set_argv(module.file, std::vector<std::string>(argv + i + 1, argv + argc));
      break;
    }
    if (a == "-h" || a == "--help") {
      print_usage(stdout, prog, module);
      return 0;
    }
    if (a == "--results") {
      if (i + 1 >= argc) return fail(2, "--results needs a FILE");
      results_path = argv[++i];
      have_results = true;
    } else if (a.rfind("--results=", 0) == 0) {
      results_path = a.substr(10);
      have_results = true;
    } else if (a.rfind("--graph=", 0) == 0) {
      graph_mode = true;
      graph.format = a.substr(8);
    } else if (a == "--optimized") {
      graph.optimized = true;
    } else if (a == "--graph-output") {
      if (i + 1 >= argc) return fail(2, "--graph-output needs a FILE");
      graph_output = argv[++i];
      have_graph_output = true;
    } else if ((a.size() > 1 && a[0] == '-' && func.empty()) || a.rfind("--", 0) == 0) {
      return fail(2, "unknown option '" + a + "' (run '" + prog + " --help' for usage; the Python program's own " +
                         "arguments, its sys.argv, go after '--')");
    } else if (func.empty()) {
      func = a;
    } else {
      arg_texts.push_back(a);
    }
  }
  if (have_results && results_path.empty()) return fail(2, "--results needs a FILE");
  if (have_results && func.empty()) return fail(2, "--results needs a FUNC to call");
  if (graph_mode) {
    if (!graph_format_known(graph.format)) return fail(2, "--graph takes dot or pbtxt, not '" + graph.format + "'");
    if (func.empty()) return fail(2, "--graph needs a FUNC to trace");
    if (have_results) return fail(2, "--graph and --results do not go together: --graph calls nothing");
    if (arg_texts.size() > 1) return fail(2, "--graph draws one trace: give FUNC at most one ARGS_JSON");
    if (have_graph_output && graph_output.empty()) return fail(2, "--graph-output needs a FILE");
  } else if (graph.optimized || have_graph_output) {
    return fail(2, std::string(graph.optimized ? "--optimized" : "--graph-output") + " needs --graph=dot|pbtxt");
  }

  Value* target = nullptr;
  if (!func.empty()) {
    for (const auto& [name, slot] : module.globals) {
      if (func == name) target = slot;
    }
    if (target == nullptr) {
      std::string names;
      for (const auto& g : module.globals) names += std::string(names.empty() ? "" : ", ") + g.first;
      return fail(1, "'" + func + "' is not a module-level name of " + module.file +
                         (names.empty() ? std::string(" (it defines none)") : " (it defines: " + names + ")"));
    }
  }

  // Every ARGS_JSON is checked before the module runs, so a typo costs no run.
  std::vector<CallArguments> calls;
  for (size_t k = 0; k < arg_texts.size(); ++k) {
    Outcome parsed = capture([&] {
      calls.push_back(parse_call_arguments(arg_texts[k]));
      return Value();
    });
    if (!parsed.ok) {
      return fail(1, "ARGS_JSON " + std::to_string(k + 1) + " ('" + arg_texts[k] + "'): " +
                         (parsed.message.empty() ? parsed.type_name : parsed.message));
    }
  }

  std::FILE* results = nullptr;
  if (have_results) {
    results = std::fopen(results_path.c_str(), "w");
    if (results == nullptr) return fail(1, "cannot write '" + results_path + "': " + std::strerror(errno));
  }

  // Graph mode: stdout is the graph's alone (unless it goes to a file), so
  // what the program prints (module code, Python prints while tracing) goes to stderr.
  int graph_fd = -1;
  if (graph_mode) {
    flush_all();
    graph_fd = dup(1);
    if (graph_fd < 0 || dup2(2, 1) < 0) return fail(1, std::string("cannot redirect stdout: ") + std::strerror(errno));
  }

  // The module's own code; an exception escaping it is the program's end.
  take_traceback();
  Outcome ran = capture([&] {
    module.run();
    return Value();
  });
  flush_all();
  if (ran.exit_status) {
    // sys.exit: no traceback, the status it asked for (no function is called).
    take_traceback();
    if (results != nullptr) std::fclose(results);
    return *ran.exit_status;
  }
  if (!ran.ok) {
    std::vector<TracebackEntry> tb = take_traceback();
    std::string text = format_traceback(tb, traceback_type_name(ran.type_name), ran.message, source_of,
                                        TracebackStyle::Interpreter);
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
    if (results != nullptr) std::fclose(results);
    return 1;
  }

  if (graph_mode) {
    return draw_graph(prog, *target, func, calls.empty() ? CallArguments{} : std::move(calls[0]), graph,
                      have_graph_output ? &graph_output : nullptr, graph_fd);
  }

  for (CallArguments& call : calls) {
    Outcome out = capture([&] { return (*target)(std::move(call.args), std::move(call.kwargs)); });
    take_traceback();  // an outcome, not the program's end: the next error starts afresh
    std::string line;
    if (out.ok && results != nullptr) {
      // A result json.dumps would refuse is an outcome too (TypeError in its words).
      Outcome written = capture([&] {
        line = result_line(out.result);
        return Value();
      });
      if (!written.ok) line = error_line(written.type_name, written.message);
    } else if (results != nullptr) {
      line = error_line(out.type_name, out.message);
    }
    flush_all();
    if (results != nullptr) {
      line += '\n';
      std::fputs(line.c_str(), results);
      std::fflush(results);
    } else {
      Outcome printed = capture([&] {
        line = out.ok ? str(out.result) : out.type_name + (out.message.empty() ? "" : ": " + out.message);
        return Value();
      });
      if (!printed.ok) line = printed.type_name + (printed.message.empty() ? "" : ": " + printed.message);
      line += '\n';
      std::fputs(line.c_str(), stdout);
      std::fflush(stdout);
    }
  }
  flush_all();
  if (results != nullptr && std::fclose(results) != 0) {
    return fail(1, "cannot write '" + results_path + "': " + std::strerror(errno));
  }
  return 0;
}

}  // namespace ag

// agc-model: the commands of `agc` that work on saved models rather than
// Python source (the transpiler cannot link the runtime, so `agc` runs this
// program for them): `saved-model show`, and the TPU converter and server
// as they land. Errors print as "agc: error: <TF's class>: <message>" with
// exit status 1; usage mistakes exit with status 2.
#include <cstdio>
#include <string>
#include <vector>

#include "runtime/api/saved_model.h"
#include "runtime/core/error.h"
#include "runtime/tools/model_server.h"
#include "runtime/tpu/convert.h"

namespace {

const char* kUsage =
    "usage: agc saved-model show DIR\n"
    "       agc saved-model show --dir DIR [--all]\n"
    "                      print a SavedModel's signatures and concrete functions,\n"
    "                      as `saved_model_cli show --all` does\n"
    "       agc convert --input_model_dir=IN --output_model_dir=OUT\n"
    "                   [--converter_options_string='tpu_functions { ... }']\n"
    "                      the Cloud TPU v5e inference converter: places the\n"
    "                      selected functions on the TPU and prints the report\n"
    "       agc serve DIR [--port N] [--model_name NAME] [--host ADDR] [--threads N]\n"
    "                      TensorFlow Serving's REST predict API over the model\n"
    "                      (POST /v1/models/NAME:predict; port 8501, NAME the\n"
    "                      directory's name by default)\n";

int usage_error(const std::string& why) {
  std::fprintf(stderr, "agc: error: %s\n\n%s", why.c_str(), kUsage);
  return 2;
}

int saved_model(const std::vector<std::string>& args) {
  if (args.empty() || args[0] != "show") return usage_error("saved-model takes the subcommand 'show'");
  std::string dir;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--all") continue;
    if (a == "--dir") {
      if (i + 1 >= args.size()) return usage_error("--dir needs a directory");
      dir = args[++i];
    } else if (a.rfind("--dir=", 0) == 0) {
      dir = a.substr(6);
    } else if (a.rfind("--", 0) == 0) {
      return usage_error("unknown option '" + a + "'");
    } else if (dir.empty()) {
      dir = a;
    } else {
      return usage_error("more than one directory given ('" + dir + "' and '" + a + "')");
    }
  }
  if (dir.empty()) return usage_error("saved-model show needs a SavedModel directory");
  std::string text = ag::saved_model_show_all(dir);
  // saved_model_cli ends "Concrete Functions:" without a newline when there are none.
  if (text.empty() || text.back() != '\n') text += '\n';
  std::fputs(text.c_str(), stdout);
  return 0;
}

/// Flag `args[i]` as the converter image takes flags, "--name=value" or
/// "--name value" (then `i` moves past the value); false when it has none.
bool flag(const std::vector<std::string>& args, size_t& i, std::string& name, std::string& value) {
  const std::string& a = args[i];
  size_t eq = a.find('=');
  name = a.substr(0, eq);
  if (eq != std::string::npos) {
    value = a.substr(eq + 1);
    return true;
  }
  if (i + 1 >= args.size()) return false;
  value = args[++i];
  return true;
}

int convert(const std::vector<std::string>& args) {
  std::string in, out, options;
  bool have_in = false, have_out = false;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string name, value;
    if (!flag(args, i, name, value)) return usage_error(name + " needs a value");
    if (name == "--input_model_dir") {
      in = value, have_in = true;
    } else if (name == "--output_model_dir") {
      out = value, have_out = true;
    } else if (name == "--converter_options_string") {
      options = value;
    } else {
      return usage_error("unknown option '" + name + "'");
    }
  }
  if (!have_in || in.empty()) return usage_error("convert needs --input_model_dir");
  if (!have_out || out.empty()) return usage_error("convert needs --output_model_dir");
  std::fputs(ag::tpu::convert_saved_model(in, out, options).c_str(), stdout);
  return 0;
}

int serve(const std::vector<std::string>& args) {
  ag::tools::ServeOptions o;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i], value;
    if (a.rfind("--", 0) != 0) {
      if (!o.model_dir.empty()) return usage_error("more than one model directory given");
      o.model_dir = a;
      continue;
    }
    std::string name;
    if (!flag(args, i, name, value)) return usage_error(name + " needs a value");
    auto number = [&](int& out) {
      try {
        size_t used = 0;
        out = std::stoi(value, &used);
        return used == value.size() && out > 0;
      } catch (const std::exception&) {
        return false;
      }
    };
    if (name == "--port") {
      if (!number(o.port) || o.port > 65535) return usage_error("--port takes a port number, not '" + value + "'");
    } else if (name == "--threads") {
      if (!number(o.threads)) return usage_error("--threads takes a positive number, not '" + value + "'");
    } else if (name == "--model_name") {
      o.model_name = value;
    } else if (name == "--host") {
      o.host = value;
    } else {
      return usage_error("unknown option '" + name + "'");
    }
  }
  if (o.model_dir.empty()) return usage_error("serve needs a SavedModel directory");
  ag::tools::serve(o);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "saved-model") return saved_model(args);
    if (command == "convert") return convert(args);
    if (command == "serve") return serve(args);
  } catch (const ag::Error& e) {
    std::fprintf(stderr, "agc: error: %s: %s\n", e.type_name(), e.what());
    return 1;
  }
  return usage_error("unknown command '" + command + "'");
}

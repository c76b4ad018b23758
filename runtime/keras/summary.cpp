// Model.summary(): Keras 2.15's layer_utils.print_summary, byte for byte.
// A Sequential, a subclassed model and a linear functional chain print three
// columns in 65 characters; a functional model with branches or shared layers
// prints four in 98, the fourth the inbound layers ("Connected to"). Each row
// starts with a space, wraps a field after its first "),", "},", "]," or "',",
// and is followed by a line of spaces; the params lines give the weights'
// float32 bytes in Keras's units ("3.79 KB", "0.00 Byte").
#include <cmath>
#include <cstdio>
#include <set>

#include "runtime/api/py_sys.h"
#include "runtime/api/python_api.h"
#include "runtime/keras/functional.h"
#include "runtime/keras/layer.h"
#include "runtime/keras/model.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"

namespace ag::keras {
namespace {

/// Keras's print_row: `fields` laid out at `positions`, wrapping long ones.
void print_row(std::vector<std::string> left, const std::vector<int>& positions, const std::function<void(std::string)>& emit) {
  auto pending = [&] {
    for (const std::string& s : left) {
      if (!s.empty()) return true;
    }
    return false;
  };
  while (pending()) {
    std::string line;
    for (size_t col = 0; col < left.size(); ++col) {
      int start = col > 0 ? positions[col - 1] : 0;
      int end = positions[col];
      bool last = col == positions.size() - 1;
      int space = last ? 0 : 2;
      int cutoff = end - start - space;
      if (!last) cutoff -= 1;
      std::string fit = left[col].substr(0, std::max(cutoff, 0));
      size_t best = std::string::npos;
      for (const char* tok : {"),", "},", "],", "',"}) {
        size_t at = fit.find(tok);
        if (at != std::string::npos) best = std::min(best, at + 2);
      }
      if (best != std::string::npos) {
        cutoff = static_cast<int>(best);
        fit = fit.substr(0, best);
      }
      if (col == 0) line += " ";
      line += fit;
      if (space) line += "  ";
      left[col] = left[col].size() > static_cast<size_t>(std::max(cutoff, 0)) ? left[col].substr(cutoff) : "";
      if (static_cast<int>(line.size()) < positions[col]) line += std::string(positions[col] - line.size(), ' ');
    }
    emit(line);
  }
}

/// Keras's readable_memory_size: "%.2f <unit>", units of 1024, "Byte" singular.
std::string readable_size(double bytes) {
  static const char* units[] = {"Byte", "KB", "MB", "GB", "TB", "PB"};
  char buf[64];
  for (const char* unit : units) {
    if (bytes / 1024 < 1) {
      std::snprintf(buf, sizeof buf, "%.2f %s", bytes, unit);
      return buf;
    }
    bytes /= 1024;
  }
  std::snprintf(buf, sizeof buf, "%.2f PB", bytes);
  return buf;
}

int64_t count(const std::vector<Value>& weights) {
  int64_t n = 0;
  for (const Value& w : weights) {
    const Shape s = variable_value::read(w).shape();  // a copy: read() returns a temporary
    if (s.fully_defined()) n += s.num_elements();
  }
  return n;
}

/// layer.output_shape as Keras prints it: the one shape of its recorded
/// calls, "multiple" when it has none (a subclassed model's layers) or several.
std::string output_shape_text(const Value& layer) {
  std::vector<Value> shapes = recorded_output_shapes(layer);
  if (shapes.empty()) return "multiple";
  std::set<std::string> distinct;
  for (const Value& s : shapes) distinct.insert(repr(s));
  if (distinct.size() != 1) return "multiple";
  // An InputLayer's node holds its output in a list.
  if (is_instance(layer, input_layer_class())) return "[" + repr(shapes[0]) + "]";
  return repr(shapes[0]);
}

/// Whether a functional graph is a chain (Keras's sequential_like test):
/// every layer called once, on one tensor.
bool sequential_like(const Value& model) {
  auto graph = model_graph(model);
  if (graph == nullptr || is_instance(model, sequential_class())) return true;
  for (const Value& layer : graph_layers(*graph)) {
    if (connected_to(*graph, layer).size() > 1) return false;
    if (recorded_output_shapes(layer).size() > 1) return false;
  }
  // Keras also counts several layers at one depth (two branches from one input).
  std::set<std::string> consumed;
  for (const Value& layer : graph_layers(*graph)) {
    for (const std::string& src : connected_to(*graph, layer)) {
      if (!consumed.insert(src).second) return false;
    }
  }
  return true;
}

Value summary(const std::vector<Value>& a) {
  const Value& model = a[0];
  if (!truthy(model.getattr("built"))) {
    throw ValueError("This model has not yet been built. Build the model first by calling `build()` or by calling the "
                     "model on a batch of data.");
  }
  std::function<void(std::string)> emit = [&](std::string line) {
    if (a[3].is_none()) {
      pymod::write_standard_stream("stdout", line + "\n");
    } else {
      a[3]({Value(std::move(line))}, {});
    }
  };
  bool chain = sequential_like(model);
  int line_length = a[1].is_none() ? (chain ? 65 : 98) : static_cast<int>(a[1].as_int());
  std::vector<double> fractions;
  if (a[2].is_none()) {
    fractions = chain ? std::vector<double>{0.45, 0.85, 1.0} : std::vector<double>{0.3, 0.6, 0.70, 1.0};
  } else {
    for (const Value& p : iterate(a[2])) fractions.push_back(p.as_float());
  }
  std::vector<int> positions;
  for (double p : fractions) positions.push_back(fractions.back() <= 1 ? static_cast<int>(line_length * p) : static_cast<int>(p));
  std::vector<std::string> header = {"Layer (type)", "Output Shape", "Param #"};
  if (!chain) header.push_back("Connected to");
  bool show_trainable = truthy(a[5]);
  if (show_trainable) {
    line_length += 11;
    positions.push_back(line_length);
    header.push_back("Trainable");
  }
  emit("Model: \"" + layer_name(model) + "\"");
  emit(std::string(line_length, '_'));
  print_row(header, positions, emit);
  emit(std::string(line_length, '='));
  auto graph = model_graph(model);
  for (const Value& layer : model_layers(model)) {
    std::string params = truthy(layer.getattr("built")) || is_model(layer)
                             ? std::to_string(count(layer_weights(layer, WeightKind::All)))
                             : "0 (unused)";
    std::vector<std::string> row = {layer_name(layer) + " (" + layer.type_name() + ")",
                                    output_shape_text(layer),
                                    params};
    if (!chain) {
      std::vector<Value> items;
      for (const std::string& c : connected_to(*graph, layer)) items.emplace_back(c);
      row.push_back(repr(Value::list(std::move(items))));
    }
    if (show_trainable) row.push_back(truthy(layer.getattr("trainable")) ? "Y" : "N");
    print_row(row, positions, emit);
    emit(std::string(line_length, ' '));
  }
  emit(std::string(line_length, '='));
  int64_t trainable = count(layer_weights(model, WeightKind::Trainable));
  int64_t frozen = count(layer_weights(model, WeightKind::NonTrainable));
  emit("Total params: " + std::to_string(trainable + frozen) + " (" + readable_size(4.0 * double(trainable + frozen)) + ")");
  emit("Trainable params: " + std::to_string(trainable) + " (" + readable_size(4.0 * double(trainable)) + ")");
  emit("Non-trainable params: " + std::to_string(frozen) + " (" + readable_size(4.0 * double(frozen)) + ")");
  emit(std::string(line_length, '_'));
  return Value();
}

}  // namespace

Value summary_method() {
  return make_function("Model.summary",
                       {{"self", std::nullopt},
                        {"line_length", Value()},
                        {"positions", Value()},
                        {"print_fn", Value()},
                        {"expand_nested", Value(false)},
                        {"show_trainable", Value(false)},
                        {"layer_range", Value()}},
                       summary);
}

}  // namespace ag::keras

// Keras 2.15's legacy HDF5 weights (keras/src/saving/legacy/hdf5_format.py):
// save_weights_to_hdf5_group, load_weights_from_hdf5_group and
// load_weights_from_hdf5_group_by_name; see weights_h5.h.
//
// The file, as h5py 3 writes what Keras hands it:
//   /  attrs layer_names (every layer of model.layers, weightless ones too),
//      backend "tensorflow", keras_version "2.15.0" (variable-length ASCII
//      strings: h5py's type for Python bytes)
//   /dense  attr weight_names ["dense/kernel:0", "dense/bias:0"]; datasets at
//      those names (dense/dense/kernel:0), the layer's trainable weights then
//      its non-trainable ones (Keras's _legacy_weights order)
//   /top_level_model_weights  the model's own weights, the same way
// Groups are made in the order of the layers' names; a weightless layer's
// weight_names is an empty float64 array (NumPy's dtype for []).
#include <algorithm>

#include "runtime/core/error.h"
#include "runtime/core/hdf5_file.h"
#include "runtime/core/variable.h"
#include "runtime/function/function.h"
#include "runtime/keras/layer.h"
#include "runtime/keras/model.h"
#include "runtime/keras/weights_h5.h"
#include "runtime/value/object_model.h"

namespace ag::keras {

namespace {

/// h5py's HDF5_OBJECT_HEADER_LIMIT: the most bytes one attribute may hold.
constexpr size_t kH5AttrLimit = 64512;

/// save_attributes_to_hdf5_group: one attribute, or when the strings would
/// pass the header limit (counted as NumPy's 'S' array of the longest item),
/// chunks `name0`, `name1`, ... each a NumPy 'S' array (fixed-length).
void save_h5_string_list(const Hdf5Group& group, const std::string& name, const std::vector<std::string>& data) {
  std::string bad;
  for (const std::string& x : data) {
    if (x.size() > kH5AttrLimit) bad += (bad.empty() ? "b'" : ", b'") + x + "'";
  }
  if (!bad.empty()) {
    throw RuntimeError("The following attributes cannot be saved to HDF5 file because they are larger than " +
                       std::to_string(kH5AttrLimit) + " bytes: [" + bad + "]");
  }
  size_t itemsize = 0;
  for (const std::string& x : data) itemsize = std::max(itemsize, x.size());
  // np.array_split(data, k): the first len % k pieces one longer.
  auto pieces = [&](size_t k) {
    std::vector<std::vector<std::string>> out;
    size_t n = data.size(), at = 0;
    for (size_t i = 0; i < k; ++i) {
      size_t len = n / k + (i < n % k ? 1 : 0);
      out.emplace_back(data.begin() + static_cast<std::ptrdiff_t>(at), data.begin() + static_cast<std::ptrdiff_t>(at + len));
      at += len;
    }
    return out;
  };
  size_t chunks = 1;
  for (;;) {
    std::vector<std::vector<std::string>> split = pieces(chunks);
    bool fits = std::all_of(split.begin(), split.end(),
                            [&](const std::vector<std::string>& p) { return p.size() * itemsize <= kH5AttrLimit; });
    if (fits) break;
    ++chunks;
  }
  if (chunks == 1) {
    group.set_string_list_attr(name, data);
    return;
  }
  std::vector<std::vector<std::string>> split = pieces(chunks);
  for (size_t i = 0; i < split.size(); ++i) group.set_string_list_attr(name + std::to_string(i), split[i], true);
}

/// load_attributes_from_hdf5_group: the attribute, or its chunks in turn;
/// none when neither exists.
std::vector<std::string> load_h5_string_list(const Hdf5Group& group, const std::string& name) {
  if (group.has_attr(name)) return group.string_list_attr(name);
  std::vector<std::string> out;
  for (int chunk = 0; group.has_attr(name + std::to_string(chunk)); ++chunk) {
    std::vector<std::string> part = group.string_list_attr(name + std::to_string(chunk));
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

/// Keras's _legacy_weights: trainable weights, then non-trainable ones.
std::vector<Value> legacy_weights(const Value& layer) {
  std::vector<Value> out = layer_weights(layer, WeightKind::Trainable);
  std::vector<Value> rest = layer_weights(layer, WeightKind::NonTrainable);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

/// save_subset_weights_to_hdf5_group.
void save_h5_subset(const Hdf5Group& group, const std::vector<Value>& weights) {
  std::vector<std::string> names;
  for (const Value& w : weights) names.push_back(weight_name(w));
  save_h5_string_list(group, "weight_names", names);
  for (size_t i = 0; i < weights.size(); ++i) group.write_dataset(names[i], weight_value(weights[i]));
}

/// load_subset_weights_from_hdf5_group: the datasets weight_names lists.
std::vector<Tensor> load_h5_subset(const Hdf5Group& group) {
  std::vector<Tensor> out;
  for (const std::string& name : load_h5_string_list(group, "weight_names")) out.push_back(group.read_dataset(name));
  return out;
}

std::string h5_class_name(const Value& layer) { return layer.type_name(); }

/// A recurrent layer's attribute (GRU's reset_after), or its cell's.
Value rnn_attr(const Value& layer, const char* name) {
  if (layer.hasattr(name)) return layer.getattr(name);
  return layer.getattr("cell").getattr(name);
}

/// np.transpose(w, (3, 2, 0, 1)): a Theano-ordered convolution kernel.
Tensor theano_kernel(const Tensor& w) {
  if (w.rank() != 4) throw ValueError("axes don't match array");
  const Shape& s = w.shape();
  int64_t d0 = s.dim(0), d1 = s.dim(1), d2 = s.dim(2), d3 = s.dim(3);
  Tensor out(w.dtype(), Shape({d3, d2, d0, d1}));
  size_t size = dtype_size(w.dtype());
  const char* in = static_cast<const char*>(w.raw_data());
  char* dst = static_cast<char*>(out.raw_data());
  for (int64_t a = 0; a < d0; ++a) {
    for (int64_t b = 0; b < d1; ++b) {
      for (int64_t c = 0; c < d2; ++c) {
        for (int64_t d = 0; d < d3; ++d) {
          int64_t from = ((a * d1 + b) * d2 + c) * d3 + d;
          int64_t to = ((d * d2 + c) * d0 + a) * d1 + b;
          std::copy_n(in + from * static_cast<int64_t>(size), size, dst + to * static_cast<int64_t>(size));
        }
      }
    }
  }
  return out;
}

bool h5_same_shape(const Shape& a, const Shape& b) { return a.rank() == b.rank() && a.is_compatible_with(b); }

/// _convert_rnn_weights: which layer wrote an LSTM's or GRU's three weights,
/// told by the bias's shape; Keras's errors when it fits neither or cannot
/// become the target's layout. (cuDNN layouts would be converted; agc has
/// no cuDNN layers, so their files are refused.)
void check_rnn_weights(const Value& layer, const std::vector<Tensor>& w) {
  std::string target = h5_class_name(layer);
  if ((target != "LSTM" && target != "GRU") || w.size() != 3 || w[1].rank() < 1) return;
  int64_t units = w[1].shape().dim(0);
  const Shape& bias = w[2].shape();
  auto is = [&](Shape s) { return h5_same_shape(bias, s); };
  std::string source;
  if (target == "LSTM") {
    if (is(Shape({2 * units * 4}))) source = "CuDNNLSTM";
    else if (is(Shape({units * 4}))) source = "LSTM";
    else throw ValueError("Invalid bias shape: " + shape_text(bias));
  } else {
    if (is(Shape({2 * units * 3}))) source = "CuDNNGRU";
    else if (is(Shape({2, units * 3}))) source = "GRU(reset_after=True)";
    else if (is(Shape({units * 3}))) source = "GRU(reset_after=False)";
    else throw ValueError("Invalid bias shape: " + shape_text(bias));
    target = truthy(rnn_attr(layer, "reset_after")) ? "GRU(reset_after=True)" : "GRU(reset_after=False)";
    if (source != target && (source == "GRU(reset_after=False)" || target == "GRU(reset_after=False)")) {
      throw ValueError(source + " is not compatible with " + target);
    }
  }
  if (source != target) throw UnimplementedError("agc: loading " + source + " weights (cuDNN's layout) is not supported");
}

/// preprocess_weights_for_loading for files Keras 2 wrote: a Bidirectional's
/// halves and a TimeDistributed's layer in turn, a convolution kernel of
/// another shape read as Theano's, and the recurrent layers' bias check.
std::vector<Tensor> preprocess_h5_weights(const Value& layer, std::vector<Tensor> w) {
  std::string cls = h5_class_name(layer);
  if (cls == "Bidirectional") {
    size_t half = w.size() / 2;
    std::vector<Tensor> fwd(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(half));
    std::vector<Tensor> bwd(w.begin() + static_cast<std::ptrdiff_t>(half), w.end());
    fwd = preprocess_h5_weights(layer.getattr("forward_layer"), std::move(fwd));
    bwd = preprocess_h5_weights(layer.getattr("backward_layer"), std::move(bwd));
    fwd.insert(fwd.end(), bwd.begin(), bwd.end());
    w = std::move(fwd);
  }
  if (cls == "TimeDistributed" && layer.hasattr("layer")) w = preprocess_h5_weights(layer.getattr("layer"), std::move(w));
  static const char* kConv[] = {"Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose", "ConvLSTM2D"};
  if (std::find(std::begin(kConv), std::end(kConv), cls) != std::end(kConv) && !w.empty()) {
    std::vector<Value> own = iterate(layer.getattr("weights"));
    if (!own.empty() && !h5_same_shape(own[0].as_variable()->shape(), w[0].shape())) {
      w[0] = theano_kernel(w[0]);
      if (cls == "ConvLSTM2D" && w.size() > 1) w[1] = theano_kernel(w[1]);
    }
  }
  check_rnn_weights(layer, w);
  return w;
}

using WeightValues = std::vector<std::pair<Value, Tensor>>;

/// Keras's batch_set_value, after every check has passed.
void set_h5_values(const WeightValues& values) {
  for (const auto& [var, value] : values) assign_weight(var, value);
}

/// load_weights_from_hdf5_group: the saved layers with weights matched in
/// order to the model's layers with weights.
void load_by_order(const Hdf5Group& f, const Value& model) {
  std::vector<Value> layers;
  for (const Value& l : model_layers(model)) {
    if (!legacy_weights(l).empty()) layers.push_back(l);
  }
  std::vector<std::string> names;
  for (const std::string& name : load_h5_string_list(f, "layer_names")) {
    if (!load_h5_string_list(f.open_group(name), "weight_names").empty()) names.push_back(name);
  }
  if (names.size() != layers.size()) {
    throw ValueError("Layer count mismatch when loading weights from file. Model expected " +
                     std::to_string(layers.size()) + " layers, found " + std::to_string(names.size()) +
                     " saved layers.");
  }
  WeightValues values;
  for (size_t k = 0; k < names.size(); ++k) {
    const Value& layer = layers[k];
    std::vector<Value> symbolic = legacy_weights(layer);
    std::vector<Tensor> saved = preprocess_h5_weights(layer, load_h5_subset(f.open_group(names[k])));
    if (saved.size() != symbolic.size()) {
      throw ValueError("Weight count mismatch for layer #" + std::to_string(k) + " (named " + layer_name(layer) +
                       " in the current model, " + names[k] + " in the save file). Layer expects " +
                       std::to_string(symbolic.size()) + " weight(s). Received " + std::to_string(saved.size()) +
                       " saved weight(s)");
    }
    for (size_t i = 0; i < saved.size(); ++i) values.emplace_back(symbolic[i], saved[i]);
  }
  if (f.contains("top_level_model_weights")) {
    std::vector<Value> symbolic = own_weights(model);
    std::vector<Tensor> saved = load_h5_subset(f.open_group("top_level_model_weights"));
    if (saved.size() != symbolic.size()) {
      throw ValueError("Weight count mismatch for top-level weights when loading weights from file. Model expects " +
                       std::to_string(symbolic.size()) + " top-level weight(s). Received " +
                       std::to_string(saved.size()) + " saved top-level weight(s)");
    }
    for (size_t i = 0; i < saved.size(); ++i) values.emplace_back(symbolic[i], saved[i]);
  }
  set_h5_values(values);
}

/// Adds (weight, value) pairs whose shapes agree; a shape mismatch is
/// Keras's ValueError, or with skip_mismatch its warning and the weight
/// skipped. `where` words the mismatch ("in layer #0 (named dense) for",
/// "in model for top-level"), `skipping` the warning's start.
void take_matching(const std::vector<Value>& symbolic, const std::vector<Tensor>& saved, bool skip_mismatch,
                   const std::string& where, const std::string& skipping, WeightValues& out) {
  for (size_t i = 0; i < saved.size(); ++i) {
    const Shape& expected = symbolic[i].as_variable()->shape();
    const Shape& received = saved[i].shape();
    if (h5_same_shape(expected, received)) {
      out.emplace_back(symbolic[i], saved[i]);
      continue;
    }
    std::string detail = "weight " + weight_name(symbolic[i]) + ". Weight expects shape " + shape_text(expected) +
                         ". Received saved weight with shape " + shape_text(received);
    if (skip_mismatch) {
      tf_warning(skipping + " due to mismatch in shape for " + detail);
      continue;
    }
    throw ValueError("Shape mismatch " + where + " " + detail);
  }
}

/// load_weights_from_hdf5_group_by_name: each saved layer's weights go to
/// the model's layers of that name; layers matching none are left alone.
void load_by_name(const Hdf5Group& f, const Value& model, bool skip_mismatch) {
  std::vector<std::string> names = load_h5_string_list(f, "layer_names");
  std::vector<std::pair<std::string, std::vector<Value>>> index;
  for (const Value& l : model_layers(model)) {
    std::string name = layer_name(l);
    if (name.empty()) continue;
    auto it = std::find_if(index.begin(), index.end(), [&](const auto& e) { return e.first == name; });
    if (it == index.end()) index.push_back({name, {l}});
    else it->second.push_back(l);
  }
  WeightValues values;
  for (size_t k = 0; k < names.size(); ++k) {
    std::vector<Tensor> saved = load_h5_subset(f.open_group(names[k]));
    auto it = std::find_if(index.begin(), index.end(), [&](const auto& e) { return e.first == names[k]; });
    if (it == index.end()) continue;
    for (const Value& layer : it->second) {
      std::vector<Value> symbolic = legacy_weights(layer);
      saved = preprocess_h5_weights(layer, std::move(saved));
      std::string named = "layer #" + std::to_string(k) + " (named " + layer_name(layer) + ")";
      if (saved.size() != symbolic.size()) {
        std::string counts = "Layer expects " + std::to_string(symbolic.size()) + " weight(s). Received " +
                             std::to_string(saved.size()) + " saved weight(s)";
        if (skip_mismatch) {
          tf_warning("Skipping loading of weights for " + named + " due to mismatch in number of weights. " + counts);
          continue;
        }
        throw ValueError("Weight count mismatch for " + named + ". " + counts);
      }
      take_matching(symbolic, saved, skip_mismatch, "in " + named + " for", "Skipping loading weights for " + named,
                    values);
    }
  }
  if (f.contains("top_level_model_weights")) {
    std::vector<Value> symbolic = own_weights(model);
    std::vector<Tensor> saved = load_h5_subset(f.open_group("top_level_model_weights"));
    if (saved.size() != symbolic.size()) {
      std::string counts = "Model expects " + std::to_string(symbolic.size()) + " top-level weight(s). Received " +
                           std::to_string(saved.size()) + " saved top-level weight(s)";
      if (skip_mismatch) {
        tf_warning("Skipping loading top-level weights for model due to mismatch in number of weights. " + counts);
      } else {
        throw ValueError("Weight count mismatch for top-level weights of model. " + counts);
      }
    } else {
      take_matching(symbolic, saved, skip_mismatch, "in model for top-level", "Skipping loading top-level weight for model",
                    values);
    }
  }
  set_h5_values(values);
}

}  // namespace

void save_weights_legacy_h5(const Value& model, const std::string& path) {
  std::vector<Value> layers = model_layers(model);
  Hdf5File file = Hdf5File::create(path);
  Hdf5Group f = file.root();
  std::vector<std::string> names;
  for (const Value& l : layers) names.push_back(layer_name(l));
  save_h5_string_list(f, "layer_names", names);
  f.set_string_attr("backend", "tensorflow");
  f.set_string_attr("keras_version", "2.15.0");
  // Groups in the order of the names, so none is made before a name it
  // prefixes (Keras's comment: "strictly growing to avoid prefix issues").
  std::vector<Value> sorted = layers;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const Value& a, const Value& b) { return layer_name(a) < layer_name(b); });
  for (const Value& l : sorted) save_h5_subset(f.create_group(layer_name(l)), legacy_weights(l));
  save_h5_subset(f.create_group("top_level_model_weights"), own_weights(model));
  file.close();
}

void load_weights_legacy_h5(const Value& model, const std::string& path, bool by_name, bool skip_mismatch) {
  Hdf5File file = Hdf5File::open(path);
  Hdf5Group f = file.root();
  // A whole-model file (model.save to .h5) keeps the weights one level down.
  if (!f.has_attr("layer_names") && f.contains("model_weights")) f = f.open_group("model_weights");
  if (by_name) {
    load_by_name(f, model, skip_mismatch);
  } else {
    load_by_order(f, model);
  }
}

}  // namespace ag::keras

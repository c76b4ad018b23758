// Keras's HDF5 weight files (runtime/keras/weights_h5*.cpp over
// runtime/core/hdf5_file.cpp): what save_weights writes is read back here
// with the HDF5 C API alone (groups, attributes and their types, datasets),
// files as TensorFlow's h5py writes them are made here the same way, and
// every load path is checked: round trips into fresh models, by layer order
// and by name, and each error with Keras's (or h5py's) text.
#include <doctest/doctest.h>
#include <hdf5.h>
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/core/variable.h"
#include "runtime/function/function.h"
#include "runtime/value/object_model.h"
#include "tests/unit/error_text.h"
#include "tests/unit/keras/layer_support.h"

using namespace ag;

// A named namespace rather than an anonymous one: the unit's files share
// unity translation units, and names found here first hide the others'.
namespace h5wt {

using ag::test::error_text;
using ag::test::iota_values;
using ag::test::make_layer;
using ag::test::tensor_of;
using ag::test::values_of;

/// A fresh directory, removed with what it holds.
struct TempDir {
  std::string path;
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "agc_h5_XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    path = tmpl;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string file(const std::string& name) const { return path + "/" + name; }
};

/// Warnings (TF's logging) collected while alive.
struct CapturedWarnings {
  std::vector<std::string> lines;
  CapturedWarnings() {
    set_warning_sink([this](const std::string& m) { lines.push_back(m); });
  }
  ~CapturedWarnings() { set_warning_sink([](const std::string&) {}); }
};

// ---- reading files with the HDF5 C API alone.

/// An open HDF5 file, read-only.
struct RawFile {
  hid_t id;
  explicit RawFile(const std::string& path) : id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT)) {
    REQUIRE(id >= 0);
  }
  ~RawFile() { H5Fclose(id); }
};

herr_t push_name(hid_t, const char* name, const H5L_info_t*, void* out) {
  static_cast<std::vector<std::string>*>(out)->emplace_back(name);
  return 0;
}

/// The links of the group at `path`, in name order.
std::vector<std::string> raw_keys(hid_t file, const std::string& path) {
  hid_t g = H5Gopen2(file, path.c_str(), H5P_DEFAULT);
  REQUIRE(g >= 0);
  std::vector<std::string> out;
  hsize_t idx = 0;
  H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, &idx, push_name, &out);
  H5Gclose(g);
  return out;
}

/// An attribute as stored: its type's class, whether a string is
/// variable-length and its character set, its dims (none for a scalar),
/// and its strings.
struct RawAttr {
  H5T_class_t cls;
  size_t size = 0;
  bool vlen = false;
  H5T_cset_t cset = H5T_CSET_ERROR;
  std::vector<hsize_t> dims;
  std::vector<std::string> strings;
};

RawAttr raw_attr(hid_t file, const std::string& object, const std::string& name) {
  RawAttr out;
  hid_t a = H5Aopen_by_name(file, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(a >= 0);
  hid_t type = H5Aget_type(a);
  hid_t space = H5Aget_space(a);
  out.cls = H5Tget_class(type);
  out.size = H5Tget_size(type);
  int rank = H5Sget_simple_extent_ndims(space);
  out.dims.resize(static_cast<size_t>(rank));
  if (rank > 0) H5Sget_simple_extent_dims(space, out.dims.data(), nullptr);
  hssize_t n = H5Sget_simple_extent_npoints(space);
  if (out.cls == H5T_STRING) {
    out.vlen = H5Tis_variable_str(type) > 0;
    out.cset = H5Tget_cset(type);
    if (out.vlen) {
      std::vector<char*> ptrs(static_cast<size_t>(n));
      hid_t mem = H5Tcopy(H5T_C_S1);
      H5Tset_size(mem, H5T_VARIABLE);
      H5Tset_cset(mem, out.cset);
      REQUIRE(H5Aread(a, mem, ptrs.data()) >= 0);
      for (char* p : ptrs) out.strings.emplace_back(p);
      H5Dvlen_reclaim(mem, space, H5P_DEFAULT, ptrs.data());
      H5Tclose(mem);
    } else {
      std::vector<char> buf(out.size * static_cast<size_t>(n));
      REQUIRE(H5Aread(a, type, buf.data()) >= 0);
      for (hssize_t i = 0; i < n; ++i) out.strings.emplace_back(buf.data() + i * out.size, strnlen(buf.data() + i * out.size, out.size));
    }
  }
  H5Sclose(space);
  H5Tclose(type);
  H5Aclose(a);
  return out;
}

/// A dataset as stored: its type's class, size and byte order, dims, and
/// its values read as doubles.
struct RawDataset {
  H5T_class_t cls;
  size_t size = 0;
  H5T_order_t order = H5T_ORDER_ERROR;
  std::vector<hsize_t> dims;
  std::vector<double> values;
};

RawDataset raw_dataset(hid_t file, const std::string& path) {
  RawDataset out;
  hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
  REQUIRE(d >= 0);
  hid_t type = H5Dget_type(d);
  hid_t space = H5Dget_space(d);
  out.cls = H5Tget_class(type);
  out.size = H5Tget_size(type);
  out.order = H5Tget_order(type);
  int rank = H5Sget_simple_extent_ndims(space);
  out.dims.resize(static_cast<size_t>(rank));
  if (rank > 0) H5Sget_simple_extent_dims(space, out.dims.data(), nullptr);
  out.values.resize(static_cast<size_t>(H5Sget_simple_extent_npoints(space)));
  if (!out.values.empty()) REQUIRE(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.values.data()) >= 0);
  H5Sclose(space);
  H5Tclose(type);
  H5Dclose(d);
  return out;
}

std::vector<std::string> strs(std::initializer_list<const char*> items) { return {items.begin(), items.end()}; }
std::vector<hsize_t> dims(std::initializer_list<hsize_t> d) { return d; }

// ---- writing files as TensorFlow's h5py does, with the C API alone.

/// A file being written the way h5py 3 (or 2) writes Keras's calls.
struct RawWriter {
  hid_t id;
  explicit RawWriter(const std::string& path) : id(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) {
    REQUIRE(id >= 0);
  }
  ~RawWriter() { H5Fclose(id); }

  void group(const std::string& path) {
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t g = H5Gcreate2(id, path.c_str(), lcpl, H5P_DEFAULT, H5P_DEFAULT);
    REQUIRE(g >= 0);
    H5Gclose(g);
    H5Pclose(lcpl);
  }

  /// attrs[name] = [b"...", ...]: variable-length ASCII (h5py 3), or a
  /// NumPy 'S' array (`fixed`, h5py 2 and Keras's chunks); [] is float64.
  void strings_attr(const std::string& object, const std::string& name, const std::vector<std::string>& items,
                    bool fixed = false) {
    hsize_t n = items.size();
    hid_t space = H5Screate_simple(1, &n, nullptr);
    hid_t type;
    std::vector<char> fixed_buf;
    std::vector<const char*> ptrs;
    const void* data;
    if (items.empty()) {
      type = H5Tcopy(H5T_IEEE_F64LE);
      data = nullptr;
    } else if (fixed) {
      size_t size = 1;
      for (const auto& s : items) size = std::max(size, s.size());
      type = H5Tcopy(H5T_C_S1);
      H5Tset_size(type, size);
      H5Tset_strpad(type, H5T_STR_NULLPAD);
      fixed_buf.assign(size * items.size(), '\0');
      for (size_t i = 0; i < items.size(); ++i) std::memcpy(fixed_buf.data() + i * size, items[i].data(), items[i].size());
      data = fixed_buf.data();
    } else {
      type = H5Tcopy(H5T_C_S1);
      H5Tset_size(type, H5T_VARIABLE);
      for (const auto& s : items) ptrs.push_back(s.c_str());
      data = ptrs.data();
    }
    hid_t a = H5Acreate_by_name(id, object.c_str(), name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    REQUIRE(a >= 0);
    if (data != nullptr) REQUIRE(H5Awrite(a, type, data) >= 0);
    H5Aclose(a);
    H5Tclose(type);
    H5Sclose(space);
  }

  /// A float64 dataset (NumPy's default float), intermediate groups made.
  void dataset(const std::string& path, const std::vector<hsize_t>& shape, const std::vector<double>& values) {
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(lcpl, 1);
    hid_t space = shape.empty() ? H5Screate(H5S_SCALAR) : H5Screate_simple(static_cast<int>(shape.size()), shape.data(), nullptr);
    hid_t d = H5Dcreate2(id, path.c_str(), H5T_IEEE_F64LE, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
    REQUIRE(d >= 0);
    REQUIRE(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
    H5Dclose(d);
    H5Sclose(space);
    H5Pclose(lcpl);
  }
};

// ---- models.

Value dense(int64_t units, Kwargs kwargs) { return make_layer(tf::api::keras_layers_Dense(), {Value(units)}, std::move(kwargs)); }

Value input_shape(std::initializer_list<int64_t> d) {
  std::vector<Value> items;
  for (int64_t x : d) items.emplace_back(x);
  return Value::tuple(std::move(items));
}

Value sequential(std::vector<Value> layers) { return tf::api::keras_Sequential()({Value::list(std::move(layers))}, {}); }

/// model.layers[i].
Value layer_at(const Value& model, size_t i) {
  const Value layers = model.getattr("layers");
  return layers.items().at(i);
}

void set_weights(const Value& layer, std::vector<Value> values) {
  layer.getattr("set_weights")({Value::list(std::move(values))}, {});
}

/// Sequential: Dense "d1" (3 -> 2), Dropout "drop", Dense "d0" (2 -> 1),
/// with known weights.
Value three_layer_model() {
  Value m = sequential({dense(2, {{"input_shape", input_shape({3})}, {"name", Value("d1")}}),
                        make_layer(tf::api::keras_layers_Dropout(), {Value(0.5)}, {{"name", Value("drop")}}),
                        dense(1, {{"name", Value("d0")}})});
  set_weights(layer_at(m, 0), {tensor_of(iota_values(6, 0.5f), {3, 2}), tensor_of({1, 2}, {2})});
  set_weights(layer_at(m, 2), {tensor_of({3, 4}, {2, 1}), tensor_of({5}, {1})});
  return m;
}

/// The same architecture under other names (what a second program makes).
Value renamed_model(const std::string& first, const std::string& last, int64_t first_units = 2, bool last_bias = true) {
  return sequential({dense(first_units, {{"input_shape", input_shape({3})}, {"name", Value(first)}}),
                     make_layer(tf::api::keras_layers_Dropout(), {Value(0.5)}, {{"name", Value(first + "_drop")}}),
                     dense(1, {{"name", Value(last)}, {"use_bias", Value(last_bias)}})});
}

void save(const Value& model, const std::string& path, Kwargs kwargs = {}) {
  model.getattr("save_weights")({Value(path)}, std::move(kwargs));
}

Value load(const Value& model, const std::string& path, Kwargs kwargs = {}) {
  return model.getattr("load_weights")({Value(path)}, std::move(kwargs));
}

std::vector<float> all_weights(const Value& model) {
  std::vector<float> out;
  const Value weights = model.getattr("weights");  // the list outlives the loop
  for (const Value& w : weights.items()) {
    std::vector<float> v = values_of(w);
    out.insert(out.end(), v.begin(), v.end());
  }
  return out;
}

/// class Net(keras.Model): hidden = Dense(2), out = Dense(1); call: out(hidden(x)).
Value net_class() {
  static const Value cls = make_class(
      "Net", {tf::api::keras_Model()},
      {{"__init__", make_function("__init__", {{"self", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    super_getattr(net_class(), a[0], "__init__")({}, {});
                                    a[0].setattr("hidden", dense(2, {}));
                                    a[0].setattr("out", dense(1, {}));
                                    return Value();
                                  })},
       {"call", make_function("call", {{"self", std::nullopt}, {"x", std::nullopt}}, [](const std::vector<Value>& a) {
          return a[0].getattr("out")({a[0].getattr("hidden")({a[1]})});
        })}});
  return cls;
}

const std::vector<float> kSavedWeights = {0, 0.5, 1, 1.5, 2, 2.5, 1, 2, 3, 4, 5};

TEST_CASE("save_weights to an .h5 path writes Keras's legacy layout, as h5py 3 stores it") {
  TempDir dir;
  Value model = three_layer_model();
  save(model, dir.file("w.h5"));
  RawFile f(dir.file("w.h5"));
  // Every layer's group, in name order, and the model's own weights.
  CHECK(raw_keys(f.id, "/") == strs({"d0", "d1", "drop", "top_level_model_weights"}));
  RawAttr names = raw_attr(f.id, "/", "layer_names");
  CHECK(names.cls == H5T_STRING);
  CHECK(names.vlen);
  CHECK(names.cset == H5T_CSET_ASCII);
  CHECK(names.dims == dims({3}));
  CHECK(names.strings == strs({"d1", "drop", "d0"}));
  RawAttr backend = raw_attr(f.id, "/", "backend");
  CHECK(backend.vlen);
  CHECK(backend.dims.empty());  // a scalar
  CHECK(backend.strings == strs({"tensorflow"}));
  CHECK(raw_attr(f.id, "/", "keras_version").strings == strs({"2.15.0"}));
  // A layer's weights at their names, in nested groups.
  CHECK(raw_attr(f.id, "/d1", "weight_names").strings == strs({"d1/kernel:0", "d1/bias:0"}));
  CHECK(raw_keys(f.id, "/d1") == strs({"d1"}));
  CHECK(raw_keys(f.id, "/d1/d1") == strs({"bias:0", "kernel:0"}));
  RawDataset kernel = raw_dataset(f.id, "/d1/d1/kernel:0");
  CHECK(kernel.cls == H5T_FLOAT);
  CHECK(kernel.size == 4);
  CHECK(kernel.order == H5T_ORDER_LE);
  CHECK(kernel.dims == dims({3, 2}));
  CHECK(kernel.values == std::vector<double>{0, 0.5, 1, 1.5, 2, 2.5});
  CHECK(raw_dataset(f.id, "/d0/d0/bias:0").values == std::vector<double>{5});
  // No weights: NumPy's empty float64 array.
  for (const char* g : {"/drop", "/top_level_model_weights"}) {
    RawAttr empty = raw_attr(f.id, g, "weight_names");
    CHECK(empty.cls == H5T_FLOAT);
    CHECK(empty.size == 8);
    CHECK(empty.dims == dims({0}));
  }
  CHECK(raw_keys(f.id, "/drop").empty());
}

TEST_CASE("load_weights from a legacy .h5 file: by layer order into a fresh model, or by name") {
  TempDir dir;
  save(three_layer_model(), dir.file("w.h5"));
  // By order: the layers with weights, whatever their names.
  Value fresh = renamed_model("a", "b");
  CHECK(load(fresh, dir.file("w.h5")).is_none());
  CHECK(all_weights(fresh) == kSavedWeights);
  Value x = tensor_of({1, 1, 1}, {1, 3});
  CHECK(values_of(fresh({x})) == values_of(three_layer_model()({x})));
  // By name: "d1" matches, "other" is left as it was.
  Value partial = renamed_model("d1", "other");
  std::vector<float> before = values_of(layer_at(partial, 2).getattr("kernel"));
  load(partial, dir.file("w.h5"), {{"by_name", Value(true)}});
  CHECK(values_of(layer_at(partial, 0).getattr("kernel")) ==
        std::vector<float>{0, 0.5, 1, 1.5, 2, 2.5});
  CHECK(values_of(layer_at(partial, 2).getattr("kernel")) == before);
  // A file without an HDF5 extension is still read as one.
  std::filesystem::copy_file(dir.file("w.h5"), dir.file("weights"));
  Value plain = renamed_model("p", "q");
  CHECK(load(plain, dir.file("weights")).is_none());
  CHECK(all_weights(plain) == kSavedWeights);
}

TEST_CASE("by_name with mismatched layers: Keras's errors, or with skip_mismatch its warnings") {
  TempDir dir;
  save(three_layer_model(), dir.file("w.h5"));
  Value wide = renamed_model("d1", "d0", 4);
  CHECK(error_text([&] { load(wide, dir.file("w.h5"), {{"by_name", Value(true)}}); }) ==
        "ValueError: Shape mismatch in layer #0 (named d1) for weight d1/kernel:0. Weight expects shape (3, 4). "
        "Received saved weight with shape (3, 2)");
  Value no_bias = renamed_model("x", "d0", 2, false);
  CHECK(error_text([&] { load(no_bias, dir.file("w.h5"), {{"by_name", Value(true)}}); }) ==
        "ValueError: Weight count mismatch for layer #2 (named d0). Layer expects 1 weight(s). Received 2 saved "
        "weight(s)");
  CapturedWarnings warnings;
  Value both = renamed_model("d1", "d0", 4, false);
  load(both, dir.file("w.h5"), {{"by_name", Value(true)}, {"skip_mismatch", Value(true)}});
  CHECK(warnings.lines ==
        strs({"Skipping loading weights for layer #0 (named d1) due to mismatch in shape for weight d1/kernel:0. "
              "Weight expects shape (3, 4). Received saved weight with shape (3, 2)",
              "Skipping loading weights for layer #0 (named d1) due to mismatch in shape for weight d1/bias:0. "
              "Weight expects shape (4,). Received saved weight with shape (2,)",
              "Skipping loading of weights for layer #2 (named d0) due to mismatch in number of weights. Layer "
              "expects 1 weight(s). Received 2 saved weight(s)"}));
  CHECK(values_of(layer_at(both, 0).getattr("bias")) == std::vector<float>{0, 0, 0, 0});
}

TEST_CASE("legacy loading errors: Keras's texts for counts and shapes, h5py's for the file") {
  TempDir dir;
  std::string path = dir.file("w.h5");
  save(three_layer_model(), path);
  Value three = sequential({dense(2, {{"input_shape", input_shape({3})}}), dense(2, {}), dense(1, {})});
  CHECK(error_text([&] { load(three, path); }) ==
        "ValueError: Layer count mismatch when loading weights from file. Model expected 3 layers, found 2 saved "
        "layers.");
  Value no_bias = renamed_model("a", "b", 2, false);
  CHECK(error_text([&] { load(no_bias, path); }) ==
        "ValueError: Weight count mismatch for layer #1 (named b in the current model, d0 in the save file). Layer "
        "expects 1 weight(s). Received 2 saved weight(s)");
  Value wide = renamed_model("w1", "w2", 4);
  CHECK(error_text([&] { load(wide, path); }) ==
        "ValueError: Cannot assign value to variable ' w1/kernel:0': Shape mismatch.The variable shape (3, 4), and "
        "the assigned value shape (3, 2) are incompatible.");
  CHECK(error_text([&] { load(wide, path, {{"skip_mismatch", Value(true)}}); }) ==
        "ValueError: When calling model.load_weights, skip_mismatch can only be set to True when by_name is True.");
  // Not HDF5, cut short, absent: h5py's texts, naming the file.
  std::ofstream(dir.file("junk.h5")) << "not an HDF5 file at all";
  CHECK(error_text([&] { load(wide, dir.file("junk.h5")); }) ==
        "OSError: Unable to open file (file signature not found): '" + dir.file("junk.h5") + "'");
  {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::ofstream(dir.file("cut.h5"), std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  }
  std::string cut = error_text([&] { load(wide, dir.file("cut.h5")); });
  CHECK(cut.rfind("OSError: Unable to open file (truncated file: eof = ", 0) == 0);
  CHECK(cut.find(dir.file("cut.h5")) != std::string::npos);
  CHECK(error_text([&] { load(wide, dir.file("absent.h5")); }) ==
        "FileNotFoundError: [Errno 2] Unable to open file (unable to open file: name = '" + dir.file("absent.h5") +
            "', errno = 2, error message = 'No such file or directory', flags = 0, o_flags = 0)");
  // A layer_names entry without its group.
  {
    RawWriter w(dir.file("ghost.h5"));
    w.strings_attr("/", "layer_names", {"ghost"});
  }
  CHECK(error_text([&] { load(wide, dir.file("ghost.h5")); }) ==
        "KeyError: \"Unable to open object (object 'ghost' doesn't exist)\"");
  // A subclassed model that has not made its weights.
  Value subclass = make_class("Net", {tf::api::keras_Model()}, {});
  CHECK(error_text([&] { load(subclass({}, {}), path); }) ==
        "ValueError: Unable to load weights saved in HDF5 format into a subclassed Model which has not created its "
        "variables yet. Call the Model first, then load the weights.");
}

TEST_CASE("save_weights' format rules: save_format, and HDF5 paths refused for TF's format") {
  TempDir dir;
  Value model = three_layer_model();
  CHECK(error_text([&] { save(model, dir.file("w"), {{"save_format", Value("json")}}); }) ==
        "ValueError: Unknown format. Received: `save_format`=json. Was expecting one of {\"tf\", \"h5\"}.");
  CHECK(error_text([&] { save(model, dir.file("w.h5"), {{"save_format", Value("tf")}}); }) ==
        "ValueError: save_weights got save_format=\"tf\"/\"tensorflow\", but the filepath (" + dir.file("w.h5") +
            ") looks like an HDF5 file. Omit the \".h5\"/\".keras\" when saving in TensorFlow format.");
  // save_format=" HDF5 " (stripped, any case) writes HDF5 to any path.
  save(model, dir.file("plain"), {{"save_format", Value(" HDF5 ")}});
  RawFile f(dir.file("plain"));
  CHECK(raw_attr(f.id, "/", "layer_names").strings == strs({"d1", "drop", "d0"}));
  // An unbuilt Sequential has no weights to save.
  Value unbuilt = sequential({dense(2, {})});
  CHECK(error_text([&] { save(unbuilt, dir.file("u.h5")); }) ==
        "ValueError: Weights for model '" + str(unbuilt.getattr("name")) +
            "' have not yet been created. Weights are created when the model is first called on inputs or `build()` "
            "is called with an `input_shape`.");
}

TEST_CASE("a legacy file as h5py 2 wrote it (fixed-length strings, float64 data, chunked layer_names) loads") {
  TempDir dir;
  std::string path = dir.file("old.h5");
  {
    RawWriter w(path);
    w.group("/first");
    w.group("/second");
    // Keras's chunks of a long list: layer_names0, layer_names1.
    w.strings_attr("/", "layer_names0", {"first"}, true);
    w.strings_attr("/", "layer_names1", {"second"}, true);
    w.strings_attr("/", "backend", {"tensorflow"}, true);
    w.strings_attr("/first", "weight_names", {"first/kernel:0", "first/bias:0"}, true);
    w.dataset("/first/first/kernel:0", {3, 2}, {1, 2, 3, 4, 5, 6});
    w.dataset("/first/first/bias:0", {2}, {0.25, 0.5});
    w.strings_attr("/second", "weight_names", {"second/kernel:0", "second/bias:0"}, true);
    w.dataset("/second/second/kernel:0", {2, 1}, {-1, 1});
    w.dataset("/second/second/bias:0", {1}, {0.125});
  }
  Value model = sequential({dense(2, {{"input_shape", input_shape({3})}}), dense(1, {})});
  load(model, path);
  CHECK(all_weights(model) == std::vector<float>{1, 2, 3, 4, 5, 6, 0.25, 0.5, -1, 1, 0.125});
  // A whole-model file keeps them under model_weights.
  std::string whole = dir.file("whole.h5");
  {
    RawWriter w(whole);
    w.group("/model_weights/only");
    w.strings_attr("/model_weights", "layer_names", {"only"});
    w.strings_attr("/model_weights/only", "weight_names", {"only/kernel:0", "only/bias:0"});
    w.dataset("/model_weights/only/only/kernel:0", {3, 1}, {7, 8, 9});
    w.dataset("/model_weights/only/only/bias:0", {1}, {10});
  }
  Value one = sequential({dense(1, {{"input_shape", input_shape({3})}})});
  load(one, whole);
  CHECK(all_weights(one) == std::vector<float>{7, 8, 9, 10});
}

TEST_CASE(".weights.h5: saving_lib's layout, by Keras 2's attribute walk") {
  TempDir dir;
  std::string path = dir.file("m.weights.h5");
  Value model = three_layer_model();
  save(model, path);
  RawFile f(path);
  CHECK(raw_keys(f.id, "/") == strs({"_layer_checkpoint_dependencies", "vars"}));
  CHECK(raw_keys(f.id, "/vars").empty());  // the model's own
  // {"layer_with_weights-0": d1, "layer-0": d1, "layer-1": drop, ...}: each
  // entry counts its class, saved or not.
  CHECK(raw_keys(f.id, "/_layer_checkpoint_dependencies") == strs({"dense", "dense_2", "dropout"}));
  CHECK(raw_keys(f.id, "/_layer_checkpoint_dependencies/dense/vars") == strs({"0", "1"}));
  RawDataset kernel = raw_dataset(f.id, "/_layer_checkpoint_dependencies/dense/vars/0");
  CHECK(kernel.cls == H5T_FLOAT);
  CHECK(kernel.size == 4);
  CHECK(kernel.dims == dims({3, 2}));
  CHECK(kernel.values == std::vector<double>{0, 0.5, 1, 1.5, 2, 2.5});
  CHECK(raw_dataset(f.id, "/_layer_checkpoint_dependencies/dense_2/vars/1").values == std::vector<double>{5});
  CHECK(raw_keys(f.id, "/_layer_checkpoint_dependencies/dropout/vars").empty());
  // A functional model lists its InputLayer too.
  Value x = tf::api::keras_Input()({}, {{"shape", input_shape({3})}});
  Value functional = tf::api::keras_Model()({x, dense(1, {})({x})}, {});
  functional.getattr("save_weights")({Value(dir.file("f.weights.h5"))}, {});
  RawFile g(dir.file("f.weights.h5"));
  CHECK(raw_keys(g.id, "/_layer_checkpoint_dependencies") == strs({"dense", "input_layer"}));
}

TEST_CASE(".weights.h5 of a trained model: the metrics' and the optimizer's variables too") {
  TempDir dir;
  Value model = sequential({dense(1, {{"input_shape", input_shape({1})}, {"kernel_initializer", Value("zeros")}})});
  model.getattr("compile")({}, {{"optimizer", tf::api::keras_optimizers_SGD()({}, {{"learning_rate", Value(0.0)}})},
                                {"loss", Value("mse")}});
  Value xs = tensor_of({1, 2}, {2, 1});
  Value ys = tensor_of({2, 4}, {2, 1});
  model.getattr("fit")({xs, ys}, {{"epochs", Value(1)}, {"verbose", Value(0)}});
  save(model, dir.file("t.weights.h5"));
  RawFile f(dir.file("t.weights.h5"));
  CHECK(raw_keys(f.id, "/") == strs({"_layer_checkpoint_dependencies", "metrics", "optimizer", "vars"}));
  // The "loss" Mean: total (the batch's mean loss, 10, times its size 2), count.
  CHECK(raw_dataset(f.id, "/metrics/mean/vars/0").values == std::vector<double>{20});
  CHECK(raw_dataset(f.id, "/metrics/mean/vars/1").values == std::vector<double>{2});
  // iterations, then SGD's momentum slots (Keras 2 keeps them at momentum 0).
  CHECK(raw_keys(f.id, "/optimizer/vars") == strs({"0", "1", "2"}));
  RawDataset iterations = raw_dataset(f.id, "/optimizer/vars/0");
  CHECK(iterations.cls == H5T_INTEGER);
  CHECK(iterations.size == 8);
  CHECK(iterations.dims.empty());
  CHECK(iterations.values == std::vector<double>{1});
  // Into a fresh compiled model: its metrics are not made yet (nothing to
  // load); its optimizer, not built, has its iterations alone: a warning.
  CapturedWarnings warnings;
  Value fresh = sequential({dense(1, {{"input_shape", input_shape({1})}})});
  fresh.getattr("compile")({}, {{"optimizer", tf::api::keras_optimizers_SGD()({}, {})}, {"loss", Value("mse")}});
  load(fresh, dir.file("t.weights.h5"));
  CHECK(warnings.lines == strs({"Skipping variable loading for optimizer 'SGD', because it has 1 variables whereas "
                                "the saved optimizer has 3 variables. "}));
  CHECK(all_weights(fresh) == std::vector<float>{0, 0});
  // Built, it takes the saved state.
  fresh.getattr("optimizer").getattr("build")({fresh.getattr("trainable_variables")}, {});
  load(fresh, dir.file("t.weights.h5"));
  CHECK(fresh.getattr("optimizer").getattr("iterations").as_variable()->read().scalar_value<int64_t>() == 1);
}

TEST_CASE(".weights.h5 round trip, and Keras's errors on mismatch") {
  TempDir dir;
  std::string path = dir.file("m.weights.h5");
  save(three_layer_model(), path);
  Value fresh = renamed_model("p", "q");
  CHECK(load(fresh, path).is_none());
  CHECK(all_weights(fresh) == kSavedWeights);
  Value no_bias = renamed_model("p2", "q2", 2, false);
  CHECK(error_text([&] { load(no_bias, path); }) ==
        "ValueError: Layer 'q2' expected 1 variables, but received 2 variables during loading. Expected: "
        "['q2/kernel:0']");
  Value wide = renamed_model("p3", "q3", 4);
  CHECK(error_text([&] { load(wide, path); }) ==
        "ValueError: Cannot assign value to variable ' p3/kernel:0': Shape mismatch.The variable shape (3, 4), and "
        "the assigned value shape (3, 2) are incompatible.");
  // skip_mismatch: each object that fails is a warning (both Dense layers
  // here: q3's kernel is (4, 1)).
  CapturedWarnings warnings;
  load(wide, path, {{"skip_mismatch", Value(true)}});
  REQUIRE(warnings.lines.size() == 2);
  CHECK(warnings.lines[0].find("Skipping object. Exception encountered: Cannot assign value to variable ' p3/kernel:0'") !=
        std::string::npos);
  CHECK(warnings.lines[1].find("Cannot assign value to variable ' q3/kernel:0'") != std::string::npos);
  // A legacy file under a .weights.h5 name has no root "vars".
  save(three_layer_model(), dir.file("legacy.h5"));
  std::filesystem::copy_file(dir.file("legacy.h5"), dir.file("legacy.weights.h5"));
  CHECK(error_text([&] { load(fresh, dir.file("legacy.weights.h5")); }) ==
        "KeyError: \"Unable to open object (object 'vars' doesn't exist)\"");
  std::ofstream(dir.file("junk.weights.h5")) << "junk";
  CHECK(error_text([&] { load(fresh, dir.file("junk.weights.h5")); }) ==
        "OSError: Unable to open file (file signature not found): '" + dir.file("junk.weights.h5") + "'");
}

TEST_CASE(".weights.h5 of a subclassed model: its attributes in dir() order, model.layers among them") {
  TempDir dir;
  Value net = net_class()({}, {});
  Value x = tensor_of({1, 2, 3}, {1, 3});
  net({x});
  set_weights(net.getattr("hidden"), {tensor_of(iota_values(6), {3, 2}), tensor_of({1, 2}, {2})});
  set_weights(net.getattr("out"), {tensor_of({3, 4}, {2, 1}), tensor_of({5}, {1})});
  save(net, dir.file("net.weights.h5"));
  {
    RawFile f(dir.file("net.weights.h5"));
    // "hidden" < "layers" < "out": out is first reached through model.layers,
    // as its class's second entry there.
    CHECK(raw_keys(f.id, "/") == strs({"hidden", "layers", "vars"}));
    CHECK(raw_keys(f.id, "/hidden/vars") == strs({"0", "1"}));
    CHECK(raw_keys(f.id, "/layers") == strs({"dense_1"}));
    CHECK(raw_dataset(f.id, "/layers/dense_1/vars/1").values == std::vector<double>{5});
  }
  Value again = net_class()({}, {});
  again({x});
  load(again, dir.file("net.weights.h5"));
  CHECK(all_weights(again) == std::vector<float>{0, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5});
  // The legacy layout too: the layers by attribute order.
  save(net, dir.file("net.h5"));
  Value third = net_class()({}, {});
  third({x});
  load(third, dir.file("net.h5"));
  CHECK(all_weights(third) == all_weights(again));
}

TEST_CASE("a .weights.h5 file as TensorFlow writes it loads (float64 data cast to the variables' float32)") {
  TempDir dir;
  std::string path = dir.file("tf.weights.h5");
  {
    RawWriter w(path);
    w.group("/vars");
    w.dataset("/_layer_checkpoint_dependencies/dense/vars/0", {3, 1}, {0.5, -1, 2});
    w.dataset("/_layer_checkpoint_dependencies/dense/vars/1", {1}, {0.25});
  }
  Value model = sequential({dense(1, {{"input_shape", input_shape({3})}})});
  load(model, path);
  CHECK(all_weights(model) == std::vector<float>{0.5, -1, 2, 0.25});
  CHECK(values_of(model({tensor_of({1, 1, 1}, {1, 3})})) == std::vector<float>{1.75});
}

}  // namespace h5wt

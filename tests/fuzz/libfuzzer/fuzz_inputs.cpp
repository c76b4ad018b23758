#include "tests/fuzz/libfuzzer/fuzz_inputs.h"

#include <algorithm>

#include <google/protobuf/stubs/logging.h>

#include "runtime/api/python_api.h"
#include "runtime/core/error.h"
#include "runtime/core/hdf5_file.h"
#include "runtime/ops/registry.h"

namespace ag::fuzz {
namespace {

/// Reads fields from the front of an input; a field cut short takes what is there.
class Fields {
 public:
  explicit Fields(std::string_view in) : in_(in) {}
  size_t byte() { return at_ < in_.size() ? static_cast<unsigned char>(in_[at_++]) : 0; }
  size_t u16() {
    size_t lo = byte();
    return lo | byte() << 8;
  }
  size_t u32() {
    size_t lo = u16();
    return lo | u16() << 16;
  }
  std::string take(size_t n) {
    std::string_view s = in_.substr(std::min(at_, in_.size()), n);
    at_ += s.size();
    return std::string(s);
  }
  bool done() const { return at_ >= in_.size(); }

 private:
  std::string_view in_;
  size_t at_ = 0;
};

void put_le(std::string& out, size_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

void put_str8(std::string& out, const std::string& s) {
  put_le(out, std::min<size_t>(s.size(), 255), 1);
  out += s.substr(0, 255);
}

/// The dtypes a Keras weight dataset may have (numbers; strings are no weights).
constexpr DType kDatasetTypes[] = {DType::Float32, DType::Float64, DType::Int32, DType::Int64,
                                   DType::BFloat16, DType::Int8,    DType::UInt8, DType::Bool};

/// Keras's attributes (keras/weights_h5_legacy.cpp): string lists, and the
/// scalar strings of the file's root.
constexpr const char* kListAttrs[] = {"layer_names", "weight_names"};
constexpr const char* kScalarAttrs[] = {"backend", "keras_version"};

Hdf5Command hdf5_command(Hdf5Command::Kind kind, std::string path, std::string name = "",
                         std::vector<std::string> items = {}) {
  Hdf5Command c;
  c.kind = kind;
  c.path = std::move(path);
  c.name = std::move(name);
  c.items = std::move(items);
  return c;
}

void walk_hdf5(const Hdf5Group& g, const std::string& at, std::vector<Hdf5Command>& out) {
  for (const char* name : kListAttrs) {
    if (g.has_attr(name)) out.push_back(hdf5_command(Hdf5Command::StringListAttr, at, name, g.string_list_attr(name)));
  }
  for (const char* name : kScalarAttrs) {
    if (g.has_attr(name)) out.push_back(hdf5_command(Hdf5Command::StringAttr, at, name, g.string_list_attr(name)));
  }
  for (const std::string& key : g.keys()) {
    const std::string path = at.empty() ? key : at + "/" + key;
    if (g.is_group(key)) {
      out.push_back(hdf5_command(Hdf5Command::Group, path));
      walk_hdf5(g.open_group(key), path, out);
    } else {
      Hdf5Command c = hdf5_command(Hdf5Command::Dataset, path);
      c.value = g.read_dataset(key);
      out.push_back(std::move(c));
    }
  }
}

}  // namespace

void quiet_protobuf_logs() { google::protobuf::SetLogHandler(nullptr); }

const std::vector<const OpDef*>& fuzzable_ops() {
  static const std::vector<const OpDef*> ops = [] {
    std::vector<const OpDef*> out;
    for (const auto& op : OpRegistry::global().ops()) {
      const OpRole role = op->role();
      if ((role == OpRole::Compute || role == OpRole::Identity) && op->cpu() && op->min_inputs <= 4) out.push_back(op.get());
    }
    return out;
  }();
  return ops;
}

CheckpointInput decode_checkpoint_input(std::string_view in) {
  Fields f(in);
  CheckpointInput out;
  out.raw_index = f.byte() % 2 == 1;
  if (out.raw_index) {
    out.index = f.take(f.u16());
  } else {
    for (size_t n = f.byte(); n > 0 && !f.done(); --n) {
      std::string key = f.take(f.byte());
      std::string value = f.take(f.u16());
      out.entries.emplace_back(std::move(key), std::move(value));
    }
  }
  out.data = f.take(std::string_view::npos);
  return out;
}

std::string encode_checkpoint_input(const CheckpointInput& c) {
  std::string out(1, c.raw_index ? '\1' : '\0');
  if (c.raw_index) {
    put_le(out, c.index.size(), 2);
    out += c.index;
  } else {
    put_le(out, c.entries.size(), 1);
    for (const auto& [key, value] : c.entries) {
      put_le(out, key.size(), 1);
      out += key;
      put_le(out, value.size(), 2);
      out += value;
    }
  }
  return out + c.data;
}

std::vector<Hdf5Command> decode_hdf5_program(std::string_view in) {
  Fields f(in);
  std::vector<Hdf5Command> out;
  while (!f.done()) {
    Hdf5Command c;
    c.kind = static_cast<Hdf5Command::Kind>(f.byte() % 4);
    c.path = f.take(f.byte());
    switch (c.kind) {
      case Hdf5Command::Group: break;
      case Hdf5Command::StringListAttr:
        c.name = f.take(f.byte());
        for (size_t n = f.byte() % 8; n > 0; --n) c.items.push_back(f.take(f.byte()));
        c.fixed_length = f.byte() % 2 == 1;
        break;
      case Hdf5Command::StringAttr:
        c.name = f.take(f.byte());
        c.items.push_back(f.take(f.byte()));
        break;
      case Hdf5Command::Dataset: {
        const DType dtype = kDatasetTypes[f.byte() % std::size(kDatasetTypes)];
        Shape shape;
        for (size_t rank = f.byte() % 4; rank > 0; --rank) shape.push_back(static_cast<int64_t>(f.byte() % 5));
        c.value = Tensor(dtype, shape);
        const std::string bytes = f.take(c.value.byte_size());
        std::copy(bytes.begin(), bytes.end(), static_cast<char*>(c.value.raw_data()));
        if (dtype == DType::Bool) {
          for (int64_t i = 0; i < c.value.num_elements(); ++i) c.value.data<bool>()[i] = bytes.size() > static_cast<size_t>(i) && (bytes[static_cast<size_t>(i)] & 1);
        }
        break;
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::string encode_hdf5_program(const std::vector<Hdf5Command>& program) {
  std::string out;
  for (const Hdf5Command& c : program) {
    put_le(out, c.kind, 1);
    put_str8(out, c.path);
    switch (c.kind) {
      case Hdf5Command::Group: break;
      case Hdf5Command::StringListAttr:
        put_str8(out, c.name);
        put_le(out, std::min<size_t>(c.items.size(), 7), 1);
        for (size_t i = 0; i < std::min<size_t>(c.items.size(), 7); ++i) put_str8(out, c.items[i]);
        put_le(out, c.fixed_length ? 1 : 0, 1);
        break;
      case Hdf5Command::StringAttr:
        put_str8(out, c.name);
        put_str8(out, c.items.empty() ? "" : c.items[0]);
        break;
      case Hdf5Command::Dataset: {
        const auto* t = std::find(std::begin(kDatasetTypes), std::end(kDatasetTypes), c.value.dtype());
        put_le(out, static_cast<size_t>(t - std::begin(kDatasetTypes)), 1);
        put_le(out, static_cast<size_t>(c.value.rank()), 1);
        for (int64_t d : c.value.shape().dims()) put_le(out, static_cast<size_t>(d), 1);
        out.append(static_cast<const char*>(c.value.raw_data()), c.value.byte_size());
        break;
      }
    }
  }
  return out;
}

void write_hdf5_program(const std::vector<Hdf5Command>& program, const std::string& path) {
  Hdf5File file = Hdf5File::create(path);
  const Hdf5Group root = file.root();
  for (const Hdf5Command& c : program) {
    try {
      switch (c.kind) {
        case Hdf5Command::Group: root.create_group(c.path); break;
        case Hdf5Command::StringListAttr:
        case Hdf5Command::StringAttr: {
          const Hdf5Group g = c.path.empty() ? root : root.open_group(c.path);
          if (c.kind == Hdf5Command::StringAttr) g.set_string_attr(c.name, c.items.empty() ? "" : c.items[0]);
          else g.set_string_list_attr(c.name, c.items, c.fixed_length);
          break;
        }
        case Hdf5Command::Dataset: root.write_dataset(c.path, c.value); break;
      }
    } catch (const Error&) {
      // The writer refuses it (h5py would too): the file goes on without it.
    }
  }
  file.close();
}

std::vector<Hdf5Command> hdf5_program_of(const std::string& path) {
  std::vector<Hdf5Command> out;
  walk_hdf5(Hdf5File::open(path).root(), "", out);
  return out;
}

std::vector<std::string> decode_files(std::string_view in, size_t n) {
  Fields f(in);
  std::vector<std::string> out;
  for (size_t i = 0; i + 1 < n; ++i) out.push_back(f.take(f.u32()));
  out.push_back(f.take(std::string_view::npos));
  return out;
}

std::string encode_files(const std::vector<std::string>& files) {
  std::string out;
  for (size_t i = 0; i < files.size(); ++i) {
    if (i + 1 < files.size()) put_le(out, files[i].size(), 4);
    out += files[i];
  }
  return out;
}

Value checkpoint_fuzz_root() {
  return tf::api::train_Checkpoint()(
      {}, {{"step", tf::api::Variable()({Value::list({1.0, 2.0})}, {})},
           {"items", Value::list({tf::api::Variable()({3}, {})})},
           {"d", Value::dict({{Value("k"), tf::api::Variable()({"s"}, {})}})}});
}

Value hdf5_fuzz_model() {
  return tf::api::keras_Sequential()(
      {Value::list({tf::api::keras_layers_Dense()({2}, {{"input_shape", Value::tuple({3})}}),
                    tf::api::keras_layers_Dense()({1}, {})})},
      {});
}

}  // namespace ag::fuzz

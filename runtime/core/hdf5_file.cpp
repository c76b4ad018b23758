// HDF5 files through the HDF5 C API; see hdf5_file.h.
#include "runtime/core/hdf5_file.h"

#include <hdf5.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <regex>

#include "runtime/core/error.h"

namespace ag {

static_assert(sizeof(hid_t) == sizeof(int64_t), "hid_t is a 64-bit id from HDF5 1.10 on");

Hdf5Handle& Hdf5Handle::operator=(Hdf5Handle&& o) noexcept {
  if (this != &o) {
    reset();
    id_ = o.id_;
    close_ = o.close_;
    o.id_ = -1;
  }
  return *this;
}

void Hdf5Handle::reset() {
  if (id_ >= 0 && close_ != nullptr) close_(id_);
  id_ = -1;
}

namespace {

/// HDF5 prints its error stack to stderr on every failure unless told not
/// to; the setting belongs to the calling thread's stack (a thread-safe
/// build keeps one per thread), so each thread turns it off once.
void quiet_hdf5() {
  thread_local bool quiet = false;
  if (!quiet) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    quiet = true;
  }
}

/// The descriptions at both ends of the current error stack: the API call's
/// ("unable to open file") and the innermost one ("file signature not found").
struct H5StackEnds {
  std::string top, bottom;
};

herr_t h5_keep_description(unsigned, const H5E_error2_t* err, void* data) {
  *static_cast<std::string*>(data) = err->desc != nullptr ? err->desc : "";
  return 0;
}

H5StackEnds h5_stack_ends() {
  H5StackEnds ends;
  // Each step overwrites the kept text: walking up ends at the API call,
  // walking down at the innermost function (as h5py's set_exception reads them).
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, h5_keep_description, &ends.top);
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, h5_keep_description, &ends.bottom);
  return ends;
}

/// Python's str.capitalize().
std::string h5_capitalized(std::string s) {
  for (size_t i = 0; i < s.size(); ++i) {
    s[i] = static_cast<char>(i == 0 ? std::toupper(static_cast<unsigned char>(s[i]))
                                    : std::tolower(static_cast<unsigned char>(s[i])));
  }
  return s;
}

/// Python's repr of a str (the quote it picks; no escapes needed for the
/// names and messages here): what KeyError prints.
std::string h5_quoted(const std::string& s) {
  bool single = s.find('\'') != std::string::npos && s.find('"') == std::string::npos;
  char q = single ? '"' : '\'';
  return q + s + q;
}

/// h5py's message for the failure just reported: "Unable to open file (file
/// signature not found)"; `fallback` when HDF5 left no description.
std::string h5_stack_message(const std::string& fallback) {
  H5StackEnds ends = h5_stack_ends();
  if (ends.top.empty()) return fallback;
  return h5_capitalized(ends.top) + " (" + ends.bottom + ")";
}

/// h5py's OSError for a failed file call: the errno HDF5's text carries
/// picks the subclass Python's OSError(errno, msg) makes ("[Errno 2] ...");
/// without one, the file's path follows the text, so it names the file.
[[noreturn]] void h5_throw_file_error(const std::string& path, const std::string& fallback) {
  std::string msg = h5_stack_message(fallback);
  std::smatch m;
  static const std::regex errno_re("errno = ([0-9]+)");
  if (std::regex_search(msg, m, errno_re)) {
    int code = std::stoi(m[1]);
    std::string text = "[Errno " + std::to_string(code) + "] " + msg;
    switch (code) {
      case 2: throw FileNotFoundError(text);
      case 13: throw PermissionError(text);
      case 17: throw FileExistsError(text);
      case 20: throw NotADirectoryError(text);
      case 21: throw IsADirectoryError(text);
      default: throw OSError(text);
    }
  }
  throw OSError(msg + ": " + h5_quoted(path));
}

/// An OSError for a failed read or write inside an open file (h5py's text,
/// then the file).
[[noreturn]] void h5_throw_io_error(const std::string& path, const std::string& fallback) {
  throw OSError(h5_stack_message(fallback) + ": " + h5_quoted(path));
}

[[noreturn]] void h5_throw_missing(const std::string& name) {
  throw KeyError(h5_quoted("Unable to open object (object " + h5_quoted(name) + " doesn't exist)"));
}

int h5_close_file(int64_t id) { return H5Fclose(id); }
int h5_close_group(int64_t id) { return H5Gclose(id); }
int h5_close_object(int64_t id) { return H5Oclose(id); }
int h5_close_dataset(int64_t id) { return H5Dclose(id); }
int h5_close_attr(int64_t id) { return H5Aclose(id); }
int h5_close_space(int64_t id) { return H5Sclose(id); }
int h5_close_type(int64_t id) { return H5Tclose(id); }
int h5_close_plist(int64_t id) { return H5Pclose(id); }

/// h5py's link creation list: intermediate groups made, names flagged UTF-8.
Hdf5Handle h5_link_create_plist() {
  Hdf5Handle lcpl(H5Pcreate(H5P_LINK_CREATE), h5_close_plist);
  H5Pset_create_intermediate_group(lcpl.id(), 1);
  H5Pset_char_encoding(lcpl.id(), H5T_CSET_UTF8);
  return lcpl;
}

/// The variable-length ASCII string type h5py makes for bytes.
Hdf5Handle h5_vlen_ascii_type() {
  Hdf5Handle t(H5Tcopy(H5T_C_S1), h5_close_type);
  H5Tset_size(t.id(), H5T_VARIABLE);
  H5Tset_cset(t.id(), H5T_CSET_ASCII);
  return t;
}

/// The kind of object at `path` (H5I_GROUP, H5I_DATASET), or H5I_BADID when
/// it cannot be opened.
H5I_type_t h5_object_kind(hid_t group, const char* path) {
  Hdf5Handle obj(H5Oopen(group, path, H5P_DEFAULT), h5_close_object);
  return obj.valid() ? H5Iget_type(obj.id()) : H5I_BADID;
}

/// The path's links checked one by one (H5Lexists needs every parent to
/// exist, and a dataset has nothing below it).
bool h5_path_exists(hid_t group, const std::string& path) {
  if (path.empty() || path == "/") return true;
  std::string prefix;
  size_t i = 0;
  if (path[0] == '/') {
    prefix = "/";
    i = 1;
  }
  while (i < path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    if (j > i) {
      prefix += path.substr(i, j - i);
      if (H5Lexists(group, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
      if (j < path.size() && h5_object_kind(group, prefix.c_str()) != H5I_GROUP) return false;
      prefix += '/';
    }
    i = j + 1;
  }
  return true;
}

std::string h5_joined(const std::string& base, const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  return base == "/" ? "/" + path : base + "/" + path;
}

/// The little-endian file type of a dtype (NumPy's '<f4' and friends); for
/// bool h5py's enum of int8 (FALSE 0, TRUE 1).
Hdf5Handle h5_file_type(DType dtype) {
  switch (dtype) {
    case DType::Float32: return Hdf5Handle(H5Tcopy(H5T_IEEE_F32LE), h5_close_type);
    case DType::Float64: return Hdf5Handle(H5Tcopy(H5T_IEEE_F64LE), h5_close_type);
    case DType::Int8: return Hdf5Handle(H5Tcopy(H5T_STD_I8LE), h5_close_type);
    case DType::UInt8: return Hdf5Handle(H5Tcopy(H5T_STD_U8LE), h5_close_type);
    case DType::Int32: return Hdf5Handle(H5Tcopy(H5T_STD_I32LE), h5_close_type);
    case DType::Int64: return Hdf5Handle(H5Tcopy(H5T_STD_I64LE), h5_close_type);
    case DType::Bool: {
      Hdf5Handle t(H5Tenum_create(H5T_NATIVE_INT8), h5_close_type);
      int8_t no = 0, yes = 1;
      H5Tenum_insert(t.id(), "FALSE", &no);
      H5Tenum_insert(t.id(), "TRUE", &yes);
      return t;
    }
    case DType::String:
    case DType::BFloat16:
    case DType::Variant: break;
  }
  throw UnimplementedError(std::string("agc: a ") + dtype_name(dtype) + " tensor cannot be stored in an HDF5 dataset");
}

/// The in-memory type for a dtype's values (a bool is one byte, 0 or 1).
hid_t h5_memory_type(DType dtype) {
  switch (dtype) {
    case DType::Float32: return H5T_NATIVE_FLOAT;
    case DType::Float64: return H5T_NATIVE_DOUBLE;
    case DType::Int8: return H5T_NATIVE_INT8;
    case DType::UInt8:
    case DType::Bool: return H5T_NATIVE_UINT8;
    case DType::Int32: return H5T_NATIVE_INT32;
    case DType::Int64: return H5T_NATIVE_INT64;
    case DType::String:
    case DType::BFloat16:
    case DType::Variant: break;
  }
  throw UnimplementedError(std::string("agc: HDF5 values cannot be read as ") + dtype_name(dtype));
}

Shape h5_space_shape(hid_t space) {
  int rank = H5Sget_simple_extent_ndims(space);
  if (rank <= 0) return Shape({});
  std::vector<hsize_t> dims(static_cast<size_t>(rank));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  std::vector<int64_t> out(dims.begin(), dims.end());
  return Shape(std::span<const int64_t>(out));
}

/// The dtype a dataset of `type` reads as: its own, or the nearest wider one
/// agc has (float16 as float32, int16 as int32, uint32 as int64, ...); an
/// enum of one byte is h5py's bool. None for other types.
std::optional<DType> h5_natural_dtype(hid_t type) {
  size_t size = H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_FLOAT: return size <= 4 ? DType::Float32 : DType::Float64;
    case H5T_INTEGER:
      if (H5Tget_sign(type) == H5T_SGN_NONE) return size == 1 ? DType::UInt8 : size == 2 ? DType::Int32 : DType::Int64;
      return size == 1 ? DType::Int8 : size <= 4 ? DType::Int32 : DType::Int64;
    case H5T_ENUM: return size == 1 ? std::optional<DType>(DType::Bool) : std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace

// ---- Hdf5Group.

bool Hdf5Group::contains(const std::string& path) const {
  quiet_hdf5();
  return h5_path_exists(id_->id(), path);
}

bool Hdf5Group::is_group(const std::string& path) const {
  quiet_hdf5();
  return h5_path_exists(id_->id(), path) && h5_object_kind(id_->id(), path.c_str()) == H5I_GROUP;
}

Hdf5Group Hdf5Group::create_group(const std::string& path) const {
  quiet_hdf5();
  if (h5_path_exists(id_->id(), path)) throw ValueError("Unable to create group (name already exists)");
  Hdf5Handle lcpl = h5_link_create_plist();
  hid_t g = H5Gcreate2(id_->id(), path.c_str(), lcpl.id(), H5P_DEFAULT, H5P_DEFAULT);
  if (g < 0) h5_throw_io_error(*file_path_, "Unable to create group");
  return Hdf5Group(std::make_shared<Hdf5Handle>(g, h5_close_group), file_path_, h5_joined(name_, path));
}

Hdf5Group Hdf5Group::open_group(const std::string& path) const {
  quiet_hdf5();
  if (!h5_path_exists(id_->id(), path)) h5_throw_missing(path);
  hid_t g = H5Gopen2(id_->id(), path.c_str(), H5P_DEFAULT);
  if (g < 0) {
    // A dataset where a group was expected: h5py would hand back the
    // dataset; every caller here wants a group.
    throw ValueError("Unable to open group " + h5_quoted(h5_joined(name_, path)) + " in " + h5_quoted(*file_path_) +
                     ": it is not a group");
  }
  return Hdf5Group(std::make_shared<Hdf5Handle>(g, h5_close_group), file_path_, h5_joined(name_, path));
}

namespace {

herr_t h5_collect_link(hid_t, const char* name, const H5L_info_t*, void* data) {
  static_cast<std::vector<std::string>*>(data)->emplace_back(name);
  return 0;
}

}  // namespace

std::vector<std::string> Hdf5Group::keys() const {
  quiet_hdf5();
  std::vector<std::string> out;
  hsize_t idx = 0;
  if (H5Literate(id_->id(), H5_INDEX_NAME, H5_ITER_INC, &idx, h5_collect_link, &out) < 0) {
    h5_throw_io_error(*file_path_, "Unable to list a group");
  }
  return out;
}

bool Hdf5Group::has_attr(const std::string& name) const {
  quiet_hdf5();
  return H5Aexists(id_->id(), name.c_str()) > 0;
}

namespace {

/// Replaces attribute `name` of `obj` with one of `type` over `space`
/// holding `data` (h5py's attrs[name] = value).
void h5_write_attr(hid_t obj, const std::string& name, hid_t type, hid_t space, const void* data, const std::string& path) {
  if (H5Aexists(obj, name.c_str()) > 0) H5Adelete(obj, name.c_str());
  Hdf5Handle attr(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), h5_close_attr);
  if (!attr.valid()) h5_throw_io_error(path, "Unable to create attribute");
  // An empty attribute (no `data`) has nothing to write.
  if (data != nullptr && H5Awrite(attr.id(), type, data) < 0) h5_throw_io_error(path, "Unable to write attribute");
}

}  // namespace

void Hdf5Group::set_string_list_attr(const std::string& name, const std::vector<std::string>& items,
                                     bool fixed_length) const {
  quiet_hdf5();
  hsize_t n = items.size();
  Hdf5Handle space(H5Screate_simple(1, &n, nullptr), h5_close_space);
  if (items.empty()) {
    h5_write_attr(id_->id(), name, H5T_IEEE_F64LE, space.id(), nullptr, *file_path_);
    return;
  }
  if (fixed_length) {
    size_t size = 1;
    for (const std::string& s : items) size = std::max(size, s.size());
    Hdf5Handle type(H5Tcopy(H5T_C_S1), h5_close_type);
    H5Tset_size(type.id(), size);
    H5Tset_strpad(type.id(), H5T_STR_NULLPAD);
    H5Tset_cset(type.id(), H5T_CSET_ASCII);
    std::vector<char> buf(size * items.size(), '\0');
    for (size_t i = 0; i < items.size(); ++i) std::memcpy(buf.data() + i * size, items[i].data(), items[i].size());
    h5_write_attr(id_->id(), name, type.id(), space.id(), buf.data(), *file_path_);
    return;
  }
  Hdf5Handle type = h5_vlen_ascii_type();
  std::vector<const char*> ptrs;
  for (const std::string& s : items) ptrs.push_back(s.c_str());
  h5_write_attr(id_->id(), name, type.id(), space.id(), ptrs.data(), *file_path_);
}

void Hdf5Group::set_string_attr(const std::string& name, const std::string& value) const {
  quiet_hdf5();
  Hdf5Handle space(H5Screate(H5S_SCALAR), h5_close_space);
  Hdf5Handle type = h5_vlen_ascii_type();
  const char* ptr = value.c_str();
  h5_write_attr(id_->id(), name, type.id(), space.id(), &ptr, *file_path_);
}

std::vector<std::string> Hdf5Group::string_list_attr(const std::string& name) const {
  quiet_hdf5();
  Hdf5Handle attr(H5Aopen(id_->id(), name.c_str(), H5P_DEFAULT), h5_close_attr);
  if (!attr.valid()) {
    throw KeyError(h5_quoted("Can't open attribute (can't locate attribute: " + h5_quoted(name) + ")"));
  }
  Hdf5Handle type(H5Aget_type(attr.id()), h5_close_type);
  Hdf5Handle space(H5Aget_space(attr.id()), h5_close_space);
  hssize_t n = H5Sget_simple_extent_npoints(space.id());
  if (n < 0) h5_throw_io_error(*file_path_, "Unable to read attribute");
  std::vector<std::string> out;
  if (H5Tget_class(type.id()) != H5T_STRING) {
    if (n == 0) return out;  // np.asarray([]): an empty float64 array
    throw ValueError("Attribute " + h5_quoted(name) + " of " + h5_quoted(name_) + " in " + h5_quoted(*file_path_) +
                     " does not hold strings");
  }
  if (n == 0) return out;
  if (H5Tis_variable_str(type.id()) > 0) {
    Hdf5Handle mem = h5_vlen_ascii_type();
    H5Tset_cset(mem.id(), H5Tget_cset(type.id()));
    std::vector<char*> ptrs(static_cast<size_t>(n), nullptr);
    if (H5Aread(attr.id(), mem.id(), ptrs.data()) < 0) h5_throw_io_error(*file_path_, "Unable to read attribute");
    for (char* p : ptrs) out.emplace_back(p != nullptr ? p : "");
    H5Dvlen_reclaim(mem.id(), space.id(), H5P_DEFAULT, ptrs.data());
    return out;
  }
  // Fixed-length (h5py 2's NumPy 'S' arrays): NUL-padded items.
  size_t size = H5Tget_size(type.id());
  Hdf5Handle mem(H5Tcopy(type.id()), h5_close_type);
  std::vector<char> buf(size * static_cast<size_t>(n));
  if (H5Aread(attr.id(), mem.id(), buf.data()) < 0) h5_throw_io_error(*file_path_, "Unable to read attribute");
  for (hssize_t i = 0; i < n; ++i) {
    const char* p = buf.data() + static_cast<size_t>(i) * size;
    out.emplace_back(p, strnlen(p, size));
  }
  return out;
}

void Hdf5Group::write_dataset(const std::string& path, const Tensor& value) const {
  quiet_hdf5();
  if (h5_path_exists(id_->id(), path)) throw ValueError("Unable to create dataset (name already exists)");
  Hdf5Handle type = h5_file_type(value.dtype());
  Hdf5Handle space;
  if (value.rank() == 0) {
    space = Hdf5Handle(H5Screate(H5S_SCALAR), h5_close_space);
  } else {
    std::vector<hsize_t> dims;
    for (int i = 0; i < value.rank(); ++i) dims.push_back(static_cast<hsize_t>(value.shape().dim(i)));
    space = Hdf5Handle(H5Screate_simple(value.rank(), dims.data(), nullptr), h5_close_space);
  }
  Hdf5Handle lcpl = h5_link_create_plist();
  Hdf5Handle dset(H5Dcreate2(id_->id(), path.c_str(), type.id(), space.id(), lcpl.id(), H5P_DEFAULT, H5P_DEFAULT),
                  h5_close_dataset);
  if (!dset.valid()) h5_throw_io_error(*file_path_, "Unable to create dataset");
  if (value.num_elements() == 0) return;
  hid_t mem = value.dtype() == DType::Bool ? type.id() : h5_memory_type(value.dtype());
  if (H5Dwrite(dset.id(), mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, value.raw_data()) < 0) {
    h5_throw_io_error(*file_path_, "Unable to write dataset");
  }
}

Shape Hdf5Group::dataset_shape(const std::string& path) const {
  quiet_hdf5();
  if (!h5_path_exists(id_->id(), path)) h5_throw_missing(path);
  Hdf5Handle dset(H5Dopen2(id_->id(), path.c_str(), H5P_DEFAULT), h5_close_dataset);
  if (!dset.valid()) h5_throw_io_error(*file_path_, "Unable to open dataset");
  Hdf5Handle space(H5Dget_space(dset.id()), h5_close_space);
  return h5_space_shape(space.id());
}

Tensor Hdf5Group::read_dataset(const std::string& path) const {
  quiet_hdf5();
  if (!h5_path_exists(id_->id(), path)) h5_throw_missing(path);
  Hdf5Handle dset(H5Dopen2(id_->id(), path.c_str(), H5P_DEFAULT), h5_close_dataset);
  if (!dset.valid()) h5_throw_io_error(*file_path_, "Unable to open dataset");
  Hdf5Handle type(H5Dget_type(dset.id()), h5_close_type);
  std::optional<DType> dtype = h5_natural_dtype(type.id());
  if (!dtype) {
    throw ValueError("Dataset " + h5_quoted(h5_joined(name_, path)) + " in " + h5_quoted(*file_path_) + " does not hold numbers");
  }
  Hdf5Handle space(H5Dget_space(dset.id()), h5_close_space);
  Tensor out(*dtype, h5_space_shape(space.id()));
  if (out.num_elements() == 0) return out;
  // h5py's bool enum reads as its bytes (0 and 1); numbers through HDF5's
  // conversion to the native type.
  hid_t mem = *dtype == DType::Bool ? type.id() : h5_memory_type(*dtype);
  if (H5Dread(dset.id(), mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.raw_data()) < 0) {
    h5_throw_io_error(*file_path_, "Can't read data");
  }
  return out;
}

// ---- Hdf5File.

Hdf5File::Hdf5File(Hdf5Handle file, std::shared_ptr<const std::string> path)
    : file_(std::make_shared<Hdf5Handle>(std::move(file))),
      root_(std::make_shared<Hdf5Handle>(H5Gopen2(file_->id(), "/", H5P_DEFAULT), h5_close_group), path, "/") {
  if (!root_.id_->valid()) h5_throw_io_error(*path, "Unable to open the root group");
}

Hdf5File Hdf5File::create(const std::string& path) {
  quiet_hdf5();
  hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) h5_throw_file_error(path, "Unable to create file");
  return Hdf5File(Hdf5Handle(f, h5_close_file), std::make_shared<const std::string>(path));
}

Hdf5File Hdf5File::open(const std::string& path) {
  quiet_hdf5();
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) h5_throw_file_error(path, "Unable to open file");
  return Hdf5File(Hdf5Handle(f, h5_close_file), std::make_shared<const std::string>(path));
}

bool Hdf5File::is_hdf5(const std::string& path) {
  static const char kSignature[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  if (!in.read(head, 8)) return false;
  return std::memcmp(head, kSignature, 8) == 0;
}

void Hdf5File::close() {
  if (!file_ || !file_->valid()) return;
  quiet_hdf5();
  std::string path = root_.file_path();
  root_.id_->reset();
  if (H5Fflush(file_->id(), H5F_SCOPE_LOCAL) < 0) {
    file_->reset();
    h5_throw_io_error(path, "Unable to flush file");
  }
  file_->reset();
}

}  // namespace ag

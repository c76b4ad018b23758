// HDF5 files through the HDF5 C library (Debian's libhdf5): a file, its
// groups, string attributes and numeric datasets, as h5py writes and reads
// them (what Keras's HDF5 weight files are made of). Handles close
// themselves; HDF5's own error printing is off, and its failures become
// h5py's exceptions with h5py's texts ("Unable to open file (file signature
// not found)": the failing call's description, then the innermost one), the
// file's path appended where h5py's text does not name it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/core/shape.h"
#include "runtime/core/tensor.h"

namespace ag {

/// One HDF5 object id (hid_t), closed by the function it was opened for.
class Hdf5Handle {
 public:
  using Closer = int (*)(int64_t);
  Hdf5Handle() = default;
  Hdf5Handle(int64_t id, Closer close) : id_(id), close_(close) {}
  Hdf5Handle(Hdf5Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Hdf5Handle& operator=(Hdf5Handle&& o) noexcept;
  Hdf5Handle(const Hdf5Handle&) = delete;
  Hdf5Handle& operator=(const Hdf5Handle&) = delete;
  ~Hdf5Handle() { reset(); }
  int64_t id() const { return id_; }
  bool valid() const { return id_ >= 0; }
  void reset();

 private:
  int64_t id_ = -1;
  Closer close_ = nullptr;
};

/// A group of an open file (the root group included). Names may hold '/':
/// paths below the group, as in h5py's `group["a/b"]`.
class Hdf5Group {
 public:
  /// h5py's `name in group`: true when every link along the path exists.
  bool contains(const std::string& path) const;
  /// True when `path` names a group (false when absent or a dataset).
  bool is_group(const std::string& path) const;
  /// h5py's create_group (missing intermediate groups made too); ValueError
  /// "Unable to create group (name already exists)" when it exists.
  Hdf5Group create_group(const std::string& path) const;
  /// h5py's `group[path]` for a group: KeyError "Unable to open object
  /// (object 'x' doesn't exist)" when absent.
  Hdf5Group open_group(const std::string& path) const;
  /// The links directly below, in name order (h5py's keys() of a file
  /// written without creation-order tracking).
  std::vector<std::string> keys() const;

  bool has_attr(const std::string& name) const;
  /// An attribute of strings as h5py stores a list of bytes: variable-length
  /// ASCII strings, or an empty float64 array for an empty list (NumPy's
  /// dtype for `np.asarray([])`). `fixed_length`: as h5py stores a NumPy 'S'
  /// array instead, NUL-padded strings of the longest item's size.
  void set_string_list_attr(const std::string& name, const std::vector<std::string>& items,
                            bool fixed_length = false) const;
  /// A scalar attribute as h5py stores bytes: a variable-length ASCII string.
  void set_string_attr(const std::string& name, const std::string& value) const;
  /// A string attribute's items (fixed- or variable-length, scalar or 1-D; a
  /// scalar is one item); an empty numeric array gives none. ValueError for
  /// any other attribute.
  std::vector<std::string> string_list_attr(const std::string& name) const;

  /// h5py's create_dataset(path, shape, dtype) and `dset[...] = value`: a
  /// contiguous dataset of the tensor's little-endian type (a scalar
  /// dataspace for a scalar), intermediate groups made.
  void write_dataset(const std::string& path, const Tensor& value) const;
  /// The dataset's dims; KeyError as open_group when absent.
  Shape dataset_shape(const std::string& path) const;
  /// The dataset's values in its own dtype, or the nearest wider one agc has
  /// (float16 as float32, uint16 as int32, ...; h5py's bool enum as bool);
  /// ValueError for a dataset of anything but numbers.
  Tensor read_dataset(const std::string& path) const;

  /// The file's path, for messages.
  const std::string& file_path() const { return *file_path_; }
  /// "/a/b": the group's path in the file.
  const std::string& name() const { return name_; }

 private:
  friend class Hdf5File;
  Hdf5Group(std::shared_ptr<Hdf5Handle> id, std::shared_ptr<const std::string> file_path, std::string name)
      : id_(std::move(id)), file_path_(std::move(file_path)), name_(std::move(name)) {}
  std::shared_ptr<Hdf5Handle> id_;
  std::shared_ptr<const std::string> file_path_;
  std::string name_;
};

/// An HDF5 file, closed (and flushed) when destroyed or by close().
class Hdf5File {
 public:
  /// h5py.File(path, "w"): created, or truncated when it exists. OSError
  /// (FileNotFoundError, PermissionError, ... for an errno) with h5py's text.
  static Hdf5File create(const std::string& path);
  /// h5py.File(path, "r"). OSError with h5py's text, the path appended when
  /// HDF5's does not name it: "Unable to open file (file signature not
  /// found): 'w.h5'".
  static Hdf5File open(const std::string& path);
  /// True when the file starts with HDF5's signature (at offset 0).
  static bool is_hdf5(const std::string& path);

  Hdf5Group root() const { return root_; }
  /// Closes the file, reporting a failure to write it out.
  void close();

 private:
  Hdf5File(Hdf5Handle file, std::shared_ptr<const std::string> path);
  std::shared_ptr<Hdf5Handle> file_;
  Hdf5Group root_;
};

}  // namespace ag

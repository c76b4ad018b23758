// Keras weights in HDF5 files (core/hdf5_file), in the two layouts Keras
// 2.15 writes, so weights trained in TensorFlow load into a program and back:
// - the legacy layout (hdf5_format.save_weights_to_hdf5_group): root
//   attributes layer_names, backend and keras_version, one group per layer of
//   model.layers with a weight_names attribute and one dataset per weight at
//   its name ("dense/kernel:0"), and "top_level_model_weights"; loaded by
//   layer order (load_weights_from_hdf5_group) or by layer name
//   (load_weights_from_hdf5_group_by_name), with Keras's checks and texts;
// - the `.weights.h5` layout of saving_lib (save_weights_only): a "vars"
//   group per Keras object (layer, metric, optimizer) holding its own
//   variables as datasets "0", "1", ..., at the path Keras's attribute walk
//   reaches it by ("_layer_checkpoint_dependencies/dense/vars/0").
// model.cpp chooses between them by the path, as Keras's saving_api does.
#pragma once

#include <string>
#include <vector>

#include "runtime/core/tensor.h"
#include "runtime/value/value.h"

namespace ag::keras {

/// Model.save_weights to an HDF5 path in the legacy layout.
void save_weights_legacy_h5(const Value& model, const std::string& path);
/// Model.load_weights from a legacy HDF5 file (a whole-model file's
/// "model_weights" group too): by layer order, or by layer name when
/// `by_name` (then `skip_mismatch` turns count and shape mismatches into
/// warnings).
void load_weights_legacy_h5(const Value& model, const std::string& path, bool by_name, bool skip_mismatch);

/// Model.save_weights to a `.weights.h5` path (saving_lib.save_weights_only).
void save_weights_v3(const Value& model, const std::string& path);
/// Model.load_weights from a `.weights.h5` file (saving_lib.load_weights_only):
/// `skip_mismatch` makes an object that fails to load a warning.
void load_weights_v3(const Value& model, const std::string& path, bool skip_mismatch);

// ---- shared by both layouts (weights_h5.cpp).

/// The variable's value now, as stored in a file.
Tensor weight_value(const Value& var);
/// `var.assign(value)` as Keras's loaders call it: the value cast to the
/// variable's dtype (NumPy's asarray(value, dtype)), then TF's
/// ResourceVariable.assign check: "Cannot assign value to variable '
/// dense/kernel:0': Shape mismatch.The variable shape (3, 2), and the
/// assigned value shape (4, 2) are incompatible."
void assign_weight(const Value& var, const Tensor& value);
/// The variable's name as Keras prints it ("dense/kernel:0").
std::string weight_name(const Value& var);

}  // namespace ag::keras

// A SavedModel directory's saved_model.pb (TF's loader_impl.parse_saved_model
// and the tag-set lookup), shared by tf.saved_model.load, `agc saved-model
// show` and the TPU converter; and TF's constants for it.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace tensorflow {
class SavedModel;
class MetaGraphDef;
}  // namespace tensorflow

namespace ag {

/// TF's constants (signature_constants.py, tag_constants.py, constants.py).
inline constexpr const char* kDefaultServingSignature = "serving_default";
inline constexpr const char* kPredictMethodName = "tensorflow/serving/predict";
inline constexpr const char* kServeTag = "serve";
inline constexpr const char* kInitOpSignature = "__saved_model_init_op";

/// saved_model.pb of `dir`, parsed. OSError "SavedModel file does not exist
/// at: DIR/{saved_model.pbtxt|saved_model.pb}" when absent, OSError "Cannot
/// parse file PATH: ..." when it is not a SavedModel.
std::shared_ptr<tensorflow::SavedModel> read_saved_model(const std::string& dir);
/// The MetaGraphDef tagged exactly `tags` (the only one when `tags` is
/// empty); RuntimeError listing the tag-sets present otherwise.
const tensorflow::MetaGraphDef& find_meta_graph(const tensorflow::SavedModel& model, const std::vector<std::string>& tags);

}  // namespace ag

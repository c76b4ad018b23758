// tf.saved_model (save.py, load.py): a trackable object, its tf.functions,
// their signatures and variables as TensorFlow's SavedModel directory:
//   saved_model.pb       a SavedModel proto (core/proto/saved_model.proto)
//                        with one MetaGraphDef tagged "serve": the
//                        GraphDef (signature placeholders, variable handles,
//                        a StatefulPartitionedCall per signature) and its
//                        function library (graph/function_def), the
//                        signature defs, the function aliases, the
//                        SavedObjectGraph;
//   variables/variables  the checkpoint of the object graph (api/checkpoint),
//                        whose node ids are the SavedObjectGraph's;
//   assets/              empty: agc saves no assets.
// Loading reads it back (agc's or TensorFlow's, when agc has its ops) as
// objects with their variables, restored tf.functions and `signatures`.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/value/value.h"

namespace tensorflow {
class SavedModel;
class MetaGraphDef;
}  // namespace tensorflow

namespace ag {

/// TF's constants (signature_constants.py, tag_constants.py).
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

/// `saved_model_cli show --dir DIR --all`: every signature of every
/// MetaGraphDef with its inputs and outputs, then the saved tf.functions
/// with their concrete signatures, as saved_model_cli prints them.
std::string saved_model_show_all(const std::string& dir);

}  // namespace ag

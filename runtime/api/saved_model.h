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

#include "runtime/core/saved_model_file.h"
#include "runtime/value/value.h"

namespace ag {


/// `saved_model_cli show --dir DIR --all`: every signature of every
/// MetaGraphDef with its inputs and outputs, then the saved tf.functions
/// with their concrete signatures, as saved_model_cli prints them.
std::string saved_model_show_all(const std::string& dir);

}  // namespace ag

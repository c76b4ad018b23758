#include "runtime/core/object_graph_values.h"

#include "runtime/core/error.h"
#include "runtime/core/proto/trackable_object_graph.pb.h"
#include "runtime/core/tensor_bundle.h"

namespace ag {

std::map<int, Tensor> read_object_graph_values(const std::string& prefix) {
  BundleReader reader(prefix);
  if (!reader.contains(kObjectGraphKey)) {
    throw DataLossError("Checkpoint " + prefix + " has no object graph");
  }
  tensorflow::TrackableObjectGraph graph;
  if (!graph.ParseFromString(reader.get(kObjectGraphKey).data<std::string>()[0])) {
    throw DataLossError("The object graph of checkpoint " + prefix + " cannot be parsed");
  }
  std::map<int, Tensor> out;
  for (int i = 0; i < graph.nodes_size(); ++i) {
    for (const auto& attr : graph.nodes(i).attributes()) {
      if (attr.name() != kVariableValue) continue;
      if (!reader.contains(attr.checkpoint_key())) {
        throw NotFoundError("Key " + attr.checkpoint_key() + " not found in checkpoint");
      }
      out.emplace(i, reader.get(attr.checkpoint_key()));
    }
  }
  return out;
}

}  // namespace ag

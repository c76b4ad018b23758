#include "runtime/core/saved_model_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runtime/core/error.h"
#include "runtime/core/proto/saved_model.pb.h"

namespace ag {
namespace {

namespace fs = std::filesystem;

std::string tag_set(const google::protobuf::RepeatedPtrField<std::string>& tags) {
  std::string s;
  for (const auto& t : tags) s += (s.empty() ? "" : ", ") + t;
  return s;
}

}  // namespace

std::shared_ptr<tensorflow::SavedModel> read_saved_model(const std::string& dir) {
  fs::path pb = fs::path(dir) / "saved_model.pb";
  std::ifstream in(pb, std::ios::binary);
  if (!in) {
    throw OSError("SavedModel file does not exist at: " + dir + "/{saved_model.pbtxt|saved_model.pb}");
  }
  std::stringstream bytes;
  bytes << in.rdbuf();
  auto model = std::make_shared<tensorflow::SavedModel>();
  if (!model->ParseFromString(bytes.str())) {
    throw OSError("Cannot parse file " + pb.string() + ": Error parsing message with type 'tensorflow.SavedModel'.");
  }
  if (model->meta_graphs_size() == 0) throw OSError("Cannot parse file " + pb.string() + ": it holds no MetaGraphDef.");
  return model;
}

const tensorflow::MetaGraphDef& find_meta_graph(const tensorflow::SavedModel& model, const std::vector<std::string>& tags) {
  if (tags.empty() && model.meta_graphs_size() == 1) return model.meta_graphs(0);
  std::vector<std::string> want = tags.empty() ? std::vector<std::string>{kServeTag} : tags;
  std::sort(want.begin(), want.end());
  std::string present;
  for (const auto& m : model.meta_graphs()) {
    std::vector<std::string> have(m.meta_info_def().tags().begin(), m.meta_info_def().tags().end());
    std::sort(have.begin(), have.end());
    if (have == want) return m;
    present += (present.empty() ? "" : ", ") + std::string("[") + tag_set(m.meta_info_def().tags()) + "]";
  }
  std::string asked;
  for (const auto& t : want) asked += (asked.empty() ? "" : ", ") + t;
  throw RuntimeError("MetaGraphDef associated with tags {" + asked +
                     "} could not be found in SavedModel, with available tags '" + present + "'");
}

}  // namespace ag

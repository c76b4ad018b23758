// libFuzzer target: SavedModel directories (runtime/api/saved_model.h), as
// tf.saved_model.load and `agc saved-model show` read them. Each input is a
// directory's three files (fuzz_inputs.h decode_files: saved_model.pb, then
// variables/variables.index and its data file), read by saved_model_show_all
// and by tf.saved_model.load: the functions of its library read back as
// graphs (agc's ops with the attributes the file gives), its objects and
// their variables restored; then its functions f and g (the seeds') are
// called, running those graphs. Each succeeds or raises an agc error.
#include <cstdint>
#include <filesystem>
#include <string>

#include "runtime/api/python_api.h"
#include "runtime/api/saved_model.h"
#include "tests/fuzz/libfuzzer/fuzz_inputs.h"
#include "tests/fuzz/libfuzzer/fuzz_target.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ag::fuzz::quiet_protobuf_logs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string dir = [] {
    std::string d = ag::fuzz::scratch_path("saved_model");
    std::filesystem::create_directories(d + "/variables");
    return d;
  }();
  const std::vector<std::string> files = ag::fuzz::decode_files(ag::fuzz::as_text(data, size), 3);
  ag::fuzz::write_file(dir + "/saved_model.pb", files[0]);
  ag::fuzz::write_file(dir + "/variables/variables.index", files[1]);
  ag::fuzz::write_file(dir + "/variables/variables.data-00000-of-00001", files[2]);

  ag::fuzz::expect_clean("saved_model_show_all", [&] { (void)ag::saved_model_show_all(dir); });
  ag::Value loaded;
  if (!ag::fuzz::expect_clean("tf.saved_model.load", [&] { loaded = ag::tf::api::saved_model_load({ag::Value(dir)}, {}); })) {
    return 0;
  }
  // The seeds' functions (seed_corpus.cpp): f over float32 [None, 2], g over [2].
  static const ag::Value rows = ag::tf::api::constant({ag::Value::list({ag::Value::list({1.0, -2.0})})}, {});
  static const ag::Value pair = ag::tf::api::constant({ag::Value::list({0.5, 1.5})}, {});
  for (const auto& call : {std::pair{"f", rows}, std::pair{"g", pair}}) {
    ag::fuzz::expect_clean(std::string("calling the loaded ") + call.first,
                           [&] { (void)loaded.getattr(call.first)({call.second}, {}); });
  }
  return 0;
}

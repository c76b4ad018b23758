// libFuzzer target: Keras weight files in HDF5 (runtime/keras/weights_h5.h),
// as model.load_weights reads them. Each input is a program (fuzz_inputs.h
// Hdf5Command) that writes a valid HDF5 file of any groups, Keras attributes
// and datasets with agc's own writer; the file is then loaded into a fixed
// model (fuzz_inputs.h) three ways: the legacy layout by layer order, by
// layer name with skip_mismatch, and as a `.weights.h5` file (saving_lib's
// layout). Each loads or raises h5py's or Keras's error; none may crash.
//
// Why not raw bytes: libhdf5 (Debian's 1.10.8, not instrumented) has bugs of
// its own on corrupt files, which raw-byte fuzzing finds at once (a
// heap-use-after-free in H5Aexists, leaks in H5Fopen; docs/testing.md):
// they are upstream's, and they hid agc's loaders from the fuzzer.
#include <cstdint>
#include <filesystem>
#include <string>

#include "tests/fuzz/libfuzzer/fuzz_inputs.h"
#include "tests/fuzz/libfuzzer/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const ag::Value model = ag::fuzz::hdf5_fuzz_model();
  static const ag::Value load_weights = model.getattr("load_weights");
  static const std::string legacy = ag::fuzz::scratch_path("w.h5");
  static const std::string v3 = ag::fuzz::scratch_path("w.weights.h5");

  ag::fuzz::expect_clean("writing the program's HDF5 file", [&] {
    ag::fuzz::write_hdf5_program(ag::fuzz::decode_hdf5_program(ag::fuzz::as_text(data, size)), legacy);
  });
  std::filesystem::copy_file(legacy, v3, std::filesystem::copy_options::overwrite_existing);
  ag::fuzz::expect_clean("load_weights (legacy HDF5)", [&] { load_weights({ag::Value(legacy)}, {}); });
  ag::fuzz::expect_clean("load_weights (legacy HDF5, by_name, skip_mismatch)", [&] {
    load_weights({ag::Value(legacy)}, {{"by_name", true}, {"skip_mismatch", true}});
  });
  ag::fuzz::expect_clean("load_weights (.weights.h5)", [&] { load_weights({ag::Value(v3)}, {}); });
  return 0;
}

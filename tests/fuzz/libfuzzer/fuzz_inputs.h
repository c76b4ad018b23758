// The input formats of the targets whose input is more than one file, and the
// live objects the targets load into, shared with the seed writer
// (seed_corpus.cpp) so that the seeds are in the targets' own formats and
// were written from the same objects by agc's own writers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/core/tensor.h"
#include "runtime/value/value.h"

namespace ag {
struct OpDef;
}

namespace ag::fuzz {

/// Silences libprotobuf's log lines ("String field ... contains invalid
/// UTF-8 data"), which a mutated message prints on nearly every run.
void quiet_protobuf_logs();

/// The ops ops_fuzz may run: those that run without subgraphs, in
/// registration order. (Ops naming a variable or a dataset by attribute are
/// in: a graph from a file can name one that does not exist.) An ops_fuzz
/// input starts with the op's name (its length, then its bytes).
const std::vector<const OpDef*>& fuzzable_ops();

/// checkpoint_fuzz's input. A checkpoint is two files, and its index is a
/// LevelDB table whose blocks carry checksums the fuzzer cannot forge, so an
/// input is either the table's entries (the target builds a valid table of
/// them) or raw index bytes, then the data file:
///
///   byte 0 even: structured: byte 1 = number of entries, each
///                u8 key length, key, u16 (little-endian) value length, value
///   byte 0 odd:  raw: u16 index length, the index file's bytes
///   then:        the data file's bytes (the rest of the input)
///
/// A field cut short by the end of the input takes what is there.
struct CheckpointInput {
  bool raw_index = false;
  std::vector<std::pair<std::string, std::string>> entries;  // structured: as given (unsorted, maybe repeated)
  std::string index;                                         // raw
  std::string data;
};
CheckpointInput decode_checkpoint_input(std::string_view in);
std::string encode_checkpoint_input(const CheckpointInput& c);

/// Several files in one input (saved_model_fuzz: saved_model.pb and the
/// variables' index and data): each but the last as a u32 (little-endian)
/// length and its bytes, the last the rest of the input. Decoding gives
/// exactly `n` files (missing ones empty).
std::vector<std::string> decode_files(std::string_view in, size_t n);
std::string encode_files(const std::vector<std::string>& files);

/// hdf5_fuzz's input: a program that writes a valid HDF5 file with agc's own
/// writer (core/hdf5_file.h), so that the fuzzer explores agc's Keras weight
/// loaders, not libhdf5's parser of corrupt bytes (which has bugs of its own
/// upstream fixes: docs/testing.md). Commands until the input ends, each a
/// kind byte and a path (strings are a length byte, then the bytes):
///   0 group        make group PATH
///   1 string list  attribute NAME = N strings on group PATH ("" the root),
///                  then a byte: fixed-length strings when odd
///   2 string       attribute NAME = one variable-length string
///   3 dataset      a byte for the dtype, one for the rank (0-3), one per
///                  dim (0-4), then the elements' little-endian bytes
struct Hdf5Command {
  enum Kind : uint8_t { Group, StringListAttr, StringAttr, Dataset };
  Kind kind = Group;
  std::string path;
  std::string name;                // the attributes'
  std::vector<std::string> items;  // the attributes' strings
  bool fixed_length = false;
  Tensor value;                    // Dataset
};
std::vector<Hdf5Command> decode_hdf5_program(std::string_view in);
std::string encode_hdf5_program(const std::vector<Hdf5Command>& program);
/// Creates `path` and runs the program; a command the writer refuses (a
/// name that exists, a path through a dataset) is skipped.
void write_hdf5_program(const std::vector<Hdf5Command>& program, const std::string& path);
/// The program that writes the groups, datasets and Keras's attributes of
/// an existing file (the seeds).
std::vector<Hdf5Command> hdf5_program_of(const std::string& path);

/// The object graph checkpoint_fuzz restores into, made anew each time:
/// tf.train.Checkpoint(step=tf.Variable([1.0, 2.0]), items=[tf.Variable(3)],
/// d={"k": tf.Variable("s")}).
Value checkpoint_fuzz_root();

/// The model hdf5_fuzz loads weights into: tf.keras.Sequential([
/// Dense(2, input_shape=(3,)), Dense(1)]), built.
Value hdf5_fuzz_model();

}  // namespace ag::fuzz

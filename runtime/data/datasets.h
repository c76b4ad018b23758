// The kinds of dataset, one factory each (their files are named after them).
// Arguments are checked by the Python-facing layer (runtime/api/data_*.cpp),
// which raises TF's errors; these only build.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/data/dataset.h"
#include "runtime/data/dataset_function.h"

namespace ag::data {

/// Dataset.from_tensor_slices: row i of every component (all have dim 0 = n).
DatasetPtr tensor_slice_dataset(std::vector<Tensor> components, ElementSpec batched);
/// Dataset.from_tensors: the components once.
DatasetPtr tensor_dataset(std::vector<Tensor> components, ElementSpec spec);
/// Dataset.range(start, stop, step) of `dtype` (int64 by default).
DatasetPtr range_dataset(int64_t start, int64_t stop, int64_t step, DType dtype);
/// Dataset.zip: elements of `inputs` side by side until the shortest ends;
/// `spec` nests their element specs as the Python call did (a tuple or dict).
DatasetPtr zip_dataset(std::vector<DatasetPtr> inputs, ElementSpec spec);
/// Dataset.concatenate.
DatasetPtr concatenate_dataset(DatasetPtr first, DatasetPtr second);

/// batch(batch_size, drop_remainder).
DatasetPtr batch_dataset(DatasetPtr input, int64_t batch_size, bool drop_remainder);
/// padded_batch: each component padded to `padded_shapes` (unknown dims: the
/// batch's longest) with `padding_values` (one scalar per component).
DatasetPtr padded_batch_dataset(DatasetPtr input, int64_t batch_size, std::vector<Shape> padded_shapes,
                                std::vector<Tensor> padding_values, bool drop_remainder);
/// unbatch: the rows of each element.
DatasetPtr unbatch_dataset(DatasetPtr input);

/// shuffle with TF's ShuffleDatasetV3 order (seeds already through get_seed;
/// 0, 0 draws a nondeterministic pair).
DatasetPtr shuffle_dataset(DatasetPtr input, int64_t buffer_size, int64_t seed, int64_t seed2, bool reshuffle);

/// map(fn): the traced function on every element.
DatasetPtr map_dataset(DatasetPtr input, std::shared_ptr<const DatasetFunction> fn, bool parallel);
/// filter(predicate): the elements whose traced predicate is true.
DatasetPtr filter_dataset(DatasetPtr input, std::shared_ptr<const DatasetFunction> predicate);

/// repeat(count); count -1 repeats forever.
DatasetPtr repeat_dataset(DatasetPtr input, int64_t count);
/// take(count); count -1 takes everything.
DatasetPtr take_dataset(DatasetPtr input, int64_t count);
/// skip(count); count -1 skips everything.
DatasetPtr skip_dataset(DatasetPtr input, int64_t count);

/// cache(): the first complete pass is kept in memory and replayed.
DatasetPtr cache_dataset(DatasetPtr input);
/// prefetch(buffer_size): elements computed ahead on a background thread.
DatasetPtr prefetch_dataset(DatasetPtr input, int64_t buffer_size);

/// TFRecordDataset: the records of `files` in order, as string scalars.
DatasetPtr tfrecord_dataset(std::vector<std::string> files, std::string compression_type);

}  // namespace ag::data

// CRC-32C (Castagnoli), the checksum TensorFlow's file formats store masked:
// tensor bundles (checkpoints) and TFRecord files.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ag {

/// CRC-32C of `data`, continuing from `crc` (0 to start).
uint32_t crc32c_extend(uint32_t crc, const void* data, size_t n);
/// The masked form TF and LevelDB store (a CRC of data holding CRCs stays useful).
inline uint32_t crc32c_mask(uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

}  // namespace ag

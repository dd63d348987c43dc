#pragma once
// A unit of saved work: named arrays of integers and of bytes (packed result rows), as
// one rank's checkpoint file holds them and as a shard's result is read for `merge`.
// The drivers decide the names and what the arrays mean; this type only stores them.

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runner/h5/h5.hpp"

namespace levelforge {

// How segments pack what they hold under `key`: elements of `type`, `block` of them per
// unit (a task, a failure, a point), one unit after another. A checkpoint's manifest holds
// one for each such key, so that a reader outside levelforge decodes the packed bytes
// without a copy of levelforge's layouts (docs/checkpoint.md).
struct PackedLayout {
  std::string key;
  h5::Datatype type;
  std::vector<hsize_t> block;
  std::string result_path;         // the result file's dataset the units become rows of; "": none
  std::vector<std::byte> missing;  // one element meaning "no value"; empty: none
};

class Segment {
 public:
  void put_ints(const std::string& name, std::vector<std::int64_t> values);
  void put_bytes(const std::string& name, std::vector<std::byte> bytes);
  void append_ints(const std::string& name, std::span<const std::int64_t> values);
  void append_bytes(const std::string& name, std::span<const std::byte> bytes);

  // Empty when absent.
  [[nodiscard]] std::span<const std::int64_t> ints(std::string_view name) const;
  [[nodiscard]] std::span<const std::byte> bytes(std::string_view name) const;
  [[nodiscard]] bool empty() const { return ints_.empty() && bytes_.empty(); }

  // For sending between ranks.
  [[nodiscard]] std::vector<std::byte> serialize() const;
  // Throws std::runtime_error on bytes that are not a serialized Segment.
  static Segment deserialize(std::span<const std::byte> bytes);

  // One HDF5 file of 1-D datasets (int64 and uint8), written by one process under a
  // temporary name, synced and renamed into place: a killed writer leaves `path`.tmp, never
  // a half-written `path`. Throws h5::IoError. Each of `layouts` becomes the empty dataset
  // `layouts/KEY` of its type and dimensions (0, block...), `missing` its fill value, with
  // `result_path` as the attribute `path` where there is one; read() does not read them.
  void write(const std::string& path, const std::vector<PackedLayout>& layouts = {}) const;
  static Segment read(const std::string& path);

 private:
  std::map<std::string, std::vector<std::int64_t>, std::less<>> ints_;
  std::map<std::string, std::vector<std::byte>, std::less<>> bytes_;
};

}  // namespace levelforge

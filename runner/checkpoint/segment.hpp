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

namespace levelforge {

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
  // a half-written `path`. Throws h5::IoError.
  void write(const std::string& path) const;
  static Segment read(const std::string& path);

 private:
  std::map<std::string, std::vector<std::int64_t>, std::less<>> ints_;
  std::map<std::string, std::vector<std::byte>, std::less<>> bytes_;
};

}  // namespace levelforge

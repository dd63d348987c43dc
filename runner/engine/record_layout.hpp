#pragma once
// Byte rows for records: fields packed in declaration order with no padding, which is
// also the HDF5 compound layout the output uses, so rows go to disk without copying.

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/api/record.hpp"

namespace levelforge {

class RecordLayout {
 public:
  RecordLayout() = default;
  explicit RecordLayout(std::vector<FieldSpec> fields);

  // `prefix` fields first, then `rest`.
  static RecordLayout concat(std::vector<FieldSpec> prefix, const std::vector<FieldSpec>& rest);

  [[nodiscard]] std::size_t row_size() const { return row_size_; }
  [[nodiscard]] const std::vector<FieldSpec>& fields() const { return fields_; }
  [[nodiscard]] std::size_t offset(std::size_t field) const { return offsets_[field]; }
  [[nodiscard]] static std::size_t field_size(const FieldSpec& field);
  // The position of the field named `name`; throws std::out_of_range when there is none.
  [[nodiscard]] std::size_t index_of(std::string_view name) const;

  // Checks the record against the fields (count, types, text lengths); `context` names
  // the producer in the KernelError thrown otherwise.
  void pack(const Record& record, std::span<std::byte> row, std::string_view context) const;
  [[nodiscard]] Record unpack(std::span<const std::byte> row) const;

  // Rows for "no value": int fields -1, real fields NaN, text empty.
  void fill_missing(std::span<std::byte> row) const;

  void set_int(std::span<std::byte> row, std::size_t field, std::int64_t value) const;
  void set_real(std::span<std::byte> row, std::size_t field, double value) const;
  [[nodiscard]] std::int64_t get_int(std::span<const std::byte> row, std::size_t field) const;
  [[nodiscard]] double get_real(std::span<const std::byte> row, std::size_t field) const;

 private:
  std::vector<FieldSpec> fields_;
  std::vector<std::size_t> offsets_;
  std::size_t row_size_ = 0;
};

}  // namespace levelforge

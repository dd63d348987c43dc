#pragma once
// Byte rows for records: fields packed in declaration order with no padding, which is
// also the HDF5 compound layout the output uses, so rows go to disk without copying.
// Kernels write their solution rows in place through RowWriter (reductions.hpp).

#include <cstddef>
#include <cstdint>
#include <cstring>
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

  // Inline: kernels write a row per solution through these.
  void set_int(std::span<std::byte> row, std::size_t field, std::int64_t value) const {
    std::memcpy(row.data() + offsets_[field], &value, sizeof value);
  }
  void set_real(std::span<std::byte> row, std::size_t field, double value) const {
    std::memcpy(row.data() + offsets_[field], &value, sizeof value);
  }
  // The bytes after `value` are zeroed; throws KernelError, naming `context` and the field,
  // when `value` is longer than the field.
  void set_text(std::span<std::byte> row, std::size_t field, std::string_view value,
                std::string_view context) const {
    fill_text(row, field, value, context);
    const auto width = fields_[field].text_size;
    std::memset(row.data() + offsets_[field] + value.size(), 0, width - value.size());
  }
  // set_text into a field that is still zero: the bytes after `value` are left as they are.
  void fill_text(std::span<std::byte> row, std::size_t field, std::string_view value,
                 std::string_view context) const {
    if (value.size() > fields_[field].text_size) throw_too_long(field, value.size(), context);
    std::memcpy(row.data() + offsets_[field], value.data(), value.size());
  }
  [[nodiscard]] std::int64_t get_int(std::span<const std::byte> row, std::size_t field) const;
  [[nodiscard]] double get_real(std::span<const std::byte> row, std::size_t field) const;

 private:
  [[noreturn]] void throw_too_long(std::size_t field, std::size_t size,
                                   std::string_view context) const;

  std::vector<FieldSpec> fields_;
  std::vector<std::size_t> offsets_;
  std::size_t row_size_ = 0;
};

// A zeroed row of a layout written field by field, each field at most once (a text's
// padding is the zero already there); field numbers are declaration positions.
class RowWriter {
 public:
  RowWriter(const RecordLayout& layout, std::span<std::byte> row, std::string_view context)
      : layout_(&layout), row_(row), context_(context) {}
  RowWriter& integer(std::size_t field, std::int64_t value) {
    layout_->set_int(row_, field, value);
    return *this;
  }
  RowWriter& real(std::size_t field, double value) {
    layout_->set_real(row_, field, value);
    return *this;
  }
  RowWriter& text(std::size_t field, std::string_view value) {
    layout_->fill_text(row_, field, value, context_);
    return *this;
  }

 private:
  const RecordLayout* layout_;
  std::span<std::byte> row_;
  std::string_view context_;
};

}  // namespace levelforge

#include "kernels/api/record_layout.hpp"

#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "kernels/api/params.hpp"

namespace levelforge {

RecordLayout::RecordLayout(std::vector<FieldSpec> fields) : fields_(std::move(fields)) {
  for (const auto& field : fields_) {
    offsets_.push_back(row_size_);
    row_size_ += field_size(field);
  }
}

RecordLayout RecordLayout::concat(std::vector<FieldSpec> prefix,
                                  const std::vector<FieldSpec>& rest) {
  prefix.insert(prefix.end(), rest.begin(), rest.end());
  return RecordLayout(std::move(prefix));
}

std::size_t RecordLayout::field_size(const FieldSpec& field) {
  return field.type == FieldType::text ? field.text_size : sizeof(std::int64_t);
}

namespace {
template <class T>
void store(std::span<std::byte> row, std::size_t offset, T value) {
  std::memcpy(row.data() + offset, &value, sizeof value);
}

template <class T>
T load(std::span<const std::byte> row, std::size_t offset) {
  T value{};
  std::memcpy(&value, row.data() + offset, sizeof value);
  return value;
}
}  // namespace

void RecordLayout::pack(const Record& record, std::span<std::byte> row,
                        std::string_view context) const {
  if (record.size() != fields_.size()) {
    throw KernelError(std::string(context) + ": record has " + std::to_string(record.size()) +
                      " values, the kernel declares " + std::to_string(fields_.size()) + " fields");
  }
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const auto& field = fields_[i];
    const auto& value = record[i];
    const auto mismatch = [&] {
      return KernelError(std::string(context) + ": field '" + field.name + "' is declared " +
                         std::string(to_string(field.type)) + " but got another type");
    };
    switch (field.type) {
      case FieldType::int64: {
        const auto* number = std::get_if<std::int64_t>(&value);
        if (number == nullptr) throw mismatch();
        store(row, offsets_[i], *number);
        break;
      }
      case FieldType::float64: {
        const auto* number = std::get_if<double>(&value);
        if (number == nullptr) throw mismatch();
        store(row, offsets_[i], *number);
        break;
      }
      case FieldType::text: {
        const auto* text = std::get_if<std::string>(&value);
        if (text == nullptr) throw mismatch();
        set_text(row, i, *text, context);
        break;
      }
    }
  }
}

Record RecordLayout::unpack(std::span<const std::byte> row) const {
  Record record;
  record.reserve(fields_.size());
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    switch (fields_[i].type) {
      case FieldType::int64: record.emplace_back(load<std::int64_t>(row, offsets_[i])); break;
      case FieldType::float64: record.emplace_back(load<double>(row, offsets_[i])); break;
      case FieldType::text: {
        const auto* begin = reinterpret_cast<const char*>(row.data() + offsets_[i]);
        record.emplace_back(std::string(begin, strnlen(begin, fields_[i].text_size)));
        break;
      }
    }
  }
  return record;
}

void RecordLayout::fill_missing(std::span<std::byte> row) const {
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    switch (fields_[i].type) {
      case FieldType::int64: store<std::int64_t>(row, offsets_[i], -1); break;
      case FieldType::float64:
        store(row, offsets_[i], std::numeric_limits<double>::quiet_NaN());
        break;
      case FieldType::text: std::memset(row.data() + offsets_[i], 0, fields_[i].text_size); break;
    }
  }
}

void RecordLayout::throw_too_long(std::size_t field, std::size_t size,
                                  std::string_view context) const {
  const auto& spec = fields_[field];
  throw KernelError(std::string(context) + ": field '" + spec.name + "' holds " +
                    std::to_string(size) + " bytes, at most " + std::to_string(spec.text_size) +
                    " are declared");
}

std::int64_t RecordLayout::get_int(std::span<const std::byte> row, std::size_t field) const {
  return load<std::int64_t>(row, offsets_[field]);
}
double RecordLayout::get_real(std::span<const std::byte> row, std::size_t field) const {
  return load<double>(row, offsets_[field]);
}

std::size_t RecordLayout::index_of(std::string_view name) const {
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return i;
  }
  throw std::out_of_range("no field '" + std::string(name) + "' in the record layout");
}

}  // namespace levelforge

#pragma once
// Fixed records that kernels return: the runner stores them as HDF5 compound rows whose
// members are the declared fields, in declaration order.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace levelforge {

enum class FieldType { int64, float64, text };

struct FieldSpec {
  std::string name;
  FieldType type;
  std::string doc;
  std::size_t text_size = 0;  // text only: bytes stored, longer values are an error
};

inline FieldSpec int_field(std::string name, std::string doc) {
  return {std::move(name), FieldType::int64, std::move(doc), 0};
}
inline FieldSpec real_field(std::string name, std::string doc) {
  return {std::move(name), FieldType::float64, std::move(doc), 0};
}
inline FieldSpec text_field(std::string name, std::size_t size, std::string doc) {
  return {std::move(name), FieldType::text, std::move(doc), size};
}

constexpr std::string_view to_string(FieldType type) {
  switch (type) {
    case FieldType::int64: return "int";
    case FieldType::float64: return "real";
    case FieldType::text: return "text";
  }
  return "?";
}

using FieldValue = std::variant<std::int64_t, double, std::string>;
using Record = std::vector<FieldValue>;

}  // namespace levelforge

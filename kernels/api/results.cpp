#include "kernels/api/results.hpp"

#include <algorithm>
#include <variant>

namespace levelforge {

bool ResultTable::has(std::string_view name) const {
  return std::find(columns_.begin(), columns_.end(), name) != columns_.end();
}

std::size_t ResultTable::column(std::string_view name) const {
  const auto found = std::find(columns_.begin(), columns_.end(), name);
  if (found == columns_.end()) {
    std::string known;
    for (const auto& column : columns_) known += (known.empty() ? "" : ", ") + column;
    throw KernelError("result table: no column '" + std::string(name) + "'; its columns are " +
                      known);
  }
  return static_cast<std::size_t>(found - columns_.begin());
}

std::vector<double> ResultTable::numbers(std::string_view name) const {
  const std::size_t index = column(name);
  std::vector<double> values;
  values.reserve(rows_.size());
  for (const auto& row : rows_) {
    const auto& value = row.at(index);
    if (const auto* integer = std::get_if<std::int64_t>(&value)) {
      values.push_back(static_cast<double>(*integer));
    } else if (const auto* real = std::get_if<double>(&value)) {
      values.push_back(*real);
    } else {
      throw KernelError("result table: column '" + std::string(name) + "' holds text, not numbers");
    }
  }
  return values;
}

}  // namespace levelforge

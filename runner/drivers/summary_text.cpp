#include "runner/drivers/summary_text.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include <fmt/format.h>

namespace levelforge {

namespace {

std::string cell(const FieldValue& value) {
  struct Formatter {
    std::string operator()(std::int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const { return fmt::format("{:.6g}", v); }
    std::string operator()(const std::string& v) const { return v; }
  };
  return std::visit(Formatter{}, value);
}

}  // namespace

void print_table(const TableData& table, std::size_t limit) {
  if (limit == 0) return;
  std::string header;
  for (const auto& field : table.layout.fields()) header += fmt::format(" {:>14}", field.name);
  fmt::print("  {}\n", header);
  for (std::size_t i = 0; i < std::min(limit, table.row_count()); ++i) {
    std::string line;
    for (const auto& value : table.row(i)) line += fmt::format(" {:>14}", cell(value));
    fmt::print("  {}\n", line);
  }
  if (table.row_count() > limit) fmt::print("  ... {} more rows\n", table.row_count() - limit);
}

void print_fields(const std::string& title, const std::vector<FieldSpec>& fields) {
  fmt::print("  {}:\n", title);
  for (const auto& field : fields) {
    fmt::print("    {:<20} {:<5} {}\n", field.name, to_string(field.type), field.doc);
  }
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const auto middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::size_t last_step(const TableData& history, std::size_t task, std::size_t step) {
  const std::size_t steps = history.dims.at(1);
  std::size_t last = 0;
  while (last + 1 < steps &&
         std::get<std::int64_t>(history.row(task * steps + last + 1)[step]) >= 0) {
    ++last;
  }
  return last;
}

double mean(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

}  // namespace levelforge

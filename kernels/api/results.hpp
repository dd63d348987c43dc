#pragma once
// What a kernel's summary capability (concepts.hpp, SummarizingKernel) reads: a finished
// run's tables by path, each with its columns by name and the rows of the tasks that finished,
// as `levelforge inspect` reads them from the result file.

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/api/params.hpp"
#include "kernels/api/record.hpp"

namespace levelforge {

class ResultTable {
 public:
  ResultTable(std::vector<std::string> columns, std::vector<Record> rows)
      : columns_(std::move(columns)), rows_(std::move(rows)) {}

  [[nodiscard]] const std::vector<std::string>& columns() const { return columns_; }
  [[nodiscard]] const std::vector<Record>& rows() const { return rows_; }
  [[nodiscard]] bool has(std::string_view name) const;
  // The column's index; KernelError naming the column and those there are otherwise.
  [[nodiscard]] std::size_t column(std::string_view name) const;
  // The column's values as numbers (ints converted); KernelError for a text column.
  [[nodiscard]] std::vector<double> numbers(std::string_view name) const;

 private:
  std::vector<std::string> columns_;
  std::vector<Record> rows_;
};

struct ResultTables {
  std::string driver;  // "ga", "sweep", "exhaustive"
  // "sweep/records", "exhaustive/counts", "exhaustive/top/NAME", "ga/best", "ga/validation":
  // those the run wrote.
  std::map<std::string, ResultTable, std::less<>> tables;

  // nullptr when the run wrote no such table.
  [[nodiscard]] const ResultTable* find(std::string_view path) const {
    const auto found = tables.find(path);
    return found == tables.end() ? nullptr : &found->second;
  }
};

}  // namespace levelforge

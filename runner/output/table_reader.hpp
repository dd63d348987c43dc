#pragma once
// Reads any compound table of a result file into rows of a RecordLayout built from the
// file's own type, for `inspect`, `maze` and the tests.

#include <cstddef>
#include <vector>

#include "kernels/api/record_layout.hpp"
#include "runner/h5/h5.hpp"

namespace levelforge {

struct TableData {
  RecordLayout layout;
  std::vector<hsize_t> dims;
  std::vector<std::byte> rows;

  [[nodiscard]] std::size_t row_count() const {
    return layout.row_size() == 0 ? 0 : rows.size() / layout.row_size();
  }
  [[nodiscard]] Record row(std::size_t i) const {
    return layout.unpack(std::span(rows).subspan(i * layout.row_size(), layout.row_size()));
  }
  // The index of a field by name; throws h5::IoError naming the table when absent.
  [[nodiscard]] std::size_t field(const std::string& name) const;
};

// Integer members are read as int64, floating ones as float64, strings as text.
TableData read_table(const h5::Dataset& dataset);

// Only the row `index` of a table, counted over all its elements in row-major order (row 7
// of a [36 x 5] table is element [1][2]): one row, dims {1}. Throws h5::IoError naming the
// dataset when the index is past the end.
TableData read_table_row(const h5::Dataset& dataset, std::size_t index);

}  // namespace levelforge

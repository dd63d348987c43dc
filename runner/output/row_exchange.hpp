#pragma once
// Rows of a result table are computed wherever the work queue sent their task, so each
// rank holds a scattered set. HDF5's cost for a selection grows with its number of blocks
// far faster than the cost of moving the bytes, so before a write the rows travel to the
// writer that owns their contiguous slice of the table, and each writer writes a few blocks.

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "kernels/api/row_buffer.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge {

struct OwnedRows {
  // Runs of consecutive rows this rank now holds: (first row, row count), increasing.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs;
  RowBuffer data;  // the rows of the runs, in order
};

// Collective. `rows[i]` is the table row of the i-th `row_bytes` bytes of `data`; every
// row of [0, row_count) is held by at most one rank. `writers` (ranks of `comm`, the same
// on every rank) own equal contiguous slices of the table, in their order; the other ranks
// end up holding nothing.
OwnedRows exchange_rows(const mpi::Comm& comm, std::span<const int> writers,
                        std::uint64_t row_count, std::size_t row_bytes,
                        std::span<const std::uint64_t> rows, std::span<const std::byte> data);

}  // namespace levelforge

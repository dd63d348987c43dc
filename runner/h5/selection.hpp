// Block selections in pure C++ (no HDF5 calls): validation, and the mapping between the
// caller's packing of a selection (block by block, in the order given) and HDF5's (a union
// of hyperslabs is visited in file order, row-major).
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "runner/h5/h5.hpp"

namespace levelforge::h5 {

// A stretch of elements contiguous both in the file and in the caller's buffer.
struct Run {
  hsize_t file_index;    // row-major index of its first element in the dataset
  hsize_t memory_index;  // index of its first element in the caller's packed buffer
  hsize_t length;
};

struct SelectionLayout {
  std::vector<Run> runs;  // sorted by file_index
  hsize_t element_count = 0;
  bool in_file_order = true;  // the caller's packing already is HDF5's
  std::string problem;        // non-empty: the selection is invalid, and why
};

hsize_t block_size(const Block& block);
std::string dims_text(std::span<const hsize_t> dims);  // "[3, 4]"

// Checks ranks and extent of every block, and that no blocks overlap.
SelectionLayout lay_out(const std::vector<Block>& selection, const std::vector<hsize_t>& extent);

// Copies `caller_packed` (block order) into a new buffer in file order.
std::vector<std::byte> to_file_order(const SelectionLayout& layout, const std::byte* caller_packed,
                                     std::size_t element_size);
// Copies `file_ordered` into `caller_packed` (block order).
void from_file_order(const SelectionLayout& layout, const std::byte* file_ordered,
                     std::byte* caller_packed, std::size_t element_size);

}  // namespace levelforge::h5

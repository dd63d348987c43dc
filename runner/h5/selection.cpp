#include "runner/h5/selection.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <span>

namespace levelforge::h5 {
std::string dims_text(std::span<const hsize_t> dims) {
  std::string text = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(dims[i]);
  }
  return text + "]";
}

namespace {

std::string block_problem(const Block& block, std::size_t index,
                          const std::vector<hsize_t>& extent) {
  const std::string which = "selection block " + std::to_string(index) + " (start " +
                            dims_text(block.start) + ", count " + dims_text(block.count) + ")";
  if (extent.empty()) return which + ": block selections need a dataset of rank 1 or more";
  if (block.start.size() != extent.size() || block.count.size() != extent.size()) {
    return which + " does not have the dataset's rank " + std::to_string(extent.size());
  }
  for (std::size_t d = 0; d < extent.size(); ++d) {
    if (block.start[d] > extent[d] || block.count[d] > extent[d] - block.start[d]) {
      return which + " lies outside the extent " + dims_text(extent);
    }
  }
  return "";
}

// Appends the runs of one block. Trailing dimensions the block spans completely are
// contiguous in the file, so one run covers them all (a block of whole rows is one run).
void add_runs(const Block& block, const std::vector<hsize_t>& extent, hsize_t memory_index,
              std::vector<Run>& runs) {
  const std::size_t rank = extent.size();
  std::size_t inner = rank - 1;
  while (inner > 0 && block.start[inner] == 0 && block.count[inner] == extent[inner]) --inner;
  std::vector<hsize_t> stride(rank, 1);
  for (std::size_t d = rank - 1; d > 0; --d) stride[d - 1] = stride[d] * extent[d];
  hsize_t length = 1;
  for (std::size_t d = inner; d < rank; ++d) length *= block.count[d];

  // Odometer over the outer dimensions [0, inner), row-major.
  std::vector<hsize_t> offset(inner, 0);
  while (true) {
    hsize_t file_index = 0;
    for (std::size_t d = 0; d < rank; ++d) {
      file_index += (block.start[d] + (d < inner ? offset[d] : 0)) * stride[d];
    }
    runs.push_back(Run{file_index, memory_index, length});
    memory_index += length;
    std::size_t d = inner;
    while (d > 0 && ++offset[d - 1] == block.count[d - 1]) offset[--d] = 0;
    if (d == 0) return;
  }
}

}  // namespace

hsize_t block_size(const Block& block) {
  return std::accumulate(block.count.begin(), block.count.end(), hsize_t{1}, std::multiplies<>());
}

SelectionLayout lay_out(const std::vector<Block>& selection, const std::vector<hsize_t>& extent) {
  SelectionLayout layout;
  for (std::size_t i = 0; i < selection.size(); ++i) {
    layout.problem = block_problem(selection[i], i, extent);
    if (!layout.problem.empty()) return layout;
    if (block_size(selection[i]) == 0) continue;
    add_runs(selection[i], extent, layout.element_count, layout.runs);
    layout.element_count += block_size(selection[i]);
  }
  auto by_file_index = [](const Run& a, const Run& b) { return a.file_index < b.file_index; };
  layout.in_file_order = std::is_sorted(layout.runs.begin(), layout.runs.end(), by_file_index);
  if (!layout.in_file_order) std::sort(layout.runs.begin(), layout.runs.end(), by_file_index);
  for (std::size_t i = 1; i < layout.runs.size(); ++i) {
    const Run& previous = layout.runs[i - 1];
    if (previous.file_index + previous.length > layout.runs[i].file_index) {
      layout.problem = "selection blocks overlap (at element " +
                       std::to_string(layout.runs[i].file_index) + " in row-major order)";
      return layout;
    }
  }
  return layout;
}

std::vector<std::byte> to_file_order(const SelectionLayout& layout, const std::byte* caller_packed,
                                     std::size_t element_size) {
  std::vector<std::byte> file_ordered(static_cast<std::size_t>(layout.element_count) *
                                      element_size);
  std::byte* out = file_ordered.data();
  for (const Run& run : layout.runs) {
    const std::size_t bytes = static_cast<std::size_t>(run.length) * element_size;
    std::memcpy(out, caller_packed + static_cast<std::size_t>(run.memory_index) * element_size,
                bytes);
    out += bytes;
  }
  return file_ordered;
}

void from_file_order(const SelectionLayout& layout, const std::byte* file_ordered,
                     std::byte* caller_packed, std::size_t element_size) {
  for (const Run& run : layout.runs) {
    const std::size_t bytes = static_cast<std::size_t>(run.length) * element_size;
    std::memcpy(caller_packed + static_cast<std::size_t>(run.memory_index) * element_size,
                file_ordered, bytes);
    file_ordered += bytes;
  }
}

}  // namespace levelforge::h5

// A one-element memory space with nothing selected stands in for "no data from this rank":
// HDF5 refuses a zero-sized space, and a collective transfer needs every rank.
#include "runner/h5/dataspace.hpp"

#include <algorithm>

#include "runner/h5/check.hpp"

namespace levelforge::h5 {

Handle simple_space(const std::vector<hsize_t>& dims, const std::vector<hsize_t>& max_dims) {
  if (dims.empty()) {
    return checked_handle(H5Screate(H5S_SCALAR), [] { return "creating a scalar dataspace"; });
  }
  return checked_handle(H5Screate_simple(static_cast<int>(dims.size()), dims.data(),
                                         max_dims.empty() ? nullptr : max_dims.data()),
                        [&] { return "creating a dataspace of extent " + dims_text(dims); });
}

Spaces select(hid_t dataset, const std::vector<Block>& selection, const std::string& action) {
  auto context = [&] { return action; };
  Spaces spaces{checked_handle(H5Dget_space(dataset), context), Handle(), {}};
  std::vector<hsize_t> extent(
      static_cast<std::size_t>(check(H5Sget_simple_extent_ndims(spaces.file.id()), context)));
  check(H5Sget_simple_extent_dims(spaces.file.id(), extent.data(), nullptr), context);
  spaces.layout = lay_out(selection, extent);
  if (!spaces.layout.problem.empty()) throw IoError(action + ": " + spaces.layout.problem);
  check(H5Sselect_none(spaces.file.id()), context);
  for (const Block& block : selection) {
    if (block_size(block) == 0) continue;
    check(H5Sselect_hyperslab(spaces.file.id(), H5S_SELECT_OR, block.start.data(), nullptr,
                              block.count.data(), nullptr),
          context);
  }
  const hsize_t elements = spaces.layout.element_count;
  spaces.memory = simple_space({std::max<hsize_t>(elements, 1)});
  if (elements == 0) check(H5Sselect_none(spaces.memory.id()), context);
  return spaces;
}

}  // namespace levelforge::h5

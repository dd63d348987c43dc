// Dataspaces: the one place a Block selection becomes HDF5 hyperslabs, so that reads and
// writes agree on how a rank with nothing to transfer still takes part.
#pragma once

#include <hdf5.h>

#include <string>
#include <vector>

#include "runner/h5/h5.hpp"
#include "runner/h5/selection.hpp"

namespace levelforge::h5 {

// A simple dataspace of extent `dims` (a scalar one when `dims` is empty).
Handle simple_space(const std::vector<hsize_t>& dims, const std::vector<hsize_t>& max_dims = {});

// The file and memory dataspaces of a block selection, and the runs that map between the
// caller's packing (block order) and HDF5's (file order).
struct Spaces {
  Handle file;
  Handle memory;
  SelectionLayout layout;
};

// Throws IoError, naming `action`, for a selection that does not fit the dataset.
Spaces select(hid_t dataset, const std::vector<Block>& selection, const std::string& action);

}  // namespace levelforge::h5

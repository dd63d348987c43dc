#pragma once

#include "kernels/api/record_layout.hpp"
#include "runner/h5/h5.hpp"

namespace levelforge {

// The HDF5 compound type whose members are the layout's fields at the layout's offsets.
h5::Datatype compound_type(const RecordLayout& layout);

}  // namespace levelforge

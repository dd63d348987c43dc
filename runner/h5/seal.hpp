// A levelforge file's seal. Every HDF5 file levelforge writes starts with a user block of
// seal_block_size bytes (HDF5's own data starts after it); once the file is complete and
// closed, that block gets a checksum of everything after it. Readers check the seal before
// libhdf5 sees a byte: libhdf5 1.10 can crash or loop on damaged metadata
// (fuzz/README.md), and damaged data would otherwise be read as results.
#pragma once

#include <hdf5.h>

#include <string>

namespace levelforge::h5 {

inline constexpr hsize_t seal_block_size = 512;

// Writes the seal of the closed file at `path`. Throws IoError.
void seal(const std::string& path);

// Throws IoError, naming `path` and the problem, unless the file carries a seal that matches
// its bytes.
void verify_seal(const std::string& path);

// Whether the file at `path` begins with a levelforge seal block, matching or not: a file
// that does was written by levelforge (and may since have been damaged); one that does not
// is another program's, and levelforge leaves it alone.
bool has_seal(const std::string& path);

}  // namespace levelforge::h5

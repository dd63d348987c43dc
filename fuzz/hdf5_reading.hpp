// What the two HDF5 targets share: an input written as a file and read the way levelforge
// reads the files it wrote (results, shards, checkpoints). h5::IoError and CheckpointError
// are the expected answers to a bad file; any other exception escapes and is reported as a
// crash.
#pragma once

#include <cstddef>
#include <cstdint>

namespace levelforge::fuzz {

enum class Sealing {
  as_given,  // the input is the whole file, seal included
  sealed,    // the input is the HDF5 data: the file is an empty user block, the input, sealed
};

void read_as_levelforge(const std::uint8_t* data, std::size_t size, Sealing sealing);

}  // namespace levelforge::fuzz

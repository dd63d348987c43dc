// Fuzzes what lies behind the seal: the harness seals every input itself, so libhdf5 and
// our readers (the h5 wrapper, the table reader, the checkpoint reader) see damaged HDF5
// data as if levelforge had written it. Only a forged seal gets such a file past `inspect`,
// `maze`, `merge` or `--resume`; libhdf5 1.10's own crashes on it are listed in
// fuzz/README.md.

#include <cstddef>
#include <cstdint>

#include "fuzz/hdf5_reading.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  levelforge::fuzz::read_as_levelforge(data, size, levelforge::fuzz::Sealing::sealed);
  return 0;
}

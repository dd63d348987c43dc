// Fuzzes what `inspect`, `maze`, `merge` and `--resume` do with a file: check its seal
// (runner/h5/seal.hpp), then read it with the h5 wrapper, the table reader and the
// checkpoint reader. The input is the whole file, seal included.

#include <cstddef>
#include <cstdint>

#include "fuzz/hdf5_reading.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  levelforge::fuzz::read_as_levelforge(data, size, levelforge::fuzz::Sealing::as_given);
  return 0;
}

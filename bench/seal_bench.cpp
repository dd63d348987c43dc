// What checking and writing a file's seal costs (runner/h5/seal.hpp): `inspect`, `maze`,
// `merge` and `--resume` read the whole file once before HDF5 opens it, and every run reads
// its result file once more before renaming it into place. The file is in the page cache,
// so this is the checksum and copy speed; a cold parallel file system adds its read speed.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "runner/h5/h5.hpp"
#include "runner/h5/seal.hpp"

namespace {

namespace fs = std::filesystem;

// A levelforge-made file holding `bytes` random bytes, unsealed.
fs::path make_file(std::size_t bytes) {
  const auto path =
      fs::temp_directory_path() / ("levelforge-seal-bench-" + std::to_string(::getpid()) + ".h5");
  std::vector<std::uint8_t> data(bytes);
  std::mt19937_64 random(1);
  for (auto& byte : data) byte = static_cast<std::uint8_t>(random());
  auto file = levelforge::h5::File::create_serial(path.string());
  auto dataset = file.root().create_dataset("data", levelforge::h5::Datatype::uint8(), {bytes});
  dataset.write_all(levelforge::h5::Datatype::uint8(), data.data());
  file.close();
  return path;
}

void BM_VerifySeal(benchmark::State& state) {
  const auto path = make_file(static_cast<std::size_t>(state.range(0)) << 20);
  levelforge::h5::seal(path.string());
  for (auto _ : state) levelforge::h5::verify_seal(path.string());
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(fs::file_size(path)));
  fs::remove(path);
}
BENCHMARK(BM_VerifySeal)->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond);

}  // namespace

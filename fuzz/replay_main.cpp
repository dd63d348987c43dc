// Replays kept fuzz inputs without libFuzzer: calls LLVMFuzzerTestOneInput once per file of
// the directories (and files) given on the command line, so every build, gcc and ASan ones
// included, runs the corpora and the inputs that once found bugs as regression tests.
// Subdirectories are not entered: fuzz/regressions/<target>/pending/ holds inputs whose bug
// is not fixed yet and must not fail the test.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path argument(argv[i]);
    if (std::filesystem::is_directory(argument)) {
      for (const auto& entry : std::filesystem::directory_iterator(argument)) {
        if (entry.is_regular_file()) inputs.push_back(entry.path());
      }
    } else if (std::filesystem::is_regular_file(argument)) {
      inputs.push_back(argument);
    } else if (!std::filesystem::exists(argument)) {
      // A target without regressions yet has no folder; nothing to replay there.
      std::fprintf(stderr, "replay: %s does not exist, skipped\n", argv[i]);
    }
  }
  // A fixed order, so a failure names the same input on every run.
  std::sort(inputs.begin(), inputs.end());
  for (const auto& path : inputs) {
    const auto bytes = read_bytes(path);
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", path.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  std::fprintf(stderr, "replay: %zu inputs, no failure\n", inputs.size());
  return 0;
}

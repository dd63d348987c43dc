#include "runner/checkpoint/shard.hpp"

#include <charconv>
#include <filesystem>
#include <stdexcept>

namespace levelforge {

namespace {
std::uint64_t parse_number(std::string_view digits, const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) {
    throw std::invalid_argument("--shard '" + text +
                                "': expected I/N with whole numbers, e.g. 0/3");
  }
  return value;
}
}  // namespace

std::string ShardSpec::output_for(const std::string& output) const {
  if (!sharded()) return output;
  const std::filesystem::path path(output);
  auto name = path.stem().string() + ".shard-" + std::to_string(index) + "-of-" +
              std::to_string(count) + path.extension().string();
  return (path.parent_path() / name).string();
}

std::string ShardSpec::text() const {
  return sharded() ? std::to_string(index) + "/" + std::to_string(count) : std::string();
}

ShardSpec ShardSpec::parse(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) {
    throw std::invalid_argument("--shard '" + text + "': expected I/N, e.g. 0/3");
  }
  const ShardSpec shard{parse_number(std::string_view(text).substr(0, slash), text),
                        parse_number(std::string_view(text).substr(slash + 1), text)};
  // A Slurm job array has at most MaxArraySize jobs (1001 by default); the bound keeps every
  // count and index well inside the result's int64 attributes.
  constexpr std::uint64_t most_shards = 1'000'000;
  if (shard.count > most_shards) {
    throw std::invalid_argument("--shard '" + text + "': N is at most " +
                                std::to_string(most_shards));
  }
  if (shard.count == 0 || shard.index >= shard.count) {
    throw std::invalid_argument(
        "--shard '" + text + "': I must be in 0.." +
        (shard.count == 0 ? std::string("N-1 and N at least 1") : std::to_string(shard.count - 1)));
  }
  return shard;
}

}  // namespace levelforge

#include "runner/output/output_writers.hpp"

#include <charconv>
#include <map>
#include <stdexcept>

namespace levelforge {

namespace {
constexpr std::string_view per_node = "node";
}

OutputWriters parse_output_writers(const std::string& text) {
  if (text == per_node) return {};
  std::int64_t count = 0;
  const auto* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, count);
  if (error != std::errc() || stop != end || count < 1) {
    throw std::invalid_argument("ranks per writer '" + text +
                                "': expected 'node' or a positive whole number");
  }
  return {count};
}

std::string output_writers_name(OutputWriters writers) {
  return writers.ranks_per_writer == 0 ? std::string(per_node)
                                       : std::to_string(writers.ranks_per_writer);
}

std::vector<int> writer_ranks(const std::vector<std::string>& hosts, OutputWriters writers) {
  std::map<std::string, std::int64_t> seen_on_host;
  std::vector<int> result;
  for (std::size_t rank = 0; rank < hosts.size(); ++rank) {
    const auto before = seen_on_host[hosts[rank]]++;
    const bool writes =
        writers.ranks_per_writer == 0 ? before == 0 : before % writers.ranks_per_writer == 0;
    if (writes) result.push_back(static_cast<int>(rank));
  }
  return result;
}

}  // namespace levelforge

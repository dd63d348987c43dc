#include "runner/drivers/exhaustive/exhaustive_spec.hpp"

#include <limits>
#include <string>

namespace levelforge {

std::vector<ParamSpec> ExhaustiveSpec::settings() {
  constexpr std::int64_t max_index = std::numeric_limits<std::int64_t>::max();
  return {
      int_param("begin", 0, 0, max_index, "first index visited"),
      int_param("end", -1, -1, max_index,
                "one past the last index visited (-1: the kernel's index count)"),
      int_param("chunk", 65536, 1, max_index,
                "indices per chunk pulled by a rank (the run's last chunks are smaller)"),
  };
}

IndexRange exhaustive_range(const ParamSet& settings, std::uint64_t index_count) {
  const auto begin = static_cast<std::uint64_t>(settings.integer("begin"));
  const auto end = settings.integer("end") < 0
                       ? index_count
                       : static_cast<std::uint64_t>(settings.integer("end"));
  if (end > index_count || begin > end) {
    throw KernelError("exhaustive range [" + std::to_string(begin) + ", " + std::to_string(end) +
                      ") does not fit the kernel's index space [0, " + std::to_string(index_count) +
                      ")");
  }
  return {begin, end};
}

}  // namespace levelforge

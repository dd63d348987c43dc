#pragma once
// A search's state (CMA-ES breeding, CMA emitters) as a task's snapshot keeps it: its
// float64s as bytes, read back exactly.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace levelforge {

inline std::vector<std::byte> search_bytes(const std::vector<double>& state) {
  const auto bytes = std::as_bytes(std::span(state));
  return {bytes.begin(), bytes.end()};
}

// Throws std::invalid_argument naming `task` for bytes that are not whole float64s.
inline std::vector<double> search_numbers(std::span<const std::byte> saved, std::uint64_t task) {
  if (saved.size() % sizeof(double) != 0) {
    throw std::invalid_argument("task " + std::to_string(task) + ": the saved search state is " +
                                std::to_string(saved.size()) + " bytes, not whole float64s");
  }
  std::vector<double> state(saved.size() / sizeof(double));
  if (!saved.empty()) std::memcpy(state.data(), saved.data(), saved.size());  // data() may be null
  return state;
}

}  // namespace levelforge

// count_summaries: the exhaustive visit's three histograms. Counting a Summary at a time is
// a read-modify-write of a counter per field, and consecutive summaries often share a value,
// so each waits for the last one's store: that took as long as summarizing. Here 16
// summaries (64 bytes; 8 with AVX2, 4 without) are compared with each value at once, the
// matches added to one byte counter per value and byte position, kept in registers for up
// to 255 vectors.
//
// Compiled for AVX-512 (BW), AVX2 and plain x86-64 from the same source and picked at run
// time, like summarize_many.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>

#include "kernels/tiltmaze/four_by_four.hpp"

namespace levelforge::tiltmaze::four {
namespace {

// Width: the bytes of one vector, a register of the target (64: AVX-512, 32: AVX2, 16).
// Spelled out per width: GCC drops vector_size from a dependent alias template.
template <std::size_t Width>
struct Vector;
template <>
struct Vector<64> {
  using Bytes = std::uint8_t __attribute__((vector_size(64)));
  using Words = std::uint32_t __attribute__((vector_size(64)));
};
template <>
struct Vector<32> {
  using Bytes = std::uint8_t __attribute__((vector_size(32)));
  using Words = std::uint32_t __attribute__((vector_size(32)));
};
template <>
struct Vector<16> {
  using Bytes = std::uint8_t __attribute__((vector_size(16)));
  using Words = std::uint32_t __attribute__((vector_size(16)));
};
template <std::size_t Width>
using Bytes = typename Vector<Width>::Bytes;
template <std::size_t Width>
using Words = typename Vector<Width>::Words;
constexpr std::size_t fold_every = 255;  // vectors: a byte counter holds 255 matches
constexpr int values = SummaryCounts::values;

static_assert(sizeof(Summary) == 4 && offsetof(Summary, reachable) == 0 &&
              offsetof(Summary, components) == 1 && offsetof(Summary, distance) == 2);

template <std::size_t Width>
inline __attribute__((always_inline)) std::int64_t lane_sum(const Words<Width>& words) {
  std::uint32_t sum = 0;
  for (std::size_t i = 0; i < Width / sizeof(std::uint32_t); ++i) sum += words[i];
  return sum;
}

template <std::size_t Width>
inline __attribute__((always_inline)) void count_vectors(const Summary* first, std::size_t count,
                                                         SummaryCounts& counts) {
  constexpr std::size_t per_vector = Width / sizeof(Summary);
  std::array<Bytes<Width>, values> matches{};
  for (std::size_t v = 0; v < count; ++v) {
    Bytes<Width> bytes;
    std::memcpy(&bytes, first + v * per_vector, sizeof bytes);
#pragma GCC unroll 17
    for (int value = 0; value < values; ++value) {
      auto& matched = matches[static_cast<std::size_t>(value)];
      const auto match = bytes == static_cast<std::uint8_t>(value);
      // AVX-512 compares into a mask register: a masked add. Narrower targets compare into
      // a vector of 0 or -1 bytes: subtract it.
      if constexpr (Width == 64) {
        matched = match ? matched + 1 : matched;
      } else {
        matched -= reinterpret_cast<Bytes<Width>>(match);
      }
    }
  }
  // Per 32-bit word the bytes count reachable, components, distance, farthest; with every
  // other byte masked out, a word's 16-bit halves add up without overflow (16 x 255).
  constexpr Words<Width> even_bytes = Words<Width>{} + 0x00FF00FFU;
  for (int value = 0; value < values; ++value) {
    const auto words = reinterpret_cast<Words<Width>>(matches[static_cast<std::size_t>(value)]);
    const auto reachable_distance = lane_sum<Width>(words & even_bytes);
    const auto components = lane_sum<Width>((words >> 8U) & even_bytes);
    const auto at = static_cast<std::size_t>(value);
    counts.reachable[at] += reachable_distance & 0xFFFF;
    counts.distance[at] += reachable_distance >> 16U;
    counts.components[at] += components & 0xFFFF;
  }
}

template <std::size_t Width>
inline __attribute__((always_inline)) void count_range(std::span<const Summary> summaries,
                                                       SummaryCounts& counts) {
  constexpr std::size_t per_vector = Width / sizeof(Summary);
  const std::size_t vectors = summaries.size() / per_vector;
  for (std::size_t done = 0; done < vectors; done += fold_every)
    count_vectors<Width>(summaries.data() + done * per_vector, std::min(fold_every, vectors - done),
                         counts);
  for (const auto& s : summaries.subspan(vectors * per_vector)) {
    if (s.reachable < values) ++counts.reachable[s.reachable];
    if (s.components < values) ++counts.components[s.components];
    if (s.distance < values) ++counts.distance[s.distance];
  }
}

using CountFunction = void (*)(std::span<const Summary>, SummaryCounts&);

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx512f,avx512bw"))) void count_avx512(std::span<const Summary> summaries,
                                                              SummaryCounts& counts) {
  count_range<64>(summaries, counts);
}
__attribute__((target("avx2"))) void count_avx2(std::span<const Summary> summaries,
                                                SummaryCounts& counts) {
  count_range<32>(summaries, counts);
}
#endif
void count_portable(std::span<const Summary> summaries, SummaryCounts& counts) {
  count_range<16>(summaries, counts);
}

CountFunction count_function(Isa isa) {
  if (!isa_supported(isa))
    throw std::invalid_argument(
        "tiltmaze::four::count_summaries: this CPU or build lacks the requested instruction set");
#if defined(__x86_64__) || defined(__i386__)
  if (isa == Isa::avx512) return count_avx512;
  if (isa == Isa::avx2) return count_avx2;
#endif
  return count_portable;
}

}  // namespace

void count_summaries(std::span<const Summary> summaries, SummaryCounts& counts) {
  static const CountFunction best = count_function(best_isa());
  best(summaries, counts);
}

void count_summaries(std::span<const Summary> summaries, SummaryCounts& counts, Isa isa) {
  count_function(isa)(summaries, counts);
}

}  // namespace levelforge::tiltmaze::four

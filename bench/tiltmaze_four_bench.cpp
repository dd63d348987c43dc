// 4x4 tilt mazes evaluated per second (kernels/tiltmaze/four_by_four.hpp): the bit-sliced
// summarize_many against the scalar reference, the hardest-pair search, and the exhaustive
// visit's histogram counting (count_summaries) against a counter increment per field.
//
//   build/bench/bench_tiltmaze_four --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
//
// Item: one config. Each iteration takes the next block of configs, wrapping around the
// 2^24, so a long run sees many different mazes rather than one block again and again.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/tiltmaze/four_by_four.hpp"

namespace levelforge::tiltmaze::four {
namespace {

// The first config of the next block of `size` (a divisor of config_count).
std::uint32_t next_block(std::uint32_t& cursor, std::uint32_t size) {
  const std::uint32_t first = cursor;
  cursor = (cursor + size) % config_count;
  return first;
}

void BM_summarize_many(benchmark::State& state) {
  const auto size = static_cast<std::uint32_t>(state.range(0));
  std::vector<Summary> out(size);
  std::uint32_t cursor = 0;
  for (auto _ : state) {
    summarize_many(next_block(cursor, size), out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * size);
}
BENCHMARK(BM_summarize_many)->Arg(1 << 16);

// The same for each instruction set the kernel is compiled for (0 portable, 1 AVX2,
// 2 AVX-512), where this CPU has it.
void BM_summarize_many_isa(benchmark::State& state) {
  const auto isa = static_cast<Isa>(state.range(0));
  if (!isa_supported(isa)) {
    state.SkipWithError("instruction set not available on this CPU");
    return;
  }
  constexpr std::uint32_t size = 1 << 16;
  std::vector<Summary> out(size);
  std::uint32_t cursor = 0;
  for (auto _ : state) {
    summarize_many(next_block(cursor, size), out, isa);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * size);
}
BENCHMARK(BM_summarize_many_isa)->DenseRange(0, 2);

void BM_summarize_reference(benchmark::State& state) {
  constexpr std::uint32_t size = 1024;
  std::uint32_t cursor = 0;
  for (auto _ : state) {
    const std::uint32_t first = next_block(cursor, size);
    for (std::uint32_t config = first; config < first + size; ++config)
      benchmark::DoNotOptimize(summarize_reference(config));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * size);
}
BENCHMARK(BM_summarize_reference);

void BM_hardest_pairs_many(benchmark::State& state) {
  const auto size = static_cast<std::uint32_t>(state.range(0));
  std::vector<PairSummary> out(size);
  std::uint32_t cursor = 0;
  for (auto _ : state) {
    hardest_pairs_many(next_block(cursor, size), out);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * size);
}
BENCHMARK(BM_hardest_pairs_many)->Arg(1 << 16);

// The summaries of a run of 4096 configs (as the exhaustive visit counts them), counted by
// count_summaries for each instruction set (0 portable, 1 AVX2, 2 AVX-512; argument 3: one
// counter increment per field and summary, the visit's former loop). Item: one summary.
void BM_count_summaries(benchmark::State& state) {
  constexpr std::uint32_t size = 4096;
  std::vector<Summary> summaries(size);
  summarize_many(0x5A5000, summaries);
  const bool one_by_one = state.range(0) == 3;
  const auto isa = static_cast<Isa>(one_by_one ? 0 : state.range(0));
  if (!isa_supported(isa)) {
    state.SkipWithError("instruction set not available on this CPU");
    return;
  }
  SummaryCounts counts;
  for (auto _ : state) {
    if (one_by_one) {
      for (const auto& s : summaries) {
        ++counts.reachable[s.reachable];
        ++counts.components[s.components];
        ++counts.distance[s.distance];
      }
    } else {
      count_summaries(summaries, counts, isa);
    }
    benchmark::DoNotOptimize(counts);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * size);
}
BENCHMARK(BM_count_summaries)->DenseRange(0, 3);

}  // namespace
}  // namespace levelforge::tiltmaze::four

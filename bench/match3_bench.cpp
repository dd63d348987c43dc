// Match-3 playouts per second: the bitboard kernel (kernels/match3/fast.hpp) against the
// scalar reference (kernels/match3/reference.hpp), random player, NoMatch::undo, no
// refill, 100 moves (the paper's setting).
//
//   build/bench/bench_match3 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
//
// Item: one playout. The start boards are made once, outside the timed loop (one per gene,
// initial runs resolved); each iteration plays a batch of seeds on each of them.
// mean_score is over the seeds played, so it differs slightly between the two (they run
// different numbers of iterations, hence different seeds).

#include <benchmark/benchmark.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/match3/fast.hpp"
#include "kernels/match3/reference.hpp"
#include "kernels/match3/rules.hpp"

namespace levelforge::match3 {
namespace {

constexpr std::size_t seeds_per_board = 64;
// The paper's gene -977507440 and three others.
constexpr std::array<std::uint32_t, 4> genes{static_cast<std::uint32_t>(-977507440), 1U, 20260517U,
                                             0xdeadbeefU};

struct Setup {
  Rules rules;
  std::vector<Board> boards;
  std::vector<double> table;
};

// range(0) x range(1) cells, range(2) colors.
Setup setup(const benchmark::State& state) {
  Setup s;
  s.rules.width = static_cast<int>(state.range(0));
  s.rules.height = static_cast<int>(state.range(1));
  s.rules.colors = static_cast<int>(state.range(2));
  for (const auto gene : genes)
    s.boards.push_back(board_from_gene(gene, s.rules, InitialRuns::resolve));
  s.table = score_table(s.rules);
  return s;
}

void BM_FastRandomPlayouts(benchmark::State& state) {
  const Setup s = setup(state);
  std::vector<std::uint64_t> seeds(seeds_per_board);
  std::vector<double> scores(seeds_per_board);
  std::uint64_t next_seed = 1;
  double total = 0;
  for (auto _ : state) {
    for (const Board& board : s.boards) {
      for (auto& seed : seeds) seed = next_seed++ * 0x9e3779b97f4a7c15ULL;
      fast::play_many(board, s.rules, seeds, s.table, scores);
      for (const double score : scores) total += score;
    }
  }
  benchmark::DoNotOptimize(total);
  state.counters["mean_score"] = total / static_cast<double>(next_seed - 1);
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(genes.size() * seeds_per_board));
}

void BM_ReferenceRandomPlayouts(benchmark::State& state) {
  const Setup s = setup(state);
  std::uint64_t next_seed = 1;
  double total = 0;
  for (auto _ : state) {
    for (const Board& board : s.boards) {
      for (std::size_t i = 0; i < seeds_per_board; ++i) {
        total += reference::play(board, s.rules, next_seed++ * 0x9e3779b97f4a7c15ULL, s.table);
      }
    }
  }
  benchmark::DoNotOptimize(total);
  state.counters["mean_score"] = total / static_cast<double>(next_seed - 1);
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(genes.size() * seeds_per_board));
}

void sizes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"w", "h", "colors"});
  b->Args({5, 10, 5});
  b->Args({8, 8, 6});
  b->Args({16, 16, 6});
}

BENCHMARK(BM_FastRandomPlayouts)->Apply(sizes);
BENCHMARK(BM_ReferenceRandomPlayouts)->Apply(sizes);

}  // namespace
}  // namespace levelforge::match3

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
#include <span>
#include <string>
#include <vector>

#include "kernels/api/isa.hpp"
#include "kernels/match3/fast.hpp"
#include "kernels/match3/lockstep.hpp"
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

// Plays batches of seeds_per_board seeds on every board with `play_many`.
template <class PlayMany>
void random_playouts(benchmark::State& state, PlayMany play_many) {
  const Setup s = setup(state);
  std::vector<std::uint64_t> seeds(seeds_per_board);
  std::vector<double> scores(seeds_per_board);
  std::uint64_t next_seed = 1;
  double total = 0;
  for (auto _ : state) {
    for (const Board& board : s.boards) {
      for (auto& seed : seeds) seed = next_seed++ * 0x9e3779b97f4a7c15ULL;
      play_many(board, s.rules, seeds, s.table, scores);
      for (const double score : scores) total += score;
    }
  }
  benchmark::DoNotOptimize(total);
  state.counters["mean_score"] = total / static_cast<double>(next_seed - 1);
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(genes.size() * seeds_per_board));
}

// The lock-step kernel on range(3) (an Isa) with range(4)'s products (lockstep::Products),
// skipped where this CPU lacks them.
void BM_LockstepRandomPlayouts(benchmark::State& state) {
  const auto isa = static_cast<Isa>(state.range(3));
  const auto products = static_cast<lockstep::Products>(state.range(4));
  if (!isa_supported(isa) || !lockstep::supported(products)) {
    state.SkipWithError("this CPU lacks the instruction set");
    return;
  }
  state.SetLabel(std::string(isa_name(isa)) + " " + std::string(lockstep::products_name(products)));
  random_playouts(state,
                  [isa, products](const Board& board, const Rules& rules, auto seeds,
                                  const std::vector<double>& table, std::span<double> scores) {
                    lockstep::play_many(board, rules, seeds, table, scores, isa, products);
                  });
}

// Today's default: fast::play_many (lock-step on the best instruction set).
void BM_FastRandomPlayouts(benchmark::State& state) { random_playouts(state, fast::play_many); }

void BM_BitboardRandomPlayouts(benchmark::State& state) {
  random_playouts(state, fast::play_many_bitboard);
}

// What every kernel pays at least: a playout's 100 draws, each turned into a cell and a
// direction and looked up in a table (the cell's bit in a mask), nothing else.
void BM_DrawOnlyPlayouts(benchmark::State& state) {
  const Setup s = setup(state);
  const int cells = s.rules.width * s.rules.height;
  std::vector<std::uint16_t> bit_of(static_cast<std::size_t>(cells));
  for (int cell = 0; cell < cells; ++cell)
    bit_of[static_cast<std::size_t>(cell)] =
        static_cast<std::uint16_t>(cell + cell / s.rules.width);
  std::uint64_t next_seed = 1;
  std::uint64_t hits = 0;
  const std::uint64_t mask = 0x5555555555555555ULL;
  for (auto _ : state) {
    for (std::size_t playout = 0; playout < genes.size() * seeds_per_board; ++playout) {
      PlayoutStream stream(next_seed++ * 0x9e3779b97f4a7c15ULL);
      for (int move = 0; move < s.rules.moves; ++move) {
        const auto x = stream();
        const auto bit = bit_of[static_cast<std::size_t>(draw_choice(x, cells))];
        hits += (mask >> ((bit + (x >> 62U)) & 63U)) & 1U;
      }
    }
  }
  benchmark::DoNotOptimize(hits);
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

constexpr std::array<std::array<int, 3>, 3> board_sizes{{{5, 10, 5}, {8, 8, 6}, {16, 16, 6}}};

void sizes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"w", "h", "colors"});
  for (const auto& [w, h, colors] : board_sizes) b->Args({w, h, colors});
}

void sizes_and_isas(benchmark::internal::Benchmark* b) {
  b->ArgNames({"w", "h", "colors", "isa", "products"});
  constexpr auto mul32 = static_cast<int>(lockstep::Products::mul32);
  for (const auto& [w, h, colors] : board_sizes) {
    b->Args({w, h, colors, static_cast<int>(Isa::avx512),
             static_cast<int>(lockstep::Products::ifma52)});
    for (const Isa isa : {Isa::avx512, Isa::avx2, Isa::portable})
      b->Args({w, h, colors, static_cast<int>(isa), mul32});
  }
}

BENCHMARK(BM_LockstepRandomPlayouts)->Apply(sizes_and_isas);
BENCHMARK(BM_FastRandomPlayouts)->Apply(sizes);
BENCHMARK(BM_BitboardRandomPlayouts)->Apply(sizes);
BENCHMARK(BM_ReferenceRandomPlayouts)->Apply(sizes);
BENCHMARK(BM_DrawOnlyPlayouts)->Apply(sizes);

}  // namespace
}  // namespace levelforge::match3

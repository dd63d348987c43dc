// Matchstick equations: the table-driven solver (FastSolver, the one sweeps use) against
// the document's depth-first search (solve_dfs) over the sweep of A op B = C with A, B, C in
// 0..99 written without leading zeros and op '+' or '-': 2,000,000 puzzles.
//
//   build/bench/bench_matchstick --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
//
// Item: one puzzle solved (its layout built from the three numbers, then every solution
// found). Argument: the stride through the sweep's index order (a, op, b, c with c fastest);
// 1 is the whole sweep, 101 every 101st puzzle (a prime stride: a multiple of 100 would fix
// c). The search is 50-100 times slower, so it runs on slices only, each of which the fast
// solver also runs on: their items_per_second on the same stride compare directly.
// `solutions` and `good` (puzzles that are false with exactly one solution) are counted over
// the slice once, outside the timing; the timed loops must find the same number of
// solutions, or the benchmark stops with an error. Allowed leading zeros, count up_to.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "kernels/matchstick/equation.hpp"

namespace levelforge::matchstick {
namespace {

constexpr std::int64_t sweep_size = std::int64_t{100} * 2 * 100 * 100;  // a, op, b, c

void puzzle_at(std::int64_t index, Layout& layout) {
  const std::int64_t c = index % 100;
  const std::int64_t b = index / 100 % 100;
  const char op = index / 10000 % 2 == 0 ? '+' : '-';
  const std::int64_t a = index / 20000;
  layout_of(a, op, b, c, layout);
}

Rules rules_for(int moves) { return Rules{moves, Count::up_to, LeadingZeros::allow}; }

struct Summary {
  std::int64_t puzzles = 0;
  std::int64_t solutions = 0;
  std::int64_t good = 0;
};

const Summary& summary(int moves, std::int64_t stride) {
  static std::map<std::pair<int, std::int64_t>, Summary> summaries;
  auto [it, added] = summaries.try_emplace({moves, stride});
  if (added) {
    const FastSolver solver(rules_for(moves));
    Layout layout;
    std::vector<FoundLayout> found;
    for (std::int64_t index = 0; index < sweep_size; index += stride) {
      puzzle_at(index, layout);
      found.clear();
      const auto count = static_cast<std::int64_t>(solver.solve(layout, found));
      ++it->second.puzzles;
      it->second.solutions += count;
      if (count == 1 && !is_true(layout, LeadingZeros::allow)) ++it->second.good;
    }
  }
  return it->second;
}

template <class Solve>
void sweep(benchmark::State& state, int moves, Solve solve) {
  const std::int64_t stride = state.range(0);
  const Summary& expected = summary(moves, stride);
  Layout layout;
  for (auto _ : state) {
    std::int64_t solutions = 0;
    for (std::int64_t index = 0; index < sweep_size; index += stride) {
      puzzle_at(index, layout);
      solutions += solve(layout);
    }
    benchmark::DoNotOptimize(solutions);
    if (solutions != expected.solutions) {
      state.SkipWithError("the solvers disagree on the number of solutions");
      return;
    }
  }
  state.counters["puzzles"] = static_cast<double>(expected.puzzles);
  state.counters["solutions"] = static_cast<double>(expected.solutions);
  state.counters["good"] = static_cast<double>(expected.good);
  state.SetItemsProcessed(state.iterations() * expected.puzzles);
}

void fast_sweep(benchmark::State& state, int moves) {
  const FastSolver solver(rules_for(moves));
  std::vector<FoundLayout> found;
  sweep(state, moves, [&](const Layout& layout) {
    found.clear();
    return static_cast<std::int64_t>(solver.solve(layout, found));
  });
}

void dfs_sweep(benchmark::State& state, int moves) {
  const Rules rules = rules_for(moves);
  sweep(state, moves, [&](const Layout& layout) {
    return static_cast<std::int64_t>(solve_dfs(layout, rules).size());
  });
}

void BM_FastSweep_k1(benchmark::State& state) { fast_sweep(state, 1); }
void BM_DfsSweep_k1(benchmark::State& state) { dfs_sweep(state, 1); }
void BM_FastSweep_k2(benchmark::State& state) { fast_sweep(state, 2); }
void BM_DfsSweep_k2(benchmark::State& state) { dfs_sweep(state, 2); }

BENCHMARK(BM_FastSweep_k1)->ArgName("stride")->Arg(1)->Arg(101)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DfsSweep_k1)->ArgName("stride")->Arg(101)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FastSweep_k2)->ArgName("stride")->Arg(7)->Arg(1009)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DfsSweep_k2)->ArgName("stride")->Arg(1009)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace levelforge::matchstick

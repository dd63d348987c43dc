// Stop-mode solvability of tilt mazes: the polynomial decision (roll graph, condensation,
// 2-SAT: tiltmaze::solvable(maze, Collect::stop)) against the plain breadth-first search over
// (cell, collected targets) of tests/tiltmaze_brute_force.hpp, on random 16 x 16 mazes.
//
//   build/bench/bench_tiltmaze_solver --benchmark_repetitions=5
//   --benchmark_report_aggregates_only=true
//
// Item: one maze decided. Argument: the number of targets T. Each T has its own fixed set of
// mazes, made once with a fixed seed outside the timed loop; both methods decide the same
// set, so their times per maze compare directly. Targets are drawn among the resting cells
// (cells the ball can stop on) other than the start: a target elsewhere makes a maze
// trivially unsolvable for both. `solvable` is the fraction of the set that is solvable;
// the brute force must find the same, or the benchmark stops with an error.
//
// The brute force allocates and clears cells x 2^T distances per maze and, on an unsolvable
// maze, explores every reachable state, so its cost grows as 2^T; the decision does not
// depend on T beyond the 2-SAT clauses, (T + 1) x components.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "kernels/tiltmaze/maze.hpp"
#include "kernels/tiltmaze/solver.hpp"
#include "tests/tiltmaze_brute_force.hpp"

namespace levelforge::tiltmaze {
namespace {

constexpr int side = 16;
constexpr double wall_density = 0.3;
constexpr std::uint64_t seed = 20240611;

// Mazes per target count: the brute force on 16 targets takes long enough per maze that
// fewer of them still give a stable median.
std::size_t mazes_for(int targets) { return targets >= 16 ? 16 : 64; }

struct MazeSet {
  std::vector<Maze> mazes;
  std::vector<char> solvable;  // stop mode, by the decision
  double solvable_fraction = 0;
};

Maze random_maze(int targets, std::mt19937_64& rng) {
  std::bernoulli_distribution wall(wall_density);
  for (;;) {
    Maze maze = open_maze(side, side);
    for (auto& w : maze.east) w = wall(rng) ? 1 : 0;
    for (auto& w : maze.south) w = wall(rng) ? 1 : 0;
    maze.start = std::uniform_int_distribution<int>(0, maze.cells() - 1)(rng);
    std::vector<int> pool = testing::resting_cells(maze);
    pool.erase(pool.begin());  // the start
    if (pool.size() < static_cast<std::size_t>(targets)) continue;
    std::shuffle(pool.begin(), pool.end(), rng);
    pool.resize(static_cast<std::size_t>(targets));
    std::sort(pool.begin(), pool.end());
    maze.targets = pool;
    return maze;
  }
}

const MazeSet& maze_set(int targets) {
  static std::map<int, MazeSet> sets;
  auto [it, added] = sets.try_emplace(targets);
  if (added) {
    std::mt19937_64 rng(seed + static_cast<std::uint64_t>(targets));
    for (std::size_t i = 0; i < mazes_for(targets); ++i) {
      it->second.mazes.push_back(random_maze(targets, rng));
      it->second.solvable.push_back(solvable(it->second.mazes.back(), Collect::stop) ? 1 : 0);
    }
    it->second.solvable_fraction =
        static_cast<double>(std::count(it->second.solvable.begin(), it->second.solvable.end(), 1)) /
        static_cast<double>(it->second.mazes.size());
  }
  return it->second;
}

template <class Decide>
void run(benchmark::State& state, Decide decide) {
  const MazeSet& set = maze_set(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    for (std::size_t i = 0; i < set.mazes.size(); ++i) {
      const bool answer = decide(set.mazes[i]);
      benchmark::DoNotOptimize(answer);
      if (answer != (set.solvable[i] != 0)) {
        state.SkipWithError("the two methods disagree on a maze");
        return;
      }
    }
  }
  state.counters["solvable"] = set.solvable_fraction;
  state.counters["mazes"] = static_cast<double>(set.mazes.size());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(set.mazes.size()));
}

void BM_StopDecision(benchmark::State& state) {
  run(state, [](const Maze& maze) { return solvable(maze, Collect::stop); });
}

void BM_BruteForce(benchmark::State& state) {
  run(state, [](const Maze& maze) { return testing::brute_force(maze, Collect::stop).solvable; });
}

BENCHMARK(BM_StopDecision)->Arg(4)->Arg(8)->Arg(12)->Arg(16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BruteForce)->Arg(4)->Arg(8)->Arg(12)->Arg(16)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace levelforge::tiltmaze

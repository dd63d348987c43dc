// Monster decisions per second on one core: whole worlds played with the structure-of-
// arrays scoring (kernels/monsters/decision_fast.cpp) and with the scalar reference
// (decision_reference.cpp) in the same run, and the scoring alone on snapshots of worlds.
//
//   build/bench/bench_monsters --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// Worlds: the size, 1,000 worlds x 20 monsters (4 goblin groups of 5) x 200 turns
// on a 24 x 16 room, with hit_chance 0 so that every monster lives through every turn.
// Item: one monster decision (a monster's turn, unless busy picking an item up).

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "kernels/monsters/simulation.hpp"

namespace levelforge::monsters {
namespace {

Scenario goblins() {
  Species goblin;
  goblin.name = "goblin";
  goblin.strength = 2;
  goblin.hp = 6;
  goblin.aggression = 3;
  goblin.fear = 3;
  goblin.desire = 2;
  goblin.wander = 1;
  goblin.confusion = 0.05;
  goblin.wants = {3, -1, 1};
  goblin.relation[hero_kind] = -2;
  goblin.relation[1] = 2;
  Scenario scenario;
  scenario.catalogue = {goblin};
  scenario.placed = {1};
  scenario.groups = 4;
  scenario.group_size = 5;
  // Every attack misses: no monster and no hero dies, so each of the 20 monsters decides on
  // each of the 200 turns (but for the turns it spends picking items up).
  scenario.hit_chance = 0;
  scenario.turns = 200;
  return scenario;
}

// Time spent and decisions made by one scoring over the worlds of a run.
struct Tally {
  double deciding = 0;  // the decision phase of every turn
  double playing = 0;   // whole worlds: the hero, moves and combat too
  std::int64_t decisions = 0;
};

void timed_play(const Scenario& scenario, const Map& map, Rng rng, Scoring scoring,
                FastScorer& scorer, Tally& tally) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  WorldPlay play(scenario, map, rng, scoring, scorer);
  while (play.running()) {
    const auto before = Clock::now();
    play.decide();
    tally.deciding += std::chrono::duration<double>(Clock::now() - before).count();
    play.act();
  }
  tally.playing += std::chrono::duration<double>(Clock::now() - start).count();
  for (const auto turns : play.outcome().motive_turns) tally.decisions += turns;
}

// Both scorings on the same worlds, interleaved world by world: each world is played
// with the fast path, then again from the same draws with the reference (the two play
// identically; tests hold them so). The shared machine's load then falls on both alike,
// and the ratio is taken inside each repetition. The iteration time is the fast path's
// decision phase; the counters give decisions per second of the decision phase and of
// the whole play for each, and their ratios.
void BM_Worlds(benchmark::State& state) {
  const Scenario scenario = goblins();
  Rng map_rng({1, Stream::sweep_run, 0, 0, 0});
  const Map map = make_map(24, 16, Layout::room, map_rng);
  FastScorer scorer;
  const auto worlds = static_cast<std::uint64_t>(state.range(0));
  Tally fast;
  Tally reference;
  std::uint64_t task = 0;
  for (auto _ : state) {
    const double before = fast.deciding;
    for (std::uint64_t w = 0; w < worlds; ++w) {
      const Rng rng({2, Stream::sweep_run, task, w, 0});
      timed_play(scenario, map, rng, Scoring::fast, scorer, fast);
      timed_play(scenario, map, rng, Scoring::reference, scorer, reference);
    }
    ++task;
    state.SetIterationTime(fast.deciding - before);
  }
  const auto per_s = [](const Tally& tally, double seconds) {
    return static_cast<double>(tally.decisions) / seconds;
  };
  state.counters["fast_per_s"] = per_s(fast, fast.deciding);
  state.counters["reference_per_s"] = per_s(reference, reference.deciding);
  state.counters["ratio"] = reference.deciding / fast.deciding;
  state.counters["played_fast_per_s"] = per_s(fast, fast.playing);
  state.counters["played_reference_per_s"] = per_s(reference, reference.playing);
  state.counters["played_ratio"] = reference.playing / fast.playing;
  state.counters["decisions"] = static_cast<double>(fast.decisions);
}
BENCHMARK(BM_Worlds)->Arg(1000)->Unit(benchmark::kSecond)->Iterations(1)->UseManualTime();

// Snapshots: the placed worlds, each advanced by a few turns' worth of wandering, scored
// over and over; the simulation's own cost (moves, the hero, combat) is left out.
std::vector<World> snapshots(const Map& map) {
  const Scenario scenario = goblins();
  std::vector<World> worlds;
  Rng rng({3, Stream::sweep_run, 0, 0, 0});
  for (int w = 0; w < 256; ++w) {
    World world = place_world(scenario, map, rng);
    for (int i = 0; i < world.monster_count; ++i) {
      const auto lane = static_cast<std::size_t>(i);
      world.x[lane] = 1 + static_cast<int>(rng.below(22));
      world.y[lane] = 1 + static_cast<int>(rng.below(14));
      world.wander_direction[lane] = static_cast<int>(rng.below(8));
    }
    worlds.push_back(world);
  }
  return worlds;
}

template <Scoring scoring>
void BM_Scoring(benchmark::State& state) {
  Rng map_rng({1, Stream::sweep_run, 0, 0, 0});
  const Map map = make_map(24, 16, Layout::room, map_rng);
  const std::vector<World> worlds = snapshots(map);
  std::vector<Perception> out(max_monsters);
  FastScorer scorer;
  std::int64_t decisions = 0;
  for (auto _ : state) {
    for (const World& world : worlds) {
      if constexpr (scoring == Scoring::fast) {
        scorer.score(world, map, out);
      } else {
        score_reference(world, map, out);
      }
      benchmark::DoNotOptimize(out.data());
      decisions += world.monster_count;
    }
  }
  state.counters["decisions_per_s"] =
      benchmark::Counter(static_cast<double>(decisions), benchmark::Counter::kIsRate);
  state.SetItemsProcessed(decisions);
}
BENCHMARK(BM_Scoring<Scoring::fast>)->Name("BM_ScoringFast");
BENCHMARK(BM_Scoring<Scoring::reference>)->Name("BM_ScoringReference");

}  // namespace
}  // namespace levelforge::monsters

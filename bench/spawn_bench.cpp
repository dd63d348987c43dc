// Spawn levels per second on one core (kernels/spawn/simulation.hpp) for the shipped table
// configs/spawn/enemies.yaml on the curve of configs/spawn_sweep.yaml (saw-tooth 10..28,
// base 20), 50 levels per run, increment 10, in each recency mode and in multiset mode.
//
//   build/bench/bench_spawn --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// Item: one level: its weights, its selection and everything the task's metrics add up.
// Each iteration is one run of 50 levels on a fresh stream. The table is read from the
// shipped file, so the figure follows it. Before timing, 100 runs are made with operator
// new counting: any allocation there stops the benchmark with an error (the inner loop
// must not allocate).

#include <benchmark/benchmark.h>
#include <yaml-cpp/yaml.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "kernels/spawn/spawn.hpp"

namespace {

std::atomic<std::int64_t> allocations{0};

}  // namespace

// GCC 12 takes the replaced operator new (malloc inside) and the replaced deletes (free
// inside) for a mismatched pair once they are inlined; they are the matching pair.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t /*size*/) noexcept { std::free(p); }

namespace levelforge::kernels {
namespace {

// yaml-cpp's tree as the DataNode the runner would hand the kernel.
DataNode data_node(const YAML::Node& node) {
  if (node.IsSequence()) {
    std::vector<DataNode> items;
    for (const auto& item : node) items.push_back(data_node(item));
    return DataNode::list(std::move(items));
  }
  if (node.IsMap()) {
    std::vector<std::pair<std::string, DataNode>> members;
    for (const auto& member : node) {
      members.emplace_back(member.first.as<std::string>(), data_node(member.second));
    }
    return DataNode::map(std::move(members));
  }
  return DataNode::scalar(node.as<std::string>());
}

ParamValue table(DataNode node) {
  return ParamTable{std::make_shared<const DataNode>(std::move(node))};
}

Spawn shipped(const std::string& recency, bool multiset) {
  auto params = ParamSet::defaults(Spawn::parameters());
  params.set("objects",
             table(data_node(YAML::LoadFile(LEVELFORGE_SOURCE_DIR "/configs/spawn/enemies.yaml"))));
  params.set("keyframes",
             table(data_node(YAML::Load("[{time: 0, value: 0.5}, {time: 10, value: 1.5}]"))));
  params.set("base_difficulty", 20.0);
  params.set("recency", recency);
  params.set("multiset", multiset);
  return Spawn(params);
}

void run_levels(benchmark::State& state, const std::string& recency, bool multiset) {
  const Spawn kernel = shipped(recency, multiset);
  const auto& simulator = kernel.simulator();
  spawn::Tally tally;
  std::uint64_t run = 0;
  const std::int64_t before = allocations.load();
  for (; run < 100; ++run) {
    Rng rng({1, Stream::sweep_run, 0, 0, run});
    simulator.run(rng, tally);
  }
  if (allocations.load() != before) {
    state.SkipWithError("Simulator::run allocated");
    return;
  }
  for (auto _ : state) {
    Rng rng({1, Stream::sweep_run, 0, 0, run++});
    simulator.run(rng, tally);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(kernel.required().size()));
  state.counters["error_share"] = simulator.summarize(tally).error_share;
}

void BM_SpawnLevels_all(benchmark::State& state) { run_levels(state, "all", false); }
void BM_SpawnLevels_window(benchmark::State& state) { run_levels(state, "window", false); }
void BM_SpawnLevels_decay(benchmark::State& state) { run_levels(state, "decay", false); }
void BM_SpawnLevels_multiset(benchmark::State& state) { run_levels(state, "all", true); }

BENCHMARK(BM_SpawnLevels_all);
BENCHMARK(BM_SpawnLevels_window);
BENCHMARK(BM_SpawnLevels_decay);
BENCHMARK(BM_SpawnLevels_multiset);

}  // namespace
}  // namespace levelforge::kernels

// Micro benchmarks of the per-item hot paths that the drivers call millions of times:
// the Collatz visit of the exhaustive driver, the OneMax evaluation of the ga driver,
// the counter-based Rng every kernel draws from, RecordLayout::pack (every task row and
// every sweep record), Reductions::offer_top (every exhaustive index) and the island GA's
// migration and per-generation island statistics.
//
//   build/bench/bench_kernels                      # all, about 1 s each at most
//   build/bench/bench_kernels --benchmark_filter=Rng
//
// Each benchmark reports items/s, an item being the unit named in its comment.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/api/record_layout.hpp"
#include "kernels/api/reductions.hpp"
#include "kernels/api/rng.hpp"
#include "kernels/testing/collatz.hpp"
#include "kernels/testing/onemax.hpp"
#include "runner/drivers/driver_list.hpp"
#include "runner/engine/ga_settings.hpp"
#include "runner/engine/island_migration.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/engine/qd_engine.hpp"
#include "tests/solo_group.hpp"

namespace levelforge {
namespace {

constexpr std::size_t draws_per_iteration = 1024;

Rng bench_rng(std::uint64_t task = 0) { return Rng({2026, Stream::evaluation, task, 0, 0}); }

// Item: one start value visited. The registered (type-erased) model is used, exactly as
// the exhaustive driver calls it: begin_index + Collatz::visit for every index of a block.
// range(0): first start value; range(1): block size. solution_steps is set above any
// stopping time below 2^32 so that the block's cost is the orbit, the histogram and the
// top-k, not the growth of the solution vector.
void BM_CollatzVisitBlock(benchmark::State& state) {
  const auto* kernel = find_kernel("collatz");
  if (kernel == nullptr || kernel->binding<ExhaustiveSpec>() == nullptr) {
    state.SkipWithError("kernel 'collatz' is not registered for the exhaustive driver");
    return;
  }
  auto params = ParamSet::defaults(kernel->params);
  params.set("start", std::int64_t{state.range(0)});
  params.set("count", std::int64_t{1'000'000'000});
  params.set("solution_steps", std::int64_t{100'000});
  const auto model = kernel->binding<ExhaustiveSpec>()->make(params);
  const auto block = static_cast<std::uint64_t>(state.range(1));
  Reductions reductions(kernel->binding<ExhaustiveSpec>()->reductions,
                        &kernel->binding<ExhaustiveSpec>()->solutions);
  for (auto _ : state) {
    model->visit(0, block, reductions);
    reductions.clear_solutions();
  }
  benchmark::DoNotOptimize(reductions.counts().data());
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(block));
}
BENCHMARK(BM_CollatzVisitBlock)
    ->ArgNames({"start", "block"})
    ->Args({1, 4096})
    ->Args({1'000'000, 4096});

// Item: one evaluation (cost_us = 0: the count of ones plus the Evaluation record).
void BM_OneMaxEvaluate(benchmark::State& state) {
  const auto length = state.range(0);
  auto params = ParamSet::defaults(kernels::OneMax::parameters());
  params.set("length", std::int64_t{length});
  const kernels::OneMax kernel(params);
  auto rng = bench_rng();
  const auto genome = kernel.random_genome(rng);
  for (auto _ : state) {
    auto evaluation = kernel.evaluate(genome, rng);
    benchmark::DoNotOptimize(evaluation);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_OneMaxEvaluate)->ArgName("length")->Arg(64)->Arg(1024);

// Item: one draw. 1024 draws per iteration, from a fresh stream each iteration so that
// the Philox refill every fourth draw is part of the cost, as it is in a kernel.
void BM_RngCall(benchmark::State& state) {
  std::uint64_t task = 0;
  std::uint64_t sum = 0;
  for (auto _ : state) {
    auto rng = bench_rng(task++);
    for (std::size_t i = 0; i < draws_per_iteration; ++i) sum += rng();
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(draws_per_iteration));
}
BENCHMARK(BM_RngCall);

// Item: one bounded draw. range(0) is the bound: 1000 (OneMax's bit index), and
// 2^63 + 1, for which almost half of the draws are rejected (the worst case).
void BM_RngBelow(benchmark::State& state) {
  const auto bound = state.range(0) == 0 ? (std::uint64_t{1} << 63U) + 1
                                         : static_cast<std::uint64_t>(state.range(0));
  std::uint64_t task = 0;
  std::uint64_t sum = 0;
  for (auto _ : state) {
    auto rng = bench_rng(task++);
    for (std::size_t i = 0; i < draws_per_iteration; ++i) sum += rng.below(bound);
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(draws_per_iteration));
}
BENCHMARK(BM_RngBelow)->ArgName("bound")->Arg(1000)->Arg(0);  // 0 stands for 2^63 + 1

// Item: one uniform double in [0, 1).
void BM_RngUniform(benchmark::State& state) {
  std::uint64_t task = 0;
  double sum = 0;
  for (auto _ : state) {
    auto rng = bench_rng(task++);
    for (std::size_t i = 0; i < draws_per_iteration; ++i) sum += rng.uniform();
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(draws_per_iteration));
}
BENCHMARK(BM_RngUniform);

// Item: one record of 5 fields (int, int, real, real, text of 16 bytes) packed into a
// row, with the type and length checks pack does on every field.
void BM_RecordLayoutPack(benchmark::State& state) {
  const RecordLayout layout({int_field("task", ""), int_field("point", ""),
                             real_field("wall_time", ""), real_field("score", ""),
                             text_field("label", 16, "")});
  const Record record{std::int64_t{12345}, std::int64_t{67}, 0.25, 3.5, std::string("replicate-7")};
  std::vector<std::byte> row(layout.row_size());
  for (auto _ : state) {
    layout.pack(record, row, "bench");
    benchmark::DoNotOptimize(row.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RecordLayoutPack);

// Item: one offer to a top-10 table with a 3-field record (Collatz's 'longest').
// range(0) = 0: random scores, so after the first few offers almost all are rejected
// before the record is made (the common case); 1: increasing scores, so every offer
// enters the table, makes its record and evicts the worst (the worst case).
void BM_ReductionsOfferTop(benchmark::State& state) {
  const bool ascending = state.range(0) == 1;
  const std::vector<ReductionSpec> specs{top_k_reduction(
      "longest", 10, {int_field("n", ""), int_field("steps", ""), int_field("peak", "")}, "")};
  std::vector<double> scores(4096);
  auto rng = bench_rng();
  for (std::size_t i = 0; i < scores.size(); ++i) {
    scores[i] = ascending ? static_cast<double>(i) : static_cast<double>(rng.below(1000));
  }
  std::uint64_t index = 0;
  for (auto _ : state) {
    Reductions reductions(specs);  // a fresh table each pass; its cost is ~1/4096 of one
    for (const double score : scores) {
      reductions.begin_index(index);
      reductions.offer_top(0, score, [&] {
        return Record{static_cast<std::int64_t>(index), std::int64_t{1}, std::int64_t{2}};
      });
      ++index;
    }
    benchmark::DoNotOptimize(reductions.tops().data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(scores.size()));
}
BENCHMARK(BM_ReductionsOfferTop)->ArgName("ascending")->Arg(0)->Arg(1);

// The population of bench/configs/ga_islands.yaml: 4,096 OneMax genomes of 64 genes on 8
// islands, with random fitness.
struct IslandPopulation {
  std::vector<std::vector<std::int64_t>> genomes;
  std::vector<std::int64_t> encoded;
  std::vector<double> fitness;
  std::vector<std::byte> rows;
  static constexpr std::size_t size = 4096;
  static constexpr std::size_t length = 64;
  static constexpr std::size_t row_size = 16;  // fitness and OneMax's `ones`

  IslandPopulation() : fitness(size), rows(size * row_size) {
    auto rng = bench_rng();
    for (std::size_t i = 0; i < size; ++i) {
      auto& genome = genomes.emplace_back(length);
      for (auto& gene : genome) gene = static_cast<std::int64_t>(rng.below(2));
      encoded.insert(encoded.end(), genome.begin(), genome.end());
      fitness[i] = rng.uniform();
    }
  }
};

GaSettings island_bench_settings(std::int64_t count) {
  GaSettings settings{4096, 6, 3, 0.9, 0.01, 0, false, 1e300, 1, 0};
  settings.islands = 8;
  settings.migration_every = 2;
  settings.migration_count = count;
  return settings;
}

// Item: one migrant (a migration event) of a whole migration of 8 islands along a ring,
// planned from the fitness (a ranking per island), genomes, fitness and evaluation rows
// moved: what every rank of a group does at each migration. range(0): migrants per island.
void BM_IslandMigration(benchmark::State& state) {
  IslandPopulation population;
  const auto settings = island_bench_settings(state.range(0));
  std::int64_t generation = 0;
  std::size_t events = 0;
  for (auto _ : state) {
    generation += 2;
    const auto planned = plan_migration(settings, 2026, 0, generation, population.fitness);
    apply_migration(std::span(planned), population.genomes);
    apply_migration(std::span(planned), population.fitness);
    apply_migration_rows(planned, population.rows, IslandPopulation::row_size);
    events += planned.size();
    benchmark::DoNotOptimize(population.rows.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(events));
}
BENCHMARK(BM_IslandMigration)->ArgName("count")->Arg(1)->Arg(4)->Arg(64);

// Item: one individual of a generation's island statistics (island_distances over the
// encoded population), which a task with islands records every generation.
void BM_IslandDistances(benchmark::State& state) {
  const IslandPopulation population;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        island_distances(population.encoded, IslandPopulation::length, 8).data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(IslandPopulation::size));
}
BENCHMARK(BM_IslandDistances);

// Item: one evaluation through QdRun (MAP-Elites) with OneMax of 64 bits at cost 0 on 32 x 32
// cells: parent choice, copy, mutation, evaluation, measures, packed row and insertion. Its
// items/s against BM_OneMaxEvaluate/length:64 in the same invocation is the driver's cost.
void BM_QdRunFree(benchmark::State& state) {
  auto params = ParamSet::defaults(kernels::OneMax::parameters());
  const kernels::OneMax kernel(params);
  auto section = ParamSet::defaults(QdSpec::settings());
  section.set("bins", ParamValue{std::int64_t{32}});
  section.set("init", ParamValue{std::int64_t{1000}});
  section.set("iterations", ParamValue{std::int64_t{20}});
  section.set("batch", ParamValue{std::int64_t{5000}});
  section.set("mutation_rate", ParamValue{0.02});
  const auto settings = QdSettings::from(section);
  std::uint64_t task = 0;
  for (auto _ : state) {
    testing::SoloGroupOf<QdSnapshot> group;  // one rank, as a run on one rank has
    benchmark::DoNotOptimize(QdRun<kernels::OneMax>(kernel, settings, 2026, task++, group).run());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(settings.evaluations()));
}
BENCHMARK(BM_QdRunFree)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace levelforge

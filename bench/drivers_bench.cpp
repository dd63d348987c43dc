// What the drivers cost beside their kernels, on one core: the kernel's own work measured
// here, the drivers' whole runs by bench/run_benchmarks.py --only drivers in the same
// invocation.
//
//   build/bench/bench_drivers --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// Exhaustive driver, phase by phase, for the shipped sweeps the driver-overhead floor is
// about (configs/matchstick_2digit.yaml, k = 1, and configs/tiltmaze_4x4_exhaustive.yaml);
// item: one index visited; argument: the case (0 matchstick, 1 tilt maze 4 x 4, 2
// matchstick without solution records), each cut into the config's chunks:
//   BM_ExhaustiveVisit:  the registered (type-erased) model's visit of every chunk, with
//                        the kernel's reductions, top-k offers and solution records (rows
//                        kept in the reductions, dropped after each chunk), and at the end
//                        the top-k records a kernel builds on request, as the writer does;
//   BM_ExhaustiveChunks: the same as the driver does it: the rows written into the
//                        solution store's (SolutionStore::receive_from), which keeps them
//                        all (SolutionStore::add fills in task and index).
// The kernels' bare solvers are bench_matchstick's BM_FastSweep_k1/stride:1 and
// bench_tiltmaze_four's BM_summarize_many.
//
// GA and sweep drivers with the match3 kernel at its default parameters (5 x 10, 5 colors,
// 200 playouts per evaluation), as bench/configs/match3_ga_driver.yaml and
// match3_sweep_driver.yaml run them; item: one evaluation:
//   BM_Match3Evaluate:   the ga driver's kernel call, evaluate() of a random genome;
//   BM_Match3SweepRun:   the sweep driver's kernel call, run().

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "kernels/match3/match3.hpp"
#include "runner/drivers/exhaustive/exhaustive_output.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {
namespace {

struct Case {
  const char* kernel;
  std::vector<std::pair<const char*, ParamValue>> params;
  std::uint64_t chunk;
};

const Case& case_of(std::int64_t id) {
  static const std::vector<Case> cases{
      {"matchstick", {{"max_value", std::int64_t{99}}, {"moves", std::int64_t{1}}}, 20000},
      {"tiltmaze", {{"width", std::int64_t{4}}, {"height", std::int64_t{4}}}, 65536},
      {"matchstick",
       {{"max_value", std::int64_t{99}}, {"moves", std::int64_t{1}}, {"solutions", false}},
       20000},
  };
  return cases.at(static_cast<std::size_t>(id));
}

template <class BeforeChunk, class AfterChunk>
void visit_all(benchmark::State& state, BeforeChunk before_chunk, AfterChunk after_chunk) {
  const auto& c = case_of(state.range(0));
  const auto* kernel = find_kernel(c.kernel);
  if (kernel == nullptr || kernel->binding<ExhaustiveSpec>() == nullptr) {
    state.SkipWithError("the kernel is not registered for the exhaustive driver");
    return;
  }
  auto params = ParamSet::defaults(kernel->params);
  for (const auto& [name, value] : c.params) params.set(name, value);
  const auto model = kernel->binding<ExhaustiveSpec>()->make(params);
  const auto count = model->index_count();
  for (auto _ : state) {
    SolutionStore store(*kernel->binding<ExhaustiveSpec>());
    Reductions reductions(kernel->binding<ExhaustiveSpec>()->reductions,
                          &kernel->binding<ExhaustiveSpec>()->solutions);
    for (std::uint64_t begin = 0, chunk = 0; begin < count; begin += c.chunk, ++chunk) {
      before_chunk(store, reductions);
      model->visit(begin, std::min(count, begin + c.chunk), reductions);
      after_chunk(store, chunk, reductions);
    }
    // The records a kernel builds on request, of the entries kept, as the writer does.
    for (std::size_t id = 0; id < reductions.specs().size(); ++id) {
      if (!reductions.specs()[id].records_on_request) continue;
      for (const auto& kept : reductions.tops()[id]) {
        auto record = model->top_record(id, kept.index);
        benchmark::DoNotOptimize(record);
      }
    }
    benchmark::DoNotOptimize(reductions.counts().data());
  }
  state.SetLabel(c.kernel);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(count));
}

void BM_ExhaustiveVisit(benchmark::State& state) {
  visit_all(
      state, [](SolutionStore&, Reductions&) {},
      [](SolutionStore&, std::uint64_t, Reductions& found) { found.clear_solutions(); });
}
BENCHMARK(BM_ExhaustiveVisit)->ArgName("case")->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

void BM_ExhaustiveChunks(benchmark::State& state) {
  visit_all(
      state, [](SolutionStore& store, Reductions& found) { store.receive_from(found); },
      [](SolutionStore& store, std::uint64_t chunk, Reductions& found) {
        store.add(chunk, 0, found);
      });
}
BENCHMARK(BM_ExhaustiveChunks)->ArgName("case")->DenseRange(0, 2)->Unit(benchmark::kMillisecond);

template <class Call>
void match3_calls(benchmark::State& state, Call call) {
  const kernels::Match3 kernel(ParamSet::defaults(kernels::Match3::parameters()));
  Rng rng({2026, Stream::evaluation, 0, 0, 0});
  for (auto _ : state) call(kernel, rng);
  state.SetItemsProcessed(state.iterations());
}

void BM_Match3Evaluate(benchmark::State& state) {
  match3_calls(state, [](const kernels::Match3& kernel, Rng& rng) {
    const auto genome = kernel.random_genome(rng);
    auto evaluation = kernel.evaluate(genome, rng);
    benchmark::DoNotOptimize(evaluation);
  });
}
BENCHMARK(BM_Match3Evaluate);

void BM_Match3SweepRun(benchmark::State& state) {
  match3_calls(state, [](const kernels::Match3& kernel, Rng& rng) {
    auto record = kernel.run(rng);
    benchmark::DoNotOptimize(record);
  });
}
BENCHMARK(BM_Match3SweepRun);

}  // namespace
}  // namespace levelforge

#pragma once
// What makes a type a kernel, and which drivers it can serve. A kernel is a plain type:
// the runner type-erases it and checks these concepts at compile time, so adding a
// kernel never touches MPI or HDF5 code.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/api/memory.hpp"
#include "kernels/api/params.hpp"
#include "kernels/api/record.hpp"
#include "kernels/api/reductions.hpp"
#include "kernels/api/rng.hpp"

namespace levelforge {

// Every kernel: a name, a one-line summary, its declared parameters, and a constructor
// from validated parameter values (defaults filled in).
template <class K>
concept Kernel = requires {
  { K::name } -> std::convertible_to<std::string_view>;
  { K::summary } -> std::convertible_to<std::string_view>;
  { K::parameters() } -> std::same_as<std::vector<ParamSpec>>;
}
&&std::constructible_from<K, const ParamSet&>;

struct Evaluation {
  double fitness;  // larger is better
  Record record;   // the kernel's evaluation_fields(), in order
};

// `ga` driver: genomes with variation operators, a fitness, and a fixed-length integer
// encoding (stored in HDF5 and used to restart from checkpoints).
template <class K>
concept GaKernel = Kernel<K> && std::copyable<typename K::Genome> &&
    requires(const K& kernel, const typename K::Genome& genome, typename K::Genome& mutable_genome,
             Rng& rng, double rate, std::span<std::int64_t> encoded,
             std::span<const std::int64_t> stored) {
  { K::evaluation_fields() } -> std::same_as<std::vector<FieldSpec>>;
  { kernel.genome_length() } -> std::same_as<std::size_t>;
  { kernel.random_genome(rng) } -> std::same_as<typename K::Genome>;
  {
    kernel.crossover(genome, genome, rng)
    } -> std::same_as<std::pair<typename K::Genome, typename K::Genome>>;
  { kernel.mutate(mutable_genome, rate, rng) } -> std::same_as<void>;
  { kernel.evaluate(genome, rng) } -> std::same_as<Evaluation>;
  { kernel.encode(genome, encoded) } -> std::same_as<void>;
  { kernel.decode(stored) } -> std::same_as<typename K::Genome>;
};

// Optional GA capability: the final best genomes are measured again, independently of the
// noisy evaluations that selected them; stored in /ga/validation.
template <class K>
concept ValidatingGaKernel = GaKernel<K> &&
    requires(const K& kernel, const typename K::Genome& genome, Rng& rng) {
  { K::validation_fields() } -> std::same_as<std::vector<FieldSpec>>;
  { kernel.validate(genome, rng) } -> std::same_as<Record>;
};

// Optional GA capability: a genome renders to a level grid of small integers (255 for
// nothing), stored for the final best genomes in /ga/best_levels.
template <class K>
concept LevelGaKernel = GaKernel<K> &&
    requires(const K& kernel, const typename K::Genome& genome, std::span<std::uint8_t> cells) {
  { kernel.level_shape() } -> std::same_as<std::vector<std::size_t>>;
  { kernel.render_level(genome, cells) } -> std::same_as<void>;
};

// `sweep` driver: one independent run per task.
template <class K>
concept SweepKernel = Kernel<K> && requires(const K& kernel, Rng& rng) {
  { K::record_fields() } -> std::same_as<std::vector<FieldSpec>>;
  { kernel.run(rng) } -> std::same_as<Record>;
};

// `exhaustive` driver: a deterministic visit of every index of a finite space.
template <class K>
concept ExhaustiveKernel = Kernel<K> &&
    requires(const K& kernel, std::uint64_t index, Reductions& out) {
  { K::reductions() } -> std::same_as<std::vector<ReductionSpec>>;
  { K::solution_fields() } -> std::same_as<std::vector<FieldSpec>>;
  { kernel.index_count() } -> std::same_as<std::uint64_t>;
  { kernel.visit(index, out) } -> std::same_as<void>;
};

// Optional exhaustive capability: visits [begin, end) in one call, for kernels whose visit
// is so cheap that batching (bit-slicing, local tallies) is the whole speed. It must add
// exactly what visit() on each index in turn would, setting out.begin_index() itself
// before offer_top() or solution().
template <class K>
concept RangeExhaustiveKernel = ExhaustiveKernel<K> &&
    requires(const K& kernel, std::uint64_t begin, std::uint64_t end, Reductions& out) {
  { kernel.visit_range(begin, end, out) } -> std::same_as<void>;
};

// Optional capability of any kernel: its memory for one task and one genome, computed from
// the parameters alone (no kernel is built: building one may be the allocation that does not
// fit), so that `levelforge run` refuses a run the machine cannot hold.
template <class K>
concept MemoryEstimatingKernel = Kernel<K> && requires(const ParamSet& params) {
  { K::memory_estimate(params) } -> std::same_as<MemoryEstimate>;
};

}  // namespace levelforge

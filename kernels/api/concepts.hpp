#pragma once
// What makes a type a kernel, and which drivers it can serve. A kernel is a plain type:
// the runner type-erases it and checks these concepts at compile time, so adding a
// kernel never touches MPI or HDF5 code.

#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/api/memory.hpp"
#include "kernels/api/params.hpp"
#include "kernels/api/puzzle.hpp"
#include "kernels/api/real_genome.hpp"
#include "kernels/api/record.hpp"
#include "kernels/api/reductions.hpp"
#include "kernels/api/results.hpp"
#include "kernels/api/rng.hpp"

namespace levelforge {

// What a kernel can do. Each has a concept below; a kernel claims its own in one
// declaration, `static constexpr Capabilities capabilities{...}`, and the runner uses what
// is claimed, nothing else. capabilities_hold<K>() makes a claim without its concept, and a
// concept met without its claim, a compile error.
enum class Capability : std::uint8_t {
  ga,               // GaKernel: the `ga` driver
  validate,         // ValidatingGaKernel: /ga/validation
  render_level,     // LevelGaKernel: /ga/best_levels
  measures,         // MeasuringGaKernel: the `qd` driver's map
  sweep,            // SweepKernel: the `sweep` driver
  exhaustive,       // ExhaustiveKernel: the `exhaustive` driver
  visit_range,      // RangeExhaustiveKernel: the exhaustive driver's batched visit
  top_record,       // TopRecordKernel: top-k records built for the entries kept, not offered
  memory_estimate,  // MemoryEstimatingKernel: `run` refuses what the machine cannot hold
  puzzle,           // PuzzleKernel: `levelforge solve` and `levelforge show`
  summary,          // SummarizingKernel: what `levelforge inspect` says in the kernel's terms
  simd,             // SimdKernel: which SIMD path and instruction set a run takes
  real_genome,      // RealGenomeKernel: genomes are bounded real vectors (real_genome.hpp)
  objectives,       // MultiObjectiveGaKernel: several objectives, for NSGA-II and Pareto fronts
};

class Capabilities {
 public:
  constexpr Capabilities(std::initializer_list<Capability> claimed) {
    for (const Capability capability : claimed) bits_ |= bit(capability);
  }
  [[nodiscard]] constexpr bool has(Capability capability) const {
    return (bits_ & bit(capability)) != 0;
  }

 private:
  static constexpr std::uint32_t bit(Capability capability) {
    return std::uint32_t{1} << static_cast<unsigned>(capability);
  }
  std::uint32_t bits_ = 0;
};

// Every kernel: a name, a one-line summary, its declared parameters and capabilities, and a
// constructor from validated parameter values (defaults filled in).
template <class K>
concept Kernel = requires {
  { K::name } -> std::convertible_to<std::string_view>;
  { K::summary } -> std::convertible_to<std::string_view>;
  { K::capabilities } -> std::convertible_to<Capabilities>;
  { K::parameters() } -> std::same_as<std::vector<ParamSpec>>;
}
&&std::constructible_from<K, const ParamSet&>;

template <Kernel K>
constexpr bool claims(Capability capability) {
  return Capabilities(K::capabilities).has(capability);
}

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

// Optional GA capability: the genome is a vector of reals within bounds, its genome half
// RealGenome's (which fixes how it is stored). Its genomes are float64 in the result file,
// NaN where missing.
template <class K>
concept RealGenomeKernel = GaKernel<K> && std::derived_from<K, RealGenome>;

// How the runner stores a kernel's genomes: its encoding as int64, or a real genome's genes as
// float64.
enum class GenomeType : std::uint8_t { encoded, real };

template <class K>
constexpr GenomeType genome_type() {
  return RealGenomeKernel<K> ? GenomeType::real : GenomeType::encoded;
}

// A gene of a stored genome that is not there (an empty QD cell, a GA task with fewer best
// genomes than kept): -1 for an encoded genome, NaN's bits for a real one.
template <class K>
constexpr std::int64_t missing_gene() {
  if constexpr (RealGenomeKernel<K>) {
    return std::bit_cast<std::int64_t>(std::numeric_limits<double>::quiet_NaN());
  } else {
    return -1;
  }
}

// A behaviour descriptor: one axis of the `qd` driver's map, with the range a designer maps
// by default (values outside fall in the edge cells).
struct MeasureSpec {
  std::string name;
  double low = 0;
  double high = 1;
  std::string doc;
};

// Optional GA capability: named measures of a genome, computed with its fitness from the
// genome and its evaluation; the `qd` driver maps the best genome of each cell of their grid.
// measures() may depend on the parameters (a range that grows with the level's size) but
// names the same measures for every parameter set.
template <class K>
concept MeasuringGaKernel = GaKernel<K> &&
    requires(const K& kernel, const typename K::Genome& genome, const Evaluation& evaluation) {
  { kernel.measures() } -> std::same_as<std::vector<MeasureSpec>>;
  { kernel.measure(genome, evaluation) } -> std::same_as<std::vector<double>>;
};

// One objective of a multi-objective kernel: a number its evaluation already records (the
// fitness or one of evaluation_fields(), int or real), whether smaller is better, and the
// reference point's value in it, the worst that a front's hypervolume counts from.
struct ObjectiveSpec {
  std::string field;  // "fitness" or an evaluation field
  bool minimize = false;
  double reference = 0;
  std::string doc;  // what a designer trades against the other objectives
};

// Optional GA capability: two or more objectives, each a field of the evaluation. NSGA-II
// (ga.breeding nsga2) breeds on them, and a run with such a point records each point's
// Pareto front and hypervolume per generation. objectives() may depend on the parameters (a
// reference that grows with the level) but names the same fields for every parameter set.
template <class K>
concept MultiObjectiveGaKernel = GaKernel<K> && requires(const K& kernel) {
  { kernel.objectives() } -> std::same_as<std::vector<ObjectiveSpec>>;
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

// Optional exhaustive capability: visit offers top-k scores alone (out.offer_top(id, score)),
// and the runner asks for the records of the entries it keeps, a few per task where a sweep
// may offer many times as many (each pushed out again by a harder one later). The record
// of an index must be what visit would have offered: it is a function of the index alone.
template <class K>
concept TopRecordKernel = ExhaustiveKernel<K> &&
    requires(const K& kernel, std::size_t id, std::uint64_t index) {
  { kernel.top_record(id, index) } -> std::same_as<Record>;
};

// Optional capability of any kernel: its memory for one task and one genome, computed from
// the parameters alone (no kernel is built: building one may be the allocation that does not
// fit), so that `levelforge run` refuses a run the machine cannot hold.
template <class K>
concept MemoryEstimatingKernel = Kernel<K> && requires(const ParamSet& params) {
  { K::memory_estimate(params) } -> std::same_as<MemoryEstimate>;
};

// Puzzles one at a time (puzzle.hpp): a text form read with errors that name the place, a
// solver under options declared like parameters, an independent check of its answer, and a
// report. Nothing here needs a kernel object: a puzzle carries all it needs.
template <class K>
concept PuzzleKernel = Kernel<K> && std::movable<typename K::Puzzle> &&
    std::movable<typename K::PuzzleAnswer> &&
    requires(std::string_view text, const std::string& source, const ParamSet& options,
             const typename K::Puzzle& puzzle, const typename K::PuzzleAnswer& answer) {
  { K::puzzle_info() } -> std::same_as<PuzzleInfo>;
  { K::solve_options() } -> std::same_as<std::vector<ParamSpec>>;
  // Throws PuzzleInputError naming `source` and the place.
  { K::parse_puzzle(text, source) } -> std::same_as<typename K::Puzzle>;
  // `options`: solve_options(), validated, defaults filled in. Throws std::logic_error when
  // the kernel's own solvers disagree.
  { K::solve_puzzle(puzzle, options) } -> std::same_as<typename K::PuzzleAnswer>;
  // Why `answer` is wrong for `puzzle`, "" when it holds: decided from the model, not by
  // the code that found the answer.
  { K::check_answer(puzzle, options, answer) } -> std::same_as<std::string>;
  { K::report(puzzle, answer, source) } -> std::same_as<Report>;
  // The puzzle for people, headed by comment lines that name `source`; a kernel whose
  // text form is a drawing returns one that parse_puzzle reads back.
  { K::draw_puzzle(puzzle, source) } -> std::same_as<std::string>;
};

// Lines that `levelforge inspect` prints about a finished run in the kernel's own terms
// ("solvable: 412 of 1000 mazes"), from its result tables (results.hpp). A table the run did
// not write is absent; the summary says what it can from the others.
template <class K>
concept SummarizingKernel = Kernel<K> && requires(const ResultTables& results) {
  { K::summarize(results) } -> std::same_as<std::vector<std::string>>;
};

// Kernels whose SIMD paths are picked at run time (isa.hpp) say which they take, for the
// provenance (`kernel_simd`) and `levelforge --version`: a cluster's nodes may differ.
template <class K>
concept SimdKernel = Kernel<K> && requires(const ParamSet& params) {
  // Every path the binary carries and when each is taken, one line.
  { K::simd_paths() } -> std::same_as<std::string>;
  // The path these parameters take on this CPU, e.g. "lock-step playouts, avx512 ifma52".
  { K::simd_path(params) } -> std::same_as<std::string>;
};

namespace detail {
template <bool claimed, bool met>
constexpr void check_claim() {
  static_assert(met || !claimed, "the kernel claims a capability whose concept it does not meet");
  static_assert(claimed || !met, "the kernel meets a capability's concept but does not claim it");
}
}  // namespace detail

// A kernel's claims against the concepts: instantiated for every registered kernel, and by
// each kernel's header for itself. The instantiation in a failing message names the kernel
// and the capability.
template <Kernel K>
consteval bool capabilities_hold() {
  detail::check_claim<claims<K>(Capability::ga), GaKernel<K>>();
  detail::check_claim<claims<K>(Capability::validate), ValidatingGaKernel<K>>();
  detail::check_claim<claims<K>(Capability::render_level), LevelGaKernel<K>>();
  detail::check_claim<claims<K>(Capability::measures), MeasuringGaKernel<K>>();
  detail::check_claim<claims<K>(Capability::sweep), SweepKernel<K>>();
  detail::check_claim<claims<K>(Capability::exhaustive), ExhaustiveKernel<K>>();
  detail::check_claim<claims<K>(Capability::visit_range), RangeExhaustiveKernel<K>>();
  detail::check_claim<claims<K>(Capability::top_record), TopRecordKernel<K>>();
  detail::check_claim<claims<K>(Capability::memory_estimate), MemoryEstimatingKernel<K>>();
  detail::check_claim<claims<K>(Capability::puzzle), PuzzleKernel<K>>();
  detail::check_claim<claims<K>(Capability::summary), SummarizingKernel<K>>();
  detail::check_claim<claims<K>(Capability::simd), SimdKernel<K>>();
  detail::check_claim<claims<K>(Capability::real_genome), RealGenomeKernel<K>>();
  detail::check_claim<claims<K>(Capability::objectives), MultiObjectiveGaKernel<K>>();
  return true;
}

}  // namespace levelforge

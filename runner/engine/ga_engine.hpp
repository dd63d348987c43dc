#pragma once
// The genetic algorithm of the `ga` driver, generic over a GaKernel and free of MPI: the
// evaluations of each generation go through an EvaluationGroup, which the MPI driver
// implements by splitting them across the ranks of a task's group. Every rank of the
// group runs this same code on the same state and so keeps the same population.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "kernels/api/record_layout.hpp"
#include "runner/engine/cma_breeding.hpp"
#include "runner/engine/evaluation_group.hpp"
#include "runner/engine/ga_objectives.hpp"
#include "runner/engine/ga_settings.hpp"
#include "runner/engine/island_migration.hpp"
#include "runner/engine/pareto.hpp"
#include "runner/engine/search_state.hpp"

namespace levelforge {

// A task after a whole generation: what a checkpoint saves and a resumed task starts from.
// The random streams are keyed by generation, so nothing else is needed to continue it.
struct GaSnapshot {
  std::int64_t generations_run = 0;         // generations done, generation 0 included
  std::uint64_t evaluations = 0;            // made so far
  std::vector<std::int64_t> genomes;        // population x genome_length, the kernel's encoding
  std::vector<std::byte> evaluations_rows;  // population rows of ga_evaluation_layout
  std::vector<std::byte> history;           // generations_run rows of ga_history_layout
  std::vector<std::byte> island_history;    // generations_run x islands rows, when recorded
  std::vector<std::byte> migrations;        // the migrations so far, ga_migration_layout rows
  std::vector<std::byte> search;            // cma_es: CmaBreeding::state() as float64s
  std::vector<std::byte> pareto_history;    // objectives: ga_pareto_history_layout rows
  std::vector<std::byte> fronts;            // objectives: GaOutcome::fronts as bytes
};

// The ranks that evaluate one GA task together.
using EvaluationGroup = EvaluationGroupOf<GaSnapshot>;

struct GaOutcome {
  std::size_t generations_run = 0;
  std::vector<std::byte> history;  // generations_run rows of ga_history_layout
  std::vector<std::byte> best;     // keep_best rows of ga_best_layout
  // keep_best x genome_length, missing_gene<K>() where missing
  std::vector<std::int64_t> best_genomes;
  // With GaSettings::records_islands(): generations_run x islands rows of
  // ga_island_history_layout, the best of each island (ga_island_best_layout) and its genome.
  std::vector<std::byte> island_history;
  std::vector<std::byte> island_best;
  std::vector<std::int64_t> island_best_genomes;
  std::vector<std::byte> migrations;  // one ga_migration_layout row per migrant, in order
  // A kernel with objectives: generations_run rows of ga_pareto_history_layout, and each
  // generation's front (GenerationFront::members), population x objectives float64s.
  std::vector<std::byte> pareto_history;
  std::vector<double> fronts;
  // Optional capabilities, computed by the group's first member only (the one that writes):
  std::vector<std::byte> validation;  // keep_best rows of the kernel's validation_fields()
  std::vector<std::uint8_t> levels;   // keep_best levels of level_shape(), 255 where missing
  std::uint64_t evaluations = 0;
  std::uint64_t evaluations_before = 0;  // restored from the snapshot the task resumed from
  bool stopped = false;  // the group stopped the task early: only `history` so far is valid
};

// One evaluation: fitness, then the kernel's evaluation fields.
RecordLayout ga_evaluation_layout(const std::vector<FieldSpec>& kernel_fields);
// One generation: statistics of the population, then the best individual's fields.
RecordLayout ga_history_layout(const std::vector<FieldSpec>& kernel_fields);
// One of the final best: its position in the final ranking, fitness, fields.
RecordLayout ga_best_layout(const std::vector<FieldSpec>& kernel_fields);
// One island in one generation: statistics of its individuals and their diversity.
RecordLayout ga_island_history_layout();
// The best individual of one island at the end: island, fitness, fields.
RecordLayout ga_island_best_layout(const std::vector<FieldSpec>& kernel_fields);
// One migrant: generation, islands, positions (MigrationEvent) and its fitness.
RecordLayout ga_migration_layout();

// Evaluation order: higher fitness first, equal fitness by lower position.
std::vector<std::size_t> ranking(std::span<const double> fitness);

// Fills `history_row` with the statistics of one generation.
void summarize_generation(std::int64_t generation, std::span<const double> fitness,
                          std::span<const std::byte> evaluation_rows,
                          const RecordLayout& evaluation_layout, const RecordLayout& history_layout,
                          std::span<std::byte> history_row);

// Fills one ga_island_history_layout row.
void summarize_island(std::int64_t generation, std::size_t island, std::span<const double> fitness,
                      const IslandDistances& distances, std::span<std::byte> row);

template <GaKernel K>
class GaRun {
 public:
  using Genome = typename K::Genome;

  GaRun(const K& kernel, const GaSettings& settings, std::uint64_t seed, std::uint64_t task,
        EvaluationGroup& group)
      : kernel_(kernel),
        settings_(settings),
        seed_(seed),
        task_(task),
        group_(group),
        evaluation_layout_(ga_evaluation_layout(K::evaluation_fields())),
        history_layout_(ga_history_layout(K::evaluation_fields())),
        population_size_(static_cast<std::size_t>(settings.population)),
        islands_(static_cast<std::size_t>(settings.islands)) {
    if constexpr (RealGenomeKernel<K>) {
      if (settings.breeding == GaBreeding::cma_es) cma_.emplace(kernel_, settings_);
    }
    if constexpr (MultiObjectiveGaKernel<K>) {
      if (settings.records_fronts())
        objectives_.emplace(kernel_.objectives(), evaluation_layout_, K::name);
    }
    if (settings.breeding == GaBreeding::nsga2 && !objectives_) {
      throw KernelError("ga.breeding: nsga2 needs a kernel with objectives; '" +
                        std::string(K::name) + "' has one fitness");
    }
  }

  // From generation 0, or from `resume` (a snapshot of this same task).
  GaOutcome run(const GaSnapshot* resume = nullptr) {
    GaOutcome outcome;
    fitness_.assign(population_size_, 0.0);
    if (resume != nullptr) {
      restore(*resume, outcome);
    } else {
      genomes_.reserve(population_size_);
      for (std::size_t i = 0; i < population_size_; ++i) {
        Rng rng(stream(Stream::init, 0, i));
        genomes_.push_back(kernel_.random_genome(rng));
      }
      rows_.assign(population_size_ * evaluation_layout_.row_size(), std::byte{});
      std::vector<std::size_t> everyone(population_size_);
      std::iota(everyone.begin(), everyone.end(), std::size_t{0});
      evaluate(0, everyone, outcome);
      if (nsga2()) survive();
      record_generation(0, outcome);
    }

    for (auto generation = static_cast<std::int64_t>(outcome.generations_run);
         generation < settings_.generations; ++generation) {
      if (best_fitness() >= settings_.stop_fitness) break;
      const auto check = group_.after_generation(generation);
      if (check.save) group_.save(snapshot(outcome));
      if (check.stop) {
        outcome.stopped = true;
        return outcome;
      }
      if (settings_.migrates_after(generation - 1)) migrate(generation - 1, outcome);
      const auto offspring = breed(static_cast<std::uint64_t>(generation));
      evaluate(static_cast<std::uint64_t>(generation), offspring, outcome);
      if (nsga2()) survive();
      record_generation(generation, outcome);
    }
    keep_best(outcome);
    if (settings_.records_islands()) keep_island_best(outcome);
    return outcome;
  }

 private:
  [[nodiscard]] StreamId stream(Stream purpose, std::uint64_t generation,
                                std::size_t individual) const {
    return {seed_, purpose, task_, generation, individual};
  }

  [[nodiscard]] bool nsga2() const { return settings_.breeding == GaBreeding::nsga2; }

  [[nodiscard]] IslandBlock island(std::size_t index) const {
    return island_block(population_size_, islands_, index);
  }

  [[nodiscard]] std::vector<std::int64_t> encoded_population() const {
    const auto length = kernel_.genome_length();
    std::vector<std::int64_t> encoded(population_size_ * length);
    for (std::size_t i = 0; i < population_size_; ++i) {
      kernel_.encode(genomes_[i], std::span(encoded).subspan(i * length, length));
    }
    return encoded;
  }

  [[nodiscard]] GaSnapshot snapshot(const GaOutcome& outcome) const {
    GaSnapshot saved{static_cast<std::int64_t>(outcome.generations_run),
                     outcome.evaluations,
                     encoded_population(),
                     rows_,
                     outcome.history,
                     outcome.island_history,
                     outcome.migrations,
                     {},
                     outcome.pareto_history,
                     search_bytes(outcome.fronts)};
    if (cma_) saved.search = search_bytes(cma_->state());
    return saved;
  }

  void restore(const GaSnapshot& saved, GaOutcome& outcome) {
    const auto length = kernel_.genome_length();
    const auto generations = static_cast<std::size_t>(saved.generations_run);
    const auto island_rows = settings_.records_islands() ? generations * islands_ : 0;
    const auto front_rows = objectives_ ? generations : 0;
    const auto front_width = objectives_ ? objectives_->count() : 0;
    if (saved.generations_run < 1 || saved.generations_run >= settings_.generations ||
        saved.genomes.size() != population_size_ * length ||
        saved.evaluations_rows.size() != population_size_ * evaluation_layout_.row_size() ||
        saved.history.size() != generations * history_layout_.row_size() ||
        saved.island_history.size() != island_rows * ga_island_history_layout().row_size() ||
        saved.migrations.size() % ga_migration_layout().row_size() != 0 ||
        saved.pareto_history.size() != front_rows * ga_pareto_history_layout().row_size() ||
        saved.fronts.size() != front_rows * population_size_ * front_width * sizeof(double)) {
      throw std::invalid_argument("task " + std::to_string(task_) +
                                  ": the saved GA state does not fit this task's settings");
    }
    genomes_.clear();
    genomes_.reserve(population_size_);
    for (std::size_t i = 0; i < population_size_; ++i) {
      genomes_.push_back(
          kernel_.decode(std::span<const std::int64_t>(saved.genomes).subspan(i * length, length)));
    }
    rows_ = saved.evaluations_rows;
    for (std::size_t i = 0; i < population_size_; ++i) {
      fitness_[i] = evaluation_layout_.get_real(row(i), 0);
    }
    if (cma_) cma_->restore(search_numbers(saved.search, task_));
    if (nsga2()) rank_population();
    outcome.pareto_history = saved.pareto_history;
    outcome.fronts = search_numbers(saved.fronts, task_);
    outcome.history = saved.history;
    outcome.island_history = saved.island_history;
    outcome.migrations = saved.migrations;
    outcome.generations_run = generations;
    outcome.evaluations = saved.evaluations;
    outcome.evaluations_before = saved.evaluations;
  }

  [[nodiscard]] std::span<std::byte> row(std::size_t individual) {
    const auto size = evaluation_layout_.row_size();
    return std::span(rows_).subspan(individual * size, size);
  }

  [[nodiscard]] double best_fitness() const {
    return *std::max_element(fitness_.begin(), fitness_.end());
  }

  // Evaluates the individuals at `positions` (ascending) of this generation, split across
  // the group.
  void evaluate(std::uint64_t generation, const std::vector<std::size_t>& positions,
                GaOutcome& outcome) {
    const std::size_t count = positions.size();
    const auto row_size = evaluation_layout_.row_size();
    const auto all = evaluate_shared(
        group_, count, row_size,
        [&](std::size_t i, std::span<std::byte> target) {
          Rng rng(stream(Stream::evaluation, generation, positions[i]));
          auto evaluation = kernel_.evaluate(genomes_[positions[i]], rng);
          evaluation.record.insert(evaluation.record.begin(), evaluation.fitness);
          evaluation_layout_.pack(evaluation.record, target, K::name);
        },
        [&](std::size_t i) {
          return "generation " + std::to_string(generation) + ", individual " +
                 std::to_string(positions[i]);
        });
    for (std::size_t i = 0; i < count; ++i) {
      auto target = row(positions[i]);
      std::copy_n(all.begin() + static_cast<std::ptrdiff_t>(i * row_size), row_size,
                  target.begin());
      fitness_[positions[i]] = evaluation_layout_.get_real(target, 0);
    }
    outcome.evaluations += count;
    group_.generation_done(count);
  }

  [[nodiscard]] std::size_t tournament(Rng& rng, IslandBlock block) const {
    std::size_t winner = block.begin + rng.below(block.size());
    for (std::int64_t round = 1; round < settings_.tournament; ++round) {
      const std::size_t challenger = block.begin + rng.below(block.size());
      if (fitness_[challenger] > fitness_[winner] ||
          (fitness_[challenger] == fitness_[winner] && challenger < winner)) {
        winner = challenger;
      }
    }
    return winner;
  }

  // Crosses `mother` and `father` (ga.crossover_rate) and mutates the children: the first, and
  // with `both` the second, appended to `next`. Draws on the streams of position `child`.
  void add_children(const Genome& mother, const Genome& father, std::uint64_t generation,
                    std::size_t child, bool both, std::vector<Genome>& next) const {
    Rng crossover(stream(Stream::crossover, generation, child));
    auto offspring = crossover.bernoulli(settings_.crossover_rate)
                         ? kernel_.crossover(mother, father, crossover)
                         : std::pair<Genome, Genome>{mother, father};
    Rng first_mutation(stream(Stream::mutation, generation, child));
    kernel_.mutate(offspring.first, settings_.mutation_rate, first_mutation);
    next.push_back(std::move(offspring.first));
    if (!both) return;
    Rng second_mutation(stream(Stream::mutation, generation, child + 1));
    kernel_.mutate(offspring.second, settings_.mutation_rate, second_mutation);
    next.push_back(std::move(offspring.second));
  }

  // NSGA-II's binary (ga.tournament-ary) tournament by crowded comparison: lower front, then
  // larger crowding distance, then lower position.
  [[nodiscard]] std::size_t crowded_tournament(Rng& rng) const {
    std::size_t winner = rng.below(population_size_);
    for (std::int64_t round = 1; round < settings_.tournament; ++round) {
      const std::size_t challenger = rng.below(population_size_);
      const bool better = fronts_[challenger] != fronts_[winner]
                              ? fronts_[challenger] < fronts_[winner]
                              : (crowding_[challenger] != crowding_[winner]
                                     ? crowding_[challenger] > crowding_[winner]
                                     : challenger < winner);
      if (better) winner = challenger;
    }
    return winner;
  }

  // ga.breeding nsga2: ga.population offspring after the parents, bred in pairs from crowded
  // tournaments; survive() keeps the best half once they are evaluated.
  std::vector<std::size_t> breed_by_nsga2(std::uint64_t generation) {
    std::vector<Genome> offspring;
    offspring.reserve(population_size_);
    for (std::size_t child = 0; child < population_size_; child += 2) {
      Rng selection(stream(Stream::selection, generation, child));
      const auto& mother = genomes_[crowded_tournament(selection)];
      const auto& father = genomes_[crowded_tournament(selection)];
      add_children(mother, father, generation, child, child + 1 < population_size_, offspring);
    }
    std::vector<std::size_t> positions(population_size_);
    std::iota(positions.begin(), positions.end(), population_size_);
    for (auto& genome : offspring) genomes_.push_back(std::move(genome));
    rows_.resize(2 * rows_.size());
    fitness_.resize(2 * population_size_);
    return positions;
  }

  // NSGA-II's survival: of the evaluated population (parents and offspring), the first
  // ga.population in crowded-comparison order, kept in that order; then the fronts and
  // crowding of the survivors, for the next tournaments.
  void survive() {
    const auto m = objectives_->count();
    const auto values = objectives_->larger_is_better(rows_);
    const auto fronts = nondominated_fronts(values, m);
    const auto order = crowded_order(fronts, crowding_distances(values, m, fronts));
    const auto row_size = evaluation_layout_.row_size();
    std::vector<Genome> kept;
    kept.reserve(population_size_);
    std::vector<std::byte> kept_rows(population_size_ * row_size);
    values_.clear();
    fronts_.clear();
    for (std::size_t k = 0; k < population_size_; ++k) {
      kept.push_back(std::move(genomes_[order[k]]));
      std::copy_n(row(order[k]).begin(), row_size,
                  kept_rows.begin() + static_cast<std::ptrdiff_t>(k * row_size));
      const auto first = values.begin() + static_cast<std::ptrdiff_t>(order[k] * m);
      values_.insert(values_.end(), first, first + static_cast<std::ptrdiff_t>(m));
      // Only later fronts and the last one's tail are cut: a survivor's front stays its own.
      fronts_.push_back(fronts[order[k]]);
    }
    genomes_ = std::move(kept);
    rows_ = std::move(kept_rows);
    fitness_.resize(population_size_);
    for (std::size_t i = 0; i < population_size_; ++i) {
      fitness_[i] = evaluation_layout_.get_real(row(i), 0);
    }
    crowding_ = crowding_distances(values_, m, fronts_);
  }

  // A restored population's objectives, fronts and crowding.
  void rank_population() {
    const auto m = objectives_->count();
    values_ = objectives_->larger_is_better(rows_);
    fronts_ = nondominated_fronts(values_, m);
    crowding_ = crowding_distances(values_, m, fronts_);
  }

  // ga.breeding cma_es: the ga.elitism best first (with their evaluations), then the
  // candidates the search samples after it was told how the last ones ranked.
  std::vector<std::size_t> breed_by_cma(std::uint64_t generation) {
    const auto elites = static_cast<std::size_t>(settings_.elitism);
    const auto row_size = evaluation_layout_.row_size();
    const auto order = ranking(fitness_);
    std::vector<Genome> ranked;
    for (const auto i : order) {
      if (!cma_->started() || i >= elites) ranked.push_back(genomes_[i]);
    }
    const auto candidates = cma_->next(seed_, task_, generation, ranked,
                                       [&](Rng& rng) { return kernel_.random_genome(rng); });
    std::vector<Genome> next;
    next.reserve(population_size_);
    std::vector<std::byte> next_rows(rows_.size());
    std::vector<std::size_t> positions;
    for (std::size_t e = 0; e < elites; ++e) {
      next.push_back(genomes_[order[e]]);
      std::copy_n(row(order[e]).begin(), row_size,
                  next_rows.begin() + static_cast<std::ptrdiff_t>(e * row_size));
      if (settings_.reevaluate_elites) positions.push_back(e);
    }
    for (const auto& candidate : candidates) {
      positions.push_back(next.size());
      next.push_back(candidate);
    }
    genomes_ = std::move(next);
    rows_ = std::move(next_rows);
    for (std::size_t e = 0; e < elites; ++e) fitness_[e] = evaluation_layout_.get_real(row(e), 0);
    return positions;
  }

  // The next population, island by island: elites first (with their evaluations), then
  // offspring in pairs of parents from the same island, every draw keyed by the child's
  // position. Returns the positions to evaluate.
  std::vector<std::size_t> breed(std::uint64_t generation) {
    if constexpr (RealGenomeKernel<K>) {
      if (cma_) return breed_by_cma(generation);
    }
    if (nsga2()) return breed_by_nsga2(generation);
    const auto elites = static_cast<std::size_t>(settings_.elitism);
    const auto row_size = evaluation_layout_.row_size();
    std::vector<Genome> next;
    next.reserve(population_size_);
    std::vector<std::byte> next_rows(rows_.size());
    std::vector<std::size_t> offspring_positions;
    for (std::size_t index = 0; index < islands_; ++index) {
      const auto block = island(index);
      const auto order =
          ranking(std::span<const double>(fitness_).subspan(block.begin, block.size()));
      for (std::size_t e = 0; e < elites; ++e) {
        next.push_back(genomes_[block.begin + order[e]]);
        std::copy_n(row(block.begin + order[e]).begin(), row_size,
                    next_rows.begin() + static_cast<std::ptrdiff_t>((block.begin + e) * row_size));
        if (settings_.reevaluate_elites) offspring_positions.push_back(block.begin + e);
      }
      for (std::size_t child = block.begin + elites; child < block.end; child += 2) {
        Rng selection(stream(Stream::selection, generation, child));
        const auto& mother = genomes_[tournament(selection, block)];
        const auto& father = genomes_[tournament(selection, block)];
        offspring_positions.push_back(child);
        if (child + 1 < block.end) offspring_positions.push_back(child + 1);
        add_children(mother, father, generation, child, child + 1 < block.end, next);
      }
    }
    genomes_ = std::move(next);
    rows_ = std::move(next_rows);
    for (std::size_t index = 0; index < islands_; ++index) {
      const auto block = island(index);
      for (std::size_t e = 0; e < elites; ++e) {
        fitness_[block.begin + e] = evaluation_layout_.get_real(row(block.begin + e), 0);
      }
    }
    return offspring_positions;
  }

  // Every member plans the same migration from the same fitness and moves the same copies.
  void migrate(std::int64_t generation, GaOutcome& outcome) {
    const auto events = plan_migration(settings_, seed_, task_, generation, fitness_);
    const auto layout = ga_migration_layout();
    const auto first = outcome.migrations.size();
    outcome.migrations.resize(first + events.size() * layout.row_size());
    for (std::size_t e = 0; e < events.size(); ++e) {
      auto target =
          std::span(outcome.migrations).subspan(first + e * layout.row_size(), layout.row_size());
      const auto& event = events[e];
      layout.set_int(target, 0, event.generation);
      layout.set_int(target, 1, event.from);
      layout.set_int(target, 2, event.to);
      layout.set_int(target, 3, event.source);
      layout.set_int(target, 4, event.target);
      layout.set_real(target, 5, fitness_[static_cast<std::size_t>(event.source)]);
    }
    apply_migration(events, genomes_);
    apply_migration(events, fitness_);
    apply_migration_rows(events, rows_, evaluation_layout_.row_size());
  }

  void record_generation(std::int64_t generation, GaOutcome& outcome) {
    const auto size = history_layout_.row_size();
    outcome.history.resize(outcome.history.size() + size);
    summarize_generation(generation, fitness_, rows_, evaluation_layout_, history_layout_,
                         std::span(outcome.history).last(size));
    ++outcome.generations_run;
    if (settings_.records_islands()) record_islands(generation, outcome);
    if (objectives_) {
      // NSGA-II sorted this population already; another breeding's is sorted here.
      std::vector<double> values;
      std::vector<std::size_t> fronts;
      if (!nsga2()) {
        values = objectives_->larger_is_better(rows_);
        fronts = nondominated_fronts(values, objectives_->count());
      }
      auto front = generation_front(*objectives_, rows_, nsga2() ? values_ : values,
                                    nsga2() ? fronts_ : fronts, generation, outcome.evaluations);
      outcome.pareto_history.insert(outcome.pareto_history.end(), front.history_row.begin(),
                                    front.history_row.end());
      outcome.fronts.insert(outcome.fronts.end(), front.members.begin(), front.members.end());
    }
  }

  void record_islands(std::int64_t generation, GaOutcome& outcome) const {
    const auto size = ga_island_history_layout().row_size();
    const auto length = kernel_.genome_length();
    const auto distances = island_distances(encoded_population(), length, islands_);
    const auto first = outcome.island_history.size();
    outcome.island_history.resize(first + islands_ * size);
    for (std::size_t index = 0; index < islands_; ++index) {
      const auto block = island(index);
      summarize_island(
          generation, index, std::span<const double>(fitness_).subspan(block.begin, block.size()),
          distances[index], std::span(outcome.island_history).subspan(first + index * size, size));
    }
  }

  void keep_island_best(GaOutcome& outcome) {
    const auto layout = ga_island_best_layout(K::evaluation_fields());
    const auto length = kernel_.genome_length();
    outcome.island_best.assign(islands_ * layout.row_size(), std::byte{});
    outcome.island_best_genomes.assign(islands_ * length, 0);
    for (std::size_t index = 0; index < islands_; ++index) {
      const auto block = island(index);
      const auto order =
          ranking(std::span<const double>(fitness_).subspan(block.begin, block.size()));
      const auto best = block.begin + order.front();
      auto target =
          std::span(outcome.island_best).subspan(index * layout.row_size(), layout.row_size());
      layout.set_int(target, 0, static_cast<std::int64_t>(index));
      auto source = row(best);
      std::copy(source.begin(), source.end(),
                target.begin() + static_cast<std::ptrdiff_t>(layout.offset(1)));
      kernel_.encode(genomes_[best],
                     std::span(outcome.island_best_genomes).subspan(index * length, length));
    }
  }

  void keep_best(GaOutcome& outcome) {
    const auto best_layout = ga_best_layout(K::evaluation_fields());
    const auto kept = static_cast<std::size_t>(settings_.keep_best);
    const auto length = kernel_.genome_length();
    // NSGA-II: front by front, each by fitness, so that the first kept is the front's
    // fittest, not whichever end of it crowding put first.
    auto order = ranking(fitness_);
    if (nsga2()) {
      std::stable_sort(order.begin(), order.end(),
                       [&](std::size_t a, std::size_t b) { return fronts_[a] < fronts_[b]; });
    }
    outcome.best.assign(kept * best_layout.row_size(), std::byte{});
    outcome.best_genomes.assign(kept * length, missing_gene<K>());
    for (std::size_t k = 0; k < kept; ++k) {
      auto best_row =
          std::span(outcome.best).subspan(k * best_layout.row_size(), best_layout.row_size());
      if (k >= order.size()) {
        best_layout.fill_missing(best_row);
        continue;
      }
      // The evaluation row is (fitness, fields...); the best row is (position, fitness, fields...).
      best_layout.set_int(best_row, 0, static_cast<std::int64_t>(k));
      auto source = row(order[k]);
      std::copy(source.begin(), source.end(),
                best_row.begin() + static_cast<std::ptrdiff_t>(best_layout.offset(1)));
      kernel_.encode(genomes_[order[k]],
                     std::span(outcome.best_genomes).subspan(k * length, length));
    }
    if (group_.rank() != 0) return;
    if constexpr (claims<K>(Capability::validate)) validate_best(outcome, order);
    if constexpr (claims<K>(Capability::render_level)) render_best(outcome, order);
  }

  // Each kept genome measured again on its own stream (task, position).
  void validate_best(GaOutcome& outcome, const std::vector<std::size_t>& order) const {
    const RecordLayout layout(K::validation_fields());
    const auto kept = static_cast<std::size_t>(settings_.keep_best);
    outcome.validation.assign(kept * layout.row_size(), std::byte{});
    for (std::size_t k = 0; k < kept; ++k) {
      auto target = std::span(outcome.validation).subspan(k * layout.row_size(), layout.row_size());
      if (k >= order.size()) {
        layout.fill_missing(target);
        continue;
      }
      Rng rng(stream(Stream::validation, 0, k));
      layout.pack(kernel_.validate(genomes_[order[k]], rng), target, K::name);
    }
  }

  void render_best(GaOutcome& outcome, const std::vector<std::size_t>& order) const {
    const auto shape = kernel_.level_shape();
    const auto cells =
        std::accumulate(shape.begin(), shape.end(), std::size_t{1}, std::multiplies<>());
    const auto kept = static_cast<std::size_t>(settings_.keep_best);
    outcome.levels.assign(kept * cells, std::uint8_t{255});
    for (std::size_t k = 0; k < std::min(kept, order.size()); ++k) {
      kernel_.render_level(genomes_[order[k]], std::span(outcome.levels).subspan(k * cells, cells));
    }
  }

  const K& kernel_;
  const GaSettings& settings_;
  std::uint64_t seed_;
  std::uint64_t task_;
  EvaluationGroup& group_;
  RecordLayout evaluation_layout_;
  RecordLayout history_layout_;
  std::size_t population_size_;
  std::size_t islands_;
  std::vector<Genome> genomes_;
  std::vector<double> fitness_;
  std::vector<std::byte> rows_;
  std::optional<CmaBreeding> cma_;          // ga.breeding cma_es
  std::optional<GaObjectives> objectives_;  // a kernel with objectives
  // ga.breeding nsga2: each individual's objectives (larger is better), front and crowding
  // distance in the population.
  std::vector<double> values_;
  std::vector<std::size_t> fronts_;
  std::vector<double> crowding_;
};

}  // namespace levelforge

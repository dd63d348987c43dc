#pragma once
// MAP-Elites, the `qd` driver's algorithm, generic over a MeasuringGaKernel and free of MPI
// (docs/drivers.md, "`qd` driver"). An archive over the kernel's measures (a grid or CVT
// cells, archive_cells.hpp) keeps the fittest genome found for each cell: `init` random genomes,
// then `iterations` batches of `batch` offspring of parents drawn uniformly from the cells occupied
// at the batch's start. Like GaRun, every member of a task's group breeds the same offspring and
// evaluates a share.

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
#include <utility>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "kernels/api/record_layout.hpp"
#include "runner/engine/archive_cells.hpp"
#include "runner/engine/cma_emitters.hpp"
#include "runner/engine/evaluation_group.hpp"
#include "runner/engine/line_variation.hpp"
#include "runner/engine/novelty_archive.hpp"
#include "runner/engine/qd_settings.hpp"
#include "runner/engine/search_state.hpp"

namespace levelforge {

// A task after a whole iteration (iteration 0: the initial genomes).
struct QdSnapshot {
  std::int64_t iterations_run = 0;    // iterations done, iteration 0 included
  std::uint64_t evaluations = 0;      // made so far
  std::vector<std::int64_t> cells;    // the occupied cells, ascending
  std::vector<std::int64_t> genomes;  // their genomes, cells x genome_length
  std::vector<std::byte> elite_rows;  // their qd_evaluation_layout rows
  std::vector<std::byte> history;     // iterations_run rows of qd_history_layout
  std::vector<std::byte> search;      // CMA emitters: CmaEmitters::state() as float64s
};

struct QdOutcome {
  std::size_t iterations_run = 0;
  std::vector<std::byte> history;     // rows of qd_history_layout
  std::vector<std::byte> archive;     // one qd_archive_layout row per cell
  std::vector<std::int64_t> genomes;  // cells x genome_length, -1 for an empty cell
  std::vector<std::byte> validation;  // one row of the kernel's validation_fields per cell
  std::vector<std::uint8_t> levels;   // one level per cell (leader only), 255 when empty
  std::uint64_t evaluations = 0;
  std::uint64_t evaluations_before = 0;
  bool stopped = false;
};

using QdGroup = EvaluationGroupOf<QdSnapshot>;

// One evaluation: fitness, the kernel's fields, then the measures.
RecordLayout qd_evaluation_layout(const std::vector<FieldSpec>& kernel_fields,
                                  const std::vector<MeasureAxis>& axes);
// One cell of the archive: cell, occupied, then the evaluation of its elite.
RecordLayout qd_archive_layout(const std::vector<FieldSpec>& kernel_fields,
                               const std::vector<MeasureAxis>& axes);
// One iteration: its number, evaluations so far, coverage, QD score, best fitness and the
// offspring it inserted.
RecordLayout qd_history_layout();

template <MeasuringGaKernel K>
class QdRun {
 public:
  using Genome = typename K::Genome;

  // `archive`: the cells that archive_cells gives `settings` (a driver computes a CVT's once
  // per point, not per task).
  QdRun(const K& kernel, const QdSettings& settings, ArchiveCells archive, std::uint64_t seed,
        std::uint64_t task, QdGroup& group)
      : kernel_(kernel),
        settings_(settings),
        seed_(seed),
        task_(task),
        group_(group),
        archive_(std::move(archive)),
        cells_(archive_.count()),
        evaluation_layout_(qd_evaluation_layout(K::evaluation_fields(), archive_.axes())),
        elites_(cells_),
        elite_rows_(cells_ * evaluation_layout_.row_size()),
        fitness_(cells_, 0.0) {
    if constexpr (RealGenomeKernel<K>) {
      if (settings.emitter == QdEmitter::cma_me || settings.emitter == QdEmitter::cma_mae)
        emitters_.emplace(kernel_, settings_, cells_);
    }
    if (archive_.kind() == QdArchive::novelty) novelty_.emplace(archive_.axes(), settings_);
  }

  QdRun(const K& kernel, const QdSettings& settings, std::uint64_t seed, std::uint64_t task,
        QdGroup& group)
      : QdRun(kernel, settings, archive_cells(settings, kernel.measures(), seed), seed, task,
              group) {}

  [[nodiscard]] const std::vector<MeasureAxis>& axes() const { return archive_.axes(); }
  [[nodiscard]] const ArchiveCells& archive() const { return archive_; }

  QdOutcome run(const QdSnapshot* resume = nullptr) {
    QdOutcome outcome;
    if (resume != nullptr) {
      restore(*resume, outcome);
    } else {
      std::vector<Genome> initial;
      initial.reserve(static_cast<std::size_t>(settings_.init));
      for (std::int64_t i = 0; i < settings_.init; ++i) {
        Rng rng({seed_, Stream::init, task_, 0, static_cast<std::uint64_t>(i)});
        initial.push_back(kernel_.random_genome(rng));
      }
      step(0, std::move(initial), outcome);
    }
    for (auto iteration = static_cast<std::int64_t>(outcome.iterations_run);
         iteration <= settings_.iterations; ++iteration) {
      const auto check = group_.after_generation(iteration);
      if (check.save) group_.save(snapshot(outcome));
      if (check.stop) {
        outcome.stopped = true;
        return outcome;
      }
      step(iteration, offspring(static_cast<std::uint64_t>(iteration)), outcome);
    }
    finish(outcome);
    return outcome;
  }

 private:
  [[nodiscard]] std::vector<std::int64_t> occupied() const {
    std::vector<std::int64_t> cells;
    for (std::size_t cell = 0; cell < cells_; ++cell)
      if (elites_[cell]) cells.push_back(static_cast<std::int64_t>(cell));
    return cells;
  }

  // The batch of `iteration`: offspring b from a parent drawn on (selection, iteration, b),
  // crossed on (crossover, iteration, b) with a second parent when the rate says so, and
  // mutated on (mutation, iteration, b); with iso_line variation, the child of that parent
  // and a second drawn after it on the same stream, its noise on (mutation, iteration, b).
  std::vector<Genome> offspring(std::uint64_t iteration) {
    const auto parents = occupied();
    if constexpr (RealGenomeKernel<K>) {
      if (emitters_) {
        // The CMA-ES emitters' candidates, then the line emitters' (qd.line_emitters).
        auto batch = emitters_->ask(seed_, task_, iteration, [&](Rng& rng) -> const Genome& {
          return *elites_[static_cast<std::size_t>(parents[rng.below(parents.size())])];
        });
        for (auto b = batch.size(); b < static_cast<std::size_t>(settings_.batch); ++b)
          batch.push_back(line_child(iteration, b, parents));
        return batch;
      }
      if (settings_.emitter == QdEmitter::iso_line) {
        std::vector<Genome> batch;
        for (std::size_t b = 0; b < static_cast<std::size_t>(settings_.batch); ++b)
          batch.push_back(line_child(iteration, b, parents));
        return batch;
      }
    }
    std::vector<Genome> batch;
    batch.reserve(static_cast<std::size_t>(settings_.batch));
    for (std::uint64_t b = 0; b < static_cast<std::uint64_t>(settings_.batch); ++b) {
      Rng selection({seed_, Stream::selection, task_, iteration, b});
      const auto& parent =
          *elites_[static_cast<std::size_t>(parents[selection.below(parents.size())])];
      Genome child = parent;
      if (settings_.crossover_rate > 0) {
        Rng crossover({seed_, Stream::crossover, task_, iteration, b});
        if (crossover.bernoulli(settings_.crossover_rate)) {
          const auto& other =
              *elites_[static_cast<std::size_t>(parents[crossover.below(parents.size())])];
          child = kernel_.crossover(child, other, crossover).first;
        }
      }
      Rng mutation({seed_, Stream::mutation, task_, iteration, b});
      kernel_.mutate(child, settings_.mutation_rate, mutation);
      batch.push_back(std::move(child));
    }
    return batch;
  }

  // Offspring `b` of an Iso+LineDD emitter: the child of an elite drawn on (selection,
  // iteration, b) and a second drawn after it on the same stream, its noise on (mutation,
  // iteration, b).
  Genome line_child(std::uint64_t iteration, std::uint64_t b,
                    const std::vector<std::int64_t>& parents) requires RealGenomeKernel<K> {
    Rng selection({seed_, Stream::selection, task_, iteration, b});
    const auto& parent =
        *elites_[static_cast<std::size_t>(parents[selection.below(parents.size())])];
    const auto& other =
        *elites_[static_cast<std::size_t>(parents[selection.below(parents.size())])];
    Rng mutation({seed_, Stream::mutation, task_, iteration, b});
    return iso_line_child(kernel_, parent, other, settings_.iso_sigma, settings_.line_sigma,
                          mutation);
  }

  // Evaluates `batch` split across the group, then inserts it in offspring order: a genome
  // takes its cell when the cell is empty or its fitness is higher than the elite's (an
  // equal fitness leaves the elite, so the earlier offspring wins a tie).
  void step(std::int64_t iteration, std::vector<Genome> batch, QdOutcome& outcome) {
    const auto rows = evaluate(static_cast<std::uint64_t>(iteration), batch);
    const auto row_size = evaluation_layout_.row_size();
    const auto measures_at = evaluation_layout_.fields().size() - archive_.axes().size();
    std::int64_t inserted = 0;
    std::vector<double> measures(archive_.axes().size());
    std::vector<Insertion> insertions;
    for (std::size_t b = 0; b < batch.size(); ++b) {
      const auto row = std::span(rows).subspan(b * row_size, row_size);
      const double fitness = evaluation_layout_.get_real(row, 0);
      for (std::size_t m = 0; m < archive_.axes().size(); ++m) {
        measures[m] = evaluation_layout_.get_real(row, measures_at + m);
      }
      std::size_t cell = 0;
      if (novelty_) {
        const auto place = novelty_->place(measures, fitness, fitness_);
        if (!place) continue;
        cell = *place;
      } else {
        cell = static_cast<std::size_t>(archive_.cell_of(measures));
      }
      if (emitters_ && iteration > 0) {
        if (!elites_[cell]) {
          insertions.push_back({Insertion::new_cell, fitness});
        } else {
          insertions.push_back(fitness > fitness_[cell]
                                   ? Insertion{Insertion::improved, fitness - fitness_[cell]}
                                   : Insertion{});
        }
        if (settings_.emitter == QdEmitter::cma_mae)
          insertions.back().value = emitters_->pass_threshold(cell, fitness);
      }
      if (elites_[cell] && !(fitness > fitness_[cell])) continue;
      if (novelty_) novelty_->put(cell, measures);
      elites_[cell] = std::move(batch[b]);
      fitness_[cell] = fitness;
      std::copy(row.begin(), row.end(),
                elite_rows_.begin() + static_cast<std::ptrdiff_t>(cell * row_size));
      ++inserted;
    }
    if (emitters_ && iteration > 0) {
      emitters_->tell(std::span<const Insertion>(insertions)
                          .first(static_cast<std::size_t>(settings_.cma_candidates())));
    }
    record(iteration, inserted, outcome);
  }

  std::vector<std::byte> evaluate(std::uint64_t iteration, const std::vector<Genome>& batch) {
    auto all = evaluate_shared(
        group_, batch.size(), evaluation_layout_.row_size(),
        [&](std::size_t i, std::span<std::byte> target) {
          Rng rng({seed_, Stream::evaluation, task_, iteration, i});
          auto evaluation = kernel_.evaluate(batch[i], rng);
          const auto measures = kernel_.measure(batch[i], evaluation);
          if (measures.size() != archive_.axes().size()) {
            throw KernelError(std::to_string(measures.size()) + " measures, expected " +
                              std::to_string(archive_.axes().size()));
          }
          for (std::size_t m = 0; m < archive_.axes().size(); ++m) {
            if (!std::isfinite(measures[m])) {
              throw KernelError("measure '" + archive_.axes()[m].name + "' is " +
                                std::to_string(measures[m]));
            }
          }
          evaluation.record.insert(evaluation.record.begin(), evaluation.fitness);
          evaluation.record.insert(evaluation.record.end(), measures.begin(), measures.end());
          evaluation_layout_.pack(evaluation.record, target, K::name);
        },
        [&](std::size_t i) {
          return "iteration " + std::to_string(iteration) + ", offspring " + std::to_string(i);
        });
    evaluations_ += batch.size();
    group_.generation_done(batch.size());
    return all;
  }

  void record(std::int64_t iteration, std::int64_t inserted, QdOutcome& outcome) {
    const auto layout = qd_history_layout();
    std::size_t filled = 0;
    double score = 0;
    double best = -std::numeric_limits<double>::infinity();
    for (std::size_t cell = 0; cell < cells_; ++cell) {
      if (!elites_[cell]) continue;
      ++filled;
      score += fitness_[cell] - settings_.score_offset;
      best = std::max(best, fitness_[cell]);
    }
    const auto size = layout.row_size();
    outcome.history.resize(outcome.history.size() + size);
    auto row = std::span(outcome.history).last(size);
    layout.set_int(row, 0, iteration);
    layout.set_int(row, 1, static_cast<std::int64_t>(evaluations_));
    layout.set_int(row, 2, static_cast<std::int64_t>(filled));
    layout.set_real(row, 3, static_cast<double>(filled) / static_cast<double>(cells_));
    layout.set_real(row, 4, score);
    layout.set_real(row, 5, filled == 0 ? std::nan("") : best);
    layout.set_int(row, 6, inserted);
    ++outcome.iterations_run;
    outcome.evaluations = evaluations_;
  }

  [[nodiscard]] QdSnapshot snapshot(const QdOutcome& outcome) const {
    const auto length = kernel_.genome_length();
    const auto row_size = evaluation_layout_.row_size();
    QdSnapshot saved{static_cast<std::int64_t>(outcome.iterations_run),
                     evaluations_,
                     occupied(),
                     {},
                     {},
                     outcome.history,
                     {}};
    if (emitters_) saved.search = search_bytes(emitters_->state());
    saved.genomes.resize(saved.cells.size() * length);
    saved.elite_rows.resize(saved.cells.size() * row_size);
    for (std::size_t i = 0; i < saved.cells.size(); ++i) {
      const auto cell = static_cast<std::size_t>(saved.cells[i]);
      kernel_.encode(*elites_[cell], std::span(saved.genomes).subspan(i * length, length));
      std::copy_n(elite_rows_.begin() + static_cast<std::ptrdiff_t>(cell * row_size), row_size,
                  saved.elite_rows.begin() + static_cast<std::ptrdiff_t>(i * row_size));
    }
    return saved;
  }

  void restore(const QdSnapshot& saved, QdOutcome& outcome) {
    const auto length = kernel_.genome_length();
    const auto row_size = evaluation_layout_.row_size();
    const auto count = saved.cells.size();
    const bool cells_fit = std::all_of(saved.cells.begin(), saved.cells.end(), [&](std::int64_t c) {
      return c >= 0 && static_cast<std::size_t>(c) < cells_;
    });
    if (saved.iterations_run < 1 || saved.iterations_run > settings_.iterations || !cells_fit ||
        saved.genomes.size() != count * length || saved.elite_rows.size() != count * row_size ||
        saved.history.size() !=
            static_cast<std::size_t>(saved.iterations_run) * qd_history_layout().row_size()) {
      throw std::invalid_argument("task " + std::to_string(task_) +
                                  ": the saved QD state does not fit this task's settings");
    }
    for (std::size_t i = 0; i < count; ++i) {
      const auto cell = static_cast<std::size_t>(saved.cells[i]);
      elites_[cell] =
          kernel_.decode(std::span<const std::int64_t>(saved.genomes).subspan(i * length, length));
      const auto row = std::span(saved.elite_rows).subspan(i * row_size, row_size);
      std::copy(row.begin(), row.end(),
                elite_rows_.begin() + static_cast<std::ptrdiff_t>(cell * row_size));
      fitness_[cell] = evaluation_layout_.get_real(row, 0);
      if (novelty_) {
        // A novelty archive's entries are its first cells, in order.
        if (cell != i) {
          throw std::invalid_argument("task " + std::to_string(task_) +
                                      ": the saved novelty archive has a gap at entry " +
                                      std::to_string(i));
        }
        const auto measures_at = evaluation_layout_.fields().size() - archive_.axes().size();
        std::vector<double> measures(archive_.axes().size());
        for (std::size_t m = 0; m < measures.size(); ++m)
          measures[m] = evaluation_layout_.get_real(row, measures_at + m);
        novelty_->put(cell, measures);
      }
    }
    if (emitters_) emitters_->restore(search_numbers(saved.search, task_));
    outcome.history = saved.history;
    outcome.iterations_run = static_cast<std::size_t>(saved.iterations_run);
    evaluations_ = saved.evaluations;
    outcome.evaluations = saved.evaluations;
    outcome.evaluations_before = saved.evaluations;
  }

  // The archive as rows, then validation split across the group and the leader's levels.
  void finish(QdOutcome& outcome) {
    const auto layout = qd_archive_layout(K::evaluation_fields(), archive_.axes());
    const auto length = kernel_.genome_length();
    const auto row_size = evaluation_layout_.row_size();
    outcome.archive.assign(cells_ * layout.row_size(), std::byte{});
    outcome.genomes.assign(cells_ * length, missing_gene<K>());
    for (std::size_t cell = 0; cell < cells_; ++cell) {
      auto row = std::span(outcome.archive).subspan(cell * layout.row_size(), layout.row_size());
      if (!elites_[cell]) {
        layout.fill_missing(row);
      } else {
        std::copy_n(elite_rows_.begin() + static_cast<std::ptrdiff_t>(cell * row_size), row_size,
                    row.begin() + static_cast<std::ptrdiff_t>(layout.offset(2)));
        kernel_.encode(*elites_[cell], std::span(outcome.genomes).subspan(cell * length, length));
      }
      layout.set_int(row, 0, static_cast<std::int64_t>(cell));
      layout.set_int(row, 1, elites_[cell] ? 1 : 0);
    }
    if constexpr (claims<K>(Capability::validate)) validate(outcome);
    if constexpr (claims<K>(Capability::render_level)) {
      if (group_.rank() == 0) render(outcome);
    }
  }

  // Each elite measured again on its own stream (validation, task, 0, cell), independent of
  // the evaluations that put it there: the archive's winner's curse shows as the gap.
  void validate(QdOutcome& outcome) {
    const RecordLayout layout(K::validation_fields());
    const auto size = layout.row_size();
    const auto cells = occupied();
    const auto all = evaluate_shared(
        group_, cells.size(), size,
        [&](std::size_t i, std::span<std::byte> target) {
          const auto cell = static_cast<std::size_t>(cells[i]);
          Rng rng({seed_, Stream::validation, task_, 0, cell});
          layout.pack(kernel_.validate(*elites_[cell], rng), target, K::name);
        },
        [&](std::size_t i) { return "validation of cell " + std::to_string(cells[i]); });
    outcome.validation.assign(cells_ * size, std::byte{});
    for (std::size_t cell = 0; cell < cells_; ++cell) {
      layout.fill_missing(std::span(outcome.validation).subspan(cell * size, size));
    }
    for (std::size_t i = 0; i < cells.size(); ++i) {
      std::copy_n(all.begin() + static_cast<std::ptrdiff_t>(i * size), size,
                  outcome.validation.begin() +
                      static_cast<std::ptrdiff_t>(static_cast<std::size_t>(cells[i]) * size));
    }
  }

  void render(QdOutcome& outcome) const {
    const auto shape = kernel_.level_shape();
    const auto level_cells =
        std::accumulate(shape.begin(), shape.end(), std::size_t{1}, std::multiplies<>());
    outcome.levels.assign(cells_ * level_cells, std::uint8_t{255});
    for (std::size_t cell = 0; cell < cells_; ++cell) {
      if (elites_[cell]) {
        kernel_.render_level(*elites_[cell],
                             std::span(outcome.levels).subspan(cell * level_cells, level_cells));
      }
    }
  }

  const K& kernel_;
  const QdSettings& settings_;
  std::uint64_t seed_;
  std::uint64_t task_;
  QdGroup& group_;
  ArchiveCells archive_;
  std::size_t cells_;
  RecordLayout evaluation_layout_;
  std::vector<std::optional<Genome>> elites_;
  std::vector<std::byte> elite_rows_;  // qd_evaluation_layout rows, one per cell
  std::vector<double> fitness_;
  std::optional<CmaEmitters> emitters_;    // qd.emitter cma_me or cma_mae
  std::optional<NoveltyArchive> novelty_;  // qd.archive novelty: where a genome goes
  std::uint64_t evaluations_ = 0;
};

}  // namespace levelforge

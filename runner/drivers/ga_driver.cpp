// The `ga` driver. Ranks form groups; each group pulls whole GA tasks from the work queue
// and splits every generation's evaluations among its members (see docs/drivers.md for
// the policy). Every member runs the same GaRun and so holds the same population.

#include <algorithm>
#include <chrono>
#include <functional>
#include <numeric>

#include "runner/drivers/driver_context.hpp"

namespace levelforge {

namespace {

class MpiEvaluationGroup final : public EvaluationGroup {
 public:
  MpiEvaluationGroup(mpi::Comm comm, WorkQueue& queue, IdleClock& idle)
      : comm_(std::move(comm)), queue_(queue), idle_(idle) {}

  [[nodiscard]] std::size_t rank() const override { return static_cast<std::size_t>(comm_.rank()); }
  [[nodiscard]] std::size_t size() const override { return static_cast<std::size_t>(comm_.size()); }

  void all_gather(std::span<const std::byte> local, std::span<std::byte> all) override {
    const auto timer = idle_.measure();
    comm_.all_gather_into(local, all);
  }

  void generation_done(std::uint64_t evaluations) override {
    const auto [begin, end] = share_of(evaluations, rank(), size());
    local_evaluations_ += end - begin;
    if (comm_.rank() == 0) queue_.finished(0, evaluations);
  }

  // Evaluations this member made itself, over all tasks so far.
  [[nodiscard]] std::uint64_t local_evaluations() const { return local_evaluations_; }

  [[nodiscard]] const mpi::Comm& comm() const { return comm_; }

 private:
  mpi::Comm comm_;
  WorkQueue& queue_;
  IdleClock& idle_;
  std::uint64_t local_evaluations_ = 0;
};

// Groups that evaluate tasks side by side: one per task while ranks suffice (auto), or
// as many groups of the configured size as the ranks allow.
int group_count(std::int64_t ranks_per_task, int ranks, std::uint64_t tasks) {
  if (ranks_per_task > 0) return std::max(1, static_cast<int>(ranks / ranks_per_task));
  return static_cast<int>(std::clamp<std::uint64_t>(tasks, 1, static_cast<std::uint64_t>(ranks)));
}

// What a group leader keeps of each task until the collective write.
struct GaResults {
  std::vector<std::uint64_t> tasks;
  std::vector<std::byte> history;
  std::vector<std::byte> best;
  std::vector<std::int64_t> genomes;
  std::vector<std::byte> validation;
  std::vector<std::uint8_t> levels;
};

// Appends `level` (of `shape`) as a block of `padded` shape, 255 outside the level.
void append_level(std::vector<std::uint8_t>& out, std::span<const std::uint8_t> level,
                  const std::vector<std::size_t>& shape, const std::vector<std::size_t>& padded) {
  const auto start = out.size();
  const auto padded_cells =
      std::accumulate(padded.begin(), padded.end(), std::size_t{1}, std::multiplies<>());
  out.resize(start + padded_cells, std::uint8_t{255});
  for (std::size_t cell = 0; cell < level.size(); ++cell) {
    // Row-major index in `shape` to row-major index in `padded`.
    std::size_t remainder = cell;
    std::size_t target = 0;
    std::size_t stride = 1;
    for (std::size_t d = shape.size(); d-- > 0;) {
      target += (remainder % shape[d]) * stride;
      remainder /= shape[d];
      stride *= padded[d];
    }
    out[start + target] = level[cell];
  }
}

void append_padded(std::vector<std::byte>& out, std::span<const std::byte> rows,
                   const RecordLayout& layout, std::size_t row_count) {
  const auto size = layout.row_size();
  const auto start = out.size();
  out.resize(start + row_count * size);
  std::copy(rows.begin(), rows.end(), out.begin() + static_cast<std::ptrdiff_t>(start));
  for (auto offset = start + rows.size(); offset < out.size(); offset += size) {
    layout.fill_missing(std::span(out).subspan(offset, size));
  }
}

}  // namespace

void run_ga_driver(DriverContext& context) {
  const auto& experiment = context.experiment;
  const auto& ga = *context.kernel.ga;
  const auto task_count = experiment.task_count();

  std::vector<std::unique_ptr<GaModel>> models;
  std::vector<GaSettings> settings;
  std::size_t max_generations = 0;
  std::size_t max_kept = 0;
  std::size_t max_length = 0;
  std::vector<std::size_t> level_shape;  // the largest level of every point, per dimension
  std::uint64_t units_total = 0;
  for (const auto& point : experiment.points) {
    models.push_back(ga.make(point.params));
    settings.push_back(GaSettings::from(point.driver));
    max_generations =
        std::max(max_generations, static_cast<std::size_t>(settings.back().generations));
    max_kept = std::max(max_kept, static_cast<std::size_t>(settings.back().keep_best));
    max_length = std::max(max_length, models.back()->genome_length());
    const auto shape = models.back()->level_shape();
    level_shape.resize(std::max(level_shape.size(), shape.size()), 0);
    for (std::size_t d = 0; d < shape.size(); ++d)
      level_shape[d] = std::max(level_shape[d], shape[d]);
    // Elites keep their fitness, so later generations evaluate only the offspring.
    const auto& last = settings.back();
    const auto evaluations = static_cast<std::uint64_t>(last.population) +
                             static_cast<std::uint64_t>(last.generations - 1) *
                                 last.evaluations_per_generation();
    units_total += evaluations * static_cast<std::uint64_t>(experiment.replicates);
  }
  const int groups = group_count(settings.front().ranks_per_task, context.comm.size(), task_count);
  // Contiguous blocks of ranks (neighbours on a node), sizes differing by at most one.
  const int color = static_cast<int>(static_cast<std::int64_t>(context.comm.rank()) * groups /
                                     context.comm.size());
  WorkQueue queue(context.comm, task_count, context.idle);
  MpiEvaluationGroup group(context.comm.split(color, context.comm.rank()), queue, context.idle);
  const bool leader = group.rank() == 0;

  const auto history_layout = ga_history_layout(ga.evaluation_fields);
  const auto best_layout = ga_best_layout(ga.evaluation_fields);
  GaResults results;
  for (;;) {
    std::uint64_t task = 0;
    if (leader) task = queue.next();
    {
      const auto timer = context.idle.measure();
      group.comm().broadcast_value(task, 0);
    }
    if (task >= task_count) break;
    const auto point = task / static_cast<std::uint64_t>(experiment.replicates);
    const auto started = std::chrono::steady_clock::now();
    auto outcome = models[point]->run_task(settings[point], experiment.seed, task, group);
    if (leader) {
      const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
      results.tasks.push_back(task);
      append_padded(results.history, outcome.history, history_layout, max_generations);
      append_padded(results.best, outcome.best, best_layout, max_kept);
      const auto length = models[point]->genome_length();
      for (std::size_t k = 0; k < max_kept; ++k) {
        for (std::size_t i = 0; i < max_length; ++i) {
          const bool stored = k < static_cast<std::size_t>(settings[point].keep_best) && i < length;
          results.genomes.push_back(stored ? outcome.best_genomes[k * length + i] : -1);
        }
      }
      if (!ga.validation_fields.empty()) {
        append_padded(results.validation, outcome.validation, RecordLayout(ga.validation_fields),
                      max_kept);
      }
      if (!level_shape.empty()) {
        const auto shape = models[point]->level_shape();
        const auto cells =
            outcome.levels.size() / static_cast<std::size_t>(settings[point].keep_best);
        for (std::size_t k = 0; k < max_kept; ++k) {
          const auto level =
              k < static_cast<std::size_t>(settings[point].keep_best)
                  ? std::span<const std::uint8_t>(outcome.levels).subspan(k * cells, cells)
                  : std::span<const std::uint8_t>();
          append_level(results.levels, level, shape, level_shape);
        }
      }
      context.tasks.add(experiment, task, wall.count(), context.comm.rank());
      queue.finished(1, 0);
    }
    context.poll_progress(queue, units_total);
  }
  {
    const auto timer = context.idle.measure();
    context.comm.barrier();
  }
  context.work_units = group.local_evaluations();
  context.finish_progress(queue);
  if (context.file == nullptr) return;

  auto& file = *context.file;
  auto history = file.create_table("ga/history", history_layout, {task_count, max_generations});
  file.write(history, results.tasks, results.history);
  auto best = file.create_table("ga/best", best_layout, {task_count, max_kept});
  file.write(best, results.tasks, results.best);
  auto genomes = file.create_array("ga/best_genomes", h5::Datatype::int64(),
                                   {task_count, max_kept, max_length});
  file.write_rows(genomes, h5::Datatype::int64(), results.tasks,
                  std::as_bytes(std::span(results.genomes)));
  if (!ga.validation_fields.empty()) {
    auto validation = file.create_table("ga/validation", RecordLayout(ga.validation_fields),
                                        {task_count, max_kept});
    file.write(validation, results.tasks, results.validation);
  }
  if (!level_shape.empty()) {
    std::vector<hsize_t> dims{task_count, max_kept};
    dims.insert(dims.end(), level_shape.begin(), level_shape.end());
    auto levels = file.create_array("ga/best_levels", h5::Datatype::uint8(), dims);
    file.write_rows(levels, h5::Datatype::uint8(), results.tasks,
                    std::as_bytes(std::span(results.levels)));
    levels.write_attribute(
        "doc",
        std::string(
            "the level of each kept genome before play; 255: empty or outside a smaller level"));
  }
  std::vector<std::int64_t> lengths;
  lengths.reserve(models.size());
  for (const auto& model : models)
    lengths.push_back(static_cast<std::int64_t>(model->genome_length()));
  auto length_set = file.create_array("ga/genome_length", h5::Datatype::int64(), {lengths.size()});
  length_set.write_all(h5::Datatype::int64(), lengths.data());
  length_set.write_attribute(
      "doc",
      std::string("genome length of each point; longer rows of best_genomes are padded with -1"));
  std::vector<std::int64_t> group_sizes(static_cast<std::size_t>(groups), 0);
  for (std::int64_t rank = 0; rank < context.comm.size(); ++rank) {
    ++group_sizes[static_cast<std::size_t>(rank * groups / context.comm.size())];
  }
  file.root().open_group("ga").write_attribute("group_sizes", group_sizes);
}

}  // namespace levelforge

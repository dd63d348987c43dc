// The `ga` driver. Ranks form groups; each group pulls whole GA tasks from the work queue
// and splits every generation's evaluations among its members (see docs/drivers.md for
// the policy). Every member runs the same GaRun and so holds the same population.

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <optional>

#include "runner/checkpoint/stop_signal.hpp"
#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/task_datasets.hpp"

namespace levelforge {

namespace {

class MpiEvaluationGroup final : public EvaluationGroup {
 public:
  using Saver = std::function<void(const GaSnapshot*)>;

  // `progress` is called after every generation (rank 0 reports when a report is due).
  MpiEvaluationGroup(mpi::Comm comm, WorkQueue& queue, IdleClock& idle, CheckpointPace pace,
                     Saver saver, std::function<void()> progress)
      : comm_(std::move(comm)),
        queue_(queue),
        idle_(idle),
        pace_(pace),
        saver_(std::move(saver)),
        progress_(std::move(progress)) {}

  [[nodiscard]] std::size_t rank() const override { return static_cast<std::size_t>(comm_.rank()); }
  [[nodiscard]] std::size_t size() const override { return static_cast<std::size_t>(comm_.size()); }

  void all_gather(std::span<const std::byte> local, std::span<std::byte> all) override {
    const auto timer = idle_.measure();
    comm_.all_gather_into(local, all);
  }

  std::string first_failure(const std::string& local) override {
    if (comm_.size() == 1) return local;
    const auto timer = idle_.measure();
    if (comm_.all_reduce_max(static_cast<std::int64_t>(!local.empty())) == 0) return {};
    const auto messages = comm_.all_gather_strings(local);
    return *std::find_if(messages.begin(), messages.end(),
                         [](const std::string& message) { return !message.empty(); });
  }

  void generation_done(std::uint64_t evaluations) override {
    const auto [begin, end] = share_of(evaluations, rank(), size());
    local_evaluations_ += end - begin;
    ++generations_unsaved_;
    if (comm_.rank() == 0) queue_.finished(0, evaluations);
    progress_();
  }

  // A signal on any member stops the task for all of them.
  GenerationCheck after_generation(std::int64_t /*generations_run*/) override {
    auto stop = static_cast<std::int64_t>(StopSignal::requested());
    if (comm_.size() > 1) {
      const auto timer = idle_.measure();
      stop = comm_.all_reduce_max(stop);
    }
    return {stop != 0 || save_due(), stop != 0};
  }

  void save(const GaSnapshot& snapshot) override { save_now(&snapshot); }

  // Between tasks: finished tasks go into a segment once the interval is full.
  void save_if_due() {
    if (save_due()) save_now(nullptr);
  }

  // Evaluations this member made itself, over all tasks so far.
  [[nodiscard]] std::uint64_t local_evaluations() const { return local_evaluations_; }

  [[nodiscard]] const mpi::Comm& comm() const { return comm_; }

 private:
  // Only the leader writes, so members may decide differently by the clock: harmless.
  [[nodiscard]] bool save_due() const { return pace_.due(generations_unsaved_); }

  void save_now(const GaSnapshot* snapshot) {
    if (comm_.rank() == 0) saver_(snapshot);
    generations_unsaved_ = 0;
    pace_.saved();
  }

  mpi::Comm comm_;
  WorkQueue& queue_;
  IdleClock& idle_;
  CheckpointPace pace_;
  Saver saver_;
  std::function<void()> progress_;
  std::uint64_t local_evaluations_ = 0;
  std::uint64_t generations_unsaved_ = 0;
};

// Groups that evaluate tasks side by side: one per task while ranks suffice (auto), or
// as many groups of the configured size as the ranks allow.
int group_count(std::int64_t ranks_per_task, int ranks, std::uint64_t tasks) {
  if (ranks_per_task > 0) return std::max(1, static_cast<int>(ranks / ranks_per_task));
  return static_cast<int>(std::clamp<std::uint64_t>(tasks, 1, static_cast<std::uint64_t>(ranks)));
}

// The largest of every point in each dimension of the task-indexed datasets, whose blocks
// are all of one size.
struct GaShape {
  std::size_t generations = 0;
  std::size_t kept = 0;
  std::size_t genome_length = 0;
  std::vector<std::size_t> level;  // empty: the kernel renders no levels
  std::size_t islands = 1;         // 1: no point has islands, no island datasets
  std::size_t migrations = 0;      // migration events of a whole task
};

GaShape ga_shape(const config::Experiment& experiment, const PointModels& models) {
  GaShape shape;
  for (std::size_t p = 0; p < experiment.points.size(); ++p) {
    const auto settings = GaSettings::from(experiment.points[p].driver);
    const auto& model = *models.ga()[p];
    shape.generations = std::max(shape.generations, static_cast<std::size_t>(settings.generations));
    shape.kept = std::max(shape.kept, static_cast<std::size_t>(settings.keep_best));
    shape.genome_length = std::max(shape.genome_length, model.genome_length());
    shape.islands = std::max(shape.islands, static_cast<std::size_t>(settings.islands));
    shape.migrations = std::max(shape.migrations, settings.migration_events());
    const auto level = model.level_shape();
    shape.level.resize(std::max(shape.level.size(), level.size()), 0);
    for (std::size_t d = 0; d < level.size(); ++d)
      shape.level[d] = std::max(shape.level[d], level[d]);
  }
  return shape;
}

// The ga driver's per-task datasets, in the order fill_blocks fills them.
std::vector<TaskDataset> ga_datasets(const GaCapability& ga, const GaShape& shape) {
  std::vector<TaskDataset> datasets{
      task_table("ga/history", ga_history_layout(ga.evaluation_fields), {shape.generations}),
      task_table("ga/best", ga_best_layout(ga.evaluation_fields), {shape.kept}),
      task_int64_array("ga/best_genomes", {shape.kept, shape.genome_length})};
  if (!ga.validation_fields.empty()) {
    datasets.push_back(
        task_table("ga/validation", RecordLayout(ga.validation_fields), {shape.kept}));
  }
  if (!shape.level.empty()) {
    std::vector<hsize_t> block{shape.kept};
    block.insert(block.end(), shape.level.begin(), shape.level.end());
    datasets.push_back(task_uint8_array(
        "ga/best_levels", std::move(block),
        "the level of each kept genome before play; 255: empty or outside a smaller level"));
  }
  if (shape.islands > 1) {
    datasets.push_back(task_table("ga/island_history", ga_island_history_layout(),
                                  {shape.generations, shape.islands},
                                  "each island's statistics per generation, before migration"));
    datasets.push_back(task_table("ga/island_best", ga_island_best_layout(ga.evaluation_fields),
                                  {shape.islands},
                                  "the best individual of each island at the end"));
    datasets.push_back(task_int64_array("ga/island_best_genomes",
                                        {shape.islands, shape.genome_length},
                                        "the genome of each island's best, padded with -1"));
    datasets.push_back(task_table("ga/migrations", ga_migration_layout(), {shape.migrations},
                                  "one row per migrant, in the order they moved"));
  }
  return datasets;
}

namespace snapshot_key {
constexpr const char* evaluations = "snapshot.evaluations";
constexpr const char* genomes = "snapshot.genomes";
constexpr const char* rows = "snapshot.rows";
constexpr const char* history = "snapshot.history";
constexpr const char* island_history = "snapshot.island_history";
constexpr const char* migrations = "snapshot.migrations";
}  // namespace snapshot_key

Segment snapshot_segment(std::uint64_t task, const GaSnapshot& snapshot) {
  Segment segment;
  segment.put_ints(segment_key::snapshot_tasks, {static_cast<std::int64_t>(task)});
  segment.put_ints(segment_key::snapshot_generations, {snapshot.generations_run});
  segment.put_ints(snapshot_key::evaluations, {static_cast<std::int64_t>(snapshot.evaluations)});
  segment.put_ints(snapshot_key::genomes, snapshot.genomes);
  segment.put_bytes(snapshot_key::rows, snapshot.evaluations_rows);
  segment.put_bytes(snapshot_key::history, snapshot.history);
  segment.put_bytes(snapshot_key::island_history, snapshot.island_history);
  segment.put_bytes(snapshot_key::migrations, snapshot.migrations);
  return segment;
}

GaSnapshot snapshot_from(const Segment& segment) {
  const auto generations = segment.ints(segment_key::snapshot_generations);
  const auto evaluations = segment.ints(snapshot_key::evaluations);
  if (generations.size() != 1 || evaluations.size() != 1) {
    throw CheckpointError("a saved GA task state is incomplete");
  }
  const auto genomes = segment.ints(snapshot_key::genomes);
  const auto rows = segment.bytes(snapshot_key::rows);
  const auto history = segment.bytes(snapshot_key::history);
  const auto island_history = segment.bytes(snapshot_key::island_history);
  const auto migrations = segment.bytes(snapshot_key::migrations);
  return {generations.front(),
          static_cast<std::uint64_t>(evaluations.front()),
          {genomes.begin(), genomes.end()},
          {rows.begin(), rows.end()},
          {history.begin(), history.end()},
          {island_history.begin(), island_history.end()},
          {migrations.begin(), migrations.end()}};
}

// The newest saved state of each unfinished task, from every rank's restored segments: any
// group may pick the task up.
std::map<std::uint64_t, Segment> gather_snapshots(const std::vector<Segment>& restored,
                                                  const std::vector<std::uint64_t>& finished,
                                                  const mpi::Comm& comm) {
  std::vector<std::byte> local;
  for (const auto& segment : restored) {
    const auto tasks = segment.ints(segment_key::snapshot_tasks);
    if (tasks.size() != 1) continue;
    const auto task = static_cast<std::uint64_t>(tasks.front());
    if (std::binary_search(finished.begin(), finished.end(), task)) continue;
    const auto bytes = segment.serialize();
    const std::uint64_t size = bytes.size();
    const auto* header = reinterpret_cast<const std::byte*>(&size);
    local.insert(local.end(), header, header + sizeof size);
    local.insert(local.end(), bytes.begin(), bytes.end());
  }
  const auto all = comm.all_gather_bytes(local);
  std::map<std::uint64_t, Segment> newest;
  for (std::size_t offset = 0; offset < all.size();) {
    std::uint64_t size = 0;
    std::memcpy(&size, all.data() + offset, sizeof size);
    offset += sizeof size;
    auto segment = Segment::deserialize(std::span(all).subspan(offset, size));
    offset += size;
    const auto task = static_cast<std::uint64_t>(segment.ints(segment_key::snapshot_tasks).front());
    const auto found = newest.find(task);
    if (found == newest.end() || found->second.ints(segment_key::snapshot_generations).front() <
                                     segment.ints(segment_key::snapshot_generations).front()) {
      newest.insert_or_assign(task, std::move(segment));
    }
  }
  return newest;
}

// Row-major index of `cell` of a level of `shape` within a block of `padded` shape.
std::size_t padded_index(std::size_t cell, const std::vector<std::size_t>& shape,
                         const std::vector<std::size_t>& padded) {
  std::size_t target = 0;
  std::size_t stride = 1;
  for (std::size_t d = shape.size(); d-- > 0;) {
    target += (cell % shape[d]) * stride;
    cell /= shape[d];
    stride *= padded[d];
  }
  return target;
}

// The island datasets of a finished task: a point of fewer islands leaves the rest missing.
void fill_island_blocks(std::span<const std::span<std::byte>> blocks, const GaOutcome& outcome,
                        const GaShape& shape, std::size_t length) {
  const auto history_row = ga_island_history_layout().row_size();
  const auto islands = outcome.island_best_genomes.size() / length;
  for (std::size_t g = 0; g < outcome.island_history.size() / (islands * history_row); ++g) {
    std::copy_n(
        outcome.island_history.begin() + static_cast<std::ptrdiff_t>(g * islands * history_row),
        islands * history_row,
        blocks[0].begin() + static_cast<std::ptrdiff_t>(g * shape.islands * history_row));
  }
  std::copy(outcome.island_best.begin(), outcome.island_best.end(), blocks[1].begin());
  for (std::size_t i = 0; i < islands; ++i) {
    const auto genome =
        std::as_bytes(std::span(outcome.island_best_genomes).subspan(i * length, length));
    std::copy(genome.begin(), genome.end(),
              blocks[2].begin() +
                  static_cast<std::ptrdiff_t>(i * shape.genome_length * sizeof(std::int64_t)));
  }
  std::copy(outcome.migrations.begin(), outcome.migrations.end(), blocks[3].begin());
}

// A finished task's blocks of the datasets of ga_datasets, which start out missing.
void fill_blocks(const std::vector<std::span<std::byte>>& blocks, const GaOutcome& outcome,
                 const GaCapability& ga, const GaShape& shape, const GaModel& model,
                 std::size_t kept) {
  auto block = blocks.begin();
  const auto copy_into = [](std::span<const std::byte> from, std::span<std::byte> to) {
    std::copy(from.begin(), from.end(), to.begin());
  };
  copy_into(outcome.history, *block++);
  copy_into(outcome.best, *block++);
  const auto length = model.genome_length();
  const auto genomes = *block++;
  for (std::size_t k = 0; k < kept; ++k) {
    copy_into(std::as_bytes(std::span(outcome.best_genomes).subspan(k * length, length)),
              genomes.subspan(k * shape.genome_length * sizeof(std::int64_t)));
  }
  if (!ga.validation_fields.empty()) copy_into(outcome.validation, *block++);
  if (!shape.level.empty()) {
    const auto level = model.level_shape();
    const auto cells = outcome.levels.size() / kept;
    const auto padded_cells = std::accumulate(shape.level.begin(), shape.level.end(),
                                              std::size_t{1}, std::multiplies<>());
    const auto levels = *block++;
    for (std::size_t k = 0; k < kept; ++k) {
      for (std::size_t cell = 0; cell < cells; ++cell) {
        levels[k * padded_cells + padded_index(cell, level, shape.level)] =
            static_cast<std::byte>(outcome.levels[k * cells + cell]);
      }
    }
  }
  if (shape.islands > 1) fill_island_blocks(std::span(block, blocks.end()), outcome, shape, length);
}

}  // namespace

void run_ga_driver(DriverContext& context) {
  const auto& experiment = context.experiment;
  const auto& ga = *context.kernel.ga;
  const auto task_count = experiment.task_count();

  const auto& models = context.models.ga();
  std::vector<GaSettings> settings;
  std::vector<std::uint64_t> point_units;  // evaluations of one uninterrupted task
  for (const auto& point : experiment.points) {
    const auto& last = settings.emplace_back(GaSettings::from(point.driver));
    // Elites keep their fitness, so later generations evaluate only the offspring.
    point_units.push_back(static_cast<std::uint64_t>(last.population) +
                          static_cast<std::uint64_t>(last.generations - 1) *
                              last.evaluations_per_generation());
  }
  const auto shape = ga_shape(experiment, context.models);
  for (auto& point_settings : settings) point_settings.record_islands = shape.islands > 1;
  TaskBlocks results(ga_datasets(ga, shape));

  // Earlier sessions' work: finished tasks stay with the rank that read them; the newest
  // state of each unfinished one goes to every rank.
  const auto [restored_ids, finished_units] = context.restore_tasks(results);
  auto restored_units = static_cast<std::int64_t>(finished_units);
  const auto done = context.restore_done(restored_ids);
  // A retried task starts over: its saved state came before what made it fail.
  auto skipped = done;
  const auto& retried = context.failures.retried();
  skipped.insert(skipped.end(), retried.begin(), retried.end());
  std::sort(skipped.begin(), skipped.end());
  const auto snapshots = gather_snapshots(context.restored, skipped, context.comm);
  context.restored.clear();
  for (const auto& [task, segment] : snapshots) {
    if (context.comm.rank() == 0) restored_units += segment.ints(snapshot_key::evaluations).front();
  }
  std::vector<std::int64_t> prior_units{restored_units};
  context.comm.all_reduce_sum(prior_units);
  const auto todo = context.remaining(task_count, done, "task");
  std::uint64_t units_total = 0;
  for (std::uint64_t task = 0; task < task_count; ++task) {
    if (context.shard.owns(task))
      units_total += point_units[task / static_cast<std::uint64_t>(experiment.replicates)];
  }

  const int groups = group_count(settings.front().ranks_per_task, context.comm.size(), todo.size());
  // Contiguous blocks of ranks (neighbours on a node), sizes differing by at most one.
  const int color = static_cast<int>(static_cast<std::int64_t>(context.comm.rank()) * groups /
                                     context.comm.size());
  WorkQueue queue(context.comm, todo.size(), context.idle,
                  {done.size(), static_cast<std::uint64_t>(prior_units.front())});
  std::size_t saved = results.size();
  std::uint64_t current_task = 0;
  // The group leader's segment: tasks finished since the last one, and the task in progress.
  auto save_segment = [&](const GaSnapshot* snapshot) {
    if (snapshot == nullptr && saved == results.size() && context.failures.unsaved() == 0) return;
    Segment segment = snapshot != nullptr ? snapshot_segment(current_task, *snapshot) : Segment();
    context.tasks.save_since(saved, segment);
    results.save_since(saved, segment);
    saved = results.size();
    context.save(std::move(segment));
  };
  MpiEvaluationGroup group(context.comm.split(color, context.comm.rank()), queue, context.idle,
                           context.checkpoint_pace(), save_segment,
                           [&] { context.poll_progress(queue, units_total); });
  const bool leader = group.rank() == 0;

  bool stopped = false;
  for (;;) {
    std::uint64_t position = 0;
    if (leader) {
      if (StopSignal::requested()) queue.stop();
      position = queue.next();
    }
    {
      const auto timer = context.idle.measure();
      group.comm().broadcast_value(position, 0);
    }
    if (position >= todo.size()) break;
    const auto task = todo[position];
    current_task = task;
    const auto point = task / static_cast<std::uint64_t>(experiment.replicates);
    const auto started = std::chrono::steady_clock::now();
    const auto saved_state = snapshots.find(task);
    std::optional<GaSnapshot> resume;
    if (saved_state != snapshots.end()) resume = snapshot_from(saved_state->second);
    GaOutcome outcome;
    // Every member fails alike (the group agrees on evaluations), except in the leader's own
    // validation and rendering at the end, which the other members do not wait for.
    const auto failure = context.attempt(task, [&] {
      outcome = models[point]->run_task(settings[point], experiment.seed, task, group,
                                        resume ? &*resume : nullptr);
    });
    if (failure) {
      if (leader) {
        const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
        context.failures.add(
            {task, task, -1, -1, context.comm.rank(), context.session, wall.count(), *failure});
        queue.finished(1, 0);
      }
      group.save_if_due();
      context.poll_progress(queue, units_total);
      continue;
    }
    if (outcome.stopped) {
      if (leader) queue.stop();
      stopped = true;
      break;
    }
    if (leader) {
      const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
      fill_blocks(results.add(task), outcome, ga, shape, *models[point],
                  static_cast<std::size_t>(settings[point].keep_best));
      context.tasks.add(experiment, {task, wall.count(), context.comm.rank(), outcome.evaluations,
                                     outcome.evaluations_before, context.session});
      queue.finished(1, 0);
    }
    group.save_if_due();
    context.poll_progress(queue, units_total);
  }
  if (context.end_work(queue, stopped || queue.stopped())) {
    if (leader) save_segment(nullptr);
    return;
  }
  context.work_units = group.local_evaluations();
  context.log_failed_tasks(0);
  if (context.file == nullptr) return;

  // A failed task's rows are missing, as those of a point that keeps fewer.
  for (const auto& failure : context.failures.local()) (void)results.add(failure.task);
  auto& file = *context.file;
  results.write(file, task_count);
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

Segment ga_shard_segment(const ShardReading& shard) {
  return read_task_shard(
      shard, TaskBlocks(ga_datasets(*shard.kernel.ga, ga_shape(shard.experiment, shard.models))));
}

void check_ga_point(const config::Experiment& experiment, const PointModels& /*models*/,
                    std::size_t point) {
  const auto& settings = experiment.points[point].driver;
  if (settings.integer("ranks_per_task") != experiment.points[0].driver.integer("ranks_per_task")) {
    throw config::ConfigError(
        "ga.ranks_per_task cannot be swept: one value holds for the whole run");
  }
  (void)GaSettings::from(settings);
}

}  // namespace levelforge

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
#include "runner/output/compound.hpp"

namespace levelforge {

namespace {

class MpiEvaluationGroup final : public EvaluationGroup {
 public:
  using Saver = std::function<void(const GaSnapshot*)>;

  MpiEvaluationGroup(mpi::Comm comm, WorkQueue& queue, IdleClock& idle, CheckpointPace pace,
                     Saver saver)
      : comm_(std::move(comm)), queue_(queue), idle_(idle), pace_(pace), saver_(std::move(saver)) {}

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
  std::uint64_t local_evaluations_ = 0;
  std::uint64_t generations_unsaved_ = 0;
};

// Groups that evaluate tasks side by side: one per task while ranks suffice (auto), or
// as many groups of the configured size as the ranks allow.
int group_count(std::int64_t ranks_per_task, int ranks, std::uint64_t tasks) {
  if (ranks_per_task > 0) return std::max(1, static_cast<int>(ranks / ranks_per_task));
  return static_cast<int>(std::clamp<std::uint64_t>(tasks, 1, static_cast<std::uint64_t>(ranks)));
}

template <class T>
void append_raw(std::vector<T>& out, std::span<const std::byte> bytes) {
  const auto start = out.size();
  out.resize(start + bytes.size() / sizeof(T));
  if (!bytes.empty()) std::memcpy(out.data() + start, bytes.data(), bytes.size());
}

// What a group leader keeps of each task until the collective write: one fixed-size block
// per task in each member, padded to the largest point.
struct GaResults {
  std::vector<std::uint64_t> tasks;
  std::vector<std::byte> history;
  std::vector<std::byte> best;
  std::vector<std::int64_t> genomes;
  std::vector<std::byte> validation;
  std::vector<std::uint8_t> levels;
  // Elements per task of each member.
  std::size_t history_size = 0;
  std::size_t best_size = 0;
  std::size_t genomes_size = 0;
  std::size_t validation_size = 0;
  std::size_t levels_size = 0;

  // Calls f(segment name, member, elements per task) for each member.
  template <class Self, class F>
  static void each_member(Self& self, F&& f) {
    f("ga.history", self.history, self.history_size);
    f("ga.best", self.best, self.best_size);
    f("ga.best_genomes", self.genomes, self.genomes_size);
    f("ga.validation", self.validation, self.validation_size);
    f("ga.best_levels", self.levels, self.levels_size);
  }

  // The blocks of tasks [from, end) (the task ids go in with the task log's rows).
  void save_since(std::size_t from, Segment& segment) const {
    each_member(*this, [&](const char* name, const auto& member, std::size_t size) {
      segment.append_bytes(name, std::as_bytes(std::span(member).subspan(from * size)));
    });
  }

  void absorb(const Segment& segment) {
    const auto ids = segment.ints(segment_key::tasks);
    each_member(*this, [&](const char* name, auto& member, std::size_t size) {
      const auto bytes = segment.bytes(name);
      if (bytes.size() != ids.size() * size * sizeof(member.front())) {
        throw CheckpointError(std::string("saved ") + name + " does not match its task list");
      }
      append_raw(member, bytes);
    });
    tasks.insert(tasks.end(), ids.begin(), ids.end());
  }
};

namespace snapshot_key {
constexpr const char* evaluations = "snapshot.evaluations";
constexpr const char* genomes = "snapshot.genomes";
constexpr const char* rows = "snapshot.rows";
constexpr const char* history = "snapshot.history";
}  // namespace snapshot_key

Segment snapshot_segment(std::uint64_t task, const GaSnapshot& snapshot) {
  Segment segment;
  segment.put_ints(segment_key::snapshot_tasks, {static_cast<std::int64_t>(task)});
  segment.put_ints(segment_key::snapshot_generations, {snapshot.generations_run});
  segment.put_ints(snapshot_key::evaluations, {static_cast<std::int64_t>(snapshot.evaluations)});
  segment.put_ints(snapshot_key::genomes, snapshot.genomes);
  segment.put_bytes(snapshot_key::rows, snapshot.evaluations_rows);
  segment.put_bytes(snapshot_key::history, snapshot.history);
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
  return {generations.front(),
          static_cast<std::uint64_t>(evaluations.front()),
          {genomes.begin(), genomes.end()},
          {rows.begin(), rows.end()},
          {history.begin(), history.end()}};
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

  const auto& models = context.models.ga();
  std::vector<GaSettings> settings;
  std::size_t max_generations = 0;
  std::size_t max_kept = 0;
  std::size_t max_length = 0;
  std::vector<std::size_t> level_shape;    // the largest level of every point, per dimension
  std::vector<std::uint64_t> point_units;  // evaluations of one uninterrupted task
  for (std::size_t p = 0; p < experiment.points.size(); ++p) {
    const auto& point = experiment.points[p];
    settings.push_back(GaSettings::from(point.driver));
    max_generations =
        std::max(max_generations, static_cast<std::size_t>(settings.back().generations));
    max_kept = std::max(max_kept, static_cast<std::size_t>(settings.back().keep_best));
    max_length = std::max(max_length, models[p]->genome_length());
    const auto shape = models[p]->level_shape();
    level_shape.resize(std::max(level_shape.size(), shape.size()), 0);
    for (std::size_t d = 0; d < shape.size(); ++d)
      level_shape[d] = std::max(level_shape[d], shape[d]);
    // Elites keep their fitness, so later generations evaluate only the offspring.
    const auto& last = settings.back();
    point_units.push_back(static_cast<std::uint64_t>(last.population) +
                          static_cast<std::uint64_t>(last.generations - 1) *
                              last.evaluations_per_generation());
  }
  const auto history_layout = ga_history_layout(ga.evaluation_fields);
  const auto best_layout = ga_best_layout(ga.evaluation_fields);
  GaResults results;
  results.history_size = max_generations * history_layout.row_size();
  results.best_size = max_kept * best_layout.row_size();
  results.genomes_size = max_kept * max_length;
  results.validation_size =
      ga.validation_fields.empty() ? 0 : max_kept * RecordLayout(ga.validation_fields).row_size();
  results.levels_size = level_shape.empty()
                            ? 0
                            : max_kept * std::accumulate(level_shape.begin(), level_shape.end(),
                                                         std::size_t{1}, std::multiplies<>());

  // Earlier sessions' work: finished tasks stay with the rank that read them; the newest
  // state of each unfinished one goes to every rank.
  std::int64_t restored_units = 0;
  std::vector<std::int64_t> restored_ids;
  for (const auto& segment : context.restored) {
    results.absorb(segment);
    const auto ids = segment.ints(segment_key::tasks);
    restored_ids.insert(restored_ids.end(), ids.begin(), ids.end());
    context.tasks.add_packed(segment.ints(segment_key::tasks),
                             segment.bytes(segment_key::task_rows));
    restored_units +=
        static_cast<std::int64_t>(TaskLog::units_of(segment.bytes(segment_key::task_rows)));
  }
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
  std::size_t saved = results.tasks.size();
  std::uint64_t current_task = 0;
  // The group leader's segment: tasks finished since the last one, and the task in progress.
  auto save_segment = [&](const GaSnapshot* snapshot) {
    if (snapshot == nullptr && saved == results.tasks.size() && context.failures.unsaved() == 0)
      return;
    Segment segment = snapshot != nullptr ? snapshot_segment(current_task, *snapshot) : Segment();
    context.tasks.save_since(saved, segment);
    results.save_since(saved, segment);
    saved = results.tasks.size();
    context.save(std::move(segment));
  };
  MpiEvaluationGroup group(context.comm.split(color, context.comm.rank()), queue, context.idle,
                           context.checkpoint_pace(), save_segment);
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
  if (context.file == nullptr) return;

  // A failed task's rows are missing, as those of a point that keeps fewer.
  for (const auto& failure : context.failures.local()) {
    results.tasks.push_back(failure.task);
    append_padded(results.history, {}, history_layout, max_generations);
    append_padded(results.best, {}, best_layout, max_kept);
    results.genomes.insert(results.genomes.end(), max_kept * max_length, -1);
    if (!ga.validation_fields.empty())
      append_padded(results.validation, {}, RecordLayout(ga.validation_fields), max_kept);
    if (!level_shape.empty()) {
      for (std::size_t k = 0; k < max_kept; ++k) append_level(results.levels, {}, {}, level_shape);
    }
  }
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

Segment ga_shard_segment(const h5::File& file, const KernelEntry& kernel,
                         const PointModels& models) {
  const auto& ga = *kernel.ga;
  auto finished = read_finished_tasks(file);
  Segment segment;
  read_failures(file, segment, [](std::uint64_t task, std::int64_t /*begin*/) { return task; });
  auto read = [&](const char* name, const char* path, const h5::Datatype& type) {
    segment.put_bytes(name, read_task_blocks(file, path, type, finished.ids));
  };
  read("ga.history", "ga/history", compound_type(ga_history_layout(ga.evaluation_fields)));
  read("ga.best", "ga/best", compound_type(ga_best_layout(ga.evaluation_fields)));
  read("ga.best_genomes", "ga/best_genomes", h5::Datatype::int64());
  if (!ga.validation_fields.empty()) {
    read("ga.validation", "ga/validation", compound_type(RecordLayout(ga.validation_fields)));
  }
  if (!models.ga().front()->level_shape().empty()) {
    read("ga.best_levels", "ga/best_levels", h5::Datatype::uint8());
  }
  segment.put_bytes(segment_key::task_rows, std::move(finished.rows));
  segment.put_ints(segment_key::tasks, std::move(finished.ids));
  return segment;
}

}  // namespace levelforge

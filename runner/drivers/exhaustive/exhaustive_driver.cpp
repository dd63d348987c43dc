// The `exhaustive` driver. The index space of every task is cut into chunks that ranks
// pull dynamically; each rank reduces locally, and the reductions are merged with
// collectives at the end. Solution records keep the order of their chunks, so the
// solutions dataset is ordered by (task, index) however the chunks were scheduled.

#include "runner/drivers/exhaustive/exhaustive_driver.hpp"

#include <map>
#include <optional>

#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/exhaustive/exhaustive_output.hpp"
#include "runner/drivers/work_loop.hpp"

namespace levelforge {

namespace {

// Seconds spent on each task, over the ranks that visited its chunks; a segment holds what
// was added since the last one, as (task, microseconds) pairs.
class TaskSeconds {
 public:
  explicit TaskSeconds(std::uint64_t task_count) : seconds_(task_count), saved_(task_count) {}

  void add(std::uint64_t task, double seconds) { seconds_[task] += seconds; }

  void save_new(Segment& segment) {
    std::vector<std::int64_t> micros;
    for (std::uint64_t task = 0; task < seconds_.size(); ++task) {
      const auto seconds = seconds_[task] - saved_[task];
      if (seconds <= 0) continue;
      micros.push_back(static_cast<std::int64_t>(task));
      micros.push_back(static_cast<std::int64_t>(seconds * 1e6));
    }
    segment.put_ints(key, std::move(micros));
    saved_ = seconds_;
  }

  void absorb(const Segment& segment) {
    const auto micros = segment.ints(key);
    for (std::size_t i = 0; i + 1 < micros.size(); i += 2) {
      const auto task = static_cast<std::uint64_t>(micros[i]);
      if (task < seconds_.size()) add(task, static_cast<double>(micros[i + 1]) * 1e-6);
    }
    saved_ = seconds_;
  }

  // Collective: every rank's seconds added up.
  std::vector<double>& merged(const mpi::Comm& comm) {
    comm.all_reduce_sum(seconds_);
    return seconds_;
  }

  // A shard's /tasks wall times into `segment` as save_new puts them.
  static void read(const h5::File& file, Segment& segment) {
    const auto finished = read_finished_tasks(file);
    const auto layout = TaskLog::layout();
    const auto wall = layout.index_of("wall_time");
    std::vector<std::int64_t> micros;
    for (std::size_t i = 0; i < finished.ids.size(); ++i) {
      const auto row = std::span(finished.rows).subspan(i * layout.row_size(), layout.row_size());
      micros.push_back(finished.ids[i]);
      micros.push_back(static_cast<std::int64_t>(layout.get_real(row, wall) * 1e6));
    }
    segment.put_ints(key, std::move(micros));
  }

 private:
  static constexpr const char* key = "task_micros";
  std::vector<double> seconds_;
  std::vector<double> saved_;
};

// A unit is a chunk of a task's indices: its reductions and solutions are kept, and merged
// over the ranks at the end.
class ExhaustiveRun final : public UnitWork {
 public:
  explicit ExhaustiveRun(DriverContext& context)
      : context_(context),
        capability_(*context.kernel.binding<ExhaustiveSpec>()),
        models_(context.experiment, capability_.make),
        plan_(context.experiment, context.facts),
        banked_(capability_.reductions),
        solutions_(capability_),
        seconds_(plan_.task_count()),
        indices_before_(plan_.task_count()),
        uncovered_(plan_.task_count()) {}

  void run() {
    for (const auto& segment : context_.restored) absorb(segment);
    auto done = context_.restore_done(restored_chunks_);
    context_.restored.clear();
    std::uint64_t work_done = 0;
    for (const auto chunk : done) {
      indices_before_[plan_.task_of(chunk)] += work_of(chunk);
      work_done += work_of(chunk);
    }
    if (!WorkLoop(context_, *this,
                  {"chunk", plan_.chunk_count(), std::move(done), work_done, std::nullopt})
             .run())
      return;
    bank();
    log_tasks();
    const auto totals = banked_.merged(context_.comm, plan_.task_count(), context_.idle);
    if (context_.file == nullptr) return;
    write_task_datasets(
        *context_.file, exhaustive_datasets(capability_),
        {plan_, totals, uncovered_,
         [this](std::uint64_t task) -> const ExhaustiveModel& { return model_of(task); }},
        context_.comm);
    solutions_.write(*context_.file, plan_.chunk_count(), context_.comm, context_.idle);
  }

  [[nodiscard]] std::uint64_t task_of(std::uint64_t chunk) const override {
    return plan_.task_of(chunk);
  }
  [[nodiscard]] std::uint64_t work_of(std::uint64_t chunk) const override {
    const auto [begin, end] = plan_.bounds(chunk);
    return end - begin;
  }
  [[nodiscard]] UnitRange range_of(std::uint64_t chunk) const override {
    const auto [begin, end] = plan_.bounds(chunk);
    return {static_cast<std::int64_t>(begin), static_cast<std::int64_t>(end)};
  }

  UnitOutcome run(std::uint64_t chunk, WorkLoop& /*loop*/) override {
    visit_chunk(chunk);
    return {false, work_of(chunk), 0};
  }

  void ended(std::uint64_t chunk, const UnitOutcome* outcome, double seconds) override {
    seconds_.add(plan_.task_of(chunk), seconds);
    if (outcome != nullptr) chunks_.push_back(static_cast<std::int64_t>(chunk));
  }

  // This rank's work since its last segment.
  void save_kept(Segment& segment) override {
    bank(&segment);
    segment.put_ints(segment_key::chunks,
                     {chunks_.begin() + static_cast<std::ptrdiff_t>(saved_chunks_), chunks_.end()});
    segment.put_ints(segment_key::chunk_total, {static_cast<std::int64_t>(plan_.chunk_count())});
    solutions_.save_new(segment);
    seconds_.save_new(segment);
    saved_chunks_ = chunks_.size();
  }

 private:
  void absorb(const Segment& segment) {
    const auto chunks = segment.ints(segment_key::chunks);
    restored_chunks_.insert(restored_chunks_.end(), chunks.begin(), chunks.end());
    banked_.absorb(segment, plan_.task_count());
    solutions_.absorb(segment);
    seconds_.absorb(segment);
  }

  // Moves the reductions of the chunks visited since the last bank into the banked totals,
  // saving them into `segment` first where one is given.
  void bank(Segment* segment = nullptr) {
    ReductionTotals delta(capability_.reductions);
    for (auto& [task, reductions] : pending_) delta.add(task, reductions);
    pending_.clear();
    if (segment != nullptr) delta.save_into(*segment);
    banked_.add(std::move(delta));
  }

  // A task's chunks ran on several ranks: its wall time is their sum, and the rank that
  // writes its other per-task rows records it.
  void log_tasks() {
    const auto& seconds = [&]() -> const std::vector<double>& {
      const auto timer = context_.idle.measure();
      const auto& merged = seconds_.merged(context_.comm);
      for (const auto& failure : context_.failures.gather(context_.comm))
        uncovered_[failure.task] += static_cast<std::uint64_t>(failure.end - failure.begin);
      return merged;
    }();
    for (const auto task : rank_tasks(plan_.task_count(), context_.comm)) {
      const auto& range = plan_.range(task);
      context_.tasks.add(context_.experiment,
                         {task, seconds[task], context_.comm.rank(), range.end - range.begin,
                          indices_before_[task], context_.session,
                          uncovered_[task] > 0 ? TaskEntry::task_failed : TaskEntry::task_done});
    }
  }

  const ExhaustiveModel& model_of(std::uint64_t task) {
    return models_.at(task / static_cast<std::uint64_t>(context_.experiment.replicates));
  }

  // A chunk that throws adds nothing: its partial reductions are rolled back when the run
  // records failures (an aborting run writes none).
  void visit_chunk(std::uint64_t chunk) {
    const auto task = plan_.task_of(chunk);
    const auto [begin, end] = plan_.bounds(chunk);
    auto pending = pending_.find(task);
    if (pending == pending_.end()) {
      pending =
          pending_.emplace(task, Reductions(capability_.reductions, &capability_.solutions)).first;
    }
    auto& reductions = pending->second;
    // Attached first, so that a rollback to `before` drops the rows from this chunk's start.
    solutions_.receive_from(reductions);
    std::optional<Reductions> before;
    if (context_.experiment.record_failures) before = reductions;
    try {
      model_of(task).visit(begin, end, reductions);
    } catch (...) {
      if (before) reductions = std::move(*before);
      reductions.clear_solutions();
      throw;
    }
    solutions_.add(chunk, task, reductions);
  }

  DriverContext& context_;
  const ExhaustiveSpec::Binding& capability_;
  PointModelCache<ExhaustiveModel> models_;
  ChunkPlan plan_;
  std::map<std::uint64_t, Reductions> pending_;  // of the chunks visited since the last bank
  ReductionTotals banked_;
  SolutionStore solutions_;
  TaskSeconds seconds_;
  std::vector<std::uint64_t> indices_before_;  // per task: restored, not visited here
  std::vector<std::uint64_t> uncovered_;       // per task: indices of failed chunks
  std::vector<std::int64_t> chunks_;           // visited by this rank in this session
  std::vector<std::int64_t> restored_chunks_;  // read from segments by this rank
  std::size_t saved_chunks_ = 0;
};

}  // namespace

const Driver& ExhaustiveSpec::driver() {
  static const ExhaustiveDriver driver;
  return driver;
}

void ExhaustiveDriver::run(DriverContext& context) const { ExhaustiveRun(context).run(); }

PointFacts ExhaustiveDriver::point_facts(const config::Experiment& experiment,
                                         const KernelEntry& kernel, std::size_t point) const {
  const auto index_count =
      kernel.binding<ExhaustiveSpec>()->make(experiment.points[point].params)->index_count();
  (void)exhaustive_range(experiment.points[point].driver, index_count);
  return {0, {}, {}, index_count, {}, {}};
}

Segment ExhaustiveDriver::read_shard(const ShardReading& shard) const {
  const auto& capability = *shard.kernel.binding<ExhaustiveSpec>();
  const ChunkPlan plan(shard.experiment, shard.facts);
  Segment segment;
  read_failures(shard.file, segment, [&](std::uint64_t task, std::int64_t begin) {
    return plan.chunk_of(task, static_cast<std::uint64_t>(begin));
  });
  const auto failed = segment.ints(segment_key::failed_units);
  std::vector<std::int64_t> chunks;
  for (std::uint64_t chunk = 0; chunk < plan.chunk_count(); ++chunk) {
    const auto id = static_cast<std::int64_t>(chunk);
    if (shard.shard.owns(chunk) && std::find(failed.begin(), failed.end(), id) == failed.end())
      chunks.push_back(id);
  }
  segment.put_ints(segment_key::chunks, std::move(chunks));
  segment.put_ints(segment_key::chunk_total, {static_cast<std::int64_t>(plan.chunk_count())});

  ReductionTotals totals(capability.reductions);
  read_task_datasets(shard.file, exhaustive_datasets(capability), plan.task_count(), totals);
  totals.save_into(segment);
  SolutionStore(capability).read(shard.file, plan, segment);
  TaskSeconds::read(shard.file, segment);
  return segment;
}

}  // namespace levelforge

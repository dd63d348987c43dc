// The `exhaustive` driver. The index space of every task is cut into chunks that ranks
// pull dynamically; each rank reduces locally, and the reductions are merged with
// collectives at the end. Solution records keep the order of their chunks, so the
// solutions dataset is ordered by (task, index) however the chunks were scheduled.

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <numeric>
#include <optional>

#include <fmt/format.h>

#include "runner/checkpoint/stop_signal.hpp"
#include "runner/drivers/driver_context.hpp"
#include "runner/engine/driver_specs.hpp"
#include "runner/output/compound.hpp"

namespace levelforge {

namespace {

struct TaskRange {
  std::uint64_t begin;
  std::uint64_t end;
  std::uint64_t chunk;
  std::uint64_t first_chunk;  // global id of the task's first chunk
};

std::vector<TaskRange> plan_ranges(const config::Experiment& experiment,
                                   const std::vector<std::unique_ptr<ExhaustiveModel>>& models) {
  std::vector<TaskRange> ranges;
  std::uint64_t next_chunk = 0;
  for (std::uint64_t task = 0; task < experiment.task_count(); ++task) {
    const auto point = task / static_cast<std::uint64_t>(experiment.replicates);
    const auto& driver = experiment.points[point].driver;
    const auto [begin, end] = exhaustive_range(driver, models[point]->index_count());
    const auto chunk = static_cast<std::uint64_t>(driver.integer("chunk"));
    ranges.push_back({begin, end, chunk, next_chunk});
    next_chunk += (end - begin + chunk - 1) / chunk;
  }
  return ranges;
}

// Where the reductions of one task sit in the flat vector of merged integers.
struct SlotMap {
  std::vector<std::size_t> offset;  // per reduction
  std::size_t per_task = 0;

  explicit SlotMap(const std::vector<ReductionSpec>& specs) {
    for (const auto& spec : specs) {
      offset.push_back(per_task);
      if (spec.kind == ReductionKind::count) per_task += 1;
      if (spec.kind == ReductionKind::histogram) per_task += spec.bins + 2;
    }
  }
};

RecordLayout top_layout(const ReductionSpec& spec) {
  return RecordLayout::concat({real_field("score", "the score ranked by (higher first)"),
                               int_field("index", "index visited (ties: smaller first)")},
                              spec.fields);
}

std::vector<FieldSpec> count_fields(const std::vector<ReductionSpec>& specs) {
  std::vector<FieldSpec> fields;
  for (const auto& spec : specs) {
    if (spec.kind == ReductionKind::count) fields.push_back(int_field(spec.name, spec.doc));
  }
  return fields;
}

// Tasks whose per-task rows this rank writes: spread over the ranks.
std::vector<std::uint64_t> owned_tasks(std::uint64_t task_count, const mpi::Comm& comm) {
  std::vector<std::uint64_t> tasks;
  for (auto task = static_cast<std::uint64_t>(comm.rank()); task < task_count;
       task += static_cast<std::uint64_t>(comm.size())) {
    tasks.push_back(task);
  }
  return tasks;
}

namespace key {
constexpr const char* slot_tasks = "slot_tasks";  // tasks whose reductions a segment holds
constexpr const char* slots = "slots";            // their counts and histogram bins
constexpr const char* solutions = "solutions";
constexpr const char* solution_chunks = "solution_chunks";  // (chunk, rows) pairs
constexpr const char* task_micros = "task_micros";          // (task, microseconds) pairs
std::string top(const ReductionSpec& spec) { return "top." + spec.name; }
}  // namespace key

std::uint64_t chunk_count(const std::vector<TaskRange>& ranges) {
  if (ranges.empty()) return 0;
  const auto& last = ranges.back();
  return last.first_chunk + (last.end - last.begin + last.chunk - 1) / last.chunk;
}

class ExhaustiveRun {
 public:
  explicit ExhaustiveRun(DriverContext& context)
      : context_(context),
        experiment_(context.experiment),
        capability_(*context.kernel.exhaustive),
        models_(context.models.exhaustive()),
        task_count_(experiment_.task_count()),
        slots_(capability_.reductions),
        solution_layout_(RecordLayout::concat(
            {int_field("task", "task id"), int_field("index", "index visited")},
            capability_.solution_fields)) {
    ranges_ = plan_ranges(experiment_, models_);
    task_seconds_.assign(task_count_, 0.0);
    indices_before_.assign(task_count_, 0);
    banked_integers_.assign(task_count_ * slots_.per_task, 0);
    banked_tops_.resize(capability_.reductions.size());
    chunk_total_ = chunk_count(ranges_);
  }

  void run() {
    for (const auto& segment : context_.restored) absorb(segment);
    const auto done = context_.restore_done(restored_chunks_);
    context_.restored.clear();
    saved_seconds_ = task_seconds_;
    PriorWork prior{done.size(), 0};
    for (const auto chunk : done) {
      const auto [begin, end] = chunk_bounds(chunk);
      indices_before_[task_of(chunk)] += end - begin;
      prior.units += end - begin;
    }
    const auto todo = context_.remaining(chunk_total_, done, "chunk");
    std::uint64_t units_total = prior.units;
    for (const auto chunk : todo) {
      const auto [begin, end] = chunk_bounds(chunk);
      units_total += end - begin;
    }

    auto pace = context_.checkpoint_pace();
    WorkQueue queue(context_.comm, todo.size(), context_.idle, prior);
    for (auto position = queue.next(); position < queue.count(); position = queue.next()) {
      const auto chunk = todo[position];
      const auto task = task_of(chunk);
      const auto [begin, end] = chunk_bounds(chunk);
      const auto started = std::chrono::steady_clock::now();
      const auto failure = context_.attempt(
          task, [&] { visit_chunk(chunk); },
          [first = begin, last = end] {
            return fmt::format(", indices {} to {}", first, last - 1);
          });
      const auto seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      task_seconds_[task] += seconds;
      if (failure) {
        context_.failures.add({chunk, task, static_cast<std::int64_t>(begin),
                               static_cast<std::int64_t>(end), context_.comm.rank(),
                               context_.session, seconds, *failure});
      } else {
        chunks_.push_back(static_cast<std::int64_t>(chunk));
      }
      context_.work_units += end - begin;
      queue.finished(1, end - begin);
      if (pace.due(chunks_.size() - saved_chunks_ + context_.failures.unsaved())) {
        save();
        pace.saved();
      }
      if (StopSignal::requested()) queue.stop();
      context_.poll_progress(queue, units_total);
    }
    if (context_.end_work(queue, queue.stopped())) {
      save();
      return;
    }
    bank();
    log_tasks();
    std::vector<std::int64_t> merged = merge_integers();
    auto solution_offsets = merge_solution_counts();
    auto tops = merge_tops();
    if (context_.file == nullptr) return;
    write_ranges();
    write_integers(merged);
    write_tops(tops);
    write_solutions(solution_offsets);
  }

 private:
  Reductions& reductions_of(std::uint64_t task) {
    auto found = reductions_.find(task);
    if (found == reductions_.end()) {
      found = reductions_.emplace(task, Reductions(capability_.reductions)).first;
    }
    return found->second;
  }

  [[nodiscard]] std::uint64_t task_of(std::uint64_t chunk) const {
    const auto after = std::upper_bound(
        ranges_.begin(), ranges_.end(), chunk,
        [](std::uint64_t id, const TaskRange& range) { return id < range.first_chunk; });
    return static_cast<std::uint64_t>(std::distance(ranges_.begin(), after) - 1);
  }

  [[nodiscard]] std::pair<std::uint64_t, std::uint64_t> chunk_bounds(std::uint64_t chunk) const {
    const auto& range = ranges_[task_of(chunk)];
    const auto begin = range.begin + (chunk - range.first_chunk) * range.chunk;
    return {begin, std::min(range.end, begin + range.chunk)};
  }

  // The rows of top-k table `r` for `tables` (task -> entries), with a leading task column.
  [[nodiscard]] RecordLayout tagged_top_layout(std::size_t r) const {
    return RecordLayout::concat({int_field("task", "")},
                                top_layout(capability_.reductions[r]).fields());
  }

  std::vector<std::byte> pack_tops(std::size_t r,
                                   const std::map<std::uint64_t, std::vector<TopEntry>>& tables) {
    const auto layout = tagged_top_layout(r);
    std::vector<std::byte> rows;
    for (const auto& [task, entries] : tables) {
      for (const auto& entry : entries) {
        Record row{static_cast<std::int64_t>(task), entry.score,
                   static_cast<std::int64_t>(entry.index)};
        row.insert(row.end(), entry.record.begin(), entry.record.end());
        rows.resize(rows.size() + layout.row_size());
        layout.pack(row, std::span(rows).last(layout.row_size()), context_.kernel.name);
      }
    }
    return rows;
  }

  // Rows of pack_tops() back into entries per task.
  [[nodiscard]] std::map<std::uint64_t, std::vector<TopEntry>> unpack_tops(
      std::size_t r, std::span<const std::byte> rows) const {
    const auto layout = tagged_top_layout(r);
    if (rows.size() % layout.row_size() != 0) {
      throw CheckpointError("saved top-k rows of '" + capability_.reductions[r].name +
                            "' are not whole rows");
    }
    std::map<std::uint64_t, std::vector<TopEntry>> tables;
    for (std::size_t offset = 0; offset < rows.size(); offset += layout.row_size()) {
      auto row = layout.unpack(rows.subspan(offset, layout.row_size()));
      const auto task = static_cast<std::uint64_t>(std::get<std::int64_t>(row[0]));
      if (task >= task_count_) throw CheckpointError("saved top-k rows name an unknown task");
      tables[task].push_back({std::get<double>(row[1]),
                              static_cast<std::uint64_t>(std::get<std::int64_t>(row[2])),
                              Record(row.begin() + 3, row.end())});
    }
    return tables;
  }

  // Keeps the k best of the banked entries and `entries` for one task.
  void bank_top(std::size_t r, std::uint64_t task, const std::vector<TopEntry>& entries) {
    auto& kept = banked_tops_[r][task];
    kept.insert(kept.end(), entries.begin(), entries.end());
    std::sort(kept.begin(), kept.end(), ranks_before);
    if (kept.size() > capability_.reductions[r].k) kept.resize(capability_.reductions[r].k);
  }

  void absorb(const Segment& segment) {
    const auto chunks = segment.ints(segment_key::chunks);
    restored_chunks_.insert(restored_chunks_.end(), chunks.begin(), chunks.end());
    const auto slot_tasks = segment.ints(key::slot_tasks);
    const auto slots = segment.ints(key::slots);
    if (slots.size() != slot_tasks.size() * slots_.per_task) {
      throw CheckpointError("saved reductions do not match their task list");
    }
    for (std::size_t i = 0; i < slot_tasks.size(); ++i) {
      const auto task = static_cast<std::uint64_t>(slot_tasks[i]);
      if (task >= task_count_) throw CheckpointError("saved reductions name an unknown task");
      for (std::size_t s = 0; s < slots_.per_task; ++s)
        banked_integers_[task * slots_.per_task + s] += slots[i * slots_.per_task + s];
    }
    const auto& specs = capability_.reductions;
    for (std::size_t r = 0; r < specs.size(); ++r) {
      if (specs[r].kind != ReductionKind::top_k) continue;
      for (const auto& [task, entries] : unpack_tops(r, segment.bytes(key::top(specs[r]))))
        bank_top(r, task, entries);
    }
    const auto solution_chunks = segment.ints(key::solution_chunks);
    const auto solutions = segment.bytes(key::solutions);
    std::size_t rows = 0;
    for (std::size_t i = 0; i + 1 < solution_chunks.size(); i += 2) {
      solution_chunks_.emplace_back(static_cast<std::uint64_t>(solution_chunks[i]),
                                    static_cast<std::size_t>(solution_chunks[i + 1]));
      rows += static_cast<std::size_t>(solution_chunks[i + 1]);
    }
    if (solutions.size() != rows * solution_layout_.row_size()) {
      throw CheckpointError("saved solutions do not match their chunk list");
    }
    solution_rows_.insert(solution_rows_.end(), solutions.begin(), solutions.end());
    const auto micros = segment.ints(key::task_micros);
    for (std::size_t i = 0; i + 1 < micros.size(); i += 2) {
      const auto task = static_cast<std::uint64_t>(micros[i]);
      if (task < task_count_) task_seconds_[task] += static_cast<double>(micros[i + 1]) * 1e-6;
    }
    saved_solution_chunks_ = solution_chunks_.size();
    saved_solution_bytes_ = solution_rows_.size();
  }

  // Moves the reductions of the chunks visited since the last bank into the banked totals;
  // returns them as the part of a segment that holds reductions.
  Segment bank() {
    Segment delta;
    const auto& specs = capability_.reductions;
    std::vector<std::int64_t> slot_tasks;
    std::vector<std::int64_t> slots;
    std::vector<std::map<std::uint64_t, std::vector<TopEntry>>> tops(specs.size());
    for (auto& [task, reductions] : reductions_) {
      slot_tasks.push_back(static_cast<std::int64_t>(task));
      std::vector<std::int64_t> task_slots(slots_.per_task, 0);
      for (std::size_t r = 0; r < specs.size(); ++r) {
        if (specs[r].kind == ReductionKind::count)
          task_slots[slots_.offset[r]] = reductions.counts()[r];
        if (specs[r].kind == ReductionKind::histogram) {
          const auto& bins = reductions.histograms()[r];
          std::copy(bins.begin(), bins.end(),
                    task_slots.begin() + static_cast<std::ptrdiff_t>(slots_.offset[r]));
        }
        if (specs[r].kind == ReductionKind::top_k) {
          auto entries = reductions.sorted_top(r);
          bank_top(r, task, entries);
          tops[r].emplace(task, std::move(entries));
        }
      }
      for (std::size_t s = 0; s < slots_.per_task; ++s)
        banked_integers_[task * slots_.per_task + s] += task_slots[s];
      slots.insert(slots.end(), task_slots.begin(), task_slots.end());
    }
    reductions_.clear();
    delta.put_ints(key::slot_tasks, std::move(slot_tasks));
    delta.put_ints(key::slots, std::move(slots));
    for (std::size_t r = 0; r < specs.size(); ++r) {
      if (specs[r].kind == ReductionKind::top_k)
        delta.put_bytes(key::top(specs[r]), pack_tops(r, tops[r]));
    }
    return delta;
  }

  // This rank's work since its last segment, as a new segment.
  void save() {
    if (saved_chunks_ == chunks_.size() && context_.failures.unsaved() == 0) return;
    auto segment = bank();
    segment.put_ints(segment_key::chunks,
                     {chunks_.begin() + static_cast<std::ptrdiff_t>(saved_chunks_), chunks_.end()});
    segment.put_ints(segment_key::chunk_total, {static_cast<std::int64_t>(chunk_total_)});
    std::vector<std::int64_t> solution_chunks;
    for (auto i = saved_solution_chunks_; i < solution_chunks_.size(); ++i) {
      solution_chunks.push_back(static_cast<std::int64_t>(solution_chunks_[i].first));
      solution_chunks.push_back(static_cast<std::int64_t>(solution_chunks_[i].second));
    }
    segment.put_ints(key::solution_chunks, std::move(solution_chunks));
    segment.put_bytes(key::solutions,
                      {solution_rows_.begin() + static_cast<std::ptrdiff_t>(saved_solution_bytes_),
                       solution_rows_.end()});
    std::vector<std::int64_t> micros;
    for (std::uint64_t task = 0; task < task_count_; ++task) {
      const auto seconds = task_seconds_[task] - saved_seconds_[task];
      if (seconds <= 0) continue;
      micros.push_back(static_cast<std::int64_t>(task));
      micros.push_back(static_cast<std::int64_t>(seconds * 1e6));
    }
    segment.put_ints(key::task_micros, std::move(micros));
    context_.save(std::move(segment));
    saved_chunks_ = chunks_.size();
    saved_solution_chunks_ = solution_chunks_.size();
    saved_solution_bytes_ = solution_rows_.size();
    saved_seconds_ = task_seconds_;
  }

  // A task's chunks ran on several ranks: its wall time is their sum, and the rank that
  // writes its other per-task rows records it.
  void log_tasks() {
    {
      const auto timer = context_.idle.measure();
      context_.comm.all_reduce_sum(task_seconds_);
      for (const auto& failure : context_.failures.gather(context_.comm))
        uncovered_[failure.task] += static_cast<std::uint64_t>(failure.end - failure.begin);
    }
    for (auto task : owned_tasks(task_count_, context_.comm)) {
      const auto& range = ranges_[task];
      context_.tasks.add(experiment_,
                         {task, task_seconds_[task], context_.comm.rank(), range.end - range.begin,
                          indices_before_[task], context_.session,
                          uncovered_[task] > 0 ? TaskEntry::task_failed : TaskEntry::task_done});
    }
  }

  // A chunk that throws adds nothing: its partial reductions are rolled back when the run
  // records failures (an aborting run writes none).
  void visit_chunk(std::uint64_t chunk) {
    const auto task = task_of(chunk);
    const auto [begin, end] = chunk_bounds(chunk);
    auto& reductions = reductions_of(task);
    const auto point = task / static_cast<std::uint64_t>(experiment_.replicates);
    std::optional<Reductions> before;
    if (experiment_.record_failures) before = reductions;
    try {
      models_[point]->visit(begin, end, reductions);
    } catch (...) {
      if (before) reductions = std::move(*before);
      reductions.solutions().clear();
      throw;
    }

    auto& found = reductions.solutions();
    if (!found.empty()) {
      const auto size = solution_layout_.row_size();
      for (auto& solution : found) {
        solution.record.insert(
            solution.record.begin(),
            {static_cast<std::int64_t>(task), static_cast<std::int64_t>(solution.index)});
        solution_rows_.resize(solution_rows_.size() + size);
        solution_layout_.pack(solution.record, std::span(solution_rows_).last(size),
                              context_.kernel.name);
      }
      solution_chunks_.emplace_back(chunk, found.size());
      found.clear();
    }
  }

  std::vector<std::int64_t> merge_integers() {
    std::vector<std::int64_t> merged = banked_integers_;
    const auto timer = context_.idle.measure();
    context_.comm.all_reduce_sum(merged);
    return merged;
  }

  // The first row of each chunk's solutions in the merged dataset, and the total.
  std::vector<std::int64_t> merge_solution_counts() {
    std::vector<std::int64_t> counts(chunk_total_ + 1, 0);
    for (const auto& [chunk, count] : solution_chunks_)
      counts[chunk] = static_cast<std::int64_t>(count);
    {
      const auto timer = context_.idle.measure();
      context_.comm.all_reduce_sum(counts);
    }
    std::exclusive_scan(counts.begin(), counts.end(), counts.begin(), std::int64_t{0});
    return counts;
  }

  // Every rank's top-k candidates, merged into the final tables of every task.
  std::vector<std::vector<std::byte>> merge_tops() {
    const auto& specs = capability_.reductions;
    std::vector<std::vector<std::byte>> tables(specs.size());
    for (std::size_t r = 0; r < specs.size(); ++r) {
      if (specs[r].kind != ReductionKind::top_k) continue;
      const auto local = pack_tops(r, banked_tops_[r]);
      std::vector<std::byte> gathered;
      {
        const auto timer = context_.idle.measure();
        gathered = context_.comm.all_gather_bytes(local);
      }
      tables[r] = select_tops(r, gathered);
    }
    return tables;
  }

  // Rows [task, k] of the final table, padded with missing entries.
  [[nodiscard]] std::vector<std::byte> select_tops(std::size_t r,
                                                   std::span<const std::byte> gathered) const {
    const auto& spec = capability_.reductions[r];
    auto per_task = unpack_tops(r, gathered);
    const auto layout = top_layout(spec);
    std::vector<std::byte> table(task_count_ * spec.k * layout.row_size());
    for (std::size_t task = 0; task < task_count_; ++task) {
      auto& entries = per_task[task];
      std::sort(entries.begin(), entries.end(), ranks_before);
      for (std::size_t i = 0; i < spec.k; ++i) {
        auto row =
            std::span(table).subspan((task * spec.k + i) * layout.row_size(), layout.row_size());
        if (i >= entries.size()) {
          layout.fill_missing(row);
          continue;
        }
        Record record{entries[i].score, static_cast<std::int64_t>(entries[i].index)};
        record.insert(record.end(), entries[i].record.begin(), entries[i].record.end());
        layout.pack(record, row, context_.kernel.name);
      }
    }
    return table;
  }

  void write_ranges() {
    const RecordLayout layout(
        {int_field("begin", "first index visited"),
         int_field("end", "one past the last index visited"),
         int_field("chunk", "indices per chunk"),
         int_field("uncovered",
                   "indices of [begin, end) the reductions miss: chunks that failed, listed in "
                   "/failures (on_error: record)")});
    const auto owned = owned_tasks(task_count_, context_.comm);
    std::vector<std::byte> rows(owned.size() * layout.row_size());
    for (std::size_t i = 0; i < owned.size(); ++i) {
      const auto& range = ranges_[owned[i]];
      layout.pack(
          {static_cast<std::int64_t>(range.begin), static_cast<std::int64_t>(range.end),
           static_cast<std::int64_t>(range.chunk), static_cast<std::int64_t>(uncovered_[owned[i]])},
          std::span(rows).subspan(i * layout.row_size(), layout.row_size()), "ranges");
    }
    auto table = context_.file->create_table("exhaustive/ranges", layout, {task_count_});
    context_.file->write(table, owned, rows);
  }

  void write_integers(const std::vector<std::int64_t>& merged) {
    const auto& specs = capability_.reductions;
    const auto owned = owned_tasks(task_count_, context_.comm);
    const RecordLayout counts_layout(count_fields(specs));
    if (!counts_layout.fields().empty()) {
      std::vector<std::byte> rows;
      for (auto task : owned) {
        for (std::size_t r = 0; r < specs.size(); ++r) {
          if (specs[r].kind != ReductionKind::count) continue;
          const auto value = merged[task * slots_.per_task + slots_.offset[r]];
          rows.resize(rows.size() + sizeof value);
          std::memcpy(rows.data() + rows.size() - sizeof value, &value, sizeof value);
        }
      }
      auto table = context_.file->create_table("exhaustive/counts", counts_layout, {task_count_});
      context_.file->write(table, owned, rows);
    }
    for (std::size_t r = 0; r < specs.size(); ++r) {
      if (specs[r].kind != ReductionKind::histogram) continue;
      const hsize_t width = specs[r].bins + 2;
      std::vector<std::int64_t> rows;
      for (auto task : owned) {
        const auto* first = merged.data() + task * slots_.per_task + slots_.offset[r];
        rows.insert(rows.end(), first, first + width);
      }
      auto dataset = context_.file->create_array("exhaustive/histograms/" + specs[r].name,
                                                 h5::Datatype::int64(), {task_count_, width});
      context_.file->write_rows(dataset, h5::Datatype::int64(), owned,
                                std::as_bytes(std::span(rows)));
      dataset.write_attribute("low", specs[r].low);
      dataset.write_attribute("high", specs[r].high);
      dataset.write_attribute("bins", static_cast<std::int64_t>(specs[r].bins));
      dataset.write_attribute("doc", specs[r].doc);
    }
  }

  void write_tops(const std::vector<std::vector<std::byte>>& tables) {
    const auto& specs = capability_.reductions;
    const auto owned = owned_tasks(task_count_, context_.comm);
    for (std::size_t r = 0; r < specs.size(); ++r) {
      if (specs[r].kind != ReductionKind::top_k) continue;
      const auto layout = top_layout(specs[r]);
      const auto row_bytes = specs[r].k * layout.row_size();
      std::vector<std::byte> rows;
      for (auto task : owned) {
        const auto first = tables[r].begin() + static_cast<std::ptrdiff_t>(task * row_bytes);
        rows.insert(rows.end(), first, first + static_cast<std::ptrdiff_t>(row_bytes));
      }
      auto table = context_.file->create_table("exhaustive/top/" + specs[r].name, layout,
                                               {task_count_, specs[r].k});
      context_.file->write(table, owned, rows);
      table.dataset.write_attribute("doc", specs[r].doc);
    }
  }

  void write_solutions(const std::vector<std::int64_t>& offsets) {
    const auto total = static_cast<hsize_t>(offsets.back());
    std::vector<std::uint64_t> rows;
    for (const auto& [chunk, count] : solution_chunks_) {
      for (std::size_t i = 0; i < count; ++i)
        rows.push_back(static_cast<std::uint64_t>(offsets[chunk]) + i);
    }
    auto table = context_.file->create_table("exhaustive/solutions", solution_layout_, {total});
    context_.file->write(table, rows, solution_rows_);
  }

  DriverContext& context_;
  const config::Experiment& experiment_;
  const ExhaustiveCapability& capability_;
  const std::vector<std::unique_ptr<ExhaustiveModel>>& models_;
  std::uint64_t task_count_;
  SlotMap slots_;
  RecordLayout solution_layout_;
  std::vector<TaskRange> ranges_;
  std::uint64_t chunk_total_ = 0;
  std::vector<double> task_seconds_;
  std::vector<double> saved_seconds_ = std::vector<double>(task_count_, 0.0);
  std::vector<std::uint64_t> indices_before_;  // per task: restored, not visited here
  std::vector<std::uint64_t> uncovered_ =
      std::vector<std::uint64_t>(task_count_, 0);  // per task: indices of failed chunks
  // Reductions of the chunks visited since the last bank(), per task.
  std::map<std::uint64_t, Reductions> reductions_;
  // Everything banked: counts and bins per task, and the k best entries per table and task.
  std::vector<std::int64_t> banked_integers_;
  std::vector<std::map<std::uint64_t, std::vector<TopEntry>>> banked_tops_;
  std::vector<std::byte> solution_rows_;
  std::vector<std::pair<std::uint64_t, std::size_t>> solution_chunks_;
  std::vector<std::int64_t> chunks_;           // visited by this rank in this session
  std::vector<std::int64_t> restored_chunks_;  // read from segments by this rank
  std::size_t saved_chunks_ = 0;
  std::size_t saved_solution_chunks_ = 0;
  std::size_t saved_solution_bytes_ = 0;
};

}  // namespace

void run_exhaustive_driver(DriverContext& context) { ExhaustiveRun(context).run(); }

Segment exhaustive_shard_segment(const h5::File& file, const config::Experiment& experiment,
                                 const KernelEntry& kernel, const PointModels& point_models,
                                 const ShardSpec& shard) {
  const auto& capability = *kernel.exhaustive;
  const auto& specs = capability.reductions;
  const auto ranges = plan_ranges(experiment, point_models.exhaustive());
  const auto chunk_total = chunk_count(ranges);
  const auto task_count = experiment.task_count();
  const SlotMap slots(specs);
  Segment segment;

  read_failures(file, segment, [&](std::uint64_t task, std::int64_t begin) {
    const auto& range = ranges.at(task);
    return range.first_chunk + (static_cast<std::uint64_t>(begin) - range.begin) / range.chunk;
  });
  const auto failed = segment.ints(segment_key::failed_units);
  std::vector<std::int64_t> chunks;
  for (std::uint64_t chunk = 0; chunk < chunk_total; ++chunk) {
    const auto id = static_cast<std::int64_t>(chunk);
    if (shard.owns(chunk) && std::find(failed.begin(), failed.end(), id) == failed.end())
      chunks.push_back(id);
  }
  segment.put_ints(segment_key::chunks, std::move(chunks));
  segment.put_ints(segment_key::chunk_total, {static_cast<std::int64_t>(chunk_total)});

  const auto root = file.root();
  std::vector<std::int64_t> values(task_count * slots.per_task, 0);
  const RecordLayout counts_layout(count_fields(specs));
  if (!counts_layout.fields().empty()) {
    std::vector<std::byte> rows(task_count * counts_layout.row_size());
    root.open_dataset("exhaustive/counts").read_all(compound_type(counts_layout), rows.data());
    for (std::uint64_t task = 0; task < task_count; ++task) {
      std::size_t field = 0;
      for (std::size_t r = 0; r < specs.size(); ++r) {
        if (specs[r].kind != ReductionKind::count) continue;
        values[task * slots.per_task + slots.offset[r]] = counts_layout.get_int(
            std::span(rows).subspan(task * counts_layout.row_size(), counts_layout.row_size()),
            field++);
      }
    }
  }
  for (std::size_t r = 0; r < specs.size(); ++r) {
    if (specs[r].kind == ReductionKind::histogram) {
      const auto bins = root.open_dataset("exhaustive/histograms/" + specs[r].name)
                            .read_all_as<std::int64_t>(h5::Datatype::int64());
      const auto width = specs[r].bins + 2;
      for (std::uint64_t task = 0; task < task_count; ++task) {
        std::copy_n(
            bins.begin() + static_cast<std::ptrdiff_t>(task * width), width,
            values.begin() + static_cast<std::ptrdiff_t>(task * slots.per_task + slots.offset[r]));
      }
    }
    if (specs[r].kind == ReductionKind::top_k) {
      const auto layout = top_layout(specs[r]);
      const auto tagged = RecordLayout::concat({int_field("task", "")}, layout.fields());
      std::vector<std::byte> rows(task_count * specs[r].k * layout.row_size());
      root.open_dataset("exhaustive/top/" + specs[r].name)
          .read_all(compound_type(layout), rows.data());
      std::vector<std::byte> entries;
      for (std::size_t i = 0; i < task_count * specs[r].k; ++i) {
        const auto row = std::span(rows).subspan(i * layout.row_size(), layout.row_size());
        if (layout.get_int(row, 1) < 0) continue;  // a missing entry: index -1
        auto record = layout.unpack(row);
        record.insert(record.begin(), static_cast<std::int64_t>(i / specs[r].k));
        entries.resize(entries.size() + tagged.row_size());
        tagged.pack(record, std::span(entries).last(tagged.row_size()), kernel.name);
      }
      segment.put_bytes(key::top(specs[r]), std::move(entries));
    }
  }
  std::vector<std::int64_t> slot_tasks(task_count);
  std::iota(slot_tasks.begin(), slot_tasks.end(), std::int64_t{0});
  segment.put_ints(key::slot_tasks, std::move(slot_tasks));
  segment.put_ints(key::slots, std::move(values));

  // Solutions are stored in chunk order; each row's chunk follows from (task, index).
  const auto solution_layout =
      RecordLayout::concat({int_field("task", "task id"), int_field("index", "index visited")},
                           capability.solution_fields);
  const auto solutions = root.open_dataset("exhaustive/solutions");
  std::vector<std::byte> solution_rows(static_cast<std::size_t>(solutions.element_count()) *
                                       solution_layout.row_size());
  solutions.read_all(compound_type(solution_layout), solution_rows.data());
  std::vector<std::int64_t> solution_chunks;
  for (std::size_t offset = 0; offset < solution_rows.size();
       offset += solution_layout.row_size()) {
    const auto row = std::span(solution_rows).subspan(offset, solution_layout.row_size());
    const auto task = static_cast<std::uint64_t>(solution_layout.get_int(row, 0));
    const auto index = static_cast<std::uint64_t>(solution_layout.get_int(row, 1));
    if (task >= task_count || index < ranges[task].begin || index >= ranges[task].end) {
      throw CheckpointError(file.path() + ": a solution row names task " + std::to_string(task) +
                            ", index " + std::to_string(index) + " outside the run");
    }
    const auto chunk = static_cast<std::int64_t>(ranges[task].first_chunk +
                                                 (index - ranges[task].begin) / ranges[task].chunk);
    if (solution_chunks.empty() || solution_chunks[solution_chunks.size() - 2] != chunk) {
      solution_chunks.push_back(chunk);
      solution_chunks.push_back(0);
    }
    ++solution_chunks.back();
  }
  segment.put_ints(key::solution_chunks, std::move(solution_chunks));
  segment.put_bytes(key::solutions, std::move(solution_rows));

  const auto finished = read_finished_tasks(file);
  const auto task_layout = TaskLog::layout();
  const auto wall = task_layout.index_of("wall_time");
  std::vector<std::int64_t> micros;
  for (std::size_t i = 0; i < finished.ids.size(); ++i) {
    micros.push_back(finished.ids[i]);
    micros.push_back(static_cast<std::int64_t>(
        task_layout.get_real(
            std::span(finished.rows).subspan(i * task_layout.row_size(), task_layout.row_size()),
            wall) *
        1e6));
  }
  segment.put_ints(key::task_micros, std::move(micros));
  return segment;
}

}  // namespace levelforge

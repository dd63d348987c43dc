// The `exhaustive` driver. The index space of every task is cut into chunks that ranks
// pull dynamically; each rank reduces locally, and the reductions are merged with
// collectives at the end. Solution records keep the order of their chunks, so the
// solutions dataset is ordered by (task, index) however the chunks were scheduled.

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <numeric>

#include "runner/drivers/driver_context.hpp"
#include "runner/engine/driver_specs.hpp"

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

class ExhaustiveRun {
 public:
  explicit ExhaustiveRun(DriverContext& context)
      : context_(context),
        experiment_(context.experiment),
        capability_(*context.kernel.exhaustive),
        task_count_(experiment_.task_count()),
        slots_(capability_.reductions),
        solution_layout_(RecordLayout::concat(
            {int_field("task", "task id"), int_field("index", "index visited")},
            capability_.solution_fields)) {
    for (const auto& point : experiment_.points) models_.push_back(capability_.make(point.params));
    ranges_ = plan_ranges(experiment_, models_);
    for (const auto& range : ranges_) units_total_ += range.end - range.begin;
    task_seconds_.assign(task_count_, 0.0);
    chunk_total_ = ranges_.empty()
                       ? 0
                       : ranges_.back().first_chunk + (ranges_.back().end - ranges_.back().begin +
                                                       ranges_.back().chunk - 1) /
                                                          ranges_.back().chunk;
  }

  void run() {
    WorkQueue queue(context_.comm, chunk_total_, context_.idle);
    for (auto chunk = queue.next(); chunk < chunk_total_; chunk = queue.next()) {
      const auto started = std::chrono::steady_clock::now();
      const auto visited = visit_chunk(chunk);
      task_seconds_[task_of(chunk)] +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      context_.work_units += visited;
      queue.finished(1, visited);
      context_.poll_progress(queue, units_total_);
    }
    log_tasks();
    std::vector<std::int64_t> merged = merge_integers();
    auto solution_offsets = merge_solution_counts();
    auto tops = merge_tops();
    context_.finish_progress(queue);
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

  // A task's chunks ran on several ranks: its wall time is their sum, and the rank that
  // writes its other per-task rows records it.
  void log_tasks() {
    {
      const auto timer = context_.idle.measure();
      context_.comm.all_reduce_sum(task_seconds_);
    }
    for (auto task : owned_tasks(task_count_, context_.comm)) {
      context_.tasks.add(experiment_, task, task_seconds_[task], context_.comm.rank());
    }
  }

  std::uint64_t visit_chunk(std::uint64_t chunk) {
    const auto task = task_of(chunk);
    const auto& range = ranges_[task];
    const auto begin = range.begin + (chunk - range.first_chunk) * range.chunk;
    const auto end = std::min(range.end, begin + range.chunk);
    auto& reductions = reductions_of(task);
    const auto point = task / static_cast<std::uint64_t>(experiment_.replicates);
    models_[point]->visit(begin, end, reductions);

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
    return end - begin;
  }

  std::vector<std::int64_t> merge_integers() {
    std::vector<std::int64_t> merged(task_count_ * slots_.per_task, 0);
    const auto& specs = capability_.reductions;
    for (auto& [task, reductions] : reductions_) {
      auto* slots = merged.data() + task * slots_.per_task;
      for (std::size_t r = 0; r < specs.size(); ++r) {
        if (specs[r].kind == ReductionKind::count)
          slots[slots_.offset[r]] += reductions.counts()[r];
        if (specs[r].kind == ReductionKind::histogram) {
          const auto& bins = reductions.histograms()[r];
          std::copy(bins.begin(), bins.end(), slots + slots_.offset[r]);
        }
      }
    }
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
      const auto layout =
          RecordLayout::concat({int_field("task", "")}, top_layout(specs[r]).fields());
      std::vector<std::byte> local;
      for (auto& [task, reductions] : reductions_) {
        for (const auto& entry : reductions.tops()[r]) {
          Record row{static_cast<std::int64_t>(task), entry.score,
                     static_cast<std::int64_t>(entry.index)};
          row.insert(row.end(), entry.record.begin(), entry.record.end());
          local.resize(local.size() + layout.row_size());
          layout.pack(row, std::span(local).last(layout.row_size()), context_.kernel.name);
        }
      }
      std::vector<std::byte> gathered;
      {
        const auto timer = context_.idle.measure();
        gathered = context_.comm.all_gather_bytes(local);
      }
      tables[r] = select_tops(specs[r], layout, gathered);
    }
    return tables;
  }

  // Rows [task, k] of the final table, padded with missing entries.
  std::vector<std::byte> select_tops(const ReductionSpec& spec, const RecordLayout& gathered_layout,
                                     std::span<const std::byte> gathered) const {
    std::vector<std::vector<TopEntry>> per_task(task_count_);
    for (std::size_t offset = 0; offset < gathered.size(); offset += gathered_layout.row_size()) {
      auto row = gathered_layout.unpack(gathered.subspan(offset, gathered_layout.row_size()));
      const auto task = static_cast<std::size_t>(std::get<std::int64_t>(row[0]));
      TopEntry entry{std::get<double>(row[1]),
                     static_cast<std::uint64_t>(std::get<std::int64_t>(row[2])),
                     Record(row.begin() + 3, row.end())};
      per_task[task].push_back(std::move(entry));
    }
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
    const RecordLayout layout({int_field("begin", "first index visited"),
                               int_field("end", "one past the last index visited"),
                               int_field("chunk", "indices per chunk")});
    const auto owned = owned_tasks(task_count_, context_.comm);
    std::vector<std::byte> rows(owned.size() * layout.row_size());
    for (std::size_t i = 0; i < owned.size(); ++i) {
      const auto& range = ranges_[owned[i]];
      layout.pack({static_cast<std::int64_t>(range.begin), static_cast<std::int64_t>(range.end),
                   static_cast<std::int64_t>(range.chunk)},
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
  std::uint64_t task_count_;
  SlotMap slots_;
  RecordLayout solution_layout_;
  std::vector<std::unique_ptr<ExhaustiveModel>> models_;
  std::vector<TaskRange> ranges_;
  std::uint64_t units_total_ = 0;
  std::uint64_t chunk_total_ = 0;
  std::vector<double> task_seconds_;
  std::map<std::uint64_t, Reductions> reductions_;
  std::vector<std::byte> solution_rows_;
  std::vector<std::pair<std::uint64_t, std::size_t>> solution_chunks_;
};

}  // namespace

void run_exhaustive_driver(DriverContext& context) { ExhaustiveRun(context).run(); }

}  // namespace levelforge

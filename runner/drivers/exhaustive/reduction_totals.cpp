#include "runner/drivers/exhaustive/reduction_totals.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "runner/checkpoint/checkpoint_store.hpp"

namespace levelforge {

namespace {

namespace key {
constexpr const char* slot_tasks = "slot_tasks";  // tasks whose reductions a segment holds
constexpr const char* slots = "slots";            // their counts and histogram bins
std::string top(const ReductionSpec& spec) { return "top." + spec.name; }
}  // namespace key

}  // namespace

SlotMap::SlotMap(const std::vector<ReductionSpec>& specs) {
  for (const auto& spec : specs) {
    offset.push_back(per_task);
    if (spec.kind == ReductionKind::count) per_task += 1;
    if (spec.kind == ReductionKind::histogram) per_task += spec.bins + 2;
  }
}

std::vector<std::byte> merge_top_rows(const RecordLayout& layout, std::size_t k,
                                      std::span<const std::byte> a, std::span<const std::byte> b) {
  const auto size = layout.row_size();
  if (a.size() % size != 0 || b.size() % size != 0)
    throw std::logic_error("merge_top_rows: a pack of top-k rows that are not whole rows");
  // (task, rank) order: the smaller task first, then ranks_before.
  const auto before = [&](std::span<const std::byte> x, std::span<const std::byte> y) {
    const auto x_task = layout.get_int(x, 0);
    const auto y_task = layout.get_int(y, 0);
    if (x_task != y_task) return x_task < y_task;
    return ranks_before(
        {layout.get_real(x, 1), static_cast<std::uint64_t>(layout.get_int(x, 2)), {}},
        {layout.get_real(y, 1), static_cast<std::uint64_t>(layout.get_int(y, 2)), {}});
  };
  std::vector<std::byte> merged;
  merged.reserve(a.size() + b.size());
  std::int64_t task = -1;
  std::size_t kept = 0;  // rows of `task` in `merged`
  while (!a.empty() || !b.empty()) {
    auto& from = b.empty() || (!a.empty() && before(a.first(size), b.first(size))) ? a : b;
    const auto row = from.first(size);
    from = from.subspan(size);
    const auto row_task = layout.get_int(row, 0);
    if (row_task != task) {
      task = row_task;
      kept = 0;
    }
    if (kept++ < k) merged.insert(merged.end(), row.begin(), row.end());
  }
  return merged;
}

RecordLayout top_layout(const ReductionSpec& spec) {
  return RecordLayout::concat({real_field("score", "the score ranked by (higher first)"),
                               int_field("index", "index visited (ties: smaller first)")},
                              spec.fields);
}

ReductionTotals::ReductionTotals(const std::vector<ReductionSpec>& specs)
    : specs_(&specs), slots_(specs) {}

const TaskTotals* ReductionTotals::find(std::uint64_t task) const {
  const auto found = tasks_.find(task);
  return found == tasks_.end() ? nullptr : &found->second;
}

TaskTotals& ReductionTotals::at(std::uint64_t task) {
  auto found = tasks_.find(task);
  if (found == tasks_.end()) {
    TaskTotals zero{std::vector<std::int64_t>(slots_.per_task, 0),
                    std::vector<std::vector<TopEntry>>(specs_->size())};
    found = tasks_.emplace(task, std::move(zero)).first;
  }
  return found->second;
}

void ReductionTotals::add(std::uint64_t task, Reductions& reductions) {
  const auto& specs = *specs_;
  auto& totals = at(task);
  for (std::size_t r = 0; r < specs.size(); ++r) {
    const auto slot = totals.integers.begin() + static_cast<std::ptrdiff_t>(slots_.offset[r]);
    if (specs[r].kind == ReductionKind::count) *slot += reductions.counts()[r];
    if (specs[r].kind == ReductionKind::histogram) {
      const auto& bins = reductions.histograms()[r];
      std::transform(bins.begin(), bins.end(), slot, slot, std::plus<>());
    }
    if (specs[r].kind == ReductionKind::top_k) add_top(r, task, reductions.take_sorted_top(r));
  }
}

void ReductionTotals::add(ReductionTotals&& other) {
  for (auto& [task, theirs] : other.tasks_) {
    auto& ours = at(task);
    std::transform(theirs.integers.begin(), theirs.integers.end(), ours.integers.begin(),
                   ours.integers.begin(), std::plus<>());
    for (std::size_t r = 0; r < theirs.tops.size(); ++r) {
      if (!theirs.tops[r].empty()) add_top(r, task, std::move(theirs.tops[r]));
    }
  }
}

void ReductionTotals::add_top(std::size_t r, std::uint64_t task, std::vector<TopEntry> entries) {
  auto& kept = at(task).tops[r];
  kept.insert(kept.end(), std::make_move_iterator(entries.begin()),
              std::make_move_iterator(entries.end()));
  std::sort(kept.begin(), kept.end(), ranks_before);
  if (kept.size() > (*specs_)[r].k) kept.resize((*specs_)[r].k);
}

RecordLayout ReductionTotals::tagged_top_layout(std::size_t r) const {
  const auto& spec = (*specs_)[r];
  auto fields = top_layout(spec).fields();
  if (spec.records_on_request) fields.resize(2);  // score and index: the writer builds records
  return RecordLayout::concat({int_field("task", "")}, fields);
}

std::vector<std::byte> ReductionTotals::pack_tops(std::size_t r) const {
  const auto layout = tagged_top_layout(r);
  const RecordLayout fields((*specs_)[r].fields);
  const bool with_records = !(*specs_)[r].records_on_request;
  const auto size = layout.row_size();
  const auto context = "top-k table " + (*specs_)[r].name;
  std::size_t entries = 0;
  for (const auto& [task, totals] : tasks_) entries += totals.tops[r].size();
  std::vector<std::byte> rows;
  rows.reserve(entries * size);  // grown row by row, each growth faulted fresh pages in
  for (const auto& [task, totals] : tasks_) {
    for (const auto& entry : totals.tops[r]) {
      rows.resize(rows.size() + size);
      const auto row = std::span(rows).last(size);
      layout.set_int(row, 0, static_cast<std::int64_t>(task));
      layout.set_real(row, 1, entry.score);
      layout.set_int(row, 2, static_cast<std::int64_t>(entry.index));
      if (with_records) fields.pack(entry.record, row.subspan(size - fields.row_size()), context);
    }
  }
  return rows;
}

void ReductionTotals::absorb_tops(std::size_t r, std::span<const std::byte> rows,
                                  std::uint64_t task_count) {
  const auto layout = tagged_top_layout(r);
  if (rows.size() % layout.row_size() != 0) {
    throw CheckpointError("saved top-k rows of '" + (*specs_)[r].name + "' are not whole rows");
  }
  std::map<std::uint64_t, std::vector<TopEntry>> entries;
  for (std::size_t offset = 0; offset < rows.size(); offset += layout.row_size()) {
    auto row = layout.unpack(rows.subspan(offset, layout.row_size()));
    const auto task = std::get<std::int64_t>(row[0]);
    if (task < 0 || static_cast<std::uint64_t>(task) >= task_count)
      throw CheckpointError("saved top-k rows name an unknown task");
    entries[static_cast<std::uint64_t>(task)].push_back(
        {std::get<double>(row[1]), static_cast<std::uint64_t>(std::get<std::int64_t>(row[2])),
         Record(row.begin() + 3, row.end())});
  }
  for (auto& [task, task_entries] : entries) add_top(r, task, std::move(task_entries));
}

void ReductionTotals::save_into(Segment& segment) const {
  std::vector<std::int64_t> slot_tasks;
  std::vector<std::int64_t> slots;
  for (const auto& [task, totals] : tasks_) {
    slot_tasks.push_back(static_cast<std::int64_t>(task));
    slots.insert(slots.end(), totals.integers.begin(), totals.integers.end());
  }
  segment.put_ints(key::slot_tasks, std::move(slot_tasks));
  segment.put_ints(key::slots, std::move(slots));
  for (std::size_t r = 0; r < specs_->size(); ++r) {
    if ((*specs_)[r].kind == ReductionKind::top_k)
      segment.put_bytes(key::top((*specs_)[r]), pack_tops(r));
  }
}

void ReductionTotals::absorb(const Segment& segment, std::uint64_t task_count) {
  const auto slot_tasks = segment.ints(key::slot_tasks);
  const auto slots = segment.ints(key::slots);
  if (slots.size() != slot_tasks.size() * slots_.per_task) {
    throw CheckpointError("saved reductions do not match their task list");
  }
  for (std::size_t i = 0; i < slot_tasks.size(); ++i) {
    if (slot_tasks[i] < 0 || static_cast<std::uint64_t>(slot_tasks[i]) >= task_count)
      throw CheckpointError("saved reductions name an unknown task");
    auto& integers = at(static_cast<std::uint64_t>(slot_tasks[i])).integers;
    const auto first = slots.begin() + static_cast<std::ptrdiff_t>(i * slots_.per_task);
    std::transform(integers.begin(), integers.end(), first, integers.begin(), std::plus<>());
  }
  for (std::size_t r = 0; r < specs_->size(); ++r) {
    if ((*specs_)[r].kind == ReductionKind::top_k)
      absorb_tops(r, segment.bytes(key::top((*specs_)[r])), task_count);
  }
}

MergedTotals ReductionTotals::merged(const mpi::Comm& comm, std::uint64_t task_count,
                                     IdleClock& idle) const {
  MergedTotals all;
  all.per_task_ = slots_.per_task;
  all.integers_.assign(task_count * slots_.per_task, 0);
  for (const auto& [task, totals] : tasks_) {
    std::copy(totals.integers.begin(), totals.integers.end(),
              all.integers_.begin() + static_cast<std::ptrdiff_t>(task * slots_.per_task));
  }
  all.tops_.resize(specs_->size());
  {
    const auto timer = idle.measure();
    comm.all_reduce_sum(all.integers_);
    // k rows per task in every message, log2 P steps: no rank holds P x k rows.
    for (std::size_t r = 0; r < specs_->size(); ++r) {
      if ((*specs_)[r].kind != ReductionKind::top_k) continue;
      const auto layout = tagged_top_layout(r);
      all.tops_[r].rows = comm.tree_reduce_bytes(
          pack_tops(r), [&](std::vector<std::byte> own, std::span<const std::byte> received) {
            return merge_top_rows(layout, (*specs_)[r].k, own, received);
          });
      all.tops_[r].row_size = layout.row_size();
    }
  }
  for (auto& top : all.tops_) {
    if (top.row_size == 0) continue;
    // The rows come task by task: each task's first row is where a larger task starts.
    const auto rows = top.rows.size() / top.row_size;
    top.starts.assign(task_count + 1, rows);
    for (std::size_t i = rows; i-- > 0;) {
      std::int64_t task = 0;
      std::memcpy(&task, top.rows.data() + i * top.row_size, sizeof task);
      if (task < 0 || static_cast<std::uint64_t>(task) >= task_count)
        throw std::logic_error(
            fmt::format("merged top-k rows name task {} of {}", task, task_count));
      top.starts[static_cast<std::size_t>(task)] = i;
    }
    for (std::size_t task = task_count; task-- > 0;)
      top.starts[task] = std::min(top.starts[task], top.starts[task + 1]);
  }
  return all;
}

std::span<const std::int64_t> MergedTotals::integers(std::uint64_t task) const {
  return std::span(integers_).subspan(task * per_task_, per_task_);
}

std::size_t MergedTotals::top_count(std::size_t r, std::uint64_t task) const {
  const auto& top = tops_.at(r);
  return top.starts.at(task + 1) - top.starts.at(task);
}

std::span<const std::byte> MergedTotals::top_row(std::size_t r, std::uint64_t task,
                                                 std::size_t i) const {
  const auto& top = tops_.at(r);
  const auto row = top.starts.at(task) + i;
  // The task column, an int64, comes first.
  return std::span(top.rows).subspan(row * top.row_size + sizeof(std::int64_t),
                                     top.row_size - sizeof(std::int64_t));
}

}  // namespace levelforge

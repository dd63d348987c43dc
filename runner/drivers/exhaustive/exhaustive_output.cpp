#include "runner/drivers/exhaustive/exhaustive_output.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/output/compound.hpp"

namespace levelforge {

namespace {

namespace key {
constexpr const char* solutions = "solutions";
constexpr const char* solution_chunks = "solution_chunks";  // (chunk, rows) pairs
}  // namespace key

std::vector<FieldSpec> count_fields(const std::vector<ReductionSpec>& specs) {
  std::vector<FieldSpec> fields;
  for (const auto& spec : specs) {
    if (spec.kind == ReductionKind::count) fields.push_back(int_field(spec.name, spec.doc));
  }
  return fields;
}

ExhaustiveDataset ranges_dataset() {
  const RecordLayout layout(
      {int_field("begin", "first index visited"),
       int_field("end", "one past the last index visited"), int_field("chunk", "indices per chunk"),
       int_field("uncovered",
                 "indices of [begin, end) the reductions miss: chunks that failed, listed in "
                 "/failures (on_error: record)")});
  return {task_table("exhaustive/ranges", layout, {}),
          [layout](const ExhaustiveResults& results, std::uint64_t task, std::span<std::byte> row) {
            const auto& range = results.plan.range(task);
            layout.pack(
                {static_cast<std::int64_t>(range.begin), static_cast<std::int64_t>(range.end),
                 static_cast<std::int64_t>(range.chunk),
                 static_cast<std::int64_t>(results.uncovered[task])},
                row, "ranges");
          },
          {}};
}

// The counts of a task are int64 fields, packed without padding as its integers are.
ExhaustiveDataset counts_dataset(const std::vector<ReductionSpec>& specs) {
  const SlotMap slots(specs);
  std::vector<std::size_t> offsets;
  for (std::size_t r = 0; r < specs.size(); ++r) {
    if (specs[r].kind == ReductionKind::count) offsets.push_back(slots.offset[r]);
  }
  return {
      task_table("exhaustive/counts", RecordLayout(count_fields(specs)), {}),
      [offsets](const ExhaustiveResults& results, std::uint64_t task, std::span<std::byte> row) {
        const auto integers = results.totals.integers(task);
        for (std::size_t i = 0; i < offsets.size(); ++i) {
          const auto value = integers[offsets[i]];
          std::memcpy(row.data() + i * sizeof value, &value, sizeof value);
        }
      },
      [offsets](std::span<const std::byte> row, std::uint64_t task, ReductionTotals& totals) {
        auto& integers = totals.at(task).integers;
        for (std::size_t i = 0; i < offsets.size(); ++i) {
          std::int64_t value = 0;
          std::memcpy(&value, row.data() + i * sizeof value, sizeof value);
          integers[offsets[i]] += value;
        }
      }};
}

ExhaustiveDataset histogram_dataset(const ReductionSpec& spec, std::size_t offset) {
  const auto width = spec.bins + 2;
  auto dataset = task_int64_array("exhaustive/histograms/" + spec.name, {width});
  dataset.attributes = {{"low", spec.low},
                        {"high", spec.high},
                        {"bins", static_cast<std::int64_t>(spec.bins)},
                        {"doc", spec.doc}};
  return {std::move(dataset),
          [offset, width](const ExhaustiveResults& results, std::uint64_t task,
                          std::span<std::byte> block) {
            const auto bins = results.totals.integers(task).subspan(offset, width);
            std::memcpy(block.data(), bins.data(), bins.size_bytes());
          },
          [offset, width](std::span<const std::byte> block, std::uint64_t task,
                          ReductionTotals& totals) {
            auto bins = std::span(totals.at(task).integers).subspan(offset, width);
            for (std::size_t b = 0; b < width; ++b) {
              std::int64_t value = 0;
              std::memcpy(&value, block.data() + b * sizeof value, sizeof value);
              bins[b] += value;
            }
          }};
}

ExhaustiveDataset top_dataset(const ReductionSpec& spec, std::size_t r) {
  const auto layout = top_layout(spec);
  auto dataset = task_table("exhaustive/top/" + spec.name, layout, {spec.k});
  dataset.attributes = {{"doc", spec.doc}};
  // The merged rows are whole rows, or their score and index where the kernel builds the
  // records of the entries kept: only the rank that writes a task's rows builds its records.
  return {
      std::move(dataset),
      [r, layout, fields = RecordLayout(spec.fields), on_request = spec.records_on_request,
       context = "top-k table " + spec.name](const ExhaustiveResults& results, std::uint64_t task,
                                             std::span<std::byte> block) {
        for (std::size_t i = 0; i < results.totals.top_count(r, task); ++i) {
          const auto merged = results.totals.top_row(r, task, i);
          const auto row = block.subspan(i * layout.row_size(), layout.row_size());
          std::memcpy(row.data(), merged.data(), merged.size());
          if (!on_request) continue;
          const auto index = static_cast<std::uint64_t>(layout.get_int(row, 1));
          fields.pack(results.model_of(task).top_record(r, index), row.subspan(merged.size()),
                      context);
        }
      },
      [layout, r](std::span<const std::byte> block, std::uint64_t task, ReductionTotals& totals) {
        std::vector<TopEntry> entries;
        for (std::size_t offset = 0; offset < block.size(); offset += layout.row_size()) {
          const auto row = block.subspan(offset, layout.row_size());
          if (layout.get_int(row, 1) < 0) continue;  // a missing entry: index -1
          auto record = layout.unpack(row);
          entries.push_back({std::get<double>(record[0]),
                             static_cast<std::uint64_t>(std::get<std::int64_t>(record[1])),
                             Record(record.begin() + 2, record.end())});
        }
        totals.add_top(r, task, std::move(entries));
      }};
}

std::vector<TaskDataset> declarations(const std::vector<ExhaustiveDataset>& datasets) {
  std::vector<TaskDataset> declared;
  declared.reserve(datasets.size());
  for (const auto& dataset : datasets) declared.push_back(dataset.dataset);
  return declared;
}

}  // namespace

std::vector<ExhaustiveDataset> exhaustive_datasets(const ExhaustiveSpec::Binding& capability) {
  const auto& specs = capability.reductions;
  std::vector<ExhaustiveDataset> datasets{ranges_dataset()};
  if (!count_fields(specs).empty()) datasets.push_back(counts_dataset(specs));
  const SlotMap slots(specs);
  for (std::size_t r = 0; r < specs.size(); ++r) {
    if (specs[r].kind == ReductionKind::histogram)
      datasets.push_back(histogram_dataset(specs[r], slots.offset[r]));
  }
  for (std::size_t r = 0; r < specs.size(); ++r) {
    if (specs[r].kind == ReductionKind::top_k) datasets.push_back(top_dataset(specs[r], r));
  }
  return datasets;
}

std::vector<std::uint64_t> rank_tasks(std::uint64_t task_count, const mpi::Comm& comm) {
  std::vector<std::uint64_t> tasks;
  for (auto task = static_cast<std::uint64_t>(comm.rank()); task < task_count;
       task += static_cast<std::uint64_t>(comm.size())) {
    tasks.push_back(task);
  }
  return tasks;
}

void write_task_datasets(ResultFile& file, const std::vector<ExhaustiveDataset>& datasets,
                         const ExhaustiveResults& results, const mpi::Comm& comm) {
  TaskBlocks blocks(declarations(datasets));
  for (const auto task : rank_tasks(results.plan.task_count(), comm)) {
    const auto added = blocks.add(task);
    for (std::size_t d = 0; d < datasets.size(); ++d) datasets[d].fill(results, task, added[d]);
  }
  blocks.write(file, results.plan.task_count());
}

void read_task_datasets(const h5::File& file, const std::vector<ExhaustiveDataset>& datasets,
                        std::uint64_t task_count, ReductionTotals& totals) {
  std::vector<ExhaustiveDataset> stored;
  std::copy_if(datasets.begin(), datasets.end(), std::back_inserter(stored),
               [](const ExhaustiveDataset& dataset) { return bool(dataset.read_back); });
  std::vector<std::int64_t> tasks(task_count);
  std::iota(tasks.begin(), tasks.end(), std::int64_t{0});
  const auto blocks = TaskBlocks(declarations(stored)).read_blocks(file, task_count, tasks);
  for (std::size_t d = 0; d < stored.size(); ++d) {
    const auto size = stored[d].dataset.block_bytes();
    for (std::uint64_t task = 0; task < task_count; ++task)
      stored[d].read_back(std::span(blocks[d]).subspan(task * size, size), task, totals);
  }
}

SolutionStore::SolutionStore(const ExhaustiveSpec::Binding& capability)
    : layout_(
          RecordLayout::concat({int_field("task", "task id"), int_field("index", "index visited")},
                               capability.solutions.fields())) {}

namespace {
// Rows have no padding: the kernel's fields follow task and index as they would alone.
constexpr std::size_t task_and_index = 2 * sizeof(std::int64_t);
}  // namespace

void SolutionStore::receive_from(Reductions& reductions) {
  reductions.write_solutions_into(rows_, task_and_index);
}

void SolutionStore::add(std::uint64_t chunk, std::uint64_t task, Reductions& found) {
  const auto count = found.solution_count();
  const auto size = layout_.row_size();
  const auto in_place = found.writes_into(rows_);
  const auto added = in_place ? rows_.bytes().last(count * size) : rows_.extend(count * size);
  const auto kernel_rows = found.solution_rows();
  for (std::size_t i = 0; i < count; ++i) {
    const auto row = added.subspan(i * size, size);
    layout_.set_int(row, 0, static_cast<std::int64_t>(task));
    layout_.set_int(row, 1, static_cast<std::int64_t>(found.solution_index(i)));
    if (!in_place) {
      const auto kernel_size = size - task_and_index;
      std::memcpy(row.data() + task_and_index, kernel_rows.data() + i * kernel_size, kernel_size);
    }
  }
  if (count > 0) chunks_.emplace_back(chunk, count);
  if (in_place) {
    found.release_solutions();
  } else {
    found.clear_solutions();
  }
}

void SolutionStore::save_new(Segment& segment) {
  std::vector<std::int64_t> chunks;
  for (auto i = saved_chunks_; i < chunks_.size(); ++i) {
    chunks.push_back(static_cast<std::int64_t>(chunks_[i].first));
    chunks.push_back(static_cast<std::int64_t>(chunks_[i].second));
  }
  segment.put_ints(key::solution_chunks, std::move(chunks));
  const auto unsaved = rows_.bytes().subspan(saved_bytes_);
  segment.put_bytes(key::solutions, {unsaved.begin(), unsaved.end()});
  saved_chunks_ = chunks_.size();
  saved_bytes_ = rows_.size();
}

void SolutionStore::absorb(const Segment& segment) {
  const auto chunks = segment.ints(key::solution_chunks);
  const auto solutions = segment.bytes(key::solutions);
  std::size_t rows = 0;
  for (std::size_t i = 0; i + 1 < chunks.size(); i += 2) {
    chunks_.emplace_back(static_cast<std::uint64_t>(chunks[i]),
                         static_cast<std::size_t>(chunks[i + 1]));
    rows += static_cast<std::size_t>(chunks[i + 1]);
  }
  if (solutions.size() != rows * layout_.row_size()) {
    throw CheckpointError("saved solutions do not match their chunk list");
  }
  rows_.append(solutions);
  saved_chunks_ = chunks_.size();
  saved_bytes_ = rows_.size();
}

namespace {

// Chunks [first_chunk(q), first_chunk(q + 1)) are rank q's to count.
std::uint64_t first_chunk(std::uint64_t chunk_count, std::uint64_t rank, std::uint64_t ranks) {
  return chunk_count * rank / ranks;
}

int counting_rank(std::uint64_t chunk, std::uint64_t chunk_count, std::uint64_t ranks) {
  auto rank = chunk * ranks / chunk_count;
  while (rank + 1 < ranks && first_chunk(chunk_count, rank + 1, ranks) <= chunk) ++rank;
  while (rank > 0 && first_chunk(chunk_count, rank, ranks) > chunk) --rank;
  return static_cast<int>(rank);
}

std::vector<std::byte> as_bytes(const std::vector<std::int64_t>& values) {
  const auto bytes = std::as_bytes(std::span(values));
  return {bytes.begin(), bytes.end()};
}

std::vector<std::int64_t> as_ints(const std::vector<std::byte>& bytes) {
  std::vector<std::int64_t> values(bytes.size() / sizeof(std::int64_t));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(std::int64_t));
  return values;
}

}  // namespace

SolutionOffsets SolutionStore::offsets(std::uint64_t chunk_count, const mpi::Comm& comm) const {
  // Each rank counts a contiguous block of chunks: the ranks that visited them send it
  // (chunk, count) pairs, it scans its block, a scan over ranks places the blocks, and the
  // first row of each chunk goes back to the rank that holds its solutions. Memory and
  // messages grow with the chunks a rank visited or counts, not with all chunks or ranks.
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  std::map<int, std::vector<std::int64_t>> pairs;
  for (const auto& [chunk, count] : chunks_) {
    auto& to = pairs[counting_rank(chunk, chunk_count, ranks)];
    to.push_back(static_cast<std::int64_t>(chunk));
    to.push_back(static_cast<std::int64_t>(count));
  }
  std::vector<mpi::Comm::Message> requests;
  requests.reserve(pairs.size());
  for (const auto& [rank, values] : pairs) requests.emplace_back(rank, as_bytes(values));
  // (source, its (chunk, count) pairs), decoded once.
  std::vector<std::pair<int, std::vector<std::int64_t>>> received;
  for (const auto& [source, bytes] : comm.sparse_exchange(requests))
    received.emplace_back(source, as_ints(bytes));

  const auto me = static_cast<std::uint64_t>(comm.rank());
  const auto first = first_chunk(chunk_count, me, ranks);
  std::vector<std::int64_t> block(first_chunk(chunk_count, me + 1, ranks) - first, 0);
  for (const auto& [source, values] : received) {
    for (std::size_t i = 0; i + 1 < values.size(); i += 2)
      block[static_cast<std::uint64_t>(values[i]) - first] = values[i + 1];
  }
  const auto block_rows = std::accumulate(block.begin(), block.end(), std::int64_t{0});
  std::exclusive_scan(block.begin(), block.end(), block.begin(), std::int64_t{0});
  const auto block_start = comm.exclusive_scan_sum(block_rows);
  std::vector<std::int64_t> total{block_rows};
  comm.all_reduce_sum(total);

  std::vector<mpi::Comm::Message> replies;
  replies.reserve(received.size());
  for (const auto& [source, values] : received) {
    std::vector<std::int64_t> starts;
    starts.reserve(values.size() / 2);
    for (std::size_t i = 0; i + 1 < values.size(); i += 2)
      starts.push_back(block_start + block[static_cast<std::uint64_t>(values[i]) - first]);
    replies.emplace_back(source, as_bytes(starts));
  }
  SolutionOffsets offsets{{}, static_cast<std::uint64_t>(total.front())};
  for (const auto& [rank, bytes] : comm.sparse_exchange(replies)) {
    const auto starts = as_ints(bytes);
    const auto& asked = pairs.at(rank);
    for (std::size_t i = 0; i < starts.size(); ++i)
      offsets.first_row[static_cast<std::uint64_t>(asked[2 * i])] =
          static_cast<std::uint64_t>(starts[i]);
  }
  return offsets;
}

void SolutionStore::write(ResultFile& file, std::uint64_t chunk_count, const mpi::Comm& comm,
                          IdleClock& idle) const {
  SolutionOffsets offsets;
  {
    const auto timer = idle.measure();
    offsets = this->offsets(chunk_count, comm);
  }
  std::vector<std::uint64_t> rows;
  rows.reserve(rows_.size() / layout_.row_size());
  for (const auto& [chunk, count] : chunks_) {
    const auto first = offsets.first_row.at(chunk);
    for (std::size_t i = 0; i < count; ++i) rows.push_back(first + i);
  }
  auto table = file.create_table("exhaustive/solutions", layout_,
                                 {static_cast<hsize_t>(offsets.total_rows)});
  file.write(table, rows, rows_.bytes());
}

void SolutionStore::read(const h5::File& file, const ChunkPlan& plan, Segment& segment) const {
  const auto solutions = file.root().open_dataset("exhaustive/solutions");
  std::vector<std::byte> rows(static_cast<std::size_t>(solutions.element_count()) *
                              layout_.row_size());
  solutions.read_all(compound_type(layout_), rows.data());
  // Solutions are stored in chunk order; each row's chunk follows from (task, index).
  std::vector<std::int64_t> chunks;
  for (std::size_t offset = 0; offset < rows.size(); offset += layout_.row_size()) {
    const auto row = std::span(rows).subspan(offset, layout_.row_size());
    const auto task = layout_.get_int(row, 0);
    const auto index = layout_.get_int(row, 1);
    if (task < 0 || static_cast<std::uint64_t>(task) >= plan.task_count() || index < 0 ||
        static_cast<std::uint64_t>(index) < plan.range(static_cast<std::uint64_t>(task)).begin ||
        static_cast<std::uint64_t>(index) >= plan.range(static_cast<std::uint64_t>(task)).end) {
      throw CheckpointError(file.path() + ": a solution row names task " + std::to_string(task) +
                            ", index " + std::to_string(index) + " outside the run");
    }
    const auto chunk = static_cast<std::int64_t>(
        plan.chunk_of(static_cast<std::uint64_t>(task), static_cast<std::uint64_t>(index)));
    if (chunks.empty() || chunks[chunks.size() - 2] != chunk) {
      chunks.push_back(chunk);
      chunks.push_back(0);
    }
    ++chunks.back();
  }
  segment.put_ints(key::solution_chunks, std::move(chunks));
  segment.put_bytes(key::solutions, std::move(rows));
}

}  // namespace levelforge

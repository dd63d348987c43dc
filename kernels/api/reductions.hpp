#pragma once
// What an exhaustive kernel's visit(index) contributes to: counters, histograms, top-K
// tables and solution records. Plain C++: the runner merges one of these per rank with
// MPI collectives, so every operation here is associative and order-independent.
// Solutions are kept as packed rows of the kernel's solution fields, the runner's own row
// layout: a kernel that finds many writes them in place (solution_row), so a solution costs
// no allocation.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/api/params.hpp"
#include "kernels/api/record.hpp"
#include "kernels/api/record_layout.hpp"
#include "kernels/api/row_buffer.hpp"

namespace levelforge {

enum class ReductionKind { count, histogram, top_k };

struct ReductionSpec {
  std::string name;
  ReductionKind kind;
  std::string doc;
  // histogram: `bins` equal bins over [low, high); values outside land in the first or
  // last of two extra bins (underflow, overflow).
  double low = 0;
  double high = 0;
  std::size_t bins = 0;
  // top_k: the k largest scores, ties broken by the smaller index.
  std::size_t k = 0;
  std::vector<FieldSpec> fields;  // the record kept with each top-k entry
  // top_k of a kernel that builds its records on request (TopRecordKernel), set by the
  // runner: entries travel as (score, index), and the writer builds the records it writes.
  bool records_on_request = false;
};

inline ReductionSpec count_reduction(std::string name, std::string doc) {
  return {std::move(name), ReductionKind::count, std::move(doc), 0, 0, 0, 0, {}};
}
inline ReductionSpec histogram_reduction(std::string name, double low, double high,
                                         std::size_t bins, std::string doc) {
  return {std::move(name), ReductionKind::histogram, std::move(doc), low, high, bins, 0, {}};
}
inline ReductionSpec top_k_reduction(std::string name, std::size_t k, std::vector<FieldSpec> fields,
                                     std::string doc) {
  return {std::move(name), ReductionKind::top_k, std::move(doc), 0, 0, 0, k, std::move(fields)};
}

struct TopEntry {
  double score;
  std::uint64_t index;
  Record record;
};

// Higher score first; equal scores by smaller index: a total order, so merges are exact.
inline bool ranks_before(const TopEntry& a, const TopEntry& b) {
  if (a.score != b.score) return a.score > b.score;
  return a.index < b.index;
}

class Reductions {
 public:
  // Throws KernelError for a histogram without bins or width, or a top-k with k = 0.
  // `solution_layout`, the kernel's solution fields, is needed once a solution is given.
  explicit Reductions(const std::vector<ReductionSpec>& specs,
                      const RecordLayout* solution_layout = nullptr)
      : specs_(&specs), solution_layout_(solution_layout) {
    for (const auto& spec : specs) {
      if (spec.kind == ReductionKind::histogram && (spec.bins == 0 || !(spec.high > spec.low))) {
        throw KernelError("reduction '" + spec.name +
                          "': a histogram needs bins > 0 and high > low");
      }
      if (spec.kind == ReductionKind::top_k && spec.k == 0) {
        throw KernelError("reduction '" + spec.name + "': a top-k table needs k > 0");
      }
    }
    counts_.assign(specs.size(), 0);
    histograms_.resize(specs.size());
    tops_.resize(specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) {
      if (specs[i].kind == ReductionKind::histogram) histograms_[i].assign(specs[i].bins + 2, 0);
    }
  }

  // The runner sets the index being visited so that top-k entries and solutions carry it.
  void begin_index(std::uint64_t index) { index_ = index; }

  void count(std::size_t id, std::int64_t amount = 1) { counts_[id] += amount; }

  // `weight` observations of `value` (kernels that tally a block of indices locally).
  void histogram(std::size_t id, double value, std::int64_t weight = 1) {
    const auto& spec = (*specs_)[id];
    auto& bins = histograms_[id];
    std::size_t bin = 0;
    if (value >= spec.high || std::isnan(value)) {
      bin = spec.bins + 1;
    } else if (value >= spec.low) {
      const double width = (spec.high - spec.low) / static_cast<double>(spec.bins);
      bin = 1 + std::min(spec.bins - 1, static_cast<std::size_t>((value - spec.low) / width));
    }
    bins[bin] += weight;
  }

  // make_record is called only when the entry enters the table; true when it does.
  template <class MakeRecord>
  bool offer_top(std::size_t id, double score, MakeRecord&& make_record) {
    if (!enters_top(id, score)) return false;
    keep_top(id, {score, index_, std::forward<MakeRecord>(make_record)()});
    return true;
  }
  // The same without the record, for a kernel that builds it on request (TopRecordKernel):
  // the entry's record stays empty until the runner fills it in for the entries it keeps.
  bool offer_top(std::size_t id, double score) {
    if (!enters_top(id, score)) return false;
    keep_top(id, {score, index_, {}});
    return true;
  }

  // counts[v] observations of each value v = 0, 1, ...: a kernel's local per-value tally of
  // a range of indices, added in one call.
  void histogram_counts(std::size_t id, std::span<const std::int64_t> counts) {
    for (std::size_t v = 0; v < counts.size(); ++v)
      if (counts[v] != 0) histogram(id, static_cast<double>(v), counts[v]);
  }

  // Scores below this cannot enter top-k table `id` any more (-infinity until it is full):
  // lets a kernel skip building candidates in its hot loop.
  [[nodiscard]] double top_floor(std::size_t id) const {
    const auto& table = tops_[id];
    return table.size() < (*specs_)[id].k ? -std::numeric_limits<double>::infinity()
                                          : table.front().score;
  }

  // A solution of the index being visited, as a record; throws KernelError for one that
  // does not match the solution fields.
  void solution(const Record& record) {
    const auto& layout = solution_layout();
    const auto row = add_solution_row();
    try {
      layout.pack(record, row, solution_context);
    } catch (...) {
      drop_last_solution();
      throw;
    }
  }
  // A solution of the index being visited, its fields written in place, each at most once
  // (zero until written); the writer is valid until the next solution.
  RowWriter solution_row() { return {solution_layout(), add_solution_row(), solution_context}; }

  // The next solutions go to the end of `rows`, each row `prefix` bytes (left to the caller:
  // the runner's task and index columns) and then the solution's fields: the runner's rows,
  // written once. Until then they are kept here.
  void write_solutions_into(RowBuffer& rows, std::size_t prefix) {
    clear_solutions();
    sink_ = &rows;
    sink_first_ = rows.size();
    sink_prefix_ = prefix;
  }
  // Whether the solutions are rows of `rows` (write_solutions_into).
  [[nodiscard]] bool writes_into(const RowBuffer& rows) const { return sink_ == &rows; }

  [[nodiscard]] std::size_t solution_count() const { return solution_indices_.size(); }
  [[nodiscard]] std::uint64_t solution_index(std::size_t i) const { return solution_indices_[i]; }
  // Every solution's row (with its prefix where written into a RowBuffer), in the order given.
  [[nodiscard]] std::span<const std::byte> solution_rows() const {
    if (sink_ == nullptr) return solution_bytes_;
    return sink_->bytes().subspan(sink_first_);
  }
  [[nodiscard]] Record solution_record(std::size_t i) const {
    const auto size = solution_layout().row_size();
    const auto stride = size + (sink_ == nullptr ? 0 : sink_prefix_);
    return solution_layout().unpack(solution_rows().subspan(i * stride + stride - size, size));
  }
  // Drops the solutions (their rows too where written into a RowBuffer); keeps the storage.
  void clear_solutions() {
    solution_indices_.clear();
    solution_bytes_.clear();
    if (sink_ != nullptr) sink_->truncate(sink_first_);
  }
  // Forgets the solutions, leaving their rows in the RowBuffer they were written into, whose
  // owner has taken them.
  void release_solutions() {
    solution_indices_.clear();
    if (sink_ != nullptr) sink_first_ = sink_->size();
  }

  [[nodiscard]] const std::vector<ReductionSpec>& specs() const { return *specs_; }
  [[nodiscard]] std::vector<std::int64_t>& counts() { return counts_; }
  [[nodiscard]] std::vector<std::vector<std::int64_t>>& histograms() { return histograms_; }
  // Heap-ordered (worst first) until sorted_top() is called.
  [[nodiscard]] std::vector<std::vector<TopEntry>>& tops() { return tops_; }

  [[nodiscard]] std::vector<TopEntry> sorted_top(std::size_t id) const {
    auto table = tops_[id];
    std::sort(table.begin(), table.end(), ranks_before);
    return table;
  }
  // The same, moved out: the table is empty after.
  [[nodiscard]] std::vector<TopEntry> take_sorted_top(std::size_t id) {
    auto table = std::move(tops_[id]);
    tops_[id].clear();
    std::sort(table.begin(), table.end(), ranks_before);
    return table;
  }

 private:
  static constexpr std::string_view solution_context = "solution record";

  [[nodiscard]] const RecordLayout& solution_layout() const {
    if (solution_layout_ == nullptr)
      throw KernelError("a solution was given, but no solution fields");
    return *solution_layout_;
  }
  [[nodiscard]] bool enters_top(std::size_t id, double score) const {
    const auto& table = tops_[id];
    return table.size() < (*specs_)[id].k || ranks_before({score, index_, {}}, table.front());
  }
  void keep_top(std::size_t id, TopEntry entry) {
    auto& table = tops_[id];
    table.push_back(std::move(entry));
    std::push_heap(table.begin(), table.end(), ranks_before);
    if (table.size() > (*specs_)[id].k) {
      std::pop_heap(table.begin(), table.end(), ranks_before);
      table.pop_back();
    }
  }
  std::span<std::byte> add_solution_row() {
    const auto size = solution_layout().row_size();
    std::span<std::byte> row;
    if (sink_ == nullptr) {
      const auto first = solution_bytes_.size();
      solution_bytes_.resize(first + size);
      row = std::span(solution_bytes_).subspan(first, size);
    } else {
      row = sink_->extend(sink_prefix_ + size).subspan(sink_prefix_);
      std::memset(row.data(), 0, size);
    }
    solution_indices_.push_back(index_);
    return row;
  }
  void drop_last_solution() {
    const auto size = solution_layout().row_size();
    if (sink_ == nullptr) {
      solution_bytes_.resize(solution_bytes_.size() - size);
    } else {
      sink_->truncate(sink_->size() - sink_prefix_ - size);
    }
    solution_indices_.pop_back();
  }

  const std::vector<ReductionSpec>* specs_;
  const RecordLayout* solution_layout_;
  std::uint64_t index_ = 0;
  std::vector<std::int64_t> counts_;
  std::vector<std::vector<std::int64_t>> histograms_;
  std::vector<std::vector<TopEntry>> tops_;
  std::vector<std::uint64_t> solution_indices_;
  std::vector<std::byte> solution_bytes_;  // solution_indices_.size() rows, without a sink
  RowBuffer* sink_ = nullptr;              // where the rows go instead (not owned)
  std::size_t sink_first_ = 0;             // where this chunk's rows start in it
  std::size_t sink_prefix_ = 0;
};

}  // namespace levelforge

#pragma once
// Dynamic work distribution: items 0..total-1 are handed out by an atomic counter in
// one-sided memory, so a rank asks for its next item the moment it is free and no rank
// has to act as a dispatcher. Also counts finished items and work units for progress.

#include <cstdint>

#include "runner/drivers/idle_clock.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge {

class WorkQueue {
 public:
  // Collective.
  WorkQueue(const mpi::Comm& comm, std::uint64_t total, IdleClock& idle)
      : counters_(comm, 3), total_(total), idle_(idle) {}

  // The next item, or total() when none is left.
  std::uint64_t next() {
    const auto timer = idle_.measure();
    const auto item = static_cast<std::uint64_t>(counters_.fetch_add(next_item, 1));
    return item < total_ ? item : total_;
  }

  void finished(std::uint64_t items, std::uint64_t units) {
    if (items > 0) counters_.fetch_add(done_items, static_cast<std::int64_t>(items));
    if (units > 0) counters_.fetch_add(done_units, static_cast<std::int64_t>(units));
  }

  [[nodiscard]] std::uint64_t total() const { return total_; }
  [[nodiscard]] std::uint64_t items_done() {
    return static_cast<std::uint64_t>(counters_.read(done_items));
  }
  [[nodiscard]] std::uint64_t units_done() {
    return static_cast<std::uint64_t>(counters_.read(done_units));
  }

 private:
  enum Counter : std::size_t { next_item, done_items, done_units };

  mpi::SharedCounters counters_;
  std::uint64_t total_;
  IdleClock& idle_;
};

}  // namespace levelforge

#pragma once
// Dynamic work distribution: positions 0..count-1 are handed out by an atomic counter in
// one-sided memory, so a rank asks for its next item the moment it is free and no rank
// has to act as a dispatcher. Also counts finished items and work units for progress,
// and lets any rank stop the hand-out (a checkpoint on a signal) with the same atomic.

#include <cstdint>

#include "runner/drivers/idle_clock.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge {

// Work a resumed run restored instead of doing: progress counts it as done.
struct PriorWork {
  std::uint64_t items = 0;
  std::uint64_t units = 0;
};

class WorkQueue {
 public:
  // Collective.
  WorkQueue(const mpi::Comm& comm, std::uint64_t count, IdleClock& idle, PriorWork prior = {})
      : counters_(comm, 3), count_(count), prior_(prior), idle_(idle) {}

  // The next position, or count() when none is left or the hand-out was stopped.
  std::uint64_t next() {
    const auto timer = idle_.measure();
    const auto position = static_cast<std::uint64_t>(counters_.fetch_add(next_item, 1));
    if (position >= stop_offset) stopped_ = true;
    return position < count_ ? position : count_;
  }

  // Collective, after the work loop and the last progress report.
  void close() { counters_.free(); }

  // No position is handed out any more, to any rank.
  void stop() {
    counters_.fetch_add(next_item, static_cast<std::int64_t>(stop_offset));
    stopped_ = true;
  }
  // Whether this rank stopped the queue or was refused work because another did.
  [[nodiscard]] bool stopped() const { return stopped_; }

  void finished(std::uint64_t items, std::uint64_t units) {
    if (items > 0) counters_.fetch_add(done_items, static_cast<std::int64_t>(items));
    if (units > 0) counters_.fetch_add(done_units, static_cast<std::int64_t>(units));
  }

  // Positions to hand out.
  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] const PriorWork& prior() const { return prior_; }
  // Progress over the whole run, restored work included.
  [[nodiscard]] std::uint64_t total() const { return prior_.items + count_; }
  [[nodiscard]] std::uint64_t items_done() {
    return prior_.items + static_cast<std::uint64_t>(counters_.read(done_items));
  }
  [[nodiscard]] std::uint64_t units_done() {
    return prior_.units + static_cast<std::uint64_t>(counters_.read(done_units));
  }

 private:
  enum Counter : std::size_t { next_item, done_items, done_units };
  static constexpr std::uint64_t stop_offset = std::uint64_t{1} << 62U;

  mpi::SharedCounters counters_;
  std::uint64_t count_;
  PriorWork prior_;
  IdleClock& idle_;
  bool stopped_ = false;
};

}  // namespace levelforge

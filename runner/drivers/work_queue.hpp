#pragma once
// Dynamic work distribution: positions 0..count-1 are handed out by a counter on rank 0
// (mpi::Counters: a server thread there, or a one-sided window), so a rank asks for its next
// items the moment it is free and no rank has to stop computing to dispatch. Also counts
// finished items and work units for progress, and lets any rank stop the hand-out (a
// checkpoint on a signal) with the same counter.
//
// Claims are batched (guided self-scheduling with a time cap): one request takes k
// consecutive positions, k = what this rank estimates remains / (2 x ranks), at most what
// fits in batch_seconds at the rank's measured pace, at least 1 (guided_batch). The first claim is
// one position (it learns the pace and the queue's state); batches shrink as the queue empties, so
// the last ones are single items. Finished counts travel with the next claim, or sooner when a
// second has passed, so progress and a stop reach every rank within about a second. Which rank does
// which position never shows in the results: the drivers order everything by task and chunk.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "runner/drivers/idle_clock.hpp"
#include "runner/mpi/counters.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge {

// Work a resumed run restored instead of doing: progress counts it as done.
struct PriorWork {
  std::uint64_t items = 0;
  std::uint64_t units = 0;
};

enum class ClaimBatches { guided, single };

// A batch's target duration at the rank's measured pace.
inline constexpr double batch_seconds = 0.25;

[[nodiscard]] constexpr std::string_view claim_batches_name(ClaimBatches batches) {
  return batches == ClaimBatches::single ? "single" : "guided";
}

struct QueueOptions {
  mpi::CounterHost host = mpi::CounterHost::automatic;
  ClaimBatches batches = ClaimBatches::guided;
};

// The queue as a rank last saw it: `seen` of `count` positions handed out, over `ranks`.
struct QueueView {
  std::uint64_t count;
  std::uint64_t seen;
  std::uint64_t ranks;
};
// The rank's last batch: `items` done in `seconds`.
struct LastBatch {
  std::uint64_t items;
  double seconds;
};
// A guided claim's size: what remains / (2 x ranks), at most batch_seconds at the last
// batch's pace, at least 1. What remains is estimated: in the `unseen` seconds since the
// rank last saw the counter the other ranks took positions too, as many each as it would
// have at its own pace. (Sized from the view alone, a claim after a batch of a fourth of the
// queue took a third of the rest where it should a fourth, and on 2 ranks the other idled
// at the end when the claiming rank slowed.)
[[nodiscard]] inline std::uint64_t guided_batch(QueueView queue, LastBatch last, double unseen) {
  auto seen = queue.seen;
  auto fitting = std::numeric_limits<std::uint64_t>::max();
  // Long items need no batching, and a batch that lasts long would hold positions another
  // rank could take at the end.
  if (last.items > 0 && last.seconds > 0) {
    const double per_item = last.seconds / static_cast<double>(last.items);
    fitting = static_cast<std::uint64_t>(batch_seconds / per_item);
    seen += static_cast<std::uint64_t>(static_cast<double>(queue.ranks - 1) * unseen / per_item);
  }
  const auto remaining = queue.count > seen ? queue.count - seen : 0;
  const auto size = std::max<std::uint64_t>(1, remaining / (2 * queue.ranks));
  return std::clamp<std::uint64_t>(fitting, 1, size);
}

class WorkQueue {
 public:
  // Collective.
  WorkQueue(const mpi::Comm& comm, std::uint64_t count, IdleClock& idle, PriorWork prior = {},
            QueueOptions options = {})
      : counters_(mpi::make_counters(comm, counter_count, options.host)),
        count_(count),
        ranks_(static_cast<std::uint64_t>(comm.size())),
        prior_(prior),
        idle_(idle),
        batches_(options.batches) {}

  // The next position, or count() when none is left or the hand-out was stopped.
  std::uint64_t next() {
    if (!stopped_ && batch_next_ < batch_end_) return batch_next_++;
    if (stopped_) {
      if (pending_items_ > 0 || pending_units_ > 0) (void)exchange(0);
      return count_;
    }
    claim();
    return batch_next_ < batch_end_ ? batch_next_++ : count_;
  }

  // Collective, after the work loop and the last progress report.
  void close() { counters_->free(); }

  // No position is handed out any more, to any rank; this rank drops the rest of its batch.
  void stop() {
    (void)exchange(static_cast<std::int64_t>(stop_offset));
    stopped_ = true;
  }
  // Whether this rank stopped the queue or was refused work because another did.
  [[nodiscard]] bool stopped() const { return stopped_; }

  void finished(std::uint64_t items, std::uint64_t units) {
    pending_items_ += items;
    pending_units_ += units;
    if (std::chrono::steady_clock::now() - last_exchange_ >= flush_interval) (void)exchange(0);
  }

  // Positions to hand out.
  [[nodiscard]] std::uint64_t count() const { return count_; }
  [[nodiscard]] const PriorWork& prior() const { return prior_; }
  // Progress over the whole run, restored work included; this rank's unsent counts are sent.
  [[nodiscard]] std::uint64_t total() const { return prior_.items + count_; }
  [[nodiscard]] std::uint64_t items_done() {
    return prior_.items + static_cast<std::uint64_t>(exchange(0).items);
  }
  [[nodiscard]] std::uint64_t units_done() {
    return prior_.units + static_cast<std::uint64_t>(exchange(0).units);
  }
  // How the counters are held, for the provenance.
  [[nodiscard]] std::string description() const { return counters_->description(); }
  // Requests this rank sent (claims, flushes, reads): the scheduling's cost.
  [[nodiscard]] std::uint64_t requests() const { return requests_; }

 private:
  enum Counter : std::size_t { next_item, done_items, done_units, counter_count };
  static constexpr std::uint64_t stop_offset = std::uint64_t{1} << 62U;
  static constexpr auto flush_interval = std::chrono::seconds(1);
  static constexpr auto stale_after = std::chrono::milliseconds(10);

  // The position counter before an exchange's claim; the finished counts after its addition.
  struct Seen {
    std::int64_t position;
    std::int64_t items;
    std::int64_t units;
  };

  // Adds `claim` to the position counter and this rank's unsent finished counts to theirs, in
  // one request. Learns of a stop from it.
  Seen exchange(std::int64_t claim) {
    const auto timer = idle_.measure();
    const std::array<std::int64_t, counter_count> amounts{
        claim, static_cast<std::int64_t>(pending_items_),
        static_cast<std::int64_t>(pending_units_)};
    const auto before = counters_->fetch_add(amounts);
    ++requests_;
    pending_items_ = 0;
    pending_units_ = 0;
    last_exchange_ = std::chrono::steady_clock::now();
    const auto position = static_cast<std::uint64_t>(before[next_item]);
    if (position >= stop_offset) {
      stopped_ = true;
    } else {
      seen_ = std::max(seen_, position + static_cast<std::uint64_t>(claim));
    }
    return {before[next_item], before[done_items] + amounts[done_items],
            before[done_units] + amounts[done_units]};
  }

  [[nodiscard]] std::uint64_t batch_size(std::chrono::steady_clock::time_point now) const {
    if (batches_ == ClaimBatches::single || claims_ == 0) return 1;
    const std::chrono::duration<double> spent = now - batch_started_;
    const std::chrono::duration<double> unseen = now - last_exchange_;
    return guided_batch({count_, seen_, ranks_}, {batch_end_ - batch_begin_, spent.count()},
                        unseen.count());
  }

  void claim() {
    const auto now = std::chrono::steady_clock::now();
    // The other ranks took positions since this rank last asked: a batch sized from that old
    // view could take the whole rest of the queue and leave them idle at the end. A look
    // first (which also sends the finished counts) costs one request per batch at most.
    if (batches_ == ClaimBatches::guided && claims_ > 0 && now - last_exchange_ > stale_after) {
      (void)exchange(0);
      if (stopped_) return;
    }
    const auto size = batch_size(now);
    const auto before = exchange(static_cast<std::int64_t>(size)).position;
    ++claims_;
    batch_started_ = std::chrono::steady_clock::now();
    if (stopped_) {
      batch_begin_ = batch_next_ = batch_end_ = 0;
      return;
    }
    const auto first = static_cast<std::uint64_t>(before);
    batch_begin_ = std::min(first, count_);
    batch_next_ = batch_begin_;
    batch_end_ = std::min(first + size, count_);
  }

  std::unique_ptr<mpi::Counters> counters_;
  std::uint64_t count_;
  std::uint64_t ranks_;
  PriorWork prior_;
  IdleClock& idle_;
  ClaimBatches batches_;
  bool stopped_ = false;
  std::uint64_t batch_begin_ = 0;
  std::uint64_t batch_next_ = 0;
  std::uint64_t batch_end_ = 0;
  std::uint64_t seen_ = 0;  // the position counter as this rank last saw it
  std::uint64_t claims_ = 0;
  std::uint64_t requests_ = 0;
  std::uint64_t pending_items_ = 0;
  std::uint64_t pending_units_ = 0;
  std::chrono::steady_clock::time_point batch_started_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_exchange_ = std::chrono::steady_clock::now();
};

}  // namespace levelforge

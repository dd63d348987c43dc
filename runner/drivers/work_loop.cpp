#include "runner/drivers/work_loop.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "runner/checkpoint/stop_signal.hpp"
#include "runner/engine/evaluation_group.hpp"

namespace levelforge {

namespace {

// Groups that run units side by side: one per unit while ranks suffice (0), or as many
// groups of `ranks_per_unit` as the ranks allow.
int group_count(std::int64_t ranks_per_unit, int ranks, std::uint64_t units) {
  if (ranks_per_unit > 0) return std::max(1, static_cast<int>(ranks / ranks_per_unit));
  return static_cast<int>(std::clamp<std::uint64_t>(units, 1, static_cast<std::uint64_t>(ranks)));
}

// The group of `rank`: contiguous blocks of ranks (neighbours on a node), sizes differing by
// at most one.
int group_of(std::int64_t rank, int groups, int ranks) {
  return static_cast<int>(rank * groups / ranks);
}

}  // namespace

WorkLoop::WorkLoop(DriverContext& context, UnitWork& work, UnitPlan plan)
    : context_(context),
      work_(work),
      plan_(std::move(plan)),
      todo_(context.remaining(plan_.unit_count, plan_.done, plan_.unit_name)),
      work_total_(plan_.work_done),
      queue_(context.comm, todo_.size(), context.idle, {plan_.done.size(), plan_.work_done},
             context.queue_options),
      pace_(context.checkpoint_pace()) {
  for (const auto unit : todo_) work_total_ += work_.work_of(unit);
  if (plan_.ranks_per_unit) {
    const auto ranks = context.comm.size();
    groups_ = group_count(*plan_.ranks_per_unit, ranks, todo_.size());
    const auto rank = context.comm.rank();
    group_.emplace(context.comm.split(group_of(rank, groups_, ranks), rank));
    leader_ = group_->rank() == 0;
  }
}

std::vector<std::int64_t> WorkLoop::group_sizes() const {
  std::vector<std::int64_t> sizes(static_cast<std::size_t>(groups_), 0);
  const auto ranks = context_.comm.size();
  for (std::int64_t rank = 0; rank < ranks; ++rank)
    ++sizes[static_cast<std::size_t>(group_of(rank, groups_, ranks))];
  return sizes;
}

void WorkLoop::poll_progress() { context_.poll_progress(queue_, work_total_); }

void WorkLoop::step_done(std::uint64_t work) {
  const auto [begin, end] = share_of(work, static_cast<std::size_t>(group_->rank()),
                                     static_cast<std::size_t>(group_->size()));
  context_.work_units += end - begin;
  ++steps_unsaved_;
  if (group_->rank() == 0) queue_.finished(0, work);
  poll_progress();
}

bool WorkLoop::save_due() const {
  // Units run alone are steps: those kept, and those failed (the failure log counts these).
  const auto failed = plan_.ranks_per_unit ? 0 : context_.failures.unsaved();
  return pace_.due(steps_unsaved_ + failed);
}

void WorkLoop::save(const Segment* in_progress) {
  if (leader_ && (in_progress != nullptr || kept_unsaved_ > 0 || context_.failures.unsaved() > 0)) {
    Segment segment = in_progress != nullptr ? *in_progress : Segment();
    work_.save_kept(segment);
    context_.save(std::move(segment));
  }
  kept_unsaved_ = 0;
  steps_unsaved_ = 0;
  pace_.saved();
}

bool WorkLoop::run() {
  bool stopped = false;
  for (;;) {
    std::uint64_t position = 0;
    if (leader_) {
      if (StopSignal::requested()) queue_.stop();
      position = queue_.next();
    }
    if (group_) {
      const auto timer = context_.idle.measure();
      group_->broadcast_value(position, 0);
    }
    if (position >= todo_.size()) break;
    const auto unit = todo_[position];
    const auto task = work_.task_of(unit);
    const auto range = work_.range_of(unit);
    const auto started = std::chrono::steady_clock::now();
    UnitOutcome outcome;
    // A group's members fail alike (they agree on evaluations), except in the leader's own
    // work at the end (validation, rendering), which the others do not wait for.
    const auto failure = context_.attempt(
        task, [&] { outcome = work_.run(unit, *this); },
        [&] {
          return range.begin < 0 ? std::string()
                                 : fmt::format(", indices {} to {}", range.begin, range.end - 1);
        });
    if (!failure && outcome.stopped) {
      if (leader_) queue_.stop();
      stopped = true;
      break;
    }
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - started;
    // Alone, a unit's planned work is counted when it ends, failed or not.
    const auto work = group_ ? 0 : work_.work_of(unit);
    context_.work_units += work;
    if (leader_) {
      if (failure) {
        context_.failures.add({unit, task, range.begin, range.end, context_.comm.rank(),
                               context_.session, seconds.count(), *failure});
      } else {
        ++kept_unsaved_;
      }
      work_.ended(unit, failure ? nullptr : &outcome, seconds.count());
      queue_.finished(1, work);
    }
    if (!group_ && !failure) ++steps_unsaved_;
    if (save_due()) save(nullptr);
    poll_progress();
  }
  if (context_.end_work(queue_, stopped || queue_.stopped())) {
    save(nullptr);
    return false;
  }
  return true;
}

}  // namespace levelforge

#pragma once
// Tasks and chunks whose kernel threw under `on_error: record`. A failure is work done
// without a result: saved with each checkpoint segment, restored by a resume (and so not
// run again, unless the resume retries failures), and written as /failures.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kernels/api/record_layout.hpp"
#include "runner/checkpoint/segment.hpp"
#include "runner/config/experiment.hpp"
#include "runner/h5/h5.hpp"
#include "runner/mpi/mpi.hpp"
#include "runner/output/result_file.hpp"

namespace levelforge {

struct Failure {
  std::uint64_t unit = 0;  // the task (ga, sweep) or the chunk (exhaustive) that failed
  std::uint64_t task = 0;
  std::int64_t begin = -1;  // exhaustive: the chunk's index range [begin, end); else -1
  std::int64_t end = -1;
  std::int64_t rank = 0;     // world rank that ran it
  std::int64_t session = 0;  // the run session it failed in
  double wall_seconds = 0;
  std::string message;
};

// A failure's row in a segment's `failures` ints: six int64 (the message is in
// `failure_messages`, NUL-terminated, in the same order).
RecordLayout saved_failure_layout();

class FailureLog {
 public:
  void add(Failure failure) { failures_.push_back(std::move(failure)); }
  [[nodiscard]] const std::vector<Failure>& local() const { return failures_; }
  [[nodiscard]] std::size_t unsaved() const { return failures_.size() - saved_; }
  // The failures added since the last call go into `segment`.
  void save_into(Segment& segment);

  // Collective, once before the work: the failures of earlier sessions in every rank's
  // `restored` segments, less those of units in `succeeded` (a retry that worked) and, for a
  // unit that failed in several sessions, all but the newest. Kept spread over the ranks;
  // returns every rank's failed units, sorted. A unit whose newest failure is of a session
  // before `retry_before_session` (a retry's first session; 0: no retry) is not kept: it
  // runs again, and is in retried().
  std::vector<std::uint64_t> restore(const std::vector<Segment>& restored,
                                     const std::vector<std::uint64_t>& succeeded,
                                     std::int64_t retry_before_session, const mpi::Comm& comm);
  [[nodiscard]] const std::vector<std::uint64_t>& retried() const { return retried_; }

  // Collective: every rank's failures, ordered by task, then index range.
  [[nodiscard]] std::vector<Failure> gather(const mpi::Comm& comm) const;

 private:
  std::vector<Failure> failures_;
  std::vector<std::uint64_t> retried_;
  std::size_t saved_ = 0;
};

// Collective: /failures, one row per failure of `all` (gather()'s result); rank 0 writes.
void write_failures(ResultFile& file, const config::Experiment& experiment,
                    const std::vector<Failure>& all, const mpi::Comm& comm);

// A result file's /failures as segment entries (for `merge`); `unit_of(task, begin)` names
// the failed unit.
void read_failures(const h5::File& file, Segment& segment,
                   const std::function<std::uint64_t(std::uint64_t, std::int64_t)>& unit_of);

}  // namespace levelforge

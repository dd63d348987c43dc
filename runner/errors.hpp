#pragma once
// The runner's errors: one type per subsystem (config::ConfigError, cli::UsageError,
// CheckpointError, VerifyError, TaskError, mpi::MpiError, h5::IoError), each on levelforge::Error,
// which carries the process's exit code and whether the error is raised alike on every rank.
// main() reports an error raised alike on rank 0 and returns its code on every rank; any other
// is reported by the rank that raised it, which ends the whole job (MPI_Abort). A kernel's own
// errors (KernelError, PuzzleInputError, any other exception) are not runner errors: the
// drivers record them as the failure of a task (DriverContext::attempt) and let these through.
// Header only, on the standard library alone, so that every runner subsystem can include it.

#include <stdexcept>
#include <string>

namespace levelforge {

// Exit codes, documented in docs/cli.md.
inline constexpr int exit_ok = 0;
inline constexpr int exit_failure = 1;  // a rank failed while running
inline constexpr int exit_usage = 2;    // bad command line, config or input file
// Completed and wrote its result, but some tasks failed (on_error: record; see /failures).
inline constexpr int exit_task_failures = 3;
// Stopped by SIGTERM or SIGUSR1 after saving a checkpoint: run again with --resume
// (sysexits' EX_TEMPFAIL; the sbatch scripts requeue the job on it).
inline constexpr int exit_checkpointed = 75;

// Where an error is raised: by every rank alike, from the same inputs (a config, a file rank 0
// read and shared), so that each can return; or by one rank (or some), whose peers may be
// waiting for it in a collective, so that the job must be aborted.
enum class Raised { on_some_ranks, alike_on_every_rank };

class Error : public std::runtime_error {
 public:
  Error(const std::string& message, int code, Raised raised)
      : std::runtime_error(message), exit_code_(code), raised_(raised) {}

  // The process's exit code for this error.
  [[nodiscard]] int exit_code() const noexcept { return exit_code_; }
  [[nodiscard]] bool alike_on_every_rank() const noexcept {
    return raised_ == Raised::alike_on_every_rank;
  }
  // Raised within one unit of work (DriverContext::attempt), which this rank or its group runs
  // alone: the other ranks do not raise it and would wait for this one in their next
  // collective, so main() must end the job, whatever the error's kind.
  void raised_by_this_rank_alone() noexcept { raised_ = Raised::on_some_ranks; }

 private:
  int exit_code_;
  Raised raised_;
};

// A failure of one rank while running: a kernel threw under on_error: abort (TaskError), or an
// MPI or HDF5 call failed. Exit 1, the job aborted.
class RankError : public Error {
 public:
  explicit RankError(const std::string& message)
      : Error(message, exit_failure, Raised::on_some_ranks) {}
};

// Refused before anything runs, from what every rank knows alike: the command line, the
// config, a file that is not what the command needs, a checkpoint that cannot be used. Exit 2,
// reported by rank 0.
class InputError : public Error {
 public:
  explicit InputError(const std::string& message)
      : Error(message, exit_usage, Raised::alike_on_every_rank) {}
};

}  // namespace levelforge

// The runner's errors (runner/errors.hpp) against a kernel's: each runner error carries the
// exit code and the reach main() reports it with, a kernel's errors are none of them, and
// DriverContext::attempt records a kernel's exception as its task's failure (or ends the run
// with a TaskError naming the task) while every runner error thrown inside the kernel call,
// an HDF5 one included, passes through with its type and exit code, as raised by that rank
// alone.
#include "runner/errors.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <list>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "kernels/api/params.hpp"
#include "kernels/api/puzzle.hpp"
#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/checkpoint/verified_result.hpp"
#include "runner/cli/commands.hpp"
#include "runner/config/experiment.hpp"
#include "runner/drivers/driver_context.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/h5/h5.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge {
namespace {

template <class Raised>
void expect_runner_error(int code, bool alike) {
  static_assert(std::is_base_of_v<Error, Raised>);
  const Raised raised("the message");
  const Error& error = raised;
  EXPECT_EQ(error.exit_code(), code) << typeid(Raised).name();
  EXPECT_EQ(error.alike_on_every_rank(), alike) << typeid(Raised).name();
  EXPECT_STREQ(error.what(), "the message");
}

// docs/cli.md's exit codes: 2 for what every rank refuses alike before anything runs (rank 0
// reports it), 1 for a failure of a rank while running (the job is aborted).
TEST(RunnerErrors, CarryTheExitCodeAndWhetherEveryRankRaisesThem) {
  expect_runner_error<config::ConfigError>(exit_usage, true);
  expect_runner_error<cli::UsageError>(exit_usage, true);
  expect_runner_error<CheckpointError>(exit_usage, true);
  expect_runner_error<VerifyError>(exit_usage, true);
  expect_runner_error<TaskError>(exit_failure, false);
  expect_runner_error<mpi::MpiError>(exit_failure, false);
  expect_runner_error<h5::IoError>(exit_failure, false);
}

TEST(RunnerErrors, AKernelsErrorsAreNotRunnerErrors) {
  static_assert(!std::is_base_of_v<Error, KernelError>);
  static_assert(!std::is_base_of_v<Error, PuzzleInputError>);
  // What `attempt` catches as a std::exception is a runner error only where it derives from
  // Error: a kernel's own error is not.
  const KernelError kernel("a kernel's own");
  const std::exception& thrown = kernel;
  EXPECT_EQ(dynamic_cast<const Error*>(&thrown), nullptr);
  const h5::IoError runner("the runner's own");
  const std::exception& raised = runner;
  EXPECT_NE(dynamic_cast<const Error*>(&raised), nullptr);
}

// A DriverContext of one sweep task, without output, for `attempt` alone.
class AttemptTest : public ::testing::Test {
 protected:
  [[nodiscard]] DriverContext context(const std::string& on_error) {
    const auto& experiment =
        experiments_.emplace_back(config::parse_experiment(R"(
experiment: attempt
kernel: collatz
driver: sweep
params: {start: 10, count: 5}
on_error: )" + on_error + "\n",
                                                           "attempt.yaml", {}, config_schema()));
    return {experiment, *find_kernel("collatz"), facts_, world_, nullptr, progress_, tasks_, idle_};
  }

  mpi::Comm world_ = mpi::Comm::world();
  std::list<config::Experiment> experiments_;  // where each context's stays
  std::vector<PointFacts> facts_;
  ProgressReporter progress_{"tasks", "evals", 10, ProgressStyle::none, stderr};
  TaskLog tasks_;
  IdleClock idle_;
};

TEST_F(AttemptTest, AKernelsExceptionIsTheTasksFailure) {
  auto recording = context("record");
  EXPECT_EQ(recording.attempt(0, [] {}), std::nullopt);
  EXPECT_EQ(recording.attempt(0, [] { throw KernelError("no level fits"); }), "no level fits");
  EXPECT_EQ(recording.attempt(0, [] { throw std::runtime_error("a bug"); }), "a bug");

  auto aborting = context("abort");
  try {
    (void)aborting.attempt(0, [] { throw KernelError("no level fits"); });
    ADD_FAILURE() << "the kernel's exception did not end the run";
  } catch (const TaskError& error) {
    EXPECT_NE(std::string(error.what()).find("task 0"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("no level fits"), std::string::npos) << error.what();
  }
}

// An HDF5 write, an MPI call or a checkpoint inside a kernel call fails the run, not the task:
// recording it as the task's failure would write a result whose /failures blames the kernel.
TEST_F(AttemptTest, ARunnerErrorInsideAKernelCallIsNoFailureOfTheTask) {
  for (const std::string on_error : {"record", "abort"}) {
    SCOPED_TRACE("on_error: " + on_error);
    auto attempting = context(on_error);
    EXPECT_THROW((void)attempting.attempt(0, [] { throw h5::IoError("writing /sweep/records"); }),
                 h5::IoError);
    EXPECT_THROW((void)attempting.attempt(0, [] { throw mpi::MpiError("MPI_Bcast failed"); }),
                 mpi::MpiError);
    EXPECT_THROW((void)attempting.attempt(0, [] { throw CheckpointError("segment lost"); }),
                 CheckpointError);
    EXPECT_THROW((void)attempting.attempt(0, [] { throw config::ConfigError("bad key"); }),
                 config::ConfigError);
  }
}

// One rank's unit of work raising what is otherwise raised alike on every rank (a config or
// checkpoint refusal): the other ranks are running other units and will not raise it, so main()
// must abort the job rather than return on this rank and leave them waiting in a collective.
TEST_F(AttemptTest, AnErrorRaisedInsideAUnitIsThisRanksAlone) {
  auto attempting = context("record");
  try {
    (void)attempting.attempt(0, [] { throw config::ConfigError("bad key"); });
    ADD_FAILURE() << "the config error was swallowed";
  } catch (const config::ConfigError& error) {
    EXPECT_FALSE(error.alike_on_every_rank());
    EXPECT_EQ(error.exit_code(), exit_usage);
    EXPECT_STREQ(error.what(), "bad key");
  }
  try {
    (void)attempting.attempt(0, [] { throw CheckpointError("segment lost"); });
    ADD_FAILURE() << "the checkpoint error was swallowed";
  } catch (const CheckpointError& error) {
    EXPECT_FALSE(error.alike_on_every_rank());
  }
  // Outside a unit the same error is still every rank's.
  EXPECT_TRUE(config::ConfigError("bad key").alike_on_every_rank());
}

}  // namespace
}  // namespace levelforge

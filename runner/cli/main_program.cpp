// The levelforge command line: the subcommands (each registered by its own file), MPI started
// only where needed, and the errors turned into exit codes.
#include "runner/cli/main_program.hpp"

#include <CLI/CLI.hpp>

#include <array>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "kernels/api/isa.hpp"
#include "runner/checkpoint/stop_signal.hpp"
#include "runner/cli/commands.hpp"
#include "runner/engine/kernel_registry.hpp"
#include "runner/errors.hpp"
#include "runner/files/shell_word.hpp"
#include "runner/mpi/mpi.hpp"
#include "runner/output/provenance.hpp"

namespace {

using namespace levelforge;

// MPI starts where a launcher started this process (so that only rank 0 prints) or for the
// commands that use it: a singleton MPI_Init costs a third of a second, which `inspect`,
// `solve` and the others need not pay.
class LazyMpi {
 public:
  LazyMpi(int& argc, char**& argv) : argc_(argc), argv_(argv) {
    if (mpi::started_by_launcher()) environment_.emplace(argc_, argv_);
  }

  [[nodiscard]] mpi::Comm world() {
    if (!environment_) environment_.emplace(argc_, argv_);
    return mpi::Comm::world();
  }
  [[nodiscard]] int rank() const { return environment_ ? mpi::Comm::world().rank() : 0; }
  [[nodiscard]] bool started() const { return environment_.has_value(); }

 private:
  int& argc_;
  char**& argv_;
  std::optional<mpi::Environment> environment_;
};

// The kernels' SIMD paths are chosen at run time; which one runs depends on the CPU, so
// the version says what this machine would run.
std::string version_text() {
  std::string text = "levelforge " + std::string(build_version()) + " (" +
                     std::string(build_commit()) +
                     ")\nsimd: portable, avx2 and avx512 paths built; this CPU runs " +
                     std::string(isa_name(best_isa()));
  for (const auto& kernel : registered_kernels()) {
    if (!kernel.simd_paths.empty()) text += "\n  " + kernel.name + ": " + kernel.simd_paths;
  }
  return text;
}

// An error of this rank alone: reported with the rank, and the job ended with `code`.
int end_job(const LazyMpi& mpi, const char* message, int code) {
  std::fprintf(stderr, "levelforge: rank %d: error: %s\n", mpi.rank(), message);
  std::fflush(stderr);
  if (!mpi.started()) return code;
  // Other ranks may be inside a collective waiting for this one: end them all. Alone too:
  // after a failed write HDF5 crashes in MPI_Finalize, closing what it could not flush.
  levelforge::mpi::Comm::world().abort(code);
}

// The commands of `levelforge --help`, in its order: each file registers its own.
constexpr std::array registrations{
    cli::add_run_command,      cli::add_resume_command,  cli::add_merge_command,
    cli::add_validate_command, cli::add_kernels_command, cli::add_inspect_command,
    cli::add_solve_command,    cli::add_show_commands,
};

int dispatch(int argc, char** argv, LazyMpi& mpi) {
  CLI::App app{"levelforge: distributed batch experiments for procedural level generation"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text());
  cli::CommandList commands(app);
  for (const auto add : registrations) add(commands);

  const cli::Command* command = nullptr;
  try {
    app.parse(argc, argv);
    command = commands.parsed();
    if (command->check) command->check();
  } catch (const CLI::ParseError& error) {
    if (mpi.rank() != 0) return error.get_exit_code() == 0 ? exit_ok : exit_usage;
    const int code = app.exit(error);
    return code == 0 ? exit_ok : exit_usage;
  }

  // The rest is one process's work; the other ranks of a launched job have nothing to do.
  if (command->ranks == cli::Ranks::first && mpi.rank() != 0) return exit_ok;
  const cli::Invocation invocation{[&mpi] { return mpi.world(); },
                                   shell_command({argv, argv + argc})};
  return command->run(invocation);
}

}  // namespace

int levelforge::cli::main_program(int argc, char** argv) {
  // `run` and `resume` turn SIGTERM and SIGUSR1 into a checkpoint from the first moment, MPI
  // start-up included (a warning may come at any time); other commands keep the default: they end.
  std::optional<levelforge::StopSignal> stop_signal;
  if (argc > 1 && (std::string_view(argv[1]) == "run" || std::string_view(argv[1]) == "resume"))
    stop_signal.emplace();
  LazyMpi mpi(argc, argv);
  try {
    return dispatch(argc, argv, mpi);
  } catch (const levelforge::Error& error) {
    // Raised alike on every rank (usage, config, a file or checkpoint refused): one report,
    // a clean exit.
    if (error.alike_on_every_rank()) {
      if (mpi.rank() == 0) std::fprintf(stderr, "levelforge: error: %s\n", error.what());
      return error.exit_code();
    }
    return end_job(mpi, error.what(), error.exit_code());
  } catch (const std::exception& error) {
    // Not the runner's (a kernel's, the standard library's): this rank's alone.
    return end_job(mpi, error.what(), levelforge::exit_failure);
  }
}

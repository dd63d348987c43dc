#pragma once
// The experiment a command runs, read from its config and checked as `run` checks it: by
// `run` and `validate` from a file, by `resume` from a checkpoint's config text.

#include <string>
#include <vector>

#include "runner/config/experiment.hpp"
#include "runner/drivers/run.hpp"
#include "runner/mpi/mpi.hpp"

namespace levelforge::cli {

// The config at `path` with `overrides`, read and parsed in this process; ConfigError when it
// cannot be read or is not valid. Its config_text holds the config and the table files it
// names.
config::Experiment read_experiment(const std::string& path,
                                   const std::vector<std::string>& overrides);
// Collective: rank 0 reads the config (read_experiment), and every rank parses the text it
// read, so that all parse the same bytes and need no file.
config::Experiment load_experiment(const std::string& path,
                                   const std::vector<std::string>& overrides,
                                   const mpi::Comm& comm);
// Collective: every rank parses the config text rank 0's `experiment` holds.
config::Experiment share_experiment(config::Experiment experiment, const std::string& source,
                                    const mpi::Comm& comm);

// The points' check (check_runnable), its errors naming `source`: the contradictions between
// keys (elitism >= population, a range outside the index space) have no single line to point
// at, so the file is the place.
std::vector<PointFacts> check_experiment(const BoundRun& run, const std::string& source);
// Collective: the memory check before any point's kernel is built, so that none is built
// that cannot fit; the points' check; and the memory check again with what it found (the QD
// archives, the exhaustive chunks). Returns what the check found, for the run.
std::vector<PointFacts> check_fits_and_runs(const BoundRun& run, const std::string& source,
                                            const mpi::Comm& comm);

}  // namespace levelforge::cli

#pragma once
// Where `run`, `resume` and `merge` write their result: checked before anything runs.

#include <string>
#include <string_view>

#include "runner/mpi/mpi.hpp"

namespace levelforge::cli {

// Collective, for `run` and `merge`: refuses (UsageError) an output that cannot be a result
// file (a directory, a path ending in '/', a device) or cannot be written (a folder that
// cannot be made or written into); rank 0 looks for all. `file_argument` is how the command
// names its output in the message's hint, {} standing for the file: "-o {}".
void check_output_place(const std::string& output, std::string_view file_argument,
                        const mpi::Comm& comm);
// Collective, for `run` and `merge`: refuses (UsageError) to replace an existing result
// unless forced; rank 0 looks for all.
void check_output_free(const std::string& output, bool force, const mpi::Comm& comm);

}  // namespace levelforge::cli

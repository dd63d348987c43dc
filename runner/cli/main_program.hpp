#pragma once
// The whole levelforge command line, for main(): the installed executable's
// (runner/cli/main.cpp) and the one levelforge_add_executable links with a researcher's
// kernels.

namespace levelforge::cli {

// Parses the arguments, runs the command and returns the process's exit code.
int main_program(int argc, char** argv);

}  // namespace levelforge::cli

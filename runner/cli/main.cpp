// levelforge: run procedural-level experiments over MPI into one HDF5 file.
#include "runner/cli/main_program.hpp"

int main(int argc, char** argv) { return levelforge::cli::main_program(argc, argv); }

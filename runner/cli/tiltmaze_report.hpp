#pragma once
// What `levelforge solve tiltmaze` and `levelforge maze --solve` say about one tilt maze:
// the solvability verdicts, the roll graph and its condensation, and a shortest solution,
// as text for people or as one JSON object (docs/cli.md describes both).

#include <string>
#include <string_view>

#include "kernels/tiltmaze/maze.hpp"
#include "kernels/tiltmaze/solver.hpp"

namespace levelforge::cli {

// "stop" or "pass" (the command line checks the spelling first).
tiltmaze::Collect parse_collect(std::string_view name);
std::string_view collect_name(tiltmaze::Collect collect);

// A maze file's text: the drawing of docs/tiltmaze.md, or a file whose only line besides
// comments and trailing empty lines is a compact string. Throws tiltmaze::MazeFormatError
// "SOURCE:LINE:COLUMN: message", the position counted in the file for both forms.
tiltmaze::Maze read_maze_text(std::string_view text, const std::string& source);

struct MazeAnalysis {
  tiltmaze::Collect collect = tiltmaze::Collect::stop;
  tiltmaze::RollGraph graph;
  tiltmaze::Condensation condensation;
  bool solvable = false;
  bool two_sat = false;  // the 2-SAT verdict (the mode's own formula)
  bool second = false;   // the independent method: stop, the chain test; pass, the exact search
  tiltmaze::Solution solution;
};

// Runs every solver on `maze`. The verdicts must agree (2-SAT, chain test and solution in
// stop mode; 2-SAT, the exact search and solution in pass mode): a disagreement is a bug in the
// solvers and throws std::logic_error naming `source`.
MazeAnalysis analyze_maze(const tiltmaze::Maze& maze, tiltmaze::Collect collect,
                          const std::string& source);

// The human-readable report, lines ending in '\n'.
std::string report_text(const tiltmaze::Maze& maze, const MazeAnalysis& analysis);

// One JSON object, no trailing newline.
std::string report_json(const tiltmaze::Maze& maze, const MazeAnalysis& analysis,
                        const std::string& source);

// (row,col) of a cell.
std::string cell_text(const tiltmaze::Maze& maze, int cell);

}  // namespace levelforge::cli

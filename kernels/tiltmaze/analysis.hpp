#pragma once
// Everything the solvers find about one tilt maze, with each verdict held against a second
// method and the solution replayed on the model: what `levelforge solve tiltmaze` reports.

#include <string>
#include <string_view>

#include "kernels/api/params.hpp"
#include "kernels/tiltmaze/maze.hpp"
#include "kernels/tiltmaze/solver.hpp"

namespace levelforge::tiltmaze {

inline constexpr Vocabulary<Collect, 2> collect_words{
    {{{"stop", Collect::stop}, {"pass", Collect::pass}}}};
// The `collect` parameter, of the kernel's runs and of `solve`.
ParamSpec collect_param();

struct MazeAnalysis {
  Collect collect = Collect::stop;
  RollGraph graph;
  Condensation condensation;
  bool solvable = false;
  bool two_sat = false;  // the 2-SAT verdict (the mode's own formula)
  bool second = false;   // the independent method: stop, the chain test; pass, the exact search
  Solution solution;
};

// Runs every solver on `maze`. The verdicts must agree (2-SAT, chain test and solution search
// in stop mode; 2-SAT, the exact search and solution search in pass mode): a disagreement is
// a bug in the solvers and throws std::logic_error saying which.
MazeAnalysis analyze_maze(const Maze& maze, Collect collect);

// Whether playing `moves` (letters of direction_letters) from the start collects every
// target: decided by rolling the ball on the model, not by the code that found the moves.
bool collects_everything(const Maze& maze, Collect collect, const std::string& moves);

// The method each mode's 2-SAT verdict is checked against: "chain test" or "exact search".
std::string_view second_method(Collect collect);

}  // namespace levelforge::tiltmaze

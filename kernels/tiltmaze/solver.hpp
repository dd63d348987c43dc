#pragma once
// Solvability and solutions of tilt mazes (../shared/seeds/tiltmaze-scc-2sat.txt).
//
// The ball starts at rest on `maze.start`; the resting cells are those reachable from the
// start by rolls (the start included). Each roll is an edge of the roll graph; its strongly
// connected components are the groups the ball can circulate in, and their condensation is
// a DAG. In `stop` mode a target is collected when the ball comes to rest on it, in `pass`
// mode when it rolls over it or rests on it (the start cell counts at time 0 in both). A
// maze is solvable when some sequence of tilts collects every target, in any order.

#include <array>
#include <string>
#include <vector>

#include "kernels/tiltmaze/maze.hpp"

namespace levelforge::tiltmaze {

struct RollGraph {
  int cells = 0;
  std::vector<std::array<int, 4>> next;  // next[cell][direction]: where the ball comes to rest
  std::vector<int> resting;              // cells reachable from the start, start first, BFS order
};

RollGraph roll_graph(const Maze& maze);

// The strongly connected components of the roll graph restricted to the resting cells.
// Components are numbered so that the start's is 0 and every DAG edge goes from a lower
// to a higher number; `order` lists them in a topological order (that numbering).
struct Condensation {
  std::vector<int> component;  // per cell, -1 when not resting
  int count = 0;
  std::vector<std::vector<int>> successors;  // DAG edges, deduplicated, sorted
  std::vector<int> order;                    // a topological order
};

// Iterative Tarjan: no recursion, any maze up to max_side x max_side.
Condensation condense(const RollGraph& graph);

// `stop` mode, the document's 2-SAT formulation solved by an implication graph and its SCCs.
bool solvable_2sat(const Maze& maze, const RollGraph& graph, const Condensation& condensation);

// `stop` mode, the direct test: every target lies on a resting cell and the required
// components (the start's and those holding a target) are totally ordered by reachability.
bool solvable_chain(const Maze& maze, const RollGraph& graph, const Condensation& condensation);

// `pass` mode by the 2-SAT of docs/tiltmaze.md ("Pass mode is NP-hard only in the
// abstract"): a target other than the start is collected exactly when the play visits
// H(t) or V(t), the component holding both ends of the target's row run or of its column
// run. Polynomial. Only for the roll graph of `maze`: the proof rests on its walls.
bool solvable_pass_2sat(const Maze& maze, const RollGraph& graph, const Condensation& condensation);

// `pass` mode, an exact search over the condensation, valid for any roll graph; exponential
// only in the targets that are not forced into a single component (see solver.cpp). The
// independent check of solvable_pass_2sat, and the plan shortest_solution plays beyond
// max_exact_targets.
bool solvable_pass(const Maze& maze, const RollGraph& graph, const Condensation& condensation);

// stop -> solvable_2sat, pass -> solvable_pass_2sat.
bool solvable(const Maze& maze, Collect collect);

inline constexpr int max_exact_targets = 20;

struct Solution {
  bool solvable = false;
  bool proven_shortest = false;  // true for the BFS (at most max_exact_targets targets)
  int length = -1;               // number of tilts, -1 when unsolvable
  std::string moves;             // 'U', 'D', 'L', 'R' (direction_letters)
};

// BFS over (cell, collected targets), at most max_exact_targets targets: a shortest solution,
// or none (solvable false) where the search runs out. What shortest_solution runs once it has
// decided; alone, for a caller that has another count of the moves to check it against.
Solution bfs_solution(const Maze& maze, const RollGraph& graph, Collect collect);

// Decided as solvable() does. Up to max_exact_targets targets: BFS over (cell, collected
// targets), a shortest solution. Beyond: a valid solution built along the condensation
// order (the exact search's plan), not proven shortest.
Solution shortest_solution(const Maze& maze, Collect collect);
// The same over the maze's roll graph and condensation, for callers that have built them.
Solution shortest_solution(const Maze& maze, const RollGraph& graph,
                           const Condensation& condensation, Collect collect);

}  // namespace levelforge::tiltmaze

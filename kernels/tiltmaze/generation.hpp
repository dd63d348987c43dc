#pragma once
// Random tilt mazes from the kernel's RNG: each inner wall present with a given
// probability, a start, and targets anywhere or only where the ball can come to rest.

#include <vector>

#include "kernels/api/rng.hpp"
#include "kernels/tiltmaze/maze.hpp"

namespace levelforge::tiltmaze {

// `resting`: targets only on cells the ball can come to rest on from the start (other
// than the start), so a stop-mode puzzle is not unsolvable for the trivial reason;
// `anywhere`: any cell but the start.
enum class Placement { resting, anywhere };
enum class StartPlacement { corner, random };  // corner: the top-left cell

struct GenerationSpec {
  int width = 8;
  int height = 8;
  double wall_density = 0.3;  // probability of each inner wall
  int targets = 3;
  Placement placement = Placement::resting;
  StartPlacement start = StartPlacement::corner;
};

// Candidate cells for targets under `placement`: ascending, never the start.
std::vector<int> target_candidates(const Maze& maze, Placement placement);

// min(spec.targets, candidates) distinct targets drawn uniformly from the candidates,
// sorted ascending; replaces maze.targets.
void place_targets(Maze& maze, int count, Placement placement, Rng& rng);

// Walls, then the start, then the targets, in that order of draws.
Maze random_maze(const GenerationSpec& spec, Rng& rng);

}  // namespace levelforge::tiltmaze

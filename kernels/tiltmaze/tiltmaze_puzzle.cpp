// The tiltmaze kernel's puzzle capability: `levelforge solve tiltmaze FILE` and `levelforge
// maze` (docs/cli.md describes the report and its JSON form).

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kernels/api/index.hpp"
#include "kernels/tiltmaze/maze_text.hpp"
#include "kernels/tiltmaze/tiltmaze.hpp"

namespace levelforge::kernels {

namespace {

using tiltmaze::Collect;
using tiltmaze::Maze;

std::string_view plural(std::size_t count) { return count == 1 ? "" : "s"; }

// (row,col) of a cell.
std::string cell_text(const Maze& maze, int cell) {
  return fmt::format("({},{})", cell / maze.width, cell % maze.width);
}

// The cells of each component, ascending, and the targets among them.
struct ComponentCells {
  std::vector<std::vector<int>> cells;
  std::vector<std::vector<int>> targets;
};

ComponentCells component_cells(const Maze& maze, const tiltmaze::Condensation& condensation) {
  ComponentCells result{std::vector<std::vector<int>>(to_index(condensation.count)),
                        std::vector<std::vector<int>>(to_index(condensation.count))};
  for (int cell = 0; cell < maze.cells(); ++cell) {
    const int c = condensation.component[to_index(cell)];
    if (c >= 0) result.cells[to_index(c)].push_back(cell);
  }
  std::vector<int> targets = maze.targets;
  std::sort(targets.begin(), targets.end());
  for (const int t : targets) {
    const int c = condensation.component[to_index(t)];
    if (c >= 0) result.targets[to_index(c)].push_back(t);
  }
  return result;
}

std::vector<int> off_resting_targets(const Maze& maze, const tiltmaze::Condensation& condensation) {
  std::vector<int> off;
  for (const int t : maze.targets)
    if (condensation.component[to_index(t)] < 0) off.push_back(t);
  std::sort(off.begin(), off.end());
  return off;
}

std::size_t dag_edges(const tiltmaze::Condensation& condensation) {
  std::size_t edges = 0;
  for (const auto& successors : condensation.successors) edges += successors.size();
  return edges;
}

std::string report_text(const Maze& maze, const tiltmaze::MazeAnalysis& analysis) {
  const auto& condensation = analysis.condensation;
  std::string out =
      fmt::format("maze: {}x{}, start {}, {} target{}, collect {}\n", maze.width, maze.height,
                  cell_text(maze, maze.start), maze.targets.size(), plural(maze.targets.size()),
                  tiltmaze::collect_words.name(analysis.collect));
  out += fmt::format("solvable: {} (2-SAT: {}; {}: agrees)\n", analysis.solvable ? "yes" : "no",
                     analysis.two_sat ? "satisfiable" : "unsatisfiable",
                     tiltmaze::second_method(analysis.collect));
  const std::size_t resting = analysis.graph.resting.size();
  const auto components = to_index(condensation.count);
  const std::size_t edges = dag_edges(condensation);
  out += fmt::format(
      "roll graph: {} resting cell{} reachable from the start, {} component{}, {} DAG edge{}\n",
      resting, plural(resting), components, plural(components), edges, plural(edges));

  const ComponentCells parts = component_cells(maze, condensation);
  const int start_component = condensation.component[to_index(maze.start)];
  out += "components in topological order (* marks a target):\n";
  for (const int c : condensation.order) {
    std::vector<std::string> notes;
    if (c == start_component) notes.emplace_back("start");
    const std::size_t held = parts.targets[to_index(c)].size();
    if (held > 0) notes.push_back(fmt::format("{} target{}", held, plural(held)));
    std::string line = fmt::format("  C{}", c);
    if (!notes.empty()) line += fmt::format(" ({})", fmt::join(notes, ", "));
    line += ":";
    for (const int cell : parts.cells[to_index(c)]) {
      line += fmt::format(" {}", cell_text(maze, cell));
      if (std::binary_search(parts.targets[to_index(c)].begin(), parts.targets[to_index(c)].end(),
                             cell))
        line += "*";
    }
    const auto& successors = condensation.successors[to_index(c)];
    if (!successors.empty()) {
      line += " ->";
      for (const int s : successors) line += fmt::format(" C{}", s);
    }
    out += line + "\n";
  }
  const auto off = off_resting_targets(maze, condensation);
  if (!off.empty()) {
    std::string cells;
    for (const int t : off) cells += fmt::format(" {}", cell_text(maze, t));
    out +=
        fmt::format("targets the ball never rests on:{} ({})\n", cells,
                    analysis.collect == Collect::stop ? "never collected in stop mode"
                                                      : "only a roll over them can collect them");
  }

  const auto& solution = analysis.solution;
  const auto tilts = to_index(solution.length);
  if (!solution.solvable) {
    out += "solution: unsolvable\n";
  } else if (solution.proven_shortest) {
    out += fmt::format("shortest solution: {} tilt{}: {}\n", tilts, plural(tilts),
                       solution.moves.empty() ? "(none needed)" : solution.moves);
  } else {
    out += fmt::format(
        "solution: {} tilt{} (valid, but not proven shortest: more than {} targets): {}\n", tilts,
        plural(tilts), tiltmaze::max_exact_targets, solution.moves);
  }
  return out;
}

}  // namespace

PuzzleInfo TiltMaze::puzzle_info() {
  return {"the maze file (docs/tiltmaze.md), '-' for stdin",
          true,
          "maze",
          "maze",
          "compact tilt maze",
          "<compact>",
          "maze"};
}

std::vector<ParamSpec> TiltMaze::solve_options() { return {tiltmaze::collect_param()}; }

TiltMaze::Puzzle TiltMaze::parse_puzzle(std::string_view text, const std::string& source) {
  return tiltmaze::read_maze_file(text, source);
}

TiltMaze::PuzzleAnswer TiltMaze::solve_puzzle(const Puzzle& maze, const ParamSet& options) {
  return tiltmaze::analyze_maze(maze, options.choice_as("collect", tiltmaze::collect_words));
}

std::string TiltMaze::check_answer(const Puzzle& maze, const ParamSet& options,
                                   const PuzzleAnswer& answer) {
  const auto collect = options.choice_as("collect", tiltmaze::collect_words);
  if (answer.collect != collect) return "is for the other collect mode";
  const auto& solution = answer.solution;
  if (!solution.solvable) return {};
  if (static_cast<std::size_t>(solution.length) != solution.moves.size()) {
    return fmt::format("gives the length {} for the {} moves '{}'", solution.length,
                       solution.moves.size(), solution.moves);
  }
  if (!tiltmaze::collects_everything(maze, collect, solution.moves))
    return fmt::format("gives the solution '{}', which does not collect every target",
                       solution.moves);
  return {};
}

Report TiltMaze::report(const Puzzle& maze, const PuzzleAnswer& answer, const std::string& source) {
  const auto& condensation = answer.condensation;
  const ComponentCells parts = component_cells(maze, condensation);
  std::vector<int> targets = maze.targets;
  std::sort(targets.begin(), targets.end());
  Report::Json components = Report::Json::array();
  for (const int c : condensation.order) {
    components.push_back({{"id", c},
                          {"cells", parts.cells[to_index(c)]},
                          {"targets", parts.targets[to_index(c)]},
                          {"successors", condensation.successors[to_index(c)]}});
  }
  const bool stop = answer.collect == Collect::stop;
  const auto& solution = answer.solution;
  Report report;
  report.set("kernel", name);
  report.set("source", source);
  report.set("collect", tiltmaze::collect_words.name(answer.collect));
  report.set("width", maze.width);
  report.set("height", maze.height);
  report.set("start", maze.start);
  report.set("targets", targets);
  report.set("compact", tiltmaze::to_compact(maze));
  report.set("solvable", answer.solvable);
  report.set("two_sat", answer.two_sat);
  report.set("chain", stop ? Report::Json(answer.second) : Report::Json(nullptr));
  report.set("search", stop ? Report::Json(nullptr) : Report::Json(answer.second));
  report.set("resting_cells", answer.graph.resting.size());
  report.set("dag_edges", dag_edges(condensation));
  report.set("components", std::move(components));
  report.set("off_resting_targets", off_resting_targets(maze, condensation));
  report.set("length", solution.length);
  report.set("moves", solution.moves);
  report.set("proven_shortest", solution.proven_shortest);
  report.print(report_text(maze, answer));
  return report;
}

std::string TiltMaze::draw_puzzle(const Puzzle& maze, const std::string& source) {
  // The header lines are comments: the drawing is a maze file that `solve` reads back.
  std::string out =
      fmt::format("# {}: {}x{}, start {}, {} target{}\n# compact: {}\n", source, maze.width,
                  maze.height, cell_text(maze, maze.start), maze.targets.size(),
                  plural(maze.targets.size()), tiltmaze::to_compact(maze));
  Maze drawn = maze;
  const auto on_start = std::find(drawn.targets.begin(), drawn.targets.end(), maze.start);
  if (on_start != drawn.targets.end()) {
    // A cell of the drawing holds one character. The start's target is collected at time 0
    // in both modes, so the drawing without it has the same solutions.
    drawn.targets.erase(on_start);
    out += fmt::format(
        "# note: the start {} is also a target, which the drawing cannot show: it is drawn as "
        "'S' (the target is collected at the start, so the solutions are the same)\n",
        cell_text(maze, maze.start));
  }
  return out + tiltmaze::format_maze(drawn);
}

}  // namespace levelforge::kernels

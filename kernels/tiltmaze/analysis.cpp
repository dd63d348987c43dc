#include "kernels/tiltmaze/analysis.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

namespace levelforge::tiltmaze {

namespace {

std::string verdict(bool value) { return value ? "solvable" : "unsolvable"; }

}  // namespace

ParamSpec collect_param() {
  return choice_param("collect", collect_words,
                      "a target counts when the ball rests on it, or also when it rolls over it");
}

std::string_view second_method(Collect collect) {
  return collect == Collect::stop ? "chain test" : "exact search";
}

bool collects_everything(const Maze& maze, Collect collect, const std::string& moves) {
  const auto at = [](int cell) { return static_cast<std::size_t>(cell); };
  std::vector<char> collected(at(maze.cells()), 0);
  collected[at(maze.start)] = 1;
  int cell = maze.start;
  std::vector<int> passed;
  for (const char move : moves) {
    const auto letter = direction_letters.find(move);
    if (letter == std::string_view::npos) return false;
    passed.clear();
    cell = roll(maze, cell, static_cast<Direction>(letter), &passed);
    if (collect == Collect::pass)
      for (const int c : passed) collected[at(c)] = 1;
    collected[at(cell)] = 1;
  }
  return std::all_of(maze.targets.begin(), maze.targets.end(),
                     [&](int t) { return collected[at(t)] != 0; });
}

MazeAnalysis analyze_maze(const Maze& maze, Collect collect) {
  MazeAnalysis analysis;
  analysis.collect = collect;
  analysis.graph = roll_graph(maze);
  analysis.condensation = condense(analysis.graph);
  const bool stop = collect == Collect::stop;
  const auto& graph = analysis.graph;
  const auto& condensation = analysis.condensation;
  analysis.two_sat = stop ? solvable_2sat(maze, graph, condensation)
                          : solvable_pass_2sat(maze, graph, condensation);
  analysis.second =
      stop ? solvable_chain(maze, graph, condensation) : solvable_pass(maze, graph, condensation);
  if (analysis.two_sat != analysis.second) {
    throw std::logic_error("the 2-SAT verdict (" + verdict(analysis.two_sat) + ") and the " +
                           std::string(second_method(collect)) + " (" + verdict(analysis.second) +
                           ") disagree");
  }
  analysis.solvable = analysis.two_sat;
  analysis.solution = shortest_solution(maze, graph, condensation, collect);
  if (analysis.solution.solvable != analysis.solvable) {
    throw std::logic_error("the decision (" + verdict(analysis.solvable) +
                           ") and the solution search (" + verdict(analysis.solution.solvable) +
                           ") disagree");
  }
  return analysis;
}

}  // namespace levelforge::tiltmaze

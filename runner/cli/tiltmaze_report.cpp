#include "runner/cli/tiltmaze_report.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "kernels/api/text.hpp"
#include "kernels/tiltmaze/maze_text.hpp"

namespace levelforge::cli {

namespace {

using tiltmaze::Collect;
using tiltmaze::Maze;

constexpr std::size_t idx(int i) { return static_cast<std::size_t>(i); }

// The cells of each component, ascending, and the targets among them.
struct ComponentCells {
  std::vector<std::vector<int>> cells;
  std::vector<std::vector<int>> targets;
};

ComponentCells component_cells(const Maze& maze, const tiltmaze::Condensation& condensation) {
  ComponentCells result{std::vector<std::vector<int>>(idx(condensation.count)),
                        std::vector<std::vector<int>>(idx(condensation.count))};
  for (int cell = 0; cell < maze.cells(); ++cell) {
    const int c = condensation.component[idx(cell)];
    if (c >= 0) result.cells[idx(c)].push_back(cell);
  }
  std::vector<int> targets = maze.targets;
  std::sort(targets.begin(), targets.end());
  for (const int t : targets) {
    const int c = condensation.component[idx(t)];
    if (c >= 0) result.targets[idx(c)].push_back(t);
  }
  return result;
}

std::vector<int> off_resting_targets(const Maze& maze, const tiltmaze::Condensation& condensation) {
  std::vector<int> off;
  for (const int t : maze.targets)
    if (condensation.component[idx(t)] < 0) off.push_back(t);
  std::sort(off.begin(), off.end());
  return off;
}

int dag_edges(const tiltmaze::Condensation& condensation) {
  std::size_t edges = 0;
  for (const auto& successors : condensation.successors) edges += successors.size();
  return static_cast<int>(edges);
}

// Plays `moves` from the start and checks that they collect every target: the solvers'
// solution is checked by the model itself, not by the code that found it.
bool collects_everything(const Maze& maze, Collect collect, const std::string& moves) {
  std::vector<char> collected(idx(maze.cells()), 0);
  collected[idx(maze.start)] = 1;
  int cell = maze.start;
  std::vector<int> passed;
  for (const char move : moves) {
    const auto letter = tiltmaze::direction_letters.find(move);
    if (letter == std::string_view::npos) return false;
    const auto direction = static_cast<tiltmaze::Direction>(letter);
    passed.clear();
    cell = tiltmaze::roll(maze, cell, direction, &passed);
    if (collect == Collect::pass)
      for (const int c : passed) collected[idx(c)] = 1;
    collected[idx(cell)] = 1;
  }
  return std::all_of(maze.targets.begin(), maze.targets.end(),
                     [&](int t) { return collected[idx(t)] != 0; });
}

std::string verdict(bool value) { return value ? "solvable" : "unsolvable"; }

// A JSON string literal: quotes, backslashes and control characters escaped; other bytes
// are passed through (the text we write is ASCII apart from file names).
std::string json_string(std::string_view text) {
  std::string quoted = "\"";
  for (const char ch : text) {
    switch (ch) {
      case '"': quoted += "\\\""; break;
      case '\\': quoted += "\\\\"; break;
      case '\n': quoted += "\\n"; break;
      case '\r': quoted += "\\r"; break;
      case '\t': quoted += "\\t"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          quoted += fmt::format("\\u{:04x}", static_cast<unsigned>(ch));
        } else {
          quoted += ch;
        }
    }
  }
  return quoted + "\"";
}

std::string json_ints(const std::vector<int>& values) {
  return fmt::format("[{}]", fmt::join(values, ","));
}

std::string_view json_bool(bool value) { return value ? "true" : "false"; }

}  // namespace

Collect parse_collect(std::string_view name) {
  if (name == "stop") return Collect::stop;
  if (name == "pass") return Collect::pass;
  throw std::invalid_argument("collect mode '" + std::string(name) + "': expected stop or pass");
}

std::string_view collect_name(Collect collect) {
  return collect == Collect::stop ? "stop" : "pass";
}

// The method each mode's 2-SAT verdict is checked against.
std::string_view second_method(Collect collect) {
  return collect == Collect::stop ? "chain test" : "exact search";
}

std::string cell_text(const Maze& maze, int cell) {
  return fmt::format("({},{})", cell / maze.width, cell % maze.width);
}

Maze read_maze_text(std::string_view original, const std::string& source) {
  // As editors write it: a byte-order mark, old Mac line ends.
  const std::string plain = with_plain_line_ends(original);
  const std::string_view text = plain;
  // The first line that is not a comment decides the form: a compact string starts with
  // its width, a drawing with the corner '+'.
  int line_number = 0;
  std::size_t begin = 0;
  std::string_view first;
  while (begin < text.size()) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++line_number;
    begin = end + 1;
    if (line.empty() || line.front() != '#') {
      first = line;
      break;
    }
  }
  if (first.empty() || first.front() < '0' || first.front() > '9')
    return tiltmaze::parse_maze(text, source);

  const int compact_line = line_number;
  for (int number = line_number + 1; begin < text.size(); ++number) {
    const std::size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    begin = end + 1;
    // Comments and empty lines may follow; anything else is a second maze line.
    if (line.empty() || line.front() == '#') continue;
    throw tiltmaze::MazeFormatError(
        source, number, 1,
        fmt::format("a second line after the compact maze on line {}: a compact maze file holds "
                    "one line besides comments",
                    compact_line));
  }
  try {
    return tiltmaze::from_compact(first);
  } catch (const tiltmaze::MazeFormatError& error) {
    throw tiltmaze::MazeFormatError(source, compact_line, error.column(), error.message());
  }
}

MazeAnalysis analyze_maze(const Maze& maze, Collect collect, const std::string& source) {
  MazeAnalysis analysis;
  analysis.collect = collect;
  analysis.graph = tiltmaze::roll_graph(maze);
  analysis.condensation = tiltmaze::condense(analysis.graph);
  const auto internal_error = [&](const std::string& what) {
    return std::logic_error(
        fmt::format("internal error on {} ({}, collect {}): {}; please report it with the maze",
                    source, tiltmaze::to_compact(maze), collect_name(collect), what));
  };
  const bool stop = collect == Collect::stop;
  const auto& graph = analysis.graph;
  const auto& condensation = analysis.condensation;
  analysis.two_sat = stop ? tiltmaze::solvable_2sat(maze, graph, condensation)
                          : tiltmaze::solvable_pass_2sat(maze, graph, condensation);
  analysis.second = stop ? tiltmaze::solvable_chain(maze, graph, condensation)
                         : tiltmaze::solvable_pass(maze, graph, condensation);
  if (analysis.two_sat != analysis.second) {
    throw internal_error(fmt::format("the 2-SAT verdict ({}) and the {} ({}) disagree",
                                     verdict(analysis.two_sat), second_method(collect),
                                     verdict(analysis.second)));
  }
  analysis.solvable = analysis.two_sat;
  analysis.solution = tiltmaze::shortest_solution(maze, graph, condensation, collect);
  if (analysis.solution.solvable != analysis.solvable) {
    throw internal_error(fmt::format("the decision ({}) and the solution search ({}) disagree",
                                     verdict(analysis.solvable),
                                     verdict(analysis.solution.solvable)));
  }
  if (analysis.solvable &&
      (static_cast<std::size_t>(analysis.solution.length) != analysis.solution.moves.size() ||
       !collects_everything(maze, collect, analysis.solution.moves))) {
    throw internal_error("the solution '" + analysis.solution.moves +
                         "' does not collect every target");
  }
  return analysis;
}

std::string report_text(const Maze& maze, const MazeAnalysis& analysis) {
  const auto& condensation = analysis.condensation;
  std::string out =
      fmt::format("maze: {}x{}, start {}, {} target{}, collect {}\n", maze.width, maze.height,
                  cell_text(maze, maze.start), maze.targets.size(),
                  maze.targets.size() == 1 ? "" : "s", collect_name(analysis.collect));
  out += fmt::format("solvable: {} (2-SAT: {}; {}: agrees)\n", analysis.solvable ? "yes" : "no",
                     analysis.two_sat ? "satisfiable" : "unsatisfiable",
                     second_method(analysis.collect));
  out += fmt::format(
      "roll graph: {} resting cell{} reachable from the start, {} component{}, {} DAG edge{}\n",
      analysis.graph.resting.size(), analysis.graph.resting.size() == 1 ? "" : "s",
      condensation.count, condensation.count == 1 ? "" : "s", dag_edges(condensation),
      dag_edges(condensation) == 1 ? "" : "s");

  const ComponentCells parts = component_cells(maze, condensation);
  const int start_component = condensation.component[idx(maze.start)];
  out += "components in topological order (* marks a target):\n";
  for (const int c : condensation.order) {
    std::vector<std::string> notes;
    if (c == start_component) notes.emplace_back("start");
    const std::size_t held = parts.targets[idx(c)].size();
    if (held > 0) notes.push_back(fmt::format("{} target{}", held, held == 1 ? "" : "s"));
    std::string line = fmt::format("  C{}", c);
    if (!notes.empty()) line += fmt::format(" ({})", fmt::join(notes, ", "));
    line += ":";
    for (const int cell : parts.cells[idx(c)]) {
      line += fmt::format(" {}", cell_text(maze, cell));
      if (std::binary_search(parts.targets[idx(c)].begin(), parts.targets[idx(c)].end(), cell))
        line += "*";
    }
    const auto& successors = condensation.successors[idx(c)];
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
  if (!solution.solvable) {
    out += "solution: unsolvable\n";
  } else if (solution.proven_shortest) {
    out += fmt::format("shortest solution: {} tilt{}: {}\n", solution.length,
                       solution.length == 1 ? "" : "s",
                       solution.moves.empty() ? "(none needed)" : solution.moves);
  } else {
    out += fmt::format(
        "solution: {} tilt{} (valid, but not proven shortest: more than {} targets): {}\n",
        solution.length, solution.length == 1 ? "" : "s", tiltmaze::max_exact_targets,
        solution.moves);
  }
  return out;
}

std::string report_json(const Maze& maze, const MazeAnalysis& analysis, const std::string& source) {
  const auto& condensation = analysis.condensation;
  const ComponentCells parts = component_cells(maze, condensation);
  std::vector<int> targets = maze.targets;
  std::sort(targets.begin(), targets.end());
  std::vector<std::string> components;
  for (const int c : condensation.order) {
    components.push_back(fmt::format(
        R"({{"id":{},"cells":{},"targets":{},"successors":{}}})", c, json_ints(parts.cells[idx(c)]),
        json_ints(parts.targets[idx(c)]), json_ints(condensation.successors[idx(c)])));
  }
  const bool stop = analysis.collect == Collect::stop;
  const auto& solution = analysis.solution;
  std::string out = "{";
  out += fmt::format(R"("kernel":"tiltmaze","source":{},"collect":"{}",)", json_string(source),
                     collect_name(analysis.collect));
  out += fmt::format(R"("width":{},"height":{},"start":{},"targets":{},"compact":{},)", maze.width,
                     maze.height, maze.start, json_ints(targets),
                     json_string(tiltmaze::to_compact(maze)));
  out += fmt::format(R"("solvable":{},"two_sat":{},"chain":{},"search":{},)",
                     json_bool(analysis.solvable), json_bool(analysis.two_sat),
                     stop ? json_bool(analysis.second) : "null",
                     stop ? "null" : json_bool(analysis.second));
  out += fmt::format(R"("resting_cells":{},"dag_edges":{},"components":[{}],)",
                     analysis.graph.resting.size(), dag_edges(condensation),
                     fmt::join(components, ","));
  out += fmt::format(R"("off_resting_targets":{},)",
                     json_ints(off_resting_targets(maze, condensation)));
  out += fmt::format(R"("length":{},"moves":{},"proven_shortest":{})", solution.length,
                     json_string(solution.moves), json_bool(solution.proven_shortest));
  return out + "}";
}

}  // namespace levelforge::cli

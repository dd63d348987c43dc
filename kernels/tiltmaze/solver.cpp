#include "kernels/tiltmaze/solver.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kernels/api/index.hpp"

namespace levelforge::tiltmaze {
namespace {

using Mask = std::uint64_t;  // one bit per target (max_targets == 64)
using Graph = std::vector<std::vector<int>>;
constexpr Mask bit(int i) { return Mask{1} << i; }

Mask all_targets(const Maze& maze) {
  const auto n = maze.targets.size();
  return n >= 64 ? ~Mask{0} : (Mask{1} << n) - 1;
}

// target_at[cell]: the index of the target on cell, -1 when none.
std::vector<int> target_at(const Maze& maze) {
  std::vector<int> at(to_index(maze.cells()), -1);
  for (std::size_t t = 0; t < maze.targets.size(); ++t)
    at[to_index(maze.targets[t])] = static_cast<int>(t);
  return at;
}

// The targets a roll from `cell` collects: the end cell (`stop`) or every cell passed (`pass`).
Mask roll_gain(const Maze& maze, const std::vector<int>& at, int cell, int direction,
               Collect collect) {
  std::vector<int> passed;
  const int end = roll(maze, cell, static_cast<Direction>(direction), &passed);
  if (collect == Collect::stop) return at[to_index(end)] >= 0 ? bit(at[to_index(end)]) : 0;
  Mask gain = 0;
  for (const int c : passed)
    if (at[to_index(c)] >= 0) gain |= bit(at[to_index(c)]);
  return gain;
}

struct Sccs {
  std::vector<int> id;  // per vertex, numbered as components complete (sinks first); -1 unvisited
  int count = 0;
};

// Tarjan's algorithm with an explicit call stack, from each root in turn. `graph[v]` is
// any sized range of successors (the roll graph's four rolls, self-loops included, need
// no copy).
template <class Adjacency>
Sccs tarjan(const Adjacency& graph, const std::vector<int>& roots) {
  const std::size_t n = graph.size();
  Sccs result{std::vector<int>(n, -1), 0};
  std::vector<int> index(n, -1), low(n, 0), stack;
  std::vector<char> on_stack(n, 0);
  std::vector<std::pair<int, std::size_t>> calls;  // vertex, next edge to follow
  int counter = 0;
  const auto visit = [&](int v) {
    index[to_index(v)] = low[to_index(v)] = counter++;
    stack.push_back(v);
    on_stack[to_index(v)] = 1;
    calls.emplace_back(v, 0);
  };
  for (const int root : roots) {
    if (index[to_index(root)] >= 0) continue;
    visit(root);
    while (!calls.empty()) {
      const int v = calls.back().first;
      const auto& out = graph[to_index(v)];
      if (calls.back().second < out.size()) {
        const int w = out[calls.back().second++];
        if (index[to_index(w)] < 0) {
          visit(w);
        } else if (on_stack[to_index(w)] != 0) {
          low[to_index(v)] = std::min(low[to_index(v)], index[to_index(w)]);
        }
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) {
        const int parent = calls.back().first;
        low[to_index(parent)] = std::min(low[to_index(parent)], low[to_index(v)]);
      }
      if (low[to_index(v)] != index[to_index(v)]) continue;
      int w = -1;
      do {
        w = stack.back();
        stack.pop_back();
        on_stack[to_index(w)] = 0;
        result.id[to_index(w)] = result.count;
      } while (w != v);
      ++result.count;
    }
  }
  return result;
}

// Vertices reachable from `source` (itself included).
std::vector<char> reach(const Graph& graph, int source) {
  std::vector<char> seen(graph.size(), 0);
  std::vector<int> todo{source};
  seen[to_index(source)] = 1;
  while (!todo.empty()) {
    const int v = todo.back();
    todo.pop_back();
    for (const int w : graph[to_index(v)])
      if (seen[to_index(w)] == 0) {
        seen[to_index(w)] = 1;
        todo.push_back(w);
      }
  }
  return seen;
}

Graph predecessors(const Condensation& condensation) {
  Graph result(to_index(condensation.count));
  for (int c = 0; c < condensation.count; ++c)
    for (const int s : condensation.successors[to_index(c)]) result[to_index(s)].push_back(c);
  return result;
}

// ---------------------------------------------------------------------------------------
// 2-SAT: literal 2v is "x_v", 2v + 1 is "!x_v"; the formula is unsatisfiable exactly when
// some x_v and !x_v share a strongly connected component of the implication graph.
class TwoSat {
 public:
  explicit TwoSat(int variables) : implications_(to_index(2 * variables)) {}
  static int literal(int variable, bool value) { return 2 * variable + (value ? 0 : 1); }
  void clause(int a, int b) {  // a || b, i.e. !a -> b and !b -> a
    implications_[to_index(a ^ 1)].push_back(b);
    implications_[to_index(b ^ 1)].push_back(a);
  }
  void unit(int a) { clause(a, a); }
  [[nodiscard]] bool satisfiable() const {
    std::vector<int> roots(implications_.size());
    std::iota(roots.begin(), roots.end(), 0);
    const Sccs sccs = tarjan(implications_, roots);
    for (std::size_t v = 0; v < implications_.size(); v += 2)
      if (sccs.id[v] == sccs.id[v + 1]) return false;
    return true;
  }

 private:
  Graph implications_;
};

// Whether one play can visit every component in `units` and one of each pair in `either`:
// the 2-SAT over x_c = "the play visits c" with those clauses and the chain clauses
// (!x_u || !x_v) for every two components no path holds together, since the components one
// play visits are exactly the chains of the DAG holding the start's (docs/tiltmaze.md).
// The caller puts the start's component in `units`. Chain clauses are written only between
// the components the other clauses name: any other x_c can be false without breaking one,
// so the answer is the same and the clauses stay quadratic in the named components. (The
// document also sets the components the start cannot reach false; the condensation holds
// only resting cells, so there are none.)
bool one_play_visits(const Condensation& condensation, const std::vector<int>& units,
                     const std::vector<std::pair<int, int>>& either) {
  std::vector<int> named = units;
  for (const auto& [a, b] : either) {
    named.push_back(a);
    named.push_back(b);
  }
  std::sort(named.begin(), named.end());
  named.erase(std::unique(named.begin(), named.end()), named.end());
  const auto variable = [&](int component) {
    return static_cast<int>(std::lower_bound(named.begin(), named.end(), component) -
                            named.begin());
  };
  const auto yes = [&](int component) { return TwoSat::literal(variable(component), true); };
  const auto no = [&](int component) { return TwoSat::literal(variable(component), false); };
  TwoSat sat(static_cast<int>(named.size()));
  for (const int u : units) sat.unit(yes(u));
  for (const auto& [a, b] : either) sat.clause(yes(a), yes(b));
  // DAG edges go from lower to higher numbers, so of two named components only the lower
  // can reach the higher.
  for (std::size_t i = 0; i < named.size(); ++i) {
    const auto below = reach(condensation.successors, named[i]);
    for (std::size_t j = i + 1; j < named.size(); ++j)
      if (below[to_index(named[j])] == 0) sat.clause(no(named[i]), no(named[j]));
  }
  return sat.satisfiable();
}

// ---------------------------------------------------------------------------------------
// The exact search of `pass` mode (also valid for `stop`, where it is polynomial).
//
// A play is a path through the condensation DAG: the ball enters each component once, by
// one inter-component roll. Inside a component it can make every roll of that component
// and return anywhere, so what a visited component can give is fixed: its cover (targets
// on its cells or passed by its inner rolls). What the play collects is the union of the
// covers of the components visited and of the extras (targets passed, not already in the
// covers of both ends) of the connecting rolls. A target covered by exactly one component
// and no extra is forced: that component must be visited. The forced components and the
// start's must lie on one chain (else unsolvable), every target they cover is collected,
// and the rest, the free targets, are searched as a bitmask: states (component, free
// targets collected so far) in topological order, pruned to the maximal masks per
// component, restricted to paths that go through the forced chain in its order.
//
// In a real maze the extras are always empty: if a roll u -> v leaves component A for B,
// the reverse roll from v passes back over the same cells to some w, and w rolls back to
// v (v is blocked on that side), so v and w share B and B's cover holds those cells. Edges
// keep their extras anyway, so the search stays exact for any roll graph.

struct Edge {
  int from, to;
  Mask extra;
  int cell, direction;  // the roll
};

struct Coverage {
  std::vector<Mask> component;
  std::vector<Edge> edges;  // distinct (from, to, extra), one roll each
};

Coverage coverage(const Maze& maze, const RollGraph& graph, const Condensation& condensation,
                  Collect collect) {
  const auto at = target_at(maze);
  Coverage result{std::vector<Mask>(to_index(condensation.count), 0), {}};
  std::vector<Edge> raw;
  for (const int u : graph.resting) {
    const int c = condensation.component[to_index(u)];
    if (at[to_index(u)] >= 0) result.component[to_index(c)] |= bit(at[to_index(u)]);
    for (int d = 0; d < 4; ++d) {
      const int v = graph.next[to_index(u)][to_index(d)];
      if (v == u) continue;
      const Mask gain = roll_gain(maze, at, u, d, collect);
      const int to = condensation.component[to_index(v)];
      if (to == c) {
        result.component[to_index(c)] |= gain;
      } else {
        raw.push_back({c, to, gain, u, d});
      }
    }
  }
  for (auto& e : raw)
    e.extra &= ~(result.component[to_index(e.from)] | result.component[to_index(e.to)]);
  const auto key = [](const Edge& e) { return std::tie(e.from, e.to, e.extra); };
  std::stable_sort(raw.begin(), raw.end(),
                   [&](const Edge& a, const Edge& b) { return key(a) < key(b); });
  raw.erase(std::unique(raw.begin(), raw.end(),
                        [&](const Edge& a, const Edge& b) { return key(a) == key(b); }),
            raw.end());
  result.edges = std::move(raw);
  return result;
}

struct Step {
  int component;
  int edge;  // index in Coverage::edges of the roll entering `component`, -1 for the start's
};

struct Plan {
  Coverage coverage;
  std::vector<Step> steps;  // components in the order visited, the start's first
};

std::optional<Plan> plan(const Maze& maze, const RollGraph& graph, const Condensation& condensation,
                         Collect collect) {
  Plan result{coverage(maze, graph, condensation, collect), {}};
  const auto& cover = result.coverage.component;
  const auto& edges = result.coverage.edges;
  const int count = condensation.count;

  // Forced components: required, together with the start's.
  std::vector<int> position(to_index(count));
  for (int i = 0; i < count; ++i) position[to_index(condensation.order[to_index(i)])] = i;
  std::vector<int> required{condensation.component[to_index(maze.start)]};
  for (int t = 0; t < static_cast<int>(maze.targets.size()); ++t) {
    int holder = -1, holders = 0;
    for (int c = 0; c < count; ++c)
      if ((cover[to_index(c)] & bit(t)) != 0) {
        holder = c;
        ++holders;
      }
    const bool on_edge = std::any_of(edges.begin(), edges.end(),
                                     [&](const Edge& e) { return (e.extra & bit(t)) != 0; });
    if (holders == 0 && !on_edge) return std::nullopt;
    if (holders == 1 && !on_edge) required.push_back(holder);
  }
  std::sort(required.begin(), required.end(),
            [&](int a, int b) { return position[to_index(a)] < position[to_index(b)]; });
  required.erase(std::unique(required.begin(), required.end()), required.end());

  // ancestors[j][c]: c reaches required[j] (or is it). The chain must be totally ordered.
  const int last = static_cast<int>(required.size()) - 1;
  const Graph back = predecessors(condensation);
  std::vector<std::vector<char>> ancestors;
  ancestors.reserve(required.size());
  for (const int r : required) ancestors.push_back(reach(back, r));
  for (int j = 1; j <= last; ++j)
    if (ancestors[to_index(j)][to_index(required[to_index(j - 1)])] == 0) return std::nullopt;

  Mask done = 0;
  for (const int r : required) done |= cover[to_index(r)];
  const Mask free = all_targets(maze) & ~done;

  // next_required[c]: the index of the next chain component a path at c must still visit.
  std::vector<int> next_required(to_index(count), last + 1);
  for (int j = last; j >= 1; --j)
    for (int c = 0; c < count; ++c)
      if (ancestors[to_index(j)][to_index(c)] != 0 && c != required[to_index(j)])
        next_required[to_index(c)] = j;
  Graph out(to_index(count));
  for (int e = 0; e < static_cast<int>(edges.size()); ++e)
    out[to_index(edges[to_index(e)].from)].push_back(e);

  struct State {
    Mask mask;
    int parent, edge, component;
  };
  std::vector<State> states{{cover[to_index(required[0])] & free, -1, -1, required[0]}};
  Graph pending(to_index(count));
  pending[to_index(required[0])].push_back(0);
  for (const int c : condensation.order) {
    auto& candidates = pending[to_index(c)];
    std::sort(candidates.begin(), candidates.end(), [&](int a, int b) {
      return std::popcount(states[to_index(a)].mask) > std::popcount(states[to_index(b)].mask);
    });
    std::vector<int> kept;
    for (const int s : candidates) {
      const Mask m = states[to_index(s)].mask;
      if (std::none_of(kept.begin(), kept.end(), [&](int k) {
            return (states[to_index(k)].mask | m) == states[to_index(k)].mask;
          }))
        kept.push_back(s);
    }
    const int j = next_required[to_index(c)];
    for (const int s : kept) {
      if (j <= last || states[to_index(s)].mask != free) continue;
      for (int at = s; at >= 0; at = states[to_index(at)].parent)
        result.steps.push_back({states[to_index(at)].component, states[to_index(at)].edge});
      std::reverse(result.steps.begin(), result.steps.end());
      return result;
    }
    for (const int e : out[to_index(c)]) {
      const Edge& edge = edges[to_index(e)];
      if (j <= last && ancestors[to_index(j)][to_index(edge.to)] == 0)
        continue;  // would skip required[j]
      for (const int s : kept) {
        const Mask m = (states[to_index(s)].mask | edge.extra | cover[to_index(edge.to)]) & free;
        pending[to_index(edge.to)].push_back(static_cast<int>(states.size()));
        states.push_back({m, s, e, edge.to});
      }
    }
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------
// Solutions.

}  // namespace

Solution bfs_solution(const Maze& maze, const RollGraph& graph, Collect collect) {
  const auto at = target_at(maze);
  const int targets = static_cast<int>(maze.targets.size());
  const Mask full = all_targets(maze);
  const Mask start_mask = at[to_index(maze.start)] >= 0 ? bit(at[to_index(maze.start)]) : 0;
  const auto key = [&](int cell, Mask mask) { return (static_cast<Mask>(cell) << targets) | mask; };
  std::vector<std::array<Mask, 4>> gains(to_index(graph.cells));
  for (const int u : graph.resting)
    for (int d = 0; d < 4; ++d)
      gains[to_index(u)][to_index(d)] = roll_gain(maze, at, u, d, collect);

  const Mask start_key = key(maze.start, start_mask);
  // key -> (previous key << 2) | direction. A table where the keys are few (a 4 x 4 maze
  // with one target has 32: the exhaustive sweep's top-k records), a hash map otherwise.
  constexpr Mask unvisited = ~Mask{0} - 1;  // the start's parent is ~0
  const bool flat = targets < 16 && (static_cast<Mask>(graph.cells) << targets) <= (Mask{1} << 16);
  std::vector<Mask> table(flat ? static_cast<std::size_t>(graph.cells) << targets : 0, unvisited);
  std::unordered_map<Mask, Mask> hashed;
  // Links `k` to `link` unless it has a parent already; true when it had none.
  const auto link_new = [&](Mask k, Mask link) {
    if (!flat) return hashed.emplace(k, link).second;
    auto& slot = table[static_cast<std::size_t>(k)];
    if (slot != unvisited) return false;
    slot = link;
    return true;
  };
  const auto parent = [&](Mask k) {
    return flat ? table[static_cast<std::size_t>(k)] : hashed.at(k);
  };
  (void)link_new(start_key, ~Mask{0});
  std::vector<Mask> queue{start_key};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const Mask current = queue[head];
    const Mask mask = current & full;
    if (mask == full) {
      std::string moves;
      for (Mask k = current; k != start_key; k = parent(k) >> 2)
        moves.push_back(direction_letters[parent(k) & 3]);
      std::reverse(moves.begin(), moves.end());
      return {true, true, static_cast<int>(moves.size()), moves};
    }
    const int cell = static_cast<int>(current >> targets);
    for (int d = 0; d < 4; ++d) {
      const int next = graph.next[to_index(cell)][to_index(d)];
      if (next == cell) continue;
      const Mask k = key(next, mask | gains[to_index(cell)][to_index(d)]);
      if (link_new(k, (current << 2) | static_cast<Mask>(d))) queue.push_back(k);
    }
  }
  return {false, false, -1, ""};
}

namespace {

// Plays a Plan: in each component, rolls that collect something new until none is left,
// then the planned roll into the next component (breadth-first walks inside a component).
class Walker {
 public:
  Walker(const Maze& maze, const RollGraph& graph, const Condensation& condensation,
         Collect collect)
      : maze_(maze),
        graph_(graph),
        condensation_(condensation),
        collect_(collect),
        at_(target_at(maze)),
        cell_(maze.start),
        collected_(at_[to_index(maze.start)] >= 0 ? bit(at_[to_index(maze.start)]) : 0) {}

  Solution play(const Plan& plan) {
    for (const Step& step : plan.steps) {
      if (step.edge >= 0) {
        const Edge& e = plan.coverage.edges[to_index(step.edge)];
        if (!walk_and_tilt([&](int x, int d) { return x == e.cell && d == e.direction; }))
          throw std::logic_error("tiltmaze: planned roll not reachable");
      }
      while (walk_and_tilt([&](int x, int d) {
        const int to = graph_.next[to_index(x)][to_index(d)];
        return to != x && same_component(to) && (gain(x, d) & ~collected_) != 0;
      })) {
      }
    }
    if (collected_ != all_targets(maze_)) throw std::logic_error("tiltmaze: plan left targets");
    return {true, false, static_cast<int>(moves_.size()), moves_};
  }

 private:
  [[nodiscard]] bool same_component(int cell) const {
    return condensation_.component[to_index(cell)] == condensation_.component[to_index(cell_)];
  }
  [[nodiscard]] Mask gain(int cell, int d) const {
    return roll_gain(maze_, at_, cell, d, collect_);
  }
  void tilt(int d) {
    collected_ |= gain(cell_, d);
    cell_ = graph_.next[to_index(cell_)][to_index(d)];
    moves_.push_back(direction_letters[to_index(d)]);
  }
  // Breadth-first over the rolls inside the current component for the first (cell, direction)
  // that `accept`s; walks there and tilts it. False when there is none.
  template <class Accept>
  bool walk_and_tilt(Accept accept) {
    std::vector<int> from(to_index(graph_.cells), -1);  // previous cell * 4 + direction
    std::vector<int> queue{cell_};
    from[to_index(cell_)] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int x = queue[head];
      for (int d = 0; d < 4; ++d) {
        if (accept(x, d)) {
          std::string path;
          for (int y = x; y != cell_; y = from[to_index(y)] / 4)
            path.push_back(static_cast<char>(from[to_index(y)] % 4));
          std::reverse(path.begin(), path.end());
          for (const char step : path) tilt(step);
          tilt(d);
          return true;
        }
        const int y = graph_.next[to_index(x)][to_index(d)];
        if (from[to_index(y)] < 0 && same_component(y)) {
          from[to_index(y)] = x * 4 + d;
          queue.push_back(y);
        }
      }
    }
    return false;
  }

  const Maze& maze_;
  const RollGraph& graph_;
  const Condensation& condensation_;
  Collect collect_;
  std::vector<int> at_;
  int cell_;
  Mask collected_;
  std::string moves_;
};

}  // namespace

RollGraph roll_graph(const Maze& maze) {
  RollGraph graph{maze.cells(), std::vector<std::array<int, 4>>(to_index(maze.cells())), {}};
  // A ball that can step from `cell` towards a neighbour ends where one rolling from that
  // neighbour does: sweep each direction from its far side, one step per cell, rather than
  // rolling every cell to its wall.
  auto& next = graph.next;
  const int w = maze.width;
  const int h = maze.height;
  const auto end_of = [&](int cell, Direction d, bool wall, int from) {
    next[to_index(cell)][to_index(d)] = wall ? cell : next[to_index(from)][to_index(d)];
  };
  for (int row = 0; row < h; ++row) {
    for (int column = 0; column < w; ++column) {
      const int cell = row * w + column;
      end_of(cell, left, column == 0 || maze.east[to_index(cell - 1)] != 0, cell - 1);
      end_of(cell, up, row == 0 || maze.south[to_index(cell - w)] != 0, cell - w);
    }
  }
  for (int row = h - 1; row >= 0; --row) {
    for (int column = w - 1; column >= 0; --column) {
      const int cell = row * w + column;
      end_of(cell, right, column == w - 1 || maze.east[to_index(cell)] != 0, cell + 1);
      end_of(cell, down, row == h - 1 || maze.south[to_index(cell)] != 0, cell + w);
    }
  }
  std::vector<char> seen(to_index(graph.cells), 0);
  graph.resting.push_back(maze.start);
  seen[to_index(maze.start)] = 1;
  for (std::size_t head = 0; head < graph.resting.size(); ++head)
    for (const int v : graph.next[to_index(graph.resting[head])])
      if (seen[to_index(v)] == 0) {
        seen[to_index(v)] = 1;
        graph.resting.push_back(v);
      }
  return graph;
}

Condensation condense(const RollGraph& graph) {
  if (graph.resting.empty()) return {};
  // Every resting cell is reached from the start, whose component completes last.
  const Sccs sccs = tarjan(graph.next, {graph.resting.front()});
  Condensation result{
      std::vector<int>(to_index(graph.cells), -1), sccs.count, Graph(to_index(sccs.count)), {}};
  for (int c = 0; c < graph.cells; ++c)
    if (sccs.id[to_index(c)] >= 0)
      result.component[to_index(c)] = sccs.count - 1 - sccs.id[to_index(c)];
  for (const int u : graph.resting)
    for (const int v : graph.next[to_index(u)]) {
      const int a = result.component[to_index(u)], b = result.component[to_index(v)];
      if (a != b) result.successors[to_index(a)].push_back(b);
    }
  for (auto& s : result.successors) {
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
  }
  result.order.resize(to_index(sccs.count));
  std::iota(result.order.begin(), result.order.end(), 0);
  return result;
}

bool solvable_2sat(const Maze& maze, const RollGraph& /*graph*/, const Condensation& condensation) {
  // The unit x_comp(t) for every target; a target off the resting cells lies in no
  // component, so no play collects it (the empty clause).
  std::vector<int> units{condensation.component[to_index(maze.start)]};
  for (const int t : maze.targets) {
    const int c = condensation.component[to_index(t)];
    if (c < 0) return false;
    units.push_back(c);
  }
  return one_play_visits(condensation, units, {});
}

bool solvable_pass_2sat(const Maze& maze, const RollGraph& graph,
                        const Condensation& condensation) {
  // The component holding both ends of the run through `cell` along one axis, -1 when the
  // run is that cell alone or its ends are not resting cells. The rolls from `cell` in
  // the two directions end at the run's ends; by Lemma 1 both are resting or neither, and
  // they share a component.
  const auto run_component = [&](int cell, Direction one_way, Direction other_way) {
    const int a = graph.next[to_index(cell)][to_index(one_way)];
    const int b = graph.next[to_index(cell)][to_index(other_way)];
    return a == b ? -1 : condensation.component[to_index(a)];
  };
  std::vector<int> units{condensation.component[to_index(maze.start)]};
  std::vector<std::pair<int, int>> either;
  for (const int t : maze.targets) {
    if (t == maze.start) continue;  // collected at time 0
    const int h = run_component(t, left, right), v = run_component(t, up, down);
    if (h < 0 && v < 0) return false;  // no roll of any play passes t: the empty clause
    if (h < 0 || v < 0 || h == v) {
      units.push_back(std::max(h, v));
    } else {
      either.emplace_back(h, v);
    }
  }
  return one_play_visits(condensation, units, either);
}

bool solvable_chain(const Maze& maze, const RollGraph& /*graph*/,
                    const Condensation& condensation) {
  std::vector<int> position(to_index(condensation.count));
  for (int i = 0; i < condensation.count; ++i)
    position[to_index(condensation.order[to_index(i)])] = i;
  std::vector<int> required{condensation.component[to_index(maze.start)]};
  for (const int t : maze.targets) {
    if (condensation.component[to_index(t)] < 0) return false;
    required.push_back(condensation.component[to_index(t)]);
  }
  std::sort(required.begin(), required.end(),
            [&](int a, int b) { return position[to_index(a)] < position[to_index(b)]; });
  required.erase(std::unique(required.begin(), required.end()), required.end());
  for (std::size_t i = 1; i < required.size(); ++i)
    if (reach(condensation.successors, required[i - 1])[to_index(required[i])] == 0) return false;
  return true;
}

bool solvable_pass(const Maze& maze, const RollGraph& graph, const Condensation& condensation) {
  return plan(maze, graph, condensation, Collect::pass).has_value();
}

namespace {

// The polynomial decision of each mode, for solvable() and shortest_solution().
bool decide(const Maze& maze, const RollGraph& graph, const Condensation& condensation,
            Collect collect) {
  return collect == Collect::stop ? solvable_2sat(maze, graph, condensation)
                                  : solvable_pass_2sat(maze, graph, condensation);
}

}  // namespace

bool solvable(const Maze& maze, Collect collect) {
  const RollGraph graph = roll_graph(maze);
  return decide(maze, graph, condense(graph), collect);
}

Solution shortest_solution(const Maze& maze, Collect collect) {
  const RollGraph graph = roll_graph(maze);
  return shortest_solution(maze, graph, condense(graph), collect);
}

Solution shortest_solution(const Maze& maze, const RollGraph& graph,
                           const Condensation& condensation, Collect collect) {
  if (!decide(maze, graph, condensation, collect)) return {false, false, -1, ""};
  if (maze.targets.size() <= to_index(max_exact_targets)) return bfs_solution(maze, graph, collect);
  const auto found = plan(maze, graph, condensation, collect);
  if (!found) throw std::logic_error("tiltmaze: solvable by the 2-SAT, not by the exact search");
  return Walker(maze, graph, condensation, collect).play(*found);
}

}  // namespace levelforge::tiltmaze

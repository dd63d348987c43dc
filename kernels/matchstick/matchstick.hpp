#pragma once
// The `matchstick` kernel (docs/matchstick.md): every puzzle `A op B = C` with A, B, C in
// 0..max_value (each written without leading zeros) and op in {+, -}, solved by moving up to
// k sticks; solution records, solution-count histograms, and the good puzzles (false
// equations with exactly one solution) ranked by a difficulty score.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "kernels/matchstick/analysis.hpp"
#include "kernels/matchstick/candidates.hpp"
#include "kernels/matchstick/equation.hpp"

namespace levelforge::kernels {

class Matchstick {
 public:
  static constexpr std::string_view name = "matchstick";
  static constexpr std::string_view summary =
      "matchstick equations: every puzzle A op B = C of a range, solved by moving k sticks";
  static constexpr Capabilities capabilities{Capability::exhaustive, Capability::visit_range,
                                             Capability::top_record, Capability::puzzle,
                                             Capability::summary};

  static std::vector<ParamSpec> parameters();
  explicit Matchstick(const ParamSet& params);

  enum Reduction : std::size_t {
    puzzles,
    true_puzzles,
    solutions,
    good,
    solution_count_histogram,
    good_puzzles,
  };
  static std::vector<ReductionSpec> reductions();
  enum SolutionField : std::size_t {
    solution_puzzle,
    solution_equation,
    solution_distance,
    solution_moved,
    solution_puzzle_solutions,
    solution_puzzle_true,
  };
  static std::vector<FieldSpec> solution_fields();
  [[nodiscard]] std::uint64_t index_count() const;
  void visit(std::uint64_t index, Reductions& out) const;
  void visit_range(std::uint64_t begin, std::uint64_t end, Reductions& out) const;
  // The good_puzzles record of the good puzzle at `index`: a sweep offers about 7 times as
  // many good puzzles as its table keeps, each offer a difficulty score alone.
  [[nodiscard]] Record top_record(std::size_t id, std::uint64_t index) const;

  // The puzzle at `index`: op fastest, then C, B, A.
  [[nodiscard]] matchstick::Layout puzzle(std::uint64_t index) const;
  // The same into `layout`, reusing its storage (the sweep's loop).
  void puzzle(std::uint64_t index, matchstick::Layout& layout) const;
  // The puzzle at `index` as its numbers and operator.
  struct Numbers {
    std::int64_t a;
    char op;
    std::int64_t b;
    std::int64_t c;
  };
  [[nodiscard]] Numbers numbers(std::uint64_t index) const;
  // Whether A op B = C holds: the sweep's puzzles are written without leading zeros, so they
  // are true exactly when their numbers say so, under either leading-zero rule.
  [[nodiscard]] static bool holds(const Numbers& numbers);
  // `at` becomes the next index's numbers, without numbers()' divisions (the sweep's loop).
  void advance(Numbers& at) const;
  // The near misses of the puzzle `at` (laid out in `puzzle`): well_formed_layouts - 1,
  // for one move from per-number sums of its terms (about 3 ns against 16: a sweep asks
  // it of every good puzzle), otherwise counted.
  [[nodiscard]] std::int64_t near_misses(const Numbers& at, const matchstick::Layout& puzzle) const;

  // puzzle: one equation, given as itself, solved under `moves`, `count` and `leading_zeros`
  // (matchstick_puzzle.cpp).
  struct Puzzle {
    std::string equation;  // as given
    matchstick::Layout layout;
  };
  using PuzzleAnswer = matchstick::MatchstickAnalysis;
  static PuzzleInfo puzzle_info();
  static std::vector<ParamSpec> solve_options();
  static Puzzle parse_puzzle(std::string_view text, const std::string& source);
  static PuzzleAnswer solve_puzzle(const Puzzle& puzzle, const ParamSet& options);
  static std::string check_answer(const Puzzle& puzzle, const ParamSet& options,
                                  const PuzzleAnswer& answer);
  static Report report(const Puzzle& puzzle, const PuzzleAnswer& answer, const std::string& source);
  static std::string draw_puzzle(const Puzzle& puzzle, const std::string& source);

  // summary: what `inspect` says of a run (matchstick_summary.cpp).
  static std::vector<std::string> summarize(const ResultTables& results);

 private:
  static constexpr std::int64_t max_tabled_value = 1 << 16;

  std::int64_t values_;  // max_value + 1
  bool store_solutions_;
  matchstick::FastSolver solver_;
  // For one move and values up to max_tabled_value: the near-miss terms of each number
  // written without leading zeros, and of '+' and '-'.
  std::vector<matchstick::OneMoveTerms> number_terms_;
  std::array<matchstick::OneMoveTerms, 2> operator_terms_{};
};

static_assert(capabilities_hold<Matchstick>());

// How hard a good puzzle is (docs/matchstick.md): 4 x sticks that travel between symbols
// + 2 x (the operator changes) + symbols changed + near misses.
struct Difficulty {
  int between = 0;  // moved sticks that cannot stay inside their symbol
  bool operator_changed = false;
  int symbols_changed = 0;       // positions whose pattern differs
  std::int64_t near_misses = 0;  // well-formed false equations as many moves away
  [[nodiscard]] std::int64_t score() const {
    return 4 * between + 2 * static_cast<int>(operator_changed) + symbols_changed + near_misses;
  }
};
// `solution` must be the puzzle's only one under `rules`.
Difficulty difficulty(const matchstick::Layout& puzzle, const matchstick::Layout& solution,
                      const matchstick::Rules& rules);

}  // namespace levelforge::kernels

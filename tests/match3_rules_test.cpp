// Hand-built rule tests of the Match-3 kernel (docs/match3.md): the scalar reference
// (run_cells, in_run, apply_gravity, resolve_cascade, make_move, play) and the shared
// rules (streams, draws, score table, boards from genes and colors).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/match3/reference.hpp"
#include "kernels/match3/rules.hpp"

namespace levelforge::match3 {
namespace {

namespace ref = reference;

using Rows = std::vector<std::string>;

// Rows of a board, top row first: '.' is empty, 'A'..'H' are colors 0..7.
Board parse(std::initializer_list<std::string_view> rows) {
  Board board;
  board.height = static_cast<int>(rows.size());
  board.width = static_cast<int>(rows.begin()->size());
  for (std::string_view row : rows) {
    EXPECT_EQ(static_cast<int>(row.size()), board.width) << "ragged test board";
    for (char ch : row) {
      board.cells.push_back(ch == '.' ? empty_cell : static_cast<std::uint8_t>(ch - 'A'));
    }
  }
  return board;
}

Rows show(const Board& board) {
  Rows rows;
  for (int row = 0; row < board.height; ++row) {
    std::string text;
    for (int column = 0; column < board.width; ++column) {
      const auto cell = board.at(row, column);
      text += cell == empty_cell ? '.' : static_cast<char>('A' + cell);
    }
    rows.push_back(text);
  }
  return rows;
}

// run_cells as rows: 'x' for a marked cell.
Rows marks(const Board& board) {
  const auto marked = ref::run_cells(board);
  Rows rows;
  for (int row = 0; row < board.height; ++row) {
    std::string text;
    for (int column = 0; column < board.width; ++column) {
      text += marked[board.index(row, column)] ? 'x' : '.';
    }
    rows.push_back(text);
  }
  return rows;
}

int marked_count(const Board& board) {
  int count = 0;
  for (bool marked : ref::run_cells(board)) count += marked ? 1 : 0;
  return count;
}

bool any_run(const Board& board) { return marked_count(board) > 0; }

int blocks(const Board& board) {
  int count = 0;
  for (auto cell : board.cells) count += cell == empty_cell ? 0 : 1;
  return count;
}

Rules rules_for(const Board& board, int colors) {
  Rules rules;
  rules.width = board.width;
  rules.height = board.height;
  rules.colors = colors;
  return rules;
}

// True when the stream's next draw is the (draws + 1)-th draw of a fresh stream from seed.
bool consumed_exactly(PlayoutStream stream, std::uint64_t seed, int draws) {
  PlayoutStream fresh(seed);
  for (int i = 0; i < draws; ++i) fresh();
  return stream() == fresh();
}

// ---------------------------------------------------------------------------------------
// run_cells / in_run

TEST(RunCells, HorizontalRunOfThree) {
  const Board board = parse({"AAAB", "BCBC"});
  EXPECT_EQ(marks(board), (Rows{"xxx.", "...."}));
  EXPECT_EQ(marked_count(board), 3);
}

TEST(RunCells, HorizontalRunOfFour) {
  const Board board = parse({"BAAAAC", "CBCBCB"});
  EXPECT_EQ(marks(board), (Rows{".xxxx.", "......"}));
  EXPECT_EQ(marked_count(board), 4);
}

TEST(RunCells, VerticalRunOfFive) {
  const Board board = parse({"AB", "AC", "AB", "AC", "AB", "BC"});
  EXPECT_EQ(marks(board), (Rows{"x.", "x.", "x.", "x.", "x.", ".."}));
  EXPECT_EQ(marked_count(board), 5);
}

TEST(RunCells, LShapeCountsTheCornerOnce) {
  const Board board = parse({"ABC", "ACB", "AAA"});
  EXPECT_EQ(marks(board), (Rows{"x..", "x..", "xxx"}));
  EXPECT_EQ(marked_count(board), 5);
}

TEST(RunCells, TShapeCountsTheJunctionOnce) {
  const Board board = parse({"AAA", "BAC", "CAB"});
  EXPECT_EQ(marks(board), (Rows{"xxx", ".x.", ".x."}));
  EXPECT_EQ(marked_count(board), 5);
}

TEST(RunCells, PlusShapeCountsTheCentreOnce) {
  const Board board = parse({"BAC", "AAA", "CAB"});
  EXPECT_EQ(marks(board), (Rows{".x.", "xxx", ".x."}));
  EXPECT_EQ(marked_count(board), 5);
}

TEST(RunCells, TwoSeparateRuns) {
  const Board board = parse({"AAAB", "BCDC", "CDDD"});
  EXPECT_EQ(marks(board), (Rows{"xxx.", "....", ".xxx"}));
  EXPECT_EQ(marked_count(board), 6);
}

TEST(RunCells, PairsOnlyAreNoRun) {
  const Board board = parse({"AABB", "BBAA", "AABB", "CDCD", "CDCD"});
  EXPECT_EQ(marked_count(board), 0);
  for (int row = 0; row < board.height; ++row) {
    for (int column = 0; column < board.width; ++column) {
      EXPECT_FALSE(ref::in_run(board, row, column)) << row << "," << column;
    }
  }
}

TEST(RunCells, RunsTouchingTheBorders) {
  // A run along the top edge ending at the right edge; a column run along the left edge
  // ending at the bottom edge.
  const Board board = parse({"CDAAA", "BDCDC", "BCDCD", "BDCDC"});
  EXPECT_EQ(marks(board), (Rows{"..xxx", "x....", "x....", "x...."}));
  EXPECT_EQ(marked_count(board), 6);
}

TEST(RunCells, EmptyCellsAreNeverInRuns) {
  const Board board = parse({"....", "...A", "AA.A", "BBAB"});
  // A full row and a column of empties: no run; "AA.A" is split by the empty cell.
  EXPECT_EQ(marked_count(board), 0);
  EXPECT_FALSE(ref::in_run(board, 0, 0));
  EXPECT_FALSE(ref::in_run(board, 1, 1));
  EXPECT_FALSE(ref::in_run(board, 2, 2));
}

TEST(RunCells, InRunAgreesWithRunCells) {
  for (const Board& board :
       {parse({"ABC", "ACB", "AAA"}), parse({"CDAAA", "BDCDC", "BCDCD", "BDCDC"}),
        parse({"AAAB", "BCDC", "CDDD"}), parse({"....", "...A", "AA.A", "BBAB"})}) {
    const auto marked = ref::run_cells(board);
    for (int row = 0; row < board.height; ++row) {
      for (int column = 0; column < board.width; ++column) {
        EXPECT_EQ(ref::in_run(board, row, column),
                  static_cast<bool>(marked[static_cast<std::size_t>(row * board.width + column)]))
            << row << "," << column;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// apply_gravity

TEST(Gravity, CompactsColumnsToTheBottomInOrder) {
  // Column 0 has gaps, column 1 is empty, column 2 is full, column 3 has its blocks on top.
  Board board = parse({"A.DA", "..EB", "B.F.", "..G.", "C.H."});
  ref::apply_gravity(board);
  EXPECT_EQ(show(board), (Rows{"..D.", "..E.", "A.F.", "B.GA", "C.HB"}));
}

TEST(Gravity, FullAndEmptyBoardsAreUnchanged) {
  Board full = parse({"ABC", "CAB", "BCA"});
  const Board full_before = full;
  ref::apply_gravity(full);
  EXPECT_EQ(full, full_before);

  Board empty = parse({"...", "..."});
  const Board empty_before = empty;
  ref::apply_gravity(empty);
  EXPECT_EQ(empty, empty_before);
}

TEST(Gravity, DoesNotRemoveRuns) {
  Board board = parse({"A..", ".A.", "..A"});
  ref::apply_gravity(board);
  EXPECT_EQ(show(board), (Rows{"...", "...", "AAA"}));  // a run, left in place
}

// ---------------------------------------------------------------------------------------
// make_move

// No run anywhere, three colors.
Board latin() { return parse({"ABC", "BCA", "CAB"}); }

TEST(MakeMove, BorderMovesAreSpent) {
  const Board start = latin();
  Rules rules = rules_for(start, 3);
  rules.no_match = NoMatch::keep;
  struct Case {
    int row, column;
    Direction direction;
  };
  for (const Case& c :
       {Case{0, 0, Direction::up}, Case{0, 0, Direction::left}, Case{2, 2, Direction::down},
        Case{2, 2, Direction::right}, Case{0, 2, Direction::right}, Case{2, 0, Direction::down},
        Case{0, 1, Direction::up}, Case{1, 0, Direction::left}}) {
    Board board = start;
    PlayoutStream stream(7);
    EXPECT_EQ(ref::make_move(board, c.row, c.column, c.direction, rules, stream), 0);
    EXPECT_EQ(board, start) << c.row << "," << c.column << " dir " << c.direction;
    EXPECT_TRUE(consumed_exactly(stream, 7, 0));
  }
}

TEST(MakeMove, MoveOntoAnEmptyNeighbourIsSpent) {
  const Board start = parse({"A.C", "BCA", "CAB"});
  Rules rules = rules_for(start, 3);
  rules.no_match = NoMatch::keep;  // even keep must not swap a block with an empty cell
  PlayoutStream stream(1);
  Board board = start;
  EXPECT_EQ(ref::make_move(board, 0, 0, Direction::right, rules, stream), 0);
  EXPECT_EQ(board, start);
  EXPECT_EQ(ref::make_move(board, 1, 1, Direction::up, rules, stream), 0);
  EXPECT_EQ(board, start);
  // From the empty cell itself.
  EXPECT_EQ(ref::make_move(board, 0, 1, Direction::left, rules, stream), 0);
  EXPECT_EQ(board, start);
}

TEST(MakeMove, SwapOfEqualColorsIsSpentEvenNextToARun) {
  // Row 0 is already a run; swapping two of its equal blocks is spent: nothing removed.
  const Board start = parse({"AAA", "BCB", "CBC"});
  const Rules rules = rules_for(start, 3);
  Board board = start;
  PlayoutStream stream(3);
  EXPECT_EQ(ref::make_move(board, 0, 0, Direction::right, rules, stream), 0);
  EXPECT_EQ(board, start);
  EXPECT_EQ(ref::make_move(board, 0, 2, Direction::left, rules, stream), 0);
  EXPECT_EQ(board, start);
}

TEST(MakeMove, NoRunWithUndoSwapsBack) {
  const Board start = latin();
  Rules rules = rules_for(start, 3);
  rules.no_match = NoMatch::undo;
  Board board = start;
  PlayoutStream stream(5);
  EXPECT_EQ(ref::make_move(board, 0, 0, Direction::right, rules, stream), 0);
  EXPECT_EQ(board, start);
  EXPECT_TRUE(consumed_exactly(stream, 5, 0));
}

TEST(MakeMove, NoRunWithKeepLeavesTheSwap) {
  const Board start = latin();
  Rules rules = rules_for(start, 3);
  rules.no_match = NoMatch::keep;
  Board board = start;
  PlayoutStream stream(5);
  EXPECT_EQ(ref::make_move(board, 0, 0, Direction::right, rules, stream), 0);
  EXPECT_EQ(show(board), (Rows{"BAC", "BCA", "CAB"}));
  // And a vertical one, from below.
  EXPECT_EQ(ref::make_move(board, 2, 2, Direction::up, rules, stream), 0);
  EXPECT_EQ(show(board), (Rows{"BAC", "BCB", "CAA"}));
}

TEST(MakeMove, RunOfThree) {
  const Board start = parse({"DCDC", "CDCD", "AABA", "BCDC"});
  ASSERT_FALSE(any_run(start));
  const Rules rules = rules_for(start, 4);
  for (auto [column, direction] : {std::pair{2, Direction::right}, std::pair{3, Direction::left}}) {
    Board board = start;
    PlayoutStream stream(9);
    EXPECT_EQ(ref::make_move(board, 2, column, direction, rules, stream), 3);
    EXPECT_EQ(show(board), (Rows{"...C", "DCDD", "CDCB", "BCDC"}));
    EXPECT_TRUE(consumed_exactly(stream, 9, 0));  // refill none draws nothing
  }
}

TEST(MakeMove, RunsThroughBothSwappedCellsCountBoth) {
  const Board start = parse({"CBAD", "DABC", "CBAD"});
  ASSERT_FALSE(any_run(start));
  Board board = start;
  PlayoutStream stream(2);
  EXPECT_EQ(ref::make_move(board, 1, 1, Direction::right, rules_for(start, 4), stream), 6);
  EXPECT_EQ(show(board), (Rows{"C..D", "D..C", "C..D"}));
}

TEST(MakeMove, CascadeCountsEveryWave) {
  const Board start = parse({"EBC", "DCB", "ABC", "AEE", "BAD"});
  ASSERT_FALSE(any_run(start));
  Board board = start;
  PlayoutStream stream(4);
  // Column 0 gets A A A (removed, 3); E falls next to E E (removed, 3 more).
  EXPECT_EQ(ref::make_move(board, 4, 0, Direction::right, rules_for(start, 5), stream), 6);
  EXPECT_EQ(show(board), (Rows{"...", ".BC", ".CB", ".BC", "DBD"}));
}

// The same cascade scored both ways (docs/match3.md, "A move"): one 1.5^6 for the move, or
// 1.5^3 for each of its two waves.
TEST(MakeMove, ScorePerMoveOrPerWave) {
  const Board start = parse({"EBC", "DCB", "ABC", "AEE", "BAD"});
  Rules rules = rules_for(start, 5);
  const auto table = score_table(rules);
  for (const auto& [score_per, points] :
       {std::pair{ScorePer::move, 11.390625}, std::pair{ScorePer::wave, 6.75}}) {
    rules.score_per = score_per;
    Board board = start;
    PlayoutStream stream(4);
    std::vector<int> waves;
    EXPECT_EQ(ref::make_move(board, 4, 0, Direction::right, rules, stream, &waves), 6);
    EXPECT_EQ(waves, (std::vector<int>{3, 3}));
    EXPECT_EQ(ref::move_points(waves, rules, table), points);
  }
  // A spent move scores nothing either way.
  EXPECT_EQ(ref::move_points({}, rules, table), 0.0);
}

TEST(MakeMove, TShapeCreatedByOneSwapCountsFiveCells) {
  const Board start = parse({"CAD", "ABA", "DAC", "CAD"});
  ASSERT_FALSE(any_run(start));
  Board board = start;
  PlayoutStream stream(6);
  EXPECT_EQ(ref::make_move(board, 0, 1, Direction::down, rules_for(start, 4), stream), 5);
  EXPECT_EQ(show(board), (Rows{"...", "C.D", "D.C", "CBD"}));
}

TEST(MakeMove, LShapeCreatedByOneSwapCountsFiveCells) {
  // Swapping (2,2) B with (2,3) A completes row 2 (A A A) and column 2 (A A A) at (2,2).
  const Board start = parse({"BCAD", "CDAB", "AABA", "DCDC"});
  ASSERT_FALSE(any_run(start));
  Board board = start;
  PlayoutStream stream(6);
  EXPECT_EQ(ref::make_move(board, 2, 2, Direction::right, rules_for(start, 4), stream), 5);
  // Column 0: B C . D -> . B C D; column 1: C D . C -> . C D C; column 2: . . . D -> all
  // but D gone; column 3: D B B C unchanged. Then row 3 D C D C, no cascade.
  EXPECT_EQ(show(board), (Rows{"...D", "BC.B", "CD.B", "DCDC"}));
}

TEST(MakeMove, EveryRunOnTheBoardIsRemovedWithTheMovesRun) {
  // Row 0 is a run kept from the start (initial_runs: keep); the swap completes another.
  const Board start = parse({"BBBA", "CDCD", "DAAC", "CDCA"});
  Board board = start;
  PlayoutStream stream(8);
  // (2,3) C <-> (3,3) A: row 2 D A A A.
  EXPECT_EQ(ref::make_move(board, 2, 3, Direction::down, rules_for(start, 4), stream), 6);
  // Row 0 and row 2's A A A go; column 3's A falls onto D C.
  EXPECT_EQ(show(board), (Rows{"....", "C..A", "DDCD", "CDCC"}));
}

TEST(MakeMove, ARunElsewhereDoesNotMakeANonMatchingSwapCount) {
  const Board start = parse({"BBBA", "CDCD", "DACB", "CDAC"});
  Board board = start;
  PlayoutStream stream(8);
  EXPECT_EQ(ref::make_move(board, 3, 0, Direction::right, rules_for(start, 4), stream), 0);
  EXPECT_EQ(board, start);  // undone, and the old run is left alone
}

// The T removal leaves 5 empties; refill order is columns left to right, each top down:
// (0,0), (0,1), (1,1), (2,1), (0,2).
TEST(MakeMove, RefillRandomFillsColumnsTopDownOneDrawPerCell) {
  const Board start = parse({"CAD", "ABA", "DAC", "CAD"});
  Rules rules = rules_for(start, 4);
  rules.refill = Refill::random;
  int without_cascade = 0;
  for (std::uint64_t seed = 0; seed < 64; ++seed) {
    PlayoutStream draws(seed);
    Board expected = parse({"...", "C.D", "D.C", "CBD"});
    for (auto [row, column] :
         {std::pair{0, 0}, std::pair{0, 1}, std::pair{1, 1}, std::pair{2, 1}, std::pair{0, 2}}) {
      expected.at(row, column) = static_cast<std::uint8_t>(draws() % 4U);
    }
    Board board = start;
    PlayoutStream stream(seed);
    const int removed = ref::make_move(board, 0, 1, Direction::down, rules, stream);
    EXPECT_EQ(blocks(board), 12) << "seed " << seed;
    EXPECT_FALSE(any_run(board)) << "seed " << seed;
    EXPECT_TRUE(consumed_exactly(stream, seed, removed))
        << "seed " << seed << " removed " << removed;
    if (!any_run(expected)) {
      ++without_cascade;
      EXPECT_EQ(removed, 5) << "seed " << seed;
      EXPECT_EQ(show(board), show(expected)) << "seed " << seed;
    } else {
      EXPECT_GT(removed, 5) << "seed " << seed;
    }
  }
  EXPECT_GT(without_cascade, 10);
  EXPECT_LT(without_cascade, 64);  // some refills cascade too
}

TEST(MakeMove, RefillNoneLeavesTheTopEmptyAndDrawsNothing) {
  const Board start = parse({"CAD", "ABA", "DAC", "CAD"});
  const Rules rules = rules_for(start, 4);
  ASSERT_EQ(rules.refill, Refill::none);
  Board board = start;
  PlayoutStream stream(11);
  EXPECT_EQ(ref::make_move(board, 0, 1, Direction::down, rules, stream), 5);
  EXPECT_EQ(blocks(board), 7);
  EXPECT_TRUE(consumed_exactly(stream, 11, 0));
}

// With refill: random a move's cascades can remove more blocks than the board has cells;
// the score is still score_base^k (move_score computes past the table).
TEST(MakeMove, RefillCascadesCanRemoveMoreBlocksThanCells) {
  const Board start = parse({"AAB", "BBA", "ABA"});
  ASSERT_FALSE(any_run(start));
  Rules rules = rules_for(start, 2);
  rules.refill = Refill::random;
  const auto table = score_table(rules);
  ASSERT_EQ(table.size(), 10U);
  int most = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    Board board = start;
    PlayoutStream stream(seed);
    // (0,2) B <-> (1,2) A: rows 0 and 1 both become runs (6 blocks), then refills cascade.
    const int removed = ref::make_move(board, 0, 2, Direction::down, rules, stream);
    EXPECT_GE(removed, 6);
    EXPECT_TRUE(consumed_exactly(stream, seed, removed));
    most = std::max(most, removed);
  }
  ASSERT_GE(static_cast<std::size_t>(most), table.size()) << "no seed cascaded past the table";
  EXPECT_DOUBLE_EQ(move_score(table, most), std::pow(1.5, most));
  EXPECT_DOUBLE_EQ(move_score(table, 9), table[9]);
}

// ---------------------------------------------------------------------------------------
// Scores and play()

TEST(Score, TableValues) {
  Rules rules;  // 5 x 10, base 1.5
  const auto table = score_table(rules);
  ASSERT_EQ(table.size(), 51U);
  EXPECT_EQ(table[0], 1.0);
  EXPECT_EQ(table[1], 1.5);
  EXPECT_EQ(table[2], 2.25);
  EXPECT_EQ(table[3], 3.375);
  EXPECT_EQ(table[4], 5.0625);
  EXPECT_DOUBLE_EQ(table[50], std::pow(1.5, 50));
  rules.score_base = 2.0;
  rules.width = 3;
  rules.height = 4;
  const auto twos = score_table(rules);
  ASSERT_EQ(twos.size(), 13U);
  EXPECT_EQ(twos[10], 1024.0);
  EXPECT_EQ(twos[12], 4096.0);
}

// The first seed whose first random move is (row, column) in `direction` on a board of `cells`.
std::uint64_t seed_for(int cell, Direction direction, int cells) {
  for (std::uint64_t seed = 0; seed < 100000; ++seed) {
    const auto move = draw_move(PlayoutStream(seed)(), cells);
    if (move.cell == cell && move.direction == direction) return seed;
  }
  ADD_FAILURE() << "no seed draws cell " << cell << " direction " << direction;
  return 0;
}

TEST(Score, RandomMoveOfThreeScoresBaseCubed) {
  const Board start = parse({"DCDC", "CDCD", "AABA", "BCDC"});
  Rules rules = rules_for(start, 4);
  rules.moves = 1;
  const auto table = score_table(rules);
  const std::uint64_t seed = seed_for(2 * 4 + 2, Direction::right, 16);
  EXPECT_EQ(ref::play(start, rules, seed, table), 3.375);
  const std::uint64_t other = seed_for(2 * 4 + 3, Direction::left, 16);
  EXPECT_EQ(ref::play(start, rules, other, table), 3.375);
  // A border move on the same board scores nothing.
  const std::uint64_t border = seed_for(0, Direction::up, 16);
  EXPECT_EQ(ref::play(start, rules, border, table), 0.0);
  rules.score_base = 2.0;
  EXPECT_EQ(ref::play(start, rules, seed, score_table(rules)), 8.0);
}

TEST(Score, CascadeOfSixScoresBaseToTheSixth) {
  const Board start = parse({"EBC", "DCB", "ABC", "AEE", "BAD"});
  Rules rules = rules_for(start, 5);
  rules.moves = 1;
  const std::uint64_t seed = seed_for(4 * 3 + 0, Direction::right, 15);
  EXPECT_EQ(ref::play(start, rules, seed, score_table(rules)), 11.390625);  // 1.5^6
}

TEST(Score, TwoMovesAddUp) {
  // Seed whose first move is (2,2) right (3 blocks); the second move is whatever the next
  // draw gives on the board after it, computed with make_move.
  const Board start = parse({"DCDC", "CDCD", "AABA", "BCDC"});
  Rules rules = rules_for(start, 4);
  rules.moves = 2;
  const std::uint64_t seed = seed_for(10, Direction::right, 16);
  PlayoutStream stream(seed);
  stream();
  const auto second = draw_move(stream(), 16);
  Board after = parse({"...C", "DCDD", "CDCB", "BCDC"});
  PlayoutStream unused(0);
  const int k =
      ref::make_move(after, second.cell / 4, second.cell % 4, second.direction, rules, unused);
  const double expected = 3.375 + (k > 0 ? std::pow(1.5, k) : 0.0);
  EXPECT_EQ(ref::play(start, rules, seed, score_table(rules)), expected);
}

TEST(Score, NoRunPossibleScoresZero) {
  const Board start = parse({"ABCD", "EFGH"});  // every color once: no run can ever form
  Rules rules = rules_for(start, 8);
  rules.moves = 100;
  rules.no_match = NoMatch::keep;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    EXPECT_EQ(ref::play(start, rules, seed, score_table(rules)), 0.0);
  }
}

// ---------------------------------------------------------------------------------------
// initial_runs: resolve, keep, reroll

TEST(InitialRuns, ResolveRemovesRunsAndCascades) {
  // The cascade board after its swap: A A A in column 0, then E E E.
  const Board raw = parse({"EBC", "DCB", "ABC", "AEE", "ABD"});
  const Rules rules = rules_for(raw, 5);
  const Board resolved = board_from_colors(raw.cells, rules, InitialRuns::resolve, 0);
  EXPECT_EQ(show(resolved), (Rows{"...", ".BC", ".CB", ".BC", "DBD"}));
  const Board kept = board_from_colors(raw.cells, rules, InitialRuns::keep, 0);
  EXPECT_EQ(kept, raw);
  EXPECT_EQ(marked_count(kept), 3);
}

TEST(InitialRuns, ResolveOnGenesLeavesNoRunAndConsistentCounts) {
  Rules rules;  // 5 x 10, 5 colors
  int had_runs = 0;
  for (std::uint32_t gene = 0; gene < 200; ++gene) {
    const std::uint32_t g = gene * 2654435761U;
    const Board kept = board_from_gene(g, rules, InitialRuns::keep);
    const Board resolved = board_from_gene(g, rules, InitialRuns::resolve);
    had_runs += any_run(kept) ? 1 : 0;
    EXPECT_FALSE(any_run(resolved)) << "gene " << g;
    Board copy = kept;
    const int removed = ref::resolve_cascade(copy, rules, nullptr);
    EXPECT_EQ(copy, resolved) << "gene " << g;
    EXPECT_EQ(blocks(resolved), 50 - removed) << "gene " << g;
    EXPECT_EQ(blocks(kept), 50);
    // Per color, resolving only removes; per column, blocks sit at the bottom.
    std::array<int, 8> before{}, after{};
    for (auto cell : kept.cells) ++before[cell];
    for (auto cell : resolved.cells) {
      if (cell != empty_cell) ++after[cell];
    }
    for (std::size_t color = 0; color < 8; ++color) EXPECT_LE(after[color], before[color]);
    for (int column = 0; column < 5; ++column) {
      for (int row = 1; row < 10; ++row) {
        if (resolved.at(row - 1, column) != empty_cell) {
          EXPECT_NE(resolved.at(row, column), empty_cell) << "gene " << g << " column " << column;
        }
      }
    }
  }
  EXPECT_GT(had_runs, 100);  // most 5-color 5 x 10 boards start with a run
}

TEST(InitialRuns, KeepLeavesRuns) {
  const Board raw = parse({"AAAB", "BCDC", "CDDD"});
  const Board kept = board_from_colors(raw.cells, rules_for(raw, 4), InitialRuns::keep, 0);
  EXPECT_EQ(kept, raw);
  EXPECT_EQ(marked_count(kept), 6);
}

TEST(InitialRuns, RerollHandCase) {
  // Colors 3, seed 0: SplitMix64(0) draws mod 3 are 1, 0, 1, 1, 1, 0, ...
  // (0,2) A completes A A: redrawn to 1 (B) at the first draw.
  // (1,2) A completes nothing (A above, B above that): kept.
  // (2,0..2): C C then C completes the row: next draw is 0 (A): column 2 is B A A, fine.
  const Board raw = parse({"AAA", "BCA", "CCC"});
  const Board rerolled = board_from_colors(raw.cells, rules_for(raw, 3), InitialRuns::reroll, 0);
  EXPECT_EQ(show(rerolled), (Rows{"AAB", "BCA", "CCA"}));
  EXPECT_FALSE(any_run(rerolled));
}

TEST(InitialRuns, RerollRedrawsUntilTheColorFits) {
  // Colors 3, seed 0, draws mod 3: 1, 0, 1, 1, 1, 0. (0,2) B completes B B; draws 1 (B)
  // again, then 0 (A) fits.
  const Board raw = parse({"BBB"});
  const Board rerolled = board_from_colors(raw.cells, rules_for(raw, 3), InitialRuns::reroll, 0);
  EXPECT_EQ(show(rerolled), (Rows{"BBA"}));
  // Vertically, with the seed's draws 1 (B, still completes), 0 (A).
  const Board column = parse({"B", "B", "B"});
  EXPECT_EQ(show(board_from_colors(column.cells, rules_for(column, 3), InitialRuns::reroll, 0)),
            (Rows{"B", "B", "A"}));
}

TEST(InitialRuns, RerollLeavesNoRunForThreeColorsAndMore) {
  for (int colors = 3; colors <= 8; ++colors) {
    Rules rules;
    rules.colors = colors;
    for (std::uint32_t gene = 0; gene < 200; ++gene) {
      const std::uint32_t g = gene * 2246822519U + 17U;
      const Board board = board_from_gene(g, rules, InitialRuns::reroll);
      EXPECT_FALSE(any_run(board)) << "colors " << colors << " gene " << g;
      EXPECT_EQ(blocks(board), 50);
      for (auto cell : board.cells) EXPECT_LT(cell, colors);
    }
  }
}

TEST(InitialRuns, RerollContinuesTheGenesStream) {
  // The first cell that reroll changes gets the first of the draws after the 50 coloring
  // draws whose color fits.
  Rules rules;
  int checked = 0;
  for (std::uint32_t gene = 0; gene < 50; ++gene) {
    const Board kept = board_from_gene(gene, rules, InitialRuns::keep);
    const Board rerolled = board_from_gene(gene, rules, InitialRuns::reroll);
    std::size_t first = 0;
    while (first < kept.cells.size() && kept.cells[first] == rerolled.cells[first]) ++first;
    if (first == kept.cells.size()) {
      EXPECT_FALSE(any_run(kept)) << "gene " << gene;
      continue;
    }
    const int row = static_cast<int>(first) / 5;
    const int column = static_cast<int>(first) % 5;
    GeneStream stream(gene);
    for (int i = 0; i < 50; ++i) stream();
    auto fits = [&](std::uint8_t color) {
      const bool left =
          column >= 2 && kept.at(row, column - 1) == color && kept.at(row, column - 2) == color;
      const bool above =
          row >= 2 && kept.at(row - 1, column) == color && kept.at(row - 2, column) == color;
      return !left && !above;
    };
    EXPECT_FALSE(fits(kept.cells[first])) << "gene " << gene;
    std::uint8_t color = 0;
    do {
      color = static_cast<std::uint8_t>(stream() % 5U);
    } while (!fits(color));
    EXPECT_EQ(rerolled.cells[first], color) << "gene " << gene;
    ++checked;
  }
  EXPECT_GT(checked, 25);
}

// ---------------------------------------------------------------------------------------
// Streams, genes and boards

TEST(Streams, GeneStreamIsSplitMix64) {
  GeneStream stream(0);
  EXPECT_EQ(stream(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(stream(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(stream(), 0x06c45d188009454fULL);
}

TEST(Streams, PlayoutStreamIsWyrand) {
  PlayoutStream zero(0);
  EXPECT_EQ(zero(), 0x111cb3a78f59a58eULL);
  EXPECT_EQ(zero(), 0xceabd938ff4e856dULL);
  EXPECT_EQ(zero(), 0x61fb51318f47d2a4ULL);
  PlayoutStream other(12345);
  EXPECT_EQ(other(), 0x3440f9f469810c7bULL);
  EXPECT_EQ(other(), 0xc7949c1f48708594ULL);
}

TEST(BoardFromGene, Deterministic) {
  Rules rules;
  for (std::uint32_t gene : {0U, 1U, 42U, 0xffffffffU}) {
    for (auto mode : {InitialRuns::keep, InitialRuns::resolve, InitialRuns::reroll}) {
      EXPECT_EQ(board_from_gene(gene, rules, mode), board_from_gene(gene, rules, mode));
    }
  }
  EXPECT_NE(board_from_gene(1, rules, InitialRuns::keep),
            board_from_gene(2, rules, InitialRuns::keep));
}

TEST(BoardFromGene, KeepColorsEveryCellFromTheStreamInReadingOrder) {
  Rules rules;
  rules.width = 4;
  rules.height = 3;
  rules.colors = 7;
  const Board board = board_from_gene(123456789U, rules, InitialRuns::keep);
  ASSERT_EQ(board.width, 4);
  ASSERT_EQ(board.height, 3);
  ASSERT_EQ(board.cells.size(), 12U);
  EXPECT_EQ(board.at(0, 0), GeneStream(123456789U)() % 7U);
  GeneStream stream(123456789U);
  for (int row = 0; row < 3; ++row) {
    for (int column = 0; column < 4; ++column) {
      EXPECT_EQ(board.at(row, column), stream() % 7U) << row << "," << column;
    }
  }
  // Gene 0: SplitMix64's first draw 0xe220a8397b1dcdaf mod 5 is 0, the second
  // 0x6e789e6aa1b965f4 mod 5 is 0 too.
  Rules five;
  const Board zero = board_from_gene(0, five, InitialRuns::keep);
  EXPECT_EQ(zero.at(0, 0), 0);
  EXPECT_EQ(zero.at(0, 1), 0);
}

TEST(BoardFromGene, PaperGeneIsZeroExtended) {
  // The paper's gene -977507440 has bits 0xC5BC6B90.
  const auto gene = static_cast<std::uint32_t>(-977507440);
  EXPECT_EQ(gene, 0xC5BC6B90U);
  GeneStream stream(gene);
  // SplitMix64 from 0x00000000C5BC6B90 (sign-extended 0xFFFFFFFFC5BC6B90 would give
  // 0xc3925dfee35478a3 first).
  EXPECT_EQ(stream(), 0x355816b3b37cdebdULL);
  EXPECT_EQ(stream(), 0xa489214252c2c603ULL);
  Rules rules;
  const Board board = board_from_gene(gene, rules, InitialRuns::keep);
  EXPECT_EQ(board.at(0, 0), 1);  // 0x355816b3b37cdebd mod 5
  EXPECT_EQ(board.at(0, 1), 2);  // 0xa489214252c2c603 mod 5
  for (auto mode : {InitialRuns::resolve, InitialRuns::reroll}) {
    const Board other = board_from_gene(gene, rules, mode);
    EXPECT_EQ(other.cells.size(), 50U);
    EXPECT_FALSE(any_run(other));
  }
}

TEST(BoardFromGene, ColorsInRange) {
  for (int colors = 2; colors <= 8; ++colors) {
    Rules rules;
    rules.colors = colors;
    rules.width = 7;
    rules.height = 9;
    for (std::uint32_t gene = 0; gene < 30; ++gene) {
      const Board board = board_from_gene(gene * 7919U, rules, InitialRuns::keep);
      ASSERT_EQ(board.cells.size(), 63U);
      for (auto cell : board.cells) EXPECT_LT(cell, colors);
      const Board resolved = board_from_gene(gene * 7919U, rules, InitialRuns::resolve);
      for (auto cell : resolved.cells) EXPECT_TRUE(cell == empty_cell || cell < colors);
    }
  }
}

TEST(BoardFromGene, FiveColorHistogramIsRoughlyUniform) {
  Rules rules;  // 5 x 10, 5 colors
  std::array<int, 5> histogram{};
  for (std::uint32_t gene = 0; gene < 200; ++gene) {
    for (auto cell : board_from_gene(gene, rules, InitialRuns::keep).cells) {
      ASSERT_LT(cell, 5);
      ++histogram[cell];
    }
  }
  for (int count : histogram) {
    EXPECT_GE(count, 1700);
    EXPECT_LE(count, 2300);
  }
}

// ---------------------------------------------------------------------------------------
// draw_move / draw_choice

TEST(Draw, HandValues) {
  auto move = draw_move(0, 50);
  EXPECT_EQ(move.cell, 0);
  EXPECT_EQ(move.direction, Direction::up);
  move = draw_move(0xC0000000FFFFFFFFULL, 50);
  EXPECT_EQ(move.cell, 49);
  EXPECT_EQ(move.direction, Direction::right);
  move = draw_move(0x4000000080000000ULL, 50);
  EXPECT_EQ(move.cell, 25);
  EXPECT_EQ(move.direction, Direction::down);
  move = draw_move(0x8000000000000000ULL, 50);
  EXPECT_EQ(move.cell, 0);
  EXPECT_EQ(move.direction, Direction::left);
  // Bits 32..61 play no part.
  move = draw_move(0x3fffffff00000000ULL, 256);
  EXPECT_EQ(move.cell, 0);
  EXPECT_EQ(move.direction, Direction::up);
  EXPECT_EQ(draw_move(0xFFFFFFFFFFFFFFFFULL, 256).cell, 255);
}

TEST(Draw, ChoiceInRange) {
  EXPECT_EQ(draw_choice(0xFFFFFFFFULL, 1), 0);
  EXPECT_EQ(draw_choice(0xFFFFFFFFULL, 7), 6);
  EXPECT_EQ(draw_choice(0x80000000ULL, 2), 1);
  EXPECT_EQ(draw_choice(0x7FFFFFFFULL, 2), 0);
  EXPECT_EQ(draw_choice(0xFFFFFFFF00000000ULL, 100), 0);
  PlayoutStream stream(99);
  for (int i = 0; i < 2000; ++i) {
    const auto x = stream();
    for (int cells : {1, 2, 15, 50, 256}) {
      const auto move = draw_move(x, cells);
      EXPECT_GE(move.cell, 0);
      EXPECT_LT(move.cell, cells);
      EXPECT_EQ(static_cast<std::uint64_t>(move.direction), x >> 62U);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Greedy player

TEST(Greedy, TakesTheOnlyScoringSwap) {
  // Only A appears three times; the one swap lining them up is (0,2) <-> (1,2).
  const Board start = parse({"AABC", "DEAF", "GBCD"});
  Rules rules = rules_for(start, 8);
  rules.player = Player::greedy;
  rules.moves = 1;
  int random_scored = 0;
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    EXPECT_EQ(ref::play(start, rules, seed, score_table(rules)), 3.375) << "seed " << seed;
    Rules random = rules;
    random.player = Player::random;
    random_scored += ref::play(start, random, seed, score_table(random)) > 0 ? 1 : 0;
  }
  EXPECT_LT(random_scored, 30);  // a random player mostly misses it
}

TEST(Greedy, TakesTheLargerOfTwoSwaps) {
  // (0,2) C <-> (0,3) A: A A A (3). (2,2) C <-> (2,3) B: B B B (3).
  // (1,2) B <-> (2,2) C: B B B B (4): the one to take.
  const Board start = parse({"AACAD", "EFBGH", "BBCBE"});
  ASSERT_FALSE(any_run(start));
  Rules rules = rules_for(start, 8);
  rules.player = Player::greedy;
  rules.moves = 1;
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    EXPECT_EQ(ref::play(start, rules, seed, score_table(rules)), 5.0625) << "seed " << seed;
  }
  // The 4-block swap on its own, checked by hand.
  Board board = start;
  PlayoutStream stream(0);
  EXPECT_EQ(ref::make_move(board, 1, 2, Direction::down, rules, stream), 4);
  EXPECT_EQ(show(board), (Rows{"....D", "AACAH", "EFCGE"}));
}

TEST(Greedy, PrefersACascadeOverALongerSingleRun) {
  // The cascade swap (4,0) <-> (4,1) removes 6 (3 + 3); no other swap removes as many. Greedy must
  // see the cascade (lookahead without refill) and score 1.5^6.
  const Board start = parse({"EBC", "DCB", "ABC", "AEE", "BAD"});
  Rules rules = rules_for(start, 5);
  rules.player = Player::greedy;
  rules.moves = 1;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    EXPECT_EQ(ref::play(start, rules, seed, score_table(rules)), 11.390625) << "seed " << seed;
  }
}

TEST(Greedy, NoScoringSwapScoresZero) {
  const Board start = parse({"ABCD", "EFGH"});
  Rules rules = rules_for(start, 8);
  rules.player = Player::greedy;
  rules.moves = 1;
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    EXPECT_EQ(ref::play(start, rules, seed, score_table(rules)), 0.0) << "seed " << seed;
  }
  // The Latin square: no swap lines up three.
  const Board latin_board = latin();
  Rules three = rules_for(latin_board, 3);
  three.player = Player::greedy;
  three.moves = 1;
  for (std::uint64_t seed = 0; seed < 30; ++seed) {
    EXPECT_EQ(ref::play(latin_board, three, seed, score_table(three)), 0.0) << "seed " << seed;
  }
}

}  // namespace
}  // namespace levelforge::match3

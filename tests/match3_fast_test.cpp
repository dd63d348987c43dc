// The bitboard kernel (kernels/match3/fast.hpp) and the lock-step kernel on every
// instruction set (kernels/match3/lockstep.hpp) against the scalar reference
// (kernels/match3/reference.hpp): every score must be bit-identical.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/api/isa.hpp"
#include "kernels/match3/fast.hpp"
#include "kernels/match3/lockstep.hpp"
#include "kernels/match3/reference.hpp"
#include "kernels/match3/rules.hpp"
#include "tests/random_cases.hpp"

namespace levelforge::match3 {
namespace {

const char* name(InitialRuns runs) {
  switch (runs) {
    case InitialRuns::resolve: return "resolve";
    case InitialRuns::keep: return "keep";
    default: return "reroll";
  }
}

// How a random case's start board is made.
enum class Source { gene, colors, holes };

const char* name(Source source) {
  switch (source) {
    case Source::gene: return "gene";
    case Source::colors: return "colors";
    default: return "holes";
  }
}

struct Case {
  Rules rules;
  Source source = Source::gene;
  InitialRuns initial_runs = InitialRuns::resolve;
  std::uint32_t gene = 0;
  std::vector<std::uint64_t> seeds;

  [[nodiscard]] std::string describe() const {
    std::ostringstream out;
    out << rules.width << "x" << rules.height << " colors=" << rules.colors
        << " no_match=" << (rules.no_match == NoMatch::undo ? "undo" : "keep")
        << " refill=" << (rules.refill == Refill::none ? "none" : "random")
        << " player=" << (rules.player == Player::random ? "random" : "greedy")
        << " moves=" << rules.moves << " score_base=" << rules.score_base
        << " score_per=" << (rules.score_per == ScorePer::move ? "move" : "wave")
        << " source=" << name(source) << " initial_runs=" << name(initial_runs) << " gene=" << gene;
    return out.str();
  }

  // The start board: from the gene, or from colors drawn from a stream seeded by the gene
  // (Source::holes also empties about one cell in eight, anywhere on the board).
  [[nodiscard]] Board board() const {
    if (source == Source::gene) return board_from_gene(gene, rules, initial_runs);
    std::mt19937_64 colors_rng(gene);
    std::vector<std::uint8_t> colors(static_cast<std::size_t>(rules.width * rules.height));
    for (auto& cell : colors) {
      cell = static_cast<std::uint8_t>(colors_rng() % static_cast<std::uint64_t>(rules.colors));
      if (source == Source::holes && colors_rng() % 8 == 0) cell = empty_cell;
    }
    return board_from_colors(std::move(colors), rules, initial_runs, gene ^ 0x5eedU);
  }
};

struct Tally {
  int cases = 0;
  int playouts = 0;
  int scoring = 0;  // playouts with a score above 0
};

// Plays every seed of `c` with both implementations; EXPECT_EQ on every score.
void compare(const Case& c, Tally& tally) {
  const Board board = c.board();
  // With Refill::random a move's cascades can remove more blocks than the table has
  // entries; both then compute the power (move_score).
  const auto table = score_table(c.rules);
  std::vector<double> expected(c.seeds.size());
  for (std::size_t i = 0; i < c.seeds.size(); ++i) {
    expected[i] = reference::play(board, c.rules, c.seeds[i], table);
    ++tally.playouts;
    if (expected[i] > 0) ++tally.scoring;
  }
  std::vector<double> scores(c.seeds.size());
  const auto expect_equal = [&](const std::string& kernel) {
    for (std::size_t i = 0; i < c.seeds.size(); ++i) {
      EXPECT_EQ(scores[i], expected[i]) << kernel << ": " << c.describe() << " seed=" << c.seeds[i];
    }
  };
  // fast::play_many runs one of these (FastPicksAKernel below); each is held equal.
  fast::play_many_bitboard(board, c.rules, c.seeds, table, scores);
  expect_equal("bitboard");
  if (lockstep::plays(c.rules)) {
    for (const Isa isa : {Isa::portable, Isa::avx2, Isa::avx512}) {
      if (!isa_supported(isa)) continue;
      lockstep::play_many(board, c.rules, c.seeds, table, scores, isa, lockstep::Products::mul32);
      expect_equal("lockstep " + std::string(isa_name(isa)));
    }
    if (lockstep::supported(lockstep::Products::ifma52)) {
      lockstep::play_many(board, c.rules, c.seeds, table, scores, Isa::avx512,
                          lockstep::Products::ifma52);
      expect_equal("lockstep avx512 ifma52");
    }
  }
  ++tally.cases;
}

struct Size {
  int width;
  int height;
};

// A random case; `max_cells` bounds the board (the greedy reference is slow).
Case random_case(std::mt19937_64& rng, Player player, int max_cells, int max_moves) {
  static const std::vector<Size> named{{5, 10}, {3, 3}, {8, 8}, {16, 16}, {7, 13}};
  static const std::vector<double> bases{1.5, 1.5, 2.0, 1.1, 1.0, 0.5, 3.25};
  auto pick = [&rng](int low, int high) {  // uniform in [low, high]
    return low + static_cast<int>(rng() % static_cast<std::uint64_t>(high - low + 1));
  };
  Case c;
  c.rules.colors = pick(2, max_colors);
  c.rules.no_match = pick(0, 1) == 0 ? NoMatch::undo : NoMatch::keep;
  c.rules.refill = pick(0, 1) == 0 ? Refill::none : Refill::random;
  // Refilling with 2 or 3 colors makes cascades that hardly ever end on larger boards
  // (2 colors on 8x8: thousands of rounds a move; on 16x16 practically never ending).
  if (c.rules.refill == Refill::random && c.rules.colors == 2) max_cells = std::min(max_cells, 30);
  if (c.rules.refill == Refill::random && c.rules.colors == 3) max_cells = std::min(max_cells, 100);
  do {
    if (pick(0, 2) != 0) {
      const auto& size =
          named[static_cast<std::size_t>(pick(0, static_cast<int>(named.size()) - 1))];
      c.rules.width = size.width;
      c.rules.height = size.height;
    } else {
      c.rules.width = pick(1, max_side);
      c.rules.height = pick(1, max_side);
    }
  } while (c.rules.width * c.rules.height > max_cells);
  c.rules.player = player;
  c.rules.moves = pick(1, max_moves);
  c.rules.score_base = bases[static_cast<std::size_t>(pick(0, static_cast<int>(bases.size()) - 1))];
  c.rules.score_per = pick(0, 1) == 0 ? ScorePer::move : ScorePer::wave;
  c.source = static_cast<Source>(pick(0, 5) / 2 == 0 ? 0 : pick(0, 2));
  c.initial_runs = static_cast<InitialRuns>(pick(0, 2));
  c.gene = static_cast<std::uint32_t>(rng());
  c.seeds = {rng(), rng(), rng()};
  return c;
}

TEST(Match3Fast, RandomPlayerEqualsReference) {
  std::mt19937_64 rng(20260517);
  Tally tally;
  const int cases = levelforge::testing::random_cases(20'000);
  for (int i = 0; i < cases && !HasFailure(); ++i) {
    compare(random_case(rng, Player::random, max_side * max_side, 100), tally);
  }
  EXPECT_EQ(tally.cases, cases);
  // The comparison means something only if many playouts score.
  EXPECT_GT(tally.scoring, tally.playouts / 2) << tally.scoring << " of " << tally.playouts;
  RecordProperty("playouts", tally.playouts);
  std::cout << "random player: " << tally.cases << " cases, " << tally.playouts << " playouts, "
            << tally.scoring << " scoring\n";
}

// Lanes that end their playouts at different moves take the next seed: 19 seeds over 8
// lanes, on every instruction set this CPU has, AVX-512's draws by either multiply (what
// the CPU lacks is reported).
TEST(Match3Fast, LockstepEqualsReferenceAsLanesTakeNewSeeds) {
  std::mt19937_64 rng(31);
  Tally tally;
  for (int i = 0; i < levelforge::testing::random_cases(600) && !HasFailure(); ++i) {
    Case c = random_case(rng, Player::random, max_side * max_side, 100);
    c.rules.no_match = NoMatch::undo;
    c.rules.score_per = ScorePer::move;
    c.seeds.clear();
    for (int seed = 0; seed < 19; ++seed) c.seeds.push_back(rng());
    compare(c, tally);
  }
  EXPECT_GT(tally.scoring, tally.playouts / 2) << tally.scoring << " of " << tally.playouts;
  for (const Isa isa : {Isa::avx2, Isa::avx512}) {
    if (!isa_supported(isa)) std::cout << "not on this CPU: " << isa_name(isa) << "\n";
  }
  if (!lockstep::supported(lockstep::Products::ifma52))
    std::cout << "not on this CPU: avx512 ifma52\n";
}

// Playouts longer than the 256 moves whose codes the AVX-512 path computes at once, with
// and without refills (which make it compute them again from the refilled stream).
TEST(Match3Fast, LockstepEqualsReferenceOnLongPlayouts) {
  std::mt19937_64 rng(47);
  Tally tally;
  // Not scaled down for sanitizer builds: the cases take milliseconds.
  for (int i = 0; i < 40 && !HasFailure(); ++i) {
    Case c = random_case(rng, Player::random, max_side * max_side, 100);
    c.rules.width = 3 + static_cast<int>(rng() % 8);  // boards where most playouts score
    c.rules.height = 3 + static_cast<int>(rng() % 14);
    c.rules.no_match = NoMatch::undo;
    c.rules.score_per = ScorePer::move;
    c.rules.colors = std::max(c.rules.colors, 4);
    c.rules.moves = 257 + static_cast<int>(rng() % 500);
    c.seeds.clear();
    for (int seed = 0; seed < 11; ++seed) c.seeds.push_back(rng());
    compare(c, tally);
  }
  EXPECT_GT(tally.scoring, tally.playouts / 2) << tally.scoring << " of " << tally.playouts;
}

TEST(Match3Fast, LockstepRefusesWhatItDoesNotPlay) {
  Rules rules;
  rules.player = Player::greedy;
  const Board board = board_from_gene(1, rules, InitialRuns::resolve);
  const auto table = score_table(rules);
  const std::vector<std::uint64_t> seeds{1};
  std::vector<double> scores(1);
  EXPECT_THROW(lockstep::play_many(board, rules, seeds, table, scores, Isa::portable),
               std::invalid_argument);
  rules.player = Player::random;
  rules.score_per = ScorePer::wave;
  EXPECT_THROW(lockstep::play_many(board, rules, seeds, table, scores, Isa::portable),
               std::invalid_argument);
}

TEST(Match3Fast, GreedyPlayerEqualsReference) {
  std::mt19937_64 rng(7);
  Tally tally;
  for (int i = 0; i < levelforge::testing::random_cases(1'500) && !HasFailure(); ++i) {
    compare(random_case(rng, Player::greedy, 120, 60), tally);
  }
  // A few large boards with few moves.
  for (int i = 0; i < 10 && !HasFailure(); ++i) {
    Case c = random_case(rng, Player::greedy, max_side * max_side, 8);
    c.rules.width = 16;
    c.rules.height = 16;
    c.rules.colors = std::max(c.rules.colors, 4);
    compare(c, tally);
  }
  EXPECT_GT(tally.scoring, tally.playouts / 2) << tally.scoring << " of " << tally.playouts;
  std::cout << "greedy player: " << tally.cases << " cases, " << tally.playouts << " playouts, "
            << tally.scoring << " scoring\n";
}

Board board_of(int width, int height, const std::vector<int>& colors) {
  Board board{width, height, {}};
  for (const int color : colors) {
    board.cells.push_back(color < 0 ? empty_cell : static_cast<std::uint8_t>(color));
  }
  return board;
}

std::vector<std::uint64_t> some_seeds(std::size_t count) {
  std::vector<std::uint64_t> seeds(count);
  for (std::size_t i = 0; i < count; ++i) seeds[i] = 0x9e3779b97f4a7c15ULL * (i + 1);
  return seeds;
}

// One matching move (the middle of the top row with the block below it) removes the
// top row; nothing can move after that.
TEST(Match3Fast, KnownMoveScores) {
  const Board board = board_of(3, 2,
                               {0, 1, 0,  //
                                2, 0, 2});
  for (const Player player : {Player::random, Player::greedy}) {
    Rules rules;
    rules.width = 3;
    rules.height = 2;
    rules.colors = 3;
    rules.player = player;
    const auto table = score_table(rules);
    const auto seeds = some_seeds(32);
    std::vector<double> scores(seeds.size());
    fast::play_many(board, rules, seeds, table, scores);
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      EXPECT_EQ(scores[i], reference::play(board, rules, seeds[i], table));
      EXPECT_EQ(scores[i], 1.5 * 1.5 * 1.5) << "seed " << seeds[i];
    }
  }
}

// A cascade: the only scoring swap (the 2 with the 1 below it) makes a column of three
// 1s; once they are gone the 0 on top falls between two 0s: 3 + 3 blocks in one move.
TEST(Match3Fast, CascadeCountsEveryRemovedBlock) {
  const Board board = board_of(3, 5,
                               {-1, 0, -1,  //
                                -1, 1, -1,  //
                                -1, 1, -1,  //
                                0, 2, 0,    //
                                1, 1, 2});
  Rules rules;
  rules.width = 3;
  rules.height = 5;
  rules.colors = 3;
  rules.player = Player::greedy;
  rules.moves = 3;
  const auto table = score_table(rules);
  const auto seeds = some_seeds(8);
  std::vector<double> scores(seeds.size());
  fast::play_many(board, rules, seeds, table, scores);
  for (std::size_t i = 0; i < seeds.size(); ++i) {
    EXPECT_EQ(scores[i], reference::play(board, rules, seeds[i], table));
    EXPECT_EQ(scores[i], table[6]);
  }
}

TEST(Match3Fast, NoPossibleMoveScoresZero) {
  // Diagonal stripes of five colors: no swap makes three in a line.
  Rules rules;
  std::vector<int> colors;
  for (int row = 0; row < rules.height; ++row) {
    for (int column = 0; column < rules.width; ++column) colors.push_back((2 * row + column) % 5);
  }
  const Board stripes = board_of(rules.width, rules.height, colors);
  const Board empty = board_of(rules.width, rules.height, std::vector<int>(50, -1));
  for (const Board& board : {stripes, empty}) {
    for (const Player player : {Player::random, Player::greedy}) {
      rules.player = player;
      const auto table = score_table(rules);
      const auto seeds = some_seeds(16);
      std::vector<double> scores(seeds.size());
      fast::play_many(board, rules, seeds, table, scores);
      for (std::size_t i = 0; i < seeds.size(); ++i) {
        EXPECT_EQ(scores[i], 0.0);
        EXPECT_EQ(reference::play(board, rules, seeds[i], table), 0.0);
      }
    }
  }
}

TEST(Match3Fast, OneScorePerSeed) {
  Rules rules;
  const Board board = board_from_gene(1, rules, InitialRuns::resolve);
  const auto table = score_table(rules);
  const std::vector<std::uint64_t> seeds{1, 2, 3};
  std::vector<double> scores(2);
  EXPECT_THROW(fast::play_many(board, rules, seeds, table, scores), std::invalid_argument);
}

// The production entry gives the kernels' scores, on the rules it plays in lock-step (on
// AVX-512) and on those it keeps for the bitboard kernel.
TEST(Match3Fast, FastPicksAKernel) {
  for (const int side : {5, 16}) {
    for (const auto& [player, score_per] :
         {std::pair{Player::random, ScorePer::move}, std::pair{Player::random, ScorePer::wave},
          std::pair{Player::greedy, ScorePer::move}}) {
      Rules rules;
      rules.width = side;
      rules.height = side;
      rules.colors = 5;
      rules.player = player;
      rules.score_per = score_per;
      EXPECT_EQ(fast::plays_lockstep(rules), best_isa() == Isa::avx512 && lockstep::plays(rules));
      const Board board = board_from_gene(20260517U, rules, InitialRuns::resolve);
      const auto table = score_table(rules);
      const auto seeds = some_seeds(player == Player::greedy ? 3 : 20);
      std::vector<double> scores(seeds.size());
      fast::play_many(board, rules, seeds, table, scores);
      for (std::size_t i = 0; i < seeds.size(); ++i)
        EXPECT_EQ(scores[i], reference::play(board, rules, seeds[i], table)) << side << " " << i;
    }
  }
}

}  // namespace
}  // namespace levelforge::match3

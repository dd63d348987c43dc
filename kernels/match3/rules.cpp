#include "kernels/match3/rules.hpp"

#include <cmath>

#include "kernels/match3/reference.hpp"

namespace levelforge::match3 {

std::vector<double> score_table(const Rules& rules) {
  std::vector<double> table(static_cast<std::size_t>(rules.width * rules.height) + 1);
  for (std::size_t k = 0; k < table.size(); ++k) {
    table[k] = std::pow(rules.score_base, static_cast<double>(k));
  }
  return table;
}

namespace {

// Would `color` at (row, column) complete a run with the two cells to its left or above?
bool completes_run(const Board& board, int row, int column, std::uint8_t color) {
  const bool left =
      column >= 2 && board.at(row, column - 1) == color && board.at(row, column - 2) == color;
  const bool above =
      row >= 2 && board.at(row - 1, column) == color && board.at(row - 2, column) == color;
  return left || above;
}

constexpr int reroll_attempts = 64;

// Cells in reading order; each run-forming color is redrawn up to 64 times.
void reroll_runs(Board& board, const Rules& rules, GeneStream& stream) {
  for (int row = 0; row < board.height; ++row) {
    for (int column = 0; column < board.width; ++column) {
      for (int attempt = 0;
           attempt < reroll_attempts && completes_run(board, row, column, board.at(row, column));
           ++attempt) {
        board.at(row, column) =
            static_cast<std::uint8_t>(stream() % static_cast<std::uint64_t>(rules.colors));
      }
    }
  }
}

void apply_initial_runs(Board& board, const Rules& rules, InitialRuns initial_runs,
                        GeneStream& stream) {
  if (initial_runs == InitialRuns::resolve) {
    Rules no_refill = rules;
    no_refill.refill = Refill::none;
    reference::resolve_cascade(board, no_refill, nullptr);
  } else if (initial_runs == InitialRuns::reroll) {
    reroll_runs(board, rules, stream);
  }
}

}  // namespace

Board board_from_gene(std::uint32_t gene, const Rules& rules, InitialRuns initial_runs) {
  Board board{rules.width, rules.height,
              std::vector<std::uint8_t>(static_cast<std::size_t>(rules.width * rules.height))};
  GeneStream stream(gene);
  for (auto& cell : board.cells) {
    cell = static_cast<std::uint8_t>(stream() % static_cast<std::uint64_t>(rules.colors));
  }
  apply_initial_runs(board, rules, initial_runs, stream);
  return board;
}

Board board_from_colors(std::vector<std::uint8_t> colors, const Rules& rules,
                        InitialRuns initial_runs, std::uint32_t reroll_seed) {
  Board board{rules.width, rules.height, std::move(colors)};
  GeneStream stream(reroll_seed);
  apply_initial_runs(board, rules, initial_runs, stream);
  return board;
}

}  // namespace levelforge::match3

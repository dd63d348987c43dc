#pragma once
// The plain scalar implementation of the Match-3 rules: the reference that the bitboard
// kernel is held equal to, and the definition of the rules in code.

#include <cstdint>
#include <span>
#include <vector>

#include "kernels/match3/rules.hpp"

namespace levelforge::match3::reference {

// Cells of every run of >= 3 equal colors in a row or a column (a cell once).
std::vector<bool> run_cells(const Board& board);
// True when a run passes through cell (row, column).
bool in_run(const Board& board, int row, int column);
// Blocks fall down each column; empty cells gather at the top.
void apply_gravity(Board& board);
// Removes runs and lets blocks fall until no run is left; returns the blocks removed, and
// appends each wave's to `waves` when given. With Refill::random, empty cells are refilled
// (columns left to right, each top to bottom) from `stream` after every fall.
int resolve_cascade(Board& board, const Rules& rules, PlayoutStream* stream,
                    std::vector<int>* waves = nullptr);

// One attempt to move (row, column) in `direction`; returns the blocks removed (0 when
// the move is spent), and appends each wave's to `waves` when given.
int make_move(Board& board, int row, int column, Direction direction, const Rules& rules,
              PlayoutStream& stream, std::vector<int>* waves = nullptr);

// What a move whose waves removed `waves` blocks scores under rules.score_per.
double move_points(const std::vector<int>& waves, const Rules& rules,
                   const std::vector<double>& scores);

// The score of one playout of `start` under `rules`, its moves drawn from `seed`.
double play(const Board& start, const Rules& rules, std::uint64_t seed,
            const std::vector<double>& scores);

}  // namespace levelforge::match3::reference

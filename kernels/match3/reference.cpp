#include "kernels/match3/reference.hpp"

#include <array>
#include <cmath>
#include <numeric>
#include <utility>

namespace levelforge::match3::reference {

namespace {

constexpr std::array<int, 4> row_step{-1, 1, 0, 0};
constexpr std::array<int, 4> column_step{0, 0, -1, 1};

struct Cell {
  int row;
  int column;
};

// The cell beside (row, column) in `direction`.
Cell neighbour(int row, int column, Direction direction) {
  const auto d = static_cast<std::size_t>(direction);
  return {row + row_step[d], column + column_step[d]};
}

// Length of the run of `color` through (row, column) along (dr, dc), the cell included.
int line_length(const Board& board, int row, int column, int dr, int dc) {
  const auto color = board.at(row, column);
  int length = 1;
  for (int sign : {-1, 1}) {
    int r = row + sign * dr;
    int c = column + sign * dc;
    while (r >= 0 && r < board.height && c >= 0 && c < board.width && board.at(r, c) == color) {
      ++length;
      r += sign * dr;
      c += sign * dc;
    }
  }
  return length;
}

void refill(Board& board, const Rules& rules, PlayoutStream& stream) {
  for (int column = 0; column < board.width; ++column) {
    for (int row = 0; row < board.height; ++row) {
      if (board.at(row, column) == empty_cell) {
        board.at(row, column) =
            static_cast<std::uint8_t>(stream() % static_cast<std::uint64_t>(rules.colors));
      }
    }
  }
}

// The blocks a swap of (row, column) with its neighbour in `direction` would remove,
// cascades included, without refilling: what the greedy player looks ahead with.
int lookahead(const Board& board, int row, int column, Direction direction, const Rules& rules) {
  Board copy = board;
  const auto [r, c] = neighbour(row, column, direction);
  std::swap(copy.at(row, column), copy.at(r, c));
  if (!in_run(copy, row, column) && !in_run(copy, r, c)) return 0;
  Rules no_refill = rules;
  no_refill.refill = Refill::none;
  return resolve_cascade(copy, no_refill, nullptr);
}

// A swap the rules allow: inside the board, two blocks of different colors.
bool swappable(const Board& board, int row, int column, Direction direction) {
  const auto [r, c] = neighbour(row, column, direction);
  if (r < 0 || r >= board.height || c < 0 || c >= board.width) return false;
  const auto a = board.at(row, column);
  const auto b = board.at(r, c);
  return a != empty_cell && b != empty_cell && a != b;
}

// The move with the largest removal (ties drawn), its waves into `waves`.
void greedy_move(Board& board, const Rules& rules, PlayoutStream& stream, std::vector<int>& waves) {
  int best = 0;
  std::vector<std::pair<int, Direction>> ties;
  for (int cell = 0; cell < board.width * board.height; ++cell) {
    for (Direction direction : {right, down}) {
      const int row = cell / board.width;
      const int column = cell % board.width;
      if (!swappable(board, row, column, direction)) continue;
      const int removed = lookahead(board, row, column, direction, rules);
      if (removed == 0 || removed < best) continue;
      if (removed > best) {
        best = removed;
        ties.clear();
      }
      ties.emplace_back(cell, direction);
    }
  }
  if (ties.empty()) {
    const auto move = draw_move(stream(), board.width * board.height);
    make_move(board, move.cell / board.width, move.cell % board.width, move.direction, rules,
              stream, &waves);
    return;
  }
  const auto [cell, direction] =
      ties[static_cast<std::size_t>(draw_choice(stream(), static_cast<int>(ties.size())))];
  make_move(board, cell / board.width, cell % board.width, direction, rules, stream, &waves);
}

}  // namespace

std::vector<bool> run_cells(const Board& board) {
  std::vector<bool> marked(board.cells.size(), false);
  for (int row = 0; row < board.height; ++row) {
    for (int column = 0; column < board.width; ++column) {
      if (board.at(row, column) == empty_cell) continue;
      if (line_length(board, row, column, 0, 1) >= 3 ||
          line_length(board, row, column, 1, 0) >= 3) {
        marked[board.index(row, column)] = true;
      }
    }
  }
  return marked;
}

bool in_run(const Board& board, int row, int column) {
  if (board.at(row, column) == empty_cell) return false;
  return line_length(board, row, column, 0, 1) >= 3 || line_length(board, row, column, 1, 0) >= 3;
}

void apply_gravity(Board& board) {
  for (int column = 0; column < board.width; ++column) {
    int target = board.height - 1;
    for (int row = board.height - 1; row >= 0; --row) {
      const auto color = board.at(row, column);
      if (color == empty_cell) continue;
      board.at(row, column) = empty_cell;
      board.at(target--, column) = color;
    }
  }
}

int resolve_cascade(Board& board, const Rules& rules, PlayoutStream* stream,
                    std::vector<int>* waves) {
  int removed = 0;
  for (;;) {
    const auto marked = run_cells(board);
    int count = 0;
    for (std::size_t i = 0; i < marked.size(); ++i) {
      if (!marked[i]) continue;
      board.cells[i] = empty_cell;
      ++count;
    }
    if (count == 0) return removed;
    removed += count;
    if (waves != nullptr) waves->push_back(count);
    apply_gravity(board);
    if (rules.refill == Refill::random && stream != nullptr) refill(board, rules, *stream);
  }
}

int make_move(Board& board, int row, int column, Direction direction, const Rules& rules,
              PlayoutStream& stream, std::vector<int>* waves) {
  if (!swappable(board, row, column, direction)) return 0;
  const auto [r, c] = neighbour(row, column, direction);
  std::swap(board.at(row, column), board.at(r, c));
  if (!in_run(board, row, column) && !in_run(board, r, c)) {
    if (rules.no_match == NoMatch::undo) std::swap(board.at(row, column), board.at(r, c));
    return 0;
  }
  return resolve_cascade(board, rules, &stream, waves);
}

double move_points(const std::vector<int>& waves, const Rules& rules,
                   const std::vector<double>& scores) {
  if (waves.empty()) return 0;
  if (rules.score_per == ScorePer::move)
    return move_score(scores, std::accumulate(waves.begin(), waves.end(), 0));
  double points = 0;
  for (const int wave : waves) points += move_score(scores, wave);
  return points;
}

double play(const Board& start, const Rules& rules, std::uint64_t seed,
            const std::vector<double>& scores) {
  Board board = start;
  PlayoutStream stream(seed);
  double score = 0;
  std::vector<int> waves;
  for (int move = 0; move < rules.moves; ++move) {
    waves.clear();
    if (rules.player == Player::greedy) {
      greedy_move(board, rules, stream, waves);
    } else {
      const auto drawn = draw_move(stream(), board.width * board.height);
      make_move(board, drawn.cell / board.width, drawn.cell % board.width, drawn.direction, rules,
                stream, &waves);
    }
    score += move_points(waves, rules, scores);
  }
  return score;
}

}  // namespace levelforge::match3::reference

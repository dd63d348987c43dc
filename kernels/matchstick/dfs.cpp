// The document's search (Fig. 2 and 13, game_DFS): every stick that may move, to every place
// it may go, one move per level down to the move limit, the equation checked after each
// move. Its move stack (Fig. 11, trc_*) keeps a path from undoing itself: a stick already
// moved may not move again, a place already emptied may not be filled. Its list of found
// equations (Fig. 12, seg_new) drops what other orders and pairings of the same moves find
// again.
//
// The first move is made exactly so. Below it the search grows as (sticks x open places)
// to the power of the depth, and three cuts keep k = 3 on three-digit puzzles under a
// million moves (123+456=789: 0.6 million) instead of tens of millions; none loses a
// solution. A move changes the
// patterns of two positions at most, so a layout with more broken positions (no symbol, or
// a forbidden leading zero) than twice the moves left is not descended into, and below the
// first level a move after which that is so is not made. The last move has to leave every
// position whole: below the first level it is only made from a place whose symbol stays
// whole without the stick to a place whose symbol stays whole with it (or inside one
// symbol that then is whole), and only when that repairs every broken position.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>

#include "kernels/api/index.hpp"
#include "kernels/matchstick/equation.hpp"

namespace levelforge::matchstick {
namespace {

// What a position may hold decides what "whole" means there.
enum Kind { digit_kind, leading_digit_kind, operator_kind, kinds };

constexpr bool whole(int kind, unsigned pattern) {
  if (kind == operator_kind) return pattern == plus_pattern || pattern == minus_pattern;
  if (pattern > 127 || digit_of(static_cast<Pattern>(pattern)) < 0) return false;
  return kind != leading_digit_kind || pattern != digit_patterns[0];
}

// Per kind and pattern, the one-stick changes that leave the symbol whole: the filled
// places whose stick can leave, the empty places that can take one, and per filled place
// the empty places its stick can move to inside the symbol.
struct WholeAfter {
  std::array<std::array<Pattern, 128>, kinds> removing{};
  std::array<std::array<Pattern, 128>, kinds> adding{};
  std::array<std::array<std::array<Pattern, digit_segments>, 128>, kinds> moving{};
  std::array<std::array<Pattern, 128>, kinds> movers{};  // filled places with a `moving` entry
};

constexpr WholeAfter whole_after = [] {
  WholeAfter table;
  for (std::size_t kind = 0; kind < kinds; ++kind) {
    const unsigned places = kind == operator_kind ? 0x03U : 0x7FU;
    const int k = static_cast<int>(kind);
    for (unsigned pattern = 0; pattern <= places; ++pattern) {
      for (std::size_t from = 0; from < digit_segments; ++from) {
        const unsigned from_place = 1U << from;
        if ((places & from_place) == 0) continue;
        const auto mark = [&](Pattern& entry, unsigned place) {
          entry = static_cast<Pattern>(entry | place);
        };
        if ((pattern & from_place) == 0) {
          if (whole(k, pattern | from_place)) mark(table.adding[kind][pattern], from_place);
          continue;
        }
        if (whole(k, pattern ^ from_place)) mark(table.removing[kind][pattern], from_place);
        for (unsigned to_place = 1; to_place <= places; to_place <<= 1) {
          if ((pattern & to_place) == 0 && whole(k, pattern ^ from_place ^ to_place)) {
            mark(table.moving[kind][pattern][from], to_place);
            mark(table.movers[kind][pattern], from_place);
          }
        }
      }
    }
  }
  return table;
}();

// The places of a pattern, lowest first.
template <class Visit>
void for_each_place(unsigned mask, const Visit& visit) {
  for (; mask != 0; mask &= mask - 1) visit(static_cast<Pattern>(mask & (0U - mask)));
}

class DocumentSearch {
 public:
  DocumentSearch(const Layout& puzzle, const Rules& rules)
      : puzzle_(puzzle), rules_(rules), layout_(puzzle) {
    const Form& form = puzzle.form;
    positions_ = form.positions();
    kind_.assign(to_index(positions_), digit_kind);
    kind_[to_index(form.operator_position())] = operator_kind;
    for (int number = 0; number < 3; ++number) {
      if (rules.leading_zeros == LeadingZeros::forbid && form.digits(number) > 1) {
        kind_[to_index(form.first_position(number))] = leading_digit_kind;
      }
    }
    arrived_.assign(to_index(positions_), 0);
    left_.assign(to_index(positions_), 0);
    for (int position = 0; position < positions_; ++position) {
      const int segments =
          position == form.operator_position() ? operator_segments : digit_segments;
      places_.push_back(static_cast<Pattern>((1U << segments) - 1));
      broken_.push_back(broken(position, cell(position)) ? 1 : 0);
      broken_count_ += broken_.back();
    }
  }

  std::vector<Solution> run() {
    game_dfs(0);
    std::sort(found_.begin(), found_.end(),
              [](const Solution& x, const Solution& y) { return x.equation < y.equation; });
    return std::move(found_);
  }

 private:
  struct Move {
    int from_position;
    Pattern from_place;
    int to_position;
    Pattern to_place;
  };

  [[nodiscard]] Pattern cell(int position) const { return layout_.cells[to_index(position)]; }
  // Sticks that may move: filled, and not moved here by the path (trc check).
  [[nodiscard]] unsigned movable(int position) const {
    return cell(position) & ~arrived_[to_index(position)];
  }
  // Places a stick may go: empty, and not emptied by the path (trc check).
  [[nodiscard]] unsigned open(int position) const {
    return places_[to_index(position)] & ~cell(position) & ~left_[to_index(position)];
  }
  [[nodiscard]] bool broken(int position, Pattern pattern) const {
    return !whole(kind_[to_index(position)], pattern);
  }

  void set_cell(int position, Pattern pattern) {
    layout_.cells[to_index(position)] = pattern;
    const int now = broken(position, pattern) ? 1 : 0;
    broken_count_ += now - broken_[to_index(position)];
    broken_[to_index(position)] = static_cast<char>(now);
  }

  // Moves the stick (seg move), records the move on the stack, checks the equation, searches
  // below, and takes it all back.
  void play(int depth, const Move& move) {
    set_cell(move.from_position, cell(move.from_position) ^ move.from_place);
    set_cell(move.to_position, cell(move.to_position) ^ move.to_place);
    stack_.push_back(move);
    left_[to_index(move.from_position)] |= move.from_place;
    arrived_[to_index(move.to_position)] |= move.to_place;

    const int moves_left = rules_.moves - depth - 1;
    if (broken_count_ == 0 && (rules_.count == Count::up_to || moves_left == 0) &&
        is_true(layout_, rules_.leading_zeros)) {
      seg_new(depth + 1);
    }
    if (moves_left > 0 && broken_count_ <= 2 * moves_left) game_dfs(depth + 1);

    arrived_[to_index(move.to_position)] &= static_cast<Pattern>(~move.to_place);
    left_[to_index(move.from_position)] &= static_cast<Pattern>(~move.from_place);
    stack_.pop_back();
    set_cell(move.to_position, cell(move.to_position) ^ move.to_place);
    set_cell(move.from_position, cell(move.from_position) ^ move.from_place);
  }

  void game_dfs(int depth) {
    if (depth == rules_.moves) return;
    const int moves_left = rules_.moves - depth - 1;  // after the move made here
    if (depth == 0) {
      every_move(depth);
    } else if (moves_left == 0) {
      last_moves(depth);
    } else {
      repairable_moves(depth, 2 * moves_left);
    }
  }

  // The document's loop: every stick that may move, to every place it may go.
  void every_move(int depth) {
    for (int from = 0; from < positions_; ++from) {
      for_each_place(movable(from), [&](Pattern from_place) {
        for (int to = 0; to < positions_; ++to) {
          for_each_place(open(to), [&](Pattern to_place) {
            play(depth, Move{from, from_place, to, to_place});
          });
        }
      });
    }
  }

  // The same loop without the moves after which more positions are broken than
  // `repairable`: they find nothing, so they are not made.
  void repairable_moves(int depth, int repairable) {
    for (int from = 0; from < positions_; ++from) {
      for_each_place(movable(from), [&](Pattern from_place) {
        const auto emptied = static_cast<Pattern>(cell(from) ^ from_place);
        const int broken_elsewhere = broken_count_ - broken_[to_index(from)];
        const int from_broken = broken(from, emptied) ? 1 : 0;
        for (int to = 0; to < positions_; ++to) {
          if (to == from) {
            for_each_place(open(to), [&](Pattern to_place) {
              if (broken_elsewhere + (broken(to, emptied ^ to_place) ? 1 : 0) <= repairable) {
                play(depth, Move{from, from_place, to, to_place});
              }
            });
            continue;
          }
          const int others = broken_elsewhere - broken_[to_index(to)] + from_broken;
          if (others > repairable) continue;
          for_each_place(open(to), [&](Pattern to_place) {
            if (others + (broken(to, cell(to) ^ to_place) ? 1 : 0) <= repairable) {
              play(depth, Move{from, from_place, to, to_place});
            }
          });
        }
      });
    }
  }

  // The moves of game_dfs's loop that can end in a true equation: those after which no
  // position is broken.
  void last_moves(int depth) {
    if (broken_count_ > 2) return;
    std::array<int, 2> broken{};
    for (int position = 0, listed = 0; listed < broken_count_; ++position) {
      if (broken_[to_index(position)] != 0) broken[to_index(listed++)] = position;
    }
    if (broken_count_ == 2) {
      move_across(depth, broken[0], broken[1]);
      move_across(depth, broken[1], broken[0]);
      return;
    }
    if (broken_count_ == 1) {
      const int repair = broken[0];
      move_inside(depth, repair);
      const bool gives = whole_removing(repair) != 0;
      const bool takes = whole_adding(repair) != 0;
      for (int other = 0; other < positions_; ++other) {
        if (other == repair) continue;
        if (gives) move_across(depth, repair, other);
        if (takes) move_across(depth, other, repair);
      }
      return;
    }
    std::array<bool, max_positions> can_take{};
    for (int position = 0; position < positions_; ++position) {
      move_inside(depth, position);
      can_take[to_index(position)] = whole_adding(position) != 0;
    }
    for (int from = 0; from < positions_; ++from) {
      if (whole_removing(from) == 0) continue;
      for (int to = 0; to < positions_; ++to) {
        if (to != from && can_take[to_index(to)]) move_across(depth, from, to);
      }
    }
  }

  // The sticks of `position` that may leave it whole, the open places that take one and
  // leave it whole.
  [[nodiscard]] unsigned whole_removing(int position) const {
    return movable(position) &
           whole_after.removing[to_index(kind_[to_index(position)])][cell(position)];
  }
  [[nodiscard]] unsigned whole_adding(int position) const {
    return open(position) & whole_after.adding[to_index(kind_[to_index(position)])][cell(position)];
  }

  void move_across(int depth, int from, int to) {
    const unsigned from_places = whole_removing(from);
    if (from_places == 0) return;
    const unsigned to_places = whole_adding(to);
    for_each_place(from_places, [&](Pattern from_place) {
      for_each_place(to_places, [&](Pattern to_place) {
        play(depth, Move{from, from_place, to, to_place});
      });
    });
  }

  void move_inside(int depth, int position) {
    const auto kind = to_index(kind_[to_index(position)]);
    const auto& moving = whole_after.moving[kind][cell(position)];
    for_each_place(
        movable(position) & whole_after.movers[kind][cell(position)], [&](Pattern from_place) {
          const auto from_segment = static_cast<std::size_t>(std::countr_zero(from_place));
          for_each_place(open(position) & moving[from_segment], [&](Pattern to_place) {
            play(depth, Move{position, from_place, position, to_place});
          });
        });
  }

  // Records the current equation unless an earlier path found it. The moves on the stack
  // fill exactly the places the layout has and the puzzle lacks, so the depth is its
  // distance.
  void seg_new(int distance) {
    std::string equation = to_string(layout_);
    const bool known = std::any_of(found_.begin(), found_.end(),
                                   [&](const Solution& s) { return s.equation == equation; });
    if (!known) {
      found_.push_back(Solution{std::move(equation), distance, moved_sticks(puzzle_, layout_)});
    }
  }

  const Layout& puzzle_;
  Rules rules_;
  Layout layout_;  // Seg_lay: the arrangement the path has reached
  int positions_ = 0;
  std::vector<Pattern> places_;  // per position, all its places
  std::vector<int> kind_;
  std::vector<Move> stack_;
  // The stack's places per position, as it grows and shrinks: the destinations (sticks
  // already moved) and the sources (places already emptied).
  std::vector<Pattern> arrived_;
  std::vector<Pattern> left_;
  std::vector<char> broken_;  // per position
  int broken_count_ = 0;
  std::vector<Solution> found_;
};

}  // namespace

std::vector<Solution> solve_dfs(const Layout& puzzle, const Rules& rules) {
  check_rules(rules);
  check_layout(puzzle);
  return DocumentSearch(puzzle, rules).run();
}

}  // namespace levelforge::matchstick

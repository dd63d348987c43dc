// summarize_many (four_by_four.hpp): bit-sliced, 512 configs per batch on AVX-512, 256 on
// AVX2 and 128 elsewhere: one batch word per vector register.
//
// A batch is the configs base .. base + size - 1 of an aligned block; each property of
// each cell is one word `Lanes` holding one bit per config (lane_bit_of says which). Every
// step below is then a handful of bitwise operations shared by the batch's configs, with
// no branches on the maze: a few thousand vector instructions per batch instead of a graph
// search and a Tarjan per config.
//
//   walls      one word per inner wall: the low 9, 8 or 7 config bits (east walls of rows
//              0..2) vary inside the batch as fixed lane patterns, the others are constant.
//   BFS        from the start over sets of cells: the image of a set under the four tilts
//              is a fill along each row and column (roll_line), so a layer costs ~110
//              operations whatever the set. A bit-sliced counter counts the non-empty
//              layers (the distance) and the last one gives the farthest cell.
//   components the 16x16 reachability matrix of the roll graph (one word per entry),
//              Warshall from pivot 15 down, testing each pivot against the cells above
//              it as it comes up (v starts a component when it is resting and no u < v is
//              mutually reachable with it). Row 3's pivots are a scalar closure shared by
//              the batch, the others go four per sweep, and entries that no later test
//              needs are not updated: ~1,800 three-input logic operations per batch
//              instead of 16^3 = 4,096 read-modify-writes.
//   output     the four byte-sized results as 32 bit planes, transposed in registers
//              (a 32x32 bit transpose per half word) into one 32-bit Summary per config,
//              laid out so that the planes are the batch's Summary array as they stand.
//
// The kernel is compiled three times (AVX-512, AVX2, plain x86-64 / other targets) from
// the same source through target attributes and picked once at run time, so the build
// needs no -march flag and the binary runs on any x86-64. Each copy's word is as wide as
// its vector registers: GCC cannot keep a 64-byte word in AVX2's or SSE2's registers and
// copies each one through the stack in pieces (docs/tiltmaze.md, "Speed").

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/tiltmaze/four_by_four.hpp"

namespace levelforge::tiltmaze::four {
namespace {

// One bit per config of a batch, in 64-bit elements; GCC's vector extension turns each
// operator into one instruction where the word fits a register of the target.
using Lanes512 = std::uint64_t __attribute__((vector_size(64)));
using Lanes256 = std::uint64_t __attribute__((vector_size(32)));
using Lanes128 = std::uint64_t __attribute__((vector_size(16)));

// Configs per batch, and the number of low config bits that vary inside one.
template <class Lanes>
constexpr std::uint32_t batch_size = 8 * sizeof(Lanes);
template <class Lanes>
constexpr int batch_bits = std::countr_zero(batch_size<Lanes>);
constexpr std::uint32_t largest_batch = batch_size<Lanes512>;

template <class Lanes>
using CellWords = std::array<Lanes, cells>;

#define LEVELFORGE_FOUR_INLINE inline __attribute__((always_inline))

// Lane 64 * element + bit of a word holds config base + offset, where the batch_bits bits
// of the offset are a permutation of those of the lane: config bit k is lane bit
// lane_bit_of(k). Chosen so that the final bit transpose leaves the Summary of offset c at
// byte 4c of the planes (see the end of summarize_batch): offset bit 0 is lane bit 5 (the
// half of an element), the next bits (3 for 8 elements) are the element, the top 5 lane
// bits 0..4. For 512-bit words: 5, 6, 7, 8, 0, 1, 2, 3, 4.
template <class Lanes>
constexpr int lane_bit_of(int k) {
  constexpr int element_bits = batch_bits<Lanes> - 6;
  return k == 0 ? 5 : k <= element_bits ? 5 + k : k - element_bits - 1;
}
static_assert(lane_bit_of<Lanes512>(0) == 5 && lane_bit_of<Lanes512>(3) == 8 &&
              lane_bit_of<Lanes512>(4) == 0 && lane_bit_of<Lanes512>(8) == 4);
static_assert(lane_bit_of<Lanes128>(1) == 6 && lane_bit_of<Lanes128>(2) == 0 &&
              lane_bit_of<Lanes128>(6) == 4);

// The word whose lanes hold bit `k` of the lane index: bits 0..5 index the bit inside an
// element, the bits above them the element.
// (Words go in and out by reference: a vector passed by value in a function not compiled
// for AVX-512 would draw GCC's ABI-change warning, -Wpsabi.)
template <class Lanes>
LEVELFORGE_FOUR_INLINE void set_lane_bit(Lanes& word, int k) {
  constexpr std::array<std::uint64_t, 6> within{0xAAAAAAAAAAAAAAAAULL, 0xCCCCCCCCCCCCCCCCULL,
                                                0xF0F0F0F0F0F0F0F0ULL, 0xFF00FF00FF00FF00ULL,
                                                0xFFFF0000FFFF0000ULL, 0xFFFFFFFF00000000ULL};
  for (int element = 0; element < int{sizeof(Lanes) / 8}; ++element)
    word[element] = k < 6 ? within[static_cast<std::size_t>(k)]
                          : (((element >> (k - 6)) & 1) != 0 ? ~0ULL : 0ULL);
}

template <class Lanes>
LEVELFORGE_FOUR_INLINE void set_constant(Lanes& word, bool set) {
  const Lanes none{};
  word = none - std::uint64_t{set};  // all ones when set
}

// A row or a column: its four cells in order and the three walls between them
// (wall i separates cells i and i+1).
struct Line {
  std::array<int, 4> cell;
  std::array<int, 3> wall;  // index into the east (rows) or south (columns) words
};

constexpr std::array<Line, 4> rows{{{{0, 1, 2, 3}, {0, 1, 2}},
                                    {{4, 5, 6, 7}, {3, 4, 5}},
                                    {{8, 9, 10, 11}, {6, 7, 8}},
                                    {{12, 13, 14, 15}, {9, 10, 11}}}};
// Column c's walls are config bits 12 + c*3 + r, i.e. south word c*3 + r.
constexpr std::array<Line, 4> columns{{{{0, 4, 8, 12}, {0, 1, 2}},
                                       {{1, 5, 9, 13}, {3, 4, 5}},
                                       {{2, 6, 10, 14}, {6, 7, 8}},
                                       {{3, 7, 11, 15}, {9, 10, 11}}}};

// Adds to `image` where the balls in `from` come to rest when rolled both ways along
// `line`. Toward cell 0: `moving[i]` holds the balls that pass cell i (they started there
// or came through from i+1 with no wall between); they stop at i when wall i-1 (or the
// border) is there. Toward cell 3 likewise.
template <class Lanes>
LEVELFORGE_FOUR_INLINE void roll_line(const CellWords<Lanes>& from, CellWords<Lanes>& image,
                                      const Line& line, const std::array<Lanes, 12>& walls) {
  const auto at = [&](int i) -> std::size_t {
    return static_cast<std::size_t>(line.cell[static_cast<std::size_t>(i)]);
  };
  const Lanes& w0 = walls[static_cast<std::size_t>(line.wall[0])];
  const Lanes& w1 = walls[static_cast<std::size_t>(line.wall[1])];
  const Lanes& w2 = walls[static_cast<std::size_t>(line.wall[2])];
  const Lanes f0 = from[at(0)], f1 = from[at(1)], f2 = from[at(2)], f3 = from[at(3)];
  const Lanes down2 = f2 | (f3 & ~w2);
  const Lanes down1 = f1 | (down2 & ~w1);
  const Lanes down0 = f0 | (down1 & ~w0);
  const Lanes up1 = f1 | (f0 & ~w0);
  const Lanes up2 = f2 | (up1 & ~w1);
  const Lanes up3 = f3 | (up2 & ~w2);
  image[at(0)] |= down0 | (f0 & w0);
  image[at(1)] |= (down1 & w0) | (up1 & w1);
  image[at(2)] |= (down2 & w1) | (up2 & w2);
  image[at(3)] |= (f3 & w2) | up3;
}

// counter += bit, bit-sliced; `width` bit planes are enough for the sum.
template <class Lanes, std::size_t planes>
LEVELFORGE_FOUR_INLINE void increment(std::array<Lanes, planes>& counter, const Lanes& added,
                                      int width) {
  Lanes bit = added;
  for (int b = 0; b < width; ++b) {
    const Lanes carry = counter[static_cast<std::size_t>(b)] & bit;
    counter[static_cast<std::size_t>(b)] ^= bit;
    bit = carry;
  }
}

// The number of set words of `bits`, per lane, in 5 planes.
template <class Lanes>
LEVELFORGE_FOUR_INLINE std::array<Lanes, 5> count(const CellWords<Lanes>& bits) {
  std::array<Lanes, 5> total{};
#pragma GCC unroll 16
  for (int i = 0; i < cells; ++i)
    increment(total, bits[static_cast<std::size_t>(i)],
              static_cast<int>(std::bit_width(static_cast<unsigned>(i + 1))));
  return total;
}

// A Summary from its 32-bit form, reachable in the low byte.
LEVELFORGE_FOUR_INLINE void store(Summary& summary, std::uint32_t word) {
  static_assert(sizeof(Summary) == 4);
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(&summary, &word, sizeof word);
  } else {
    summary = {static_cast<std::uint8_t>(word), static_cast<std::uint8_t>(word >> 8),
               static_cast<std::uint8_t>(word >> 16), static_cast<std::uint8_t>(word >> 24)};
  }
}

template <class Lanes>
LEVELFORGE_FOUR_INLINE bool any(const Lanes& word) {
  std::uint64_t folded = 0;
  for (int element = 0; element < int{sizeof(Lanes) / 8}; ++element) folded |= word[element];
  return folded != 0;
}

// The rolls all configs of a batch share, those along the columns and along row 3 (their
// walls are config bits 9..23, above the lane bits), closed through the pivots of row 3 in
// Warshall's order from 15 down. reach[i] bit j: i reaches j by shared rolls through
// cells of row 3; joined bit v (v in row 3): some u < v in row 3 is mutually reachable
// with v through cells above u.
struct SharedClosure {
  std::array<std::uint32_t, cells> reach{};
  std::uint32_t joined = 0;
};

inline SharedClosure shared_closure(std::uint32_t base) {
  SharedClosure closure;
  const auto add_line = [&](const Line& line, std::uint32_t walls) {
    for (int i = 0; i < 4; ++i) {
      int low = i, high = i;
      while (low > 0 && ((walls >> (low - 1)) & 1U) == 0) --low;
      while (high < 3 && ((walls >> high) & 1U) == 0) ++high;
      const auto from = static_cast<std::size_t>(line.cell[static_cast<std::size_t>(i)]);
      closure.reach[from] |= (1U << line.cell[static_cast<std::size_t>(low)]) |
                             (1U << line.cell[static_cast<std::size_t>(high)]);
    }
  };
  for (std::size_t c = 0; c < 4; ++c) add_line(columns[c], (base >> (12 + 3 * c)) & 7U);
  add_line(rows[3], (base >> 9) & 7U);
  for (int k = cells - 1; k >= 12; --k) {
    const std::uint32_t through = closure.reach[static_cast<std::size_t>(k)];
    for (int v = k + 1; v < cells; ++v)
      if (((through >> v) & 1U) != 0 &&
          ((closure.reach[static_cast<std::size_t>(v)] >> k) & 1U) != 0)
        closure.joined |= 1U << v;
    for (auto& from : closure.reach)
      if (((from >> k) & 1U) != 0) from |= through;
  }
  return closure;
}

// The exhaustive visit's histograms counted from a batch's bit planes, before they are
// transposed: per value, the lanes holding it are an AND of planes (a tree, shared
// prefixes), counted per 64-bit element by VPOPCNTQ on AVX-512, by scalar POPCNTs on
// AVX2. About half an instruction per config on AVX-512, against two for counting the
// transposed summaries (four_by_four_counts.cpp).
template <class Lanes>
struct PlaneCounts {
  using Values = std::array<Lanes, SummaryCounts::values>;
  Values reachable{};
  Values components{};
  Values distance{};
};

// Written as one vector of popcounts, which GCC turns into a VPOPCNTQ where the target
// has it (a loop over the elements stayed eight scalar POPCNTs).
template <class Lanes, std::size_t... element>
LEVELFORGE_FOUR_INLINE void add_popcounts(Lanes& total, const Lanes& mask,
                                          std::index_sequence<element...> /*elements*/) {
  total += Lanes{static_cast<std::uint64_t>(__builtin_popcountll(mask[element]))...};
}

template <class Lanes>
LEVELFORGE_FOUR_INLINE void add_lane_counts(Lanes& total, const Lanes& mask) {
  add_popcounts(total, mask, std::make_index_sequence<sizeof(Lanes) / 8>{});
}

// counts[v] += the lanes whose value (bit b in planes[b]) is v, for v = 0 .. 16.
template <class Lanes, std::size_t bits>
LEVELFORGE_FOUR_INLINE void tally(const std::array<Lanes, bits>& planes,
                                  typename PlaneCounts<Lanes>::Values& counts) {
  static_assert(bits == 4 || bits == 5);
  constexpr std::size_t low = 4;  // values 0..15 by a tree over planes 3..0
  Lanes root = ~Lanes{};
  if constexpr (bits == 5) {
    root = ~planes[4];
    add_lane_counts(counts[16], planes[4] & ~(planes[3] | planes[2] | planes[1] | planes[0]));
  }
  std::array<Lanes, std::size_t{1} << low> masks{};
  masks[0] = root;
  std::size_t width = 1;
#pragma GCC unroll 4
  for (std::size_t step = 0; step < low; ++step) {
    const Lanes& plane = planes[low - 1 - step];
#pragma GCC unroll 8
    for (std::size_t i = 0; i < width; ++i) {  // value v splits into 2v (bit clear), 2v + 1
      const std::size_t v = width - 1 - i;
      masks[2 * v + 1] = masks[v] & plane;
      masks[2 * v] = masks[v] & ~plane;
    }
    width *= 2;
  }
#pragma GCC unroll 16
  for (std::size_t v = 0; v < masks.size(); ++v) add_lane_counts(counts[v], masks[v]);
}

// Without counting (PlaneCounts* null, `counting` false) the summaries only.
template <class Lanes, bool counting>
LEVELFORGE_FOUR_INLINE void summarize_batch(std::uint32_t base, Summary* out,
                                            PlaneCounts<Lanes>* counts) {
  const Lanes none{};
  const Lanes all = ~none;
  using Index = std::size_t;

  // One word per wall, in config bit order: east[row*3 + column], south[column*3 + row].
  std::array<Lanes, 12> east{}, south{};
  for (int k = 0; k < 12; ++k) {
    if (k < batch_bits<Lanes>) {
      set_lane_bit(east[Index(k)], lane_bit_of<Lanes>(k));
    } else {
      set_constant(east[Index(k)], ((base >> k) & 1U) != 0);
    }
    set_constant(south[Index(k)], ((base >> (12 + k)) & 1U) != 0);
  }

  // --- BFS from the start over sets of cells -------------------------------------------
  CellWords<Lanes> seen{}, frontier{}, last{};
  seen[0] = frontier[0] = last[0] = all;
  std::array<Lanes, 4> distance{};
  for (int layer = 1; layer < cells; ++layer) {
    CellWords<Lanes> image{};
#pragma GCC unroll 4
    for (const Line& line : rows) roll_line(frontier, image, line, east);
#pragma GCC unroll 4
    for (const Line& line : columns) roll_line(frontier, image, line, south);
    Lanes grew = none;
#pragma GCC unroll 16
    for (Index c = 0; c < cells; ++c) {
      frontier[c] = image[c] & ~seen[c];
      seen[c] |= image[c];
      grew |= frontier[c];
    }
    if (!any(grew)) break;
    increment(distance, grew, 4);
#pragma GCC unroll 16
    for (Index c = 0; c < cells; ++c) last[c] = (frontier[c] & grew) | (last[c] & ~grew);
  }

  // --- Components: Warshall on the roll graph's reachability matrix ---------------------
  //
  // v leads its component (and is counted) when it is resting and no u < v is mutually
  // reachable with it. When some u is, so is the component's smallest cell m, by paths
  // whose inner cells all lie in the component, hence above m. Warshall with the pivots
  // taken from 15 down has, when pivot m comes up, reachability through cells above m in
  // row m and column m: the test for m is made right then, and an entry between two cells
  // above m is never needed again, so it is not updated (2/3 of the plain work).
  //
  // The first four pivots, row 3, need no words at all: every roll into, out of or along
  // row 3 is vertical or in row 3, fixed for the whole batch, so reachability through row
  // 3 is one scalar closure (shared_closure) that seeds the matrix.
  const SharedClosure shared = shared_closure(base);
  CellWords<Lanes> leader = seen;
  for (Index v = 12; v < cells; ++v)
    if (((shared.joined >> v) & 1U) != 0) leader[v] = none;
  std::array<CellWords<Lanes>, cells> reach;
  for (Index i = 0; i < cells; ++i)
    for (Index j = 0; j < cells; ++j)
      set_constant(reach[i][j], i != j && ((shared.reach[i] >> j) & 1U) != 0);
  const auto add_rolls = [&](const Line& line, const std::array<Lanes, 12>& walls) {
    // From cell i the ball passes j while no wall lies between, and rests on the last such.
    for (int i = 0; i < 4; ++i) {
      const auto from = Index(line.cell[Index(i)]);
      Lanes open = all;
      for (int j = i - 1; j >= 0; --j) {
        open &= ~walls[Index(line.wall[Index(j)])];
        reach[from][Index(line.cell[Index(j)])] |=
            j == 0 ? open : open & walls[Index(line.wall[Index(j - 1)])];
      }
      open = all;
      for (int j = i + 1; j < 4; ++j) {
        open &= ~walls[Index(line.wall[Index(j - 1)])];
        reach[from][Index(line.cell[Index(j)])] |=
            j == 3 ? open : open & walls[Index(line.wall[Index(j)])];
      }
    }
  };
  for (Index r = 0; r < 3; ++r) add_rolls(rows[r], east);  // the other rolls are shared

  // The other pivots four at a time: pivot m adds column m times row m, both as they stand
  // after the pivots before it, so once those 4 columns and rows are brought up to date
  // each entry is read and written once per 4 pivots instead of 4 times (the loads and
  // stores, not the logic, bound the plain loop).
  constexpr Index pivots = 4;
#pragma GCC unroll 3
  for (Index top = 12; top > 0; top -= pivots) {
    const Index low = top - pivots;
    // [m][i]: pivot top - 1 - m, through the cells above it.
    std::array<CellWords<Lanes>, pivots> column, row;
    // Column m needs the entries of rows 0..m-1 at pivot m and row m those of columns
    // 0..m-1: the 4 x 4 corner of the pivots first, pivot by pivot ...
#pragma GCC unroll 4
    for (Index m = 0; m < pivots; ++m) {
      const Index k = top - 1 - m;
#pragma GCC unroll 4
      for (Index i = low; i < top; ++i) {
        Lanes down = reach[i][k], across = reach[k][i];
#pragma GCC unroll 4
        for (Index earlier = 0; earlier < m; ++earlier) {
          down |= column[earlier][i] & row[earlier][k];
          across |= column[earlier][k] & row[earlier][i];
        }
        column[m][i] = down;
        row[m][i] = across;
      }
    }
    // ... then the other 12 entries of each, cell by cell, the corner in registers.
    std::array<std::array<Lanes, pivots>, pivots> corner_row, corner_column;  // [earlier][m]
#pragma GCC unroll 4
    for (Index m = 0; m < pivots; ++m)
#pragma GCC unroll 4
      for (Index earlier = 0; earlier < m; ++earlier) {
        corner_row[earlier][m] = row[earlier][top - 1 - m];
        corner_column[earlier][m] = column[earlier][top - 1 - m];
      }
    for (Index n = 0; n < cells - pivots; ++n) {
      const Index i = n < low ? n : n + pivots;  // skipping the corner, done
      std::array<Lanes, pivots> down, across;
#pragma GCC unroll 4
      for (Index m = 0; m < pivots; ++m) {
        const Index k = top - 1 - m;
        down[m] = reach[i][k];
        across[m] = reach[k][i];
#pragma GCC unroll 4
        for (Index earlier = 0; earlier < m; ++earlier) {
          down[m] |= down[earlier] & corner_row[earlier][m];
          across[m] |= corner_column[earlier][m] & across[earlier];
        }
        column[m][i] = down[m];
        row[m][i] = across[m];
      }
    }
#pragma GCC unroll 4
    for (Index m = 0; m < pivots; ++m)
      for (Index v = top - m; v < cells; ++v) leader[v] &= ~(row[m][v] & column[m][v]);
    if (low == 0) break;
    for (Index j0 = 0; j0 < cells; j0 += 4) {
      std::array<std::array<Lanes, 4>, pivots> row_part;  // kept in registers
      for (Index m = 0; m < pivots; ++m)
        for (Index j = 0; j < 4; ++j) row_part[m][j] = row[m][j0 + j];
      const Index needed_rows = j0 < low ? cells : low;  // entries with a cell below `low`
      for (Index i = 0; i < needed_rows; ++i) {
#pragma GCC unroll 4
        for (Index j = 0; j < 4; ++j) {
          Lanes entry = reach[i][j0 + j];
#pragma GCC unroll 4
          for (Index m = 0; m < pivots; ++m) entry |= column[m][i] & row_part[m][j];
          reach[i][j0 + j] = entry;
        }
      }
    }
  }

  // --- The four results as bit planes of one 32-bit word per config ---------------------
  std::array<Lanes, 32> plane{};
  const std::array<Lanes, 5> reachable = count(seen);
  const std::array<Lanes, 5> components = count(leader);
  if constexpr (counting) {
    tally<Lanes>(reachable, counts->reachable);
    tally<Lanes>(components, counts->components);
    tally<Lanes>(distance, counts->distance);
  }
  for (Index b = 0; b < 5; ++b) {
    plane[b] = reachable[b];
    plane[8 + b] = components[b];
  }
  for (Index b = 0; b < 4; ++b) plane[16 + b] = distance[b];
  Lanes found = none;
#pragma GCC unroll 16
  for (Index c = 0; c < cells; ++c) {
    const Lanes first = last[c] & ~found;
    found |= last[c];
    for (Index b = 0; b < 4; ++b)
      if (((c >> b) & 1U) != 0) plane[24 + b] |= first;
  }

  // Transpose each 32x32 bit block (planes x lanes) in place: afterwards the low half of
  // plane[l]'s element w is the word of lane 64w + l, the high half that of 64w + 32 + l,
  // i.e. (lane_bit_of) the word of offset 2 elements l + 2 w (+ 1 for the high half).
  constexpr std::array<std::uint64_t, 5> keep{0x0000FFFF0000FFFFULL, 0x00FF00FF00FF00FFULL,
                                              0x0F0F0F0F0F0F0F0FULL, 0x3333333333333333ULL,
                                              0x5555555555555555ULL};
#pragma GCC unroll 5
  for (Index level = 0; level < 5; ++level) {
    const Index step = Index{16} >> level;
#pragma GCC unroll 32
    for (Index p = 0; p < 32; ++p) {
      if ((p & step) != 0) continue;
      const Lanes swap = ((plane[p] >> step) ^ plane[p + step]) & keep[level];
      plane[p + step] ^= swap;
      plane[p] ^= swap << step;
    }
  }
  constexpr Index elements = sizeof(Lanes) / 8;
  if constexpr (std::endian::native == std::endian::little) {
    static_assert(sizeof plane == batch_size<Lanes> * sizeof(Summary));
    std::memcpy(out, plane.data(), sizeof plane);  // offset 2 elements l + 2 element + half
  } else {
    for (Index l = 0; l < 32; ++l)
      for (Index element = 0; element < elements; ++element) {
        const std::uint64_t word = plane[l][element];
        store(out[2 * elements * l + 2 * element], static_cast<std::uint32_t>(word));
        store(out[2 * elements * l + 2 * element + 1], static_cast<std::uint32_t>(word >> 32));
      }
  }
}

// One instruction set's batch: the function that summarizes the batch at `base` into
// `out`, and the configs it takes.
struct BatchFunction {
  void (*summarize)(std::uint32_t base, Summary* out);
  std::uint32_t size;
};

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx512f"))) void summarize_batch_avx512(std::uint32_t base, Summary* out) {
  summarize_batch<Lanes512, false>(base, out, nullptr);
}
__attribute__((target("avx512f,avx512vpopcntdq"))) void summarize_batch_counting_avx512(
    std::uint32_t base, Summary* out, PlaneCounts<Lanes512>& counts) {
  summarize_batch<Lanes512, true>(base, out, &counts);
}
__attribute__((target("avx2"))) void summarize_batch_avx2(std::uint32_t base, Summary* out) {
  summarize_batch<Lanes256, false>(base, out, nullptr);
}
// Every AVX2 CPU has POPCNT; the target attribute does not imply it.
__attribute__((target("avx2,popcnt"))) void summarize_batch_counting_avx2(
    std::uint32_t base, Summary* out, PlaneCounts<Lanes256>& counts) {
  summarize_batch<Lanes256, true>(base, out, &counts);
}
#endif
void summarize_batch_portable(std::uint32_t base, Summary* out) {
  summarize_batch<Lanes128, false>(base, out, nullptr);
}

BatchFunction batch_function(Isa isa) {
  if (!isa_supported(isa))
    throw std::invalid_argument(
        "tiltmaze::four::summarize_many: this CPU or build lacks the "
        "requested instruction set");
#if defined(__x86_64__) || defined(__i386__)
  if (isa == Isa::avx512) return {summarize_batch_avx512, batch_size<Lanes512>};
  if (isa == Isa::avx2) return {summarize_batch_avx2, batch_size<Lanes256>};
#endif
  return {summarize_batch_portable, batch_size<Lanes128>};
}

BatchFunction best_batch_function() { return batch_function(best_isa()); }

// `whole(base, at)` summarizes the full batch at `base` into `at`; a head or tail batch is
// summarized whole into a buffer by `batch`, and `part(summaries)` is given the part asked
// for once it is in `out`.
template <class Whole, class Part>
void summarize_batches(std::uint32_t first, std::span<Summary> out, BatchFunction batch,
                       Whole whole, Part part) {
  if (first > config_count || out.size() > config_count - first)
    throw std::out_of_range("tiltmaze::four::summarize_many: configs " + std::to_string(first) +
                            " + " + std::to_string(out.size()) + " exceed 2^24");
  std::array<Summary, largest_batch> partial;
  std::size_t done = 0;
  while (done < out.size()) {
    const std::uint32_t config = first + static_cast<std::uint32_t>(done);
    const std::uint32_t base = config & ~(batch.size - 1);
    const std::size_t offset = config - base;
    const std::size_t wanted = std::min<std::size_t>(batch.size - offset, out.size() - done);
    if (offset == 0 && wanted == batch.size) {
      whole(base, out.data() + done);
    } else {
      batch.summarize(base, partial.data());
      const auto asked = out.subspan(done, wanted);
      std::copy_n(partial.begin() + static_cast<std::ptrdiff_t>(offset), wanted, asked.begin());
      part(asked);
    }
    done += wanted;
  }
}

void summarize_range(BatchFunction batch, std::uint32_t first, std::span<Summary> out) {
  summarize_batches(first, out, batch, batch.summarize, [](std::span<Summary>) {});
}

#if defined(__x86_64__) || defined(__i386__)
// `isa`'s batches counting in their planes (`counting`); a head or tail batch's part is
// counted from its summaries.
template <class Lanes>
void summarize_counting_in_planes(std::uint32_t first, std::span<Summary> out,
                                  SummaryCounts& counts, Isa isa,
                                  void (*counting)(std::uint32_t, Summary*, PlaneCounts<Lanes>&)) {
  PlaneCounts<Lanes> planes;
  summarize_batches(
      first, out, batch_function(isa),
      [&](std::uint32_t base, Summary* at) { counting(base, at, planes); },
      [&](std::span<Summary> part) { count_summaries(part, counts, isa); });
  const auto add = [](std::array<std::int64_t, SummaryCounts::values>& total,
                      const typename PlaneCounts<Lanes>::Values& lanes) {
    for (std::size_t v = 0; v < total.size(); ++v)
      for (std::size_t element = 0; element < sizeof(Lanes) / 8; ++element)
        total[v] += static_cast<std::int64_t>(lanes[v][element]);
  };
  add(counts.reachable, planes.reachable);
  add(counts.components, planes.components);
  add(counts.distance, planes.distance);
}

bool has_vpopcntdq() {
  static const bool supported =
      isa_supported(Isa::avx512) && __builtin_cpu_supports("avx512vpopcntdq") != 0;
  return supported;
}
#endif

}  // namespace

void summarize_many(std::uint32_t first, std::span<Summary> out) {
  static const BatchFunction best = best_batch_function();
  summarize_range(best, first, out);
}

void summarize_many(std::uint32_t first, std::span<Summary> out, Isa isa) {
  summarize_range(batch_function(isa), first, out);
}

bool counts_in_planes(Isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  return (isa == Isa::avx512 && has_vpopcntdq()) || (isa == Isa::avx2 && isa_supported(isa));
#else
  (void)isa;
  return false;
#endif
}

bool counts_in_planes() { return counts_in_planes(best_isa()); }

void summarize_and_count(std::uint32_t first, std::span<Summary> out, SummaryCounts& counts,
                         Isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  if (counts_in_planes(isa)) {
    if (isa == Isa::avx512)
      return summarize_counting_in_planes<Lanes512>(first, out, counts, isa,
                                                    summarize_batch_counting_avx512);
    return summarize_counting_in_planes<Lanes256>(first, out, counts, isa,
                                                  summarize_batch_counting_avx2);
  }
#endif
  summarize_many(first, out, isa);
  count_summaries(out, counts, isa);
}

void summarize_and_count(std::uint32_t first, std::span<Summary> out, SummaryCounts& counts) {
  static const Isa best = best_isa();
  summarize_and_count(first, out, counts, best);
}

}  // namespace levelforge::tiltmaze::four

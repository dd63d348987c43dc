// The tiltmaze kernel's exhaustive sweep of 4 x 4 mazes (kernels/tiltmaze/tiltmaze_exhaustive.cpp):
// batched visits equal single visits, the symmetry counts, and top tables that hold up.
#include <gtest/gtest.h>

#include <bit>
#include <numeric>
#include <string>

#include "kernels/tiltmaze/four_by_four.hpp"
#include "kernels/tiltmaze/maze_text.hpp"
#include "kernels/tiltmaze/tiltmaze.hpp"

namespace levelforge::kernels {
namespace {

namespace four = tiltmaze::four;

ParamSet four_by_four_params(std::initializer_list<std::pair<const char*, ParamValue>> values) {
  auto params = ParamSet::defaults(TiltMaze::parameters());
  params.set("width", std::int64_t{4});
  params.set("height", std::int64_t{4});
  for (const auto& [name, value] : values) params.set(name, value);
  return params;
}

std::int64_t total(const std::vector<std::int64_t>& bins) {
  return std::accumulate(bins.begin(), bins.end(), std::int64_t{0});
}

// Replays `moves` on the maze and returns the cells the ball comes to rest on.
std::vector<int> rests(const tiltmaze::Maze& maze, const std::string& moves) {
  std::vector<int> cells{maze.start};
  for (const char move : moves) {
    const auto direction = static_cast<tiltmaze::Direction>(tiltmaze::direction_letters.find(move));
    cells.push_back(tiltmaze::roll(maze, cells.back(), direction));
  }
  return cells;
}

TEST(TiltMazeExhaustive, OnlyFourByFourStopModeFromTheCorner) {
  EXPECT_EQ(TiltMaze(four_by_four_params({})).index_count(), std::uint64_t{1} << 24);
  EXPECT_THROW((void)TiltMaze(four_by_four_params({{"width", std::int64_t{5}}})).index_count(),
               KernelError);
  EXPECT_THROW(
      (void)TiltMaze(four_by_four_params({{"collect", std::string("pass")}})).index_count(),
      KernelError);
  EXPECT_THROW(
      (void)TiltMaze(four_by_four_params({{"start", std::string("random")}})).index_count(),
      KernelError);
}

TEST(TiltMazeExhaustive, RangeVisitEqualsSingleVisits) {
  const TiltMaze kernel(four_by_four_params({{"pairs", true}}));
  const auto specs = TiltMaze::reductions();
  Reductions batched(specs);
  Reductions single(specs);
  const std::uint64_t begin = 9'000'000;
  const std::uint64_t end = begin + 5000;
  kernel.visit_range(begin, end, batched);
  for (auto index = begin; index < end; ++index) {
    single.begin_index(index);
    kernel.visit(index, single);
  }
  EXPECT_EQ(batched.counts(), single.counts());
  EXPECT_EQ(batched.histograms(), single.histograms());
  for (const auto id : {TiltMaze::hardest, TiltMaze::hardest_pair}) {
    const auto a = batched.sorted_top(id);
    const auto b = single.sorted_top(id);
    ASSERT_EQ(a.size(), 100U);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].index, b[i].index);
      EXPECT_EQ(a[i].score, b[i].score);
    }
  }
  EXPECT_EQ(batched.counts()[TiltMaze::evaluated], 5000);
  EXPECT_EQ(total(batched.histograms()[TiltMaze::distance_histogram]), 5000);
  EXPECT_EQ(total(batched.histograms()[TiltMaze::pair_length_histogram]), 5000);
}

// walls_distance: bin 1 + walls x 16 + distance (bin 0 the underflow) counts each visited
// configuration by its inner walls and its hardest distance, as the plain solver finds it.
TEST(TiltMazeExhaustive, WallsDistanceCountsEachConfigurationByWallsAndDistance) {
  const TiltMaze kernel(four_by_four_params({}));
  const auto specs = TiltMaze::reductions();
  Reductions out(specs);
  const std::uint64_t begin = 6'001'234;
  const std::uint64_t end = begin + 3000;
  kernel.visit_range(begin, end, out);
  std::vector<std::int64_t> expected((TiltMaze::wall_places + 1) * TiltMaze::distance_slots + 2);
  for (auto config = begin; config < end; ++config) {
    const auto walls = static_cast<std::size_t>(std::popcount(config));
    const auto distance = four::summarize_reference(static_cast<std::uint32_t>(config)).distance;
    ++expected[1 + walls * TiltMaze::distance_slots + distance];
  }
  EXPECT_EQ(out.histograms()[TiltMaze::walls_distance_histogram], expected);
  // The open maze: no walls, the ball rolls to the far corners, 2 tilts at most.
  Reductions open(specs);
  kernel.visit_range(0, 1, open);
  EXPECT_EQ(open.histograms()[TiltMaze::walls_distance_histogram][1 + 2], 1);
}

// Every maze, and every maze once up to the diagonal reflection: 2^12 configurations are
// their own mirror image (south walls the transpose of the east walls), so the reflection
// leaves (2^24 + 2^12) / 2 mazes.
TEST(TiltMazeExhaustive, ReflectionCountsEachMazeOnce) {
  const auto specs = TiltMaze::reductions();
  Reductions all(specs);
  Reductions halved(specs);
  TiltMaze(four_by_four_params({})).visit_range(0, four::config_count, all);
  TiltMaze(four_by_four_params({{"symmetry", std::string("reflection")}}))
      .visit_range(0, four::config_count, halved);
  EXPECT_EQ(all.counts()[TiltMaze::evaluated], 1 << 24);
  EXPECT_EQ(all.counts()[TiltMaze::configurations], 1 << 24);
  EXPECT_EQ(all.counts()[TiltMaze::self_symmetric], 1 << 12);
  EXPECT_EQ(halved.counts()[TiltMaze::evaluated], (1 << 23) + (1 << 11));
  EXPECT_EQ(halved.counts()[TiltMaze::configurations], 1 << 24);
  EXPECT_EQ(halved.counts()[TiltMaze::self_symmetric], 1 << 12);
  // A histogram over all mazes = 2 x (over the classes) - (over the self-symmetric ones);
  // the reachable count of the open maze's class (4 corners) is one check of that.
  for (const auto id : {TiltMaze::reachable_histogram, TiltMaze::components_histogram,
                        TiltMaze::distance_histogram}) {
    EXPECT_EQ(total(all.histograms()[id]), 1 << 24);
    EXPECT_EQ(total(halved.histograms()[id]), (1 << 23) + (1 << 11));
    for (std::size_t bin = 0; bin < all.histograms()[id].size(); ++bin)
      EXPECT_LE(all.histograms()[id][bin], 2 * halved.histograms()[id][bin]);
  }
  // Each wall count's row holds its C(24, w) configurations, and the rows add up to the
  // distance histogram.
  const auto& walls_distance = all.histograms()[TiltMaze::walls_distance_histogram];
  std::int64_t choose = 1;
  for (std::size_t walls = 0; walls <= TiltMaze::wall_places; ++walls) {
    const auto row =
        walls_distance.begin() + 1 + static_cast<std::ptrdiff_t>(walls * TiltMaze::distance_slots);
    EXPECT_EQ(std::accumulate(row, row + TiltMaze::distance_slots, std::int64_t{0}), choose)
        << walls;
    choose = choose * static_cast<std::int64_t>(TiltMaze::wall_places - walls) /
             static_cast<std::int64_t>(walls + 1);
  }
  for (std::size_t distance = 0; distance < TiltMaze::distance_slots; ++distance) {
    std::int64_t column = 0;
    for (std::size_t walls = 0; walls <= TiltMaze::wall_places; ++walls)
      column += walls_distance[1 + walls * TiltMaze::distance_slots + distance];
    EXPECT_EQ(column, all.histograms()[TiltMaze::distance_histogram][1 + distance]) << distance;
  }
  // No pairs were asked for.
  EXPECT_EQ(total(all.histograms()[TiltMaze::pair_length_histogram]), 0);
  EXPECT_TRUE(all.tops()[TiltMaze::hardest_pair].empty());
  // The hardest distance is the same either way.
  EXPECT_EQ(all.sorted_top(TiltMaze::hardest).front().score,
            halved.sorted_top(TiltMaze::hardest).front().score);
}

// Ranges that start and end inside runs of equal south walls, on either side of the maze
// that is its own mirror image: the counts match a plain per-configuration count, and the
// histograms those of the canonical configurations visited one by one.
TEST(TiltMazeExhaustive, ReflectionOnPartialRangesCountsTheCanonicalConfigurations) {
  const TiltMaze kernel(
      four_by_four_params({{"symmetry", std::string("reflection")}, {"pairs", true}}));
  const TiltMaze every(four_by_four_params({{"pairs", true}}));
  const auto specs = TiltMaze::reductions();
  for (const auto& [begin, end] : {std::pair<std::uint32_t, std::uint32_t>{20483, 30483},
                                   {20490, 30000},
                                   {20485, 20486},
                                   {20486, 20490}}) {
    Reductions halved(specs);
    Reductions canonical(specs);
    kernel.visit_range(begin, end, halved);
    std::int64_t evaluated = 0;
    std::int64_t configurations = 0;
    std::int64_t symmetric = 0;
    for (auto config = begin; config < end; ++config) {
      const auto mirror = four::reflect(config);
      if (mirror < config) continue;
      ++evaluated;
      configurations += mirror == config ? 1 : 2;
      symmetric += mirror == config ? 1 : 0;
      every.visit_range(config, config + 1, canonical);
    }
    EXPECT_EQ(halved.counts()[TiltMaze::evaluated], evaluated) << begin;
    EXPECT_EQ(halved.counts()[TiltMaze::configurations], configurations) << begin;
    EXPECT_EQ(halved.counts()[TiltMaze::self_symmetric], symmetric) << begin;
    EXPECT_EQ(halved.histograms(), canonical.histograms()) << begin;
  }
}

// The sweep offers scores alone; the record each kept entry gets on request replays.
TEST(TiltMazeExhaustive, TopEntriesAreReplayableShortestSolutions) {
  const TiltMaze kernel(four_by_four_params({{"pairs", true}}));
  const auto specs = TiltMaze::reductions();
  Reductions out(specs);
  kernel.visit_range(3'000'000, 3'200'000, out);
  for (auto entry : out.sorted_top(TiltMaze::hardest)) {
    EXPECT_TRUE(entry.record.empty());
    entry.record = kernel.top_record(TiltMaze::hardest, entry.index);
    const auto config = static_cast<std::uint32_t>(std::get<std::int64_t>(entry.record[0]));
    EXPECT_EQ(config, entry.index);
    const auto maze = tiltmaze::from_compact(std::get<std::string>(entry.record[1]));
    const auto target = static_cast<int>(std::get<std::int64_t>(entry.record[2]));
    const auto distance = std::get<std::int64_t>(entry.record[3]);
    EXPECT_EQ(maze.targets, std::vector<int>{target});
    EXPECT_EQ(four::summarize_reference(config).distance, distance);
    const auto moves = std::get<std::string>(entry.record[6]);
    EXPECT_EQ(static_cast<std::int64_t>(moves.size()), distance);
    EXPECT_EQ(rests(maze, moves).back(), target);
    EXPECT_EQ(entry.score, static_cast<double>(distance));
  }
  for (auto entry : out.sorted_top(TiltMaze::hardest_pair)) {
    EXPECT_TRUE(entry.record.empty());
    entry.record = kernel.top_record(TiltMaze::hardest_pair, entry.index);
    EXPECT_EQ(entry.score, static_cast<double>(std::get<std::int64_t>(entry.record[4])));
    const auto config = static_cast<std::uint32_t>(std::get<std::int64_t>(entry.record[0]));
    const auto maze = tiltmaze::from_compact(std::get<std::string>(entry.record[1]));
    const auto first = static_cast<int>(std::get<std::int64_t>(entry.record[2]));
    const auto second = static_cast<int>(std::get<std::int64_t>(entry.record[3]));
    const auto length = std::get<std::int64_t>(entry.record[4]);
    EXPECT_EQ(maze.targets, (std::vector<int>{first, second}));
    EXPECT_EQ(four::hardest_pair_reference(config).length, length);
    const auto moves = std::get<std::string>(entry.record[5]);
    EXPECT_EQ(static_cast<std::int64_t>(moves.size()), length);
    const auto cells = rests(maze, moves);
    EXPECT_NE(std::find(cells.begin(), cells.end(), first), cells.end());
    EXPECT_NE(std::find(cells.begin(), cells.end(), second), cells.end());
    EXPECT_EQ(config, entry.index);
  }
}

TEST(TiltMazeExhaustive, TopRecordOutsideTheTablesOrTheSweepIsAnError) {
  const TiltMaze kernel(four_by_four_params({}));
  EXPECT_THROW((void)kernel.top_record(TiltMaze::evaluated, 5), KernelError);
  EXPECT_THROW((void)kernel.top_record(TiltMaze::hardest, four::config_count), KernelError);
  EXPECT_EQ(std::get<std::int64_t>(kernel.top_record(TiltMaze::hardest, 5)[0]), 5);
}

}  // namespace
}  // namespace levelforge::kernels

// The matchstick kernel's exhaustive sweep (kernels/matchstick/matchstick.hpp): the index
// space, batched visits equal single visits and the solvers, good puzzles and difficulty.
#include "kernels/matchstick/matchstick.hpp"

#include <gtest/gtest.h>

#include <string>

#include "kernels/matchstick/candidates.hpp"
#include "tests/kernel_params.hpp"

namespace levelforge::kernels {
namespace {

using testing::params_with;

TEST(MatchstickKernel, IndexSpaceIsEveryPuzzleOpFastest) {
  const Matchstick kernel(params_with<Matchstick>({}));
  EXPECT_EQ(kernel.index_count(), 2'000'000U);
  EXPECT_EQ(matchstick::to_string(kernel.puzzle(0)), "0+0=0");
  EXPECT_EQ(matchstick::to_string(kernel.puzzle(1)), "0-0=0");
  EXPECT_EQ(matchstick::to_string(kernel.puzzle(2)), "0+0=1");
  EXPECT_EQ(matchstick::to_string(kernel.puzzle(std::uint64_t{2} * 100)), "0+1=0");
  EXPECT_EQ(matchstick::to_string(kernel.puzzle(((12U * 100 + 34) * 100 + 56) * 2 + 1)),
            "12-34=56");
  EXPECT_EQ(matchstick::to_string(kernel.puzzle(kernel.index_count() - 1)), "99-99=99");
}

// Over every one-digit puzzle: the counts are what the solvers say puzzle by puzzle, and
// each good puzzle's single solution is the one solve_dfs finds.
TEST(MatchstickKernel, CountsAgreeWithTheReferenceSolver) {
  for (const auto* zeros : {"allow", "forbid"}) {
    const Matchstick kernel(params_with<Matchstick>({{"max_value", std::int64_t{9}},
                                                     {"moves", std::int64_t{2}},
                                                     {"leading_zeros", std::string(zeros)}}));
    const matchstick::Rules rules{2, matchstick::Count::up_to,
                                  std::string(zeros) == "allow" ? matchstick::LeadingZeros::allow
                                                                : matchstick::LeadingZeros::forbid};
    const auto specs = Matchstick::reductions();
    const RecordLayout layout(Matchstick::solution_fields());
    Reductions out(specs, &layout);
    kernel.visit_range(0, kernel.index_count(), out);
    std::int64_t solutions = 0;
    std::int64_t good = 0;
    std::int64_t already_true = 0;
    for (std::uint64_t index = 0; index < kernel.index_count(); ++index) {
      const auto puzzle = kernel.puzzle(index);
      const auto found = matchstick::solve_dfs(puzzle, rules);
      solutions += static_cast<std::int64_t>(found.size());
      const bool is_true = matchstick::is_true(puzzle, rules.leading_zeros);
      already_true += is_true ? 1 : 0;
      good += !is_true && found.size() == 1 ? 1 : 0;
    }
    EXPECT_EQ(out.counts()[Matchstick::puzzles], 2000);
    EXPECT_EQ(out.counts()[Matchstick::true_puzzles], already_true);
    EXPECT_EQ(out.counts()[Matchstick::solutions], solutions);
    EXPECT_EQ(out.counts()[Matchstick::good], good);
    EXPECT_EQ(static_cast<std::int64_t>(out.solution_count()), solutions);
    // The sweep offers scores alone; each kept entry's record, built on request, is its own
    // puzzle's and scores what the entry does.
    const auto table = out.sorted_top(Matchstick::good_puzzles);
    EXPECT_EQ(static_cast<std::int64_t>(table.size()), std::min<std::int64_t>(good, 1000));
    for (const auto& entry : table) {
      EXPECT_TRUE(entry.record.empty());
      const auto record = kernel.top_record(Matchstick::good_puzzles, entry.index);
      const auto puzzle = matchstick::parse_equation(std::get<std::string>(record[0]));
      EXPECT_EQ(puzzle, kernel.puzzle(entry.index));
      const auto found = matchstick::solve_dfs(puzzle, rules);
      ASSERT_EQ(found.size(), 1U);
      EXPECT_EQ(std::get<std::string>(record[1]), found.front().equation);
      EXPECT_EQ(std::get<std::string>(record[2]), found.front().moved);
      EXPECT_EQ(std::get<std::int64_t>(record[7]),
                matchstick::well_formed_layouts(puzzle, rules) - 1);
      EXPECT_EQ(static_cast<double>(std::get<std::int64_t>(record[8])), entry.score);
    }
  }
}

// The range steps its numbers (op, then C, B, A) instead of dividing the index: this one
// crosses C's, B's and A's wraps (A turns 36 at index 720,000).
TEST(MatchstickKernel, RangeVisitEqualsSingleVisits) {
  const Matchstick kernel(params_with<Matchstick>({}));
  const auto specs = Matchstick::reductions();
  const RecordLayout layout(Matchstick::solution_fields());
  Reductions batched(specs, &layout);
  Reductions single(specs, &layout);
  kernel.visit_range(718'500, 721'500, batched);
  for (std::uint64_t index = 718'500; index < 721'500; ++index) kernel.visit(index, single);
  EXPECT_EQ(batched.counts(), single.counts());
  EXPECT_EQ(batched.histograms(), single.histograms());
  ASSERT_EQ(batched.solution_count(), single.solution_count());
  for (std::size_t i = 0; i < batched.solution_count(); ++i) {
    EXPECT_EQ(batched.solution_index(i), single.solution_index(i));
    EXPECT_EQ(batched.solution_record(i), single.solution_record(i));
  }
}

// The sweep's near misses for one move come from per-number sums of the closed form's
// terms: equal to the count puzzle by puzzle (every 7th of the 2,000,000, under both
// leading-zero rules); with two moves they are counted.
TEST(MatchstickKernel, NearMissesFromNumberTermsEqualTheCount) {
  for (const auto* zeros : {"allow", "forbid"}) {
    const Matchstick kernel(params_with<Matchstick>({{"leading_zeros", std::string(zeros)}}));
    const matchstick::Rules rules{1, matchstick::Count::up_to,
                                  std::string(zeros) == "allow" ? matchstick::LeadingZeros::allow
                                                                : matchstick::LeadingZeros::forbid};
    for (std::uint64_t index = 0; index < kernel.index_count(); index += 7) {
      const auto puzzle = kernel.puzzle(index);
      ASSERT_EQ(kernel.near_misses(kernel.numbers(index), puzzle),
                matchstick::well_formed_layouts(puzzle, rules) - 1)
          << matchstick::to_string(puzzle) << ", leading zeros " << zeros;
    }
  }
  const Matchstick two(params_with<Matchstick>({{"moves", std::int64_t{2}}}));
  const auto index = ((12U * 100 + 34) * 100 + 56) * 2 + 1;  // 12-34=56
  const matchstick::Rules rules{2, matchstick::Count::up_to, matchstick::LeadingZeros::allow};
  EXPECT_EQ(two.near_misses(two.numbers(index), two.puzzle(index)),
            matchstick::well_formed_layouts(two.puzzle(index), rules) - 1);
}

// Only good puzzles have a top-k record: 6+4=4 has two solutions, 1+1=2 is true.
TEST(MatchstickKernel, TopRecordOfAPuzzleThatIsNotGoodIsAnError) {
  const Matchstick kernel(params_with<Matchstick>({}));
  const auto index_of = [](std::uint64_t a, bool minus, std::uint64_t b, std::uint64_t c) {
    return ((a * 100 + b) * 100 + c) * 2 + (minus ? 1 : 0);
  };
  ASSERT_EQ(matchstick::to_string(kernel.puzzle(index_of(6, false, 4, 4))), "6+4=4");
  EXPECT_THROW((void)kernel.top_record(Matchstick::good_puzzles, index_of(6, false, 4, 4)),
               KernelError);
  EXPECT_THROW((void)kernel.top_record(Matchstick::good_puzzles, index_of(1, false, 1, 2)),
               KernelError);
  const auto good = index_of(5, false, 7, 2);  // 5+7=2: one solution, 9-7=2
  EXPECT_EQ(std::get<std::string>(kernel.top_record(Matchstick::good_puzzles, good)[1]), "9-7=2");
  EXPECT_THROW((void)kernel.top_record(Matchstick::puzzles, good), KernelError);
}

// 6+4=4 with one move has two solutions (0+4=4, 8-4=4): not good. 5+7=2 has one, 9-7=2:
// the '+' gives its vertical stick to the 5 (b, making a 9), one stick between symbols and the
// operator changes, two symbols change.
TEST(MatchstickKernel, DifficultyOfAHandCheckedGoodPuzzle) {
  const auto puzzle = matchstick::parse_equation("5+7=2");
  const matchstick::Rules rules{1, matchstick::Count::up_to, matchstick::LeadingZeros::allow};
  const auto found = matchstick::solve_fast(puzzle, rules);
  ASSERT_EQ(found.size(), 1U);
  EXPECT_EQ(found.front().equation, "9-7=2");
  const auto d = difficulty(puzzle, matchstick::parse_equation("9-7=2"), rules);
  EXPECT_EQ(d.between, 1);
  EXPECT_TRUE(d.operator_changed);
  EXPECT_EQ(d.symbols_changed, 2);
  EXPECT_EQ(d.near_misses, matchstick::well_formed_layouts(puzzle, rules) - 1);
  EXPECT_EQ(d.score(), 4 + 2 + 2 + d.near_misses);
}

}  // namespace
}  // namespace levelforge::kernels

namespace levelforge::kernels {
namespace {

TEST(MatchstickSummary, SumsTheTasksCounts) {
  ResultTables results{"exhaustive", {}};
  // Two tasks: 200 puzzles, 10 true, 30 good, 500 solutions in all.
  results.tables.emplace(
      "exhaustive/counts",
      ResultTable({"puzzles", "true_puzzles", "solutions", "good"},
                  {{std::int64_t{150}, std::int64_t{4}, std::int64_t{300}, std::int64_t{20}},
                   {std::int64_t{50}, std::int64_t{6}, std::int64_t{200}, std::int64_t{10}}}));
  EXPECT_EQ(Matchstick::summarize(results),
            (std::vector<std::string>{
                "puzzles: 200; already true: 10 (5.0%); good (false, exactly one solution): 30 "
                "(15.0%)",
                "solutions: 500 (2.5 per puzzle)"}));
  EXPECT_TRUE(Matchstick::summarize(ResultTables{"exhaustive", {}}).empty());
}

}  // namespace
}  // namespace levelforge::kernels

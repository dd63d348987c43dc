#include "runner/engine/line_variation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/random_cases.hpp"

namespace levelforge::line_variation_test {
namespace {

const RealGenome wide(std::vector<GeneBounds>(5, {-1000, 1000}));

TEST(IsoLineChild, WithoutStepsIsTheFirstParent) {
  Rng rng({1, Stream::mutation, 0, 0, 0});
  const RealGenome::Genome x{1, 2, 3, 4, 5};
  EXPECT_EQ(iso_line_child(wide, x, {5, 4, 3, 2, 1}, 0, 0, rng), x);
}

// Without the isotropic step the child lies on the line through both parents: every gene
// moved by one common multiple of (y - x), the normal drawn first on the stream.
TEST(IsoLineChild, TheLineStepMovesAlongTheLineFromXToY) {
  for (int c = 0; c < testing::random_cases(500); ++c) {
    Rng init({2, Stream::init, 0, 0, static_cast<std::uint64_t>(c)});
    RealGenome::Genome x(5);
    RealGenome::Genome y(5);
    for (auto& gene : x) gene = init.uniform() * 20 - 10;
    for (auto& gene : y) gene = init.uniform() * 20 - 10;
    Rng rng({2, Stream::mutation, 0, 0, static_cast<std::uint64_t>(c)});
    const auto child = iso_line_child(wide, x, y, 0, 0.2, rng);
    Rng replay({2, Stream::mutation, 0, 0, static_cast<std::uint64_t>(c)});
    const double along = 0.2 * replay.normal();
    for (std::size_t i = 0; i < x.size(); ++i)
      ASSERT_NEAR(child[i], x[i] + along * (y[i] - x[i]), 1e-12) << "case " << c;
  }
}

TEST(IsoLineChild, TheIsotropicStepScalesWithEachGenesWidth) {
  // Parents equal: the line adds nothing; the step's deviation is 0.01 x 2000 = 20.
  double squares = 0;
  const int cases = testing::random_cases(2000);
  const RealGenome::Genome x(5, 0.0);
  for (int c = 0; c < cases; ++c) {
    Rng rng({3, Stream::mutation, 0, 0, static_cast<std::uint64_t>(c)});
    for (const double gene : iso_line_child(wide, x, x, 0.01, 0.2, rng)) squares += gene * gene;
  }
  EXPECT_NEAR(std::sqrt(squares / (5.0 * cases)), 20, 0.8);
}

TEST(IsoLineChild, ChildrenStayWithinBounds) {
  const RealGenome narrow({{0, 1}, {-2, -1}, {5, 5.5}});
  for (int c = 0; c < testing::random_cases(2000); ++c) {
    Rng rng({4, Stream::mutation, 0, 0, static_cast<std::uint64_t>(c)});
    const auto x = narrow.random_genome(rng);
    const auto y = narrow.random_genome(rng);
    const auto child = iso_line_child(narrow, x, y, 0.5, 3, rng);
    for (std::size_t i = 0; i < child.size(); ++i) {
      ASSERT_GE(child[i], narrow.bounds()[i].low);
      ASSERT_LE(child[i], narrow.bounds()[i].high);
    }
  }
}

}  // namespace
}  // namespace levelforge::line_variation_test

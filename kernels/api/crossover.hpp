#pragma once
// One-point crossover of two sequence genomes of one length: the children swap their tails
// after a uniform cut (0..size, so a child may be a whole copy of one parent).

#include <cstddef>
#include <utility>

#include "kernels/api/rng.hpp"

namespace levelforge {

template <class Sequence>
std::pair<Sequence, Sequence> one_point_crossover(const Sequence& a, const Sequence& b, Rng& rng) {
  const auto cut = static_cast<std::ptrdiff_t>(rng.below(a.size() + 1));
  Sequence first(a.begin(), a.begin() + cut);
  first.insert(first.end(), b.begin() + cut, b.end());
  Sequence second(b.begin(), b.begin() + cut);
  second.insert(second.end(), a.begin() + cut, a.end());
  return {std::move(first), std::move(second)};
}

}  // namespace levelforge

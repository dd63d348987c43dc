#pragma once
// The bitstring genome of the test kernels (OneMax, Faulty): a byte per bit, with one-point
// crossover and independent bit flips.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include "kernels/api/crossover.hpp"
#include "kernels/api/rng.hpp"

namespace levelforge::kernels::bits {

using Genome = std::vector<std::uint8_t>;

inline Genome random(std::size_t length, Rng& rng) {
  Genome genome(length);
  for (auto& bit : genome) bit = static_cast<std::uint8_t>(rng() & 1U);
  return genome;
}

// Each bit flips with probability `rate`.
inline void flip(Genome& genome, double rate, Rng& rng) {
  for (auto& bit : genome) {
    if (rng.bernoulli(rate)) bit ^= 1U;
  }
}

inline void encode(const Genome& genome, std::span<std::int64_t> out) {
  std::copy(genome.begin(), genome.end(), out.begin());
}

inline Genome decode(std::span<const std::int64_t> stored, std::size_t length) {
  Genome genome(length);
  for (std::size_t i = 0; i < length; ++i) genome[i] = static_cast<std::uint8_t>(stored[i] & 1);
  return genome;
}

inline std::int64_t ones(const Genome& genome) {
  return std::accumulate(genome.begin(), genome.end(), std::int64_t{0});
}

// The genome half of a GaKernel over bitstrings of one length, for a kernel to inherit.
class BitGenomeKernel {
 public:
  using Genome = bits::Genome;

  explicit BitGenomeKernel(std::size_t length) : length_(length) {}

  [[nodiscard]] std::size_t genome_length() const { return length_; }
  Genome random_genome(Rng& rng) const { return random(length_, rng); }
  std::pair<Genome, Genome> crossover(const Genome& a, const Genome& b, Rng& rng) const {
    return one_point_crossover(a, b, rng);
  }
  void mutate(Genome& genome, double rate, Rng& rng) const { flip(genome, rate, rng); }
  void encode(const Genome& genome, std::span<std::int64_t> out) const {
    bits::encode(genome, out);
  }
  [[nodiscard]] Genome decode(std::span<const std::int64_t> stored) const {
    return bits::decode(stored, length_);
  }

 protected:
  std::size_t length_;
};

}  // namespace levelforge::kernels::bits

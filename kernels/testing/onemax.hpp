#pragma once
// OneMax: maximize the number of ones in a bitstring. The optimum (all ones, fitness 1)
// is known, which is what the GA driver's tests need. `cost_us` busy-waits per
// evaluation to give benchmarks a kernel of fixed cost.

#include <chrono>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kernels/api/concepts.hpp"

namespace levelforge::kernels {

class OneMax {
 public:
  using Genome = std::vector<std::uint8_t>;

  static constexpr std::string_view name = "onemax";
  static constexpr std::string_view summary =
      "bitstrings scored by their fraction of ones (a test kernel with a known optimum)";

  static std::vector<ParamSpec> parameters() {
    return {
        int_param("length", 64, 1, 1'000'000, "bits in a genome"),
        int_param("cost_us", 0, 0, 10'000'000, "busy-wait per evaluation, microseconds"),
        int_param("climb_steps", 100, 0, 100'000'000,
                  "sweep driver: single-bit flips tried by the random hill climber"),
    };
  }

  // A genome is a byte per bit; the hill climber of the sweep driver holds one.
  static MemoryEstimate memory_estimate(const ParamSet& params) {
    const auto length = static_cast<std::uint64_t>(params.integer("length"));
    const std::string cause = "params.length = " + std::to_string(length) + " bits";
    return {length, sizeof(Genome) + length, cause, cause};
  }

  explicit OneMax(const ParamSet& params)
      : length_(static_cast<std::size_t>(params.integer("length"))),
        cost_(std::chrono::microseconds(params.integer("cost_us"))),
        climb_steps_(params.integer("climb_steps")) {}

  static std::vector<FieldSpec> evaluation_fields() {
    return {int_field("ones", "bits set in the genome")};
  }

  [[nodiscard]] std::size_t genome_length() const { return length_; }

  Genome random_genome(Rng& rng) const {
    Genome genome(length_);
    for (auto& bit : genome) bit = static_cast<std::uint8_t>(rng() & 1U);
    return genome;
  }

  // One-point crossover.
  std::pair<Genome, Genome> crossover(const Genome& a, const Genome& b, Rng& rng) const {
    const auto cut = static_cast<std::ptrdiff_t>(rng.below(length_ + 1));
    Genome first(a.begin(), a.begin() + cut);
    first.insert(first.end(), b.begin() + cut, b.end());
    Genome second(b.begin(), b.begin() + cut);
    second.insert(second.end(), a.begin() + cut, a.end());
    return {std::move(first), std::move(second)};
  }

  // Each bit flips with probability `rate`.
  void mutate(Genome& genome, double rate, Rng& rng) const {
    for (auto& bit : genome) {
      if (rng.bernoulli(rate)) bit ^= 1U;
    }
  }

  Evaluation evaluate(const Genome& genome, Rng& /*rng*/) const {
    busy_wait();
    const auto ones = count_ones(genome);
    return {static_cast<double>(ones) / static_cast<double>(length_), {ones}};
  }

  void encode(const Genome& genome, std::span<std::int64_t> out) const {
    std::copy(genome.begin(), genome.end(), out.begin());
  }

  [[nodiscard]] Genome decode(std::span<const std::int64_t> stored) const {
    Genome genome(length_);
    for (std::size_t i = 0; i < length_; ++i) genome[i] = static_cast<std::uint8_t>(stored[i] & 1);
    return genome;
  }

  // sweep driver: a random-restart-free hill climber from one random genome.
  static std::vector<FieldSpec> record_fields() {
    return {int_field("initial_ones", "ones in the random start"),
            int_field("final_ones", "ones after the climb"),
            int_field("accepted", "flips that were kept")};
  }

  Record run(Rng& rng) const {
    Genome genome = random_genome(rng);
    const auto initial = count_ones(genome);
    std::int64_t accepted = 0;
    for (std::int64_t step = 0; step < climb_steps_; ++step) {
      auto& bit = genome[rng.below(length_)];
      if (bit == 0) {
        bit = 1;
        ++accepted;
      }
    }
    busy_wait();
    return {initial, count_ones(genome), accepted};
  }

 private:
  static std::int64_t count_ones(const Genome& genome) {
    return std::accumulate(genome.begin(), genome.end(), std::int64_t{0});
  }

  void busy_wait() const {
    if (cost_.count() == 0) return;
    const auto until = std::chrono::steady_clock::now() + cost_;
    while (std::chrono::steady_clock::now() < until) {
    }
  }

  std::size_t length_;
  std::chrono::microseconds cost_;
  std::int64_t climb_steps_;
};

static_assert(GaKernel<OneMax>);
static_assert(SweepKernel<OneMax>);

}  // namespace levelforge::kernels

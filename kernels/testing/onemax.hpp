#pragma once
// OneMax: maximize the number of ones in a bitstring. The optimum (all ones, fitness 1)
// is known, which is what the GA driver's tests need. `cost_us` busy-waits per
// evaluation to give benchmarks a kernel of fixed cost; `sleep_us` sleeps instead, for tests
// that need a run of some wall time without taking the CPU from the tests beside them.

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "kernels/testing/bit_genome.hpp"

namespace levelforge::kernels {

class OneMax : public bits::BitGenomeKernel {
 public:
  static constexpr std::string_view name = "onemax";
  static constexpr std::string_view summary =
      "bitstrings scored by their fraction of ones (a test kernel with a known optimum)";
  static constexpr Capabilities capabilities{Capability::ga, Capability::sweep,
                                             Capability::measures, Capability::memory_estimate};

  static std::vector<ParamSpec> parameters() {
    return {
        int_param("length", 64, 1, 1'000'000, "bits in a genome"),
        int_param("cost_us", 0, 0, 10'000'000, "busy-wait per evaluation, microseconds"),
        int_param("sleep_us", 0, 0, 10'000'000, "sleep per evaluation, microseconds"),
        int_param("climb_steps", 100, 0, 100'000'000,
                  "sweep driver: single-bit flips tried by the random hill climber"),
    };
  }

  // A genome is a byte per bit; the hill climber of the sweep driver holds one.
  static MemoryEstimate memory_estimate(const ParamSet& params) {
    const auto length = static_cast<std::uint64_t>(params.integer("length"));
    const std::string cause = "params.length = " + std::to_string(length) + " bits";
    MemoryEstimate estimate;
    estimate.working_bytes = length;
    estimate.genome_bytes = sizeof(Genome) + length;
    estimate.working_cause = cause;
    estimate.genome_cause = cause;
    return estimate;
  }

  explicit OneMax(const ParamSet& params)
      : BitGenomeKernel(static_cast<std::size_t>(params.integer("length"))),
        cost_(std::chrono::microseconds(params.integer("cost_us"))),
        sleep_(std::chrono::microseconds(params.integer("sleep_us"))),
        climb_steps_(params.integer("climb_steps")) {}

  static std::vector<FieldSpec> evaluation_fields() {
    return {int_field("ones", "bits set in the genome")};
  }

  Evaluation evaluate(const Genome& genome, Rng& /*rng*/) const {
    busy_wait();
    const auto ones = bits::ones(genome);
    return {static_cast<double>(ones) / static_cast<double>(length_), {ones}};
  }

  // qd driver: the fractions of ones in the genome's first and second half (the first half
  // holds length / 2 bits), so that the fitness is their mean weighted by the halves.
  std::vector<MeasureSpec> measures() const {
    return {{"first_half", 0, 1, "fraction of ones among the first length / 2 bits"},
            {"second_half", 0, 1, "fraction of ones among the other bits"}};
  }

  std::vector<double> measure(const Genome& genome, const Evaluation& /*evaluation*/) const {
    const auto half = length_ / 2;
    const auto fraction = [&](std::size_t begin, std::size_t end) {
      if (begin == end) return 0.0;
      std::size_t ones = 0;
      for (std::size_t i = begin; i < end; ++i) ones += genome[i] != 0 ? 1U : 0U;
      return static_cast<double>(ones) / static_cast<double>(end - begin);
    };
    return {fraction(0, half), fraction(half, length_)};
  }

  // sweep driver: a random-restart-free hill climber from one random genome.
  static std::vector<FieldSpec> record_fields() {
    return {int_field("initial_ones", "ones in the random start"),
            int_field("final_ones", "ones after the climb"),
            int_field("accepted", "flips that were kept")};
  }

  Record run(Rng& rng) const {
    Genome genome = random_genome(rng);
    const auto initial = bits::ones(genome);
    std::int64_t accepted = 0;
    for (std::int64_t step = 0; step < climb_steps_; ++step) {
      auto& bit = genome[rng.below(length_)];
      if (bit == 0) {
        bit = 1;
        ++accepted;
      }
    }
    busy_wait();
    return {initial, bits::ones(genome), accepted};
  }

 private:
  void busy_wait() const {
    if (sleep_.count() > 0) std::this_thread::sleep_for(sleep_);
    if (cost_.count() == 0) return;
    const auto until = std::chrono::steady_clock::now() + cost_;
    while (std::chrono::steady_clock::now() < until) {
    }
  }

  std::chrono::microseconds cost_;
  std::chrono::microseconds sleep_;
  std::int64_t climb_steps_;
};

static_assert(capabilities_hold<OneMax>());

}  // namespace levelforge::kernels

#pragma once
// The only source of randomness a kernel sees. Counter-based (Philox4x64-10, Random123):
// a stream is named by (experiment seed, purpose) as the key and (task, generation,
// individual) as the counter, so every draw is a pure function of those coordinates and
// never of rank, thread, time or scheduling order.

#include <Random123/philox.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>

namespace levelforge {

// Purposes keep the streams of one (task, generation, individual) apart.
enum class Stream : std::uint64_t {
  task_seed = 1,
  init = 2,
  selection = 3,
  crossover = 4,
  mutation = 5,
  evaluation = 6,
  sweep_run = 7,
  validation = 8,
  sweep_sample = 9,      // sweep.sample's random and Latin hypercube points
  migration = 10,        // an island's migrants and destination (generation, island)
  arrival = 11,          // the places migrants take on an island (generation, island)
  migration_route = 12,  // the random topology's cycle of islands (generation)
  cvt = 13,              // the samples a CVT archive's centroids are fitted to (sample)
  emitter = 14,          // a CMA emitter's candidates (iteration, candidate)
  emitter_restart = 15,  // the elite a CMA emitter (re)starts at (iteration, emitter)
};

struct StreamId {
  std::uint64_t seed;
  Stream purpose;
  std::uint64_t task;
  std::uint64_t generation;
  std::uint64_t individual;
};

class Rng {
  __extension__ using Wide = unsigned __int128;  // for Lemire's 64 x 64 -> 128 multiply

 public:
  using result_type = std::uint64_t;

  explicit Rng(const StreamId& id)
      : key_{{id.seed, static_cast<std::uint64_t>(id.purpose)}},
        counter_{{id.task, id.generation, id.individual, 0}} {}

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

  result_type operator()() {
    if (used_ == block_.size()) refill();
    return block_[used_++];
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>((*this)() >> 11U) * 0x1.0p-53; }

  // Uniform integer in [0, bound), unbiased (Lemire's multiply-and-reject). bound > 0.
  std::uint64_t below(std::uint64_t bound) {
    auto product = static_cast<Wide>((*this)()) * bound;
    auto low = static_cast<std::uint64_t>(product);
    if (low < bound) {
      const std::uint64_t threshold = (0 - bound) % bound;
      while (low < threshold) {
        product = static_cast<Wide>((*this)()) * bound;
        low = static_cast<std::uint64_t>(product);
      }
    }
    return static_cast<std::uint64_t>(product >> 64U);
  }

  bool bernoulli(double p) { return uniform() < p; }

  // Standard normal, by Box-Muller from two uniforms (the first kept off 0 for the log): no
  // second deviate is cached, so a draw never depends on an earlier one.
  double normal() {
    const double radius = std::sqrt(-2.0 * std::log(1.0 - uniform()));
    return radius * std::cos(2.0 * std::numbers::pi * uniform());
  }

 private:
  void refill() {
    r123::Philox4x64::ctr_type ctr{{counter_[0], counter_[1], counter_[2], counter_[3]}};
    r123::Philox4x64::key_type key{{key_[0], key_[1]}};
    auto out = r123::Philox4x64{}(ctr, key);
    for (std::size_t i = 0; i < block_.size(); ++i) block_[i] = out.v[i];
    ++counter_[3];
    used_ = 0;
  }

  std::array<std::uint64_t, 2> key_;
  std::array<std::uint64_t, 4> counter_;
  std::array<std::uint64_t, 4> block_{};
  std::size_t used_ = 4;
};

// The seed recorded for a task in the task table: the first draw of its own stream.
inline std::uint64_t derived_task_seed(std::uint64_t seed, std::uint64_t task) {
  return Rng({seed, Stream::task_seed, task, 0, 0})();
}

}  // namespace levelforge

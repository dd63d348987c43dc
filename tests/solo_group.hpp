#pragma once
// A GA evaluation group of one rank: it evaluates everything itself and records what the
// engine reports, for tests that run a GA task without MPI.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "runner/engine/ga_engine.hpp"

namespace levelforge::testing {

template <class Snapshot>
class SoloGroupOf final : public EvaluationGroupOf<Snapshot> {
 public:
  [[nodiscard]] std::size_t rank() const override { return 0; }
  [[nodiscard]] std::size_t size() const override { return 1; }
  void all_gather(std::span<const std::byte> local, std::span<std::byte> all) override {
    ++gathers;
    std::copy(local.begin(), local.end(), all.begin());
  }
  void generation_done(std::uint64_t evaluations) override { reported.push_back(evaluations); }

  // The evaluations reported over all generations.
  [[nodiscard]] std::uint64_t total() const {
    return std::accumulate(reported.begin(), reported.end(), std::uint64_t{0});
  }

  int gathers = 0;
  std::vector<std::uint64_t> reported;
};

using SoloGroup = SoloGroupOf<GaSnapshot>;

// A group of one that stops the task after `stop_after` steps, keeping the snapshot it was
// handed and the steps it was asked about.
template <class Snapshot>
class StoppingGroupOf final : public EvaluationGroupOf<Snapshot> {
 public:
  explicit StoppingGroupOf(std::int64_t stop_after) : stop_after_(stop_after) {}
  [[nodiscard]] std::size_t rank() const override { return 0; }
  [[nodiscard]] std::size_t size() const override { return 1; }
  void all_gather(std::span<const std::byte> local, std::span<std::byte> all) override {
    std::copy(local.begin(), local.end(), all.begin());
  }
  void generation_done(std::uint64_t /*evaluations*/) override {}
  GenerationCheck after_generation(std::int64_t steps_run) override {
    checked.push_back(steps_run);
    const bool stop = steps_run == stop_after_;
    return {stop, stop};
  }
  void save(const Snapshot& snapshot) override { saved = snapshot; }

  std::vector<std::int64_t> checked;
  Snapshot saved;

 private:
  std::int64_t stop_after_;
};

}  // namespace levelforge::testing

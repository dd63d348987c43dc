#pragma once
// A kernel that throws on purpose, so that tests can show what a failing task does: end the
// whole job with a message naming it (on_error: abort), or go into /failures (record), on
// every driver and without hanging a GA group whose members fail at different moments.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kernels/api/concepts.hpp"

namespace levelforge::kernels {

class Faulty {
 public:
  using Genome = std::vector<std::uint8_t>;  // ga driver: bits, fitness the fraction of ones

  static constexpr std::string_view name = "faulty";
  static constexpr std::string_view summary =
      "throws a KernelError at a chosen value or index (a test kernel for failure handling)";

  static std::vector<ParamSpec> parameters() {
    return {
        int_param("value", 0, 0, 1'000'000, "sweep driver: the task's value (sweep it)"),
        int_param("fail_value", -1, -1, 1'000'000,
                  "sweep driver: the value that throws (-1: none)"),
        int_param("fail_index", -1, -1, 1'000'000'000,
                  "exhaustive driver: the index that throws (-1: none)"),
        int_param("count", 1000, 1, 1'000'000'000, "exhaustive driver: indices in the space"),
        int_param("length", 16, 1, 1'000'000, "ga driver: bits in a genome"),
        int_param("fail_ones", -1, -1, 1'000'000,
                  "ga driver: an evaluation of a genome with this many ones or more throws "
                  "(-1: none)"),
        bool_param("fail_validation", false,
                   "ga driver: validating the final best throws (only the group's first rank "
                   "validates)"),
        int_param("sleep_ms", 0, 0, 60'000,
                  "sleep per sweep run, per 1000 indices or per GA evaluation, milliseconds"),
    };
  }

  explicit Faulty(const ParamSet& params)
      : value_(params.integer("value")),
        fail_value_(params.integer("fail_value")),
        fail_index_(params.integer("fail_index")),
        count_(static_cast<std::uint64_t>(params.integer("count"))),
        length_(static_cast<std::size_t>(params.integer("length"))),
        fail_ones_(params.integer("fail_ones")),
        fail_validation_(params.boolean("fail_validation")),
        sleep_(std::chrono::milliseconds(params.integer("sleep_ms"))) {}

  static std::vector<FieldSpec> record_fields() { return {int_field("value", "the task's value")}; }

  Record run(Rng& /*rng*/) const {
    std::this_thread::sleep_for(sleep_);
    if (value_ == fail_value_) {
      throw KernelError("faulty: failing on purpose at value " + std::to_string(value_));
    }
    return {value_};
  }

  static std::vector<FieldSpec> evaluation_fields() {
    return {int_field("ones", "bits set in the genome")};
  }
  static std::vector<FieldSpec> validation_fields() {
    return {int_field("ones", "bits set in the genome")};
  }
  [[nodiscard]] std::size_t genome_length() const { return length_; }

  Genome random_genome(Rng& rng) const {
    Genome genome(length_);
    for (auto& bit : genome) bit = static_cast<std::uint8_t>(rng() & 1U);
    return genome;
  }

  std::pair<Genome, Genome> crossover(const Genome& a, const Genome& b, Rng& rng) const {
    const auto cut = static_cast<std::ptrdiff_t>(rng.below(length_ + 1));
    Genome first(a.begin(), a.begin() + cut);
    first.insert(first.end(), b.begin() + cut, b.end());
    Genome second(b.begin(), b.begin() + cut);
    second.insert(second.end(), a.begin() + cut, a.end());
    return {std::move(first), std::move(second)};
  }

  void mutate(Genome& genome, double rate, Rng& rng) const {
    for (auto& bit : genome) {
      if (rng.bernoulli(rate)) bit ^= 1U;
    }
  }

  Evaluation evaluate(const Genome& genome, Rng& /*rng*/) const {
    std::this_thread::sleep_for(sleep_);
    const auto ones = std::accumulate(genome.begin(), genome.end(), std::int64_t{0});
    if (fail_ones_ >= 0 && ones >= fail_ones_) {
      throw KernelError("faulty: failing on purpose at a genome of " + std::to_string(ones) +
                        " ones");
    }
    return {static_cast<double>(ones) / static_cast<double>(length_), {ones}};
  }

  [[nodiscard]] Record validate(const Genome& genome, Rng& /*rng*/) const {
    if (fail_validation_) throw KernelError("faulty: failing on purpose in validation");
    return {std::accumulate(genome.begin(), genome.end(), std::int64_t{0})};
  }

  void encode(const Genome& genome, std::span<std::int64_t> out) const {
    std::copy(genome.begin(), genome.end(), out.begin());
  }

  [[nodiscard]] Genome decode(std::span<const std::int64_t> stored) const {
    Genome genome(length_);
    for (std::size_t i = 0; i < length_; ++i) genome[i] = static_cast<std::uint8_t>(stored[i] & 1);
    return genome;
  }

  static std::vector<ReductionSpec> reductions() {
    return {count_reduction("visited", "indices visited")};
  }
  static std::vector<FieldSpec> solution_fields() { return {}; }
  [[nodiscard]] std::uint64_t index_count() const { return count_; }

  void visit(std::uint64_t index, Reductions& out) const {
    if (index % 1000 == 0) std::this_thread::sleep_for(sleep_);
    if (static_cast<std::int64_t>(index) == fail_index_) {
      throw KernelError("faulty: failing on purpose at index " + std::to_string(index));
    }
    out.count(0);
  }

 private:
  std::int64_t value_;
  std::int64_t fail_value_;
  std::int64_t fail_index_;
  std::uint64_t count_;
  std::size_t length_;
  std::int64_t fail_ones_;
  bool fail_validation_;
  std::chrono::milliseconds sleep_;
};

static_assert(SweepKernel<Faulty>);
static_assert(ValidatingGaKernel<Faulty>);
static_assert(ExhaustiveKernel<Faulty>);

}  // namespace levelforge::kernels

#pragma once
// A kernel that throws on purpose, so that tests can show what a failing task does: end the
// whole job with a message naming it (on_error: abort), or go into /failures (record), on
// every driver and without hanging a GA group whose members fail at different moments.

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

class Faulty : public bits::BitGenomeKernel {  // ga driver: fitness the fraction of ones
 public:
  static constexpr std::string_view name = "faulty";
  static constexpr std::string_view summary =
      "throws a KernelError at a chosen value or index (a test kernel for failure handling)";
  static constexpr Capabilities capabilities{Capability::ga, Capability::validate,
                                             Capability::sweep, Capability::exhaustive};

  static std::vector<ParamSpec> parameters() {
    return {
        int_param("value", 0, 0, 1'000'000, "sweep driver: the task's value (sweep it)"),
        int_param("fail_value", -1, -1, 1'000'000,
                  "sweep driver: the value that throws (-1: none)"),
        int_param("fail_index", -1, -1, 1'000'000'000,
                  "exhaustive driver: the index that throws (-1: none)"),
        int_param("count", 1000, 1, 1'000'000'000, "exhaustive driver: indices in the space"),
        int_param("solution_every", 0, 0, 1'000'000,
                  "exhaustive driver: every index divisible by it is a solution (0: none)"),
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
      : BitGenomeKernel(static_cast<std::size_t>(params.integer("length"))),
        value_(params.integer("value")),
        fail_value_(params.integer("fail_value")),
        fail_index_(params.integer("fail_index")),
        count_(static_cast<std::uint64_t>(params.integer("count"))),
        solution_every_(static_cast<std::uint64_t>(params.integer("solution_every"))),
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
  Evaluation evaluate(const Genome& genome, Rng& /*rng*/) const {
    std::this_thread::sleep_for(sleep_);
    const auto ones = bits::ones(genome);
    if (fail_ones_ >= 0 && ones >= fail_ones_) {
      throw KernelError("faulty: failing on purpose at a genome of " + std::to_string(ones) +
                        " ones");
    }
    return {static_cast<double>(ones) / static_cast<double>(length_), {ones}};
  }

  [[nodiscard]] Record validate(const Genome& genome, Rng& /*rng*/) const {
    if (fail_validation_) throw KernelError("faulty: failing on purpose in validation");
    return {bits::ones(genome)};
  }

  static std::vector<ReductionSpec> reductions() {
    return {count_reduction("visited", "indices visited")};
  }
  static std::vector<FieldSpec> solution_fields() {
    return {int_field("n", "the index, a multiple of solution_every")};
  }
  [[nodiscard]] std::uint64_t index_count() const { return count_; }

  void visit(std::uint64_t index, Reductions& out) const {
    if (index % 1000 == 0) std::this_thread::sleep_for(sleep_);
    // Before the failure: a failing chunk has written solutions that must not survive it.
    if (solution_every_ > 0 && index % solution_every_ == 0)
      out.solution({static_cast<std::int64_t>(index)});
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
  std::uint64_t solution_every_;
  std::int64_t fail_ones_;
  bool fail_validation_;
  std::chrono::milliseconds sleep_;
};

static_assert(capabilities_hold<Faulty>());

}  // namespace levelforge::kernels

#pragma once
// A kernel that throws on purpose, so that tests can show a failure on one rank aborting
// the whole job with its message instead of hanging it.

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include "kernels/api/concepts.hpp"

namespace levelforge::kernels {

class Faulty {
 public:
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
        int_param("sleep_ms", 0, 0, 60'000,
                  "sleep per sweep run or per 1000 indices, milliseconds"),
    };
  }

  explicit Faulty(const ParamSet& params)
      : value_(params.integer("value")),
        fail_value_(params.integer("fail_value")),
        fail_index_(params.integer("fail_index")),
        count_(static_cast<std::uint64_t>(params.integer("count"))),
        sleep_(std::chrono::milliseconds(params.integer("sleep_ms"))) {}

  static std::vector<FieldSpec> record_fields() { return {int_field("value", "the task's value")}; }

  Record run(Rng& /*rng*/) const {
    std::this_thread::sleep_for(sleep_);
    if (value_ == fail_value_) {
      throw KernelError("faulty: failing on purpose at value " + std::to_string(value_));
    }
    return {value_};
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
  std::chrono::milliseconds sleep_;
};

static_assert(SweepKernel<Faulty>);
static_assert(ExhaustiveKernel<Faulty>);

}  // namespace levelforge::kernels

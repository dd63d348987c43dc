#pragma once
// A multi-objective kernel's objectives (ObjectiveSpec) as the `ga` driver reads them from its
// evaluation rows, and what it records of them each generation: the population's Pareto front
// and its hypervolume (docs/drivers.md, "NSGA-II").

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/api/concepts.hpp"
#include "kernels/api/record_layout.hpp"

namespace levelforge {

class GaObjectives {
 public:
  // Throws KernelError naming `kernel` for fewer than two objectives, a field that is not in
  // `evaluation_layout` (the fitness, then the kernel's fields) or a text field.
  GaObjectives(std::vector<ObjectiveSpec> specs, const RecordLayout& evaluation_layout,
               std::string_view kernel);

  [[nodiscard]] std::size_t count() const { return specs_.size(); }
  [[nodiscard]] const std::vector<ObjectiveSpec>& specs() const { return specs_; }

  // The objectives of `rows` (count x count()), each larger-is-better: a minimized one
  // negated, NaN as -inf.
  [[nodiscard]] std::vector<double> larger_is_better(std::span<const std::byte> rows) const;
  // The reference point the same way.
  [[nodiscard]] std::vector<double> reference_larger_is_better() const;
  // The objectives of one row as the kernel records them.
  void recorded(std::span<const std::byte> row, std::span<double> out) const;

 private:
  [[nodiscard]] double value(std::span<const std::byte> row, std::size_t objective) const;

  std::vector<ObjectiveSpec> specs_;
  RecordLayout layout_;
  std::vector<std::size_t> fields_;  // each objective's field in layout_
};

// One generation's front: generation, evaluations so far, front size, hypervolume.
RecordLayout ga_pareto_history_layout();

// A generation's front for the result file: its pareto_history row, and the recorded
// objectives of the front's members in population order, NaN after them up to the population.
// `values` and `fronts`: the population's larger_is_better() and its nondominated_fronts().
struct GenerationFront {
  std::vector<std::byte> history_row;
  std::vector<double> members;  // population x objectives
};
GenerationFront generation_front(const GaObjectives& objectives, std::span<const std::byte> rows,
                                 std::span<const double> values,
                                 std::span<const std::size_t> fronts, std::int64_t generation,
                                 std::uint64_t evaluations);

}  // namespace levelforge

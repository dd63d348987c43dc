#include "runner/engine/ga_objectives.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "runner/engine/pareto.hpp"

namespace levelforge {

GaObjectives::GaObjectives(std::vector<ObjectiveSpec> specs, const RecordLayout& evaluation_layout,
                           std::string_view kernel)
    : specs_(std::move(specs)), layout_(evaluation_layout) {
  const auto where = "kernel '" + std::string(kernel) + "': ";
  if (specs_.size() < 2) {
    throw KernelError(where + "declares " + std::to_string(specs_.size()) +
                      " objective(s); a multi-objective kernel needs at least 2");
  }
  for (const auto& spec : specs_) {
    std::size_t field = 0;
    try {
      field = layout_.index_of(spec.field);
    } catch (const std::out_of_range&) {
      throw KernelError(where + "objective '" + spec.field +
                        "' is neither the fitness nor one of its evaluation fields");
    }
    if (layout_.fields()[field].type == FieldType::text)
      throw KernelError(where + "objective '" + spec.field + "' is a text field, not a number");
    if (!std::isfinite(spec.reference)) {
      throw KernelError(where + "objective '" + spec.field + "' has the reference " +
                        std::to_string(spec.reference) + "; it must be finite");
    }
    fields_.push_back(field);
  }
}

double GaObjectives::value(std::span<const std::byte> row, std::size_t objective) const {
  const auto field = fields_[objective];
  return layout_.fields()[field].type == FieldType::int64
             ? static_cast<double>(layout_.get_int(row, field))
             : layout_.get_real(row, field);
}

std::vector<double> GaObjectives::larger_is_better(std::span<const std::byte> rows) const {
  const auto row_size = layout_.row_size();
  const auto individuals = rows.size() / row_size;
  std::vector<double> values;
  values.reserve(individuals * count());
  for (std::size_t i = 0; i < individuals; ++i) {
    const auto row = rows.subspan(i * row_size, row_size);
    for (std::size_t m = 0; m < count(); ++m) {
      const double recorded = value(row, m);
      values.push_back(std::isnan(recorded) ? -std::numeric_limits<double>::infinity()
                                            : (specs_[m].minimize ? -recorded : recorded));
    }
  }
  return values;
}

std::vector<double> GaObjectives::reference_larger_is_better() const {
  std::vector<double> reference;
  for (const auto& spec : specs_)
    reference.push_back(spec.minimize ? -spec.reference : spec.reference);
  return reference;
}

void GaObjectives::recorded(std::span<const std::byte> row, std::span<double> out) const {
  for (std::size_t m = 0; m < count(); ++m) out[m] = value(row, m);
}

RecordLayout ga_pareto_history_layout() {
  return RecordLayout(
      {int_field("generation", "generation number, 0 is the random initial population"),
       int_field("evaluations", "evaluations the task made up to this generation"),
       int_field("front_size", "individuals of the population that no other dominates"),
       real_field("hypervolume",
                  "volume the population dominates beyond the objectives' reference point")});
}

GenerationFront generation_front(const GaObjectives& objectives, std::span<const std::byte> rows,
                                 std::span<const double> values,
                                 std::span<const std::size_t> fronts, std::int64_t generation,
                                 std::uint64_t evaluations) {
  const auto m = objectives.count();
  const auto individuals = fronts.size();
  const auto reference = objectives.reference_larger_is_better();
  GenerationFront front{
      std::vector<std::byte>(ga_pareto_history_layout().row_size()),
      std::vector<double>(individuals * m, std::numeric_limits<double>::quiet_NaN())};
  const auto row_size = rows.size() / individuals;
  std::size_t size = 0;
  for (std::size_t i = 0; i < individuals; ++i) {
    if (fronts[i] != 0) continue;
    objectives.recorded(rows.subspan(i * row_size, row_size),
                        std::span(front.members).subspan(size * m, m));
    ++size;
  }
  const auto layout = ga_pareto_history_layout();
  layout.set_int(front.history_row, 0, generation);
  layout.set_int(front.history_row, 1, static_cast<std::int64_t>(evaluations));
  layout.set_int(front.history_row, 2, static_cast<std::int64_t>(size));
  layout.set_real(front.history_row, 3, hypervolume(values, m, reference));
  return front;
}

}  // namespace levelforge

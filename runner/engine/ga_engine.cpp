#include "runner/engine/ga_engine.hpp"

#include <string>

namespace levelforge {

GaSettings GaSettings::from(const ParamSet& section) {
  GaSettings settings{};
  settings.population = section.integer("population");
  settings.generations = section.integer("generations");
  settings.tournament = section.integer("tournament");
  settings.crossover_rate = section.real("crossover_rate");
  settings.mutation_rate = section.real("mutation_rate");
  settings.elitism = section.integer("elitism");
  settings.reevaluate_elites = section.boolean("reevaluate_elites");
  settings.stop_fitness = section.real("stop_fitness");
  settings.keep_best = section.integer("keep_best");
  settings.ranks_per_task = section.integer("ranks_per_task");
  if (settings.elitism >= settings.population) {
    throw KernelError("ga.elitism (" + std::to_string(settings.elitism) +
                      ") must be less than ga.population (" + std::to_string(settings.population) +
                      ")");
  }
  return settings;
}

std::uint64_t GaSettings::evaluations_per_generation() const {
  return static_cast<std::uint64_t>(reevaluate_elites ? population : population - elitism);
}

RecordLayout ga_evaluation_layout(const std::vector<FieldSpec>& kernel_fields) {
  return RecordLayout::concat({real_field("fitness", "fitness of the individual")}, kernel_fields);
}

RecordLayout ga_history_layout(const std::vector<FieldSpec>& kernel_fields) {
  return RecordLayout::concat(
      {int_field("generation", "generation number, 0 is the random initial population"),
       real_field("best", "highest fitness"), real_field("mean", "mean fitness"),
       real_field("std", "population standard deviation of fitness"),
       real_field("min", "lowest fitness")},
      kernel_fields);
}

RecordLayout ga_best_layout(const std::vector<FieldSpec>& kernel_fields) {
  return RecordLayout::concat({int_field("position", "0 for the best, 1 for the next, ..."),
                               real_field("fitness", "fitness of the individual")},
                              kernel_fields);
}

std::vector<std::size_t> ranking(std::span<const double> fitness) {
  std::vector<std::size_t> order(fitness.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return fitness[a] > fitness[b]; });
  return order;
}

std::pair<std::size_t, std::size_t> share_of(std::size_t count, std::size_t rank,
                                             std::size_t size) {
  return {count * rank / size, count * (rank + 1) / size};
}

void summarize_generation(std::int64_t generation, std::span<const double> fitness,
                          std::span<const std::byte> evaluation_rows,
                          const RecordLayout& evaluation_layout, const RecordLayout& history_layout,
                          std::span<std::byte> history_row) {
  const auto order = ranking(fitness);
  const auto count = static_cast<double>(fitness.size());
  const double mean = std::accumulate(fitness.begin(), fitness.end(), 0.0) / count;
  double squares = 0;
  for (double value : fitness) squares += (value - mean) * (value - mean);
  history_layout.set_int(history_row, 0, generation);
  history_layout.set_real(history_row, 1, fitness[order.front()]);
  history_layout.set_real(history_row, 2, mean);
  history_layout.set_real(history_row, 3, std::sqrt(squares / count));
  history_layout.set_real(history_row, 4, fitness[order.back()]);
  // Both rows end with the kernel's fields; the evaluation row starts with the fitness.
  const auto row_size = evaluation_layout.row_size();
  const auto best_fields =
      evaluation_rows.subspan(order.front() * row_size + sizeof(double), row_size - sizeof(double));
  std::copy(best_fields.begin(), best_fields.end(),
            history_row.end() - static_cast<std::ptrdiff_t>(best_fields.size()));
}

}  // namespace levelforge

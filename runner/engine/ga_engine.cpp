#include "runner/engine/ga_engine.hpp"

#include <string>

namespace levelforge {

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

RecordLayout ga_island_history_layout() {
  return RecordLayout(
      {int_field("generation", "generation number, 0 is the random initial population"),
       int_field("island", "island number"), real_field("best", "highest fitness on the island"),
       real_field("mean", "mean fitness on the island"),
       real_field("std", "standard deviation of fitness on the island"),
       real_field("min", "lowest fitness on the island"),
       real_field("diversity",
                  "mean pairwise genome distance on the island: the fraction of "
                  "genome positions in which two individuals differ"),
       real_field("distance_to_others",
                  "mean genome distance between an individual of the island and one of "
                  "another island (NaN with one island): how far the islands drifted apart")});
}

RecordLayout ga_island_best_layout(const std::vector<FieldSpec>& kernel_fields) {
  return RecordLayout::concat({int_field("island", "island number"),
                               real_field("fitness", "fitness of the island's best individual")},
                              kernel_fields);
}

RecordLayout ga_migration_layout() {
  return RecordLayout({int_field("generation", "migrants leave after this generation"),
                       int_field("from", "island the migrant leaves (a copy stays)"),
                       int_field("to", "island the migrant joins"),
                       int_field("source", "position of the migrant in the population"),
                       int_field("target", "position it replaces"),
                       real_field("fitness", "fitness of the migrant")});
}

std::vector<std::size_t> ranking(std::span<const double> fitness) {
  std::vector<std::size_t> order(fitness.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return fitness[a] > fitness[b]; });
  return order;
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

void summarize_island(std::int64_t generation, std::size_t island, std::span<const double> fitness,
                      const IslandDistances& distances, std::span<std::byte> row) {
  const auto layout = ga_island_history_layout();
  const auto count = static_cast<double>(fitness.size());
  const double mean = std::accumulate(fitness.begin(), fitness.end(), 0.0) / count;
  double squares = 0;
  for (double value : fitness) squares += (value - mean) * (value - mean);
  const auto [lowest, highest] = std::minmax_element(fitness.begin(), fitness.end());
  layout.set_int(row, 0, generation);
  layout.set_int(row, 1, static_cast<std::int64_t>(island));
  layout.set_real(row, 2, *highest);
  layout.set_real(row, 3, mean);
  layout.set_real(row, 4, std::sqrt(squares / count));
  layout.set_real(row, 5, *lowest);
  layout.set_real(row, 6, distances.within);
  layout.set_real(row, 7, distances.to_others);
}

}  // namespace levelforge

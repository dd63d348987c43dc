// The `ga` driver. Ranks form groups; each group pulls whole GA tasks from the work queue
// and splits every generation's evaluations among its members (see docs/drivers.md for
// the policy). Every member runs the same GaRun and so holds the same population.

#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <optional>

#include "runner/drivers/ga/ga_driver.hpp"

#include <algorithm>
#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/group_tasks.hpp"
#include "runner/drivers/task_datasets.hpp"

namespace levelforge {

namespace {

// The largest of every point in each dimension of the task-indexed datasets, whose blocks
// are all of one size.
struct GaShape {
  std::size_t generations = 0;
  std::size_t kept = 0;
  std::size_t genome_length = 0;
  std::vector<std::size_t> level;  // empty: the kernel renders no levels
  std::size_t islands = 1;         // 1: no point has islands, no island datasets
  std::size_t migrations = 0;      // migration events of a whole task
  std::size_t population = 0;
  std::size_t objectives = 0;  // 0: the kernel has one fitness, no front datasets
};

GaShape ga_shape(const config::Experiment& experiment, const std::vector<PointFacts>& facts) {
  GaShape shape;
  for (const auto& point : experiment.points) {
    const auto settings = GaSettings::from(point.driver);
    shape.generations = std::max(shape.generations, static_cast<std::size_t>(settings.generations));
    shape.kept = std::max(shape.kept, static_cast<std::size_t>(settings.keep_best));
    shape.islands = std::max(shape.islands, static_cast<std::size_t>(settings.islands));
    shape.migrations = std::max(shape.migrations, settings.migration_events());
    shape.population = std::max(shape.population, static_cast<std::size_t>(settings.population));
  }
  const bool fronts = records_fronts(experiment) && !facts.empty();
  shape.objectives = fronts ? facts.front().objective_reference.size() : 0;
  shape.genome_length = longest_genome(facts);
  shape.level = largest_level_shape(facts);
  return shape;
}

// The ga driver's per-task datasets, in the order fill_blocks fills them.
std::vector<TaskDataset> ga_datasets(const GaSpec::Binding& ga, const GaShape& shape) {
  std::vector<TaskDataset> datasets{
      task_table("ga/history", ga_history_layout(ga.evaluation_fields), {shape.generations}),
      task_table("ga/best", ga_best_layout(ga.evaluation_fields), {shape.kept}),
      task_genome_array("ga/best_genomes", {shape.kept, shape.genome_length}, ga.genome_type)};
  if (!ga.validation_fields.empty()) {
    datasets.push_back(
        task_table("ga/validation", RecordLayout(ga.validation_fields), {shape.kept}));
  }
  if (!shape.level.empty()) {
    std::vector<hsize_t> block{shape.kept};
    block.insert(block.end(), shape.level.begin(), shape.level.end());
    datasets.push_back(task_uint8_array(
        "ga/best_levels", std::move(block),
        "the level of each kept genome before play; 255: empty or outside a smaller level"));
  }
  if (shape.islands > 1) {
    datasets.push_back(task_table("ga/island_history", ga_island_history_layout(),
                                  {shape.generations, shape.islands},
                                  "each island's statistics per generation, before migration"));
    datasets.push_back(task_table("ga/island_best", ga_island_best_layout(ga.evaluation_fields),
                                  {shape.islands},
                                  "the best individual of each island at the end"));
    datasets.push_back(task_genome_array("ga/island_best_genomes",
                                         {shape.islands, shape.genome_length}, ga.genome_type,
                                         "the genome of each island's best, padded"));
    datasets.push_back(task_table("ga/migrations", ga_migration_layout(), {shape.migrations},
                                  "one row per migrant, in the order they moved"));
  }
  if (shape.objectives > 0) {
    datasets.push_back(task_table("ga/pareto_history", ga_pareto_history_layout(),
                                  {shape.generations},
                                  "each generation's Pareto front: its size and hypervolume"));
    datasets.push_back(task_real_array(
        "ga/fronts", {shape.generations, shape.population, shape.objectives},
        "each generation's Pareto front: its members' objectives as the kernel records them, "
        "in population order, NaN after the last"));
  }
  return datasets;
}

const SnapshotCodec<GaSnapshot> ga_codec{"GA",
                                         &GaSnapshot::generations_run,
                                         &GaSnapshot::evaluations,
                                         {{"snapshot.genomes", &GaSnapshot::genomes}},
                                         {{"snapshot.rows", &GaSnapshot::evaluations_rows},
                                          {"snapshot.history", &GaSnapshot::history},
                                          {"snapshot.island_history", &GaSnapshot::island_history},
                                          {"snapshot.migrations", &GaSnapshot::migrations},
                                          {"snapshot.search", &GaSnapshot::search},
                                          {"snapshot.pareto_history", &GaSnapshot::pareto_history},
                                          {"snapshot.fronts", &GaSnapshot::fronts}}};

// The island datasets of a finished task: a point of fewer islands leaves the rest missing.
void fill_island_blocks(std::span<const std::span<std::byte>, 4> blocks, const GaOutcome& outcome,
                        const GaShape& shape, std::size_t length) {
  const auto history_row = ga_island_history_layout().row_size();
  const auto islands = outcome.island_best_genomes.size() / length;
  copy_padded_rows<std::byte>(outcome.island_history, islands * history_row,
                              shape.islands * history_row, blocks[0]);
  std::copy(outcome.island_best.begin(), outcome.island_best.end(), blocks[1].begin());
  copy_padded_rows<std::int64_t>(outcome.island_best_genomes, length, shape.genome_length,
                                 blocks[2]);
  std::copy(outcome.migrations.begin(), outcome.migrations.end(), blocks[3].begin());
}

// A finished task's blocks of the datasets of ga_datasets, which start out missing.
void fill_blocks(const std::vector<std::span<std::byte>>& blocks, const GaOutcome& outcome,
                 const GaSpec::Binding& ga, const GaShape& shape, const PointFacts& point) {
  auto block = blocks.begin();
  const auto copy_into = [](std::span<const std::byte> from, std::span<std::byte> to) {
    std::copy(from.begin(), from.end(), to.begin());
  };
  copy_into(outcome.history, *block++);
  copy_into(outcome.best, *block++);
  const auto length = point.genome_length;
  copy_padded_rows<std::int64_t>(outcome.best_genomes, length, shape.genome_length, *block++);
  if (!ga.validation_fields.empty()) copy_into(outcome.validation, *block++);
  if (!shape.level.empty()) {
    copy_padded_levels(outcome.levels, point.level_shape, shape.level, *block++);
  }
  if (shape.islands > 1) {
    fill_island_blocks(std::span<const std::span<std::byte>, 4>(block, 4), outcome, shape, length);
    block += 4;
  }
  if (shape.objectives > 0) {
    copy_into(outcome.pareto_history, *block++);
    const auto population = outcome.fronts.size() /
                            std::max<std::size_t>(outcome.generations_run, 1) / shape.objectives;
    copy_padded_rows<double>(outcome.fronts, population * shape.objectives,
                             shape.population * shape.objectives, *block++);
  }
}

const GaSpec::Binding& ga_of(const KernelEntry& kernel) { return *kernel.binding<GaSpec>(); }

// Collective: the kernel's objectives as the `ga` group's `objectives` (field names) and
// `minimize` (1 where smaller is better), and /ga/objective_reference (point x objective).
void write_objectives(ResultFile& file, const std::vector<ObjectiveSpec>& objectives,
                      const std::vector<PointFacts>& facts) {
  std::vector<std::string> names;
  std::vector<std::int64_t> minimize;
  for (const auto& objective : objectives) {
    names.push_back(objective.field);
    minimize.push_back(objective.minimize ? 1 : 0);
  }
  file.write_attribute("ga", "objectives", names);
  file.write_attribute("ga", "minimize", minimize);
  std::vector<double> reference;
  for (const auto& point : facts) {
    reference.insert(reference.end(), point.objective_reference.begin(),
                     point.objective_reference.end());
  }
  auto set = file.create_array("ga/objective_reference", h5::Datatype::float64(),
                               {facts.size(), objectives.size()});
  file.write_whole(set, h5::Datatype::float64(), reference.data());
  file.write_attribute("ga/objective_reference", "doc",
                       std::string("each point's reference point: the worst value of each "
                                   "objective that the hypervolume counts from"));
}

}  // namespace

bool records_fronts(const config::Experiment& experiment) {
  return std::any_of(experiment.points.begin(), experiment.points.end(),
                     [](const config::Point& point) {
                       return GaSettings::from(point.driver).breeding == GaBreeding::nsga2;
                     });
}

const Driver& GaSpec::driver() {
  static const GaDriver driver;
  return driver;
}

void GaDriver::run(DriverContext& context) const {
  const auto& experiment = context.experiment;
  const auto& ga = ga_of(context.kernel);
  PointModelCache<GaModel> models(experiment, ga.make);
  std::vector<GaSettings> settings;
  std::vector<std::uint64_t> point_units;  // evaluations of one uninterrupted task
  for (const auto& point : experiment.points) {
    const auto& last = settings.emplace_back(GaSettings::from(point.driver));
    // Elites keep their fitness, so later generations evaluate only the offspring.
    point_units.push_back(static_cast<std::uint64_t>(last.population) +
                          static_cast<std::uint64_t>(last.generations - 1) *
                              last.evaluations_per_generation());
  }
  const auto shape = ga_shape(experiment, context.facts);
  for (auto& point_settings : settings) {
    point_settings.record_islands = shape.islands > 1;
    point_settings.record_fronts = shape.objectives > 0;
  }
  TaskBlocks results(ga_datasets(ga, shape));

  GroupTaskPlan<GaSnapshot> plan;
  plan.ranks_per_task = settings.front().ranks_per_task;
  plan.point_units = point_units;
  plan.codec = ga_codec;
  plan.run = [&](std::uint64_t task, std::uint64_t point, const GaSnapshot* saved,
                 EvaluationGroup& group, const auto& blocks) {
    const auto outcome =
        models.at(point).run_task(settings[point], experiment.seed, task, group, saved);
    if (!outcome.stopped && group.rank() == 0) {
      fill_blocks(blocks(), outcome, ga, shape, context.facts[point]);
    }
    return UnitOutcome{outcome.stopped, outcome.evaluations, outcome.evaluations_before};
  };
  const auto group_sizes = run_group_tasks(context, results, plan);
  if (!group_sizes) return;
  auto& file = *context.file;
  write_genome_lengths(file, "ga", context.facts, "best_genomes", ga.genome_type);
  if (shape.objectives > 0) write_objectives(file, models.at(0).objectives(), context.facts);
  file.write_attribute("ga", "group_sizes", *group_sizes);
}

std::vector<TaskDataset> GaDriver::task_datasets(const config::Experiment& experiment,
                                                 const KernelEntry& kernel,
                                                 const std::vector<PointFacts>& facts) const {
  return ga_datasets(ga_of(kernel), ga_shape(experiment, facts));
}

void GaDriver::describe_tables(const config::Experiment& /*experiment*/,
                               const std::vector<PointFacts>& facts,
                               SegmentDescription& description) const {
  describe_genome_lengths("ga", facts, description);
}

Segment GaDriver::read_shard(const ShardReading& shard) const {
  return read_task_shard(shard,
                         TaskBlocks(task_datasets(shard.experiment, shard.kernel, shard.facts)));
}

PointFacts GaDriver::point_facts(const config::Experiment& experiment, const KernelEntry& kernel,
                                 std::size_t point) const {
  const auto model = ga_of(kernel).make(experiment.points[point].params);
  check_group_size_not_swept(experiment, point);
  const auto settings = GaSettings::from(experiment.points[point].driver);
  if (settings.breeding == GaBreeding::cma_es && ga_of(kernel).genome_type != GenomeType::real) {
    throw KernelError("ga.breeding: cma_es samples real genomes; the kernel '" + experiment.kernel +
                      "' has an encoded one (use breeding: tournament)");
  }
  if (settings.breeding == GaBreeding::nsga2 && !ga_of(kernel).objectives) {
    throw KernelError("ga.breeding: nsga2 sorts by several objectives; the kernel '" +
                      experiment.kernel + "' has one fitness (use breeding: tournament)");
  }
  std::vector<double> reference;
  if (ga_of(kernel).objectives) {
    const GaObjectives objectives(model->objectives(),
                                  ga_evaluation_layout(ga_of(kernel).evaluation_fields),
                                  experiment.kernel);
    for (const auto& objective : objectives.specs()) reference.push_back(objective.reference);
  }
  return {model->genome_length(), model->level_shape(), {}, 0, {}, std::move(reference)};
}

}  // namespace levelforge

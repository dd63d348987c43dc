// The `qd` driver (MAP-Elites, docs/drivers.md): tasks run by groups of ranks as the `ga`
// driver's (runner/drivers/group_tasks.hpp), each a QdRun whose archive, history and
// per-cell genomes, validation and levels are the task's blocks.

#include <functional>
#include <numeric>
#include <optional>

#include "runner/drivers/qd/qd_driver.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "runner/drivers/driver_context.hpp"
#include "runner/drivers/group_tasks.hpp"
#include "runner/drivers/task_datasets.hpp"

namespace levelforge {

namespace {

// The largest of every point in each dimension of the task-indexed datasets.
struct QdShape {
  std::size_t iterations = 0;  // history rows: iterations + 1
  std::size_t cells = 0;
  std::size_t genome_length = 0;
  std::vector<std::size_t> level;  // empty: the kernel renders no levels
  std::vector<MeasureAxis> axes;   // of the first point, for the measures' names
};

QdShape qd_shape(const config::Experiment& experiment, const std::vector<PointFacts>& facts) {
  QdShape shape;
  shape.axes = facts.front().axes;
  for (std::size_t p = 0; p < experiment.points.size(); ++p) {
    const auto settings = QdSettings::from(experiment.points[p].driver);
    shape.iterations = std::max(shape.iterations, static_cast<std::size_t>(settings.iterations));
    shape.cells = std::max(shape.cells, archive_of(facts[p], settings).count());
  }
  shape.genome_length = longest_genome(facts);
  shape.level = largest_level_shape(facts);
  return shape;
}

// The qd driver's per-task datasets, in the order fill_blocks fills them.
std::vector<TaskDataset> qd_datasets(const QdSpec::Binding& qd, const QdShape& shape) {
  std::vector<TaskDataset> datasets{
      task_table("qd/history", qd_history_layout(), {shape.iterations + 1},
                 "one row per iteration; iteration 0 is the initial random genomes"),
      task_table("qd/archive", qd_archive_layout(qd.evaluation_fields, shape.axes), {shape.cells},
                 "one row per cell of the archive: its elite's evaluation when occupied"),
      task_genome_array("qd/archive_genomes", {shape.cells, shape.genome_length}, qd.genome_type,
                        "the genome of each cell's elite; missing (-1, NaN for real genomes) "
                        "for an empty cell and as padding")};
  if (!qd.validation_fields.empty()) {
    datasets.push_back(task_table("qd/validation", RecordLayout(qd.validation_fields),
                                  {shape.cells}, "each elite measured again on its own streams"));
  }
  if (!shape.level.empty()) {
    std::vector<hsize_t> block{shape.cells};
    block.insert(block.end(), shape.level.begin(), shape.level.end());
    datasets.push_back(task_uint8_array(
        "qd/archive_levels", std::move(block),
        "the level of each cell's elite before play; 255: empty or outside a smaller level"));
  }
  return datasets;
}

const SnapshotCodec<QdSnapshot> qd_codec{
    "QD",
    &QdSnapshot::iterations_run,
    &QdSnapshot::evaluations,
    {{"snapshot.cells", &QdSnapshot::cells}, {"snapshot.genomes", &QdSnapshot::genomes}},
    {{"snapshot.rows", &QdSnapshot::elite_rows},
     {"snapshot.history", &QdSnapshot::history},
     {"snapshot.search", &QdSnapshot::search}}};

// A finished task's blocks of the datasets of qd_datasets, which start out missing; rows of
// a point with fewer cells stay missing.
void fill_blocks(const std::vector<std::span<std::byte>>& blocks, const QdOutcome& outcome,
                 const QdSpec::Binding& qd, const QdShape& shape, const PointFacts& point) {
  auto block = blocks.begin();
  const auto copy_into = [](std::span<const std::byte> from, std::span<std::byte> to) {
    std::copy(from.begin(), from.end(), to.begin());
  };
  copy_into(outcome.history, *block++);
  copy_into(outcome.archive, *block++);
  copy_padded_rows<std::int64_t>(outcome.genomes, point.genome_length, shape.genome_length,
                                 *block++);
  if (!qd.validation_fields.empty()) copy_into(outcome.validation, *block++);
  if (!shape.level.empty())
    copy_padded_levels(outcome.levels, point.level_shape, shape.level, *block);
}

// The measure ranges of the points (qd), point by point, measure by measure: what
// /qd/measure_low, _high and _bins hold (bins 0 for a point of CVT cells); the cells of each
// point (/qd/cells); and when a point has CVT cells, every point's centroids (/qd/centroids,
// point x cell x measure, NaN for a grid and as padding).
struct MeasureGrid {
  std::vector<double> low;
  std::vector<double> high;
  std::vector<std::int64_t> bins;
  std::vector<std::int64_t> cells;
  std::vector<double> centroids;
};

MeasureGrid measure_grid(const config::Experiment& experiment, const std::vector<PointFacts>& facts,
                         std::size_t most_cells) {
  MeasureGrid grid;
  const bool voronoi = std::any_of(
      facts.begin(), facts.end(), [](const PointFacts& point) { return !point.centroids.empty(); });
  for (std::size_t p = 0; p < facts.size(); ++p) {
    const auto& point = facts[p];
    const auto archive = archive_of(point, QdSettings::from(experiment.points[p].driver));
    for (const auto& axis : point.axes) {
      grid.low.push_back(axis.low);
      grid.high.push_back(axis.high);
      grid.bins.push_back(archive.kind() == QdArchive::grid ? axis.bins : 0);
    }
    grid.cells.push_back(static_cast<std::int64_t>(archive.count()));
    if (!voronoi) continue;
    auto padded = point.centroids;
    padded.resize(most_cells * point.axes.size(), std::numeric_limits<double>::quiet_NaN());
    grid.centroids.insert(grid.centroids.end(), padded.begin(), padded.end());
  }
  return grid;
}

// /qd/measure_low, _high and _bins (point x measure), named by the group's `measures`.
void write_axes(ResultFile& file, const config::Experiment& experiment,
                const std::vector<PointFacts>& facts, const QdShape& shape) {
  const auto measures = shape.axes.size();
  const auto [low, high, bins, cells, centroids] = measure_grid(experiment, facts, shape.cells);
  const std::vector<hsize_t> dims{facts.size(), measures};
  auto low_set = file.create_array("qd/measure_low", h5::Datatype::float64(), dims);
  file.write_whole(low_set, h5::Datatype::float64(), low.data());
  file.write_attribute("qd/measure_low", "doc",
                       std::string("lower end of each point's measure ranges"));
  auto high_set = file.create_array("qd/measure_high", h5::Datatype::float64(), dims);
  file.write_whole(high_set, h5::Datatype::float64(), high.data());
  file.write_attribute("qd/measure_high", "doc",
                       std::string("upper end of each point's measure ranges"));
  auto bins_set = file.create_array("qd/measure_bins", h5::Datatype::int64(), dims);
  file.write_whole(bins_set, h5::Datatype::int64(), bins.data());
  file.write_attribute("qd/measure_bins", "doc",
                       std::string("grid cells along each measure, per point; 0 for CVT cells"));
  auto cells_set = file.create_array("qd/cells", h5::Datatype::int64(), {facts.size()});
  file.write_whole(cells_set, h5::Datatype::int64(), cells.data());
  file.write_attribute("qd/cells", "doc", std::string("cells of each point's archive"));
  if (!centroids.empty()) {
    auto set = file.create_array("qd/centroids", h5::Datatype::float64(),
                                 {facts.size(), shape.cells, measures});
    file.write_whole(set, h5::Datatype::float64(), centroids.data());
    file.write_attribute("qd/centroids", "doc",
                         std::string("each point's CVT centroids in the measures' units; NaN "
                                     "for a grid and as padding"));
  }
  std::vector<std::string> names;
  for (const auto& axis : shape.axes) names.push_back(axis.name);
  file.write_attribute("qd", "measures", names);
}

const QdSpec::Binding& qd_of(const KernelEntry& kernel) { return *kernel.binding<QdSpec>(); }

template <class T>
std::vector<std::byte> bytes_of(const std::vector<T>& values) {
  const auto bytes = std::as_bytes(std::span(values));
  return {bytes.begin(), bytes.end()};
}

}  // namespace

const Driver& QdSpec::driver() {
  static const QdDriver driver;
  return driver;
}

void QdDriver::run(DriverContext& context) const {
  const auto& experiment = context.experiment;
  const auto& qd = qd_of(context.kernel);
  PointModelCache<QdModel> models(experiment, qd.make);
  std::vector<QdSettings> settings;
  std::vector<std::uint64_t> point_units;
  for (const auto& point : experiment.points) {
    point_units.push_back(settings.emplace_back(QdSettings::from(point.driver)).evaluations());
  }
  const auto shape = qd_shape(experiment, context.facts);
  TaskBlocks results(qd_datasets(qd, shape));
  std::vector<ArchiveCells> archives;
  for (std::size_t p = 0; p < context.facts.size(); ++p)
    archives.push_back(archive_of(context.facts[p], settings[p]));

  GroupTaskPlan<QdSnapshot> plan;
  plan.ranks_per_task = settings.front().ranks_per_task;
  plan.point_units = point_units;
  plan.codec = qd_codec;
  plan.run = [&](std::uint64_t task, std::uint64_t point, const QdSnapshot* saved, QdGroup& group,
                 const auto& blocks) {
    const auto outcome = models.at(point).run_task(settings[point], archives[point],
                                                   experiment.seed, task, group, saved);
    if (!outcome.stopped && group.rank() == 0) {
      fill_blocks(blocks(), outcome, qd, shape, context.facts[point]);
    }
    return UnitOutcome{outcome.stopped, outcome.evaluations, outcome.evaluations_before};
  };
  const auto group_sizes = run_group_tasks(context, results, plan);
  if (!group_sizes) return;
  write_axes(*context.file, experiment, context.facts, shape);
  write_genome_lengths(*context.file, "qd", context.facts, "archive_genomes", qd.genome_type);
  context.file->write_attribute("qd", "group_sizes", *group_sizes);
}

std::vector<TaskDataset> QdDriver::task_datasets(const config::Experiment& experiment,
                                                 const KernelEntry& kernel,
                                                 const std::vector<PointFacts>& facts) const {
  return qd_datasets(qd_of(kernel), qd_shape(experiment, facts));
}

// The genome lengths, and the measure grid the archives are cut by.
void QdDriver::describe_tables(const config::Experiment& experiment,
                               const std::vector<PointFacts>& facts,
                               SegmentDescription& description) const {
  describe_genome_lengths("qd", facts, description);
  const auto& axes = facts.front().axes;
  if (axes.empty()) return;
  auto& layouts = description.layouts;
  auto& tables = description.tables;
  const auto most_cells = qd_shape(experiment, facts).cells;
  const auto grid = measure_grid(experiment, facts, most_cells);
  const std::vector<hsize_t> measures{axes.size()};
  tables.put_bytes("measure_low", bytes_of(grid.low));
  tables.put_bytes("measure_high", bytes_of(grid.high));
  tables.put_ints("measure_bins", grid.bins);
  tables.put_ints("cells", grid.cells);
  layouts.push_back({"measure_low", h5::Datatype::float64(), measures, "qd/measure_low", {}});
  layouts.push_back({"measure_high", h5::Datatype::float64(), measures, "qd/measure_high", {}});
  layouts.push_back({"measure_bins", h5::Datatype::int64(), measures, "qd/measure_bins", {}});
  layouts.push_back({"cells", h5::Datatype::int64(), {}, "qd/cells", {}});
  if (!grid.centroids.empty()) {
    tables.put_bytes("centroids", bytes_of(grid.centroids));
    layouts.push_back(
        {"centroids", h5::Datatype::float64(), {most_cells, axes.size()}, "qd/centroids", {}});
  }
  std::vector<std::byte> names;  // NUL-terminated, as failure messages are
  for (const auto& axis : axes) {
    const auto name = std::as_bytes(std::span(axis.name.c_str(), axis.name.size() + 1));
    names.insert(names.end(), name.begin(), name.end());
  }
  tables.put_bytes("measure_names", std::move(names));
}

Segment QdDriver::read_shard(const ShardReading& shard) const {
  return read_task_shard(shard,
                         TaskBlocks(task_datasets(shard.experiment, shard.kernel, shard.facts)));
}

PointFacts QdDriver::point_facts(const config::Experiment& experiment, const KernelEntry& kernel,
                                 std::size_t point) const {
  const auto model = qd_of(kernel).make(experiment.points[point].params);
  check_group_size_not_swept(experiment, point);
  const auto settings = QdSettings::from(experiment.points[point].driver);
  if (settings.emitter != QdEmitter::kernel && qd_of(kernel).genome_type != GenomeType::real) {
    throw KernelError("qd.emitter: " + std::string(qd_emitter_words.name(settings.emitter)) +
                      " breeds real genomes; the kernel '" + experiment.kernel +
                      "' has an encoded one (use emitter: kernel)");
  }
  const bool cma = settings.emitter == QdEmitter::cma_me || settings.emitter == QdEmitter::cma_mae;
  if (cma && settings.archive == QdArchive::novelty) {
    throw KernelError("qd.emitter: " + std::string(qd_emitter_words.name(settings.emitter)) +
                      " ranks by cells, which a novelty archive does not have (use "
                      "emitter: kernel or iso_line with archive: novelty)");
  }
  if (!cma && settings.line_emitters > 0) {
    throw KernelError(
        "qd.line_emitters: Iso+LineDD emitters join the CMA-ES emitters of "
        "emitter cma_me or cma_mae; qd.emitter is " +
        std::string(qd_emitter_words.name(settings.emitter)) +
        " (emitter: iso_line breeds the whole batch by Iso+LineDD)");
  }
  const auto all_emitters = settings.emitters + settings.line_emitters;
  if (cma && (settings.batch % all_emitters != 0 || settings.batch / all_emitters < 2)) {
    throw KernelError("qd.batch = " + std::to_string(settings.batch) +
                      " must be a multiple of qd.emitters + qd.line_emitters = " +
                      std::to_string(all_emitters) + " with at least 2 candidates an emitter");
  }
  auto archive = archive_cells(settings, model->measures(), experiment.seed);
  return {model->genome_length(), model->level_shape(), archive.axes(), 0, archive.centroids(), {}};
}

ArchiveCells archive_of(const PointFacts& point, const QdSettings& settings) {
  if (settings.archive == QdArchive::novelty)
    return ArchiveCells::novelty(point.axes, static_cast<std::size_t>(settings.cells));
  if (point.centroids.empty()) return ArchiveCells(point.axes);
  return {point.axes, point.centroids};
}

}  // namespace levelforge

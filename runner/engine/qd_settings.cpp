#include "runner/engine/qd_settings.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/api/text.hpp"

namespace levelforge {

namespace {

constexpr std::uint64_t most_cells = std::uint64_t{1} << 24;

}  // namespace

QdSettings QdSettings::from(const ParamSet& section) {
  QdSettings settings;
  settings.archive = section.choice_as("archive", qd_archive_words);
  settings.bins = section.integer("bins");
  settings.cells = section.integer("cells");
  settings.cvt_samples = section.integer("cvt_samples");
  settings.k_neighbors = section.integer("k_neighbors");
  settings.novelty_threshold = section.real("novelty_threshold");
  settings.local_competition = section.boolean("local_competition");
  settings.init = section.integer("init");
  settings.iterations = section.integer("iterations");
  settings.batch = section.integer("batch");
  settings.emitter = section.choice_as("emitter", qd_emitter_words);
  settings.iso_sigma = section.real("iso_sigma");
  settings.line_sigma = section.real("line_sigma");
  settings.emitters = section.integer("emitters");
  settings.line_emitters = section.integer("line_emitters");
  settings.sigma0 = section.real("sigma0");
  settings.archive_learning_rate = section.real("archive_learning_rate");
  settings.threshold_min = section.real("threshold_min");
  settings.mutation_rate = section.real("mutation_rate");
  settings.crossover_rate = section.real("crossover_rate");
  settings.score_offset = section.real("score_offset");
  settings.ranks_per_task = section.integer("ranks_per_task");
  settings.measures = ParamTable{std::make_shared<const DataNode>(section.table("measures"))};
  return settings;
}

std::int64_t MeasureAxis::bin(double value) const {
  const double scaled = unit(value) * static_cast<double>(bins);
  if (!(scaled >= 0)) return 0;  // below the range
  if (scaled >= static_cast<double>(bins)) return bins - 1;
  return std::min(static_cast<std::int64_t>(scaled), bins - 1);
}

std::vector<MeasureAxis> measure_axes(const QdSettings& settings,
                                      const std::vector<MeasureSpec>& measures) {
  std::vector<MeasureAxis> axes;
  axes.reserve(measures.size());
  for (const auto& measure : measures) {
    axes.push_back({measure.name, measure.low, measure.high, settings.bins});
  }
  const DataNode& overrides = *settings.measures.root;
  // The default is an empty list; a config gives a map.
  if (overrides.kind() != DataNode::Kind::list || !overrides.items().empty()) {
    for (const auto& member : overrides.members()) {
      const std::string& name = member.first;
      const DataNode& node = member.second;
      const auto found = std::find_if(axes.begin(), axes.end(),
                                      [&](const MeasureAxis& axis) { return axis.name == name; });
      if (found == axes.end()) {
        std::string known;
        for (const auto& axis : axes) {
          if (!known.empty()) known += ", ";
          known += axis.name;
        }
        std::string problem =
            "the kernel has no measure " + quoted_value(name) + " (its measures: ";
        problem += known;
        problem += ")";
        node.fail(problem);
      }
      node.check_keys({"bins", "range"});
      found->bins = node.integer_or("bins", found->bins, 1, 1 << 20);
      if (const DataNode* range = node.find("range")) {
        const auto& bounds = range->items();
        if (bounds.size() != 2) range->fail("expected [low, high]");
        constexpr double big = std::numeric_limits<double>::max();
        found->low = bounds[0].real(-big, big);
        found->high = bounds[1].real(-big, big);
        if (!(found->low < found->high)) range->fail("expected low < high");
      }
    }
  }
  if (cell_count(axes) > most_cells) {
    throw KernelError("the qd archive would have " + std::to_string(cell_count(axes)) +
                      " cells (qd.bins per measure): at most " + std::to_string(most_cells));
  }
  return axes;
}

std::int64_t cell_of(const std::vector<MeasureAxis>& axes, std::span<const double> measures) {
  std::int64_t cell = 0;
  for (std::size_t m = 0; m < axes.size(); ++m)
    cell = cell * axes[m].bins + axes[m].bin(measures[m]);
  return cell;
}

std::uint64_t cell_count(const std::vector<MeasureAxis>& axes) {
  std::uint64_t cells = 1;
  for (const auto& axis : axes) {
    cells *= static_cast<std::uint64_t>(axis.bins);
    if (cells > most_cells) return most_cells + 1;
  }
  return cells;
}

}  // namespace levelforge

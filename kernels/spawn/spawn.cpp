#include "kernels/spawn/spawn.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>

namespace levelforge::kernels {

using spawn::Metrics;
using spawn::Recency;
using spawn::Rules;
using spawn::Simulator;

namespace {

constexpr double max_difficulty = 1e6;

std::vector<spawn::SpawnObject> objects_from(const ParamSet& params) {
  return spawn::parse_objects(params.table("objects"));
}

// The required difficulty of each level: curve(level index) * base_difficulty.
std::vector<double> required_from(const ParamSet& params) {
  auto keys = spawn::parse_keyframes(params.table("keyframes"), max_difficulty);
  // No keyframes: the document's default curve, AnimationCurve.Constant(0, 10, 1).
  if (keys.empty()) keys = {{0, 1}, {10, 1}};
  const spawn::Curve curve(std::move(keys), params.choice_as<spawn::Wrap>(
                                                "wrap", {{"loop", spawn::Wrap::loop},
                                                         {"clamp", spawn::Wrap::clamp},
                                                         {"ping_pong", spawn::Wrap::ping_pong}}));
  const double base = params.real("base_difficulty");
  std::vector<double> required(static_cast<std::size_t>(params.integer("levels")));
  for (std::size_t level = 0; level < required.size(); ++level) {
    required[level] = curve(static_cast<double>(level)) * base;
  }
  return required;
}

Rules rules_from(const ParamSet& params) {
  Rules rules;
  rules.default_weight = params.real("default_weight");
  rules.weight_increment = params.real("weight_increment");
  rules.recency = params.choice_as<Recency>(
      "recency", {{"all", Recency::all}, {"window", Recency::window}, {"decay", Recency::decay}});
  rules.window = static_cast<int>(params.integer("window"));
  rules.decay = params.real("decay");
  rules.multiset = params.boolean("multiset");
  rules.repeat_factor = params.real("repeat_factor");
  return rules;
}

// The measures the sweep, the GA and its validation share; `suffix` says over what.
std::vector<FieldSpec> variety_fields(const std::string& prefix, const std::string& suffix) {
  return {
      real_field(prefix + "error_share", "sum |required - spawned| / sum required" + suffix),
      real_field(prefix + "repetition",
                 "share of consecutive levels with the same set of object types" + suffix),
      real_field(prefix + "mean_types", "distinct object types per level" + suffix),
      real_field(prefix + "entropy",
                 "Shannon entropy of a level's spawned mix (bits), mean over levels" + suffix),
      real_field(prefix + "mean_longest_absence",
                 "levels of an object's longest absence after it became eligible, mean over "
                 "runs and objects" +
                     suffix),
  };
}

// [0, max_increment], [0, 1] for the decay and each object's max ratio.
std::vector<GeneBounds> genome_bounds(const ParamSet& params) {
  std::vector<GeneBounds> bounds{{0, params.real("max_increment")}, {0, 1}};
  bounds.resize(2 + objects_from(params).size(), {0, 1});
  return bounds;
}

Record variety_record(const Metrics& m) {
  return {m.error_share, m.repetition, m.mean_types, m.entropy, m.mean_longest_absence};
}

// The `first_run` text field (spawn::format_levels); `over` says which run it shows.
FieldSpec first_run_field(const std::string& name, const std::string& over) {
  return text_field(name, spawn::recorded_levels * spawn::level_digits,
                    "the objects on each of the first " + std::to_string(spawn::recorded_levels) +
                        " levels of " + over + ": " + std::to_string(spawn::level_digits) +
                        " hex digits per level, bit K for the object at table position K");
}

// Room for `first_run`: the first recorded_levels levels of a run of `levels` levels.
struct FirstRun {
  std::array<spawn::Mask, spawn::recorded_levels> present{};
  std::size_t levels;

  explicit FirstRun(std::size_t run_levels)
      : levels(std::min(run_levels, spawn::recorded_levels)) {}
  std::span<spawn::Mask> span() { return {present.data(), levels}; }
  [[nodiscard]] std::string text() const { return spawn::format_levels({present.data(), levels}); }
};

}  // namespace

std::vector<ParamSpec> Spawn::parameters() {
  return {
      table_param("objects",
                  "spawnable objects: list of {name, strength, min_difficulty, max_ratio}"),
      table_param("keyframes", "difficulty curve: list of {time, value}; none: the constant 1"),
      choice_param("wrap", {"loop", "clamp", "ping_pong"},
                   "the curve outside its keyframes' span (the document loops)"),
      real_param("base_difficulty", 20, 0, max_difficulty,
                 "required difficulty = curve(level index) * base_difficulty"),
      int_param("levels", 50, 1, 100'000, "levels per run"),
      int_param("runs", 10'000, 1, 100'000'000,
                "independent runs per task (per evaluation under ga)"),
      real_param("default_weight", 1, 0, 1e9, "weight of every candidate"),
      real_param("weight_increment", 10, 0, 1e9,
                 "weight added per earlier level without the object (ga: tuned)"),
      choice_param("recency", {"all", "window", "decay"},
                   "levels counted: all earlier, the last `window`, or each decayed by age"),
      int_param("window", 3, 1, 64, "recency window: the levels counted"),
      real_param("decay", 0.5, 0, 1, "recency decay: factor per level of age (ga: tuned)"),
      bool_param("multiset", false, "a spawned object may be drawn again in the same level"),
      real_param("repeat_factor", 0.5, 0, 1, "multiset: weight factor after each spawn"),
      real_param("max_error_share", 0.1, 0, 1e9,
                 "ga: the bound on sum |error| / sum required difficulty"),
      real_param("max_increment", 100, 0.001, 1e6, "ga: the weight increment's range is [0, this]"),
      int_param("validation_runs", 10'000, 1, 100'000'000, "ga: runs when re-measuring the best"),
  };
}

Spawn::Spawn(const ParamSet& params)
    : RealGenome(genome_bounds(params)),
      objects_(objects_from(params)),
      required_(required_from(params)),
      rules_(rules_from(params)),
      simulator_(objects_, required_, rules_),
      runs_(params.integer("runs")),
      validation_runs_(params.integer("validation_runs")),
      max_error_share_(params.real("max_error_share")) {}

MemoryEstimate Spawn::memory_estimate(const ParamSet& params) {
  const auto levels = static_cast<std::uint64_t>(params.integer("levels"));
  const std::string levels_key = "params.levels = " + std::to_string(levels) + " levels";
  constexpr std::uint64_t plan_bytes = sizeof(spawn::LevelPlan);
  MemoryEstimate estimate;
  // required_ and the simulator's plans.
  estimate.model_bytes = levels * (sizeof(double) + plan_bytes);
  estimate.model_cause =
      levels_key + " x " + std::to_string(sizeof(double) + plan_bytes) + " bytes";
  // simulator_for: the plans of the genome's rules (a sweep run allocates nothing).
  estimate.working_bytes = levels * plan_bytes;
  estimate.working_cause = levels_key + " x " + std::to_string(plan_bytes) + " bytes";
  estimate.genome_bytes = sizeof(Genome) + sizeof(double) * (2 + spawn::max_objects);
  return estimate;
}

// ---------------------------------------------------------------------------------------
// sweep

std::vector<FieldSpec> Spawn::record_fields() {
  std::vector<FieldSpec> fields = {
      real_field("mean_required", "required difficulty per level"),
      real_field("mean_spawned", "spawned difficulty (sum of strength * quantity) per level"),
      real_field("mean_abs_error", "|required - spawned| per level"),
  };
  for (auto& field : variety_fields("", "")) fields.push_back(field);
  fields.push_back(real_field("mix_entropy", "Shannon entropy of the objects' shares (bits)"));
  fields.push_back(int_field("max_longest_absence",
                             "the longest absence of any object in any run, after eligibility"));
  fields.push_back(
      real_field("stalled_share", "share of levels on which the document's rule never ends"));
  fields.push_back(real_field("mean_draws", "weighted draws per level"));
  for (std::size_t i = 0; i < spawn::max_objects; ++i) {
    fields.push_back(real_field("share_" + std::to_string(i),
                                "object " + std::to_string(i) + "'s share of all spawns"));
  }
  for (std::size_t i = 0; i < spawn::max_objects; ++i) {
    fields.push_back(real_field(
        "absence_" + std::to_string(i),
        "object " + std::to_string(i) + "'s longest absence after eligibility, mean over runs"));
  }
  fields.push_back(first_run_field("first_run", "the task's first run"));
  return fields;
}

Record Spawn::run(Rng& rng) const {
  FirstRun first(required_.size());
  const Metrics m = simulator_.measure(runs_, rng, first.span());
  Record record = {m.mean_required, m.mean_spawned, m.mean_abs_error};
  for (auto& value : variety_record(m)) record.push_back(value);
  record.insert(record.end(),
                {m.mix_entropy, m.max_longest_absence, m.stalled_share, m.mean_draws});
  record.insert(record.end(), m.share.begin(), m.share.end());
  record.insert(record.end(), m.absence.begin(), m.absence.end());
  record.emplace_back(first.text());
  return record;
}

// ---------------------------------------------------------------------------------------
// ga

Simulator Spawn::simulator_for(const Genome& genome) const {
  Rules rules = rules_;
  rules.weight_increment = genome[0];
  rules.decay = genome[1];
  auto objects = objects_;
  for (std::size_t i = 0; i < objects.size(); ++i) objects[i].max_ratio = genome[2 + i];
  return {objects, required_, rules};
}

// Uniform crossover: each gene from either parent.
std::pair<Spawn::Genome, Spawn::Genome> Spawn::crossover(const Genome& a, const Genome& b,
                                                         Rng& rng) const {
  Genome first = a;
  Genome second = b;
  for (std::size_t g = 0; g < first.size(); ++g) {
    if (rng.bernoulli(0.5)) std::swap(first[g], second[g]);
  }
  return {first, second};
}

// Each gene, with probability `rate`, moves by a uniform step of up to a tenth of its range
// and is clipped to it: small enough to refine a good setting.
void Spawn::mutate(Genome& genome, double rate, Rng& rng) const {
  for (std::size_t g = 0; g < genome.size(); ++g) {
    if (!rng.bernoulli(rate)) continue;
    const auto& range = bounds()[g];
    genome[g] = range.clip(genome[g] + (2 * rng.uniform() - 1) * range.width() / 10);
  }
}

std::vector<FieldSpec> Spawn::evaluation_fields() {
  std::vector<FieldSpec> fields = {
      real_field("weight_increment", "the genome's weight increment"),
      real_field("decay", "the genome's recency decay"),
  };
  for (auto& field : variety_fields("", "")) fields.push_back(field);
  fields.push_back(
      real_field("stalled_share", "share of levels on which the document's rule never ends"));
  return fields;
}

Evaluation Spawn::evaluate(const Genome& genome, Rng& rng) const {
  const Simulator simulator = simulator_for(genome);
  const Metrics m = simulator.measure(runs_, rng);
  Record record = {simulator.selector().rules().weight_increment,
                   simulator.selector().rules().decay};
  for (auto& value : variety_record(m)) record.push_back(value);
  record.emplace_back(m.stalled_share);
  return {fitness(m), std::move(record)};
}

double Spawn::fitness(const Metrics& metrics) const {
  const double excess = metrics.error_share - max_error_share_;
  return excess > 0 ? -excess : 1 - metrics.repetition;
}

// qd driver. The record: weight_increment, decay, then variety_record (error_share,
// repetition, mean_types, entropy, mean_longest_absence), then stalled_share.
std::vector<MeasureSpec> Spawn::measures() const {
  // The most types a level can hold: the objects eligible there (min_difficulty <= D) that
  // fit its budget at all (strength <= D), whatever the genome's ratios; mean over levels.
  double could_appear = 0;
  for (const double required : required_) {
    for (const auto& object : objects_) {
      if (object.min_difficulty <= required && object.strength <= required) could_appear += 1;
    }
  }
  const double most_types = std::max(1.0, could_appear / static_cast<double>(required_.size()));
  return {{"mean_types", 0, most_types,
           "distinct enemy types per level (the evaluation's mean_types), 0 .. the mean over "
           "levels of the objects that could appear there (min_difficulty and strength <= the "
           "required difficulty; at least 1)"},
          {"mean_longest_absence", 0, static_cast<double>(required_.size()) / 2,
           "levels an enemy stays away at most after it became eligible (the evaluation's "
           "mean_longest_absence), 0 .. levels / 2 (away half the run or more: the last cell); "
           "0 when no object is ever eligible"}};
}

std::vector<double> Spawn::measure(const Genome& /*genome*/, const Evaluation& evaluation) const {
  constexpr std::size_t mean_types_at = 4;
  constexpr std::size_t absence_at = 6;
  const double absence = std::get<double>(evaluation.record.at(absence_at));
  return {std::get<double>(evaluation.record.at(mean_types_at)),
          std::isnan(absence) ? 0.0 : absence};
}

Spawn::Genome Spawn::decode(std::span<const std::int64_t> stored) const {
  if (stored.size() != genome_length()) {
    throw KernelError("spawn: a stored genome has " + std::to_string(stored.size()) +
                      " genes, the object table needs " + std::to_string(genome_length()));
  }
  auto genome = RealGenome::decode(stored);
  for (std::size_t g = 0; g < genome.size(); ++g) {
    const auto& range = bounds()[g];
    if (!(genome[g] >= range.low && genome[g] <= range.high)) {
      throw KernelError("spawn: stored gene " + std::to_string(g) + " = " +
                        std::to_string(genome[g]) + " is outside [" + std::to_string(range.low) +
                        ", " + std::to_string(range.high) + "]");
    }
  }
  return genome;
}

std::vector<FieldSpec> Spawn::validation_fields() {
  auto fields = variety_fields("validated_", ", over validation_runs fresh runs");
  fields.insert(fields.begin(), real_field("validated_fitness",
                                           "the fitness of the validated_ fields (as fitness)"));
  fields.push_back(first_run_field("validated_first_run", "the first validation run"));
  return fields;
}

Record Spawn::validate(const Genome& genome, Rng& rng) const {
  FirstRun first(required_.size());
  const Metrics metrics = simulator_for(genome).measure(validation_runs_, rng, first.span());
  Record record{fitness(metrics)};
  for (auto& value : variety_record(metrics)) record.push_back(value);
  record.emplace_back(first.text());
  return record;
}

}  // namespace levelforge::kernels

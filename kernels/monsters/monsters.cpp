#include "kernels/monsters/monsters.hpp"

#include <cmath>
#include <string>

namespace levelforge::kernels {
namespace {

using monsters::Motive;
using monsters::WorldOutcome;

// Genome positions, with the range each gene is drawn and mutated in.
struct Gene {
  std::int32_t min, max;
};
constexpr std::array<Gene, 6> genes = {{{0, 20}, {0, 20}, {0, 20}, {0, 6}, {0, 20}, {1, 10}}};

std::vector<GeneBounds> gene_bounds() {
  std::vector<GeneBounds> bounds;
  bounds.reserve(genes.size());
  for (const auto& gene : genes)
    bounds.push_back({static_cast<double>(gene.min), static_cast<double>(gene.max)});
  return bounds;
}

// Per-task statistics over the worlds: mean and sample standard deviation.
class Tally {
 public:
  void add(double value) {
    ++count_;
    const double delta = value - mean_;
    mean_ += delta / static_cast<double>(count_);
    squares_ += delta * (value - mean_);
  }
  [[nodiscard]] double mean() const { return mean_; }
  [[nodiscard]] double std() const {
    return count_ > 1 ? std::sqrt(squares_ / static_cast<double>(count_ - 1)) : 0.0;
  }

 private:
  std::int64_t count_ = 0;
  double mean_ = 0;
  double squares_ = 0;
};

struct Summary {
  std::int64_t worlds = 0;
  std::int64_t survived = 0;
  Tally turns, dealt, taken, killed, flee, taken_items, cohesion;
  std::array<std::int64_t, monsters::motive_count + 1> motive_turns{};
  std::int64_t turns_in_sight = 0;
  std::array<std::int64_t, monsters::motive_count + 1> motive_turns_in_sight{};

  void add(const WorldOutcome& world) {
    turns_in_sight += world.turns_in_sight;
    for (std::size_t k = 0; k < motive_turns_in_sight.size(); ++k) {
      motive_turns_in_sight[k] += world.motive_turns_in_sight[k];
    }
    ++worlds;
    survived += world.survived ? 1 : 0;
    turns.add(world.turns_survived);
    dealt.add(world.damage_dealt);
    taken.add(world.damage_taken);
    killed.add(world.monsters_killed);
    flee.add(world.flee_events);
    taken_items.add(world.items_taken);
    cohesion.add(world.cohesion);
    for (std::size_t k = 0; k < motive_turns.size(); ++k) motive_turns[k] += world.motive_turns[k];
  }
  [[nodiscard]] double p_survive() const {
    return static_cast<double>(survived) / static_cast<double>(worlds);
  }
  [[nodiscard]] std::int64_t decisions() const {
    std::int64_t total = 0;
    for (const auto turns_won : motive_turns) total += turns_won;
    return total;
  }
  // Of the monster-turns that saw an enemy, the share `motive` won: the response to an
  // encounter, apart from how often encounters happen.
  [[nodiscard]] double share_in_sight(Motive motive) const {
    return turns_in_sight == 0
               ? 0.0
               : static_cast<double>(motive_turns_in_sight[static_cast<std::size_t>(motive)]) /
                     static_cast<double>(turns_in_sight);
  }
  [[nodiscard]] double share(Motive motive) const {
    const auto total = decisions();
    return total == 0 ? 0.0
                      : static_cast<double>(motive_turns[static_cast<std::size_t>(motive)]) /
                            static_cast<double>(total);
  }
};

constexpr std::array<std::pair<Motive, std::string_view>, 6> shares = {{
    {Motive::fear, "fear"},
    {Motive::aggression, "aggression"},
    {Motive::desire, "desire"},
    {Motive::misc, "misc"},
    {Motive::wander, "wander"},
    {Motive::none, "none"},
}};

// The catalogue when a config names none: one species, configs/species/goblin.yaml's.
DataNode default_catalogue() {
  const auto value = [](const char* text) { return DataNode::scalar(text); };
  const auto map = [](std::vector<std::pair<std::string, DataNode>> members) {
    return DataNode::map(std::move(members));
  };
  return DataNode::list({map({
      {"name", value("goblin")},
      {"strength", value("2")},
      {"hp", value("6")},
      {"perception", value("5")},
      {"confusion", value("0.05")},
      {"motives", map({{"aggression", value("3")},
                       {"fear", value("3")},
                       {"desire", value("2")},
                       {"wander", value("1")}})},
      {"wants", map({{"gold", value("3")}, {"weapon", value("1")}})},
      {"relations", map({{"hero", value("-2")}, {"goblin", value("2")}})},
      {"hates", map({{"hero", value("1")}})},
  })});
}

int override_value(const ParamSet& params, std::string_view name) {
  return static_cast<int>(params.integer(name));
}

}  // namespace

std::vector<ParamSpec> Monsters::parameters() {
  return {
      table_param("species", "the species catalogue: a list of species (docs/monsters.md)",
                  default_catalogue()),
      text_param("monster", "goblin",
                 "species placed, one per group in turn: a name, or names joined by '+'"),
      choice_param("map", {"room", "dungeon"}, "one open room, or rooms and corridors"),
      int_param("width", 24, 8, 64, "map columns"),
      int_param("height", 16, 8, 64, "map rows"),
      int_param("worlds", 1000, 1, 10'000'000, "independent worlds per task"),
      int_param("turns", 200, 1, 100'000, "turns per world"),
      int_param("groups", 4, 1, monsters::max_groups, "monster groups placed"),
      int_param("group_size", 5, 1, monsters::max_monsters, "monsters per group"),
      int_param("gold", 6, 0, 32, "gold piles on the floor"),
      int_param("food", 3, 0, 16, "food on the floor (heals the hero 5 HP)"),
      int_param("weapons", 2, 0, 16, "weapons on the floor (+1 hero strength)"),
      choice_param("hero", {"cautious", "aggressive"},
                   "cautious flees when wounded; aggressive hunts once the floor is bare"),
      int_param("hero_hp", 40, 1, 100'000, "the hero's hit points"),
      int_param("hero_strength", 3, 1, 100, "the hero's combat strength"),
      real_param("hit_chance", 0.7, 0.0, 1.0, "chance that an attack or a shot hits"),
      int_param("pick_up_turns", 2, 1, 100, "turns a monster spends picking an item up"),
      int_param("aggression", -1, -1, monsters::max_weight,
                "base aggression of every placed species; -1: the species' own"),
      int_param("fear", -1, -1, monsters::max_weight, "base fear; -1: the species' own"),
      int_param("desire", -1, -1, monsters::max_weight, "base desire; -1: the species' own"),
      int_param("wander", -1, -1, 8, "base wander level; -1: the species' own"),
      int_param("misc", -1, -1, monsters::max_weight, "base misc (guard); -1: the species' own"),
      int_param("strength", -1, -1, 100, "combat strength; -1: the species' own"),
      choice_param("scoring", {"fast", "reference"},
                   "the structure-of-arrays scoring or the scalar reference (same results)"),
      real_param("target", 0.5, 0.0, 1.0, "ga: wanted probability that the hero survives"),
      int_param("validation_worlds", 2000, 1, 10'000'000,
                "ga: fresh worlds re-measuring each final best genome"),
  };
}

Monsters::Monsters(const ParamSet& params)
    : RealGenome(gene_bounds()),
      layout_(params.choice_as<monsters::Layout>(
          "map", {{"room", monsters::Layout::room}, {"dungeon", monsters::Layout::dungeon}})),
      scoring_(params.choice_as<monsters::Scoring>(
          "scoring",
          {{"fast", monsters::Scoring::fast}, {"reference", monsters::Scoring::reference}})),
      width_(static_cast<int>(params.integer("width"))),
      height_(static_cast<int>(params.integer("height"))),
      worlds_(params.integer("worlds")),
      validation_worlds_(params.integer("validation_worlds")),
      target_(params.real("target")) {
  scenario_.catalogue = monsters::read_species(params.table("species"));
  const std::string& placed = params.text("monster");
  for (std::size_t start = 0; start <= placed.size();) {
    const auto end = std::min(placed.find('+', start), placed.size());
    scenario_.placed.push_back(
        monsters::species_kind(scenario_.catalogue, placed.substr(start, end - start), "monster"));
    start = end + 1;
  }
  scenario_.overrides = {override_value(params, "aggression"), override_value(params, "fear"),
                         override_value(params, "desire"),     override_value(params, "wander"),
                         override_value(params, "misc"),       override_value(params, "strength")};
  scenario_.groups = static_cast<int>(params.integer("groups"));
  scenario_.group_size = static_cast<int>(params.integer("group_size"));
  if (scenario_.groups * scenario_.group_size > monsters::max_monsters) {
    throw KernelError("monsters: groups x group_size = " +
                      std::to_string(scenario_.groups * scenario_.group_size) + " exceeds " +
                      std::to_string(monsters::max_monsters) + " monsters per world");
  }
  scenario_.items = {static_cast<int>(params.integer("gold")),
                     static_cast<int>(params.integer("food")),
                     static_cast<int>(params.integer("weapons"))};
  scenario_.hero = params.choice_as<monsters::HeroPolicy>(
      "hero", {{"cautious", monsters::HeroPolicy::cautious},
               {"aggressive", monsters::HeroPolicy::aggressive}});
  scenario_.hero_hp = static_cast<int>(params.integer("hero_hp"));
  scenario_.hero_strength = static_cast<int>(params.integer("hero_strength"));
  scenario_.hit_chance = params.real("hit_chance");
  scenario_.pick_up_turns = static_cast<int>(params.integer("pick_up_turns"));
  scenario_.turns = static_cast<int>(params.integer("turns"));
}

namespace {

Summary play(const monsters::Scenario& scenario, monsters::Layout layout, int width, int height,
             std::int64_t worlds, monsters::Scoring scoring, Rng& rng) {
  // One map per task; the worlds on it differ in placement and in every draw after.
  const monsters::Map map = monsters::make_map(width, height, layout, rng);
  monsters::FastScorer scorer;
  Summary summary;
  for (std::int64_t w = 0; w < worlds; ++w) {
    summary.add(monsters::play_world(scenario, map, rng, scoring, scorer));
  }
  return summary;
}

}  // namespace

std::vector<FieldSpec> Monsters::record_fields() {
  std::vector<FieldSpec> fields = {
      int_field("worlds", "worlds simulated"),
      real_field("p_survive", "fraction of worlds whose hero is alive after all turns"),
      real_field("turns_mean", "turns the hero survived (all turns when alive)"),
      real_field("turns_std", "their sample standard deviation"),
      real_field("dealt_mean", "damage the hero dealt"),
      real_field("dealt_std", "its sample standard deviation"),
      real_field("taken_mean", "damage the hero took"),
      real_field("taken_std", "its sample standard deviation"),
      real_field("killed_mean", "monsters killed"),
      real_field("killed_std", "their sample standard deviation"),
      real_field("flee_mean", "flee events: monster-turns won by fear"),
      real_field("flee_std", "their sample standard deviation"),
      real_field("items_mean", "items picked up by monsters"),
      real_field("items_std", "their sample standard deviation"),
      real_field("cohesion_mean", "mean distance within groups (cells)"),
      real_field("cohesion_std", "its sample standard deviation over worlds"),
  };
  for (const auto& [motive, motive_name] : shares) {
    fields.push_back(real_field("share_" + std::string(motive_name),
                                "share of monster-turns won by " + std::string(motive_name)));
  }
  fields.push_back(int_field("decisions", "monster decisions made"));
  fields.push_back(
      real_field("aggression_in_sight",
                 "of the monster-turns with an enemy in sight, the share aggression won"));
  fields.push_back(real_field("fear_in_sight",
                              "of the monster-turns with an enemy in sight, the share fear won"));
  return fields;
}

Record Monsters::run(Rng& rng) const {
  const Summary s = play(scenario_, layout_, width_, height_, worlds_, scoring_, rng);
  Record record = {
      s.worlds,        s.p_survive(),  s.turns.mean(),       s.turns.std(),       s.dealt.mean(),
      s.dealt.std(),   s.taken.mean(), s.taken.std(),        s.killed.mean(),     s.killed.std(),
      s.flee.mean(),   s.flee.std(),   s.taken_items.mean(), s.taken_items.std(), s.cohesion.mean(),
      s.cohesion.std()};
  for (const auto& [motive, motive_name] : shares) record.emplace_back(s.share(motive));
  record.emplace_back(s.decisions());
  record.emplace_back(s.share_in_sight(Motive::aggression));
  record.emplace_back(s.share_in_sight(Motive::fear));
  return record;
}

std::vector<FieldSpec> Monsters::evaluation_fields() {
  return {real_field("p_survive", "hero survival over the evaluation's worlds"),
          real_field("turns_mean", "turns the hero survived"),
          real_field("flee_mean", "flee events per world"),
          real_field("share_aggression", "share of monster-turns won by aggression"),
          real_field("share_fear", "share of monster-turns won by fear")};
}

std::vector<FieldSpec> Monsters::validation_fields() {
  return {real_field("validated_fitness", "1 - |target - validated_p_survive|"),
          real_field("validated_p_survive", "hero survival over validation_worlds fresh worlds"),
          real_field("validated_turns_mean", "turns the hero survived there"),
          real_field("validated_flee_mean", "flee events per world there")};
}

Monsters::Genome Monsters::random_genome(Rng& rng) const {
  Genome genome(genes.size());
  for (std::size_t g = 0; g < genes.size(); ++g) {
    genome[g] =
        genes[g].min +
        static_cast<double>(rng.below(static_cast<std::uint64_t>(genes[g].max - genes[g].min) + 1));
  }
  return genome;
}

// Uniform crossover: each gene from either parent.
std::pair<Monsters::Genome, Monsters::Genome> Monsters::crossover(const Genome& a, const Genome& b,
                                                                  Rng& rng) const {
  Genome first = a;
  Genome second = b;
  for (std::size_t g = 0; g < genes.size(); ++g) {
    if (rng.bernoulli(0.5)) std::swap(first[g], second[g]);
  }
  return {first, second};
}

// Each gene with probability `rate` steps by +-1 within its range.
void Monsters::mutate(Genome& genome, double rate, Rng& rng) const {
  for (std::size_t g = 0; g < genes.size(); ++g) {
    if (!rng.bernoulli(rate)) continue;
    const double step = rng.bernoulli(0.5) ? 1 : -1;
    genome[g] = bounds()[g].clip(genome[g] + step);
  }
}

namespace {

// The evolved species is the first one `monster` places: the genome replaces its weights,
// each gene rounded to the whole stat the rules count in (a CMA-ES or line emitter's genes
// fall between).
monsters::Scenario with_genome(monsters::Scenario scenario, const Monsters::Genome& genome) {
  auto& species = scenario.catalogue[static_cast<std::size_t>(scenario.placed.front() - 1)];
  const auto stat = [&](std::size_t gene) { return static_cast<int>(std::lround(genome[gene])); };
  species.aggression = stat(0);
  species.fear = stat(1);
  species.desire = stat(2);
  species.wander = stat(3);
  species.misc = stat(4);
  species.strength = stat(5);
  scenario.overrides = {};
  return scenario;
}

}  // namespace

Evaluation Monsters::evaluate(const Genome& genome, Rng& rng) const {
  const Summary s =
      play(with_genome(scenario_, genome), layout_, width_, height_, worlds_, scoring_, rng);
  return {fitness(s.p_survive()),
          {s.p_survive(), s.turns.mean(), s.flee.mean(), s.share(Motive::aggression),
           s.share(Motive::fear)}};
}

Record Monsters::validate(const Genome& genome, Rng& rng) const {
  const Summary s = play(with_genome(scenario_, genome), layout_, width_, height_,
                         validation_worlds_, scoring_, rng);
  return {fitness(s.p_survive()), s.p_survive(), s.turns.mean(), s.flee.mean()};
}

double Monsters::fitness(double p_survive) const { return 1.0 - std::abs(target_ - p_survive); }

// qd driver. The record: p_survive, turns_mean, flee_mean, share_aggression, share_fear.
std::vector<ObjectiveSpec> Monsters::objectives() const {
  return {{"fitness", false, 0.0, "1 - |target - p_survive|: how near survival is to the wanted"},
          {"turns_mean", false, 0.0,
           "turns the hero survived: how long the encounter lasts. A hero who must die as "
           "often but later meets monsters that are weaker yet more numerous or more daring"}};
}

std::vector<MeasureSpec> Monsters::measures() const {
  return {{"p_survive", 0, 1,
           "fraction of the evaluation's worlds whose hero survives (the evaluation's "
           "p_survive): how hard the species makes the level"},
          {"flight", 0, 1,
           "share_fear / (share_fear + share_aggression): of the monster decisions won by fear "
           "or aggression, the share fear won (0 always attacks, 1 always flees); 0.5 when "
           "neither ever wins"}};
}

std::vector<double> Monsters::measure(const Genome& /*genome*/,
                                      const Evaluation& evaluation) const {
  constexpr std::size_t p_survive_at = 0;
  constexpr std::size_t share_aggression_at = 3;
  constexpr std::size_t share_fear_at = 4;
  const double aggression = std::get<double>(evaluation.record.at(share_aggression_at));
  const double fear = std::get<double>(evaluation.record.at(share_fear_at));
  const double fought_or_fled = aggression + fear;
  return {std::get<double>(evaluation.record.at(p_survive_at)),
          fought_or_fled > 0 ? fear / fought_or_fled : 0.5};
}

Monsters::Genome Monsters::decode(std::span<const std::int64_t> stored) const {
  auto genome = RealGenome::decode(stored);
  for (std::size_t g = 0; g < genes.size(); ++g) {
    const auto& range = bounds()[g];
    if (!(genome[g] >= range.low && genome[g] <= range.high)) {
      throw KernelError("monsters: stored gene " + std::to_string(g) + " = " +
                        std::to_string(genome[g]) + " is outside [" + std::to_string(range.low) +
                        ", " + std::to_string(range.high) + "]");
    }
  }
  return genome;
}

}  // namespace levelforge::kernels

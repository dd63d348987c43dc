#include "kernels/match3/match3.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "kernels/api/grid.hpp"
#include "kernels/match3/fast.hpp"
#include "kernels/match3/lockstep.hpp"

namespace levelforge::kernels {

std::vector<ParamSpec> Match3::parameters() {
  return {
      int_param("width", 5, 3, match3::max_side, "board columns"),
      int_param("height", 10, 3, match3::max_side, "board rows"),
      int_param("colors", 5, 2, match3::max_colors, "block colors"),
      choice_param("genome", {"seed", "grid"},
                   "seed: the paper's 32-bit gene; grid: one color per cell"),
      choice_param("initial_runs", {"resolve", "keep", "reroll"},
                   "runs on the generated board: removed before play, kept, or redrawn"),
      choice_param("no_match", {"undo", "keep"}, "a swap that makes no run is undone or kept"),
      choice_param("refill", {"none", "random"}, "emptied cells stay empty or are refilled"),
      choice_param("player", {"random", "greedy"}, "random moves, or the largest removal"),
      int_param("moves", 100, 1, 100'000, "move attempts per playout"),
      real_param("score_base", 1.5, 1.0, 10.0, "a move removing k blocks scores score_base^k"),
      choice_param("score_per", {"move", "wave"},
                   "k of score_base^k: the blocks of the whole move, cascades included, or of "
                   "each wave of its cascade, the waves' scores summed"),
      int_param("playouts", 200, 2, 10'000'000, "playouts per evaluation"),
      real_param("threshold", 15.0, 0.0, 1e12, "a playout succeeds when its score exceeds this"),
      real_param("target", 0.7, 0.0, 1.0, "wanted success probability"),
      choice_param("estimator", {"normal", "empirical"},
                   "p from a normal fit of the scores (the paper's) or counted"),
      int_param("validation_playouts", 10'000, 2, 100'000'000,
                "fresh playouts re-measuring each final best board"),
      int_param("gene", 804'118'649, std::numeric_limits<std::int32_t>::min(),
                std::numeric_limits<std::uint32_t>::max(),
                "sweep driver: the gene whose board is evaluated (int32 or uint32 bits)"),
  };
}

Match3::Match3(const ParamSet& params)
    : initial_runs_(params.choice_as<match3::InitialRuns>(
          "initial_runs", {{"resolve", match3::InitialRuns::resolve},
                           {"keep", match3::InitialRuns::keep},
                           {"reroll", match3::InitialRuns::reroll}})),
      encoding_(params.choice_as<Encoding>("genome",
                                           {{"seed", Encoding::seed}, {"grid", Encoding::grid}})),
      estimator_(params.choice_as<Estimator>(
          "estimator", {{"normal", Estimator::normal}, {"empirical", Estimator::empirical}})),
      playouts_(params.integer("playouts")),
      validation_playouts_(params.integer("validation_playouts")),
      threshold_(params.real("threshold")),
      target_(params.real("target")),
      gene_(static_cast<std::uint32_t>(params.integer("gene"))) {
  rules_.width = static_cast<int>(params.integer("width"));
  rules_.height = static_cast<int>(params.integer("height"));
  rules_.colors = static_cast<int>(params.integer("colors"));
  rules_.no_match = params.choice_as<match3::NoMatch>(
      "no_match", {{"undo", match3::NoMatch::undo}, {"keep", match3::NoMatch::keep}});
  rules_.refill = params.choice_as<match3::Refill>(
      "refill", {{"none", match3::Refill::none}, {"random", match3::Refill::random}});
  rules_.player = params.choice_as<match3::Player>(
      "player", {{"random", match3::Player::random}, {"greedy", match3::Player::greedy}});
  rules_.moves = static_cast<int>(params.integer("moves"));
  rules_.score_base = params.real("score_base");
  rules_.score_per = params.choice_as<match3::ScorePer>(
      "score_per", {{"move", match3::ScorePer::move}, {"wave", match3::ScorePer::wave}});
  // With two colors nearly every refilled column forms a new run: a move's cascade would
  // practically never end (measured: thousands of rounds on 8 x 8, none ending on 16 x 16).
  if (rules_.refill == match3::Refill::random && rules_.colors < 3) {
    throw KernelError(
        "match3: refill: random needs colors >= 3 (with 2 colors a cascade never ends)");
  }
  score_table_ = match3::score_table(rules_);
}

std::size_t Match3::genome_length() const {
  return encoding_ == Encoding::seed ? 1 : static_cast<std::size_t>(rules_.width * rules_.height);
}

Match3::Genome Match3::random_genome(Rng& rng) const {
  Genome genome;
  if (encoding_ == Encoding::seed) {
    genome.gene = static_cast<std::uint32_t>(rng());
  } else {
    genome.colors.resize(genome_length());
    for (auto& color : genome.colors)
      color = static_cast<std::uint8_t>(rng.below(static_cast<std::uint64_t>(rules_.colors)));
  }
  return genome;
}

// Seed genomes: one-point crossover of the 32 gene bits. Grid genomes: the children swap
// a random rectangle of cells.
std::pair<Match3::Genome, Match3::Genome> Match3::crossover(const Genome& a, const Genome& b,
                                                            Rng& rng) const {
  Genome first = a;
  Genome second = b;
  if (encoding_ == Encoding::seed) {
    const auto cut = static_cast<std::uint32_t>(1 + rng.below(31));
    const std::uint32_t low = (std::uint32_t{1} << cut) - 1;
    first.gene = (a.gene & low) | (b.gene & ~low);
    second.gene = (b.gene & low) | (a.gene & ~low);
    return {first, second};
  }
  const auto block = random_rectangle(rng, rules_.width, rules_.height);
  for (int row = block.top; row <= block.bottom; ++row) {
    for (int column = block.left; column <= block.right; ++column) {
      const auto cell = static_cast<std::size_t>(row) * static_cast<std::size_t>(rules_.width) +
                        static_cast<std::size_t>(column);
      std::swap(first.colors[cell], second.colors[cell]);
    }
  }
  return {first, second};
}

// Seed genomes: each bit flips with probability `rate`. Grid genomes: each cell is
// recolored with probability `rate`, to one of the other colors.
void Match3::mutate(Genome& genome, double rate, Rng& rng) const {
  if (encoding_ == Encoding::seed) {
    for (std::uint32_t bit = 0; bit < 32; ++bit) {
      if (rng.bernoulli(rate)) genome.gene ^= std::uint32_t{1} << bit;
    }
    return;
  }
  for (auto& color : genome.colors) {
    if (!rng.bernoulli(rate)) continue;
    const auto shift = 1 + rng.below(static_cast<std::uint64_t>(rules_.colors - 1));
    color = static_cast<std::uint8_t>((color + shift) % static_cast<std::uint64_t>(rules_.colors));
  }
}

MemoryEstimate Match3::memory_estimate(const ParamSet& params) {
  // play_scores: one std::uint64_t seed and one double score per playout.
  constexpr std::uint64_t bytes_per_playout = sizeof(std::uint64_t) + sizeof(double);
  const auto playouts = params.integer("playouts");
  const auto validation_playouts = params.integer("validation_playouts");
  const bool validation_larger = validation_playouts > playouts;
  const auto largest =
      static_cast<std::uint64_t>(validation_larger ? validation_playouts : playouts);
  MemoryEstimate estimate;
  estimate.working_bytes = largest * bytes_per_playout;
  estimate.working_cause =
      (validation_larger ? "params.validation_playouts = " : "params.playouts = ") +
      std::to_string(largest) + " playouts x " + std::to_string(bytes_per_playout) + " bytes";
  // A grid genome holds a color per cell; a seed genome its gene (the vector stays empty).
  estimate.genome_bytes = sizeof(Genome) + static_cast<std::uint64_t>(params.integer("width") *
                                                                      params.integer("height"));
  return estimate;
}

match3::Board Match3::board(const Genome& genome) const {
  if (encoding_ == Encoding::seed)
    return match3::board_from_gene(genome.gene, rules_, initial_runs_);
  return match3::board_from_colors(genome.colors, rules_, initial_runs_, 0);
}

match3::PlayoutStats Match3::play(const match3::Board& start, std::int64_t playouts,
                                  Rng& rng) const {
  const auto scores = match3::play_scores(start, rules_, playouts, score_table_, rng);
  return match3::summarize(scores, threshold_);
}

double Match3::fitness(const match3::PlayoutStats& stats) const {
  const double p = estimator_ == Estimator::normal ? stats.p_normal : stats.p_empirical;
  return 1.0 - std::abs(target_ - p);
}

namespace {

// The four statistics of a set of playouts as record fields: the score's mean and std
// named with `score_prefix`, the two probabilities with `p_prefix`.
std::vector<FieldSpec> stats_fields(const std::string& score_prefix, const std::string& p_prefix,
                                    const std::string& playouts) {
  return {real_field(score_prefix + "mean", "mean score of the " + playouts),
          real_field(score_prefix + "std", "sample standard deviation of their scores"),
          real_field(p_prefix + "p_normal", "P(score > threshold) under a normal fit"),
          real_field(p_prefix + "p_empirical", "fraction of them over the threshold")};
}

Record stats_record(const match3::PlayoutStats& stats) {
  return {stats.mean, stats.std, stats.p_normal, stats.p_empirical};
}

}  // namespace

std::vector<FieldSpec> Match3::evaluation_fields() {
  return stats_fields("score_", "", "playouts");
}

Evaluation Match3::evaluate(const Genome& genome, Rng& rng) const {
  const auto stats = play(board(genome), playouts_, rng);
  return {fitness(stats), stats_record(stats)};
}

std::vector<ObjectiveSpec> Match3::objectives() const {
  return {
      {"fitness", false, 0.0, "1 - |target - p|: how near the level is to the wanted difficulty"},
      {"score_mean", false, 0.0,
       "the mean score of the playouts: how generous the level feels. Raising it without "
       "raising p takes big cascades, so it trades against the difficulty"}};
}

// qd driver. The record holds score_mean, score_std, p_normal, p_empirical (stats_record).
std::vector<MeasureSpec> Match3::measures() const {
  return {{"p", 0, 1,
           "success probability by the run's estimator: the evaluation's p_normal or "
           "p_empirical, the p the fitness compares with the target"},
          {"empty_fraction", 0, 1,
           "fraction of the cells empty on the board before play (initial runs resolved); 0 for "
           "every board under initial_runs keep or reroll"}};
}

std::vector<double> Match3::measure(const Genome& genome, const Evaluation& evaluation) const {
  constexpr std::size_t p_normal_at = 2;
  constexpr std::size_t p_empirical_at = 3;
  const double p = std::get<double>(
      evaluation.record.at(estimator_ == Estimator::normal ? p_normal_at : p_empirical_at));
  const auto cells = board(genome).cells;
  const auto empty = std::count(cells.begin(), cells.end(), match3::empty_cell);
  return {p, static_cast<double>(empty) / static_cast<double>(cells.size())};
}

void Match3::encode(const Genome& genome, std::span<std::int64_t> out) const {
  if (encoding_ == Encoding::seed) {
    out[0] = static_cast<std::int32_t>(genome.gene);  // the paper writes genes signed
    return;
  }
  std::copy(genome.colors.begin(), genome.colors.end(), out.begin());
}

Match3::Genome Match3::decode(std::span<const std::int64_t> stored) const {
  Genome genome;
  if (encoding_ == Encoding::seed) {
    genome.gene = static_cast<std::uint32_t>(stored[0]);
  } else {
    genome.colors.resize(genome_length());
    for (std::size_t i = 0; i < genome.colors.size(); ++i) {
      genome.colors[i] = static_cast<std::uint8_t>(stored[i]);
    }
  }
  return genome;
}

std::vector<FieldSpec> Match3::validation_fields() {
  auto fields = stats_fields("validated_", "validated_", "validation_playouts fresh playouts");
  fields.insert(fields.begin(), real_field("validated_fitness",
                                           "1 - |target - p| by the run's estimator over them"));
  return fields;
}

Record Match3::validate(const Genome& genome, Rng& rng) const {
  const auto stats = play(board(genome), validation_playouts_, rng);
  Record record{fitness(stats)};
  for (auto& value : stats_record(stats)) record.push_back(std::move(value));
  return record;
}

std::vector<std::size_t> Match3::level_shape() const {
  return {static_cast<std::size_t>(rules_.height), static_cast<std::size_t>(rules_.width)};
}

void Match3::render_level(const Genome& genome, std::span<std::uint8_t> out) const {
  const auto cells = board(genome).cells;
  std::copy(cells.begin(), cells.end(), out.begin());
}

std::vector<FieldSpec> Match3::record_fields() {
  auto fields = evaluation_fields();
  fields.insert(fields.begin(), {int_field("gene", "the gene evaluated (signed 32-bit)"),
                                 real_field("fitness", "1 - |target - p|")});
  return fields;
}

Record Match3::run(Rng& rng) const {
  const auto stats = play(match3::board_from_gene(gene_, rules_, initial_runs_), playouts_, rng);
  auto record = stats_record(stats);
  record.insert(record.begin(), {std::int64_t{static_cast<std::int32_t>(gene_)}, fitness(stats)});
  return record;
}

std::string Match3::simd_paths() {
  return "lock-step playouts in avx512 lanes, draws by ifma52 multiply-adds where the CPU has "
         "AVX-512 IFMA, else mul32 (random player, no_match: undo, score_per: move); otherwise "
         "bitboard playouts (no SIMD lanes)";
}

std::string Match3::simd_path(const ParamSet& params) {
  if (match3::fast::plays_lockstep(Match3(params).rules_)) {
    return "lock-step playouts, avx512 " +
           std::string(match3::lockstep::products_name(match3::lockstep::best_products()));
  }
  return "bitboard playouts (no SIMD lanes)";
}

}  // namespace levelforge::kernels

#include "kernels/spawn/simulation.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string_view>

namespace levelforge::spawn {

Simulator::Simulator(std::span<const SpawnObject> objects, std::span<const double> required,
                     const Rules& rules)
    : selector_(objects, rules) {
  plans_.reserve(required.size());
  for (const double difficulty : required) plans_.push_back(plan_level(objects, difficulty));
  for (std::size_t i = 0; i < objects.size(); ++i) {
    const auto first = std::find_if(plans_.begin(), plans_.end(), [i](const LevelPlan& plan) {
      return (plan.eligible & (Mask{1} << i)) != 0;
    });
    first_eligible_[i] = first - plans_.begin();
  }
  for (std::size_t q = 1; q < q_log_q_.size(); ++q) {
    q_log_q_[q] = static_cast<double>(q) * std::log2(static_cast<double>(q));
  }
}

std::string format_levels(std::span<const Mask> present) {
  constexpr std::string_view digits = "0123456789abcdef";
  std::string text(present.size() * level_digits, '0');
  for (std::size_t level = 0; level < present.size(); ++level) {
    for (std::size_t d = 0; d < level_digits; ++d) {
      const auto shift = static_cast<unsigned>(4 * (level_digits - 1 - d));
      text[level * level_digits + d] = digits[(present[level] >> shift) & 0xFU];
    }
  }
  return text;
}

void Simulator::run(Rng& rng, Tally& tally, std::span<Mask> present) const {
  const std::size_t count = selector_.objects();
  const auto q_log_q = [this](std::int64_t q) {
    return q < static_cast<std::int64_t>(q_log_q_.size())
               ? q_log_q_[static_cast<std::size_t>(q)]
               : static_cast<double>(q) * std::log2(static_cast<double>(q));
  };
  RecencyState recency(selector_.rules());
  Weights weights{};
  LevelContents contents;
  Quantities streak{};
  Quantities longest{};
  Mask previous = 0;
  for (std::size_t level = 0; level < plans_.size(); ++level) {
    const LevelPlan& plan = plans_[level];
    selector_.weights(plan, recency, weights);
    selector_.select(plan, weights, rng, contents);
    recency.record(contents.present, count);
    if (level < present.size()) present[level] = contents.present;

    tally.required += plan.required;
    tally.spawned += contents.spawned;
    tally.abs_error += std::abs(plan.required - contents.spawned);
    tally.types += std::popcount(contents.present);
    tally.draws += contents.draws;
    tally.stalled += contents.stalled ? 1 : 0;
    if (level > 0) {
      ++tally.pairs;
      tally.repeats += contents.present == previous ? 1 : 0;
    }
    previous = contents.present;

    std::int64_t total = 0;
    double sum_q_log_q = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const std::int64_t q = contents.quantity[i];
      total += q;
      sum_q_log_q += q_log_q(q);
      tally.quantity[i] += static_cast<double>(q);
      if (static_cast<std::int64_t>(level) < first_eligible_[i]) continue;
      streak[i] = q > 0 ? 0 : streak[i] + 1;
      longest[i] = std::max(longest[i], streak[i]);
    }
    // H = log2 N - sum q log2 q / N for the mix of N spawned objects.
    if (total > 0)
      tally.entropy +=
          q_log_q(total) / static_cast<double>(total) - sum_q_log_q / static_cast<double>(total);
  }
  for (std::size_t i = 0; i < count; ++i) {
    tally.longest_absence[i] += longest[i];
    tally.max_absence = std::max(tally.max_absence, longest[i]);
  }
  ++tally.runs;
  tally.levels += static_cast<std::int64_t>(plans_.size());
}

Metrics Simulator::measure(std::int64_t runs, Rng& rng, std::span<Mask> first_run) const {
  Tally tally;
  for (std::int64_t r = 0; r < runs; ++r) run(rng, tally, r == 0 ? first_run : std::span<Mask>{});
  return summarize(tally);
}

Metrics Simulator::summarize(const Tally& tally) const {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  const auto levels = static_cast<double>(tally.levels);
  const auto ratio = [](double a, double b) { return b > 0 ? a / b : nan; };
  Metrics m{};
  m.mean_required = tally.required / levels;
  m.mean_spawned = tally.spawned / levels;
  m.mean_abs_error = tally.abs_error / levels;
  m.error_share = ratio(tally.abs_error, tally.required);
  m.mean_types = static_cast<double>(tally.types) / levels;
  m.entropy = tally.entropy / levels;
  m.repetition = ratio(static_cast<double>(tally.repeats), static_cast<double>(tally.pairs));
  m.max_longest_absence = tally.max_absence;
  m.stalled_share = static_cast<double>(tally.stalled) / levels;
  m.mean_draws = static_cast<double>(tally.draws) / levels;
  m.share.fill(nan);
  m.absence.fill(nan);

  double spawned = 0;
  for (std::size_t i = 0; i < selector_.objects(); ++i) spawned += tally.quantity[i];
  m.mix_entropy = spawned > 0 ? 0.0 : nan;
  double absence_sum = 0;
  int eligible = 0;
  for (std::size_t i = 0; i < selector_.objects(); ++i) {
    m.share[i] = ratio(tally.quantity[i], spawned);
    if (tally.quantity[i] > 0) m.mix_entropy -= m.share[i] * std::log2(m.share[i]);
    if (first_eligible_[i] == static_cast<std::int64_t>(plans_.size())) continue;
    m.absence[i] = static_cast<double>(tally.longest_absence[i]) / static_cast<double>(tally.runs);
    absence_sum += m.absence[i];
    ++eligible;
  }
  m.mean_longest_absence = eligible > 0 ? absence_sum / eligible : nan;
  return m;
}

}  // namespace levelforge::spawn

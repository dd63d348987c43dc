#include "runner/engine/cma_emitters.hpp"

#include "runner/engine/unit_box.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace levelforge {

CmaEmitters::CmaEmitters(const RealGenome& genome_half, const QdSettings& settings,
                         std::size_t cells)
    : genome_half_(genome_half),
      kind_(settings.emitter),
      sigma0_(settings.sigma0),
      learning_rate_(settings.archive_learning_rate),
      per_emitter_(static_cast<std::size_t>(settings.per_emitter())),
      emitters_(static_cast<std::size_t>(settings.emitters)),
      thresholds_(kind_ == QdEmitter::cma_mae ? cells : 0, settings.threshold_min) {}

std::vector<RealGenome::Genome> CmaEmitters::ask(
    std::uint64_t seed, std::uint64_t task, std::uint64_t iteration,
    const std::function<const RealGenome::Genome&(Rng&)>& pick_elite) {
  const auto& bounds = genome_half_.bounds();
  std::vector<RealGenome::Genome> batch;
  candidates_.clear();
  for (std::size_t e = 0; e < emitters_.size(); ++e) {
    auto& emitter = emitters_[e];
    if (!emitter.search) {
      Rng rng({seed, Stream::emitter_restart, task, iteration, e});
      emitter.search.emplace(to_unit_box(bounds, pick_elite(rng)), sigma0_, per_emitter_);
    }
    for (std::size_t k = 0; k < per_emitter_; ++k) {
      Rng rng({seed, Stream::emitter, task, iteration, e * per_emitter_ + k});
      auto unit = emitter.search->sample(rng);
      batch.push_back(from_unit_box(bounds, unit));
      candidates_.push_back(std::move(unit));
    }
  }
  return batch;
}

double CmaEmitters::pass_threshold(std::size_t cell, double fitness) {
  double& threshold = thresholds_[cell];
  const double value = fitness - threshold;
  if (fitness > threshold) threshold = (1 - learning_rate_) * threshold + learning_rate_ * fitness;
  return value;
}

void CmaEmitters::tell(std::span<const Insertion> insertions) {
  for (std::size_t e = 0; e < emitters_.size(); ++e) {
    auto& emitter = emitters_[e];
    std::vector<std::size_t> order(per_emitter_);
    std::iota(order.begin(), order.end(), e * per_emitter_);
    std::size_t parents = per_emitter_ / 2;
    if (kind_ == QdEmitter::cma_me) {
      // Added candidates only: new cells first, then improvements, each by value; the
      // lower index first on a tie.
      std::erase_if(order,
                    [&](std::size_t c) { return insertions[c].status == Insertion::not_added; });
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (insertions[a].status != insertions[b].status)
          return insertions[a].status > insertions[b].status;
        return insertions[a].value > insertions[b].value;
      });
      parents = order.size();
    } else {
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return insertions[a].value > insertions[b].value;
      });
    }
    if (parents == 0) {
      emitter.search.reset();
      ++emitter.restarts;
      continue;
    }
    std::vector<std::vector<double>> ranked;
    ranked.reserve(order.size());
    for (const auto c : order) ranked.push_back(candidates_[c]);
    emitter.search->tell(ranked, parents);
    if (emitter.search->stalled()) {
      emitter.search.reset();
      ++emitter.restarts;
    }
  }
}

std::vector<std::int64_t> CmaEmitters::restarts() const {
  std::vector<std::int64_t> counts;
  for (const auto& emitter : emitters_) counts.push_back(emitter.restarts);
  return counts;
}

std::vector<double> CmaEmitters::state() const {
  std::vector<double> numbers = thresholds_;
  for (const auto& emitter : emitters_) {
    numbers.push_back(static_cast<double>(emitter.restarts));
    numbers.push_back(emitter.search ? 1 : 0);
    if (emitter.search) {
      const auto search = emitter.search->state();
      numbers.insert(numbers.end(), search.begin(), search.end());
    }
  }
  return numbers;
}

void CmaEmitters::restore(std::span<const double> state) {
  const auto dimension = genome_half_.genome_length();
  const auto fail = [&] {
    throw std::invalid_argument("the saved CMA emitters do not fit these settings (" +
                                std::to_string(state.size()) + " numbers)");
  };
  if (state.size() < thresholds_.size()) fail();
  std::copy_n(state.begin(), thresholds_.size(), thresholds_.begin());
  auto rest = state.subspan(thresholds_.size());
  for (auto& emitter : emitters_) {
    if (rest.size() < 2) fail();
    emitter.restarts = static_cast<std::int64_t>(rest[0]);
    const bool searching = rest[1] != 0;
    rest = rest.subspan(2);
    emitter.search.reset();
    if (!searching) continue;
    const auto size = CmaEs::state_size(dimension);
    if (rest.size() < size) fail();
    emitter.search = CmaEs::from_state(rest.first(size), dimension, per_emitter_);
    rest = rest.subspan(size);
  }
  if (!rest.empty()) fail();
}

}  // namespace levelforge

#include "runner/engine/cma_breeding.hpp"

#include <stdexcept>
#include <string>

#include "runner/engine/unit_box.hpp"

namespace levelforge {

CmaBreeding::CmaBreeding(const RealGenome& genome_half, const GaSettings& settings)
    : genome_half_(genome_half),
      sigma0_(settings.sigma0),
      candidates_(static_cast<std::size_t>(settings.population - settings.elitism)) {}

std::vector<RealGenome::Genome> CmaBreeding::next(
    std::uint64_t seed, std::uint64_t task, std::uint64_t generation,
    const std::vector<RealGenome::Genome>& ranked,
    const std::function<RealGenome::Genome(Rng&)>& random_genome) {
  const auto& bounds = genome_half_.bounds();
  if (!search_) {
    search_.emplace(to_unit_box(bounds, ranked.front()), sigma0_, candidates_);
  } else {
    std::vector<std::vector<double>> units;
    units.reserve(ranked.size());
    for (const auto& genome : ranked) units.push_back(to_unit_box(bounds, genome));
    search_->tell(units, units.size() / 2);
    if (search_->stalled()) {
      Rng rng({seed, Stream::emitter_restart, task, generation, 0});
      search_.emplace(to_unit_box(bounds, random_genome(rng)), sigma0_, candidates_);
      ++restarts_;
    }
  }
  std::vector<RealGenome::Genome> batch;
  batch.reserve(candidates_);
  for (std::size_t k = 0; k < candidates_; ++k) {
    Rng rng({seed, Stream::emitter, task, generation, k});
    auto unit = search_->sample(rng);
    batch.push_back(from_unit_box(bounds, unit));
  }
  return batch;
}

std::vector<double> CmaBreeding::state() const {
  std::vector<double> numbers{static_cast<double>(restarts_), search_ ? 1.0 : 0.0};
  if (search_) {
    const auto search = search_->state();
    numbers.insert(numbers.end(), search.begin(), search.end());
  }
  return numbers;
}

void CmaBreeding::restore(std::span<const double> state) {
  const auto dimension = genome_half_.genome_length();
  const bool searching = state.size() > 1 && state[1] != 0;
  if (state.size() != 2 + (searching ? CmaEs::state_size(dimension) : 0)) {
    throw std::invalid_argument("the saved CMA-ES breeding does not fit these settings (" +
                                std::to_string(state.size()) + " numbers)");
  }
  restarts_ = static_cast<std::int64_t>(state[0]);
  search_.reset();
  if (searching) search_ = CmaEs::from_state(state.subspan(2), dimension, candidates_);
}

}  // namespace levelforge

#pragma once
// The islands of a GA task: contiguous blocks of its population that breed apart and
// exchange migrants after generations K, 2K, ... A migration is planned from the
// population's fitness alone, a pure function of (seed, task, generation, island), so every
// member of a group, on any number of ranks, plans the same one.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "runner/engine/ga_settings.hpp"

namespace levelforge {

struct IslandBlock {
  std::size_t begin = 0;
  std::size_t end = 0;
  [[nodiscard]] std::size_t size() const { return end - begin; }
};

// Island `island` of `islands` over `population` individuals: [i P / N, (i + 1) P / N).
IslandBlock island_block(std::size_t population, std::size_t islands, std::size_t island);

// One migrant: it leaves position `source` (of island `from`) and takes position `target`
// (of island `to`), both positions in the population before the migration.
struct MigrationEvent {
  std::int64_t generation = 0;
  std::int64_t from = 0;
  std::int64_t to = 0;
  std::int64_t source = 0;
  std::int64_t target = 0;
};

// The migration after `generation`, in source-island order, then destination order, then
// the migrant's rank in its island. Ring sends island i's migrants to i + 1 (mod N), all to
// every other island, random along a cycle through all islands drawn on (migration_route,
// generation), so that every island receives from exactly one other as in a ring. The
// best-replace-worst policy sends an island's `count` best (ties by lower position) and
// replaces the destination's worst, the first arrival taking the worst place; the random
// policy draws both without replacement, the places on (arrival, generation, destination).
// The migrants are copies: a source keeps its individuals.
std::vector<MigrationEvent> plan_migration(const GaSettings& settings, std::uint64_t seed,
                                           std::uint64_t task, std::int64_t generation,
                                           std::span<const double> fitness);

// Moves the planned migrants: every copy is taken from the population before the migration.
template <class Individual>
void apply_migration(std::span<const MigrationEvent> events, std::vector<Individual>& population) {
  std::vector<Individual> migrants;
  migrants.reserve(events.size());
  for (const auto& event : events) {
    migrants.push_back(population[static_cast<std::size_t>(event.source)]);
  }
  for (std::size_t e = 0; e < events.size(); ++e) {
    population[static_cast<std::size_t>(events[e].target)] = std::move(migrants[e]);
  }
}

// The same for rows of `row_size` bytes (the migrants' evaluations travel with them).
void apply_migration_rows(std::span<const MigrationEvent> events, std::vector<std::byte>& rows,
                          std::size_t row_size);

// How alike the individuals of each island are, by the default genome distance: the
// fraction of genome positions in which two individuals differ (their encodings).
struct IslandDistances {
  double within = 0;     // mean over the island's pairs; 0 for an island of one
  double to_others = 0;  // mean over pairs of one of its individuals and one elsewhere; NaN
                         // with a single island
};

// The distances of the `islands` islands (island_block) of `genomes`, rows of `length`
// values. Counted per position from the values' multiplicities: O(P + islands x values)
// per position when its values span a small range, O(P log P) otherwise, not O(P^2).
std::vector<IslandDistances> island_distances(std::span<const std::int64_t> genomes,
                                              std::size_t length, std::size_t islands);

}  // namespace levelforge

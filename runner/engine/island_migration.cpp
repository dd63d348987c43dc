#include "runner/engine/island_migration.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>

#include "kernels/api/rng.hpp"

namespace levelforge {

namespace {

// The positions of `block`, best first (ties by lower position).
std::vector<std::size_t> island_ranking(std::span<const double> fitness, IslandBlock block) {
  std::vector<std::size_t> order(block.size());
  std::iota(order.begin(), order.end(), block.begin);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return fitness[a] > fitness[b]; });
  return order;
}

// `count` distinct positions of `block` in draw order (a partial Fisher-Yates shuffle).
std::vector<std::size_t> draw_positions(IslandBlock block, std::size_t count, Rng& rng) {
  std::vector<std::size_t> positions(block.size());
  std::iota(positions.begin(), positions.end(), block.begin);
  for (std::size_t i = 0; i < count; ++i) {
    std::swap(positions[i], positions[i + rng.below(positions.size() - i)]);
  }
  positions.resize(count);
  return positions;
}

}  // namespace

IslandBlock island_block(std::size_t population, std::size_t islands, std::size_t island) {
  return {population * island / islands, population * (island + 1) / islands};
}

std::vector<MigrationEvent> plan_migration(const GaSettings& settings, std::uint64_t seed,
                                           std::uint64_t task, std::int64_t generation,
                                           std::span<const double> fitness) {
  const auto islands = static_cast<std::size_t>(settings.islands);
  const auto count = static_cast<std::size_t>(settings.migration_count);
  const bool best = settings.migration_policy == MigrationPolicy::best_replace_worst;
  const auto at = static_cast<std::uint64_t>(generation);
  // The random topology: a cycle through all islands drawn anew for every migration
  // (Sattolo's algorithm), so that each island sends to one and receives from one.
  std::vector<std::size_t> route(islands);
  if (settings.migration_topology == MigrationTopology::random) {
    std::iota(route.begin(), route.end(), std::size_t{0});
    Rng rng({seed, Stream::migration_route, task, at, 0});
    for (std::size_t i = islands; i-- > 1;) std::swap(route[i], route[rng.below(i)]);
  }
  std::vector<MigrationEvent> events;
  for (std::size_t from = 0; from < islands; ++from) {
    const auto block = island_block(fitness.size(), islands, from);
    Rng rng({seed, Stream::migration, task, at, from});
    std::vector<std::size_t> destinations;
    switch (settings.migration_topology) {
      case MigrationTopology::ring: destinations.push_back((from + 1) % islands); break;
      case MigrationTopology::all:
        for (std::size_t to = 0; to < islands; ++to)
          if (to != from) destinations.push_back(to);
        break;
      case MigrationTopology::random: destinations.push_back(route[from]); break;
    }
    std::vector<std::size_t> migrants;
    if (best) {
      migrants = island_ranking(fitness, block);
      migrants.resize(count);
    } else {
      migrants = draw_positions(block, count, rng);
    }
    for (const auto to : destinations) {
      for (const auto source : migrants) {
        events.push_back({generation, static_cast<std::int64_t>(from),
                          static_cast<std::int64_t>(to), static_cast<std::int64_t>(source), -1});
      }
    }
  }
  // Places on each destination, in the order its migrants arrive.
  std::map<std::int64_t, std::vector<MigrationEvent*>> arrivals;
  for (auto& event : events) arrivals[event.to].push_back(&event);
  for (auto& [to, arriving] : arrivals) {
    const auto block = island_block(fitness.size(), islands, static_cast<std::size_t>(to));
    if (arriving.size() > block.size()) {
      throw std::logic_error("island " + std::to_string(to) + " of " +
                             std::to_string(block.size()) + " individuals cannot take " +
                             std::to_string(arriving.size()) +
                             " migrants (GaSettings::from refuses such settings)");
    }
    std::vector<std::size_t> places;
    if (best) {
      places = island_ranking(fitness, block);
      std::reverse(places.begin(), places.end());
      places.resize(arriving.size());
    } else {
      Rng rng({seed, Stream::arrival, task, at, static_cast<std::uint64_t>(to)});
      places = draw_positions(block, arriving.size(), rng);
    }
    for (std::size_t a = 0; a < arriving.size(); ++a) {
      arriving[a]->target = static_cast<std::int64_t>(places[a]);
    }
  }
  return events;
}

void apply_migration_rows(std::span<const MigrationEvent> events, std::vector<std::byte>& rows,
                          std::size_t row_size) {
  std::vector<std::byte> migrants(events.size() * row_size);
  for (std::size_t e = 0; e < events.size(); ++e) {
    const auto from = rows.begin() + static_cast<std::ptrdiff_t>(
                                         static_cast<std::size_t>(events[e].source) * row_size);
    std::copy_n(from, row_size, migrants.begin() + static_cast<std::ptrdiff_t>(e * row_size));
  }
  for (std::size_t e = 0; e < events.size(); ++e) {
    std::copy_n(migrants.begin() + static_cast<std::ptrdiff_t>(e * row_size), row_size,
                rows.begin() + static_cast<std::ptrdiff_t>(
                                   static_cast<std::size_t>(events[e].target) * row_size));
  }
}

std::vector<IslandDistances> island_distances(std::span<const std::int64_t> genomes,
                                              std::size_t length, std::size_t islands) {
  const std::size_t count = length == 0 ? 0 : genomes.size() / length;
  std::vector<std::size_t> island_of(count);
  std::vector<double> sizes(islands);
  for (std::size_t island = 0; island < islands; ++island) {
    const auto block = island_block(count, islands, island);
    for (std::size_t i = block.begin; i < block.end; ++i) island_of[i] = island;
    sizes[island] = static_cast<double>(block.size());
  }
  // Pairs that agree in some position, summed over positions (whole numbers, exact in a
  // double below 2^53, so both ways of counting give the same sums).
  std::vector<double> equal_within(islands, 0.0);
  std::vector<double> equal_across(islands, 0.0);
  std::vector<std::int64_t> column(count);
  std::vector<std::uint64_t> counts;
  std::vector<std::pair<std::int64_t, std::size_t>> sorted;  // (value, island)
  for (std::size_t position = 0; position < length; ++position) {
    for (std::size_t i = 0; i < count; ++i) column[i] = genomes[i * length + position];
    const auto [low, high] = std::minmax_element(column.begin(), column.end());
    const auto span = static_cast<std::uint64_t>(*high) - static_cast<std::uint64_t>(*low);
    if (span < 2 * count + 64) {
      const auto values = span + 1;
      // Few distinct values (bits, colors, small integers): a count per island and value.
      counts.assign(islands * values, 0);
      for (std::size_t i = 0; i < count; ++i) {
        ++counts[island_of[i] * values +
                 (static_cast<std::uint64_t>(column[i]) - static_cast<std::uint64_t>(*low))];
      }
      for (std::uint64_t value = 0; value < values; ++value) {
        std::uint64_t total = 0;
        for (std::size_t island = 0; island < islands; ++island)
          total += counts[island * values + value];
        if (total == 0) continue;
        for (std::size_t island = 0; island < islands; ++island) {
          const auto own = static_cast<double>(counts[island * values + value]);
          equal_within[island] += own * (own - 1) / 2;
          equal_across[island] += own * (static_cast<double>(total) - own);
        }
      }
      continue;
    }
    sorted.resize(count);
    for (std::size_t i = 0; i < count; ++i) sorted[i] = {column[i], island_of[i]};
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t run = 0; run < count;) {
      std::size_t next = run;
      while (next < count && sorted[next].first == sorted[run].first) ++next;
      // The run is sorted by island too: count each island's share of the equal values.
      for (std::size_t i = run; i < next;) {
        std::size_t end = i;
        while (end < next && sorted[end].second == sorted[i].second) ++end;
        const auto own = static_cast<double>(end - i);
        equal_within[sorted[i].second] += own * (own - 1) / 2;
        equal_across[sorted[i].second] += own * static_cast<double>(next - run - (end - i));
        i = end;
      }
      run = next;
    }
  }
  const auto positions = static_cast<double>(length);
  const auto total = static_cast<double>(count);
  std::vector<IslandDistances> distances(islands);
  for (std::size_t island = 0; island < islands; ++island) {
    const double size = sizes[island];
    const double pairs_within = size * (size - 1) / 2;
    const double pairs_across = size * (total - size);
    distances[island].within =
        pairs_within == 0 ? 0.0 : 1.0 - equal_within[island] / (pairs_within * positions);
    distances[island].to_others = pairs_across == 0
                                      ? std::numeric_limits<double>::quiet_NaN()
                                      : 1.0 - equal_across[island] / (pairs_across * positions);
  }
  return distances;
}

}  // namespace levelforge

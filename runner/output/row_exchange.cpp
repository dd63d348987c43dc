#include "runner/output/row_exchange.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace levelforge {

namespace {

// Rank k owns rows [first[k], first[k + 1]): equal contiguous slices.
std::vector<std::uint64_t> slice_starts(std::uint64_t row_count, std::size_t ranks) {
  std::vector<std::uint64_t> first(ranks + 1);
  for (std::size_t k = 0; k <= ranks; ++k) first[k] = row_count * k / ranks;
  return first;
}

}  // namespace

OwnedRows exchange_rows(const mpi::Comm& comm, std::uint64_t row_count, std::size_t row_bytes,
                        std::span<const std::uint64_t> rows, std::span<const std::byte> data) {
  const auto ranks = static_cast<std::size_t>(comm.size());
  constexpr std::size_t index_bytes = sizeof(std::uint64_t);
  const std::size_t message_bytes = index_bytes + row_bytes;

  // Each outgoing message: the row number, then the row.
  std::vector<std::size_t> order(rows.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto first = slice_starts(row_count, ranks);
  std::vector<std::size_t> owners(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    owners[i] = static_cast<std::size_t>(std::upper_bound(first.begin(), first.end(), rows[i]) -
                                         first.begin() - 1);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return owners[a] < owners[b]; });
  std::vector<std::byte> send(rows.size() * message_bytes);
  std::vector<int> send_counts(ranks, 0);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto i = order[k];
    std::memcpy(send.data() + k * message_bytes, &rows[i], index_bytes);
    std::memcpy(send.data() + k * message_bytes + index_bytes, data.data() + i * row_bytes,
                row_bytes);
    send_counts[owners[i]] += static_cast<int>(message_bytes);
  }
  std::vector<int> received_counts;
  const auto received = comm.all_to_all_bytes(send, send_counts, received_counts);

  // Sort what arrived by row and cut it into runs of consecutive rows.
  const std::size_t arrived = received.size() / message_bytes;
  std::vector<std::pair<std::uint64_t, std::size_t>> by_row(arrived);
  for (std::size_t k = 0; k < arrived; ++k) {
    std::memcpy(&by_row[k].first, received.data() + k * message_bytes, index_bytes);
    by_row[k].second = k;
  }
  std::sort(by_row.begin(), by_row.end());
  OwnedRows owned;
  owned.data.resize(arrived * row_bytes);
  for (std::size_t k = 0; k < arrived; ++k) {
    const auto [row, source] = by_row[k];
    std::memcpy(owned.data.data() + k * row_bytes,
                received.data() + source * message_bytes + index_bytes, row_bytes);
    if (!owned.runs.empty() && owned.runs.back().first + owned.runs.back().second == row) {
      ++owned.runs.back().second;
    } else {
      owned.runs.emplace_back(row, 1);
    }
  }
  return owned;
}

}  // namespace levelforge

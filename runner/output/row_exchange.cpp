#include "runner/output/row_exchange.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace levelforge {

namespace {

// Writer k owns rows [first[k], first[k + 1]): equal contiguous slices.
std::vector<std::uint64_t> slice_starts(std::uint64_t row_count, std::size_t writers) {
  std::vector<std::uint64_t> first(writers + 1);
  for (std::size_t k = 0; k <= writers; ++k) first[k] = row_count * k / writers;
  return first;
}

}  // namespace

OwnedRows exchange_rows(const mpi::Comm& comm, std::span<const int> writers,
                        std::uint64_t row_count, std::size_t row_bytes,
                        std::span<const std::uint64_t> rows, std::span<const std::byte> data) {
  constexpr std::size_t index_bytes = sizeof(std::uint64_t);
  const std::size_t message_bytes = index_bytes + row_bytes;

  // Each outgoing message: the row number, then the row.
  std::vector<std::size_t> order(rows.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto first = slice_starts(row_count, writers.size());
  std::vector<int> owners(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto slice = std::upper_bound(first.begin(), first.end(), rows[i]) - first.begin() - 1;
    owners[i] = writers[static_cast<std::size_t>(slice)];
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return owners[a] < owners[b]; });
  // One message per owner that gets rows: no rank-by-rank count matrix (sparse_exchange).
  std::vector<mpi::Comm::Message> messages;
  for (const auto i : order) {
    if (messages.empty() || messages.back().first != owners[i])
      messages.emplace_back(owners[i], std::vector<std::byte>());
    auto& bytes = messages.back().second;
    const auto offset = bytes.size();
    bytes.resize(offset + message_bytes);
    std::memcpy(bytes.data() + offset, &rows[i], index_bytes);
    std::memcpy(bytes.data() + offset + index_bytes, data.data() + i * row_bytes, row_bytes);
  }
  std::vector<std::byte> received;
  for (const auto& message : comm.sparse_exchange(messages))
    received.insert(received.end(), message.second.begin(), message.second.end());

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

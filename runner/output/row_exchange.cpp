#include "runner/output/row_exchange.hpp"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

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
  const auto me = comm.rank();

  const auto first = slice_starts(row_count, writers.size());
  std::vector<int> owners(rows.size());
  std::vector<std::size_t> rows_to(static_cast<std::size_t>(comm.size()), 0);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto slice = std::upper_bound(first.begin(), first.end(), rows[i]) - first.begin() - 1;
    owners[i] = writers[static_cast<std::size_t>(slice)];
    ++rows_to[static_cast<std::size_t>(owners[i])];
  }
  // One message per other owner that gets rows (no rank-by-rank count matrix:
  // sparse_exchange), each the row number, then the row, allocated once at its size; the
  // rows this rank owns stay where they are. (Grown row by row, concatenated and zero-filled,
  // the rows were copied five times: half of a run with 26 MB of solution rows, docs/drivers.md.)
  std::vector<mpi::Comm::Message> messages;
  std::vector<std::size_t> message_to(rows_to.size(), 0);
  for (std::size_t rank = 0; rank < rows_to.size(); ++rank) {
    if (rows_to[rank] == 0 || static_cast<int>(rank) == me) continue;
    message_to[rank] = messages.size();
    messages.emplace_back(static_cast<int>(rank), std::vector<std::byte>());
    messages.back().second.reserve(rows_to[rank] * message_bytes);
  }
  std::vector<std::pair<std::uint64_t, const std::byte*>> held;  // (row, its bytes)
  held.reserve(rows_to[static_cast<std::size_t>(me)]);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto* row = data.data() + i * row_bytes;
    if (owners[i] == me) {
      held.emplace_back(rows[i], row);
      continue;
    }
    auto& bytes = messages[message_to[static_cast<std::size_t>(owners[i])]].second;
    const auto* number = reinterpret_cast<const std::byte*>(&rows[i]);
    bytes.insert(bytes.end(), number, number + index_bytes);
    bytes.insert(bytes.end(), row, row + row_bytes);
  }
  const auto received = comm.sparse_exchange(messages);
  for (const auto& message : received) {
    const auto& bytes = message.second;
    for (std::size_t offset = 0; offset + message_bytes <= bytes.size(); offset += message_bytes) {
      std::uint64_t row = 0;
      std::memcpy(&row, bytes.data() + offset, index_bytes);
      held.emplace_back(row, bytes.data() + offset + index_bytes);
    }
  }

  // In order of rows (a rank's own usually are already), cut into runs of consecutive rows.
  const auto by_row = [](const auto& a, const auto& b) { return a.first < b.first; };
  if (!std::is_sorted(held.begin(), held.end(), by_row))
    std::sort(held.begin(), held.end(), by_row);
  OwnedRows owned;
  if (held.empty()) return owned;
  auto* out = owned.data.extend(held.size() * row_bytes).data();
  for (const auto& [row, bytes] : held) {
    std::memcpy(out, bytes, row_bytes);
    out += row_bytes;
    if (!owned.runs.empty() && owned.runs.back().first + owned.runs.back().second == row) {
      ++owned.runs.back().second;
    } else {
      owned.runs.emplace_back(row, 1);
    }
  }
  return owned;
}

}  // namespace levelforge

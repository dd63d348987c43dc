#include "runner/drivers/failure_log.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/output/table_reader.hpp"

namespace levelforge {

RecordLayout saved_failure_layout() {
  // In the order as_segment packs them.
  return RecordLayout({int_field("task", "the task, or the task of the chunk"),
                       int_field("begin", "exhaustive: the chunk's first index; else -1"),
                       int_field("end", "exhaustive: the chunk's end index; else -1"),
                       int_field("rank", "world rank that ran it"),
                       int_field("session", "the run session it failed in"),
                       int_field("wall_us", "microseconds it ran")});
}

namespace {

const std::size_t ints_per_failure = saved_failure_layout().fields().size();
// Longer kernel messages are cut, so that one runaway message cannot widen every row.
constexpr std::size_t max_message_size = 2000;

bool before(const Failure& a, const Failure& b) {
  return std::tie(a.task, a.begin, a.session) < std::tie(b.task, b.begin, b.session);
}

// Failures as the bytes of one segment's entries, for sending between ranks.
Segment as_segment(std::span<const Failure> failures) {
  Segment segment;
  std::vector<std::int64_t> units;
  std::vector<std::int64_t> rows;
  std::vector<std::byte> messages;
  for (const auto& failure : failures) {
    units.push_back(static_cast<std::int64_t>(failure.unit));
    rows.insert(rows.end(),
                {static_cast<std::int64_t>(failure.task), failure.begin, failure.end, failure.rank,
                 failure.session, static_cast<std::int64_t>(failure.wall_seconds * 1e6)});
    const auto* text = reinterpret_cast<const std::byte*>(failure.message.c_str());
    messages.insert(messages.end(), text, text + failure.message.size() + 1);
  }
  segment.put_ints(segment_key::failed_units, std::move(units));
  segment.put_ints(segment_key::failures, std::move(rows));
  segment.put_bytes(segment_key::failure_messages, std::move(messages));
  return segment;
}

void append_entries(const Segment& from, Segment& into) {
  into.append_ints(segment_key::failed_units, from.ints(segment_key::failed_units));
  into.append_ints(segment_key::failures, from.ints(segment_key::failures));
  into.append_bytes(segment_key::failure_messages, from.bytes(segment_key::failure_messages));
}

std::vector<Failure> failures_of(const Segment& segment) {
  const auto units = segment.ints(segment_key::failed_units);
  const auto rows = segment.ints(segment_key::failures);
  const auto messages = segment.bytes(segment_key::failure_messages);
  if (rows.size() != units.size() * ints_per_failure) {
    throw CheckpointError("saved failures do not match their unit list");
  }
  std::vector<Failure> failures;
  std::size_t offset = 0;
  for (std::size_t i = 0; i < units.size(); ++i) {
    const auto* row = rows.data() + i * ints_per_failure;
    const auto* start = reinterpret_cast<const char*>(messages.data()) + offset;
    const auto length = offset < messages.size() ? strnlen(start, messages.size() - offset) : 0;
    if (offset + length >= messages.size()) {
      throw CheckpointError("saved failure messages do not match their unit list");
    }
    failures.push_back({static_cast<std::uint64_t>(units[i]), static_cast<std::uint64_t>(row[0]),
                        row[1], row[2], row[3], row[4], static_cast<double>(row[5]) * 1e-6,
                        std::string(start, length)});
    offset += length + 1;
  }
  return failures;
}

std::vector<Failure> all_failures(std::span<const Failure> local, const mpi::Comm& comm) {
  std::vector<int> lengths;
  const auto all = comm.all_gather_bytes(as_segment(local).serialize(), &lengths);
  std::vector<Failure> failures;
  std::size_t offset = 0;
  for (const auto length : lengths) {
    const auto size = static_cast<std::size_t>(length);
    auto part = failures_of(Segment::deserialize(std::span(all).subspan(offset, size)));
    failures.insert(failures.end(), part.begin(), part.end());
    offset += size;
  }
  std::sort(failures.begin(), failures.end(), before);
  return failures;
}

RecordLayout failure_layout(std::size_t message_size) {
  return RecordLayout(
      {int_field("task", "the failed task, a row of /tasks (status 2)"),
       int_field("point", "its sweep point, a row of /points"),
       int_field("replicate", "its replicate"),
       int_field("begin", "exhaustive: first index of the chunk that failed; -1 otherwise"),
       int_field("end", "exhaustive: one past the chunk's last index; -1 otherwise"),
       int_field("session", "run session the failure happened in (provenance column)"),
       int_field("rank", "world rank that ran it (rank column)"),
       real_field("wall_time", "seconds until the kernel threw (timing column)"),
       text_field("message", message_size, "what the kernel threw")});
}

}  // namespace

void FailureLog::save_into(Segment& segment) {
  if (unsaved() == 0) return;
  append_entries(as_segment(std::span(failures_).subspan(saved_)), segment);
  saved_ = failures_.size();
}

std::vector<std::uint64_t> FailureLog::restore(const std::vector<Segment>& restored,
                                               const std::vector<std::uint64_t>& succeeded,
                                               std::int64_t retry_before_session,
                                               const mpi::Comm& comm) {
  std::vector<Failure> local;
  for (const auto& segment : restored) {
    auto part = failures_of(segment);
    local.insert(local.end(), part.begin(), part.end());
  }
  // Every rank sees every restored failure, so that all choose the same newest one per unit.
  std::map<std::uint64_t, Failure> newest;
  for (auto& failure : all_failures(local, comm)) {
    if (std::binary_search(succeeded.begin(), succeeded.end(), failure.unit)) continue;
    const auto found = newest.find(failure.unit);
    if (found == newest.end() || found->second.session < failure.session)
      newest.insert_or_assign(failure.unit, std::move(failure));
  }
  std::vector<std::uint64_t> units;
  std::size_t position = 0;
  for (auto& [unit, failure] : newest) {
    if (failure.session < retry_before_session) {
      retried_.push_back(unit);
      continue;
    }
    units.push_back(unit);
    if (position++ % static_cast<std::size_t>(comm.size()) == static_cast<std::size_t>(comm.rank()))
      failures_.push_back(std::move(failure));
  }
  // Already in the checkpoint's segments.
  saved_ = failures_.size();
  return units;
}

std::vector<Failure> FailureLog::gather(const mpi::Comm& comm) const {
  return all_failures(failures_, comm);
}

void write_failures(ResultFile& file, const config::Experiment& experiment,
                    const std::vector<Failure>& all, const mpi::Comm& comm) {
  std::size_t message_size = 1;
  for (const auto& failure : all)
    message_size = std::max(message_size, std::min(failure.message.size(), max_message_size));
  const auto layout = failure_layout(message_size);
  const auto replicates = static_cast<std::uint64_t>(experiment.replicates);
  std::vector<std::uint64_t> positions;
  std::vector<std::byte> rows;
  if (comm.rank() == 0) {
    rows.resize(all.size() * layout.row_size());
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto& failure = all[i];
      positions.push_back(i);
      layout.pack({static_cast<std::int64_t>(failure.task),
                   static_cast<std::int64_t>(failure.task / replicates),
                   static_cast<std::int64_t>(failure.task % replicates), failure.begin, failure.end,
                   failure.session, failure.rank, failure.wall_seconds,
                   failure.message.substr(0, max_message_size)},
                  std::span(rows).subspan(i * layout.row_size(), layout.row_size()), "failures");
    }
  }
  auto table = file.create_table("failures", layout, {all.size()});
  file.write(table, positions, rows);
  file.write_attribute(
      "failures", "doc",
      std::string("tasks and exhaustive chunks whose kernel threw (on_error: record); "
                  "their results are missing"));
}

void read_failures(const h5::File& file, Segment& segment,
                   const std::function<std::uint64_t(std::uint64_t, std::int64_t)>& unit_of) {
  const auto table = read_table(file.root().open_dataset("failures"));
  const auto task = table.field("task");
  const auto begin = table.field("begin");
  const auto end = table.field("end");
  const auto session = table.field("session");
  const auto rank = table.field("rank");
  const auto wall = table.field("wall_time");
  const auto message = table.field("message");
  std::vector<Failure> failures;
  for (std::size_t i = 0; i < table.row_count(); ++i) {
    const auto row = table.row(i);
    const auto id = static_cast<std::uint64_t>(std::get<std::int64_t>(row[task]));
    const auto first = std::get<std::int64_t>(row[begin]);
    failures.push_back({unit_of(id, first), id, first, std::get<std::int64_t>(row[end]),
                        std::get<std::int64_t>(row[rank]), std::get<std::int64_t>(row[session]),
                        std::get<double>(row[wall]), std::get<std::string>(row[message])});
  }
  append_entries(as_segment(failures), segment);
}

}  // namespace levelforge

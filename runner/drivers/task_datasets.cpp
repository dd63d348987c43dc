#include "runner/drivers/task_datasets.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/output/compound.hpp"

namespace levelforge {

namespace {

template <class T>
std::vector<std::byte> bytes_of(T value) {
  std::vector<std::byte> bytes(sizeof value);
  std::memcpy(bytes.data(), &value, sizeof value);
  return bytes;
}

std::vector<DatasetAttribute> doc_attribute(std::string doc) {
  if (doc.empty()) return {};
  return {{"doc", std::move(doc)}};
}

}  // namespace

std::size_t TaskDataset::block_elements() const {
  return static_cast<std::size_t>(
      std::accumulate(block.begin(), block.end(), hsize_t{1}, std::multiplies<>()));
}

std::string TaskDataset::segment_key() const {
  auto key = path;
  std::replace(key.begin(), key.end(), '/', '.');
  return key;
}

PackedLayout TaskDataset::packed_layout() const {
  return {segment_key(), type, block, path, missing};
}

TaskDataset task_table(std::string path, const RecordLayout& layout, std::vector<hsize_t> block,
                       std::string doc) {
  std::vector<std::byte> missing(layout.row_size());
  layout.fill_missing(missing);
  return {std::move(path), compound_type(layout), std::move(block), std::move(missing),
          doc_attribute(std::move(doc))};
}

TaskDataset task_int64_array(std::string path, std::vector<hsize_t> block, std::string doc) {
  return {std::move(path), h5::Datatype::int64(), std::move(block), bytes_of(std::int64_t{-1}),
          doc_attribute(std::move(doc))};
}

TaskDataset task_genome_array(std::string path, std::vector<hsize_t> block, GenomeType type,
                              std::string doc) {
  if (type == GenomeType::encoded)
    return task_int64_array(std::move(path), std::move(block), std::move(doc));
  return task_real_array(std::move(path), std::move(block), std::move(doc));
}

TaskDataset task_real_array(std::string path, std::vector<hsize_t> block, std::string doc) {
  return {std::move(path), h5::Datatype::float64(), std::move(block),
          bytes_of(std::numeric_limits<double>::quiet_NaN()), doc_attribute(std::move(doc))};
}

TaskDataset task_uint8_array(std::string path, std::vector<hsize_t> block, std::string doc) {
  return {std::move(path), h5::Datatype::uint8(), std::move(block), bytes_of(std::uint8_t{255}),
          doc_attribute(std::move(doc))};
}

TaskBlocks::TaskBlocks(std::vector<TaskDataset> datasets)
    : datasets_(std::move(datasets)), blocks_(datasets_.size()) {}

std::vector<std::span<std::byte>> TaskBlocks::add(std::uint64_t task) {
  tasks_.push_back(task);
  std::vector<std::span<std::byte>> added;
  for (std::size_t d = 0; d < datasets_.size(); ++d) {
    const auto& dataset = datasets_[d];
    auto& blocks = blocks_[d];
    const auto start = blocks.size();
    blocks.resize(start + dataset.block_bytes());
    for (auto offset = start; offset < blocks.size(); offset += dataset.missing.size())
      std::copy(dataset.missing.begin(), dataset.missing.end(),
                blocks.begin() + static_cast<std::ptrdiff_t>(offset));
    added.push_back(std::span(blocks).subspan(start));
  }
  return added;
}

void TaskBlocks::save_since(std::size_t from, Segment& segment) const {
  for (std::size_t d = 0; d < datasets_.size(); ++d) {
    segment.append_bytes(datasets_[d].segment_key(),
                         std::span(blocks_[d]).subspan(from * datasets_[d].block_bytes()));
  }
}

void TaskBlocks::absorb(const Segment& segment) {
  const auto ids = segment.ints(segment_key::tasks);
  for (std::size_t d = 0; d < datasets_.size(); ++d) {
    const auto bytes = segment.bytes(datasets_[d].segment_key());
    if (bytes.size() != ids.size() * datasets_[d].block_bytes()) {
      throw CheckpointError(fmt::format("saved {} ({} bytes) does not match its {} tasks",
                                        datasets_[d].path, bytes.size(), ids.size()));
    }
    blocks_[d].insert(blocks_[d].end(), bytes.begin(), bytes.end());
  }
  tasks_.insert(tasks_.end(), ids.begin(), ids.end());
}

void TaskBlocks::write(ResultFile& file, std::uint64_t task_count) const {
  for (std::size_t d = 0; d < datasets_.size(); ++d) {
    const auto& dataset = datasets_[d];
    std::vector<hsize_t> dims{task_count};
    dims.insert(dims.end(), dataset.block.begin(), dataset.block.end());
    auto created = file.create_array(dataset.path, dataset.type, dims, dataset.missing);
    file.write_rows(created, dataset.type, tasks_, blocks_[d]);
    for (const auto& attribute : dataset.attributes) {
      std::visit(
          [&](const auto& value) { file.write_attribute(dataset.path, attribute.name, value); },
          attribute.value);
    }
  }
}

void TaskBlocks::read(const h5::File& file, std::uint64_t task_count,
                      std::span<const std::int64_t> tasks, Segment& segment) const {
  auto blocks = read_blocks(file, task_count, tasks);
  for (std::size_t d = 0; d < datasets_.size(); ++d)
    segment.put_bytes(datasets_[d].segment_key(), std::move(blocks[d]));
}

std::vector<std::vector<std::byte>> TaskBlocks::read_blocks(
    const h5::File& file, std::uint64_t task_count, std::span<const std::int64_t> tasks) const {
  for (const auto task : tasks) {
    if (task < 0 || static_cast<std::uint64_t>(task) >= task_count) {
      throw CheckpointError(
          fmt::format("{}: task {} is not one of the run's {}", file.path(), task, task_count));
    }
  }
  std::vector<std::vector<std::byte>> read;
  for (const auto& dataset : datasets_) {
    const auto stored = file.root().open_dataset(dataset.path);
    std::vector<hsize_t> expected{task_count};
    expected.insert(expected.end(), dataset.block.begin(), dataset.block.end());
    if (stored.dims() != expected) {
      throw CheckpointError(fmt::format("{}: /{} has dimensions [{}], the run's has [{}]",
                                        file.path(), dataset.path, fmt::join(stored.dims(), ", "),
                                        fmt::join(expected, ", ")));
    }
    const auto size = dataset.block_bytes();
    std::vector<std::byte> all(task_count * size);
    stored.read_all(dataset.type, all.data());
    auto& blocks = read.emplace_back();
    blocks.reserve(tasks.size() * size);
    for (const auto task : tasks) {
      const auto first =
          all.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(task) * size);
      blocks.insert(blocks.end(), first, first + static_cast<std::ptrdiff_t>(size));
    }
  }
  return read;
}

void copy_padded_rows(std::span<const std::byte> from, std::size_t width, std::size_t padded_width,
                      std::span<std::byte> to) {
  for (std::size_t row = 0; width > 0 && row < from.size() / width; ++row) {
    const auto source = from.subspan(row * width, width);
    std::copy(source.begin(), source.end(),
              to.begin() + static_cast<std::ptrdiff_t>(row * padded_width));
  }
}

void copy_padded_levels(std::span<const std::uint8_t> levels, const std::vector<std::size_t>& shape,
                        const std::vector<std::size_t>& padded, std::span<std::byte> to) {
  const auto cells =
      std::accumulate(shape.begin(), shape.end(), std::size_t{1}, std::multiplies<>());
  const auto padded_cells =
      std::accumulate(padded.begin(), padded.end(), std::size_t{1}, std::multiplies<>());
  for (std::size_t level = 0; cells > 0 && level < levels.size() / cells; ++level) {
    for (std::size_t cell = 0; cell < cells; ++cell) {
      // The cell's row-major index within a level of the padded shape.
      std::size_t target = 0;
      std::size_t stride = 1;
      for (std::size_t d = shape.size(), rest = cell; d-- > 0;) {
        target += (rest % shape[d]) * stride;
        rest /= shape[d];
        stride *= padded[d];
      }
      to[level * padded_cells + target] = static_cast<std::byte>(levels[level * cells + cell]);
    }
  }
}

std::size_t longest_genome(const std::vector<PointFacts>& facts) {
  std::size_t longest = 0;
  for (const auto& point : facts) longest = std::max(longest, point.genome_length);
  return longest;
}

std::vector<std::size_t> largest_level_shape(const std::vector<PointFacts>& facts) {
  std::vector<std::size_t> largest;
  for (const auto& point : facts) {
    const auto& level = point.level_shape;
    largest.resize(std::max(largest.size(), level.size()), 0);
    for (std::size_t d = 0; d < level.size(); ++d) largest[d] = std::max(largest[d], level[d]);
  }
  return largest;
}

std::vector<std::int64_t> genome_lengths(const std::vector<PointFacts>& facts) {
  std::vector<std::int64_t> lengths;
  lengths.reserve(facts.size());
  for (const auto& point : facts) lengths.push_back(static_cast<std::int64_t>(point.genome_length));
  return lengths;
}

void describe_genome_lengths(const std::string& group, const std::vector<PointFacts>& facts,
                             SegmentDescription& description) {
  if (longest_genome(facts) == 0) return;
  description.tables.put_ints("genome_length", genome_lengths(facts));
  description.layouts.push_back(
      {"genome_length", h5::Datatype::int64(), {}, group + "/genome_length", {}});
}

void write_genome_lengths(ResultFile& file, const std::string& group,
                          const std::vector<PointFacts>& facts, const std::string& padded,
                          GenomeType type) {
  const auto lengths = genome_lengths(facts);
  const auto path = group + "/genome_length";
  auto set = file.create_array(path, h5::Datatype::int64(), {lengths.size()});
  file.write_whole(set, h5::Datatype::int64(), lengths.data());
  file.write_attribute(path, "doc",
                       "genome length of each point; longer rows of " + padded +
                           " are padded with " + (type == GenomeType::real ? "NaN" : "-1"));
}

}  // namespace levelforge

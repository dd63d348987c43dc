#include "runner/output/result_file.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <utility>

#include "runner/h5/seal.hpp"
#include "runner/output/compound.hpp"
#include "runner/output/row_exchange.hpp"

namespace levelforge {

namespace {
constexpr std::size_t chunk_bytes = std::size_t{256} * 1024;
constexpr int deflate_level = 4;

std::string partial_path(const std::string& final_path) { return final_path + ".partial"; }

// Rows per chunk so that a chunk holds about chunk_bytes; whole trailing dimensions. A
// dataset with no elements (an island GA whose tasks end before their first migration) is
// not chunked: HDF5 refuses a chunk dimension of 0.
h5::DatasetOptions storage_for(const std::vector<hsize_t>& dims, std::size_t element_size) {
  h5::DatasetOptions options;
  if (dims.empty() || std::find(dims.begin(), dims.end(), hsize_t{0}) != dims.end()) return options;
  const hsize_t trailing =
      std::accumulate(dims.begin() + 1, dims.end(), hsize_t{1}, std::multiplies<>());
  const hsize_t row_bytes = std::max<hsize_t>(1, trailing * element_size);
  options.chunk = dims;
  options.chunk.front() = std::clamp<hsize_t>(chunk_bytes / row_bytes, 1, dims.front());
  options.deflate_level = deflate_level;
  options.shuffle = true;
  return options;
}
}  // namespace

namespace {
bool writes(const std::vector<int>& writers, int rank) {
  return std::binary_search(writers.begin(), writers.end(), rank);
}
}  // namespace

ResultFile::ResultFile(std::string final_path, mpi::Comm comm,
                       const std::vector<std::string>& hosts, OutputWriters writers)
    : final_path_(std::move(final_path)),
      comm_(std::move(comm)),
      writers_(writer_ranks(hosts, writers)),
      writer_comm_(comm_.split(writes(writers_, comm_.rank()) ? 0 : 1, comm_.rank())) {
  if (writes(writers_, comm_.rank()))
    file_.emplace(h5::File::create(partial_path(final_path_), writer_comm_.native()));
  try {
    write_attribute("", "format", std::string(result_format));
    write_attribute("", "format_version", result_format_version);
    write_attribute("", "complete", std::int64_t{0});
  } catch (...) {
    remove_after_error();
    throw;
  }
}

h5::Group ResultFile::group_for(const std::string& path) {
  auto group = file_->root();
  std::size_t begin = 0;
  for (auto slash = path.find('/'); slash != std::string::npos; slash = path.find('/', begin)) {
    const auto name = path.substr(begin, slash - begin);
    group = group.has(name) ? group.open_group(name) : group.create_group(name);
    begin = slash + 1;
  }
  return group;
}

Table ResultFile::create_table(const std::string& path, RecordLayout layout,
                               const std::vector<hsize_t>& dims, std::vector<std::byte> fill) {
  if (fill.empty()) {
    fill.resize(layout.row_size());
    layout.fill_missing(fill);
  }
  auto array = create_array(path, compound_type(layout), dims, std::move(fill));
  return {std::move(array), std::move(layout)};
}

ResultArray ResultFile::create_array(const std::string& path, const h5::Datatype& type,
                                     const std::vector<hsize_t>& dims,
                                     std::vector<std::byte> fill) {
  ResultArray array{dims, std::nullopt};
  if (!file_) return array;
  auto group = group_for(path);
  const auto name = path.substr(path.rfind('/') + 1);
  auto options = storage_for(dims, type.size());
  options.fill = std::move(fill);
  array.dataset.emplace(group.create_dataset(name, type, dims, options));
  return array;
}

void ResultFile::write_rows(ResultArray& array, const h5::Datatype& memory_type,
                            std::span<const std::uint64_t> rows, std::span<const std::byte> data) {
  const auto& dims = array.dims;
  const auto row_elements =
      std::accumulate(dims.begin() + 1, dims.end(), hsize_t{1}, std::multiplies<>());
  const auto owned =
      exchange_rows(comm_, writers_, dims.front(), row_elements * memory_type.size(), rows, data);
  if (!array.dataset) return;
  std::vector<h5::Block> blocks;
  blocks.reserve(owned.runs.size());
  for (const auto& [first, count] : owned.runs) {
    h5::Block block{std::vector<hsize_t>(dims.size(), 0), dims};
    block.start.front() = first;
    block.count.front() = count;
    blocks.push_back(std::move(block));
  }
  array.dataset->write(memory_type, blocks, owned.data.bytes().data());
}

void ResultFile::write(Table& table, std::span<const std::uint64_t> rows,
                       std::span<const std::byte> data) {
  write_rows(table.array, compound_type(table.layout), rows, data);
}

void ResultFile::write_whole(ResultArray& array, const h5::Datatype& memory_type,
                             const void* data) {
  if (array.dataset) array.dataset->write_all(memory_type, data);
}

void ResultFile::commit() {
  write_attribute("", "complete", std::int64_t{1});
  if (file_) file_->close();
  comm_.barrier();
  if (comm_.rank() == 0) {
    h5::seal(partial_path(final_path_));
    std::error_code error;
    std::filesystem::rename(partial_path(final_path_), final_path_, error);
    if (error) {
      throw h5::IoError("renaming " + partial_path(final_path_) + " to " + final_path_ + ": " +
                        error.message());
    }
  }
  comm_.barrier();
}

void ResultFile::remove_after_error() noexcept {
  if (file_) file_->leave_open();
  std::error_code ignored;
  std::filesystem::remove(partial_path(final_path_), ignored);
}

void ResultFile::discard() {
  if (file_) file_->close();
  comm_.barrier();
  if (comm_.rank() == 0) {
    std::error_code ignored;
    std::filesystem::remove(partial_path(final_path_), ignored);
  }
  comm_.barrier();
}

}  // namespace levelforge

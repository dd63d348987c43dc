#pragma once
// The result datasets whose leading dimension is the task (ga/history, sweep/records, ...):
// each task fills one block, everything below its index. A driver declares each such dataset
// once; the declaration gives the dataset in the result file, its part of a checkpoint
// segment and its reading back from a shard's result file for `merge`.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "kernels/api/record_layout.hpp"
#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/checkpoint/segment.hpp"
#include "runner/drivers/point_facts.hpp"
#include "runner/h5/h5.hpp"
#include "runner/output/result_file.hpp"

namespace levelforge {

struct DatasetAttribute {
  std::string name;
  std::variant<std::string, double, std::int64_t> value;
};

struct TaskDataset {
  std::string path;                // in the result file, and (with '.' for '/') in a segment
  h5::Datatype type;               // of one element: a compound row or a number
  std::vector<hsize_t> block;      // the dimensions of one task's block
  std::vector<std::byte> missing;  // one element that means "no value"
  std::vector<DatasetAttribute> attributes;  // `doc` and what else explains the dataset

  [[nodiscard]] std::size_t block_elements() const;
  [[nodiscard]] std::size_t block_bytes() const { return block_elements() * type.size(); }
  [[nodiscard]] std::string segment_key() const;
  // How a segment packs the blocks, for the checkpoint's manifest.
  [[nodiscard]] PackedLayout packed_layout() const;
};

// A table of `layout` rows, `block` of them per task; a missing row is -1, NaN and empty. A
// non-empty `doc` becomes the dataset's `doc` attribute.
TaskDataset task_table(std::string path, const RecordLayout& layout, std::vector<hsize_t> block,
                       std::string doc = {});
// An array of int64, `block` elements per task; -1 where a task has no value.
TaskDataset task_int64_array(std::string path, std::vector<hsize_t> block, std::string doc = {});
// Genomes, `block` genes per task, as `type` says: int64 with -1 where a task has no value,
// or float64 with NaN (a real gene's int64 form is its float64's bits, so the blocks are the
// engines' encoded genomes either way).
TaskDataset task_genome_array(std::string path, std::vector<hsize_t> block, GenomeType type,
                              std::string doc = {});
// An array of float64, `block` elements per task; NaN where a task has no value.
TaskDataset task_real_array(std::string path, std::vector<hsize_t> block, std::string doc = {});
// An array of uint8, `block` elements per task; 255 where a task has no value.
TaskDataset task_uint8_array(std::string path, std::vector<hsize_t> block, std::string doc = {});

// Copies `from`, rows of `width` bytes, into the first rows of `to`, rows of `padded_width`
// bytes: a point's shorter rows (genomes, islands) in a block sized for the largest point.
// The rest of `to` keeps its "missing" value.
void copy_padded_rows(std::span<const std::byte> from, std::size_t width, std::size_t padded_width,
                      std::span<std::byte> to);
template <class T>
void copy_padded_rows(std::span<const T> from, std::size_t width, std::size_t padded_width,
                      std::span<std::byte> to) {
  copy_padded_rows(std::as_bytes(from), width * sizeof(T), padded_width * sizeof(T), to);
}
// The same for levels (one byte per cell) of `shape` into a block of levels of `padded`
// shape, row-major in every dimension.
void copy_padded_levels(std::span<const std::uint8_t> levels, const std::vector<std::size_t>& shape,
                        const std::vector<std::size_t>& padded, std::span<std::byte> to);

// The longest genome of the points, by which genome datasets are padded.
std::size_t longest_genome(const std::vector<PointFacts>& facts);
// The largest level grid of the points in each dimension, by which level datasets are padded;
// empty when the kernel renders none.
std::vector<std::size_t> largest_level_shape(const std::vector<PointFacts>& facts);

// The genome length of each point's kernel, in point order.
std::vector<std::int64_t> genome_lengths(const std::vector<PointFacts>& facts);
// The genome lengths as the checkpoint's manifest describes `GROUP/genome_length`, when the
// kernel has genomes.
void describe_genome_lengths(const std::string& group, const std::vector<PointFacts>& facts,
                             SegmentDescription& description);
// Collective: `GROUP/genome_length` (P,) int64, the genome length of each point's kernel, by
// which a reader cuts the padding (-1, NaN for real genomes) of the genome dataset `padded`
// (a gene may itself be -1).
void write_genome_lengths(ResultFile& file, const std::string& group,
                          const std::vector<PointFacts>& facts, const std::string& padded,
                          GenomeType type);

// The blocks of the tasks one rank holds, in every declared dataset, in one task order.
class TaskBlocks {
 public:
  explicit TaskBlocks(std::vector<TaskDataset> datasets);

  [[nodiscard]] const std::vector<TaskDataset>& datasets() const { return datasets_; }
  [[nodiscard]] std::size_t size() const { return tasks_.size(); }

  // Appends `task` with every block missing; returns its block of each dataset, in
  // declaration order, for the caller to fill (valid until the next add).
  std::vector<std::span<std::byte>> add(std::uint64_t task);

  // The blocks of tasks [from, size()) into a segment (whose task ids come with the task log).
  void save_since(std::size_t from, Segment& segment) const;
  // Appends the tasks of a saved segment (segment_key::tasks) with their blocks. Throws
  // CheckpointError when the blocks do not match the task list.
  void absorb(const Segment& segment);

  // Collective: creates every dataset with `task_count` rows and writes the blocks.
  void write(ResultFile& file, std::uint64_t task_count) const;

  // One process: the blocks of `tasks` in a shard's result file of `task_count` tasks, into
  // `segment` as save_since would put them. Throws CheckpointError for a dataset of another
  // shape or a task outside the run.
  void read(const h5::File& file, std::uint64_t task_count, std::span<const std::int64_t> tasks,
            Segment& segment) const;
  // The same blocks, per dataset.
  [[nodiscard]] std::vector<std::vector<std::byte>> read_blocks(
      const h5::File& file, std::uint64_t task_count, std::span<const std::int64_t> tasks) const;

 private:
  std::vector<TaskDataset> datasets_;
  std::vector<std::uint64_t> tasks_;
  std::vector<std::vector<std::byte>> blocks_;  // per dataset, tasks_.size() blocks
};

}  // namespace levelforge

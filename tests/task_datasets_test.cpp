// TaskBlocks: the per-task datasets of the ga and sweep drivers (and the exhaustive
// driver's per-task tables), from one declaration to a checkpoint segment and back, and
// read back from a result file as `merge` reads a shard.

#include "runner/drivers/task_datasets.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

#include "runner/checkpoint/checkpoint_store.hpp"

namespace levelforge {
namespace {

const RecordLayout& score_layout() {
  static const RecordLayout layout({real_field("score", "a score"), int_field("rank", "a rank")});
  return layout;
}

std::vector<TaskDataset> declared() {
  return {task_table("demo/scores", score_layout(), {3}),
          task_int64_array("demo/genomes", {2, 2}, "two genomes of two genes")};
}

std::int64_t int_at(std::span<const std::byte> bytes, std::size_t element) {
  std::int64_t value = 0;
  std::memcpy(&value, bytes.data() + element * sizeof value, sizeof value);
  return value;
}

void put_int(std::span<std::byte> bytes, std::size_t element, std::int64_t value) {
  std::memcpy(bytes.data() + element * sizeof value, &value, sizeof value);
}

TEST(TaskDatasets, ABlockIsEverythingBelowTheTaskIndex) {
  const auto datasets = declared();
  EXPECT_EQ(datasets[0].block_elements(), 3U);
  EXPECT_EQ(datasets[0].block_bytes(), 3 * score_layout().row_size());
  EXPECT_EQ(datasets[1].block_bytes(), 4 * sizeof(std::int64_t));
  EXPECT_EQ(datasets[1].segment_key(), "demo.genomes");
  ASSERT_EQ(datasets[1].attributes.size(), 1U);
  EXPECT_EQ(datasets[1].attributes[0].name, "doc");
  EXPECT_TRUE(datasets[0].attributes.empty());
}

TEST(TaskDatasets, AnAddedTaskStartsMissing) {
  TaskBlocks blocks(declared());
  const auto added = blocks.add(4);
  ASSERT_EQ(added.size(), 2U);
  for (std::size_t row = 0; row < 3; ++row) {
    const auto bytes = added[0].subspan(row * score_layout().row_size(), score_layout().row_size());
    EXPECT_TRUE(std::isnan(score_layout().get_real(bytes, 0)));
    EXPECT_EQ(score_layout().get_int(bytes, 1), -1);
  }
  for (std::size_t gene = 0; gene < 4; ++gene) EXPECT_EQ(int_at(added[1], gene), -1);
  const auto levels = task_uint8_array("demo/levels", {5});
  EXPECT_EQ(levels.missing, std::vector<std::byte>{std::byte{255}});
}

TEST(TaskDatasets, SavedBlocksAbsorbIntoTheSameBlocks) {
  TaskBlocks first(declared());
  for (std::uint64_t task : {7U, 2U, 5U}) {
    const auto added = first.add(task);
    put_int(added[1], 0, static_cast<std::int64_t>(task * 10));
    score_layout().pack({1.5 * static_cast<double>(task), std::int64_t{0}},
                        added[0].first(score_layout().row_size()), "test");
  }
  Segment segment;
  // What the driver saves after task 7: tasks 2 and 5, with their ids.
  segment.put_ints(segment_key::tasks, {2, 5});
  first.save_since(1, segment);
  EXPECT_EQ(segment.bytes("demo.scores").size(), 6 * score_layout().row_size());

  TaskBlocks restored(declared());
  restored.absorb(Segment::deserialize(segment.serialize()));
  ASSERT_EQ(restored.size(), 2U);
  Segment again;
  restored.save_since(0, again);
  EXPECT_TRUE(std::ranges::equal(again.bytes("demo.scores"), segment.bytes("demo.scores")));
  EXPECT_EQ(int_at(again.bytes("demo.genomes"), 0), 20);
  EXPECT_EQ(int_at(again.bytes("demo.genomes"), 4), 50);
  EXPECT_EQ(int_at(again.bytes("demo.genomes"), 5), -1);
}

TEST(TaskDatasets, BlocksThatDoNotMatchTheirTasksAreRefused) {
  Segment segment;
  segment.put_ints(segment_key::tasks, {0, 1});
  segment.put_bytes("demo.scores", std::vector<std::byte>(3 * score_layout().row_size()));
  segment.put_bytes("demo.genomes", std::vector<std::byte>(8 * sizeof(std::int64_t)));
  TaskBlocks blocks(declared());
  try {
    blocks.absorb(segment);
    FAIL() << "accepted one task's scores for two tasks";
  } catch (const CheckpointError& error) {
    EXPECT_NE(std::string(error.what()).find("demo/scores"), std::string::npos) << error.what();
  }
}

class TaskDatasetFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() /
             ("task_datasets_" + std::to_string(::getpid()) + ".h5"))
                .string();
    auto file = h5::File::create_serial(path_);
    std::vector<std::int64_t> genomes(12);
    for (std::size_t i = 0; i < genomes.size(); ++i) genomes[i] = static_cast<std::int64_t>(i);
    file.root()
        .create_group("demo")
        .create_dataset("genomes", h5::Datatype::int64(), {3, 2, 2})
        .write_all(h5::Datatype::int64(), genomes.data());
  }
  void TearDown() override { std::filesystem::remove(path_); }

  std::string path_;
};

TEST_F(TaskDatasetFiles, AShardsBlocksAreReadByTask) {
  const auto file = h5::File::open_serial(path_, h5::Access::read_only);
  const TaskBlocks blocks({task_int64_array("demo/genomes", {2, 2})});
  const std::vector<std::int64_t> tasks{2, 0};
  const auto read = blocks.read_blocks(file, 3, tasks);
  ASSERT_EQ(read.size(), 1U);
  ASSERT_EQ(read[0].size(), 8 * sizeof(std::int64_t));
  EXPECT_EQ(int_at(read[0], 0), 8);  // task 2 starts at element 8
  EXPECT_EQ(int_at(read[0], 3), 11);
  EXPECT_EQ(int_at(read[0], 4), 0);  // then task 0
}

TEST_F(TaskDatasetFiles, ADatasetOfAnotherShapeIsRefused) {
  const auto file = h5::File::open_serial(path_, h5::Access::read_only);
  const TaskBlocks wider({task_int64_array("demo/genomes", {2, 3})});
  try {
    (void)wider.read_blocks(file, 3, std::vector<std::int64_t>{0});
    FAIL() << "read a [3, 2, 2] dataset as [3, 2, 3]";
  } catch (const CheckpointError& error) {
    EXPECT_NE(std::string(error.what())
                  .find("/demo/genomes has dimensions [3, 2, 2], the run's "
                        "has [3, 2, 3]"),
              std::string::npos)
        << error.what();
  }
  const TaskBlocks same({task_int64_array("demo/genomes", {2, 2})});
  EXPECT_THROW((void)same.read_blocks(file, 3, std::vector<std::int64_t>{3}), CheckpointError);
}

}  // namespace
}  // namespace levelforge

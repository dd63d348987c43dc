// Tests of the HDF5 wrapper. Runs under mpiexec with 1, 2 and 3 ranks: every collective call
// (file create/open/close, object creation, attribute writes, collective transfers) is made
// unconditionally on all ranks, and checks use EXPECT so a failure cannot desynchronize them.
#include "runner/h5/h5.hpp"
#include "tests/error_message.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace {

using levelforge::h5::Access;
using levelforge::h5::Block;
using levelforge::h5::Dataset;
using levelforge::h5::DatasetOptions;
using levelforge::h5::Datatype;
using levelforge::h5::File;
using levelforge::h5::Group;
using levelforge::h5::Handle;
using levelforge::h5::IoError;
using levelforge::h5::Transfer;

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

hsize_t rank_h() { return static_cast<hsize_t>(world_rank()); }
hsize_t size_h() { return static_cast<hsize_t>(world_size()); }

// One fresh directory per run, shared by all ranks: rank 0 makes it and broadcasts the name.
class TempDirEnvironment : public ::testing::Environment {
 public:
  static inline std::string dir;

  void SetUp() override {
    std::array<char, 4096> name{};
    if (world_rank() == 0) {
      std::string pattern = (std::filesystem::temp_directory_path() / "h5_test_XXXXXX").string();
      if (mkdtemp(pattern.data()) == nullptr) MPI_Abort(MPI_COMM_WORLD, 1);
      std::strncpy(name.data(), pattern.c_str(), name.size() - 1);
    }
    MPI_Bcast(name.data(), static_cast<int>(name.size()), MPI_CHAR, 0, MPI_COMM_WORLD);
    dir = name.data();
  }

  void TearDown() override {
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0) std::filesystem::remove_all(dir);
  }
};

const auto* const temp_dir_environment =
    ::testing::AddGlobalTestEnvironment(new TempDirEnvironment);

std::string temp_path(const std::string& name) { return TempDirEnvironment::dir + "/" + name; }

// A name that is different on every rank, for files each rank uses on its own.
std::string rank_path(const std::string& stem) {
  return temp_path(stem + "_" + std::to_string(world_rank()) + ".h5");
}

template <class Action>
std::string error_of(Action&& action) {
  return levelforge::testing::error_message<IoError>(std::forward<Action>(action));
}

Block row(hsize_t index, hsize_t columns) { return Block{{index, 0}, {1, columns}}; }

// Hands a parallel file to `body`, then closes it: collectively, once the objects `body`
// opened are gone, as the one collective call of a File (its destructor never closes one).
template <class Body>
void use_and_close(File file, Body&& body) {
  std::forward<Body>(body)(file);
  file.close();
}

// ---- Handle -------------------------------------------------------------------------------

TEST(Handle, CopyTakesAReferenceThatOutlivesTheOriginal) {
  auto original = std::make_unique<Handle>(H5Screate(H5S_SCALAR));
  const hid_t id = original->id();
  EXPECT_EQ(H5Iget_ref(id), 1);
  Handle copy(*original);
  EXPECT_EQ(copy.id(), id);
  EXPECT_EQ(H5Iget_ref(id), 2);
  original.reset();
  EXPECT_TRUE(copy.valid());
  EXPECT_EQ(H5Iget_ref(id), 1);
}

TEST(Handle, MoveLeavesTheSourceInvalid) {
  Handle source(H5Screate(H5S_SCALAR));
  const hid_t id = source.id();
  Handle target(std::move(source));
  EXPECT_FALSE(source.valid());  // NOLINT(bugprone-use-after-move): testing that state
  EXPECT_EQ(source.id(), H5I_INVALID_HID);
  EXPECT_EQ(target.id(), id);
  EXPECT_EQ(H5Iget_ref(id), 1);

  Handle assigned;
  assigned = std::move(target);
  EXPECT_FALSE(target.valid());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(assigned.id(), id);
  EXPECT_EQ(H5Iget_ref(id), 1);
}

TEST(Handle, AssignmentDropsTheOldObject) {
  Handle first(H5Screate(H5S_SCALAR));
  Handle second(H5Screate(H5S_SCALAR));
  const hid_t old_second = second.id();
  second = first;
  EXPECT_EQ(H5Iis_valid(old_second), 0);
  EXPECT_EQ(second.id(), first.id());
  EXPECT_EQ(H5Iget_ref(first.id()), 2);
  {
    Handle last(H5Screate(H5S_SCALAR));
    const hid_t last_id = last.id();
    last = Handle();
    EXPECT_FALSE(last.valid());
    EXPECT_EQ(H5Iis_valid(last_id), 0);
  }
}

TEST(Handle, CopiedGroupStaysUsableAfterTheOriginalIsGone) {
  use_and_close(File::create(rank_path("handles"), MPI_COMM_SELF), [](File& file) {
    auto original = std::make_unique<Group>(file.root().create_group("kept"));
    Group copy = *original;
    original.reset();
    EXPECT_TRUE(H5Iis_valid(copy.id()) > 0);
    copy.write_attribute("still", std::int64_t{7});
    EXPECT_EQ(copy.read_int_attribute("still"), 7);
    EXPECT_EQ(copy.path(), "/kept");
  });
}

// ---- parallel writes ----------------------------------------------------------------------

std::int64_t cell(hsize_t row_index, hsize_t column) {
  return static_cast<std::int64_t>(row_index * 100 + column + 1);
}

// Rank r owns rows r, r + size and r + 2 size, given newest first so the wrapper has to
// reorder them into file order.
std::vector<Block> my_rows(hsize_t columns) {
  return {row(rank_h() + 2 * size_h(), columns), row(rank_h(), columns),
          row(rank_h() + size_h(), columns)};
}

std::vector<std::int64_t> packed_cells(const std::vector<Block>& rows, hsize_t columns) {
  std::vector<std::int64_t> cells;
  for (const Block& block : rows) {
    for (hsize_t c = 0; c < columns; ++c) cells.push_back(cell(block.start[0], c));
  }
  return cells;
}

TEST(ParallelWrite, RowsOfEveryRankIntoAChunkedDeflatedDataset) {
  const std::string path = temp_path("rows.h5");
  const hsize_t columns = 5;
  const hsize_t rows = 3 * size_h() + 1;
  const Datatype int64 = Datatype::int64();
  use_and_close(File::create(path, MPI_COMM_WORLD), [&](File& file) {
    Group ga = file.root().create_group("ga");
    DatasetOptions options;
    options.chunk = {2, columns};  // chunks straddle ranks: HDF5 merges their pieces
    options.deflate_level = 4;
    options.shuffle = true;
    Dataset history = ga.create_dataset("history", int64, {rows, columns}, options);
    EXPECT_EQ(history.path(), "/ga/history");

    const std::vector<Block> mine = my_rows(columns);
    history.write(int64, mine, packed_cells(mine, columns).data());

    // The last row comes from the last rank alone; every other rank selects nothing.
    const bool last_rank = world_rank() == world_size() - 1;
    const std::vector<Block> extra =
        last_rank ? std::vector<Block>{row(rows - 1, columns)} : std::vector<Block>{};
    const std::vector<std::int64_t> extra_cells = packed_cells(extra, columns);
    history.write(int64, extra, last_rank ? extra_cells.data() : nullptr);
    // No rank contributes, yet the collective call completes.
    history.write(int64, {}, nullptr);
  });
  MPI_Barrier(MPI_COMM_WORLD);

  // Read back in parallel, in the same scrambled block order.
  use_and_close(File::open(path, MPI_COMM_WORLD, Access::read_only), [&](File& file) {
    const Dataset history = file.root().open_dataset("ga/history");
    const std::vector<Block> mine = my_rows(columns);
    std::vector<std::int64_t> back(3 * columns, -1);
    history.read(int64, mine, back.data(), Transfer::collective);
    EXPECT_EQ(back, packed_cells(mine, columns));
  });
  MPI_Barrier(MPI_COMM_WORLD);

  if (world_rank() == 0) {
    File file = File::open_serial(path, Access::read_only);
    const Dataset history = file.root().open_group("ga").open_dataset("history");
    EXPECT_EQ(history.dims(), (std::vector<hsize_t>{rows, columns}));
    const std::vector<std::int64_t> all = history.read_all_as<std::int64_t>(int64);
    for (hsize_t r = 0; r < rows; ++r) {
      for (hsize_t c = 0; c < columns; ++c) {
        EXPECT_EQ(all[r * columns + c], cell(r, c)) << "row " << r << " column " << c;
      }
    }
    Handle dcpl(H5Dget_create_plist(history.id()));
    EXPECT_EQ(H5Pget_layout(dcpl.id()), H5D_CHUNKED);
    EXPECT_EQ(H5Pget_nfilters(dcpl.id()), 2);  // shuffle + deflate
  }
}

TEST(ParallelWrite, RowsNoRankWritesHoldTheFillValue) {
  const std::string path = temp_path("fill.h5");
  const Datatype int64 = Datatype::int64();
  const hsize_t rows = 2 * size_h();
  use_and_close(File::create(path, MPI_COMM_WORLD), [&](File& file) {
    DatasetOptions options;
    options.chunk = {2};
    const std::int64_t missing = -1;
    options.fill.resize(sizeof missing);
    std::memcpy(options.fill.data(), &missing, sizeof missing);
    Dataset values = file.root().create_dataset("values", int64, {rows}, options);
    // Each rank writes its even row only.
    const std::int64_t mine = 100 + world_rank();
    values.write(int64, {Block{{2 * rank_h()}, {1}}}, &mine);

    options.fill.resize(4);
    const std::string refused =
        error_of([&] { file.root().create_dataset("odd", int64, {rows}, options); });
    EXPECT_NE(refused.find("a fill value of 4 bytes for elements of 8"), std::string::npos)
        << refused;
  });
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    File file = File::open_serial(path, Access::read_only);
    const auto all = file.root().open_dataset("values").read_all_as<std::int64_t>(int64);
    for (hsize_t r = 0; r < rows; ++r) {
      EXPECT_EQ(all[r], r % 2 == 0 ? 100 + static_cast<std::int64_t>(r / 2) : -1) << "row " << r;
    }
  }
}

TEST(ParallelWrite, InterleavedBlocksAreMatchedToTheRightElements) {
  // Rank r owns a 4x4 tile of columns; it passes the tile's right half first. The halves
  // interleave in file order (row by row), so this needs element-level reordering.
  const std::string path = temp_path("interleaved.h5");
  const Datatype int32 = Datatype::int32();
  const hsize_t width = 4 * size_h();
  const hsize_t left = 4 * rank_h();
  const std::vector<Block> halves = {Block{{0, left + 2}, {4, 2}}, Block{{0, left}, {4, 2}}};
  auto value = [](hsize_t r, hsize_t c) { return static_cast<std::int32_t>(1000 * r + c); };
  std::vector<std::int32_t> packed;
  for (const Block& half : halves) {
    for (hsize_t r = 0; r < 4; ++r) {
      for (hsize_t c = 0; c < 2; ++c) packed.push_back(value(r, half.start[1] + c));
    }
  }
  use_and_close(File::create(path, MPI_COMM_WORLD), [&](File& file) {
    Dataset tiles = file.root().create_dataset("tiles", int32, {4, width});
    tiles.write(int32, halves, packed.data(), Transfer::independent);
    std::vector<std::int32_t> back(packed.size(), -1);
    tiles.read(int32, halves, back.data());
    EXPECT_EQ(back, packed);
  });
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    File file = File::open_serial(path, Access::read_only);
    const auto all = file.root().open_dataset("tiles").read_all_as<std::int32_t>(int32);
    for (hsize_t r = 0; r < 4; ++r) {
      for (hsize_t c = 0; c < width; ++c) EXPECT_EQ(all[r * width + c], value(r, c));
    }
  }
}

TEST(ParallelWrite, UnlimitedDatasetGrowsWithSetExtent) {
  const std::string path = temp_path("growing.h5");
  const Datatype float64 = Datatype::float64();
  const hsize_t columns = 3;
  use_and_close(File::create(path, MPI_COMM_WORLD), [&](File& file) {
    DatasetOptions options;
    options.chunk = {4, columns};
    options.max_dims = {H5S_UNLIMITED, columns};
    Dataset log = file.root().create_dataset("log", float64, {0, columns}, options);
    for (hsize_t generation = 0; generation < 3; ++generation) {
      log.set_extent({(generation + 1) * size_h(), columns});
      const hsize_t mine = generation * size_h() + rank_h();
      const std::vector<double> values(columns, static_cast<double>(mine) + 0.5);
      log.write(float64, {row(mine, columns)}, values.data());
    }
    EXPECT_EQ(log.dims(), (std::vector<hsize_t>{3 * size_h(), columns}));
    EXPECT_NE(error_of([&] { log.set_extent({1}); }).find("wrong number of dimensions"),
              std::string::npos);
  });
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    File file = File::open_serial(path, Access::read_only);
    const auto all = file.root().open_dataset("log").read_all_as<double>(float64);
    ASSERT_EQ(all.size(), 3 * size_h() * columns);
    for (std::size_t i = 0; i < all.size(); ++i) {
      const auto row = i / columns;
      EXPECT_EQ(all[i], static_cast<double>(row) + 0.5) << "element " << i;
    }
  }
}

struct Record {
  std::int64_t id;
  double score;
  std::array<char, 12> label;
};

Datatype record_type() {
  return Datatype::CompoundBuilder(sizeof(Record))
      .add("id", offsetof(Record, id), Datatype::int64())
      .add("score", offsetof(Record, score), Datatype::float64())
      .add("label", offsetof(Record, label), Datatype::fixed_string(sizeof(Record::label)))
      .build();
}

Record record_of(int rank) {
  Record record{};
  record.id = 10 + rank;
  record.score = 0.5 * rank;
  const std::string label = "rank" + std::to_string(rank);
  std::memcpy(record.label.data(), label.data(), label.size());
  return record;
}

TEST(ParallelWrite, CompoundRecordsAndWriteAll) {
  const std::string path = temp_path("compound.h5");
  const Datatype type = record_type();
  const std::vector<double> constants = {1.5, 2.5, 3.5};
  use_and_close(File::create(path, MPI_COMM_WORLD), [&](File& file) {
    Dataset records = file.root().create_dataset("records", type, {size_h()});
    const Record mine = record_of(world_rank());
    records.write(type, {Block{{rank_h()}, {1}}}, &mine);
    Dataset fixed = file.root().create_dataset("constants", Datatype::float64(), {3});
    // Only rank 0's data is used.
    fixed.write_all(Datatype::float64(), world_rank() == 0 ? constants.data() : nullptr);
  });
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    File file = File::open_serial(path, Access::read_only);
    const Dataset records = file.root().open_dataset("records");
    const Datatype stored = records.datatype();
    EXPECT_EQ(stored.type_class(), levelforge::h5::TypeClass::compound);
    EXPECT_TRUE(stored.equals(type));
    EXPECT_FALSE(stored.equals(Datatype::int64()));
    EXPECT_EQ(stored.size(), sizeof(Record));
    EXPECT_EQ(stored.member_names(), (std::vector<std::string>{"id", "score", "label"}));
    const auto back = records.read_all_as<Record>(type);
    ASSERT_EQ(back.size(), size_h());
    for (int r = 0; r < world_size(); ++r) {
      const Record expected = record_of(r);
      const auto index = static_cast<std::size_t>(r);
      EXPECT_EQ(back[index].id, expected.id);
      EXPECT_EQ(back[index].score, expected.score);
      EXPECT_EQ(std::string(back[index].label.data()), std::string(expected.label.data()));
    }
    EXPECT_EQ(file.root().open_dataset("constants").read_all_as<double>(Datatype::float64()),
              constants);
  }
}

// ---- collective writes --------------------------------------------------------------------

// The writes meant to be collective are the result file's (ResultFile::write_rows and
// write_whole): rows of every rank into chunked, shuffled, deflated tables, and whole arrays
// from rank 0. Where HDF5 cannot transfer collectively it falls back to independent I/O
// without an error, so every rank checks the mode HDF5 says it used.
DatasetOptions like_result_tables(hsize_t rows_per_chunk, std::vector<hsize_t> trailing = {}) {
  DatasetOptions options;
  options.chunk = {rows_per_chunk};
  options.chunk.insert(options.chunk.end(), trailing.begin(), trailing.end());
  options.deflate_level = 4;
  options.shuffle = true;
  return options;
}

TEST(CollectiveWrite, RowsOfEveryRankAreWrittenCollectively) {
  const std::string path = temp_path("collective_rows.h5");
  const hsize_t columns = 5;
  const hsize_t rows = 3 * size_h() + 1;
  const Datatype int64 = Datatype::int64();
  const Datatype records = record_type();
  use_and_close(File::create(path, MPI_COMM_WORLD), [&](File& file) {
    Group root = file.root();
    const std::vector<Block> mine = my_rows(columns);
    const std::vector<std::int64_t> cells = packed_cells(mine, columns);
    Dataset contiguous = root.create_dataset("contiguous", int64, {rows, columns});
    EXPECT_EQ(contiguous.write(int64, mine, cells.data()), H5D_MPIO_CONTIGUOUS_COLLECTIVE);
    Dataset history =
        root.create_dataset("history", int64, {rows, columns}, like_result_tables(2, {columns}));
    EXPECT_EQ(history.write(int64, mine, cells.data()), H5D_MPIO_CHUNK_COLLECTIVE);
    // A rank without rows takes part in the collective transfer all the same.
    const std::vector<Block> last = world_rank() == world_size() - 1
                                        ? std::vector<Block>{row(rows - 1, columns)}
                                        : std::vector<Block>{};
    const std::vector<std::int64_t> last_cells = packed_cells(last, columns);
    EXPECT_EQ(history.write(int64, last, last_cells.data()), H5D_MPIO_CHUNK_COLLECTIVE);
    // Compound rows, as the result file's tables hold; memory and file types alike, since a
    // conversion would break the transfer up.
    Dataset table = root.create_dataset("table", records, {size_h()}, like_result_tables(1));
    const Record record = record_of(world_rank());
    EXPECT_EQ(table.write(records, {Block{{rank_h()}, {1}}}, &record), H5D_MPIO_CHUNK_COLLECTIVE);
  });
}

TEST(CollectiveWrite, WholeArraysAreWrittenCollectively) {
  const std::string path = temp_path("collective_whole.h5");
  const std::vector<double> values = {1.5, 2.5, 3.5, 4.5};
  const Datatype float64 = Datatype::float64();
  use_and_close(File::create(path, MPI_COMM_WORLD), [&](File& file) {
    Group root = file.root();
    const double* data = world_rank() == 0 ? values.data() : nullptr;
    Dataset contiguous = root.create_dataset("contiguous", float64, {4});
    EXPECT_EQ(contiguous.write_all(float64, data), H5D_MPIO_CONTIGUOUS_COLLECTIVE);
    Dataset chunked = root.create_dataset("chunked", float64, {4}, like_result_tables(4));
    EXPECT_EQ(chunked.write_all(float64, data), H5D_MPIO_CHUNK_COLLECTIVE);
  });
}

// The check above can tell: the same writes made independently, or to a serial file, are
// reported as such.
TEST(CollectiveWrite, IndependentAndSerialWritesAreToldApart) {
  const Datatype int64 = Datatype::int64();
  const std::int64_t mine = 7 + world_rank();
  use_and_close(File::create(temp_path("independent.h5"), MPI_COMM_WORLD), [&](File& file) {
    Dataset values = file.root().create_dataset("values", int64, {size_h()});
    EXPECT_EQ(values.write(int64, {Block{{rank_h()}, {1}}}, &mine, Transfer::independent),
              H5D_MPIO_NO_COLLECTIVE);
  });
  File serial = File::create_serial(rank_path("serial_write"));
  Dataset values = serial.root().create_dataset("values", int64, {1});
  EXPECT_EQ(values.write_all(int64, &mine), H5D_MPIO_NO_COLLECTIVE);
}

// ---- attributes ---------------------------------------------------------------------------

void write_every_kind(levelforge::h5::Object& object, const std::string& tag) {
  object.write_attribute("text", "hello " + tag);
  object.write_attribute("empty_text", std::string());
  object.write_attribute("count", std::int64_t{-42});
  object.write_attribute("small", 3);  // a plain int goes through the integral overload
  object.write_attribute("ratio", 0.25);
  object.write_attribute("names", std::vector<std::string>{"a", "", "longest name", tag});
  object.write_attribute("numbers", std::vector<std::int64_t>{1, -2, 3000000000});
  object.write_attribute("no_numbers", std::vector<std::int64_t>{});
  object.write_attribute("reals", std::vector<double>{0.5, -1e300, 3.25});
  object.write_attribute("replaced", std::int64_t{1});
  object.write_attribute("replaced", std::string("now a string"));  // replaces, new type
}

void expect_every_kind(const levelforge::h5::Object& object, const std::string& tag) {
  SCOPED_TRACE(object.path());
  EXPECT_EQ(object.read_string_attribute("text"), "hello " + tag);
  EXPECT_EQ(object.read_string_attribute("empty_text"), "");
  EXPECT_EQ(object.read_int_attribute("count"), -42);
  EXPECT_EQ(object.read_int_attribute("small"), 3);
  EXPECT_EQ(object.read_double_attribute("ratio"), 0.25);
  EXPECT_EQ(object.read_double_attribute("count"), -42.0);  // integers widen to double
  EXPECT_EQ(object.read_strings_attribute("names"),
            (std::vector<std::string>{"a", "", "longest name", tag}));
  EXPECT_EQ(object.read_int_attribute_array("numbers"),
            (std::vector<std::int64_t>{1, -2, 3000000000}));
  EXPECT_TRUE(object.read_int_attribute_array("no_numbers").empty());
  EXPECT_EQ(object.read_double_attribute_array("reals"), (std::vector<double>{0.5, -1e300, 3.25}));
  EXPECT_EQ(object.read_string_attribute("replaced"), "now a string");
  EXPECT_TRUE(object.has_attribute("ratio"));
  EXPECT_FALSE(object.has_attribute("absent"));
  EXPECT_EQ(object.attribute_names(),
            (std::vector<std::string>{"count", "empty_text", "names", "no_numbers", "numbers",
                                      "ratio", "reals", "replaced", "small", "text"}));
}

// Variable-length strings, as h5py writes them, made with the raw C API.
void write_variable_length_strings(hid_t object) {
  Handle type(H5Tcopy(H5T_C_S1));
  H5Tset_size(type.id(), H5T_VARIABLE);
  H5Tset_cset(type.id(), H5T_CSET_UTF8);
  const char* one = "variable \xc3\xa9t\xc3\xa9";
  Handle scalar(H5Screate(H5S_SCALAR));
  Handle single(H5Acreate2(object, "vlen", type.id(), scalar.id(), H5P_DEFAULT, H5P_DEFAULT));
  EXPECT_GE(H5Awrite(single.id(), type.id(), &one), 0);
  const std::array<const char*, 3> many = {"x", "", "yz"};
  const hsize_t count = many.size();
  Handle list_space(H5Screate_simple(1, &count, nullptr));
  Handle list(
      H5Acreate2(object, "vlen_list", type.id(), list_space.id(), H5P_DEFAULT, H5P_DEFAULT));
  EXPECT_GE(H5Awrite(list.id(), type.id(), many.data()), 0);
}

TEST(Attributes, EveryKindRoundTripsOnRootGroupAndDataset) {
  const std::string path = temp_path("attributes.h5");
  use_and_close(File::create(path, MPI_COMM_WORLD), [&](File& file) {
    Group root = file.root();
    Group group = root.create_group("settings");
    Dataset dataset = group.create_dataset("values", Datatype::uint8(), {4});
    write_every_kind(root, "root");
    write_every_kind(group, "group");
    write_every_kind(dataset, "dataset");
    expect_every_kind(dataset, "dataset");  // also readable while open in parallel
    file.flush();
  });
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank() == 0) {
    File file = File::open_serial(path, Access::read_write);
    Group root = file.root();
    expect_every_kind(root, "root");
    expect_every_kind(root.open_group("settings"), "group");
    expect_every_kind(root.open_dataset("settings/values"), "dataset");
    EXPECT_EQ(root.children(), (std::vector<std::string>{"settings"}));
    EXPECT_TRUE(root.has("settings/values"));
    EXPECT_TRUE(root.has("/settings"));
    EXPECT_FALSE(root.has("settings/absent"));
    EXPECT_FALSE(root.has("absent/values"));  // a missing parent is "no", not an error

    write_variable_length_strings(root.id());
    EXPECT_EQ(root.read_string_attribute("vlen"), "variable \xc3\xa9t\xc3\xa9");
    EXPECT_EQ(root.read_strings_attribute("vlen_list"), (std::vector<std::string>{"x", "", "yz"}));
    EXPECT_NE(error_of([&] { (void)root.read_int_attribute("vlen"); }), "");
    EXPECT_NE(error_of([&] { (void)root.read_string_attribute("count"); }).find("not a string"),
              std::string::npos);
    EXPECT_NE(error_of([&] { (void)root.read_int_attribute("numbers"); }).find("not one"),
              std::string::npos);
  }
}

// ---- errors -------------------------------------------------------------------------------

TEST(Errors, OpenSerialOfAMissingPathNamesIt) {
  const std::string path = rank_path("missing");
  const std::string message = error_of([&] { File::open_serial(path, Access::read_only); });
  EXPECT_EQ(message, path + " does not exist");
}

TEST(Errors, OpenSerialOfAFileThatIsNotHdf5) {
  const std::string path = rank_path("not_hdf5");
  std::ofstream(path) << "just some text, not HDF5\n";
  const std::string message = error_of([&] { File::open_serial(path, Access::read_only); });
  EXPECT_EQ(message, path + " is not an HDF5 file");
}

TEST(Errors, CreateInAMissingDirectoryNamesThePath) {
  const std::string path = temp_path("no/such/dir/x.h5");
  const std::string message = error_of([&] { File::create(path, MPI_COMM_WORLD); });
  EXPECT_EQ(message.rfind("creating " + path + ": ", 0), 0u) << message;
}

TEST(Errors, BadObjectsAndSelectionsAreReportedWithContext) {
  const std::string path = temp_path("errors.h5");
  use_and_close(File::create(path, MPI_COMM_WORLD), [&](File& file) {
    Group root = file.root();
    const std::string missing = error_of([&] { (void)root.open_dataset("missing"); });
    const std::string prefix = "opening dataset '/missing' in " + path + ": ";
    EXPECT_EQ(missing.rfind(prefix, 0), 0u) << missing;
    EXPECT_GT(missing.size(), prefix.size()) << "no HDF5 message: " << missing;
    EXPECT_EQ(missing.find("no HDF5 error details"), std::string::npos) << missing;

    EXPECT_NE(error_of([&] { (void)root.open_group("nope"); }).find("'/nope'"), std::string::npos);
    EXPECT_NE(error_of([&] {
                root.create_dataset("bad", Datatype::int64(), {4}, {{}, 5, false, {}, {}});
              }).find("need a chunked layout"),
              std::string::npos);

    const Datatype int64 = Datatype::int64();
    Dataset small = root.create_dataset("small", int64, {4, 3});
    const std::vector<std::int64_t> data(12, 1);
    const std::string outside = error_of([&] {
      small.write(int64, {Block{{3, 0}, {2, 3}}}, data.data());
    });
    EXPECT_NE(outside.find("writing dataset '/small' in " + path), std::string::npos) << outside;
    EXPECT_NE(outside.find("outside the extent [4, 3]"), std::string::npos) << outside;
    const std::string overlap = error_of([&] {
      small.write(int64, {Block{{0, 0}, {2, 2}}, Block{{1, 1}, {2, 2}}}, data.data());
    });
    EXPECT_NE(overlap.find("overlap"), std::string::npos) << overlap;
    const std::string wrong_rank = error_of([&] {
      small.write(int64, {Block{{0}, {1}}}, data.data());
    });
    EXPECT_NE(wrong_rank.find("rank 2"), std::string::npos) << wrong_rank;
    DatasetOptions deflated;
    deflated.chunk = {2, 3};
    deflated.deflate_level = 1;
    Dataset packed = root.create_dataset("packed", int64, {4, 3}, deflated);
    // HDF5 1.10 writes filtered datasets only collectively, even on a single rank.
    const std::string independent =
        error_of([&] { packed.write(int64, {row(0, 3)}, data.data(), Transfer::independent); });
    EXPECT_NE(independent.find("writing dataset '/packed'"), std::string::npos) << independent;
    EXPECT_NE(independent.find("independent"), std::string::npos) << independent;
    EXPECT_NE(error_of([&] {
                root.write_attribute("huge", std::uint64_t{1} << 63);
              }).find("does not fit int64"),
              std::string::npos);
    std::vector<std::int64_t> out(12);
    EXPECT_NE(error_of([&] { small.read(int64, {Block{{0, 3}, {1, 1}}}, out.data()); }), "");
  });
}

TEST(Errors, ParallelCloseWithObjectsOpenIsReported) {
  const std::string path = temp_path("close.h5");
  File file = File::create(path, MPI_COMM_WORLD);
  {
    Group open_group = file.root().create_group("g");
    const std::string message = error_of([&] { file.close(); });
    EXPECT_EQ(message.rfind("closing " + path + ": ", 0), 0u) << message;
    EXPECT_NE(message.find("objects still open"), std::string::npos) << message;
  }
  // The failed close kept the reference; with the group gone, closing works.
  const hid_t id = file.id();
  EXPECT_GT(H5Iis_valid(id), 0);
  EXPECT_NO_THROW(file.close());
  EXPECT_EQ(file.id(), H5I_INVALID_HID);
  EXPECT_EQ(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE), 0);  // nothing left open anywhere
}

}  // namespace

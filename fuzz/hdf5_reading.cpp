#include "fuzz/hdf5_reading.hpp"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/h5/h5.hpp"
#include "runner/h5/seal.hpp"
#include "runner/output/table_reader.hpp"

namespace levelforge::fuzz {

namespace {

// Deep or cyclic (hard-linked) group trees stop here instead of recursing without end.
constexpr int max_depth = 8;

// A checkpoint directory of this process: the input is written as its manifest, and a
// hard link makes it the directory's one segment too.
struct Scratch {
  std::filesystem::path directory;
  std::filesystem::path manifest;
  std::filesystem::path segment;
};

Scratch make_scratch() {
  std::error_code ignored;
  const std::filesystem::path memory = "/dev/shm";
  const auto parent = std::filesystem::is_directory(memory, ignored)
                          ? memory
                          : std::filesystem::temp_directory_path();
  Scratch scratch;
  scratch.directory = parent / ("levelforge-fuzz-" + std::to_string(::getpid()) + ".checkpoint");
  scratch.manifest = scratch.directory / "manifest.h5";
  scratch.segment = scratch.directory / "s0000-r000000-000000.h5";
  std::filesystem::create_directories(scratch.directory);
  return scratch;
}

// Every attribute, read the way the CLI reads them: each reader either succeeds or throws
// IoError for an attribute of another type or shape.
void read_attributes(const h5::Object& object) {
  const auto attempt = [](auto read) {
    try {
      (void)read();
    } catch (const h5::IoError&) {
    }
  };
  for (const auto& name : object.attribute_names()) {
    attempt([&] { return object.read_string_attribute(name); });
    attempt([&] { return object.read_int_attribute(name); });
    attempt([&] { return object.read_double_attribute(name); });
    attempt([&] { return object.read_strings_attribute(name); });
    attempt([&] { return object.read_int_attribute_array(name); });
    attempt([&] { return object.read_double_attribute_array(name); });
  }
}

void read_dataset(const h5::Dataset& dataset) {
  read_attributes(dataset);
  (void)dataset.dims();
  const auto type = dataset.datatype();
  (void)type.size();
  if (type.type_class() != levelforge::h5::TypeClass::compound) return;
  const auto table = read_table(dataset);
  for (std::size_t i = 0; i < table.row_count(); ++i) (void)table.row(i);
  if (dataset.element_count() > 0) {
    (void)read_table_row(dataset, static_cast<std::size_t>(dataset.element_count() - 1));
  }
}

void read_group(const h5::Group& group, int depth) {
  read_attributes(group);
  if (depth >= max_depth) return;
  for (const auto& name : group.children()) {
    // As `inspect` does: a link that opens as a group is a group, anything else a dataset.
    try {
      read_group(group.open_group(name), depth + 1);
      continue;
    } catch (const h5::IoError&) {
    }
    try {
      read_dataset(group.open_dataset(name));
    } catch (const h5::IoError&) {
    }
  }
}

}  // namespace

void read_as_levelforge(const std::uint8_t* data, std::size_t size, Sealing sealing) {
  static const Scratch scratch = make_scratch();
  const std::string path = scratch.manifest.string();
  if (std::FILE* file = std::fopen(path.c_str(), "wb")) {
    bool written = true;
    if (sealing == Sealing::sealed) {
      const std::vector<char> empty_block(h5::seal_block_size);
      written = std::fwrite(empty_block.data(), 1, empty_block.size(), file) == empty_block.size();
    }
    written = written && std::fwrite(data, 1, size, file) == size;
    if (std::fclose(file) != 0 || !written) return;
  } else {
    return;
  }
  if (sealing == Sealing::sealed) h5::seal(path);
  std::error_code ignored;
  std::filesystem::remove(scratch.segment, ignored);
  std::filesystem::create_hard_link(scratch.manifest, scratch.segment, ignored);
  try {
    const auto file = h5::File::open_sealed(path);
    read_group(file.root(), 0);
  } catch (const h5::IoError&) {
  }
  try {
    (void)summarize_checkpoint(scratch.directory.string());
  } catch (const CheckpointError&) {
  }
}

}  // namespace levelforge::fuzz

// Fuzzes the code that reads result and checkpoint files: the h5 wrapper (runner/h5), the
// table reader of `inspect` and `maze` (runner/output/table_reader.cpp), and the checkpoint
// reader of `inspect` and `--resume` (runner/checkpoint: the manifest and segment files).
// libFuzzer's bytes are written to a file, because HDF5 reads files; /dev/shm keeps that
// in memory. The same file is also a checkpoint directory's manifest and its one segment.
// h5::IoError and CheckpointError are the expected answers to a bad file; any other
// exception escapes and is reported as a crash.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/h5/h5.hpp"
#include "runner/output/table_reader.hpp"

namespace {

namespace h5 = levelforge::h5;

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
  if (type.type_class() != H5T_COMPOUND) return;
  const auto table = levelforge::read_table(dataset);
  for (std::size_t i = 0; i < table.row_count(); ++i) (void)table.row(i);
  if (dataset.element_count() > 0) {
    (void)levelforge::read_table_row(dataset,
                                     static_cast<std::size_t>(dataset.element_count() - 1));
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

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Scratch scratch = make_scratch();
  const std::string path = scratch.manifest.string();
  if (std::FILE* file = std::fopen(path.c_str(), "wb")) {
    const bool written = std::fwrite(data, 1, size, file) == size;
    if (std::fclose(file) != 0 || !written) return 0;
  } else {
    return 0;
  }
  std::error_code ignored;
  std::filesystem::remove(scratch.segment, ignored);
  std::filesystem::create_hard_link(scratch.manifest, scratch.segment, ignored);
  try {
    const auto file = h5::File::open_serial(path, h5::Access::read_only);
    read_group(file.root(), 0);
  } catch (const h5::IoError&) {
  }
  try {
    (void)levelforge::summarize_checkpoint(scratch.directory.string());
  } catch (const levelforge::CheckpointError&) {
  }
  return 0;
}

#include "runner/checkpoint/segment.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <span>
#include <stdexcept>

#include "runner/h5/h5.hpp"
#include "runner/h5/seal.hpp"

namespace levelforge {

namespace {

constexpr std::string_view ints_group = "ints";
constexpr std::string_view bytes_group = "bytes";
constexpr std::string_view layouts_group = "layouts";

void append_u64(std::vector<std::byte>& out, std::uint64_t value) {
  const auto start = out.size();
  out.resize(start + sizeof value);
  std::memcpy(out.data() + start, &value, sizeof value);
}

// name length, name, element count, elements
void append_entry(std::vector<std::byte>& out, const std::string& name, std::size_t count,
                  std::span<const std::byte> data) {
  append_u64(out, name.size());
  const auto* text = reinterpret_cast<const std::byte*>(name.data());
  out.insert(out.end(), text, text + name.size());
  append_u64(out, count);
  out.insert(out.end(), data.begin(), data.end());
}

class Reader {
 public:
  explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  std::uint64_t u64() {
    std::uint64_t value = 0;
    std::memcpy(&value, take(sizeof value).data(), sizeof value);
    return value;
  }
  std::span<const std::byte> take(std::size_t size) {
    if (size > bytes_.size() - offset_) throw std::runtime_error("serialized segment is truncated");
    const auto part = bytes_.subspan(offset_, size);
    offset_ += size;
    return part;
  }
  [[nodiscard]] bool done() const { return offset_ == bytes_.size(); }

 private:
  std::span<const std::byte> bytes_;
  std::size_t offset_ = 0;
};

std::string as_string(std::span<const std::byte> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// Data reaches the disk before the rename makes the file visible under its name.
void sync_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw h5::IoError("opening " + path + " to sync it: " + std::strerror(errno));
  const int synced = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (synced != 0) throw h5::IoError("syncing " + path + ": " + std::strerror(error));
}

// `bytes` as the file `path`; on an error (a full disk) nothing is left there.
void write_bytes(const std::string& path, std::span<const std::byte> bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw h5::IoError("creating " + path + ": " + std::strerror(errno));
  std::size_t written = 0;
  int error = 0;
  while (written < bytes.size()) {
    const auto count = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (count < 0 && errno == EINTR) continue;
    if (count <= 0) {
      error = count < 0 ? errno : EIO;
      break;
    }
    written += static_cast<std::size_t>(count);
  }
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error != 0) {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    throw h5::IoError("writing " + path + ": " + std::strerror(error));
  }
}

}  // namespace

void Segment::put_ints(const std::string& name, std::vector<std::int64_t> values) {
  ints_[name] = std::move(values);
}

void Segment::put_bytes(const std::string& name, std::vector<std::byte> bytes) {
  bytes_[name] = std::move(bytes);
}

void Segment::append_ints(const std::string& name, std::span<const std::int64_t> values) {
  auto& target = ints_[name];
  target.insert(target.end(), values.begin(), values.end());
}

void Segment::append_bytes(const std::string& name, std::span<const std::byte> bytes) {
  auto& target = bytes_[name];
  target.insert(target.end(), bytes.begin(), bytes.end());
}

std::span<const std::int64_t> Segment::ints(std::string_view name) const {
  const auto found = ints_.find(name);
  return found == ints_.end() ? std::span<const std::int64_t>() : std::span(found->second);
}

std::span<const std::byte> Segment::bytes(std::string_view name) const {
  const auto found = bytes_.find(name);
  return found == bytes_.end() ? std::span<const std::byte>() : std::span(found->second);
}

std::vector<std::byte> Segment::serialize() const {
  std::vector<std::byte> out;
  append_u64(out, ints_.size());
  for (const auto& [name, values] : ints_)
    append_entry(out, name, values.size(), std::as_bytes(std::span(values)));
  append_u64(out, bytes_.size());
  for (const auto& [name, values] : bytes_) append_entry(out, name, values.size(), values);
  return out;
}

Segment Segment::deserialize(std::span<const std::byte> bytes) {
  Segment segment;
  Reader in(bytes);
  for (auto count = in.u64(); count > 0; --count) {
    const auto name = as_string(in.take(in.u64()));
    const auto size = in.u64();
    if (size > bytes.size() / sizeof(std::int64_t))
      throw std::runtime_error("serialized segment is truncated");
    std::vector<std::int64_t> values(size);
    const auto data = in.take(size * sizeof(std::int64_t));
    if (size > 0) std::memcpy(values.data(), data.data(), data.size());
    segment.ints_[name] = std::move(values);
  }
  for (auto count = in.u64(); count > 0; --count) {
    const auto name = as_string(in.take(in.u64()));
    const auto data = in.take(in.u64());
    segment.bytes_[name].assign(data.begin(), data.end());
  }
  if (!in.done()) throw std::runtime_error("serialized segment has trailing bytes");
  return segment;
}

void Segment::write(const std::string& path, const std::vector<PackedLayout>& layouts) const {
  const auto temporary = path + ".tmp";
  auto file = h5::File::create_in_memory(temporary);
  {
    auto root = file.root();
    auto ints = root.create_group(std::string(ints_group));
    for (const auto& [name, values] : ints_) {
      auto dataset = ints.create_dataset(name, h5::Datatype::int64(), {values.size()});
      if (!values.empty()) dataset.write_all(h5::Datatype::int64(), values.data());
    }
    auto blobs = root.create_group(std::string(bytes_group));
    for (const auto& [name, values] : bytes_) {
      auto dataset = blobs.create_dataset(name, h5::Datatype::uint8(), {values.size()});
      if (!values.empty()) dataset.write_all(h5::Datatype::uint8(), values.data());
    }
    if (!layouts.empty()) {
      auto described = root.create_group(std::string(layouts_group));
      for (const auto& layout : layouts) {
        std::vector<hsize_t> dims{0};
        dims.insert(dims.end(), layout.block.begin(), layout.block.end());
        h5::DatasetOptions options;
        options.fill = layout.missing;
        auto dataset = described.create_dataset(layout.key, layout.type, dims, options);
        if (!layout.result_path.empty()) dataset.write_attribute("path", layout.result_path);
      }
    }
  }
  // A killed writer leaves the .tmp, which a resume discards; a failed one removes it.
  write_bytes(temporary, file.image());
  file.close();
  h5::seal(temporary);
  sync_file(temporary);
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) throw h5::IoError("renaming " + temporary + " to " + path + ": " + error.message());
}

Segment Segment::read(const std::string& path) {
  Segment segment;
  const auto file = h5::File::open_sealed(path);
  const auto root = file.root();
  for (const auto group_name : {ints_group, bytes_group}) {
    if (!root.has(std::string(group_name))) {
      throw h5::IoError(path + ": not a levelforge checkpoint segment (no group '" +
                        std::string(group_name) + "')");
    }
  }
  const auto ints = root.open_group(std::string(ints_group));
  for (const auto& name : ints.children()) {
    segment.ints_[name] = ints.open_dataset(name).read_all_as<std::int64_t>(h5::Datatype::int64());
  }
  const auto blobs = root.open_group(std::string(bytes_group));
  for (const auto& name : blobs.children()) {
    segment.bytes_[name] = blobs.open_dataset(name).read_all_as<std::byte>(h5::Datatype::uint8());
  }
  return segment;
}

}  // namespace levelforge

#pragma once
// Packed rows kept in memory until they are written (the exhaustive driver's solutions,
// which kernels write straight into one: Reductions::write_solutions_into): appended without
// zero-filling in pages of their own, grown by remapping them (mremap), so growing neither
// copies the rows already there nor faults their pages in again. A std::vector<std::byte>
// did all three; in a sweep of 2,000,000 puzzles with 219,077 solution rows of 120 bytes
// they took a sixth of the time (bench_drivers BM_ExhaustiveChunks/case:0). The pages are
// asked to be huge: first touching 26 MB in 4 KiB pages faulted 6,400 times, a tenth of
// that sweep's time.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <utility>

#include <sys/mman.h>

namespace levelforge {

class RowBuffer {
 public:
  RowBuffer() = default;
  RowBuffer(const RowBuffer&) = delete;
  RowBuffer& operator=(const RowBuffer&) = delete;
  RowBuffer(RowBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  RowBuffer& operator=(RowBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(capacity_, other.capacity_);
    return *this;
  }
  ~RowBuffer() {
    if (data_ != nullptr) (void)munmap(data_, capacity_);
  }

  // `bytes` more bytes at the end, not initialized; throws std::bad_alloc.
  [[nodiscard]] std::span<std::byte> extend(std::size_t bytes) {
    if (bytes > capacity_ - size_) grow(size_ + bytes);
    const auto first = size_;
    size_ += bytes;
    return {data_ + first, bytes};
  }
  void append(std::span<const std::byte> bytes) {
    if (!bytes.empty()) std::memcpy(extend(bytes.size()).data(), bytes.data(), bytes.size());
  }
  // Drops the bytes past `size` (a rollback of the last extend).
  void truncate(std::size_t size) { size_ = std::min(size_, size); }

  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] std::span<const std::byte> bytes() const { return {data_, size_}; }
  [[nodiscard]] std::span<std::byte> bytes() { return {data_, size_}; }

 private:
  static constexpr std::size_t huge_page = std::size_t{1} << 21;

  // Capacity in whole huge pages at a huge-page boundary: a transparent huge page covers
  // only an aligned 2 MiB, and mremap had moved the rows to arbitrary addresses, where most
  // of them faulted in 4 KiB at a time (on a 2-vCPU Zen 5 VM, 11 us a fault against 0.25 us
  // a 4 KiB share of a huge one; a 2-rank matchstick run's chunks faulted 639 times a rank,
  // now 127).
  void grow(std::size_t needed) {
    const auto wanted = std::max({needed, 2 * capacity_, huge_page});
    const auto capacity = (wanted + huge_page - 1) / huge_page * huge_page;
    auto* grown = aligned_mapping(capacity);
    if (data_ != nullptr &&
        mremap(data_, capacity_, capacity, MREMAP_MAYMOVE | MREMAP_FIXED, grown) == MAP_FAILED) {
      (void)munmap(grown, capacity);
      throw std::bad_alloc();
    }
    // Advice for the whole mapping, which keeps it one mapping that mremap can move (advice
    // for a part splits it, and mremap then refuses); where transparent huge pages are on
    // "madvise", first touches fault 512 times less often. A refusal changes nothing.
    if (data_ == nullptr) (void)madvise(grown, capacity, MADV_HUGEPAGE);
    data_ = grown;
    capacity_ = capacity;
  }

  // `bytes` (whole huge pages) of fresh memory at a huge-page boundary.
  static std::byte* aligned_mapping(std::size_t bytes) {
    void* mapped = mmap(nullptr, bytes + huge_page, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    auto* first = static_cast<std::byte*>(mapped);
    const auto misaligned = reinterpret_cast<std::uintptr_t>(first) % huge_page;
    const auto head = misaligned == 0 ? 0 : huge_page - misaligned;
    if (head > 0) (void)munmap(first, head);
    (void)munmap(first + head + bytes, huge_page - head);
    return first + head;
  }

  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace levelforge

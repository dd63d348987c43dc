#pragma once
// Thin checked wrappers over the MPI calls the runner uses, in the manner of mpl's
// comm_group.hpp: dup() duplicates a communicator (a collective, so never an implicit copy),
// a move leaves a null one behind, and MPI_COMM_WORLD / MPI_COMM_SELF are never freed.

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "runner/errors.hpp"

namespace levelforge::mpi {

// A failed MPI call, this rank's: the job is aborted, exit 1.
class MpiError : public RankError {
 public:
  using RankError::RankError;
};

// Throws MpiError naming the call and MPI's own description of `code`.
void check(int code, const char* call);

// MPI_Init_thread on construction unless MPI already runs; MPI_Finalize on destruction only
// where that MPI_Init_thread ran (and MPI_Abort did not). Asks for MPI_THREAD_MULTIPLE: the
// work queue's server thread on rank 0 (counters.hpp) makes MPI calls beside the main one.
class Environment {
 public:
  Environment(int& argc, char**& argv);
  ~Environment();
  Environment(const Environment&) = delete;
  Environment& operator=(const Environment&) = delete;
  Environment(Environment&&) = delete;
  Environment& operator=(Environment&&) = delete;

 private:
  bool initialized_here_ = false;
};

// Whether a launcher (mpirun/mpiexec, srun, Hydra) started this process as one rank of a
// job, read from the environment it sets; without MPI_Init, which costs a third of a second.
[[nodiscard]] bool started_by_launcher();

class Comm {
 public:
  static Comm world();

  Comm(const Comm& other) = delete;
  Comm& operator=(const Comm& other) = delete;
  Comm(Comm&& other) noexcept;
  Comm& operator=(Comm&& other) noexcept;
  ~Comm();

  [[nodiscard]] MPI_Comm native() const { return comm_; }
  [[nodiscard]] int rank() const;
  [[nodiscard]] int size() const;

  // Collective. MPI_Comm_dup: the same group in a communicator of its own.
  [[nodiscard]] Comm dup() const;
  // MPI_Comm_split: ranks with equal color form one communicator, ordered by key.
  [[nodiscard]] Comm split(int color, int key) const;

  // Collective: whether every rank runs on one host (the same MPI_Get_processor_name).
  [[nodiscard]] bool on_one_node() const;

  void barrier() const;
  void broadcast(std::string& text, int root) const;
  void broadcast(std::span<std::byte> bytes, int root) const;
  // A value whose bytes are the value: no pointers inside, so it means the same on every rank.
  template <class T>
  requires std::is_trivially_copyable_v<T>
  void broadcast_value(T& value, int root) const {
    broadcast(std::as_writable_bytes(std::span<T, 1>(&value, 1)), root);
  }

  void all_reduce_sum(std::span<std::int64_t> values) const;
  void all_reduce_sum(std::span<double> values) const;
  [[nodiscard]] double all_reduce_max(double value) const;
  [[nodiscard]] std::int64_t all_reduce_max(std::int64_t value) const;
  // all_reduce_max for a rank that may wait long for the others (the end of a work loop):
  // it waits asleep between tests instead of spinning in MPI, so that on a node with more
  // ranks than cores its core goes to the ranks still working.
  [[nodiscard]] std::int64_t all_reduce_max_asleep(std::int64_t value) const;

  // Every rank contributes `local` (any length); all receive the concatenation in rank
  // order, and the per-rank lengths.
  [[nodiscard]] std::vector<std::byte> all_gather_bytes(std::span<const std::byte> local,
                                                        std::vector<int>* lengths = nullptr) const;
  // Like all_gather_bytes, but into `out` whose size is already the total.
  void all_gather_into(std::span<const std::byte> local, std::span<std::byte> out) const;

  // Collective: every rank's `local` combined up a binomial tree to rank 0 (log2 P steps,
  // one message per rank: what it and the ranks below it in the tree hold), and rank 0's
  // result broadcast to all. `merge(own, received)` returns the combination of two parts and
  // must give the same result in whatever order parts arrive (a top-k table with a total
  // order, a sum).
  using BytesMerge =
      std::function<std::vector<std::byte>(std::vector<std::byte>, std::span<const std::byte>)>;
  [[nodiscard]] std::vector<std::byte> tree_reduce_bytes(std::vector<std::byte> local,
                                                         const BytesMerge& merge) const;

  // Collective: delivers each message (destination rank, bytes) to its rank, where only the
  // ranks that are sent something hear of it: no count per rank pair (nonblocking
  // consensus: synchronous sends, then a nonblocking barrier once they are matched; Hoefler,
  // Siebert and Lumsdaine 2010). Returns what this rank was sent, as (source, bytes), ordered
  // by source, a source's messages in the order it listed them.
  using Message = std::pair<int, std::vector<std::byte>>;
  [[nodiscard]] std::vector<Message> sparse_exchange(const std::vector<Message>& messages) const;

  // Collective: the sum of `value` over the ranks before this one (0 on rank 0).
  [[nodiscard]] std::int64_t exclusive_scan_sum(std::int64_t value) const;

  // Every rank receives every rank's string, in rank order.
  [[nodiscard]] std::vector<std::string> all_gather_strings(const std::string& local) const;

  [[noreturn]] void abort(int code) const;

 private:
  struct Layout {
    std::vector<int> counts;
    std::vector<int> displacements;
    std::size_t total = 0;
  };
  [[nodiscard]] Layout gather_layout(std::size_t local_bytes) const;
  void all_gather_with(const Layout& layout, std::span<const std::byte> local,
                       std::span<std::byte> out) const;

  explicit Comm(MPI_Comm comm) : comm_(comm) {}
  [[nodiscard]] bool owned() const;
  // Frees the communicator this owns (none: WORLD, SELF, null) and becomes null.
  void reset() noexcept;

  MPI_Comm comm_ = MPI_COMM_NULL;
};

std::string processor_name();
// The level MPI_Init_thread gave: "single", "funneled", "serialized" or "multiple".
std::string thread_level();
// The first line of MPI_Get_library_version: "Open MPI v4.1.4, package: ...".
std::string library_version();

// Collective: runs `decide` on rank 0 only and shares the message of what it threw (empty
// when it returned), so that every rank can raise the same error; the other ranks would
// otherwise wait in the next collective for a rank that left.
std::string root_verdict(const Comm& comm, const std::function<void()>& decide);
// Collective: every rank's non-empty `local` problem, one per line, on every rank; empty
// when no rank has one.
std::string all_problems(const Comm& comm, const std::string& local);

}  // namespace levelforge::mpi

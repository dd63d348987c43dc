#pragma once
// Counters on rank 0 of a communicator that any rank adds to and reads without waiting for
// rank 0 to call MPI: the work queue behind dynamic task pulling. Two hosts:
//  - server: rank 0 holds them in memory and a thread of its own answers the other ranks'
//    requests (two-sided messages on a communicator of their own). A request waits at most
//    one poll interval of that thread, whatever the transport, also while rank 0 computes.
//    Needs MPI_THREAD_MULTIPLE.
//  - window: a one-sided window on rank 0 (MPI_Fetch_and_op), in shared memory where every
//    rank is on one node. Truly one-sided only where the window's component does the
//    atomics without rank 0 (osc/sm on one node, osc/ucx with hardware atomics); with
//    osc/pt2pt a request waits until rank 0 next calls MPI.
//  - auto (the default): the window where every rank is on one node and its atomics land
//    without rank 0 (measured at start-up), the server otherwise.
// Construction and free() are collective. The destructor never is: reached without free()
// only on an error path, where the other ranks may never come, it stops rank 0's thread
// and leaves a window to MPI_Finalize or the job's abort.

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "runner/mpi/mpi.hpp"

namespace levelforge::mpi {

enum class CounterHost { automatic, server, window };

[[nodiscard]] std::string_view counter_host_name(CounterHost host);
// "auto", "server" or "window"; throws MpiError naming the value otherwise.
[[nodiscard]] CounterHost parse_counter_host(std::string_view name);

class Counters {
 public:
  Counters() = default;
  virtual ~Counters() = default;
  Counters(const Counters&) = delete;
  Counters& operator=(const Counters&) = delete;
  Counters(Counters&&) = delete;
  Counters& operator=(Counters&&) = delete;

  // Adds amounts[i] to counter i (one per counter) in one round trip and returns the
  // values before.
  virtual std::vector<std::int64_t> fetch_add(std::span<const std::int64_t> amounts) = 0;
  // Collective, once the counters are no longer used; a second call does nothing.
  virtual void free() = 0;
  // What holds the counters, for the provenance: "server thread on rank 0 (...)" or
  // "one-sided window (osc/sm)".
  [[nodiscard]] virtual std::string description() const = 0;
};

// Collective. `count` counters, all 0.
[[nodiscard]] std::unique_ptr<Counters> make_counters(const Comm& comm, std::size_t count,
                                                      CounterHost host);

class WindowCounters final : public Counters {
 public:
  // `one_node`: every rank of `comm` is on one node (the window then goes in shared memory
  // where it can).
  WindowCounters(const Comm& comm, std::size_t count, bool one_node);
  ~WindowCounters() override = default;
  WindowCounters(const WindowCounters&) = delete;
  WindowCounters& operator=(const WindowCounters&) = delete;
  WindowCounters(WindowCounters&&) = delete;
  WindowCounters& operator=(WindowCounters&&) = delete;

  std::vector<std::int64_t> fetch_add(std::span<const std::int64_t> amounts) override;
  void free() override;
  [[nodiscard]] std::string description() const override;
  // Open MPI's one-sided component behind the window, told by the info keys each sets
  // ("sm", "rdma", "pt2pt", or "unknown" elsewhere).
  [[nodiscard]] const std::string& component() const { return component_; }
  // Whether the other ranks' atomics land while rank 0 makes no MPI call.
  [[nodiscard]] bool passive() const { return passive_; }

 private:
  MPI_Win window_ = MPI_WIN_NULL;
  std::int64_t* memory_ = nullptr;
  std::size_t count_;
  std::string component_;
  bool passive_ = false;
};

class ServedCounters final : public Counters {
 public:
  ServedCounters(const Comm& comm, std::size_t count);
  ~ServedCounters() override;
  ServedCounters(const ServedCounters&) = delete;
  ServedCounters& operator=(const ServedCounters&) = delete;
  ServedCounters(ServedCounters&&) = delete;
  ServedCounters& operator=(ServedCounters&&) = delete;

  std::vector<std::int64_t> fetch_add(std::span<const std::int64_t> amounts) override;
  void free() override;
  [[nodiscard]] std::string description() const override;

  // The longest the serving thread sleeps between polls: the bound on a request's wait
  // beyond the messages themselves.
  static constexpr std::int64_t longest_poll_microseconds = 2000;

 private:
  void serve() noexcept;
  void stop_serving() noexcept;
  std::vector<std::int64_t> add_locally(std::span<const std::int64_t> amounts);

  Comm requests_;  // a communicator of its own: no tag can meet the run's other messages
  std::size_t count_;
  bool root_ = false;
  std::unique_ptr<std::atomic<std::int64_t>[]> values_;  // rank 0 only
  std::atomic<bool> stopping_{false};
  std::thread server_;
};

}  // namespace levelforge::mpi

#include "runner/mpi/counters.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <exception>
#include <string_view>

namespace levelforge::mpi {

std::string_view counter_host_name(CounterHost host) {
  switch (host) {
    case CounterHost::automatic: return "auto";
    case CounterHost::server: return "server";
    case CounterHost::window: break;
  }
  return "window";
}

CounterHost parse_counter_host(std::string_view name) {
  for (const auto host : {CounterHost::automatic, CounterHost::server, CounterHost::window})
    if (name == counter_host_name(host)) return host;
  throw MpiError("work queue '" + std::string(name) + "': expected auto, server or window");
}

namespace {

// auto: on one node a window's atomics (osc/sm, osc/rdma) answer in about a microsecond,
// while a request to the server waits for its thread's next poll (up to 2 ms: on 2 ranks the
// short sweeps' ranks idled 5-18% of the run, docs/drivers.md). Between nodes, or where the
// window cannot be made or needs rank 0, the server.
std::unique_ptr<Counters> automatic_counters(const Comm& comm, std::size_t count) {
  if (comm.size() == 1 || !comm.on_one_node()) {
    return std::make_unique<ServedCounters>(comm, count);
  }
  std::unique_ptr<WindowCounters> window;
  try {
    window = std::make_unique<WindowCounters>(comm, count, true);
  } catch (const MpiError&) {
    // Open MPI's osc/pt2pt refuses windows under MPI_THREAD_MULTIPLE, on every rank alike.
  }
  const bool failed_somewhere = comm.all_reduce_max(std::int64_t{window ? 0 : 1}) != 0;
  if (failed_somewhere && window) {
    throw MpiError("work queue: the one-sided window was made on some ranks only");
  }
  if (window && window->passive()) return window;
  if (window) window->free();
  return std::make_unique<ServedCounters>(comm, count);
}

}  // namespace

std::unique_ptr<Counters> make_counters(const Comm& comm, std::size_t count, CounterHost host) {
  switch (host) {
    case CounterHost::automatic: return automatic_counters(comm, count);
    case CounterHost::window:
      return std::make_unique<WindowCounters>(comm, count, comm.on_one_node());
    case CounterHost::server: break;
  }
  return std::make_unique<ServedCounters>(comm, count);
}

namespace {

int checked_int(std::size_t count) {
  if (count > 1024) throw MpiError("counters: " + std::to_string(count) + " is too many");
  return static_cast<int>(count);
}

void check_amounts(std::size_t amounts, std::size_t counters) {
  if (amounts != counters) {
    throw MpiError("counters: " + std::to_string(amounts) + " amounts for " +
                   std::to_string(counters) + " counters");
  }
}

bool has_info_key(MPI_Info info, const char* key) {
  std::array<char, 64> value{};
  int found = 0;
  check(MPI_Info_get(info, key, static_cast<int>(value.size()) - 1, value.data(), &found),
        "MPI_Info_get");
  return found != 0;
}

// Open MPI 4.1's osc/sm and osc/rdma report info keys of their own; osc/pt2pt and osc/ucx
// report none. Elsewhere the name is unknown, and the progress probe tells what matters.
std::string window_component(MPI_Win window) {
  MPI_Info info = MPI_INFO_NULL;
  check(MPI_Win_get_info(window, &info), "MPI_Win_get_info");
  std::string name = "unknown";
  if (has_info_key(info, "blocking_fence")) {
    name = "sm";
  } else if (has_info_key(info, "no_locks")) {
    name = "rdma";
  }
  check(MPI_Info_free(&info), "MPI_Info_free");
  return name;
}

}  // namespace

WindowCounters::WindowCounters(const Comm& comm, std::size_t count, bool one_node) : count_(count) {
  (void)checked_int(count);
  // One counter more: the progress probe's.
  const auto slots = count + 1;
  const auto bytes = comm.rank() == 0 ? static_cast<MPI_Aint>(slots * sizeof(std::int64_t)) : 0;
  // On one node, a window in shared memory (osc/sm): made in half the time of osc/rdma's
  // and its atomics four times faster. Where that component is missing (osc/pt2pt forced),
  // every rank learns so and all make the general window.
  bool shared = false;
  if (one_node) {
    shared = MPI_Win_allocate_shared(bytes, sizeof(std::int64_t), MPI_INFO_NULL, comm.native(),
                                     &memory_, &window_) == MPI_SUCCESS;
    if (comm.all_reduce_max(std::int64_t{shared ? 0 : 1}) != 0) {
      if (shared) check(MPI_Win_free(&window_), "MPI_Win_free");
      shared = false;
    }
  }
  if (!shared) {
    check(MPI_Win_allocate(bytes, sizeof(std::int64_t), MPI_INFO_NULL, comm.native(), &memory_,
                           &window_),
          "MPI_Win_allocate");
  }
  if (comm.rank() == 0) std::fill_n(memory_, slots, 0);
  comm.barrier();
  check(MPI_Win_set_errhandler(window_, MPI_ERRORS_RETURN), "MPI_Win_set_errhandler");
  check(MPI_Win_lock_all(MPI_MODE_NOCHECK, window_), "MPI_Win_lock_all");
  component_ = window_component(window_);

  // Passive progress: whether the other ranks' atomics land while rank 0 makes no MPI call.
  // Rank 0 watches its own memory, without MPI, for a while; where they land the probe costs
  // microseconds.
  bool passive = comm.size() == 1;
  if (comm.rank() != 0) {
    const std::int64_t one = 1;
    std::int64_t previous = 0;
    check(MPI_Fetch_and_op(&one, &previous, MPI_INT64_T, 0, static_cast<MPI_Aint>(count), MPI_SUM,
                           window_),
          "MPI_Fetch_and_op");
    check(MPI_Win_flush(0, window_), "MPI_Win_flush");
  } else if (comm.size() > 1) {
    const std::atomic_ref<std::int64_t> arrived(memory_[count]);
    // Watched without a pause for the first 0.2 ms (the atomics land within microseconds
    // where they land at all; a sleep lasts 50 us or more), then every 0.1 ms.
    const auto started = std::chrono::steady_clock::now();
    const auto deadline = started + std::chrono::milliseconds(50);
    for (auto now = started; !passive && now < deadline; now = std::chrono::steady_clock::now()) {
      passive = arrived.load() == comm.size() - 1;
      if (!passive && now - started > std::chrono::microseconds(200))
        std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
  comm.broadcast_value(passive, 0);
  passive_ = passive;
}

void WindowCounters::free() {
  if (window_ == MPI_WIN_NULL) return;
  check(MPI_Win_unlock_all(window_), "MPI_Win_unlock_all");
  check(MPI_Win_free(&window_), "MPI_Win_free");
  memory_ = nullptr;
}

std::vector<std::int64_t> WindowCounters::fetch_add(std::span<const std::int64_t> amounts) {
  check_amounts(amounts.size(), count_);
  std::vector<std::int64_t> previous(amounts.size());
  for (std::size_t i = 0; i < count_; ++i) {
    check(MPI_Fetch_and_op(&amounts[i], &previous[i], MPI_INT64_T, 0, static_cast<MPI_Aint>(i),
                           MPI_SUM, window_),
          "MPI_Fetch_and_op");
  }
  check(MPI_Win_flush(0, window_), "MPI_Win_flush");
  return previous;
}

std::string WindowCounters::description() const {
  return "one-sided window on rank 0 (osc/" + component_ +
         (passive_ ? ", atomics progress without rank 0)"
                   : ", atomics wait for rank 0's next MPI call)");
}

namespace {
constexpr int request_tag = 1;
constexpr int reply_tag = 2;
constexpr auto shortest_poll = std::chrono::microseconds(10);
}  // namespace

ServedCounters::ServedCounters(const Comm& comm, std::size_t count)
    : requests_(comm.dup()), count_(count), root_(comm.rank() == 0) {
  (void)checked_int(count);
  int level = MPI_THREAD_SINGLE;
  check(MPI_Query_thread(&level), "MPI_Query_thread");
  if (level < MPI_THREAD_MULTIPLE && comm.size() > 1) {
    throw MpiError(
        "the work queue's server needs MPI_THREAD_MULTIPLE, which this MPI does not provide; "
        "run with --work-queue window");
  }
  if (!root_) return;
  values_ = std::make_unique<std::atomic<std::int64_t>[]>(count);
  for (std::size_t i = 0; i < count; ++i) values_[i].store(0);
  if (comm.size() > 1) server_ = std::thread([this] { serve(); });
}

ServedCounters::~ServedCounters() { stop_serving(); }

std::vector<std::int64_t> ServedCounters::add_locally(std::span<const std::int64_t> amounts) {
  std::vector<std::int64_t> previous(count_);
  for (std::size_t i = 0; i < count_; ++i) previous[i] = values_[i].fetch_add(amounts[i]);
  return previous;
}

std::vector<std::int64_t> ServedCounters::fetch_add(std::span<const std::int64_t> amounts) {
  check_amounts(amounts.size(), count_);
  if (root_) return add_locally(amounts);
  std::vector<std::int64_t> previous(count_);
  const auto n = static_cast<int>(count_);
  // NOLINTBEGIN(mpi-type-mismatch): std::int64_t is MPI_INT64_T; the check sees only 'long'
  check(MPI_Send(amounts.data(), n, MPI_INT64_T, 0, request_tag, requests_.native()), "MPI_Send");
  check(MPI_Recv(previous.data(), n, MPI_INT64_T, 0, reply_tag, requests_.native(),
                 MPI_STATUS_IGNORE),
        "MPI_Recv");
  // NOLINTEND(mpi-type-mismatch)
  return previous;
}

void ServedCounters::serve() noexcept {
  try {
    std::vector<std::int64_t> request(count_);
    const auto n = static_cast<int>(count_);
    for (;;) {
      MPI_Request pending = MPI_REQUEST_NULL;
      // NOLINTBEGIN(mpi-type-mismatch): std::int64_t is MPI_INT64_T; the check sees only 'long'
      check(MPI_Irecv(request.data(), n, MPI_INT64_T, MPI_ANY_SOURCE, request_tag,
                      requests_.native(), &pending),
            "MPI_Irecv");
      // NOLINTEND(mpi-type-mismatch)
      MPI_Status status{};
      int arrived = 0;
      // Sleeping, not blocking in MPI_Wait: Open MPI's wait spins, and this thread shares
      // rank 0's core with its work. The pause doubles while nothing comes.
      auto pause = shortest_poll;
      for (;;) {
        check(MPI_Test(&pending, &arrived, &status), "MPI_Test");
        if (arrived != 0) break;
        if (stopping_.load()) {
          check(MPI_Cancel(&pending), "MPI_Cancel");
          check(MPI_Wait(&pending, MPI_STATUS_IGNORE), "MPI_Wait");
          return;
        }
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(longest_poll_microseconds));
      }
      const auto previous = add_locally(request);
      // NOLINTNEXTLINE(mpi-type-mismatch): std::int64_t is MPI_INT64_T
      check(MPI_Send(previous.data(), n, MPI_INT64_T, status.MPI_SOURCE, reply_tag,
                     requests_.native()),
            "MPI_Send");
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "levelforge: the work queue's server on rank 0 failed: %s\n",
                 error.what());
    (void)MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

void ServedCounters::stop_serving() noexcept {
  stopping_.store(true);
  if (!server_.joinable()) return;
  try {
    server_.join();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "levelforge: stopping the work queue's server: %s\n", error.what());
  }
}

void ServedCounters::free() {
  if (stopping_.load()) return;
  // Every rank's last request has its answer once all are here.
  requests_.barrier();
  stop_serving();
}

std::string ServedCounters::description() const {
  return "server thread on rank 0 (two-sided messages, polled every " +
         std::to_string(shortest_poll.count()) + "-" + std::to_string(longest_poll_microseconds) +
         " us)";
}

}  // namespace levelforge::mpi

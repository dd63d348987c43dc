#include "runner/mpi/mpi.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <limits>
#include <numeric>
#include <thread>

namespace levelforge::mpi {

void check(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  std::array<char, MPI_MAX_ERROR_STRING> description{};
  int length = 0;
  if (MPI_Error_string(code, description.data(), &length) != MPI_SUCCESS) {
    throw MpiError(std::string(call) + " failed with error code " + std::to_string(code));
  }
  throw MpiError(std::string(call) +
                 " failed: " + std::string(description.data(), static_cast<std::size_t>(length)));
}

Environment::Environment(int& argc, char**& argv) {
  int initialized = 0;
  check(MPI_Initialized(&initialized), "MPI_Initialized");
  if (initialized == 0) {
    int provided = MPI_THREAD_SINGLE;
    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided), "MPI_Init_thread");
    initialized_here_ = true;
  }
  // Errors come back as codes that check() turns into exceptions, not as silent aborts.
  check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
}

Environment::~Environment() {
  if (!initialized_here_) return;
  // A destructor cannot report: a failing call leaves MPI to the end of the process.
  int finalized = 0;
  if (MPI_Finalized(&finalized) == MPI_SUCCESS && finalized == 0) (void)MPI_Finalize();
}

bool started_by_launcher() {
  // Open MPI's mpirun, PMIx (srun --mpi=pmix), MPICH's Hydra and PMI-2 (srun --mpi=pmi2).
  constexpr std::array variables = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"};
  return std::any_of(variables.begin(), variables.end(),
                     [](const char* name) { return std::getenv(name) != nullptr; });
}

Comm Comm::world() { return Comm(MPI_COMM_WORLD); }

bool Comm::owned() const {
  return comm_ != MPI_COMM_NULL && comm_ != MPI_COMM_WORLD && comm_ != MPI_COMM_SELF;
}

void Comm::reset() noexcept {
  // MPI_Comm_free marks the communicator for deallocation after its pending operations; Open
  // MPI and MPICH do that locally, without waiting for the other ranks, so freeing on an
  // error path too (as mpl's destructor does) cannot hang. A destructor cannot report.
  if (owned()) (void)MPI_Comm_free(&comm_);
  comm_ = MPI_COMM_NULL;
}

Comm Comm::dup() const {
  MPI_Comm copy = MPI_COMM_NULL;
  if (comm_ != MPI_COMM_NULL) check(MPI_Comm_dup(comm_, &copy), "MPI_Comm_dup");
  return Comm(copy);
}

Comm::Comm(Comm&& other) noexcept : comm_(other.comm_) { other.comm_ = MPI_COMM_NULL; }

Comm& Comm::operator=(Comm&& other) noexcept {
  if (this != &other) {
    reset();
    comm_ = other.comm_;
    other.comm_ = MPI_COMM_NULL;
  }
  return *this;
}

Comm::~Comm() { reset(); }

int Comm::rank() const {
  int rank = 0;
  check(MPI_Comm_rank(comm_, &rank), "MPI_Comm_rank");
  return rank;
}

int Comm::size() const {
  int size = 0;
  check(MPI_Comm_size(comm_, &size), "MPI_Comm_size");
  return size;
}

Comm Comm::split(int color, int key) const {
  MPI_Comm result = MPI_COMM_NULL;
  check(MPI_Comm_split(comm_, color, key, &result), "MPI_Comm_split");
  Comm split(result);
  check(MPI_Comm_set_errhandler(result, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  return split;
}

bool Comm::on_one_node() const {
  // One allgather of the names: MPI_Comm_split_type took a sixth of a millisecond here.
  const auto names = all_gather_strings(processor_name());
  return std::all_of(names.begin(), names.end(),
                     [&](const std::string& name) { return name == names.front(); });
}

void Comm::barrier() const { check(MPI_Barrier(comm_), "MPI_Barrier"); }

namespace {
int checked_count(std::size_t count) {
  if (count > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw MpiError("message of " + std::to_string(count) + " bytes exceeds MPI's int count");
  }
  return static_cast<int>(count);
}
}  // namespace

void Comm::broadcast(std::string& text, int root) const {
  auto length = static_cast<std::uint64_t>(text.size());
  broadcast_value(length, root);
  text.resize(length);
  broadcast(std::as_writable_bytes(std::span<char>(text.data(), text.size())), root);
}

void Comm::broadcast(std::span<std::byte> bytes, int root) const {
  check(MPI_Bcast(bytes.data(), checked_count(bytes.size()), MPI_BYTE, root, comm_), "MPI_Bcast");
}

void Comm::all_reduce_sum(std::span<std::int64_t> values) const {
  // NOLINTNEXTLINE(mpi-type-mismatch): std::int64_t is MPI_INT64_T; the check sees only 'long'
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), checked_count(values.size()), MPI_INT64_T,
                      MPI_SUM, comm_),
        "MPI_Allreduce");
}

void Comm::all_reduce_sum(std::span<double> values) const {
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), checked_count(values.size()), MPI_DOUBLE,
                      MPI_SUM, comm_),
        "MPI_Allreduce");
}

double Comm::all_reduce_max(double value) const {
  double result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, comm_), "MPI_Allreduce");
  return result;
}

std::int64_t Comm::all_reduce_max(std::int64_t value) const {
  std::int64_t result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_INT64_T, MPI_MAX, comm_), "MPI_Allreduce");
  return result;
}

std::int64_t Comm::all_reduce_max_asleep(std::int64_t value) const {
  std::int64_t result = 0;
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Iallreduce(&value, &result, 1, MPI_INT64_T, MPI_MAX, comm_, &request),
        "MPI_Iallreduce");
  // Tested without a pause for the first 0.2 ms (a sleep lasts 50 us or more whatever it
  // asks, and the last rank is often that close), then asleep; the last rank's arrival is
  // seen at most a pause late: capped at 0.2 ms, a short run (an exhaustive sweep of 25 ms
  // on 2 ranks) keeps its end, and ~5,000 wake-ups a second cost a waiting rank's core
  // little.
  const auto spin_until = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
  auto pause = std::chrono::microseconds(10);
  for (;;) {
    int done = 0;
    check(MPI_Test(&request, &done, MPI_STATUS_IGNORE), "MPI_Test");
    if (done != 0) return result;
    if (std::chrono::steady_clock::now() < spin_until) continue;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(200));
  }
}

Comm::Layout Comm::gather_layout(std::size_t local_bytes) const {
  const int count = checked_count(local_bytes);
  Layout layout;
  layout.counts.resize(static_cast<std::size_t>(size()));
  check(MPI_Allgather(&count, 1, MPI_INT, layout.counts.data(), 1, MPI_INT, comm_),
        "MPI_Allgather");
  layout.displacements.resize(layout.counts.size());
  std::exclusive_scan(layout.counts.begin(), layout.counts.end(), layout.displacements.begin(), 0);
  layout.total = static_cast<std::size_t>(layout.displacements.back()) +
                 static_cast<std::size_t>(layout.counts.back());
  return layout;
}

void Comm::all_gather_with(const Layout& layout, std::span<const std::byte> local,
                           std::span<std::byte> out) const {
  check(MPI_Allgatherv(local.data(), checked_count(local.size()), MPI_BYTE, out.data(),
                       layout.counts.data(), layout.displacements.data(), MPI_BYTE, comm_),
        "MPI_Allgatherv");
}

std::vector<std::byte> Comm::all_gather_bytes(std::span<const std::byte> local,
                                              std::vector<int>* lengths) const {
  auto layout = gather_layout(local.size());
  std::vector<std::byte> gathered(layout.total);
  all_gather_with(layout, local, gathered);
  if (lengths != nullptr) *lengths = std::move(layout.counts);
  return gathered;
}

void Comm::all_gather_into(std::span<const std::byte> local, std::span<std::byte> out) const {
  const auto layout = gather_layout(local.size());
  if (layout.total != out.size()) {
    throw MpiError("all_gather_into: the ranks' contributions (" + std::to_string(layout.total) +
                   " bytes) do not match the output size (" + std::to_string(out.size()) + ")");
  }
  all_gather_with(layout, local, out);
}

namespace {
// Tags of the collectives built from point-to-point messages on the caller's communicator.
constexpr int tree_tag = 0x7e1;
constexpr int sparse_tag = 0x7e2;

std::vector<std::byte> receive_any_length(MPI_Comm comm, int source, int tag, int* sender) {
  MPI_Status status{};
  check(MPI_Probe(source, tag, comm, &status), "MPI_Probe");
  int count = 0;
  check(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
  std::vector<std::byte> bytes(static_cast<std::size_t>(count));
  check(MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, tag, comm, MPI_STATUS_IGNORE),
        "MPI_Recv");
  if (sender != nullptr) *sender = status.MPI_SOURCE;
  return bytes;
}
}  // namespace

std::vector<std::byte> Comm::tree_reduce_bytes(std::vector<std::byte> local,
                                               const BytesMerge& merge) const {
  const int me = rank();
  const int ranks = size();
  for (int step = 1; step < ranks; step *= 2) {
    if ((me & step) != 0) {
      check(
          MPI_Send(local.data(), checked_count(local.size()), MPI_BYTE, me - step, tree_tag, comm_),
          "MPI_Send");
      break;
    }
    if (me + step < ranks) {
      const auto received = receive_any_length(comm_, me + step, tree_tag, nullptr);
      local = merge(std::move(local), received);
    }
  }
  auto length = static_cast<std::uint64_t>(me == 0 ? local.size() : 0);
  broadcast_value(length, 0);
  local.resize(length);
  broadcast(local, 0);
  return local;
}

std::vector<Comm::Message> Comm::sparse_exchange(const std::vector<Message>& messages) const {
  std::vector<MPI_Request> sends(messages.size(), MPI_REQUEST_NULL);
  for (std::size_t i = 0; i < messages.size(); ++i) {
    const auto& [destination, bytes] = messages[i];
    check(MPI_Issend(bytes.data(), checked_count(bytes.size()), MPI_BYTE, destination, sparse_tag,
                     comm_, &sends[i]),
          "MPI_Issend");
  }
  std::vector<Message> received;
  MPI_Request consensus = MPI_REQUEST_NULL;
  for (;;) {
    int arrived = 0;
    MPI_Status status{};
    check(MPI_Iprobe(MPI_ANY_SOURCE, sparse_tag, comm_, &arrived, &status), "MPI_Iprobe");
    if (arrived != 0) {
      int source = 0;
      auto bytes = receive_any_length(comm_, status.MPI_SOURCE, sparse_tag, &source);
      received.emplace_back(source, std::move(bytes));
      continue;
    }
    if (consensus == MPI_REQUEST_NULL) {
      int sent = 0;
      check(MPI_Testall(static_cast<int>(sends.size()), sends.data(), &sent, MPI_STATUSES_IGNORE),
            "MPI_Testall");
      if (sent != 0) check(MPI_Ibarrier(comm_, &consensus), "MPI_Ibarrier");
    } else {
      int done = 0;
      check(MPI_Test(&consensus, &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (done != 0) break;
    }
  }
  // A rank that saw the barrier complete could otherwise send the next exchange's messages
  // to a rank still probing for this one's.
  barrier();
  // Messages from one source arrive in the order it sent them (MPI's non-overtaking rule).
  std::stable_sort(received.begin(), received.end(),
                   [](const Message& a, const Message& b) { return a.first < b.first; });
  return received;
}

std::int64_t Comm::exclusive_scan_sum(std::int64_t value) const {
  std::int64_t before = 0;
  check(MPI_Exscan(&value, &before, 1, MPI_INT64_T, MPI_SUM, comm_), "MPI_Exscan");
  // MPI leaves rank 0's result undefined.
  return rank() == 0 ? 0 : before;
}

std::vector<std::string> Comm::all_gather_strings(const std::string& local) const {
  std::vector<int> lengths;
  const auto gathered =
      all_gather_bytes(std::as_bytes(std::span(local.data(), local.size())), &lengths);
  std::vector<std::string> strings;
  std::size_t offset = 0;
  for (int length : lengths) {
    const auto* begin = reinterpret_cast<const char*>(gathered.data() + offset);
    strings.emplace_back(begin, static_cast<std::size_t>(length));
    offset += static_cast<std::size_t>(length);
  }
  return strings;
}

void Comm::abort(int code) const {
  (void)MPI_Abort(comm_, code);
  std::exit(code);  // MPI_Abort does not return; this satisfies [[noreturn]] if it ever did
}

std::string processor_name() {
  std::array<char, MPI_MAX_PROCESSOR_NAME> name{};
  int length = 0;
  check(MPI_Get_processor_name(name.data(), &length), "MPI_Get_processor_name");
  return {name.data(), static_cast<std::size_t>(length)};
}

std::string thread_level() {
  int level = MPI_THREAD_SINGLE;
  check(MPI_Query_thread(&level), "MPI_Query_thread");
  switch (level) {
    case MPI_THREAD_SINGLE: return "single";
    case MPI_THREAD_FUNNELED: return "funneled";
    case MPI_THREAD_SERIALIZED: return "serialized";
    default: return "multiple";
  }
}

std::string library_version() {
  std::array<char, MPI_MAX_LIBRARY_VERSION_STRING> text{};
  int length = 0;
  check(MPI_Get_library_version(text.data(), &length), "MPI_Get_library_version");
  std::string version(text.data(), static_cast<std::size_t>(length));
  const auto line_end = version.find_first_of("\r\n");
  if (line_end != std::string::npos) version.resize(line_end);
  return version;
}

std::string root_verdict(const Comm& comm, const std::function<void()>& decide) {
  std::string problem;
  if (comm.rank() == 0) {
    try {
      decide();
    } catch (const std::exception& error) {
      problem = error.what();
    }
  }
  comm.broadcast(problem, 0);
  return problem;
}

std::string all_problems(const Comm& comm, const std::string& local) {
  std::string message;
  for (const auto& problem : comm.all_gather_strings(local)) {
    if (problem.empty()) continue;
    if (!message.empty()) message += '\n';
    message += problem;
  }
  return message;
}

}  // namespace levelforge::mpi

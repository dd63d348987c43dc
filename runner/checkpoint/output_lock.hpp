#pragma once
// One owner at a time for a result file and its checkpoint. Every command that writes an
// output (`run`, `resume`, `run --resume`, `merge`) holds OUTPUT.lock from before its first
// look at what is there until after its last write, so that a requeued or resubmitted job
// started while the first still runs is refused at once instead of writing the same files.
//
// The lock is a POSIX record lock (fcntl F_SETLK) on OUTPUT.lock: it is the lock the file
// systems of clusters carry across nodes (NFSv3 through its lock manager, NFSv4, Lustre
// mounted with `flock`, GPFS, BeeGFS with global locks) and the one the kernel or the lock
// manager drops when its holder dies, node failures included (an NFSv4 lease, a Lustre
// eviction), so a dead job's lock never needs a timeout. The file itself names the holder
// (host, pid, start time, command) for the refusal, and its holder touches it every few
// seconds. Where the file system has no record locks (fcntl answers ENOLCK or ENOSYS, or
// LEVELFORGE_OUTPUT_LOCK=file is set because its locks do not reach other nodes), the lock is
// the file's exclusive creation instead, and a holder that is gone is recognized by its pid
// on the same host and by a heartbeat older than lock_stale_seconds on another.
// docs/checkpoint.md#one-owner-at-a-time.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace levelforge {

// How the lock was taken: a record lock, or the lock file's exclusive creation.
enum class LockMethod { record, exclusive_file };

// Who holds an output, as its lock file says.
struct LockHolder {
  std::string host;
  std::int64_t pid = 0;
  std::string start_time;  // ISO 8601 UTC, when the lock was taken
  std::string command;     // the holder's command line
  LockMethod method = LockMethod::record;
  std::uint64_t process_start = 0;  // /proc/PID/stat's start time: a reused pid is not the holder
  double seconds_since_heartbeat = 0;

  // "`levelforge run x.yaml --resume` (pid 4242 on node12, since 2026-12-07T04:09:23Z, last
  // seen 3 s ago)"
  [[nodiscard]] std::string describe() const;
};

// The lock file of `output`: OUTPUT.lock.
std::string lock_path(const std::string& output);

// A holder that has not touched its lock file for this long is taken to be gone, where the
// lock is the file's exclusive creation and the holder is on another host. Long enough for
// an NFS client's attribute cache (60 s at most by default) and a paused holder's heartbeat.
inline constexpr std::chrono::seconds lock_stale_after{180};
inline constexpr std::chrono::seconds lock_heartbeat_every{10};

class OutputLock {
 public:
  // One process (rank 0 of a job): takes the lock of `output` for `command`, creating the
  // output's missing folders. Throws CheckpointError naming the holder and what to do when
  // another process holds it, and naming the problem when the lock file cannot be made.
  static OutputLock acquire(const std::string& output, const std::string& command);

  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;
  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&& other) noexcept;
  // Releases the lock: the lock file goes, then the folders acquire() made if they are empty
  // (a refused start leaves nothing behind). Never throws.
  ~OutputLock();

  [[nodiscard]] LockMethod method() const;

 private:
  struct Held;  // the open lock file and its heartbeat, at a fixed address for the thread
  explicit OutputLock(std::unique_ptr<Held> held);

  std::unique_ptr<Held> held_;
};

// One process: who holds the lock of `output` now (for `inspect`), or nullopt when nobody
// does. Takes nothing.
std::optional<LockHolder> lock_holder(const std::string& output);

}  // namespace levelforge

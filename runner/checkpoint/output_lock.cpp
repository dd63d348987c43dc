#include "runner/checkpoint/output_lock.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "runner/checkpoint/checkpoint_store.hpp"
#include "runner/output/provenance.hpp"

namespace levelforge {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view header_line = "levelforge output lock";
// A few tries cover a holder that released the lock between our open and our lock.
constexpr int attempts = 8;

std::string this_host() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "unknown";
  return name.data();
}

// Field 22 of /proc/PID/stat: when the process started, in clock ticks since boot; 0 when
// it cannot be read. With the pid it names one process, where a pid alone may be reused.
std::uint64_t process_start(std::int64_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The command name (field 2) is in parentheses and may hold spaces: count after it.
  const auto close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 1));
  std::string field;
  for (int index = 3; index <= 22 && fields >> field; ++index) {
    if (index == 22) return std::strtoull(field.c_str(), nullptr, 10);
  }
  return 0;
}

std::string method_name(LockMethod method) {
  return method == LockMethod::record ? "record" : "file";
}

// Commands are stored one line each: a line break in an argument would end the record.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

std::string encode(const LockHolder& holder) {
  return fmt::format(
      "{}\nhost: {}\npid: {}\nprocess_start: {}\nstart_time: {}\nmethod: {}\ncommand: {}\n",
      header_line, one_line(holder.host), holder.pid, holder.process_start, holder.start_time,
      method_name(holder.method), one_line(holder.command));
}

// nullopt when the text is not a whole lock record (empty: a holder that has created the
// file but not yet written it; or another program's file).
std::optional<LockHolder> decode(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  if (!std::getline(lines, line) || line != header_line) return std::nullopt;
  LockHolder holder;
  int fields = 0;
  while (std::getline(lines, line)) {
    const auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    const auto key = line.substr(0, colon);
    const auto value = line.substr(colon + 2);
    ++fields;
    if (key == "host") {
      holder.host = value;
    } else if (key == "pid") {
      holder.pid = std::strtoll(value.c_str(), nullptr, 10);
    } else if (key == "process_start") {
      holder.process_start = std::strtoull(value.c_str(), nullptr, 10);
    } else if (key == "start_time") {
      holder.start_time = value;
    } else if (key == "method") {
      holder.method = value == "file" ? LockMethod::exclusive_file : LockMethod::record;
    } else if (key == "command") {
      holder.command = value;
    } else {
      --fields;
    }
  }
  if (fields < 6) return std::nullopt;
  return holder;
}

double seconds_since(const struct timespec& when) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  const auto then = std::chrono::seconds(when.tv_sec) + std::chrono::nanoseconds(when.tv_nsec);
  return std::chrono::duration<double>(now - then).count();
}

// The record in the open lock file, with its heartbeat's age.
std::optional<LockHolder> read_holder(int descriptor) {
  std::string text(4096, '\0');
  const auto got = ::pread(descriptor, text.data(), text.size(), 0);
  if (got <= 0) return std::nullopt;
  text.resize(static_cast<std::size_t>(got));
  auto holder = decode(text);
  struct stat status {};
  if (holder && ::fstat(descriptor, &status) == 0)
    holder->seconds_since_heartbeat = seconds_since(status.st_mtim);
  return holder;
}

// Whether the holder recorded in a lock file still runs. A record lock answers that itself;
// this serves the locks that are the file's creation: on this host the pid tells, on
// another only the heartbeat.
bool holder_alive(const LockHolder& holder) {
  if (holder.host == this_host()) {
    if (holder.pid <= 0) return false;
    if (::kill(static_cast<pid_t>(holder.pid), 0) != 0 && errno == ESRCH) return false;
    const auto started = process_start(holder.pid);
    return holder.process_start == 0 || started == 0 || started == holder.process_start;
  }
  return holder.seconds_since_heartbeat < static_cast<double>(lock_stale_after.count());
}

LockHolder this_process(const std::string& command, LockMethod method) {
  LockHolder holder;
  holder.host = this_host();
  holder.pid = ::getpid();
  holder.process_start = process_start(holder.pid);
  holder.start_time = utc_now();
  holder.command = command;
  holder.method = method;
  return holder;
}

bool write_holder(int descriptor, const LockHolder& holder) {
  const auto text = encode(holder);
  return ::ftruncate(descriptor, 0) == 0 &&
         ::pwrite(descriptor, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size()) &&
         ::fsync(descriptor) == 0;
}

// Whether `path` still names the file open as `descriptor`: a holder that released the lock
// removed the file we opened, and its lock would then guard nothing.
bool names_open_file(const std::string& path, int descriptor) {
  struct stat open_file {};
  struct stat named {};
  return ::fstat(descriptor, &open_file) == 0 && ::stat(path.c_str(), &named) == 0 &&
         open_file.st_dev == named.st_dev && open_file.st_ino == named.st_ino;
}

std::string output_of(const std::string& lock) {
  return lock.substr(0, lock.size() - std::string_view(".lock").size());
}

[[noreturn]] void refuse_held(const std::string& path, const std::optional<LockHolder>& holder) {
  const auto output = output_of(path);
  std::string who =
      holder ? holder->describe() : "another process (it has not yet written who it is)";
  std::string stop;
  if (holder && holder->pid > 0) {
    stop = fmt::format(" (`kill -TERM {}`{} saves its checkpoint)", holder->pid,
                       holder->host == this_host() ? "" : " on " + holder->host);
  }
  std::string lapse;
  if (holder && holder->method == LockMethod::exclusive_file && holder->host != this_host()) {
    lapse = fmt::format(
        ". Where the lock is the file alone (no record locks), a holder gone without a trace "
        "is known by its heartbeat: its lock lapses {} s after it was last seen",
        lock_stale_after.count());
  }
  throw CheckpointError(fmt::format(
      "{} is in use: {} holds it and its checkpoint. One job at a time writes a result; wait "
      "for that one to end, or stop it{}, then run this command again{}",
      output, who, stop, lapse));
}

[[noreturn]] void refuse_unmade(const std::string& path, const std::string& problem) {
  throw CheckpointError(
      fmt::format("cannot take the lock {} that makes this job the only writer of {}: {}", path,
                  output_of(path), problem));
}

// The output's folders that do not exist yet, made now, outermost first.
std::vector<std::string> make_folders(const std::string& output) {
  std::vector<fs::path> missing;
  std::error_code error;
  for (auto folder = fs::path(output).parent_path(); !folder.empty() && !fs::exists(folder, error);
       folder = folder.parent_path()) {
    missing.push_back(folder);
    if (folder == folder.parent_path()) break;
  }
  std::vector<std::string> made;
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (!fs::create_directory(*it, error) && error) {
      for (auto undo = made.rbegin(); undo != made.rend(); ++undo) fs::remove(*undo, error);
      refuse_unmade(output + ".lock",
                    "cannot create the folder " + it->string() + ": " + error.message());
    }
    made.push_back(it->string());
  }
  return made;
}

void remove_folders(const std::vector<std::string>& folders) noexcept {
  std::error_code ignored;
  // Only empty ones go: remove() of a folder that holds something fails and leaves it.
  for (auto it = folders.rbegin(); it != folders.rend(); ++it) fs::remove(*it, ignored);
}

// A lock file that is no regular file (a FIFO, a folder) was not made by levelforge.
void check_regular(int descriptor, const std::string& path) {
  struct stat status {};
  if (::fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode)) {
    ::close(descriptor);
    refuse_unmade(path, "it exists and is not a regular file; move it away");
  }
}

bool no_record_locks(int error) {
  return error == ENOLCK || error == ENOSYS || error == EOPNOTSUPP;
}

struct flock whole_file(short type) {
  struct flock lock {};
  lock.l_type = type;
  lock.l_whence = SEEK_SET;
  return lock;
}

enum class Outcome { taken, retry, no_record_locks };

Outcome take_record_lock(const std::string& path, const LockHolder& self, int& descriptor) {
  descriptor = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (descriptor < 0) refuse_unmade(path, std::strerror(errno));
  check_regular(descriptor, path);
  auto lock = whole_file(F_WRLCK);
  if (::fcntl(descriptor, F_SETLK, &lock) != 0) {
    const int error = errno;
    if (no_record_locks(error)) {
      ::close(descriptor);
      return Outcome::no_record_locks;
    }
    const auto holder = read_holder(descriptor);
    ::close(descriptor);
    if (error == EAGAIN || error == EACCES) refuse_held(path, holder);
    refuse_unmade(path, std::strerror(error));
  }
  if (!names_open_file(path, descriptor)) {
    ::close(descriptor);
    return Outcome::retry;
  }
  // A holder whose lock is the file alone (its node has no record locks that reach here)
  // holds no record lock for us to meet.
  if (const auto holder = read_holder(descriptor);
      holder && holder->method == LockMethod::exclusive_file && holder_alive(*holder)) {
    ::close(descriptor);
    refuse_held(path, holder);
  }
  if (!write_holder(descriptor, self)) {
    const int error = errno;
    ::unlink(path.c_str());  // still ours: no holder is left half-written
    ::close(descriptor);
    refuse_unmade(path, std::strerror(error));
  }
  return Outcome::taken;
}

Outcome take_exclusive_file(const std::string& path, const LockHolder& self, int& descriptor) {
  descriptor =
      ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (descriptor >= 0) {
    if (!write_holder(descriptor, self)) {
      const int error = errno;
      ::close(descriptor);
      ::unlink(path.c_str());
      refuse_unmade(path, std::strerror(error));
    }
    return Outcome::taken;
  }
  if (errno != EEXIST) refuse_unmade(path, std::strerror(errno));
  const int existing = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (existing < 0) return Outcome::retry;  // released meanwhile
  check_regular(existing, path);
  auto holder = read_holder(existing);
  struct stat status {};
  const bool recent = ::fstat(existing, &status) == 0 &&
                      seconds_since(status.st_mtim) < static_cast<double>(lock_stale_after.count());
  ::close(existing);
  // An empty file is a holder between its creation and its record, unless it is old.
  if (holder ? holder_alive(*holder) : recent) refuse_held(path, holder);
  // The holder is gone. Its file is moved aside, not deleted: of two jobs that both found it
  // stale, only one moves it, and the other's rename fails and it tries again.
  const auto aside = fmt::format("{}.stale-{}-{}", path, self.host, self.pid);
  if (::rename(path.c_str(), aside.c_str()) == 0) ::unlink(aside.c_str());
  return Outcome::retry;
}

}  // namespace

std::string LockHolder::describe() const {
  return fmt::format("`{}` (pid {} on {}, since {}, last seen {:.0f} s ago)", command, pid, host,
                     start_time, std::max(0.0, seconds_since_heartbeat));
}

std::string lock_path(const std::string& output) { return output + ".lock"; }

struct OutputLock::Held {
  int descriptor = -1;
  std::string path;
  LockMethod method = LockMethod::record;
  std::vector<std::string> created_folders;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::thread heartbeat;

  // The holder's sign of life: the lock file's modification time, every few seconds, from
  // a thread of its own so that a long task does not silence it.
  void beat() {
    std::unique_lock lock(mutex);
    while (!wake.wait_for(lock, lock_heartbeat_every, [this] { return stopping; })) {
      ::futimens(descriptor, nullptr);
    }
  }

  ~Held() {
    {
      const std::lock_guard lock(mutex);
      stopping = true;
    }
    wake.notify_all();
    if (heartbeat.joinable()) heartbeat.join();
    // Removed while still locked, so the next holder creates a fresh file; one that opened
    // this file meanwhile finds it gone (names_open_file) and tries again.
    if (names_open_file(path, descriptor)) ::unlink(path.c_str());
    ::close(descriptor);
    remove_folders(created_folders);
  }
};

OutputLock::OutputLock(std::unique_ptr<Held> held) : held_(std::move(held)) {}
OutputLock::OutputLock(OutputLock&& other) noexcept = default;
OutputLock& OutputLock::operator=(OutputLock&& other) noexcept = default;
OutputLock::~OutputLock() = default;

LockMethod OutputLock::method() const { return held_->method; }

OutputLock OutputLock::acquire(const std::string& output, const std::string& command) {
  const auto path = lock_path(output);
  const char* chosen = std::getenv("LEVELFORGE_OUTPUT_LOCK");
  auto method = chosen != nullptr && std::string_view(chosen) == "file" ? LockMethod::exclusive_file
                                                                        : LockMethod::record;
  auto folders = make_folders(output);
  try {
    for (int attempt = 0; attempt < attempts; ++attempt) {
      const auto self = this_process(command, method);
      int descriptor = -1;
      const auto outcome = method == LockMethod::record
                               ? take_record_lock(path, self, descriptor)
                               : take_exclusive_file(path, self, descriptor);
      if (outcome == Outcome::no_record_locks) {
        // The file we may just have created would read as a holder that never wrote.
        method = LockMethod::exclusive_file;
        const int probe = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (probe >= 0) {
          if (!read_holder(probe)) ::unlink(path.c_str());
          ::close(probe);
        }
        continue;
      }
      if (outcome == Outcome::retry) continue;
      auto held = std::make_unique<Held>();
      held->descriptor = descriptor;
      held->path = path;
      held->method = method;
      held->created_folders = std::move(folders);
      held->heartbeat = std::thread([raw = held.get()] { raw->beat(); });
      return OutputLock(std::move(held));
    }
    refuse_unmade(path,
                  fmt::format("other processes took and released it {} times meanwhile", attempts));
  } catch (...) {
    remove_folders(folders);
    throw;
  }
}

std::optional<LockHolder> lock_holder(const std::string& output) {
  const auto path = lock_path(output);
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (descriptor < 0) return std::nullopt;
  struct stat status {};
  std::optional<LockHolder> holder;
  if (::fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode)) {
    holder = read_holder(descriptor);
    if (holder && holder->method == LockMethod::record) {
      auto probe = whole_file(F_WRLCK);
      // Unlocked: the file of a holder killed before it could remove it.
      if (::fcntl(descriptor, F_GETLK, &probe) == 0 && probe.l_type == F_UNLCK) holder.reset();
    } else if (holder && !holder_alive(*holder)) {
      holder.reset();
    }
  }
  ::close(descriptor);
  return holder;
}

}  // namespace levelforge

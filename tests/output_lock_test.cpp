// OutputLock: one owner per output, told apart by process. Record locks belong to a process,
// so every other holder here is a child process, forked before this one starts any thread
// (the lock's heartbeat) and told when to act through a pipe.
#include "runner/checkpoint/output_lock.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>

#include "runner/checkpoint/checkpoint_store.hpp"

namespace levelforge {
namespace {

namespace fs = std::filesystem;

// What a child process holds, released when it ends normally.
std::optional<OutputLock> child_lock;  // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

// A child process that runs `act` when released(), and then holds on until finished():
// its exit code is what act returned.
class Child {
 public:
  explicit Child(const std::function<int()>& act) {
    if (::pipe(go_.data()) != 0 || ::pipe(done_.data()) != 0) std::abort();
    pid_ = ::fork();
    if (pid_ == 0) {
      char byte = 0;
      (void)::read(go_[0], &byte, 1);
      const int code = act();
      (void)::write(done_[1], &byte, 1);
      (void)::read(go_[0], &byte, 1);  // hold what act took until told to end
      child_lock.reset();
      ::_exit(code);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  Child(Child&&) = delete;
  Child& operator=(Child&&) = delete;
  ~Child() {
    if (pid_ > 0) (void)finished();
  }

  // Runs act and waits for it to have acted.
  void released() {
    const char byte = 1;
    (void)::write(go_[1], &byte, 1);
    char done = 0;
    (void)::read(done_[0], &done, 1);
  }
  // Lets the child end; its exit code.
  int finished() {
    const char byte = 1;
    (void)::write(go_[1], &byte, 1);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  // Ends the child as a kill would: no destructor, no cleanup.
  void killed() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  [[nodiscard]] pid_t pid() const { return pid_; }

 private:
  std::array<int, 2> go_{};
  std::array<int, 2> done_{};
  pid_t pid_ = -1;
};

// The child's acquire: 0 taken (and held until it ends), 2 refused.
int try_acquire(const std::string& output) {
  try {
    child_lock.emplace(OutputLock::acquire(output, "levelforge run child.yaml"));
    return 0;
  } catch (const CheckpointError&) {
    return 2;
  }
}

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class OutputLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("levelforge-lock-test-" + std::to_string(::getpid()));
    fs::create_directories(folder_);
    output_ = (folder_ / "results" / "x.h5").string();
    ::unsetenv("LEVELFORGE_OUTPUT_LOCK");
  }
  void TearDown() override {
    ::unsetenv("LEVELFORGE_OUTPUT_LOCK");
    fs::remove_all(folder_);
  }

  // The refusal's message; fails the test when the lock was taken.
  [[nodiscard]] std::string refusal() const {
    try {
      (void)OutputLock::acquire(output_, "levelforge run x.yaml --resume");
    } catch (const CheckpointError& error) {
      return error.what();
    }
    ADD_FAILURE() << "the lock was taken";
    return {};
  }

  fs::path folder_;
  std::string output_;
};

TEST_F(OutputLockTest, ASecondProcessIsRefusedNamingTheHolder) {
  Child holder([&] { return try_acquire(output_); });
  holder.released();
  const auto message = refusal();
  EXPECT_NE(message.find(output_ + " is in use: `levelforge run child.yaml` (pid " +
                         std::to_string(holder.pid()) + " on "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("wait for that one to end"), std::string::npos) << message;
  EXPECT_NE(message.find("`kill -TERM " + std::to_string(holder.pid()) + "` saves its checkpoint"),
            std::string::npos)
      << message;
  const auto holder_seen = lock_holder(output_);
  ASSERT_TRUE(holder_seen.has_value());
  EXPECT_EQ(holder_seen->pid, holder.pid());
  EXPECT_EQ(holder_seen->method, LockMethod::record);
  EXPECT_EQ(holder.finished(), 0);
  EXPECT_FALSE(fs::exists(lock_path(output_))) << "a released lock leaves no file";
  EXPECT_FALSE(lock_holder(output_).has_value());
}

TEST_F(OutputLockTest, AKilledHoldersLockIsTakenAtOnce) {
  Child holder([&] { return try_acquire(output_); });
  holder.released();
  holder.killed();
  ASSERT_TRUE(fs::exists(lock_path(output_))) << "a kill leaves the file";
  EXPECT_FALSE(lock_holder(output_).has_value()) << "but nobody holds it";
  const auto lock = OutputLock::acquire(output_, "levelforge resume x.h5");
  EXPECT_NE(text_of(lock_path(output_)).find("command: levelforge resume x.h5"), std::string::npos);
  EXPECT_NE(text_of(lock_path(output_)).find("pid: " + std::to_string(::getpid())),
            std::string::npos);
}

TEST_F(OutputLockTest, ReleasingRemovesTheFoldersItMadeWhenEmpty) {
  const auto deep = (folder_ / "a" / "b" / "x.h5").string();
  { const auto lock = OutputLock::acquire(deep, "levelforge run x.yaml"); }
  EXPECT_FALSE(fs::exists(folder_ / "a")) << "a refused start leaves nothing behind";
  {
    const auto lock = OutputLock::acquire(deep, "levelforge run x.yaml");
    std::ofstream result(deep);
  }
  EXPECT_TRUE(fs::exists(deep)) << "a folder holding the result stays";
  EXPECT_FALSE(fs::exists(lock_path(deep)));
}

TEST_F(OutputLockTest, ALockFileThatIsNoFileIsRefusedWithoutBlocking) {
  fs::create_directories(fs::path(output_).parent_path());
  ASSERT_EQ(::mkfifo(lock_path(output_).c_str(), 0600), 0);
  EXPECT_NE(refusal().find("it exists and is not a regular file"), std::string::npos);
  EXPECT_TRUE(fs::is_fifo(lock_path(output_))) << "never removed";
}

// Where record locks do not reach (LEVELFORGE_OUTPUT_LOCK=file), the file's exclusive
// creation is the lock and its record tells whether the holder still runs.
class ExclusiveFileLock : public OutputLockTest {
 protected:
  void SetUp() override {
    OutputLockTest::SetUp();
    ::setenv("LEVELFORGE_OUTPUT_LOCK", "file", 1);
    fs::create_directories(fs::path(output_).parent_path());
  }

  // A lock file as a holder on `host` with `pid` leaves it, last touched `age` ago.
  void plant(const std::string& host, pid_t pid, std::chrono::seconds age) const {
    {
      std::ofstream file(lock_path(output_));
      file << "levelforge output lock\nhost: " << host << "\npid: " << pid
           << "\nprocess_start: 0\nstart_time: 2026-12-07T00:00:00Z\nmethod: file\n"
           << "command: levelforge run planted.yaml\n";
    }
    const auto then = std::chrono::system_clock::now() - age;
    const std::array<struct timespec, 2> times{
        timespec{std::chrono::system_clock::to_time_t(then), 0},
        timespec{std::chrono::system_clock::to_time_t(then), 0}};
    ::utimensat(AT_FDCWD, lock_path(output_).c_str(), times.data(), 0);
  }

  [[nodiscard]] static std::string host() {
    std::array<char, 256> name{};
    ::gethostname(name.data(), name.size() - 1);
    return name.data();
  }
};

TEST_F(ExclusiveFileLock, ALiveHolderOnThisHostIsRefusedAndADeadOneReplaced) {
  Child holder([&] { return try_acquire(output_); });
  holder.released();
  EXPECT_NE(refusal().find("(pid " + std::to_string(holder.pid())), std::string::npos);
  EXPECT_EQ(lock_holder(output_)->method, LockMethod::exclusive_file);
  holder.killed();
  const auto lock = OutputLock::acquire(output_, "levelforge resume x.h5");
  EXPECT_EQ(lock.method(), LockMethod::exclusive_file);
}

TEST_F(ExclusiveFileLock, AHolderOnAnotherHostLapsesOnlyWithoutItsHeartbeat) {
  plant("other-node", 4242, std::chrono::seconds(5));
  const auto message = refusal();
  EXPECT_NE(message.find("(pid 4242 on other-node"), std::string::npos) << message;
  EXPECT_NE(message.find("its lock lapses 180 s after it was last seen"), std::string::npos)
      << message;
  plant("other-node", 4242, lock_stale_after + std::chrono::seconds(60));
  EXPECT_FALSE(lock_holder(output_).has_value());
  const auto lock = OutputLock::acquire(output_, "levelforge resume x.h5");
  EXPECT_NE(text_of(lock_path(output_)).find("host: " + host()), std::string::npos);
}

TEST_F(ExclusiveFileLock, AHolderOnThisHostIsGoneWhenItsPidIs) {
  Child gone([] { return 0; });
  const auto pid = gone.pid();
  gone.released();
  EXPECT_EQ(gone.finished(), 0);
  plant(host(), pid, std::chrono::seconds(1));
  const auto lock = OutputLock::acquire(output_, "levelforge resume x.h5");
  EXPECT_NE(text_of(lock_path(output_)).find("pid: " + std::to_string(::getpid())),
            std::string::npos);
}

// A record lock meets a holder whose lock is the file alone (another node's setting).
TEST_F(ExclusiveFileLock, ARecordLockHonoursALiveFileHolder) {
  plant("other-node", 4242, std::chrono::seconds(5));
  ::unsetenv("LEVELFORGE_OUTPUT_LOCK");
  EXPECT_NE(refusal().find("(pid 4242 on other-node"), std::string::npos);
}

}  // namespace
}  // namespace levelforge

#pragma once
// Rank 0's progress report: items done/total, work units per second and ETA, as a live
// bar on a terminal or as a plain line every `interval` seconds otherwise (Slurm logs).
// Drivers report as work units finish (GA generations, exhaustive chunks), not only items.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace levelforge {

struct ProgressSnapshot {
  std::uint64_t items_done;
  std::uint64_t items_total;
  std::uint64_t units_done;
  std::uint64_t units_total;
  std::uint64_t units_before = 0;  // restored from a checkpoint: not part of this session's rate
};

// `--progress`: a bar redrawn in place, plain lines, nothing; automatic: a bar when the
// stream is a terminal, lines otherwise.
enum class ProgressStyle { automatic, bar, lines, none };

// "bar", "lines", "none", "auto"; throws std::invalid_argument for another word.
ProgressStyle parse_progress_style(const std::string& word);

class ProgressReporter {
 public:
  // `item` names what is counted ("tasks", "chunks"), `unit` the work ("evals").
  ProgressReporter(std::string item, std::string unit, double interval_seconds, ProgressStyle style,
                   std::FILE* stream);

  // Cheap when no report is due: callers poll it often.
  [[nodiscard]] bool due() const;
  void report(const ProgressSnapshot& snapshot);
  void finish(const ProgressSnapshot& snapshot);

  // "3/12 tasks  250/1000 evals  25.0%  1.2e+05 evals/s  elapsed 0:00:02  ETA 0:01:23";
  // exposed for tests.
  static std::string format_line(const ProgressSnapshot& snapshot, double elapsed_seconds,
                                 const std::string& item, const std::string& unit);

 private:
  [[nodiscard]] double elapsed() const;

  std::string item_;
  std::string unit_;
  std::chrono::steady_clock::duration interval_;
  bool enabled_;
  bool live_;
  std::FILE* stream_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace levelforge

#include "runner/drivers/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace levelforge {

namespace {
constexpr double live_interval_seconds = 0.2;
constexpr int bar_width = 24;

std::string clock_text(double seconds) {
  const auto total = static_cast<long long>(std::llround(std::max(0.0, seconds)));
  return fmt::format("{}:{:02}:{:02}", total / 3600, (total / 60) % 60, total % 60);
}
}  // namespace

ProgressStyle parse_progress_style(const std::string& word) {
  if (word == "auto") return ProgressStyle::automatic;
  if (word == "bar") return ProgressStyle::bar;
  if (word == "lines") return ProgressStyle::lines;
  if (word == "none") return ProgressStyle::none;
  throw std::invalid_argument("progress style '" + word + "' is none of auto, bar, lines, none");
}

ProgressReporter::ProgressReporter(std::string item, std::string unit, double interval_seconds,
                                   ProgressStyle style, std::FILE* stream)
    : item_(std::move(item)),
      unit_(std::move(unit)),
      enabled_(style != ProgressStyle::none),
      live_(style == ProgressStyle::bar ||
            (style == ProgressStyle::automatic && isatty(fileno(stream)) != 0)),
      stream_(stream),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {
  const double seconds = live_ ? live_interval_seconds : interval_seconds;
  interval_ = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(seconds));
}

bool ProgressReporter::due() const {
  return enabled_ && std::chrono::steady_clock::now() - last_ >= interval_;
}

double ProgressReporter::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

std::string ProgressReporter::format_line(const ProgressSnapshot& snapshot, double elapsed_seconds,
                                          const std::string& item, const std::string& unit) {
  const double fraction = snapshot.units_total == 0
                              ? 1.0
                              : std::min(1.0, static_cast<double>(snapshot.units_done) /
                                                  static_cast<double>(snapshot.units_total));
  // A resumed run's rate and ETA count only the work of this session.
  const auto units_now = snapshot.units_done - std::min(snapshot.units_done, snapshot.units_before);
  const double rate = elapsed_seconds > 0 ? static_cast<double>(units_now) / elapsed_seconds : 0.0;
  const auto remaining = static_cast<double>(snapshot.units_total -
                                             std::min(snapshot.units_total, snapshot.units_done));
  const std::string eta = remaining == 0 ? clock_text(0)
                          : rate > 0     ? clock_text(remaining / rate)
                                         : "?";
  return fmt::format("{}/{} {}  {}/{} {}  {:5.1f}%  {:.3g} {}/s  elapsed {}  ETA {}",
                     snapshot.items_done, snapshot.items_total, item, snapshot.units_done,
                     snapshot.units_total, unit, 100 * fraction, rate, unit,
                     clock_text(elapsed_seconds), eta);
}

void ProgressReporter::report(const ProgressSnapshot& snapshot) {
  if (!enabled_) return;
  last_ = std::chrono::steady_clock::now();
  const auto line = format_line(snapshot, elapsed(), item_, unit_);
  if (live_) {
    // Work units, not items: a few long tasks still move the bar generation by generation.
    const double fraction = snapshot.units_total == 0
                                ? 1.0
                                : std::min(1.0, static_cast<double>(snapshot.units_done) /
                                                    static_cast<double>(snapshot.units_total));
    const auto filled = static_cast<int>(fraction * bar_width);
    fmt::print(stream_, "\r[{}{}] {}\x1b[K", std::string(static_cast<std::size_t>(filled), '#'),
               std::string(static_cast<std::size_t>(bar_width - filled), '.'), line);
  } else {
    fmt::print(stream_, "progress: {}\n", line);
  }
  std::fflush(stream_);
}

void ProgressReporter::finish(const ProgressSnapshot& snapshot) {
  if (!enabled_) return;
  report(snapshot);
  if (live_) fmt::print(stream_, "\n");
  std::fflush(stream_);
}

}  // namespace levelforge

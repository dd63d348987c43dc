#pragma once
// Accumulates the time a rank spends waiting for work or for other ranks, for the
// per-rank timing table and the benchmarks' idle fraction.

#include <chrono>

namespace levelforge {

class IdleClock {
 public:
  class Scope {
   public:
    explicit Scope(IdleClock& clock) : clock_(clock), start_(std::chrono::steady_clock::now()) {}
    ~Scope() { clock_.idle_ += std::chrono::steady_clock::now() - start_; }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    Scope(Scope&&) = delete;
    Scope& operator=(Scope&&) = delete;

   private:
    IdleClock& clock_;
    std::chrono::steady_clock::time_point start_;
  };

  [[nodiscard]] Scope measure() { return Scope(*this); }
  [[nodiscard]] double seconds() const { return std::chrono::duration<double>(idle_).count(); }

 private:
  std::chrono::steady_clock::duration idle_{};
};

}  // namespace levelforge

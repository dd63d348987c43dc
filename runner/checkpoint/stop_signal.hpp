#pragma once
// SIGTERM and SIGUSR1 (Slurm's warning before the time limit, a preemption, `scancel
// --signal`) ask a run to checkpoint and stop instead of killing it. While a StopSignal
// lives, the signals only set a flag that the drivers poll between units of work.

#include <csignal>

namespace levelforge {

class StopSignal {
 public:
  StopSignal();
  ~StopSignal();
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;
  StopSignal(StopSignal&&) = delete;
  StopSignal& operator=(StopSignal&&) = delete;

  // Whether either signal arrived since construction (or the last reset()).
  [[nodiscard]] static bool requested();
  // The number of the first signal that arrived; 0 when none did.
  [[nodiscard]] static int signal_number();
  static void reset();

 private:
  struct sigaction previous_term_ {};
  struct sigaction previous_usr1_ {};
};

}  // namespace levelforge

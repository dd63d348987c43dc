#include "runner/checkpoint/stop_signal.hpp"

#include <atomic>

namespace levelforge {

namespace {

// Lock-free, so the handler may touch it.
std::atomic<int> received{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_stop_signal(int number) {
  int expected = 0;
  received.compare_exchange_strong(expected, number);
}

struct sigaction stop_action() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // Restarted system calls: MPI's progress loops must not see EINTR.
  action.sa_flags = SA_RESTART;
  return action;
}

}  // namespace

StopSignal::StopSignal() {
  reset();
  const auto action = stop_action();
  sigaction(SIGTERM, &action, &previous_term_);
  sigaction(SIGUSR1, &action, &previous_usr1_);
}

StopSignal::~StopSignal() {
  sigaction(SIGTERM, &previous_term_, nullptr);
  sigaction(SIGUSR1, &previous_usr1_, nullptr);
}

bool StopSignal::requested() { return received.load() != 0; }

int StopSignal::signal_number() { return received.load(); }

void StopSignal::reset() { received.store(0); }

}  // namespace levelforge

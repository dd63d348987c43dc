#pragma once
// What a kernel tells the runner about its memory, so that a run too large for the machine
// is refused with an estimate before anything big is allocated (rather than ended by the
// kernel's OOM killer halfway through). An optional capability: only kernels whose memory
// grows with their parameters declare it (`static MemoryEstimate memory_estimate(const
// ParamSet&)`, see MemoryEstimatingKernel in concepts.hpp).

#include <cstdint>
#include <string>

namespace levelforge {

struct MemoryEstimate {
  // Bytes one kernel instance needs while it runs one task: a sweep run, one GA evaluation
  // (or validation), one exhaustive chunk; beyond the kernel object itself.
  std::uint64_t working_bytes = 0;
  // ga: bytes of one genome held in the population (the runner keeps two generations).
  std::uint64_t genome_bytes = 0;
  // The parameters that make working_bytes large, as the config names them, e.g.
  // "params.validation_playouts = 100000000 playouts"; empty when nothing stands out.
  std::string working_cause;
  // The parameters that make one genome large, e.g. "params.length = 1000000 bits".
  std::string genome_cause;
  // Bytes one kernel object holds beyond its own size (tables built from the parameters). A
  // rank holds one point's kernel at a time: the one its tasks run, or the one being checked.
  std::uint64_t model_bytes = 0;
  // The parameters that make the kernel object large, e.g. "params.levels = 100000 levels".
  std::string model_cause;

  friend bool operator==(const MemoryEstimate&, const MemoryEstimate&) = default;
};

}  // namespace levelforge

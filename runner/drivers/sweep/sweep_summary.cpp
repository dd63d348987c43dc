// What `levelforge kernels` and `inspect` say of the `sweep` driver: the records of a kernel that
// offers it, and a run's results.

#include "runner/drivers/sweep/sweep_driver.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "runner/drivers/summary_text.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {

void SweepDriver::print_records(const KernelEntry& kernel) const {
  print_fields("sweep: record fields (sweep/records)", kernel.binding<SweepSpec>()->record_fields);
}

void SweepDriver::print_summary(const h5::Group& root, std::size_t rows) const {
  if (!root.has("sweep/records") || rows == 0) return;
  fmt::print("sweep records:\n");
  print_table(read_table(root.open_dataset("sweep/records")), rows);
}

std::vector<std::string> SweepDriver::summary_tables(const h5::Group& root) const {
  (void)root;
  return {"sweep/records"};
}

}  // namespace levelforge

// What `levelforge kernels` and `inspect` say of the `exhaustive` driver: the records of a kernel
// that offers it, and a run's results.

#include "runner/drivers/exhaustive/exhaustive_driver.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "runner/drivers/summary_text.hpp"
#include "runner/engine/kernel_registry.hpp"

namespace levelforge {

void ExhaustiveDriver::print_records(const KernelEntry& kernel) const {
  const auto& exhaustive = *kernel.binding<ExhaustiveSpec>();
  fmt::print("  exhaustive: reductions\n");
  for (const auto& reduction : exhaustive.reductions) {
    fmt::print("    {:<20} {}\n", reduction.name, reduction.doc);
  }
  print_fields("exhaustive: solution fields (exhaustive/solutions)", exhaustive.solutions.fields());
}

void ExhaustiveDriver::print_summary(const h5::Group& root, std::size_t rows) const {
  if (root.has("exhaustive/counts")) {
    fmt::print("exhaustive counts per task:\n");
    print_table(read_table(root.open_dataset("exhaustive/counts")),
                std::max<std::size_t>(rows, 20));
  }
  // The top tables are what a researcher (or a puzzle designer) usually wants as a list.
  if (root.has("exhaustive/top") && rows > 0) {
    const auto top = root.open_group("exhaustive/top");
    for (const auto& name : top.children()) {
      fmt::print("exhaustive/top/{} (best first, per task):\n", name);
      print_table(read_table(top.open_dataset(name)), rows);
    }
  }
}

std::vector<std::string> ExhaustiveDriver::summary_tables(const h5::Group& root) const {
  std::vector<std::string> tables{"exhaustive/counts"};
  if (root.has("exhaustive/top")) {
    for (const auto& name : root.open_group("exhaustive/top").children())
      tables.push_back("exhaustive/top/" + name);
  }
  return tables;
}

}  // namespace levelforge

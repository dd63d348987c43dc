#pragma once
// The `ga` driver (runner/drivers/ga/): its run, checks, memory and summary, on the Driver
// interface; its definitions are spread over this folder's sources by concern.

#include "runner/drivers/driver.hpp"
#include "runner/drivers/ga/ga_spec.hpp"

namespace levelforge {

class GaDriver final : public DriverOf<GaSpec> {
 public:
  [[nodiscard]] std::vector<MemoryPart> result_memory(
      const ResultMemoryQuery& query) const override;
  [[nodiscard]] std::uint64_t point_bytes() const override;
  [[nodiscard]] PointFacts point_facts(const config::Experiment& experiment,
                                       const KernelEntry& kernel, std::size_t point) const override;
  [[nodiscard]] std::vector<TaskDataset> task_datasets(
      const config::Experiment& experiment, const KernelEntry& kernel,
      const std::vector<PointFacts>& facts) const override;
  void describe_tables(const config::Experiment& experiment, const std::vector<PointFacts>& facts,
                       SegmentDescription& description) const override;
  void run(DriverContext& context) const override;
  [[nodiscard]] Segment read_shard(const ShardReading& shard) const override;
  void print_records(const KernelEntry& kernel) const override;
  void print_summary(const h5::Group& root, std::size_t rows) const override;
  [[nodiscard]] std::vector<std::string> summary_tables(const h5::Group& root) const override;
};

// Whether a point of the run breeds by nsga2: the run then records every point's fronts.
bool records_fronts(const config::Experiment& experiment);

}  // namespace levelforge

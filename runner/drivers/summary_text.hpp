#pragma once
// What the drivers' `inspect` summaries share: tables printed as columns, and the statistics
// they give per point over its replicates.

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/api/record.hpp"

#include "runner/output/table_reader.hpp"

namespace levelforge {

// The first `limit` rows of `table` as columns, and how many more there are.
void print_table(const TableData& table, std::size_t limit);

// `levelforge kernels NAME`: a kernel's fields under `title`.
void print_fields(const std::string& title, const std::vector<FieldSpec>& fields);

// Of an even count, the mean of the middle two: the upper one alone read as the maximum of two
// replicates.
double median(std::vector<double> values);
double mean(const std::vector<double>& values);

// The last row of `task` in a (tasks, steps) history whose `step` column is -1 past the steps
// the task ran (a task stopped early pads the rest).
std::size_t last_step(const TableData& history, std::size_t task, std::size_t step);

}  // namespace levelforge

#include "runner/engine/qd_engine.hpp"

namespace levelforge {

namespace {

std::vector<FieldSpec> measure_fields(const std::vector<MeasureAxis>& axes) {
  std::vector<FieldSpec> fields;
  fields.reserve(axes.size());
  for (const auto& axis : axes) {
    fields.push_back(real_field("measure_" + axis.name, "measure '" + axis.name + "'"));
  }
  return fields;
}

}  // namespace

RecordLayout qd_evaluation_layout(const std::vector<FieldSpec>& kernel_fields,
                                  const std::vector<MeasureAxis>& axes) {
  return RecordLayout::concat(
      RecordLayout::concat({real_field("fitness", "fitness of the genome")}, kernel_fields)
          .fields(),
      measure_fields(axes));
}

RecordLayout qd_archive_layout(const std::vector<FieldSpec>& kernel_fields,
                               const std::vector<MeasureAxis>& axes) {
  return RecordLayout::concat(
      {int_field("cell", "cell number, row-major over the measures (the last varies fastest)"),
       int_field("occupied", "1 when the cell holds an elite, 0 when it is empty")},
      qd_evaluation_layout(kernel_fields, axes).fields());
}

RecordLayout qd_history_layout() {
  return RecordLayout(
      {int_field("iteration", "iteration number, 0 is the initial random genomes"),
       int_field("evaluations", "evaluations made so far"),
       int_field("occupied", "cells holding an elite"),
       real_field("coverage", "fraction of the cells holding an elite"),
       real_field("qd_score", "sum over occupied cells of (fitness - qd.score_offset)"),
       real_field("best", "highest fitness in the archive"),
       int_field("inserted", "offspring of this iteration that took a cell (new or better)")});
}

}  // namespace levelforge

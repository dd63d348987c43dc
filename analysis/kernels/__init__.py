"""The figures of each shipped kernel: analysis/kernels/<kernel>.py defines figures(report)
(analysis/report.py finds it by the run's kernel name; analysis/figures.py has what they
share)."""

from .. import figures  # noqa: F401  (chooses matplotlib's Agg backend before pyplot loads)

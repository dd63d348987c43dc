"""The sweep driver (runner/drivers/sweep): its table (`run.sweep.records`, and
`run.records`), its results table and its part of the netCDF export; its figures are the
generic ones (analysis/figures.py) and the kernel's."""

import numpy as np

from ..loader import DriverTables, _frame, register_driver

TABLES = ("records",)
SOMETIMES = ()
RESULT_TABLE = "records"
RESULTS_WHAT = "the record's fields"
UNIT = "task"


@register_driver("sweep", TABLES)
class SweepTables(DriverTables):
    """A sweep run's table: records."""

    @property
    def records(self):
        def build():
            frame = _frame(self._file["sweep/records"][()])
            frame.insert(0, "task", np.arange(len(frame)))
            # A failed task's row holds -1/NaN, not a result: left out, listed in `failures`.
            return self.with_params(self._done(frame))
        return self._cached("records", build)


def task_results(run):
    """(frame, fields): each task's record and its fields."""
    frame = run.records
    return frame, [c for c in frame.columns if c not in ("task", "point", "replicate", *run.swept_keys)]


def sampled_records(run):
    """(each task's record, what its fields are) for the sampled figures."""
    return run.records, "record field"


def figures(report, kernel_module):
    """A sweep run has no figures of its own driver."""


def variables(run, joined):
    """The per-task variables of the netCDF export (analysis/export.py)."""
    from ..export import _variables
    return [_variables(run.records, ["task"], "", joined)]


def point_variables(run, by_sweep):
    return []


def run_variables(run):
    return []

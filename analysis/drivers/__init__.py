"""The drivers' part of the analysis, one module per driver as runner/drivers/ has one folder
per driver: analysis/drivers/NAME.py holds what is the driver's own.

- Its tables: an accessor class registered on Result with loader.register_driver
  (`run.ga.history`; under their documented names too, `run.history`); `TABLES`, the
  tables every run of the driver has (what `python3 -m analysis RESULT.h5` lists, the CSV
  export writes and `load_many` concatenates), and `SOMETIMES`, tables listed only where
  they have rows (a GA's islands). Optional: `OPTIONAL`, tables that are None where the
  run's file lacks them (a GA's Pareto tables, for a kernel with objectives) and listed,
  exported and concatenated only where it has them; `more_tables(run)`, further {name:
  frame} of the CSV export; and `describe_lines(run)`, further lines of `python3 -m analysis`.
- Its results table: `task_results(run)` (one row per task, and the columns that say what it
  produced), `RESULT_TABLE` (where each task's values are) and `RESULTS_WHAT` (what they
  are, for results.png's caption); `sampled_records(run)`: (records, what) for the figures
  of a sampled sweep, or None.
- Its figures: `figures(report, kernel_module)`, drawn before the kernel's own.
- Its netCDF export: `variables(run, joined)` (per-task variables), `point_variables(run,
  by_sweep)` (per-point ones) and `run_variables(run)` (the whole run's).
- `UNIT`: what its checkpoint counts (`task`, or `chunk`). Optional: `checkpoint_groups(
  manifest)`, the {group: attributes} of the result file that its checkpoint's manifest
  holds, for reading a run in progress.

A new driver is one module here and its name in DRIVERS.
"""

import importlib

# Every driver, in the order the docs list them.
DRIVERS = ("ga", "sweep", "exhaustive", "qd")


def module(driver):
    """The module of `driver` (a run's `driver` attribute). LoadError for a driver this
    analysis does not know (a file written by a newer levelforge)."""
    if driver not in DRIVERS:
        from ..loader import LoadError
        raise LoadError(f"a run of the {driver!r} driver: this analysis knows the drivers "
                        f"{', '.join(DRIVERS)}")
    return importlib.import_module(f"{__name__}.{driver}")


def hook(driver, name, empty):
    """The optional function `name` of `driver`'s module, or one that returns `empty` where
    the module has none (more_tables, describe_lines, checkpoint_groups)."""
    return getattr(module(driver), name, lambda *args: empty)


def modules():
    """Every driver's module, in the order of DRIVERS."""
    return [module(driver) for driver in DRIVERS]


def optional(found):
    """The OPTIONAL tables of the driver module `found`: () where it has none."""
    return getattr(found, "OPTIONAL", ())


def tables():
    """The name of every driver table (TABLES, SOMETIMES and OPTIONAL of every driver)."""
    return tuple(name for found in modules()
                 for name in (*found.TABLES, *found.SOMETIMES, *optional(found)))


def listed_tables(run):
    """The tables `python3 -m analysis` lists and the CSV export writes for `run`, after the
    run's own (provenance, points, tasks, failures): its driver's TABLES, then its SOMETIMES
    that have rows, then its OPTIONAL that the file has (not None)."""
    found = module(run.driver)
    return [*found.TABLES, *(name for name in found.SOMETIMES if not getattr(run, name).empty),
            *(name for name in optional(found) if getattr(run, name) is not None)]


modules()  # each module registers its accessor on Result

"""levelforge results as pandas DataFrames.

    import analysis
    run = analysis.load("results/demo.h5")
    run.tasks, run.history, run.best, run.provenance

    runs = analysis.load_many("results/*.h5")   # every table with a `run` column
    analysis.catalog("results")                  # one row per result file
    analysis.export_csv(run, "out")              # its tables, with out/levelforge-export.json
    analysis.load("results/x.h5", in_progress=True)  # a running or stopped run's finished tasks

Reads the layout of docs/hdf5-layout.md with Debian's python3-h5py, -numpy and -pandas.
"""

from .export import export_csv, export_netcdf
from .files import OutputError, WriteError
from .loader import LoadError, Result, load
from .many import Runs, catalog, load_many

__all__ = ["LoadError", "OutputError", "Result", "Runs", "WriteError", "catalog", "export_csv",
           "export_netcdf", "load", "load_many"]

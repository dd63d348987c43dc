"""levelforge results as pandas DataFrames.

    import analysis
    run = analysis.load("results/demo.h5")
    run.tasks, run.history, run.best, run.provenance

Reads the layout of docs/hdf5-layout.md with Debian's python3-h5py, -numpy and -pandas.
"""

from .loader import LoadError, Result, load

__all__ = ["LoadError", "Result", "load"]

"""Many result files at once: `load_many` concatenates their tables with a `run` column, and
`catalog` lists the result files under a directory, one line each."""

import glob
import os
import re
import stat

import pandas as pd

from . import files
from .checkpoint import CheckpointError, RunInProgress
from .drivers import tables as driver_tables
from .loader import LoadError, load

# The tables `load_many` concatenates: the run's own and every driver's; a file whose driver
# has no such table adds no rows.
TABLES = ("provenance", "points", "tasks", "failures", *driver_tables())


def run_name(run):
    """`demo seed=2026 commit=3f2a9c1`: what tells runs apart in a concatenated frame."""
    provenance = run.provenance
    return (f"{provenance['experiment']} seed={provenance['seed']} "
            f"commit={str(provenance['git_commit'])[:7]}")


def _paths(paths):
    if isinstance(paths, (str, os.PathLike)):
        found = sorted(glob.glob(os.fspath(paths)))
        if not found:
            raise LoadError(f"{os.fspath(paths)}: no file matches")
        return found
    return [os.fspath(path) for path in paths]


class Runs:
    """Several results; each table is every file's rows with `run` (run_name) and `path`
    columns in front. Tables are built when first used; close() (or `with`) closes the files."""

    def __init__(self, results):
        self.results = results
        self._cache = {}

    def close(self):
        for result in self.results:
            result.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __getattr__(self, name):
        if name not in TABLES:
            raise AttributeError(name)
        if name not in self._cache:
            frames = []
            for result in self.results:
                try:
                    frame = getattr(result, "provenance_frame" if name == "provenance" else name)
                except LoadError:
                    continue  # a table of another driver
                if frame is None:
                    continue  # an OPTIONAL table this file lacks (a GA's Pareto tables)
                frame = frame.copy()
                frame.insert(0, "path", result.path)
                frame.insert(0, "run", run_name(result))
                frames.append(frame)
            self._cache[name] = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
        return self._cache[name]


def load_many(paths, allow_shard=False):
    """The result files `paths` (a list, or a glob pattern such as "results/*.h5") as one
    Runs. Raises LoadError naming the first file `load` refuses."""
    results = []
    try:
        for path in _paths(paths):
            results.append(load(path, allow_shard=allow_shard))
    except Exception:
        for result in results:
            result.close()
        raise
    return Runs(results)


CATALOG_COLUMNS = ["path", "experiment", "kernel", "driver", "seed", "commit", "date", "tasks",
                   "done", "failed", "bytes", "note"]


def catalog(directory):
    """One row per .h5 file under `directory` (recursively), in path order: a result's
    experiment, kernel, driver, seed, commit, end date, tasks and how many are done and
    failed, its size; one row per checkpoint folder (`*.checkpoint`: a run in progress or
    stopped), its files not listed apart: the date of its last segment, its tasks done so far
    (an exhaustive run's chunks under `note`) and `in progress: ...` under `note`; an entry
    `load` refuses or cannot read (not a levelforge result, a FIFO, a dangling symbolic link,
    permission denied) has the reason under `note`, and nothing
    there is opened unless it is a regular file. LoadError when `directory` is no folder."""
    directory = os.fspath(directory)
    found = files.problem(directory, "a folder", folder=True)
    if found is not None:
        raise LoadError(f"{directory} {found}")
    pattern = os.path.join(glob.escape(directory), "**", "*")
    found = sorted(glob.glob(pattern + ".h5", recursive=True) +
                   [path for path in glob.glob(pattern + ".checkpoint", recursive=True)
                    if os.path.isdir(path)])
    # A checkpoint's manifest and segments are its own, not results: one row per checkpoint.
    inside = tuple(path + os.sep for path in found if path.endswith(".checkpoint"))
    rows = [_checkpoint_row(path) if path.endswith(".checkpoint") else _catalog_row(path)
            for path in found if not path.startswith(inside)]
    return pd.DataFrame(rows, columns=CATALOG_COLUMNS)


def _checkpoint_row(path):
    """The catalog's row of the checkpoint folder `path`: a run in progress or stopped."""
    row = dict.fromkeys(CATALOG_COLUMNS, "")
    row["path"] = path
    try:
        run = RunInProgress(path)
    except (CheckpointError, OSError) as error:
        row["note"] = f"a checkpoint that cannot be read: {error}"
        return row
    commit = re.search(r"commit ([0-9a-f]{7})", run.builds)
    row.update(experiment=run.experiment, kernel=run.kernel, driver=run.driver,
               seed=run.config.get("seed", ""), commit=commit.group(1) if commit else "",
               date=run.last_segment_time or "", tasks=run.task_count,
               bytes=sum(entry.stat().st_size for entry in os.scandir(path) if entry.is_file()),
               note=f"{run.describe()}; not a result yet: `levelforge resume {run.path}` "
                    f"continues it once stopped, analysis.load(..., in_progress=True) reads it")
    if run.unit == "task":
        row.update(done=run.done, failed=run.failed)
    return row


def _catalog_row(path):
    """The catalog's row of `path`: what `load` reads from it, or why it cannot."""
    row = dict.fromkeys(CATALOG_COLUMNS, "")
    row["path"] = path
    try:
        info = os.stat(path)
        if stat.S_ISREG(info.st_mode):
            row["bytes"] = info.st_size
        with load(path, allow_shard=True) as run:
            provenance = run.provenance
            status = run.tasks.status
            row.update(experiment=provenance["experiment"], kernel=run.kernel, driver=run.driver,
                       seed=provenance["seed"], commit=str(provenance["git_commit"])[:7],
                       date=str(provenance.get("end_time", "")), tasks=len(status),
                       done=int((status == 1).sum()), failed=int((status == 2).sum()))
            if provenance.get("shard_count") is not None and not pd.isna(provenance["shard_count"]):
                row["note"] = (f"shard {int(provenance['shard_index'])} of "
                               f"{int(provenance['shard_count'])}")
    except LoadError as error:
        row["note"] = str(error)
    except OSError as error:  # stat, or h5py reading a table: the entry, not the catalog, fails
        found = files.problem(path, "a levelforge file")
        row["note"] = f"{path} {found or f'cannot be read: {error.strerror or error}'}"
    return row

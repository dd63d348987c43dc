"""`load(path)`: one levelforge result file as tidy DataFrames (docs/hdf5-layout.md)."""

import os

import h5py
import numpy as np
import pandas as pd

from . import files, seal
from .checkpoint import CheckpointError, RunInProgress

FORMAT = "levelforge-results"
FORMAT_VERSION = 1
# Root attributes that describe the run rather than its results.
PROVENANCE = ("experiment", "kernel", "driver", "seed", "replicates", "ranks", "hosts",
              "levelforge_version", "git_commit", "git_changes", "kernel_version", "kernel_commit",
              "kernel_sources", "start_time", "end_time", "sessions", "shard_index", "shard_count",
              "builds", "merged_from", "config", "effective_config")


class LoadError(Exception):
    """A file `load` cannot read as a complete levelforge result; the message says why."""


def _text(value):
    return value.decode() if isinstance(value, bytes) else value


def _frame(array):
    """A compound dataset's rows as a DataFrame; fixed-length strings become str."""
    frame = pd.DataFrame({name: array[name] for name in array.dtype.names})
    for name in array.dtype.names:
        if array.dtype[name].kind == "S":
            frame[name] = [value.decode() for value in array[name]]
    return frame


def _genomes(rows, lengths):
    """Each row of a 2-D genome array as a list of its `lengths[i]` genes (the point's genome
    length, `GROUP/genome_length`): the -1 padding after them dropped, every gene kept, -1
    ones too (an empty target slot, a signed seed)."""
    return [row[:length].tolist() for row, length in zip(rows, lengths)]


def _attribute(value):
    value = _text(value)
    if isinstance(value, np.ndarray):
        return [_text(item) for item in value.tolist()]
    if isinstance(value, np.generic):
        return value.item()
    return value


class Result:
    """A complete result file's tables. Frames are read when first used.

    complete    True (a run in progress loads as checkpoint.RunInProgress, complete False)

    points      one row per sweep point: `point` and the swept values
    tasks       one row per task the file holds (a shard: its own), with its point's swept
                values as columns
    history     ga: long format, one row per task and generation run, with the task's point,
                replicate and swept values
    best        ga: the kept individuals of each task, best first, with `genome` (a list),
                for validating kernels the validation columns, and the swept values
    levels      ga: the rendered levels as an array (tasks, kept, H, W), or None
    island_history  ga with islands (any point's ga.islands > 1): one row per task,
                generation and island, taken before migration: best, mean, std, min,
                diversity (within the island), distance_to_others (to the other islands'
                individuals; NaN with one island), with the task's point, replicate and
                swept values; no rows for a
                run without islands
    island_best ga with islands: each island's best individual at the end, `island`,
                `fitness`, the kernel's fields and `genome` (a list), with the swept values
    migrations  ga with islands: one row per migrant: task, generation (it left after it),
                from, to (islands), source, target (individuals), fitness, with the swept values
    pareto_history  ga of a kernel with objectives (else None): one row per task and
                generation run: evaluations (so far), front_size, hypervolume, with the swept
                values
    fronts      ga of a kernel with objectives (else None): one row per member of each
                generation's Pareto front: task, swept values, generation, member, one column
                per objective (run.ga.objective_names) as the kernel records it
    objective_reference  ga of a kernel with objectives (else None): one row per point and
                objective: point, objective, minimize, reference (the hypervolume's)
    qd_history  qd: one row per task and iteration run (0: the initial random genomes):
                evaluations (so far), occupied (cells holding an elite), coverage, qd_score,
                best, inserted, with the task's point, replicate and swept values
    qd_archive  qd: one row per occupied cell of each task's final archive: cell, its bin
                along each measure (`bin_<name>`, -1 for CVT cells), with CVT archives its
                centroid (`centroid_<name>`), the elite's measures (`measure_<name>`),
                fitness, the kernel's fields, for validating kernels the validation columns,
                and `genome` (a list), after the task's point, replicate and swept values
    qd_measures qd: one row per sweep point and measure, in the grid's order: point,
                measure (its name), low, high, bins (0 for CVT cells), cells
    qd_levels   qd: the rendered levels of the archive's cells as an array (tasks, cells,
                H, W), 255 for an empty cell, or None
    records     sweep: each task's record with its point's swept values; a failed task
                (on_error: record) has no record and no row
    failures    tasks and exhaustive chunks whose kernel threw (on_error: record): task,
                point, replicate, begin, end (exhaustive: the chunk's index range), message,
                with the point's swept values; empty for a run without failures
    reductions  exhaustive: long format: task, reduction, kind, bin, low, high, value,
                uncovered (indices of the task's range its failed chunks left out)
    top         exhaustive: {name: the top-k table, long: task, rank, score, index, fields,
                uncovered}
    solutions   exhaustive: every solution record
    provenance  a dict: experiment, kernel, driver, seed, version, commit, ranks, hosts,
                times, ...; `config` (the config as written) and `effective_config` (with
                every default filled in) parsed into dicts, their YAML text under
                `config_text` and `effective_config_text`
    provenance_frame  the provenance as one row, the configs as their YAML text (for tables
                and for concatenating runs)

    Each driver's tables are its module's (analysis/drivers/NAME.py), reached as above or
    through the driver's accessor: `run.ga.history`, `run.qd.qd_archive`, `run.sweep.records`,
    `run.exhaustive.top`.

    param_table(name) reads a table parameter (a list of maps under `params`, docs/analysis.md)
    from the config.
    """

    complete = True

    def __init__(self, path, file):
        self.path = path
        self._file = file
        self.driver = _text(file.attrs["driver"])
        self.kernel = _text(file.attrs["kernel"])
        self._cache = {}

    def close(self):
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _cached(self, name, build):
        if name not in self._cache:
            self._cache[name] = build()
        return self._cache[name]

    def _require(self, driver, what):
        if self.driver != driver:
            raise LoadError(f"{self.path}: `{what}` exists for {driver} runs; this is a {self.driver} run")

    def _accessor(self, driver, what):
        """The accessor of `driver` (register_driver) for this run, made once; LoadError, naming
        `what`, for a run of another driver."""
        self._require(driver, what)
        return self._cached(("driver", driver), lambda: _ACCESSORS[driver](self))

    @property
    def provenance_frame(self):
        def build():
            attrs = self._file.attrs
            return pd.DataFrame([{name: _attribute(attrs[name]) for name in PROVENANCE if name in attrs}])
        return self._cached("provenance_frame", build)

    @property
    def provenance(self):
        def build():
            import yaml
            provenance = self.provenance_frame.iloc[0].to_dict()
            for name in ("config", "effective_config"):
                text = provenance.get(name)
                if text is None:
                    continue
                try:
                    parsed = yaml.safe_load(text)
                except yaml.YAMLError as error:
                    raise LoadError(f"{self.path}: the `{name}` attribute is not YAML: {error}") from None
                provenance[f"{name}_text"] = text
                provenance[name] = parsed if isinstance(parsed, dict) else {}
            return provenance
        return self._cached("provenance", build)

    def setting(self, key, point=None):
        """The value of a config key (`params.estimator`, `ga.generations`) at sweep point
        `point`: its swept value, else the run's effective config (defaults filled in). None
        when the run has no such key."""
        if key in self.points.columns:
            if point is None:
                values = self.points[key].unique()
                if len(values) != 1:
                    raise ValueError(f"{key} is swept: name the point")
                return values[0]
            return self.points.loc[self.points.point == point, key].iloc[0]
        section = self.provenance.get("effective_config", {})
        for part in key.split("."):
            if not isinstance(section, dict) or part not in section:
                return None
            section = section[part]
        return section

    def to_xarray(self):
        """Every table of the run as one xarray.Dataset (analysis.export.run_dataset): the
        swept keys are indexed coordinates, so `ds.sel({"params.target": 0.3})` selects."""
        from .export import run_dataset
        return run_dataset(self)

    def param_table(self, name):
        """The table parameter `params.<name>` as the config holds it (a list of maps; files
        the config named are inlined), or None: no such list."""
        params = self.provenance.get("config", {}).get("params")
        table = params.get(name) if isinstance(params, dict) else None
        return table if isinstance(table, list) else None

    @property
    def points(self):
        return self._cached("points", lambda: _frame(self._file["points"][()]))

    @property
    def swept_keys(self):
        return [column for column in self.points.columns if column != "point"]

    @property
    def sampled_keys(self):
        """The swept keys drawn by `sweep.sample` (docs/config.md), in their order; [] for none."""
        sweep = self.provenance.get("effective_config", {}).get("sweep") or {}
        space = (sweep.get("sample") or {}).get("space") or {}
        return [key for key in space if key in self.swept_keys]

    def with_params(self, frame):
        """`frame` (with a `task` or `point` column) joined to each point's swept values. Only
        the columns `frame` lacks are added, so joining twice changes nothing."""
        if "point" not in frame.columns:
            wanted = ["task", *(c for c in ("point", "replicate") if c not in frame.columns)]
            frame = frame.merge(self.tasks[wanted], on="task", how="left")
        missing = [c for c in self.points.columns if c not in frame.columns]
        if not missing:
            return frame
        return frame.merge(self.points[["point", *missing]], on="point", how="left")

    @property
    def tasks(self):
        def build():
            tasks = _frame(self._file["tasks"][()])
            # Pending rows (status 0) are tasks no rank of this file ran: another shard's.
            tasks = tasks[tasks.status != 0].reset_index(drop=True)
            return tasks.merge(self.points, on="point", how="left")
        return self._cached("tasks", build)

    def _genome_lengths(self, group, tasks):
        """The genome length of each task's point (`GROUP/genome_length`), by task number."""
        lengths = self._file[f"{group}/genome_length"][()]
        replicates = int(self._file.attrs["replicates"])
        return lengths[np.asarray(tasks, dtype=np.int64) // replicates]

    def _done(self, frame):
        """The rows of `frame` whose task is done: not failed, not another shard's."""
        done = self.tasks.task[self.tasks.status == 1]
        return frame[frame.task.isin(done)].reset_index(drop=True)

    def _task_rows(self, name, key, columns):
        """The task-indexed dataset `name` (leading dimension the task, any others flattened)
        as long rows with `task` first, rows whose `key` is -1 (padding) and those of tasks not
        done left out, joined to the swept values. A file without it: no rows, with `task`,
        `columns` ({name: dtype}) and the joined columns."""
        if name not in self._file:
            columns = {"task": "int64", **columns}
            empty = pd.DataFrame({c: pd.Series(dtype=t) for c, t in columns.items()})
            joined = self.with_params(empty)
            ordered = [*columns, "point", "replicate", *self.swept_keys]
            return joined[[*ordered, *(c for c in joined.columns if c not in ordered)]]
        rows = self._file[name][()]
        per_task = int(np.prod(rows.shape[1:], dtype=np.int64))
        frame = _frame(rows.reshape(-1))
        frame.insert(0, "task", np.repeat(np.arange(rows.shape[0]), per_task))
        return self.with_params(self._done(frame[frame[key] >= 0]))

    @property
    def failures(self):
        def build():
            columns = ["task", "point", "replicate", "begin", "end", "session", "rank",
                       "wall_time", "message"]
            if "failures" not in self._file:
                frame = pd.DataFrame(columns=columns)
            else:
                frame = _frame(self._file["failures"][()])
            return frame.merge(self.points, on="point", how="left")
        return self._cached("failures", build)


_ACCESSORS = {}  # driver name -> its accessor class (register_driver)


def register_driver(name, tables):
    """A class decorator, as xarray's `register_dataset_accessor`: the class (built with a
    Result, see DriverTables) becomes `Result.<name>`, so `run.<name>` is its instance for a
    run of driver `name` (made once per run; LoadError for a run of another driver). Each of
    `tables`, attributes of the class, is also an attribute of Result under its own name:
    `run.history` is `run.ga.history`. analysis/drivers/NAME.py registers each driver."""
    def register(cls):
        _ACCESSORS[name] = cls
        setattr(Result, name, property(lambda self: self._accessor(name, name), doc=cls.__doc__))
        for table in tables:
            def get(self, table=table):
                return getattr(self._accessor(name, table), table)
            setattr(Result, table, property(get, doc=f"`run.{name}.{table}` ({name} runs)"))
        return cls
    return register


class DriverTables:
    """The base of a driver's accessor: its tables read the run's file and use the run's
    helpers (`_file`, `_cached`, `_done`, `_task_rows`, `with_params`, `tasks`, ...) as
    Result's own properties do; every attribute it lacks is the run's."""

    def __init__(self, run):
        self._run = run

    def __getattr__(self, name):
        if name == "_run":
            raise AttributeError(name)
        return getattr(self._run, name)


def _progress(file):
    """'N of M tasks done' from a file's /tasks table, when it can be read."""
    try:
        status = file["tasks"]["status"]
        return f"{int((status == 1).sum())} of {len(status)} tasks done"
    except (KeyError, OSError, ValueError):
        return "its task table is unreadable"


def _missing(path):
    """Why there is nothing at `path`, pointing to what a run left there instead."""
    if os.path.isdir(path + ".checkpoint"):
        return (f"{path} does not exist: its run is in progress or was interrupted; "
                f"`levelforge inspect {path}` shows how much is done, `levelforge resume {path}` "
                f"continues a stopped run, and load(..., in_progress=True) reads what it has "
                f"finished")
    if os.path.exists(path + ".partial"):
        return (f"{path} does not exist: {path}.partial is a run that is still writing or "
                f"failed; it is not a result")
    return f"{path} does not exist"


def load(path, allow_shard=False, in_progress=False):
    """The result file at `path`. Raises LoadError for a path that is missing or not a regular
    file (a FIFO, a device, a folder, a dangling symbolic link: refused without being opened,
    so nothing blocks), a file that does not match its levelforge seal, is not a levelforge
    result, of another format version, or not a complete run (a run still writing or
    interrupted, a shard unless `allow_shard`), saying what is complete.

    With `in_progress`, a run that is still running or was stopped (no `path` yet, its
    checkpoint `path`.checkpoint there; or the checkpoint folder named) is read as a
    checkpoint.RunInProgress: what it has finished so far, read only."""
    path = os.fspath(path)
    checkpoint = path.rstrip("/") if path.rstrip("/").endswith(".checkpoint") else path + ".checkpoint"
    if in_progress and os.path.isdir(checkpoint) and not os.path.lexists(checkpoint[:-len(".checkpoint")]):
        try:
            return RunInProgress(checkpoint)
        except (CheckpointError, OSError) as error:
            raise LoadError(str(error)) from error
    if not os.path.lexists(path):
        raise LoadError(_missing(path))
    found = files.problem(path, "a levelforge file")
    if found is not None:
        raise LoadError(f"{path} {found}")
    try:
        seal.verify(path)
    except seal.SealError as error:
        raise LoadError(str(error)) from error
    except OSError as error:
        raise LoadError(f"{path} cannot be read: {error.strerror or error}") from error
    try:
        file = h5py.File(path, "r")
    except OSError as error:
        raise LoadError(f"{path}: not an HDF5 file ({error})") from error
    try:
        attrs = file.attrs
        if _text(attrs.get("format", "")) != FORMAT:
            raise LoadError(f"{path}: an HDF5 file but not a levelforge result (no format attribute "
                            f"'{FORMAT}')")
        version = int(attrs.get("format_version", -1))
        if version != FORMAT_VERSION:
            raise LoadError(f"{path}: levelforge result format version {version} "
                            f"(levelforge {_text(attrs.get('levelforge_version', '?'))}); this "
                            f"loader reads version {FORMAT_VERSION}")
        if int(attrs.get("complete", 0)) != 1:
            raise LoadError(f"{path}: an incomplete run (complete = 0): {_progress(file)}")
        if "shard_count" in attrs and not allow_shard:
            raise LoadError(f"{path}: shard {int(attrs['shard_index'])} of {int(attrs['shard_count'])}, "
                            f"{_progress(file)}; combine the shards with `levelforge merge`, or "
                            f"pass allow_shard=True")
        return Result(path, file)
    except Exception:
        file.close()
        raise


# Last: the drivers' modules register their accessors on Result (register_driver).
from . import drivers  # noqa: E402,F401

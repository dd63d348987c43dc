"""A run in progress or stopped: what its checkpoint, OUTPUT.checkpoint/ (docs/checkpoint.md),
has finished so far, read without changing a byte of it. The counting follows levelforge's
`inspect` (runner/checkpoint/checkpoint_store.cpp, summarize_checkpoint): a unit that
succeeded in any session is done; one that only failed is done as a failure, unless a retry
in progress runs it again."""

import datetime
import os
import re
import types

import h5py
import numpy as np
import pandas as pd

from . import files, seal

FORMAT = "levelforge-checkpoint"
FORMAT_VERSION = 4
SEGMENT = re.compile(r"s(\d{4})-r\d{6}-\d{6}\.h5")
# A rank's kernel error that stopped its session (on_error: abort).
STOP = re.compile(r"s(\d{4})-r\d{6}-stop\.h5")


class CheckpointError(Exception):
    """A checkpoint that cannot be read; the message says why."""


def _read(path, layouts=None):
    """{name: array} of a sealed checkpoint file's `ints` and `bytes` groups; with a dict
    `layouts`, the manifest's `layouts` group goes into it: {key: (dtype, block shape,
    missing element, result path or None)}."""
    try:
        seal.verify(path)
        with h5py.File(path, "r") as f:
            if layouts is not None:
                for key, layout in f.get("layouts", {}).items():
                    path_attribute = layout.attrs.get("path")
                    layouts[key] = (layout.dtype, layout.shape[1:], layout.fillvalue,
                                    None if path_attribute is None else _text(path_attribute))
            return {name: f[group][name][()] for group in ("ints", "bytes") if group in f
                    for name in f[group]}
    except (seal.SealError, OSError) as error:
        raise CheckpointError(f"{path}: not a readable checkpoint file ({error})") from None


def _unpack(values, layout):
    """The units packed in `values` (a segment's ints or bytes) as `layout` says: an array of
    its dtype, one block per unit."""
    dtype, block = layout[:2]
    return np.frombuffer(values.tobytes(), dtype=dtype).reshape(-1, *block)


def _text(value):
    """A manifest's bytes, or an attribute's bytes or str, as str."""
    return value if isinstance(value, str) else bytes(value).decode()


def _time(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


class RunInProgress:
    """What the checkpoint `directory` has finished so far. Not a complete result: `complete`
    is False. The finished tasks' tables, decoded from the segments with the layouts the
    checkpoint's manifest records, under the names and in the frames of loader.Result, which
    builds them:

    points, tasks, failures, and by driver: ga: history, best, levels, island_history,
                 island_best, migrations, pareto_history, fronts (its objectives named
                 objective_0, ...: the checkpoint keeps no names); qd: qd_history, qd_archive, qd_measures, qd_levels;
                 sweep: records. Only the tasks finished so far have rows; `tasks` holds no
                 failed tasks (they are in `failures`), and an exhaustive run, whose
                 reductions end only with the run, has no tables but `points` and `failures`
    in_progress  ga and qd: the tasks saved in the middle: task, generations (or iterations) run
    unit, done, failed, total   the finished units (tasks; chunks for exhaustive), of which
                 failed; total is None while an exhaustive run has not yet counted its chunks
    task_count   the run's tasks
    builds       which build ran each session, as the checkpoint's manifest says
    stopped_by   the kernel errors that stopped the last session (on_error: abort), as
                 `levelforge inspect` gives them; empty when none did
    sessions, last_segment_time (UTC), experiment, kernel, driver, config (dict), config_text
    """

    complete = False

    def __init__(self, directory):
        self.directory = os.fspath(directory).rstrip("/")
        self.path = self.directory[:-len(".checkpoint")]
        manifest_path = os.path.join(self.directory, "manifest.h5")
        found = files.problem(manifest_path, "a checkpoint manifest")
        if found is not None:
            raise CheckpointError(f"{self.directory}: not a levelforge checkpoint "
                                  f"({manifest_path} {found})")
        self._layouts = {}
        manifest = _read(manifest_path, self._layouts)
        if _text(manifest.get("format", b"")) != FORMAT or \
                int(manifest.get("format_version", [-1])[0]) != FORMAT_VERSION:
            raise CheckpointError(f"{manifest_path}: not a levelforge checkpoint of format version "
                                  f"{FORMAT_VERSION}")
        import yaml
        self.experiment = _text(manifest["experiment"])
        self.driver = _text(manifest["driver"])
        self.config_text = _text(manifest["config"])
        self.config = yaml.safe_load(self.config_text) or {}
        self.kernel = self.config.get("kernel")
        self.builds = _text(manifest.get("builds", b""))
        self.sessions = int(manifest["session"][0]) + 1
        from .drivers import hook, module
        self.unit = module(self.driver).UNIT
        retry_session = int(manifest.get("retry_session", [-1])[0])
        self.task_count = int(manifest["tasks"][0])
        self.total = self.task_count if self.unit == "task" else None
        # The result file's datasets as far as the checkpoint holds them, for loader.Result:
        # the run's own tables from the manifest, the per-task ones from the segments.
        self._arrays = {layout[3]: _unpack(manifest[key], layout)
                        for key, layout in self._layouts.items() if key in manifest}
        # The driver's groups' attributes that the manifest holds (a QD run's measures).
        groups = hook(self.driver, "checkpoint_groups", {})(manifest)
        self._groups = {name: types.SimpleNamespace(attrs=attrs) for name, attrs in groups.items()}
        self._read_segments(retry_session, {key: layout for key, layout in self._layouts.items()
                                            if layout[3] is not None and key not in manifest
                                            and key != "task_rows"})
        from .loader import Result
        self._result = Result(self.path, self)

    @property
    def attrs(self):
        """The result file's root attributes that a checkpoint knows, for loader.Result."""
        points = len(self._arrays["points"])
        return {"experiment": self.experiment, "kernel": self.kernel, "driver": self.driver,
                "config": self.config_text, "builds": self.builds, "sessions": self.sessions,
                "seed": self.config.get("seed"), "replicates": self.task_count // points}

    # loader.Result reads a run in progress as it reads a result file: these make the
    # checkpoint's arrays its datasets.
    def __contains__(self, name):
        return name in self._arrays or name in self._groups

    def __getitem__(self, name):
        return self._arrays[name] if name in self._arrays else self._groups[name]

    def get(self, name, default=None):
        """Unlike a file's: what the checkpoint lacks (an exhaustive run's reductions) is
        refused, not read as an empty table."""
        return self[name]

    def __getattr__(self, name):
        """The tables of loader.Result (history, best, records, qd_archive, ...)."""
        if name.startswith("_") or "_result" not in self.__dict__:
            raise AttributeError(name)
        from .loader import Result
        if not hasattr(Result, name):
            raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")
        try:
            return getattr(self._result, name)
        except KeyError as missing:
            raise CheckpointError(f"{self.directory}: `{name}` is not read from a checkpoint of "
                                  f"a {self.driver} run (it holds no {missing})") from None

    def _read_segments(self, retry_session, per_task):
        """The segments' work; `per_task`: the layouts of the per-task datasets they pack."""
        names = sorted(name for name in os.listdir(self.directory) if SEGMENT.fullmatch(name))
        paths = [os.path.join(self.directory, name) for name in names]
        times = [os.stat(path).st_mtime for path in paths]
        self.last_segment_time = _time(max(times)) if times else None
        task_rows, failure_rows = self._layouts["task_rows"], self._layouts["failures"]
        # Every task's block missing until a segment holds it.
        for dtype, block, missing, result_path in per_task.values():
            self._arrays[result_path] = np.full((self.task_count, *block), missing, dtype=dtype)
        self.stopped_by = sorted({
            _text(_read(os.path.join(self.directory, name))["stop_error"])
            for name in os.listdir(self.directory)
            if (stop := STOP.fullmatch(name)) and int(stop.group(1)) == self.sessions - 1})
        units, failed, snapshots, rows, failures = set(), {}, {}, [], []
        key = "tasks" if self.unit == "task" else "chunks"
        # In name order, so that a task saved in several sessions (a retry that succeeded)
        # ends with its newest blocks and rows.
        for name, path in zip(names, paths):
            session = int(SEGMENT.fullmatch(name).group(1))
            segment = _read(path)
            units.update(segment.get(key, np.zeros(0, np.int64)).tolist())
            for unit in segment.get("failed_units", ()):
                failed[int(unit)] = max(failed.get(int(unit), session), session)
            if "chunk_total" in segment and len(segment["chunk_total"]):
                self.total = int(segment["chunk_total"][0])
            for task, generations in zip(segment.get("snapshot.tasks", ()),
                                         segment.get("snapshot.generations", ())):
                snapshots[int(task)] = max(snapshots.get(int(task), 0), int(generations))
            if len(segment.get("task_rows", ())):
                rows.append(_unpack(segment["task_rows"], task_rows))
                for segment_key, layout in per_task.items():
                    self._arrays[layout[3]][segment["tasks"]] = _unpack(segment[segment_key], layout)
            if len(segment.get("failures", ())):
                messages = bytes(segment["failure_messages"]).split(b"\0")[:-1]
                frame = pd.DataFrame(_unpack(segment["failures"], failure_rows))
                failures.append(frame.assign(message=[m.decode(errors="replace") for m in messages]))
        failed_now = {u for u, s in failed.items() if u not in units and s >= retry_session}
        self.failed = len(failed_now)
        self.done = len(units) + self.failed
        tasks = pd.DataFrame(np.concatenate(rows) if rows else np.zeros(0, task_rows[0]))
        tasks = tasks.drop_duplicates("task", keep="last").sort_values("task")
        self._arrays["tasks"] = tasks.to_records(index=False)
        columns = list(failure_rows[0].names)
        failures = pd.concat(failures, ignore_index=True) if failures else pd.DataFrame(
            columns=[*columns, "message"])
        failures = failures.drop_duplicates(["task", "begin"], keep="last")
        if self.unit == "task":
            failures = failures[failures.task.isin(failed_now)]
        self._arrays["failures"] = self._failure_table(failures.reset_index(drop=True))
        self.in_progress = pd.DataFrame(
            [(task, generations) for task, generations in sorted(snapshots.items())
             if task not in units], columns=["task", "generations"])

    def _failure_table(self, failures):
        """The failures as the result file's /failures rows (docs/hdf5-layout.md): the task's
        point and replicate (task = point * replicates + replicate), seconds for microseconds."""
        replicates = self.task_count // len(self._arrays["points"])
        task = failures.task.to_numpy(dtype=np.int64)
        table = pd.DataFrame({
            "task": task, "point": task // replicates, "replicate": task % replicates,
            "begin": failures.begin.to_numpy(dtype=np.int64),
            "end": failures.end.to_numpy(dtype=np.int64),
            "session": failures.session.to_numpy(dtype=np.int64),
            "rank": failures["rank"].to_numpy(dtype=np.int64),
            "wall_time": failures.wall_us.to_numpy(dtype=np.float64) / 1e6,
            "message": failures.message.to_numpy(dtype=object)})
        return table.to_records(index=False)

    def describe(self):
        """`4 of 6 tasks done (1 failed) in 1 session, last segment 2026-12-07T12:07:31Z`."""
        total = "(not yet known)" if self.total is None else self.total
        failed = f" ({self.failed} failed)" if self.failed else ""
        sessions = f"{self.sessions} session{'' if self.sessions == 1 else 's'}"
        last = f", last segment {self.last_segment_time}" if self.last_segment_time else ""
        stopped = f"; stopped by a kernel's error: {self.stopped_by[0]}" if self.stopped_by else ""
        return (f"in progress: {self.done} of {total} {self.unit}s done{failed} in {sessions}{last}"
                f"{stopped}")

    def __repr__(self):
        return (f"<RunInProgress {self.experiment} ({self.driver} driver), {self.describe()}: "
                f"{self.directory}>")

    def close(self):
        """Nothing stays open: every file was read and closed when loaded."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

"""A run in progress or stopped: what its checkpoint, OUTPUT.checkpoint/ (docs/checkpoint.md),
has finished so far, read without changing a byte of it. The counting follows levelforge's
`inspect` (runner/checkpoint/checkpoint_store.cpp, summarize_checkpoint): a unit that
succeeded in any session is done; one that only failed is done as a failure, unless a retry
in progress runs it again."""

import datetime
import os
import re

import h5py
import numpy as np
import pandas as pd

from . import files, seal

FORMAT = "levelforge-checkpoint"
FORMAT_VERSION = 3
SEGMENT = re.compile(r"s(\d{4})-r\d{6}-\d{6}\.h5")
# A /tasks row as segments pack it (docs/hdf5-layout.md, `/tasks`).
TASK_ROW = np.dtype([(name, "<f8" if name == "wall_time" else "<i8") for name in (
    "task", "point", "replicate", "seed", "status", "units", "wall_time", "rank", "session",
    "units_before")])
# A failure as segments pack it (runner/drivers/failure_log.cpp): six int64 per failure.
FAILURE_COLUMNS = ("task", "begin", "end", "rank", "session", "wall_us")
UNITS = {"exhaustive": "chunk"}


class CheckpointError(Exception):
    """A checkpoint that cannot be read; the message says why."""


def _read(path):
    """{name: array} of a sealed checkpoint file's `ints` and `bytes` groups."""
    try:
        seal.verify(path)
        with h5py.File(path, "r") as f:
            return {name: f[group][name][()] for group in ("ints", "bytes") if group in f
                    for name in f[group]}
    except (seal.SealError, OSError) as error:
        raise CheckpointError(f"{path}: not a readable checkpoint file ({error})") from None


def _text(array):
    return bytes(array).decode()


def _time(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


class RunInProgress:
    """What the checkpoint `directory` has finished so far. Not a complete result: `complete`
    is False, and only these are read:

    tasks        the finished tasks' /tasks rows (status 1), as the result file will hold them;
                 the tasks not yet done are not rows (a ga, qd or sweep run); no rows for an
                 exhaustive run, whose tasks end only with the run
    failures     the units that failed (on_error: record): task, begin, end (exhaustive: the
                 chunk's index range), rank, session, wall_time, message
    in_progress  ga and qd: the tasks saved in the middle: task, generations (or iterations) run
    unit, done, failed, total   the finished units (tasks; chunks for exhaustive), of which
                 failed; total is None while an exhaustive run has not yet counted its chunks
    task_count   the run's tasks
    builds       which build ran each session, as the checkpoint's manifest says
    sessions, last_segment_time (UTC), experiment, kernel, driver, config (dict), config_text

    A task's results (history, records, ...) are in the checkpoint's internal format, and are
    read once the run completes (`levelforge resume OUTPUT`)."""

    complete = False

    def __init__(self, directory):
        self.directory = os.fspath(directory).rstrip("/")
        self.path = self.directory[:-len(".checkpoint")]
        manifest_path = os.path.join(self.directory, "manifest.h5")
        found = files.problem(manifest_path, "a checkpoint manifest")
        if found is not None:
            raise CheckpointError(f"{self.directory}: not a levelforge checkpoint "
                                  f"({manifest_path} {found})")
        manifest = _read(manifest_path)
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
        self.unit = UNITS.get(self.driver, "task")
        retry_session = int(manifest.get("retry_session", [-1])[0])
        self.task_count = int(manifest["tasks"][0])
        self.total = self.task_count if self.unit == "task" else None
        self._read_segments(retry_session)

    def _read_segments(self, retry_session):
        names = sorted(name for name in os.listdir(self.directory) if SEGMENT.fullmatch(name))
        paths = [os.path.join(self.directory, name) for name in names]
        times = [os.stat(path).st_mtime for path in paths]
        self.last_segment_time = _time(max(times)) if times else None
        units, failed, snapshots, rows, failures = set(), {}, {}, [], []
        key = "tasks" if self.unit == "task" else "chunks"
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
                rows.append(np.frombuffer(segment["task_rows"].tobytes(), dtype=TASK_ROW))
            if len(segment.get("failures", ())):
                messages = bytes(segment["failure_messages"]).split(b"\0")[:-1]
                frame = pd.DataFrame(segment["failures"].reshape(-1, len(FAILURE_COLUMNS)),
                                     columns=FAILURE_COLUMNS)
                failures.append(frame.assign(message=[m.decode(errors="replace") for m in messages]))
        failed_now = {u for u, s in failed.items() if u not in units and s >= retry_session}
        self.failed = len(failed_now)
        self.done = len(units) + self.failed
        # A task in several segments (a retry that succeeded) counts in its newest one.
        tasks = pd.DataFrame(np.concatenate(rows) if rows else np.zeros(0, TASK_ROW))
        self.tasks = tasks.drop_duplicates("task", keep="last").sort_values("task") \
                          .reset_index(drop=True)
        failures = pd.concat(failures, ignore_index=True) if failures else pd.DataFrame(
            columns=[*FAILURE_COLUMNS, "message"])
        failures = failures.drop_duplicates(["task", "begin"], keep="last")
        if self.unit == "task":
            failures = failures[failures.task.isin(failed_now)]
        failures = failures.reset_index(drop=True)
        self.failures = failures.assign(wall_time=failures.pop("wall_us") / 1e6)
        self.in_progress = pd.DataFrame(
            [(task, generations) for task, generations in sorted(snapshots.items())
             if task not in units], columns=["task", "generations"])

    def describe(self):
        """`4 of 6 tasks done (1 failed) in 1 session, last segment 2026-12-07T12:07:31Z`."""
        total = "(not yet known)" if self.total is None else self.total
        failed = f" ({self.failed} failed)" if self.failed else ""
        sessions = f"{self.sessions} session{'' if self.sessions == 1 else 's'}"
        last = f", last segment {self.last_segment_time}" if self.last_segment_time else ""
        return f"in progress: {self.done} of {total} {self.unit}s done{failed} in {sessions}{last}"

    def __repr__(self):
        return (f"<RunInProgress {self.experiment} ({self.driver} driver), {self.describe()}: "
                f"{self.directory}>")

    def close(self):
        """Nothing stays open: every file was read and closed when loaded."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

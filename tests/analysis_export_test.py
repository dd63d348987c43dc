"""What `analysis` exports and reads beside `load`: the netCDF export compared number by number
with the HDF5 file (read with h5py), the README's pandas snippet as written, and runs that
are still running or were stopped, read from their checkpoints.

Run by CTest through tests/run_suites.py, with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment.
"""

import contextlib
import math
import os
import re
import shlex
import signal
import subprocess
import sys
import textwrap

import h5py
import numpy as np
import pandas as pd

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

import analysis  # noqa: E402  (the repository's package, after the path above)
import result_files  # noqa: E402
from cli_support import LEVELFORGE, TempDirTest, analysis_command, levelforge, mpi_command  # noqa: E402


def text_of(value):
    return value.decode() if isinstance(value, bytes) else value


def same(test, stored, exported, what):
    """A value of the HDF5 file equals its netCDF copy: numbers exactly (NaN as NaN), text
    as text."""
    if isinstance(stored, (bytes, str)):
        test.assertEqual(text_of(stored), exported, what)
    elif isinstance(stored, float) and math.isnan(stored):
        test.assertTrue(math.isnan(float(exported)), what)
    else:
        test.assertEqual(stored, exported, what)


class NetcdfRoundTrip(TempDirTest):
    """`export --format netcdf` of a result of each driver, read back with xarray: every number
    of every table of the HDF5 file is in it, at the task's swept values and replicate. The
    results are small files written with h5py (tests/result_files.py) as docs/hdf5-layout.md
    describes them: the export reads what the loader reads, which analysis_test.py's LoadRuns
    holds against real runs."""

    def run_and_export(self, name, driver, **options):
        out = result_files.write(self.dir, driver, name=f"{name}.h5", **options)
        code, printed, error = analysis_command("export", out, self.path(f"nc-{name}"), "--format", "netcdf")
        self.assertEqual(code, 0, error)
        return out, printed.strip()

    def open_back(self, written, f):
        """The netCDF file read back, each swept key along the zip or sample axis indexed
        again (netCDF keeps a dimension's coordinate as its index, no other)."""
        import xarray as xr
        data = xr.open_dataset(written)
        swept = [c for c in f["points"].dtype.names if c != "point"]
        for key in swept:
            if data[key].dims != (key,):
                data = data.set_xindex(key)
        return data

    def at(self, data, f, task):
        """The netCDF selection of `task`, found from /tasks and /points of the HDF5 file: a
        grid key by its value, a zip or sampled key's axis by the position whose values are
        the point's."""
        row = f["tasks"][task]
        point = f["points"][row["point"]]
        swept = [c for c in point.dtype.names if c != "point"]
        selection, along = {}, {}
        for key in swept:
            if data[key].dims == (key,):
                selection[key] = point[key]
            else:
                along.setdefault(data[key].dims[0], []).append(key)
        for dimension, keys in along.items():
            match = np.logical_and.reduce([data[key].values == point[key] for key in keys])
            self.assertEqual(int(match.sum()), 1, f"point {row['point']} along {dimension}")
            selection[dimension] = data[dimension].values[np.flatnonzero(match)[0]]
        selection["replicate"] = row["replicate"]
        return data.sel(selection)

    def compare_table(self, cell, stored, prefix, what, skip=()):
        for column in stored.dtype.names:
            if column not in skip:
                same(self, stored[column].item(), cell[f"{prefix}{column}"].item(),
                     f"{what} {column}")

    def compare_genes(self, genes, stored, length, what):
        kept = genes.values[~np.isnan(genes.values)]
        self.assertEqual(kept.tolist(), stored[:length].astype(float).tolist(), what)

    def compare_tasks(self, data, f):
        tasks = f["tasks"][()]
        for task in range(len(tasks)):
            cell = self.at(data, f, task)
            self.assertEqual(int(cell["task"]), task)
            self.compare_table(cell, tasks[task], "", f"task {task}", skip=("task", "point", "replicate"))
        return tasks

    def compare_failures(self, data, f):
        failures = f["failures"][()]
        self.assertEqual(data.sizes["failure"], len(failures))
        for row, stored in enumerate(failures):
            self.compare_table(data.isel(failure=row), stored, "failure_", f"failure {row}")

    def test_a_ga_with_validation_levels_and_a_grid_and_zip_sweep(self):
        out, written = self.run_and_export(
            "demo", "ga", validation=True, levels=True, generations=3, lengths=[6, 6, 9, 9],
            points={"params.target": [0.3, 0.3, 0.5, 0.5], "ga.mutation_rate": [0.1, 0.2, 0.1, 0.2],
                    "ga.crossover_rate": [0.8, 0.9, 0.8, 0.9]},
            sweep={"grid": {"params.target": [0.3, 0.5]},
                   "zip": {"ga.mutation_rate": [0.1, 0.2], "ga.crossover_rate": [0.8, 0.9]}})
        with h5py.File(out, "r") as f, self.open_back(written, f) as data:
            # The selection, on the file read back.
            self.assertEqual(data.sel({"params.target": 0.3}).sizes["replicate"], 2)
            self.assertEqual(data.attrs["experiment"], text_of(f.attrs["experiment"]))
            tasks = self.compare_tasks(data, f)
            history, best = f["ga/history"][()], f["ga/best"][()]
            validation, genomes = f["ga/validation"][()], f["ga/best_genomes"][()]
            lengths, levels = f["ga/genome_length"][()], f["ga/best_levels"][()]
            for task in range(len(tasks)):
                cell = self.at(data, f, task)
                for stored in history[task][history[task]["generation"] >= 0]:
                    self.compare_table(cell.sel(generation=stored["generation"]), stored,
                                       "history_", f"task {task}", skip=("generation",))
                for position in np.flatnonzero(best[task]["position"] >= 0):
                    kept = cell.sel(position=position)
                    self.compare_table(kept, best[task, position], "best_", f"task {task}",
                                       skip=("position",))
                    self.compare_table(kept, validation[task, position], "best_", f"task {task}")
                    self.compare_genes(kept.best_genome, genomes[task, position],
                                       lengths[tasks[task]["point"]], f"task {task}")
                np.testing.assert_array_equal(cell.best_levels.values, levels[task])
            self.compare_failures(data, f)

    def test_a_sampled_sweep_with_text_and_failures(self):
        # Records with a text column (label), at sampled points.
        out, written = self.run_and_export(
            "sampled", "sweep", points={"params.wall_density": [0.1, 0.3, 0.5, 0.2, 0.4],
                                        "params.width": [4, 6, 5, 7, 4]},
            sweep={"sample": {"method": "sobol", "n": 5, "space": {
                "params.wall_density": {"uniform": [0, 0.6]}, "params.width": {"int": [4, 8]}}}})
        with h5py.File(out, "r") as f, self.open_back(written, f) as data:
            self.assertEqual(data["params.wall_density"].dims, ("sample",))
            records = f["sweep/records"][()]
            for task in range(len(self.compare_tasks(data, f))):
                self.compare_table(self.at(data, f, task), records[task], "", f"task {task}")
        out, written = self.run_and_export(
            "faulty", "sweep", failed=[2, 3, 8],
            points={"params.value": [1, 1, 2, 2, 3, 3], "params.count": [10, 20] * 3,
                    "params.length": [4, 8] * 3},
            sweep={"grid": {"params.value": [1, 2, 3]},
                   "zip": {"params.count": [10, 20], "params.length": [4, 8]}})
        with h5py.File(out, "r") as f, self.open_back(written, f) as data:
            tasks = self.compare_tasks(data, f)
            records = f["sweep/records"][()]
            for task in np.flatnonzero(tasks["status"] == 1):
                self.compare_table(self.at(data, f, task), records[task], "", f"task {task}")
            self.assertGreater(len(f["failures"]), 0, "no failure: the case is not tested")
            self.compare_failures(data, f)

    def test_qd_and_islands(self):
        out, written = self.run_and_export("qd", "qd", points={"qd.mutation_rate": [0.05, 0.2]})
        with h5py.File(out, "r") as f, self.open_back(written, f) as data:
            tasks = self.compare_tasks(data, f)
            history, archive = f["qd/history"][()], f["qd/archive"][()]
            genomes, lengths = f["qd/archive_genomes"][()], f["qd/genome_length"][()]
            names = [text_of(n) for n in f["qd"].attrs["measures"]]
            for task in range(len(tasks)):
                cell = self.at(data, f, task)
                for stored in history[task][history[task]["iteration"] >= 0]:
                    self.compare_table(cell.sel(iteration=stored["iteration"]), stored,
                                       "qd_history_", f"task {task}", skip=("iteration",))
                occupied = np.flatnonzero(archive[task]["occupied"] == 1)
                self.assertEqual(int(cell.archive_fitness.notnull().sum()), len(occupied))
                for slot in occupied:
                    elite = cell.sel(cell=archive[task, slot]["cell"])
                    self.compare_table(elite, archive[task, slot], "archive_", f"task {task}",
                                       skip=("cell", "occupied"))
                    self.compare_genes(elite.archive_genome, genomes[task, slot],
                                       lengths[tasks[task]["point"]], f"task {task}")
                point = self.at(data, f, task)
                for m, name in enumerate(names):
                    for part in ("low", "high", "bins"):
                        same(self, f[f"qd/measure_{part}"][tasks[task]["point"], m].item(),
                             point[f"measure_{part}"].sel(measure=name).item(), f"{name} {part}")
        out, written = self.run_and_export("islands", "ga", islands=3, points={"params.length": [8, 16]})
        with h5py.File(out, "r") as f, self.open_back(written, f) as data:
            tasks = self.compare_tasks(data, f)
            history, migrations = f["ga/island_history"][()], f["ga/migrations"][()]
            self.assertTrue((migrations["generation"] >= 0).any(), "no migrant: the case is not tested")
            best = f["ga/island_best"][()]
            for task in range(len(tasks)):
                cell = self.at(data, f, task)
                rows = history[task].reshape(-1)
                for stored in rows[rows["generation"] >= 0]:
                    self.compare_table(cell.sel(generation=stored["generation"], island=stored["island"]),
                                       stored, "island_history_", f"task {task}",
                                       skip=("generation", "island"))
                for stored in best[task][best[task]["island"] >= 0]:
                    self.compare_table(cell.sel(island=stored["island"]), stored, "island_best_",
                                       f"task {task}", skip=("island",))
                moved = migrations[task][migrations[task]["generation"] >= 0]
                for migrant, stored in enumerate(moved):
                    self.compare_table(cell.sel(migrant=migrant), stored, "migration_", f"task {task}")

    def test_an_exhaustive_run(self):
        out, written = self.run_and_export("exhaustive", "exhaustive", failed=[1],
                                           points={"params.count": [100, 200]}, size=[100, 200])
        with h5py.File(out, "r") as f, self.open_back(written, f) as data:
            tasks = self.compare_tasks(data, f)
            counts = f["exhaustive/counts"][()]
            ranges = f["exhaustive/ranges"][()]
            for task in range(len(tasks)):
                cell = self.at(data, f, task)
                self.compare_table(cell, counts[task], "", f"task {task}")
                same(self, ranges[task]["uncovered"].item(), cell["uncovered"].item(), "uncovered")
                for name, histogram in f["exhaustive/histograms"].items():
                    np.testing.assert_array_equal(cell[name].values, histogram[task])
                for name, top in f["exhaustive/top"].items():
                    for rank in np.flatnonzero(top[task]["index"] >= 0):
                        self.compare_table(cell.sel({f"top_{name}_rank": rank}), top[task, rank],
                                           f"top_{name}_", f"task {task}")
            solutions = f["exhaustive/solutions"][()]
            self.assertEqual(data.sizes["solution"], len(solutions))
            for row in (0, len(solutions) // 2, len(solutions) - 1):
                self.compare_table(data.isel(solution=row), solutions[row], "solution_", f"row {row}")


class ReadmeQuickStart(TempDirTest):
    def test_the_quick_start_runs_as_written(self):
        """The README's quick start as a new user runs it: its config, each command of its
        steps as written (the binary's path aside) in a shell whose environment sets none of
        Open MPI's variables, and its pandas snippet. `mpirun -n 8` on this 2-core machine needs
        the `--oversubscribe` the README shows; as root, the `--allow-run-as-root` it names.
        The snippet gives one row per generation task 0 ran, none of the file's padding."""
        with open(os.path.join(REPO, "README.md")) as f:
            readme = f.read()
        quick_start = readme[readme.index("## Quick start"):readme.index("\n## ", readme.index("## Quick start") + 1)]
        config = textwrap.dedent(re.search(r"```yaml\n(.*?)```", quick_start, re.S).group(1))
        snippet = textwrap.dedent(re.search(r"```python\n(.*?)```", quick_start, re.S).group(1))
        self.write(config, "trial.yaml")
        commands = re.findall(r"`((?:mpirun|build/runner/cli/levelforge) [^`]*)`", quick_start)
        self.assertEqual(len(commands), 5, commands)
        environment = {name: value for name, value in os.environ.items()
                       if not name.startswith("OMPI_")}
        for command in commands:
            if os.geteuid() == 0 and command.startswith("mpirun"):
                self.assertIn("`--allow-run-as-root`", quick_start)
                command = command.replace("mpirun", "mpirun --allow-run-as-root", 1)
            command = command.replace("build/runner/cli/levelforge", shlex.quote(LEVELFORGE))
            done = subprocess.run(command, shell=True, cwd=self.dir, env=environment,
                                  capture_output=True, text=True, timeout=300)
            self.assertEqual(done.returncode, 0, f"{command}\n{done.stdout}\n{done.stderr}")
        out = self.path("results/onemax-trial.h5")
        namespace = {}
        with contextlib.chdir(self.dir):
            exec(compile(snippet, "README.md", "exec"), namespace)
        history = namespace["history"]
        with h5py.File(out, "r") as f:
            stored = f["ga/history"][0]
        ran = stored[stored["generation"] >= 0]
        self.assertLess(len(ran), len(stored), "task 0 ran every generation: no padding to leave out")
        self.assertEqual(history["generation"].tolist(), ran["generation"].tolist())
        self.assertEqual(history["best"].tolist(), ran["best"].tolist())


class RunsInProgress(TempDirTest):
    def stopped_run(self, name, config, ranks=None):
        """`config` run until some but not all of its tasks are done, then stopped by SIGUSR1
        (exit 75): its output path, results/NAME.h5, where only the checkpoint is."""
        path = self.write(config, f"{name}.yaml")
        os.makedirs(self.path("results"), exist_ok=True)
        out = self.path(os.path.join("results", f"{name}.h5"))
        args = ("run", path, "-o", out, "--progress-interval", "0.02")
        command = mpi_command(*args, ranks=ranks) if ranks else [LEVELFORGE, *args]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   text=True)
        for line in process.stderr:
            progress = re.search(r"progress: (\d+)/(\d+) tasks", line)
            if progress and 0 < int(progress[1]) < int(progress[2]):
                process.send_signal(signal.SIGUSR1)
                break
        _, stderr = process.communicate(timeout=60)
        self.assertEqual(process.returncode, 75, stderr)
        return out

    @staticmethod
    def files_of(folder):
        return {entry.name: (entry.stat().st_mtime_ns, open(entry.path, "rb").read())
                for entry in os.scandir(folder)}

    def assert_read_as_completed(self, out, tables):
        """Each of `tables` read from the checkpoint of the stopped run at `out` equals the
        finished tasks' rows of the completed run (resumed), padding removed alike; reading
        changes no byte and no time of the checkpoint. Returns the run in progress."""
        checkpoint = out + ".checkpoint"
        before = self.files_of(checkpoint)
        run = analysis.load(out, in_progress=True)
        self.assertFalse(run.complete)
        read = {name: getattr(run, name) for name in ("tasks", *tables)}
        self.assertEqual(self.files_of(checkpoint), before, "reading the checkpoint changed it")
        self.assertTrue(0 < run.done < run.total, (run.done, run.total))
        self.assertEqual(sorted(read["tasks"].task), sorted(set(read["tasks"].task)))
        resumed = levelforge("resume", out)
        self.assertEqual(resumed.returncode, 0, resumed.stderr)
        with analysis.load(out) as final:
            for name, frame in read.items():
                completed = getattr(final, name)
                if "task" in completed:  # not the tables per point (qd_measures)
                    completed = completed[completed.task.isin(run.tasks.task)]
                expected = completed.reset_index(drop=True)
                self.assertGreater(len(expected), 0, f"{name}: no rows, nothing compared")
                pd.testing.assert_frame_equal(frame, expected, obj=name)
        return run

    def test_a_stopped_run_is_read_from_its_checkpoint_and_listed(self):
        """A GA run stopped by SIGUSR1 after its first task (exit 75): `load(..., in_progress=True)`
        reads the tasks it finished, equal to the completed run's, and `catalog` lists its
        checkpoint as one run in progress; neither changes a byte or a time of it."""
        config = """\
            experiment: stopped
            kernel: onemax
            driver: ga
            params: {length: 32, sleep_us: 2000}
            ga: {population: 10, generations: 20}
            sweep: {replicates: 4}
            checkpoint: {every: 1}
            seed: 7
        """
        out = self.stopped_run("stopped", config)
        checkpoint = out + ".checkpoint"
        before = self.files_of(checkpoint)
        with self.assertRaises(analysis.LoadError) as caught:
            analysis.load(out)
        self.assertIn("in_progress=True", str(caught.exception))
        run = analysis.load(out, in_progress=True)
        self.assertEqual((run.unit, run.total, run.failed), ("task", 4, 0))
        self.assertEqual(len(run.tasks), run.done)
        self.assertIn(f"in progress: {run.done} of 4 tasks done", repr(run))
        self.assertEqual(analysis.load(checkpoint, in_progress=True).tasks.task.tolist(),
                         run.tasks.task.tolist())
        table = analysis.catalog(self.path("results"))
        self.assertEqual(table.path.tolist(), [checkpoint], "the checkpoint's files are one entry")
        row = table.iloc[0]
        self.assertEqual((row.experiment, row.driver, row.tasks, row.done), ("stopped", "ga", 4, run.done))
        self.assertEqual(row.date, run.last_segment_time)
        self.assertIn(f"in progress: {run.done} of 4 tasks done", row.note)
        self.assertEqual(self.files_of(checkpoint), before, "reading the checkpoint changed it")
        self.assert_read_as_completed(out, ("history", "best"))

    def test_a_run_stopped_by_a_kernel_error_says_so(self):
        """on_error: abort (the default): the kernel's error that ended the run is in its
        checkpoint, and the run in progress and the catalog say it, as `inspect` does."""
        path = self.write("""\
            experiment: aborted
            kernel: faulty
            driver: sweep
            params: {fail_value: 3}
            sweep: {grid: {params.value: [0, 1, 2, 3, 4, 5]}}
            checkpoint: {every: 1}
            seed: 1
        """, "aborted.yaml")
        os.makedirs(self.path("results"))
        out = self.path(os.path.join("results", "aborted.h5"))
        aborted = levelforge("run", path, "-o", out, "-q")
        self.assertEqual(aborted.returncode, 1, aborted.stderr)
        run = analysis.load(out, in_progress=True)
        [error] = run.stopped_by
        self.assertIn("task 3 (point 3 (params.value=3), replicate 0)", error)
        self.assertIn("failing on purpose at value 3", error)
        self.assertIn(f"stopped by a kernel's error: {error}", repr(run))
        self.assertIn("stopped by a kernel's error", analysis.catalog(self.path("results")).iloc[0].note)

    def test_a_stopped_sweep_on_two_ranks_is_read(self):
        """Both ranks' segments: the records of the tasks finished, with their swept values."""
        out = self.stopped_run("sweep", """\
            experiment: sweep
            kernel: onemax
            driver: sweep
            params: {length: 16, climb_steps: 20, sleep_us: 100000}
            sweep: {grid: {params.length: [16, 24]}, replicates: 4}
            checkpoint: {every: 1}
            seed: 5
        """, ranks=2)
        run = self.assert_read_as_completed(out, ("records",))
        self.assertIn("params.length", run.records.columns)

    def test_a_stopped_qd_run_is_read(self):
        """The archive's elites with their bins and genomes (two genome lengths padded to the
        longer), and the history, of the tasks finished."""
        self.assert_read_as_completed(self.stopped_run("qd", """\
            experiment: qd
            kernel: onemax
            driver: qd
            params: {length: 16, sleep_us: 2000}
            qd: {bins: 4, init: 10, iterations: 4, batch: 10}
            sweep: {grid: {params.length: [12, 16]}, replicates: 2}
            checkpoint: {every: 1}
            seed: 3
        """), ("qd_history", "qd_archive", "qd_measures"))

"""Checkpoint and resume, shards and merge, end to end with real MPI runs.

- Kill tests: runs of each driver killed with SIGKILL on every rank at a seeded random
  point of their progress, then resumed on 1, 2 or 3 ranks: each ends identical to the
  uninterrupted run, and none redoes more than one checkpoint interval of work (measured
  from the task table).
- Signals: SIGUSR1 to mpiexec (Slurm's warning) checkpoints and exits 75.
- Damaged checkpoints, foreign checkpoints and incomplete shard sets are refused clearly.
- Sharded + merged == unsharded, for every driver.

Run by CTest with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment;
LEVELFORGE_KILL_RUNS sets the kill runs per driver (default 7).
"""

import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

import h5py

from cli_support import LEVELFORGE, TempDirTest, levelforge, mpi_command, process_ids, result_datasets

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RANKS = 2
KILL_RUNS = int(os.environ.get("LEVELFORGE_KILL_RUNS", "7"))
# Draws of a kill moment per kill run when a kill lands after the run has finished.
LATE_KILL_RETRIES = 3
# "progress: 4/6 tasks  39120/54000 evals  72.4% ..."
PROGRESS = re.compile(r"progress: (\d+)/(\d+) \S+  (\d+)/(\d+) ")


def config(name):
    return os.path.join(REPO, "configs", name)


# One small experiment per driver, a checkpoint interval, and the most work one interval
# may hold over all ranks: `every` units of checkpointing per rank (ga: per group of ranks;
# with 2 ranks and 6 tasks, 2 groups), in work units as the progress lines count them.
DRIVERS = {
    "ga": {
        "config": config("demo.yaml"),
        "overrides": ["--set", "ga.generations=60", "--set", "checkpoint.every=5"],
        # 5 generations of at most 30 evaluations (the population) per group.
        "interval_units": RANKS * 5 * 30,
    },
    "sweep": {
        "config": config("tiltmaze_sweep.yaml"),
        "overrides": ["--set", "sweep.replicates=200", "--set", "checkpoint.every=100"],
        "interval_units": RANKS * 100,  # a run is one unit
    },
    # A sweep whose points are Sobol samples (docs/config.md, "Sampling"): 64 points x 450.
    "sampled": {
        "config": config("tiltmaze_sample.yaml"),
        "overrides": ["--set", "sweep.replicates=450", "--set", "checkpoint.every=100"],
        "interval_units": RANKS * 100,
    },
    # NSGA-II beside tournament breeding (docs/drivers.md, "NSGA-II"): the fronts and their
    # hypervolumes saved with the population.
    "nsga2": {
        "config": config("tiltmaze_nsga2.yaml"),
        "overrides": ["--set", "ga.generations=40", "--set", "checkpoint.every=3"],
        "interval_units": RANKS * 3 * 60,
    },
    # An island GA (docs/drivers.md, "Islands"): saved mid-task between migrations.
    "islands": {
        "config": config("tiltmaze_islands.yaml"),
        "overrides": ["--set", "ga.population=160", "--set", "ga.generations=40",
                      "--set", "ga.migration.every=4", "--set", "checkpoint.every=3"],
        "interval_units": RANKS * 3 * 160,
    },
    # MAP-Elites (docs/drivers.md, "qd driver"): saved mid-task after an iteration.
    "qd": {
        "config": config("tiltmaze_qd.yaml"),
        "overrides": ["--set", "checkpoint.every=20"],
        "interval_units": RANKS * 20 * 100,  # iterations of 100 evaluations
    },
    # CMA-ME and CMA-MAE (docs/drivers.md, "Emitters"): their searches and thresholds saved
    # with the archive.
    "qd_cma": {
        "config": config("sphere_emitters.yaml"),
        "overrides": ["--set", "sweep.replicates=1", "--set", "checkpoint.every=100"],
        "interval_units": RANKS * 100 * 180,  # iterations of 180 evaluations
    },
    # Grid and CVT archives, by mutation and Iso+LineDD (merge only): the centroids.
    "qd_archives": {
        "config": config("sphere_qd.yaml"),
        "overrides": [],
        "interval_units": RANKS * 100,
    },
    "exhaustive": {
        "config": config("matchstick_2digit_k2.yaml"),
        "overrides": ["--set", "params.max_value=50", "--set", "exhaustive.chunk=4000",
                      "--set", "checkpoint.every=3"],
        "interval_units": RANKS * 3 * 4000,  # chunks of 4000 indices
    },
}


def rank_pids(output):
    """The levelforge processes writing `output` (the ranks, not mpiexec)."""
    return process_ids("cmdline",
                       lambda argv: argv[0] == LEVELFORGE.encode() and output.encode() in argv)


def world_rank(pid):
    """The MPI rank of process `pid`, from the environment Open MPI gave it (-1: unknown)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            for entry in f.read().split(b"\0"):
                if entry.startswith(b"OMPI_COMM_WORLD_RANK="):
                    return int(entry.split(b"=", 1)[1])
    except OSError:
        pass
    return -1


def kill_orphans(out):
    """SIGKILL to the ranks writing `out` until none is left. Open MPI starts its ranks in
    sessions of their own, so killing mpiexec's process group leaves them running, and a rank
    forked just before mpiexec died appears under its own name only once it has exec'd: look
    until 0.5 s pass without one."""
    quiet_since = time.monotonic()
    while time.monotonic() - quiet_since < 0.5:
        pids = rank_pids(out)
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        if pids:
            quiet_since = time.monotonic()
        time.sleep(0.02)


def saved_units(path):
    """Work the first session had checkpointed, read from the final task table: tasks it
    finished, and what later sessions restored of the tasks they finished."""
    with h5py.File(path, "r") as f:
        tasks = f["tasks"][()]
    first = tasks["session"] == 0
    return int(tasks["units"][first].sum() + tasks["units_before"][~first].sum())


# What Open MPI's launcher prints for a rank that did not end through MPI_Finalize (MPI_Abort,
# a signal, an exit without it); a non-zero exit after MPI_Finalize gets only its "terminated
# normally" report (docs/cli.md, "Exit codes").
UNFINALIZED = re.compile(r'MPI_ABORT was invoked|help-mpi-api.txt / mpi-abort|exited on signal|'
                         r'exiting improperly|without calling "finalize"')


def interrupt_sweep(out, *extra):
    """The sweep experiment into `out`, stopped by SIGUSR1 once 3000 tasks are done; returns
    the exit code (75: checkpointed)."""
    spec = DRIVERS["sweep"]
    process = subprocess.Popen(
        mpi_command("run", spec["config"], "-o", out, "--progress-interval", "0.02",
                    *spec["overrides"], *extra, ranks=RANKS),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        match = PROGRESS.search(line)
        if match and int(match.group(3)) > 3000:
            process.send_signal(signal.SIGUSR1)
            break
    process.communicate(timeout=60)
    return process.returncode


class Checkpoints(TempDirTest):
    references = {}

    def reference(self, driver):
        """The result datasets (cli_support.result_datasets) of the uninterrupted run of
        `driver`'s experiment, made and read once: each driver's runs are compared with it
        4 to 7 times, and reading a sweep's 28,800 records takes 0.1-0.2 s. The run is alone,
        not under mpiexec: results are the same on any rank count (cli_test's Determinism;
        the resumes here run on 1, 2 and 3 ranks), and on 2 ranks these experiments took the
        same wall time and 0.2-0.9 s more CPU."""
        if driver not in Checkpoints.references:
            spec = DRIVERS[driver]
            path = os.path.join(self.reference_dir, f"{driver}.h5")
            result = levelforge("run", spec["config"], "-o", path, "-q", *spec["overrides"], timeout=300)
            self.assert_ok(result)
            Checkpoints.references[driver] = result_datasets(path)
        return Checkpoints.references[driver]

    @classmethod
    def setUpClass(cls):
        cls.reference_dir = tempfile.mkdtemp(prefix="levelforge-reference-")

    @classmethod
    def tearDownClass(cls):
        Checkpoints.references.clear()
        shutil.rmtree(cls.reference_dir, ignore_errors=True)

    def start(self, spec, out, *extra):
        return subprocess.Popen(
            mpi_command("run", spec["config"], "-o", out, "--progress-interval", "0.02",
                        *spec["overrides"], *extra, ranks=RANKS),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def kill_at(self, process, out, fraction):
        """SIGKILL on every rank once the progress lines pass `fraction` of the work; returns
        the units done at the last line read before the kill, or None when the run had
        finished before the kill reached it."""
        done = 0
        for line in process.stderr:
            match = PROGRESS.search(line)
            if not match:
                continue
            done, total = int(match.group(3)), int(match.group(4))
            if done >= fraction * total:
                pids = rank_pids(out)
                for pid in pids:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                break
        else:
            self.fail(f"the run ended before {fraction:.0%} of its work: make it longer")
        process.communicate(timeout=60)
        if os.path.exists(out) or process.returncode == 0:
            return None  # the line read was stale: the run had finished, the caller checks it
        self.assertEqual(len(pids), RANKS, "one process per rank")
        self.assertNotEqual(process.returncode, 0)
        return done

    def check_kills(self, driver, kills=KILL_RUNS):
        spec = DRIVERS[driver]
        reference = self.reference(driver)
        rng = random.Random(f"kill-{driver}")
        worst = 0
        late_kills = 0
        for run in range(kills):
            out = self.path(f"{driver}-{run}.h5")
            for _ in range(LATE_KILL_RETRIES + 1):
                fraction = rng.uniform(0.1, 0.75)
                done = self.kill_at(self.start(spec, out), out, fraction)
                if done is not None:
                    break
                # On a loaded machine the progress line read can be long stale: the run
                # finished before the kill. Its result must then be the complete one.
                late_kills += 1
                self.assert_same_results(reference, out)
                os.remove(out)
                shutil.rmtree(out + ".checkpoint", ignore_errors=True)
            else:
                self.fail(f"{driver}: every kill landed after the run had finished: make it longer")
            self.assertFalse(os.path.exists(out), "a killed run leaves no result file")
            self.assertTrue(os.path.isdir(out + ".checkpoint"))
            inspected = levelforge("inspect", out)
            self.assert_ok(inspected)
            self.assertIn("interrupted", inspected.stdout)

            # Results do not depend on the rank count: resume on 1, 2 or 3 ranks, with
            # `resume OUTPUT` (nothing retyped) or `run CONFIG --resume` and the options.
            command = ["resume", out, "-q"] if run % 2 == 0 else \
                ["run", spec["config"], "-o", out, "-q", "--resume", *spec["overrides"]]
            resumed = subprocess.run(mpi_command(*command, ranks=1 + run % 3),
                                     capture_output=True, text=True, timeout=300)
            self.assert_ok(resumed)
            self.assert_same_results(reference, out)
            self.assertFalse(os.path.exists(out + ".checkpoint"), "a finished run removes its checkpoint")
            with h5py.File(out, "r") as f:
                self.assertEqual(f.attrs["sessions"], 2)
            redone = done - saved_units(out)
            worst = max(worst, redone)
            self.assertLessEqual(redone, spec["interval_units"],
                                 f"run {run} (killed at {fraction:.0%}): {redone} units done before the "
                                 f"kill were not in the checkpoint")
        print(f"{driver}: {kills} kills resumed identical; most work redone: {worst} units "
              f"(one interval: {spec['interval_units']}); kills after the run had finished: {late_kills}")

    def test_ga_killed_and_resumed(self):
        self.check_kills("ga")

    def test_sweep_killed_and_resumed(self):
        self.check_kills("sweep")

    def test_exhaustive_killed_and_resumed(self):
        self.check_kills("exhaustive")

    def test_sampled_sweep_killed_and_resumed(self):
        self.check_kills("sampled", kills=min(3, KILL_RUNS))

    def test_qd_killed_and_resumed(self):
        self.check_kills("qd", kills=min(3, KILL_RUNS))

    def test_cma_emitters_killed_and_resumed(self):
        self.check_kills("qd_cma", kills=min(3, KILL_RUNS))

    def test_nsga2_killed_and_resumed(self):
        self.check_kills("nsga2", kills=min(3, KILL_RUNS))

    def test_island_ga_killed_and_resumed(self):
        # Three kills (resumed on 1, 2 and 3 ranks): the GA's kills cover the rest.
        self.check_kills("islands", kills=min(3, KILL_RUNS))

    def check_signal(self, driver, signum, ranks, one_rank=False):
        """`signum` once the run has progressed: SIGUSR1 to mpiexec, which forwards it to every
        rank; SIGTERM to every rank, as Slurm's scancel signals the tasks of a step (mpiexec
        itself, given SIGTERM, ends the job); with `one_rank`, to rank 1 alone. The run
        checkpoints, names the signal and the exact command that continues it, and
        `levelforge resume OUTPUT` (on other ranks) ends identical to the reference."""
        spec = DRIVERS[driver]
        out = self.path(f"signalled-{driver}.h5")
        process = self.start(spec, out)
        for line in process.stderr:
            if PROGRESS.search(line):
                if one_rank:
                    os.kill(next(pid for pid in rank_pids(out) if world_rank(pid) == 1), signum)
                elif signum == signal.SIGUSR1:
                    process.send_signal(signum)
                else:
                    for pid in rank_pids(out):
                        os.kill(pid, signum)
                break
        _, stderr = process.communicate(timeout=60)
        self.assertEqual(process.returncode, 75, stderr)
        self.assertNotRegex(stderr, UNFINALIZED)
        self.assertIn(f"stopped by signal {int(signum)}", stderr)
        self.assertIn(f"continue with `levelforge resume {out}`", stderr)
        self.assertFalse(os.path.exists(out))
        self.assertFalse(os.path.exists(out + ".partial"), "the unfinished result file is removed")
        inspected = levelforge("inspect", out)
        self.assertIn(f"continue with `levelforge resume {out}`", inspected.stdout)
        resumed = levelforge("resume", out, ranks=ranks, timeout=300)
        self.assert_ok(resumed)
        self.assertRegex(resumed.stderr, r"resumed: \d+ of \d+ (tasks|chunks) restored")
        self.assert_same_results(self.reference(driver), out)

    def test_warning_signal_checkpoints_and_exits_75(self):
        self.check_signal("ga", signal.SIGUSR1, ranks=3)

    def test_sigterm_checkpoints_and_resume_needs_only_the_output(self):
        self.check_signal("sweep", signal.SIGTERM, ranks=1)
        self.check_signal("exhaustive", signal.SIGUSR1, ranks=2)

    def test_a_signal_to_one_rank_stops_them_all_and_is_named(self):
        self.check_signal("sweep", signal.SIGTERM, ranks=2, one_rank=True)
        self.check_signal("ga", signal.SIGUSR1, ranks=1, one_rank=True)
        self.check_signal("exhaustive", signal.SIGTERM, ranks=3, one_rank=True)

    def test_every_driver_resumes_after_either_signal(self):
        """With the tests above: SIGUSR1 and SIGTERM for each of the three drivers."""
        self.check_signal("sweep", signal.SIGUSR1, ranks=3)
        self.check_signal("ga", signal.SIGTERM, ranks=2)

    def test_a_sampled_sweep_resumes_identical(self):
        self.check_signal("sampled", signal.SIGUSR1, ranks=1)

    def test_an_island_ga_resumes_identical(self):
        self.check_signal("islands", signal.SIGUSR1, ranks=3)

    def test_a_qd_run_resumes_identical(self):
        self.check_signal("qd", signal.SIGTERM, ranks=2)


class Refusals(TempDirTest):
    """Checkpoints that must not be resumed are refused with the reason, exit 2."""

    saved = None

    @classmethod
    def tearDownClass(cls):
        if cls.saved is not None:
            shutil.rmtree(cls.saved, ignore_errors=True)

    def made_once(self, name, make):
        """The scratch path `name` of the class, made by `make(path)` for the first test
        that asks for it; the tests get copies, as in VerifyBeforeActing."""
        if Refusals.saved is None:
            Refusals.saved = tempfile.mkdtemp(prefix="levelforge-refusals-")
        path = os.path.join(Refusals.saved, name)
        if not os.path.exists(path) and not os.path.exists(path + ".checkpoint"):
            try:
                make(path)
            except BaseException:
                # Nothing half made is left for the next test: it makes it again, and fails alike.
                shutil.rmtree(path + ".checkpoint", ignore_errors=True)
                for made in (path, path + ".partial"):
                    if os.path.exists(made):
                        os.remove(made)
                raise
        return path

    def interrupted(self, name="run.h5"):
        """A sweep run stopped by SIGUSR1 after some checkpoints: its output path. One run,
        its checkpoint copied into each test (each damages or resumes its own copy)."""
        saved = self.made_once("run.h5", lambda path: self.assertEqual(interrupt_sweep(path), 75))
        out = self.path(name)
        shutil.copytree(saved + ".checkpoint", out + ".checkpoint")
        return DRIVERS["sweep"], out

    def complete(self, name):
        """The sweep experiment's uninterrupted result, run once, copied to the scratch `name`."""
        spec = DRIVERS["sweep"]
        saved = self.made_once("complete.h5", lambda path: self.assert_ok(
            levelforge("run", spec["config"], "-o", path, "-q", *spec["overrides"], ranks=RANKS)))
        out = self.path(name)
        shutil.copy(saved, out)
        return out

    def segments(self, out):
        directory = out + ".checkpoint"
        return sorted(os.path.join(directory, name) for name in os.listdir(directory)
                      if name.endswith(".h5") and name != "manifest.h5")

    def assert_refused(self, result, *fragments):
        self.assertEqual(result.returncode, 2, result.stderr)
        for fragment in fragments:
            self.assertIn(fragment, result.stderr)

    def test_other_config_or_seed_is_refused_with_the_differences(self):
        spec, out = self.interrupted()
        result = levelforge("run", spec["config"], "-o", out, "--resume", *spec["overrides"],
                            "--set", "seed=5", "--set", "sweep.replicates=100", ranks=RANKS)
        self.assert_refused(result, "different run", "seed: 4 in the checkpoint, 5 now",
                            "sweep.replicates: 200 in the checkpoint, 100 now")
        self.assertTrue(self.segments(out), "the checkpoint is kept")

    def test_a_new_run_over_a_checkpoint_needs_resume_or_force(self):
        spec, out = self.interrupted()
        result = levelforge("run", spec["config"], "-o", out, *spec["overrides"], ranks=RANKS)
        self.assert_refused(result, "holds the checkpoint of an interrupted run", "--resume", "--force")
        self.assertTrue(self.segments(out))

    def test_a_damaged_segment_is_refused_naming_it(self):
        spec, out = self.interrupted()
        damaged = self.segments(out)[0]
        with open(damaged, "r+b") as f:
            f.truncate(100)
        result = levelforge("run", spec["config"], "-o", out, "--resume", *spec["overrides"], ranks=RANKS)
        self.assert_refused(result, os.path.basename(damaged), "cannot be read", "the work it saved is lost")
        self.assertFalse(os.path.exists(out))

    def test_a_segment_being_written_is_discarded_and_its_work_redone(self):
        spec, out = self.interrupted()
        # What a kill in the middle of a write leaves: a .tmp beside the finished segments.
        last = self.segments(out)[-1]
        os.rename(last, last + ".tmp")
        result = levelforge("run", spec["config"], "-o", out, "--resume", "-q", *spec["overrides"], ranks=RANKS)
        self.assert_ok(result)
        self.assertIn("discarded 1 checkpoint file being written when the run stopped", result.stderr)
        self.assert_same_results(self.complete("reference.h5"), out)

    def test_a_damaged_result_file_left_by_a_kill_is_rewritten_on_resume(self):
        spec, out = self.interrupted()
        with open(out + ".partial", "wb") as f:
            f.write(b"\x89HDF\r\n\x1a\n" + b"\0" * 50)  # a truncated HDF5 file
        result = levelforge("run", spec["config"], "-o", out, "--resume", "-q", *spec["overrides"], ranks=RANKS)
        self.assert_ok(result)
        with h5py.File(out, "r") as f:
            self.assertEqual(f.attrs["complete"], 1)

    def test_resume_of_a_complete_run_does_nothing(self):
        spec = DRIVERS["sweep"]
        out = self.complete("done.h5")
        before = os.stat(out).st_mtime_ns
        result = levelforge("run", spec["config"], "-o", out, "--resume", *spec["overrides"], ranks=RANKS)
        self.assert_ok(result)
        self.assertIn("is complete; nothing to resume", result.stdout)
        self.assertEqual(os.stat(out).st_mtime_ns, before)

    def test_inspect_shows_how_much_is_done(self):
        _, out = self.interrupted()
        result = levelforge("inspect", out + ".checkpoint")
        self.assert_ok(result)
        match = re.search(r"done\s+(\d+) of 28800 tasks \((\d+\.\d)%\)", result.stdout)
        self.assertIsNotNone(match, result.stdout)
        self.assertGreater(int(match.group(1)), 3000)
        self.assertIn("sessions             1", result.stdout)


def tree_state(directory):
    """Every file under `directory` with its bytes: what a refused command must not change."""
    state = {}
    for root, _, files in os.walk(directory):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                state[os.path.relpath(path, directory)] = f.read()
    return state


class VerifyBeforeActing(TempDirTest):
    """Nothing is skipped, replaced or deleted on the strength of a file that was not verified
    (docs/checkpoint.md, "What a run finds"): each case failed on the code before it, deleting
    the checkpoint of an interrupted run. Commands run on 1, 2 and 3 ranks in turn."""

    SPEC = DRIVERS["sweep"]

    @classmethod
    def setUpClass(cls):
        cls.saved = tempfile.mkdtemp(prefix="levelforge-interrupted-")
        # One interrupted run (seed 4) and one of another seed, copied into each test.
        for name, extra in (("run.h5", []), ("other.h5", ["--set", "seed=5"])):
            code = interrupt_sweep(os.path.join(cls.saved, name), *extra)
            assert code == 75, "the interrupted run stops for its checkpoint"
        cls.complete = os.path.join(cls.saved, "complete-seed-9.h5")
        subprocess.run(mpi_command("run", cls.SPEC["config"], "-o", cls.complete, "-q", "--set", "seed=9",
                                   *cls.SPEC["overrides"], ranks=RANKS), check=True, capture_output=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.saved, ignore_errors=True)

    def interrupted(self, name="run.h5"):
        """A copy of an interrupted run's checkpoint; returns the output path beside it."""
        out = self.path("run.h5")
        shutil.copytree(os.path.join(self.saved, name + ".checkpoint"), out + ".checkpoint")
        return out

    def resume_both_ways(self, out, ranks):
        """`run CONFIG --resume` and `resume OUTPUT` on `ranks` ranks."""
        return [levelforge("run", self.SPEC["config"], "-o", out, "--resume", *self.SPEC["overrides"],
                           ranks=ranks),
                levelforge("resume", out, ranks=ranks)]

    def assert_refused_unchanged(self, out, found, ranks):
        before = tree_state(self.dir)
        for result in self.resume_both_ways(out, ranks):
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertIn(f"cannot resume into {out}", result.stderr)
            self.assertIn(found, result.stderr)
            self.assertRegex(result.stderr, r"\(it holds \d+ of 28800 tasks done in 1 session\), is kept")
            self.assertIn("nothing was changed", result.stderr)
            self.assertEqual(tree_state(self.dir), before, "a refused resume changes nothing")

    def test_an_output_that_is_not_this_runs_result_keeps_the_checkpoint(self):
        cases = {
            "an empty file": (b"", "no HDF5 signature"),
            "a text file": (b"results are in the other folder\n", "no HDF5 signature"),
        }
        for ranks, (what, (content, found)) in zip((1, 2, 3), cases.items()):
            with self.subTest(what):
                out = self.interrupted()
                with open(out, "wb") as f:
                    f.write(content)
                self.assert_refused_unchanged(out, found, ranks)
                shutil.rmtree(self.dir)
                os.mkdir(self.dir)
        # A complete result of another seed; the same, cut short; a file written by h5py.
        out = self.interrupted()
        shutil.copy(self.complete, out)
        self.assert_refused_unchanged(out, "the complete result of a different run:\n  seed: 9 in it, 4 in this run", 3)
        os.truncate(out, os.path.getsize(out) // 2)
        self.assert_refused_unchanged(out, "cut short", 1)
        with h5py.File(out, "w") as f:
            f["tasks"] = [1, 2, 3]
        self.assert_refused_unchanged(out, "written by another program", 2)

    def test_forced_resume_replaces_a_foreign_output_and_continues_the_checkpoint(self):
        out = self.interrupted()
        with open(out, "w") as f:
            f.write("not a result\n")
        self.assert_ok(levelforge("run", self.SPEC["config"], "-o", out, "-q", "--resume", "--force",
                                  *self.SPEC["overrides"], ranks=RANKS))
        with h5py.File(out, "r") as f:
            self.assertEqual(f.attrs["sessions"], 2)
        self.assertFalse(os.path.exists(out + ".checkpoint"))

    def test_a_leftover_checkpoint_goes_only_beside_this_runs_complete_result(self):
        out = self.interrupted()
        reference = self.path("reference.h5")
        self.assert_ok(levelforge("run", self.SPEC["config"], "-o", reference, "-q", *self.SPEC["overrides"],
                                  ranks=RANKS))
        shutil.copy(reference, out)
        result = levelforge("run", self.SPEC["config"], "-o", out, "--resume", *self.SPEC["overrides"], ranks=3)
        self.assert_ok(result)
        self.assertIn("is complete; nothing to resume", result.stdout)
        self.assertFalse(os.path.exists(out + ".checkpoint"), "this run's leftover checkpoint is removed")
        # Beside it, another run's checkpoint is kept, and said so.
        shutil.copytree(os.path.join(self.saved, "other.h5.checkpoint"), out + ".checkpoint")
        before = tree_state(out + ".checkpoint")
        result = levelforge("run", self.SPEC["config"], "-o", out, "--resume", *self.SPEC["overrides"], ranks=1)
        self.assert_ok(result)
        self.assertIn("is not this run's and is kept", result.stderr)
        self.assertEqual(tree_state(out + ".checkpoint"), before)
        self.assert_same_results(reference, out)

    def test_a_folder_levelforge_did_not_make_is_never_touched(self):
        out = self.path("run.h5")
        os.mkdir(out + ".checkpoint")
        self.write("my notes\n", "run.h5.checkpoint/notes.txt")
        for ranks, arguments in zip((1, 2, 3, 1), (["--force"], ["--resume"], ["--resume", "--force"], [])):
            result = levelforge("run", self.SPEC["config"], "-o", out, *arguments, *self.SPEC["overrides"],
                                ranks=ranks)
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertIn("is not a levelforge checkpoint (it holds no manifest.h5); levelforge does not touch it",
                          result.stderr)
        result = levelforge("resume", out, ranks=2)
        self.assertEqual(result.returncode, 2)
        self.assertIn("not a levelforge checkpoint", result.stderr)
        for target in (out, out + ".checkpoint"):
            inspected = levelforge("inspect", target)
            self.assertEqual(inspected.returncode, 2)
            self.assertIn("not a levelforge checkpoint", inspected.stderr)
            self.assertNotIn("delete", inspected.stderr)
        self.assertEqual(os.listdir(out + ".checkpoint"), ["notes.txt"])
        self.assertFalse(os.path.exists(out))

    def test_a_checkpoint_stopped_before_its_manifest_starts_over(self):
        out = self.path("run.h5")
        os.mkdir(out + ".checkpoint")
        with open(out + ".checkpoint/manifest.h5.tmp", "wb") as f:
            f.write(b"\0" * 600)  # a manifest being written when the run was killed
        result = levelforge("resume", out, ranks=1)
        self.assertEqual(result.returncode, 2)
        self.assertIn("holds nothing saved", result.stderr)
        result = levelforge("run", self.SPEC["config"], "-o", out, "-q", "--resume", *self.SPEC["overrides"],
                            ranks=2)
        self.assert_ok(result)
        self.assertIn("starting from the beginning", result.stderr)
        os.remove(out)
        os.mkdir(out + ".checkpoint")
        self.assert_ok(levelforge("run", self.SPEC["config"], "-o", out, "-q", *self.SPEC["overrides"], ranks=3))

    def test_a_segment_of_another_run_is_refused(self):
        out = self.interrupted()
        other = os.path.join(self.saved, "other.h5.checkpoint")
        stray = sorted(name for name in os.listdir(other) if name.startswith("s0"))[0]
        shutil.copy(os.path.join(other, stray), os.path.join(out + ".checkpoint", "s0000-r000099-000000.h5"))
        before = tree_state(self.dir)
        for ranks, result in zip((1, 3), (levelforge("resume", out, ranks=1),
                                          levelforge("run", self.SPEC["config"], "-o", out, "--resume",
                                                     *self.SPEC["overrides"], ranks=3))):
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertIn("s0000-r000099-000000.h5: a checkpoint segment of another run", result.stderr)
            self.assertEqual(tree_state(self.dir), before, f"{ranks} ranks: nothing changed")

    def test_resume_without_output_is_a_usage_error(self):
        out = self.interrupted()
        result = levelforge("run", self.SPEC["config"], "-o", out, "--resume", "--no-output", ranks=2)
        self.assertEqual(result.returncode, 2)
        self.assertIn("--no-output writes none", result.stderr)

    def test_kills_in_the_first_second_never_block_a_resume(self):
        """SIGKILL to the whole job at seeded instants of its first 1.5 s (MPI start-up, the
        first manifest write, the first segments): `run --resume` then always completes,
        identical to the uninterrupted run."""
        small = ["--set", "sweep.replicates=20", "--set", "checkpoint.every=50"]
        reference = self.path("reference.h5")
        self.assert_ok(levelforge("run", self.SPEC["config"], "-o", reference, "-q", *small, ranks=RANKS))
        rng = random.Random("first-second")
        for attempt in range(8):
            out = self.path(f"killed-{attempt}.h5")
            process = subprocess.Popen(mpi_command("run", self.SPEC["config"], "-o", out, "-q", *small,
                                                   ranks=RANKS),
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       start_new_session=True)
            try:
                process.wait(timeout=rng.uniform(0.0, 1.5))
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=60)
            kill_orphans(out)
            resumed = levelforge("run", self.SPEC["config"], "-o", out, "-q", "--resume", *small,
                                 ranks=1 + attempt % 3)
            self.assert_ok(resumed)
            self.assert_same_results(reference, out)
            self.assertFalse(os.path.exists(out + ".checkpoint"))


class DiskFull(TempDirTest):
    """Runs into a small tmpfs that fills up at different moments: while the first manifest,
    a checkpoint segment or the result file is written. Each ends with a clear error and exit
    1 or 2, no crash, nothing that looks complete; and once the disk has room again,
    `run --resume` (or `resume OUT`) ends with the result of an uninterrupted run."""

    # tmpfs sizes in KiB, a page (4) its unit. The run below needs about 3600 on one rank:
    # the manifest (8), a segment of ~480 per 200 tasks, 7 of them, and a result file of
    # ~125. So 4 fails on the first manifest, 600 to 2400 on the 2nd to 5th segment, 3500
    # and 3550 in the result file's writes; on two ranks, thereabouts (a run that fits ends
    # normally). Every one of the three moments must come up.
    SIZES_KIB = (4, 8, 600, 1200, 2400, 3400, 3450, 3500, 3550)
    OVERRIDES = ("--set", "sweep.replicates=10", "--set", "checkpoint.every=200")

    def setUp(self):
        super().setUp()
        if os.geteuid() != 0:
            self.skipTest("mounting a tmpfs needs root")
        self.disk = self.path("disk")
        os.mkdir(self.disk)

    def mount(self, size_kib):
        subprocess.run(["umount", self.disk], capture_output=True, check=False)
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs",
                                  self.disk], capture_output=True, text=True, check=False)
        if mounted.returncode != 0:  # root in a container without the right to mount
            self.skipTest(f"cannot mount a tmpfs: {mounted.stderr.strip()}")

    def tearDown(self):
        subprocess.run(["umount", self.disk], capture_output=True, check=False)
        super().tearDown()

    def test_a_full_disk_at_any_moment_leaves_a_run_that_resumes(self):
        spec = config("tiltmaze_sweep.yaml")
        reference = self.path("reference.h5")
        self.assert_ok(levelforge("run", spec, "-o", reference, "-q", *self.OVERRIDES, ranks=RANKS))
        outcomes = []
        for ranks in (None, RANKS):
            for size in self.SIZES_KIB:
                self.mount(size)
                out = os.path.join(self.disk, "out.h5")
                result = levelforge("run", spec, "-o", out, "-q", *self.OVERRIDES, ranks=ranks)
                where = f"{size} KiB on {ranks or 1} rank(s)"
                if result.returncode == 0:
                    self.assert_same_results(reference, out)
                    outcomes.append(f"{where}: fits")
                    continue
                self.assertIn(result.returncode, (1, 2), f"{where}: {result.stderr}")
                self.assertNotIn("Segmentation", result.stderr, where)
                self.assertRegex(result.stderr, r"levelforge: (rank \d+: )?error: ", where)
                self.assertFalse(os.path.exists(out), where)
                self.assertFalse(os.path.exists(out + ".partial"), f"{where}: .partial left")
                saved = os.listdir(out + ".checkpoint") if os.path.isdir(out + ".checkpoint") else []
                failed_at = re.search(r"error: (creating the checkpoint|writing \S+?\.tmp|writing "
                                      r"dataset '[^']+'|creating dataset '[^']+')", result.stderr)
                outcomes.append(f"{where}: exit {result.returncode} at "
                                f"{failed_at.group(1) if failed_at else '?'}, "
                                f"{sum(n.startswith('s') and n.endswith('.h5') for n in saved)} "
                                f"segments kept")
                subprocess.run(["mount", "-o", "remount,size=64m", self.disk], check=True)
                resumed = levelforge("resume", out, "-q", ranks=RANKS) \
                    if os.path.isfile(os.path.join(out + ".checkpoint", "manifest.h5")) \
                    else levelforge("run", spec, "-o", out, "-q", "--resume", *self.OVERRIDES,
                                    ranks=RANKS)
                self.assert_ok(resumed)
                self.assert_same_results(reference, out)
        print("\ndisk full: " + "; ".join(outcomes), file=sys.stderr)
        for moment in ("creating the checkpoint", ".tmp", "dataset"):
            self.assertTrue(any(moment in line for line in outcomes), f"never failed at {moment}")

    def test_a_merge_on_a_full_disk_says_to_merge_again(self):
        """A merge keeps no checkpoint: its advice is the same merge, once there is room."""
        spec = config("tiltmaze_sweep.yaml")
        shards = []
        for index in (0, 1):
            self.assert_ok(levelforge("run", spec, "-o", self.path("x.h5"), "-q", "--shard",
                                      f"{index}/2", *self.OVERRIDES))
            shards.append(self.path(f"x.shard-{index}-of-2.h5"))
        self.mount(64)
        merged = os.path.join(self.disk, "merged.h5")
        full = levelforge("merge", merged, *shards, ranks=RANKS)
        self.assertEqual(full.returncode, 1, full.stderr)
        self.assertIn("free space, then the same `levelforge merge` again", full.stderr)
        self.assertNotIn("levelforge resume", full.stderr)
        self.assertFalse(os.path.exists(merged))
        subprocess.run(["mount", "-o", "remount,size=64m", self.disk], check=True)
        self.assert_ok(levelforge("merge", merged, *shards, ranks=RANKS))


class Shards(TempDirTest):
    """Sharded + merged == unsharded, for every driver; bad shard sets are refused."""

    def shard_files(self, spec, count, ranks=RANKS, summaries=None):
        """The shards' files; each run's summary line appended to `summaries` when given."""
        out = self.path("run.h5")
        for index in range(count):
            result = levelforge("run", spec["config"], "-o", out, "-q", "--shard", f"{index}/{count}",
                                *spec["overrides"], ranks=ranks)
            self.assert_ok(result)
            if summaries is not None:
                summaries.append(result.stdout.splitlines()[0])
        return [self.path(f"run.shard-{index}-of-{count}.h5") for index in range(count)]

    def assert_shard_summaries(self, summaries, unit, total):
        """Each shard's summary line counts its own share, round robin, of the run's `total`
        units (tasks; exhaustive: chunks, which no file lists: then the first line's total)."""
        if total is None:
            self.assertRegex(summaries[0], r"^levelforge: shard 0/\d+: \d+ of \d+ ")
            total = int(summaries[0].split()[5])
        for index, line in enumerate(summaries):
            share = len(range(index, total, len(summaries)))
            self.assertTrue(line.startswith(f"levelforge: shard {index}/{len(summaries)}: "
                                            f"{share} of {total} {unit}s, "), line)

    # Smaller than the kill tests' experiments: four runs each.
    SMALL = {"ga": ["--set", "ga.generations=10"], "sweep": ["--set", "sweep.replicates=20"],
             "sampled": ["--set", "sweep.replicates=10"],
             "islands": ["--set", "ga.population=64", "--set", "ga.generations=10",
                         "--set", "ga.migration.every=3"],
             "qd": ["--set", "qd.iterations=10", "--set", "sweep.replicates=4"],
             "qd_cma": ["--set", "qd.iterations=20", "--set", "sweep.replicates=1"],
             "nsga2": ["--set", "ga.generations=10", "--set", "sweep.replicates=1"],
             "qd_archives": ["--set", "qd.iterations=10", "--set", "sweep.replicates=1",
                             "--set", "qd.cvt_samples=5000"],
             "exhaustive": ["--set", "params.max_value=30", "--set", "exhaustive.chunk=2000"]}

    def check_merge(self, driver):
        spec = dict(DRIVERS[driver], overrides=self.SMALL[driver])
        reference = self.path("reference.h5")
        # The unsharded run alone (no mpiexec), the shards on 2 ranks: results are the same on
        # any rank count (cli_test's Determinism), and an mpiexec start costs CPU.
        self.assert_ok(levelforge("run", spec["config"], "-o", reference, "-q", *spec["overrides"]))
        summaries = []
        shards = self.shard_files(spec, 3, summaries=summaries)
        if driver == "exhaustive":
            self.assert_shard_summaries(summaries, "chunk", None)
        else:
            with h5py.File(reference, "r") as f:
                self.assert_shard_summaries(summaries, "task", len(f["tasks"]))
        with h5py.File(shards[1], "r") as f:
            self.assertEqual((f.attrs["shard_index"], f.attrs["shard_count"]), (1, 3))
        merged = self.path("merged.h5")
        result = levelforge("merge", merged, *reversed(shards))
        self.assert_ok(result)
        self.assertIn("merged 3 shards", result.stdout)
        self.assert_same_results(reference, merged)
        with h5py.File(merged, "r") as f:
            self.assertEqual(list(f.attrs["merged_from"]), list(reversed(shards)))

    def test_ga_shards_merge_to_the_unsharded_result(self):
        self.check_merge("ga")

    def test_sweep_shards_merge_to_the_unsharded_result(self):
        self.check_merge("sweep")

    def test_exhaustive_shards_merge_to_the_unsharded_result(self):
        self.check_merge("exhaustive")

    def test_sampled_sweep_shards_merge_to_the_unsharded_result(self):
        self.check_merge("sampled")

    def test_island_ga_shards_merge_to_the_unsharded_result(self):
        self.check_merge("islands")

    def test_qd_shards_merge_to_the_unsharded_result(self):
        self.check_merge("qd")

    def test_qd_archives_shards_merge_to_the_unsharded_result(self):
        self.check_merge("qd_archives")

    def test_cma_emitters_shards_merge_to_the_unsharded_result(self):
        self.check_merge("qd_cma")

    def test_nsga2_shards_merge_to_the_unsharded_result(self):
        self.check_merge("nsga2")

    def test_missing_duplicate_and_foreign_shards_are_refused(self):
        spec = dict(DRIVERS["ga"], overrides=["--set", "ga.generations=5"])
        shards = self.shard_files(spec, 3, ranks=None)
        merged = self.path("merged.h5")
        result = levelforge("merge", merged, shards[0], shards[2])
        self.assertEqual(result.returncode, 2)
        self.assertIn("missing shard 1/3 of the run", result.stderr)
        result = levelforge("merge", merged, shards[0], shards[1], shards[1])
        self.assertEqual(result.returncode, 2)
        self.assertIn("shard 1/3 given twice", result.stderr)
        foreign = self.path("other.h5")
        self.assert_ok(levelforge("run", spec["config"], "-o", foreign, "-q", "--shard", "1/3", "--set", "seed=9",
                                  *spec["overrides"]))
        result = levelforge("merge", merged, shards[0], self.path("other.shard-1-of-3.h5"), shards[2])
        self.assertEqual(result.returncode, 2)
        self.assertIn("not of one run", result.stderr)
        self.assertIn("seed: 2026 in", result.stderr)
        self.assertFalse(os.path.exists(merged))

    def test_output_that_is_a_directory_is_refused_before_anything(self):
        # As `run -o DIR`: named, exit 2, before a shard is read (these are no shards at all)
        # or anything written; --force cannot make a directory a file.
        folder = self.path("merged")
        os.mkdir(folder)
        shards = [self.write("not a shard\n", f"run.shard-{index}-of-2.h5") for index in range(2)]
        before = tree_state(self.dir)
        for force in (("--force",), ()):
            result = levelforge("merge", *force, folder, *shards)
            self.assertEqual(result.returncode, 2, result.stderr)
            self.assertIn(f"output '{folder}' is a directory; give a file name (merge FILE SHARD...)",
                          result.stderr)
            self.assertEqual(tree_state(self.dir), before)

    def test_bad_shard_option_is_a_usage_error(self):
        for text in ("3/3", "1", "a/3", "0/0"):
            result = levelforge("run", DRIVERS["ga"]["config"], "-o", self.path("x.h5"), "--shard", text)
            self.assertEqual(result.returncode, 2, text)
            self.assertIn("--shard", result.stderr)


if __name__ == "__main__":
    unittest.main()

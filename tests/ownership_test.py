"""Where two things meet (docs/checkpoint.md, "One owner at a time" and "Builds"), end to
end with real MPI runs of the `faulty` test kernel, whose tasks sleep rather than compute so
that runs overlap without loading the machine:

- TwoJobs: two jobs on one output, started at seeded random offsets of each other on 1, 2
  and 3 ranks, many times: exactly one writes, the other is refused at once (exit 2, naming
  the holder), and the result is the uninterrupted run's. A `--force` run during another's
  resume, a merge while a shard runs, two merges.
- Builds: a checkpoint or result made by other kernel code is refused by name, a retry
  after the fix runs with the new build and records both; on_error may change on resume.
- WaysForward: a stopped retry is continued by the command its stop message prints; every
  printed command pastes into a shell with a path of spaces and parentheses; options and
  paths that cannot work are refused before anything is created.

Run by CTest with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment.
"""

import os
import random
import re
import shlex
import signal
import subprocess
import time
import unittest

import h5py
import numpy as np

from cli_support import LEVELFORGE, TempDirTest, levelforge, mpi_command, process_ids, reseal

# The group of a checkpoint segment's byte fields (runner/checkpoint/segment.cpp).
BYTES_GROUP = "bytes"
# "progress: 4/6 tasks ..." lines, asked for every 0.02 s.
PROGRESS = re.compile(r"progress: (\d+)/(\d+) ")

# 12 tasks of 150 ms: about 1.8 s on one rank, 0.6 s on three, almost no CPU.
SLEEPY = """\
experiment: sleepy
kernel: faulty
driver: sweep
params: {sleep_ms: 150}
sweep:
  grid: {params.value: [1, 2, 3, 4, 5, 6]}
  replicates: 2
seed: 1
checkpoint: {every: 1}
"""


def ranks_of(word, output):
    """The levelforge processes (ranks) whose command line holds `word` and `output`."""
    return process_ids("cmdline", lambda argv: argv[0] == LEVELFORGE.encode() and
                       word.encode() in argv and output.encode() in argv)


def start(*args, ranks):
    return subprocess.Popen(mpi_command(*args, ranks=ranks), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


class OwnershipTest(TempDirTest):
    def setUp(self):
        super().setUp()
        self.config = self.write(SLEEPY, "sleepy.yaml")

    def assert_refused_in_use(self, result, output):
        """Exit 2 naming the output, the holder's pid and what to do."""
        stderr = result.stderr if hasattr(result, "stderr") else result[1]
        code = result.returncode if hasattr(result, "returncode") else result[0]
        self.assertEqual(code, 2, stderr)
        self.assertIn(f"{output} is in use: ", stderr)
        self.assertRegex(stderr, r"\(pid \d+ on \S+, since \S+, last seen \d+ s ago\)")
        self.assertIn("wait for that one to end", stderr)


class TwoJobs(OwnershipTest):
    def test_a_second_job_on_one_output_is_refused_and_the_first_completes(self):
        """Twelve races: job A (`run --resume`, as a requeued job script does) and job B, the
        same command started 0 to 0.5 s later, on 1, 2 and 3 ranks. Whichever takes the lock
        first runs; the other is refused while the first has not finished; the result equals
        the uninterrupted run's and nothing of either job is left beside it."""
        reference = self.path("reference.h5")
        self.assertEqual(levelforge("run", self.config, "-o", reference, "-q").returncode, 0)
        draw = random.Random(51)
        for attempt in range(12):
            ranks = attempt % 3 + 1
            out = self.path(f"race-{attempt}.h5")
            command = ("run", self.config, "-o", out, "--resume", "-q")
            first = start(*command, ranks=ranks)
            time.sleep(draw.uniform(0.0, 0.5))
            second = start(*command, ranks=ranks)
            outcomes = [(p.wait(timeout=120), *p.communicate()) for p in (first, second)]
            codes = sorted(code for code, _, _ in outcomes)
            self.assertEqual(codes, [0, 2], f"attempt {attempt}: {outcomes}")
            refused = next(o for o in outcomes if o[0] == 2)
            self.assert_refused_in_use((refused[0], refused[2]), out)
            self.assert_same_results(reference, out)
            for leftover in (".checkpoint", ".partial", ".lock"):
                self.assertFalse(os.path.exists(out + leftover), f"attempt {attempt}: {leftover}")

    def test_force_during_another_runs_resume_is_refused(self):
        """The case that once made a resume exit 0 holding another run's result: a --force run
        of another seed started while the resume runs."""
        out = self.path("x.h5")
        stopped = start("run", self.config, "-o", out, "--progress-interval", "0.02", ranks=2)
        for line in stopped.stderr:
            if PROGRESS.search(line):
                stopped.send_signal(signal.SIGUSR1)
                break
        stopped.communicate(timeout=60)
        self.assertEqual(stopped.returncode, 75)
        resume = start("resume", out, "--progress-interval", "0.02", ranks=2)
        for line in resume.stderr:
            if PROGRESS.search(line):
                break
        # Paused, so that it is surely still running when the second job comes.
        paused = ranks_of("resume", out)
        for pid in paused:
            os.kill(pid, signal.SIGSTOP)
        inspected = levelforge("inspect", out + ".checkpoint")
        forced = levelforge("run", self.config, "-o", out, "--force", "--set", "seed=2", ranks=2)
        for pid in paused:
            os.kill(pid, signal.SIGCONT)
        self.assertRegex(inspected.stdout, r"in use by +`\S+ resume ")
        self.assert_refused_in_use(forced, out)
        resume.communicate(timeout=120)
        self.assertEqual(resume.returncode, 0)
        with h5py.File(out, "r") as f:
            self.assertEqual(f.attrs["seed"], 1, "the resumed run's own result")

    def test_a_merge_waits_for_its_shards_and_two_merges_do_not_meet(self):
        shards = []
        for index in (0, 1):
            shards.append(self.path(f"x.shard-{index}-of-2.h5"))
        self.assertEqual(levelforge("run", self.config, "-o", self.path("x.h5"), "--shard", "0/2",
                                    "-q").returncode, 0)
        running = start("run", self.config, "-o", self.path("x.h5"), "--shard", "1/2",
                        "--progress-interval", "0.02", ranks=2)
        for line in running.stderr:
            if PROGRESS.search(line):
                break
        # Paused (SIGSTOP, as a debugger or a suspended job does), it still owns its output.
        ranks = ranks_of("1/2", self.path("x.h5"))
        for pid in ranks:
            os.kill(pid, signal.SIGSTOP)
        merged = self.path("merged.h5")
        during = levelforge("merge", merged, *shards)
        for pid in ranks:
            os.kill(pid, signal.SIGCONT)
        self.assert_refused_in_use(during, shards[1])
        self.assertFalse(os.path.exists(merged))
        running.communicate(timeout=60)
        self.assertEqual(running.returncode, 0)
        merges = [start("merge", merged, *shards, ranks=ranks) for ranks in (2, 1)]
        outcomes = sorted((p.wait(timeout=60), p.communicate()[1]) for p in merges)
        self.assertEqual([code for code, _ in outcomes], [0, 2], outcomes)
        # The second merge met the first, or found its complete result: never both writing.
        self.assertRegex(outcomes[1][1], "is in use: |already exists")
        self.assertFalse(os.path.exists(merged + ".lock"))


class Builds(OwnershipTest):
    def aborted_run(self, name):
        """A run whose kernel threw under on_error: abort at value 4, after some tasks were
        saved; returns its output and stderr."""
        out = self.path(name)
        result = levelforge("run", self.config, "-o", out, "--set", "params.fail_value=4", ranks=2)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertTrue(os.path.isdir(out + ".checkpoint"))
        return out, result.stderr

    def rebuild_manifest(self, out, kernel_sources):
        """The checkpoint's manifest as another build of the kernel would have written it."""
        manifest = os.path.join(out + ".checkpoint", "manifest.h5")
        with h5py.File(manifest, "r+") as f:
            blobs = f[BYTES_GROUP]
            identity = bytes(blobs["identity"][()]).decode()
            changed = re.sub(r"(kernel code\n)sources sha256:\w+", rf"\1sources {kernel_sources}",
                             identity)
            self.assertNotEqual(changed, identity)
            del blobs["identity"]
            blobs["identity"] = np.frombuffer(changed.encode(), dtype=np.uint8)
            builds = bytes(blobs["builds"][()]).decode()
            del blobs["builds"]
            blobs["builds"] = np.frombuffer(
                re.sub(r"kernel code sources sha256:\w+", f"kernel code sources {kernel_sources}",
                       builds).encode(), dtype=np.uint8)
        reseal(manifest)

    def test_an_abort_keeps_the_saved_work_when_failures_are_recorded_on_resume(self):
        out, stderr = self.aborted_run("x.h5")
        self.assertIn(f"`levelforge resume {out} --set on_error=record` records this failure",
                      stderr)
        self.assertIn(f"`levelforge resume {out} --retry-failed` runs the rest with the new build",
                      stderr)
        refused = levelforge("resume", out, "--set", "seed=5")
        self.assertEqual(refused.returncode, 2, refused.stderr)
        self.assertIn("seed: 1 in the checkpoint, 5 with --set", refused.stderr)
        resumed = levelforge("resume", out, "--set", "on_error=record", ranks=3)
        self.assertEqual(resumed.returncode, 3, resumed.stderr)
        restored = re.search(r"resumed: (\d+) of 12 tasks restored", resumed.stderr)
        self.assertTrue(restored and int(restored.group(1)) > 0, resumed.stderr)
        with h5py.File(out, "r") as f:
            self.assertEqual(len(f["failures"]), 2, "value 4's two replicates")
            self.assertIn("on_error: record", f.attrs["config"])

    def test_other_kernel_code_is_refused_by_name_and_a_retry_records_both_builds(self):
        out, _ = self.aborted_run("x.h5")
        self.rebuild_manifest(out, "sha256:0123456789abcdef")
        refused = levelforge("resume", out, ranks=2)
        self.assertEqual(refused.returncode, 2, refused.stderr)
        self.assertIn("its checkpoint was made by another build (the code of kernel faulty changed)",
                      refused.stderr)
        self.assertRegex(refused.stderr, r"kernel code: sources sha256:0123456789abcdef, version "
                                         r"\S+ in the checkpoint, sources sha256:\w+, version \S+ now")
        self.assertIn(f"`levelforge resume {out} --retry-failed`", refused.stderr)
        self.assertEqual(levelforge("run", self.config, "-o", out, "--resume").returncode, 2,
                         "run --resume refuses alike")
        retried = levelforge("resume", out, "--retry-failed", "--set", "on_error=record", ranks=2)
        self.assertEqual(retried.returncode, 3, retried.stderr)
        with h5py.File(out, "r") as f:
            builds = [b.decode() if isinstance(b, bytes) else b for b in f.attrs["builds"]]
            self.assertEqual(len(builds), 2, builds)
            self.assertTrue(builds[0].startswith("session 0: ") and
                            "sha256:0123456789abcdef" in builds[0], builds)
            self.assertTrue(builds[1].startswith("session 1: ") and
                            f"sources {f.attrs['kernel_sources']}" in builds[1], builds)
        inspected = levelforge("inspect", out, "--brief").stdout
        self.assertEqual(inspected.count("\nbuild "), 2, inspected)

    def test_a_complete_result_of_other_kernel_code_is_not_this_runs(self):
        """Its rerun is refused, a resume has nothing to do, and a retry of its failures after
        the fix runs them with this build, keeping the rest and recording both builds."""
        out = self.path("x.h5")
        self.assertEqual(levelforge("run", self.config, "-o", out, "-q", "--set",
                                    "on_error=record", "--set", "params.fail_value=4",
                                    ranks=3).returncode, 3)
        # Another dirty build of the same commit: its uncommitted changes were others.
        with h5py.File(out, "r+") as f:
            changes = f.attrs["git_changes"]
            f.attrs["git_changes"] = "sha256:fedcba9876543210"
        reseal(out)
        dirty = levelforge("run", self.config, "-o", out, "--resume", "--set", "on_error=record",
                           "--set", "params.fail_value=4")
        self.assertEqual(dirty.returncode, 0, dirty.stderr)
        self.assertRegex(dirty.stderr, r"git commit: \w+(-dirty)? with uncommitted changes "
                                       r"sha256:fedcba9876543210 in it")
        with h5py.File(out, "r+") as f:
            f.attrs["git_changes"] = changes
            f.attrs["kernel_sources"] = "sha256:0123456789abcdef"
            f.attrs["builds"] = [re.sub(r"sources sha256:\w+", "sources sha256:0123456789abcdef",
                                        line.decode() if isinstance(line, bytes) else line)
                                 for line in f.attrs["builds"]]
        reseal(out)
        again = levelforge("run", self.config, "-o", out, "--set", "on_error=record", "--set",
                           "params.fail_value=4")
        self.assertEqual(again.returncode, 2)
        self.assertIn("this experiment made by another build", again.stderr)
        resumed = levelforge("run", self.config, "-o", out, "--resume", "--set", "on_error=record",
                             "--set", "params.fail_value=4")
        self.assertEqual(resumed.returncode, 0, resumed.stderr)
        self.assertIn("is complete; nothing to resume", resumed.stdout)
        self.assertIn("kernel code: sources sha256:0123456789abcdef", resumed.stderr)
        retried = levelforge("resume", out, "--retry-failed", ranks=2)
        self.assertEqual(retried.returncode, 3, retried.stderr)
        self.assertIn("complete with 2 failures: running them again with this build (it was made "
                      "by another", retried.stderr)
        self.assertIn("resumed: 10 of 12 tasks restored", retried.stderr)
        with h5py.File(out, "r") as f:
            builds = [b.decode() if isinstance(b, bytes) else b for b in f.attrs["builds"]]
            self.assertEqual(len(builds), 2, builds)
            self.assertIn("sha256:0123456789abcdef", builds[0])
            self.assertIn(f"sources {f.attrs['kernel_sources']}", builds[1])


class WaysForward(OwnershipTest):
    def test_a_stopped_retry_is_continued_by_the_command_it_prints(self):
        folder = self.path("my results (1)")
        out = os.path.join(folder, "x.h5")
        failing = levelforge("run", self.config, "-o", out, "-q", "--set", "on_error=record",
                             "--set", "params.fail_value=4", "--set", "sweep.replicates=6",
                             "--set", "params.sleep_ms=100", ranks=3)
        self.assertEqual(failing.returncode, 3, failing.stderr)
        with h5py.File(out, "r") as f:
            self.assertEqual(len(f["failures"]), 6)
        # One task a claim, so that progress is told (and the signal lands) between them.
        retry = start("resume", out, "--retry-failed", "--progress-interval", "0.02", "--claims",
                      "single", ranks=1)
        for line in retry.stderr:
            if PROGRESS.search(line):
                retry.send_signal(signal.SIGUSR1)
                break
        _, stderr = retry.communicate(timeout=60)
        printed = re.search(r"continue with `([^`]+)`", stderr)
        self.assertEqual(retry.returncode, 75, stderr)
        self.assertEqual(printed.group(1), f"levelforge resume {shlex.quote(out)}")
        inspected = levelforge("inspect", out + ".checkpoint").stdout
        self.assertNotIn("(100.0%)", inspected)
        self.assertIn("retrying", inspected)
        # The printed command, pasted into a shell.
        bin_dir = self.path("bin")
        os.mkdir(bin_dir)
        os.symlink(LEVELFORGE, os.path.join(bin_dir, "levelforge"))
        pasted = subprocess.run(["bash", "-c", printed.group(1)], capture_output=True, text=True,
                                env={**os.environ, "PATH": bin_dir + ":" + os.environ["PATH"]},
                                timeout=120)
        self.assertEqual(pasted.returncode, 3, pasted.stderr)
        self.assertIn("continuing the retry", pasted.stderr)
        self.assertNotIn("nothing to resume", pasted.stdout)
        self.assertFalse(os.path.exists(out + ".checkpoint"))
        with h5py.File(out, "r") as f:
            self.assertEqual(f.attrs["sessions"], 3)
            # Each failed again, in the stopped retry (1) or in its continuation (2).
            self.assertEqual(len(f["failures"]), 6)
            self.assertTrue(set(f["failures"]["session"]) <= {1, 2}, f["failures"][()])

    def test_what_cannot_work_is_refused_before_anything_is_made(self):
        folder = self.path("out")
        long_name = "a" * 233 + ".h5"
        deep = os.path.relpath(os.path.join(folder, "b" * 120, "c" * 110 + ".h5"))
        cases = [
            (("run", self.config, "-o", os.path.join(folder, long_name)), "is 236 bytes long"),
            (("run", self.config, "-o", deep), "levelforge takes paths of at most 230"),
            # The default output, results/EXPERIMENT.h5, of a shard of a long-named experiment.
            (("run", self.config, "--set", "experiment=" + "e" * 220, "--shard", "3/10"),
             "bytes long"),
            (("run", self.config, "-o", os.path.join(folder, "x.h5"), "--shard",
              "0/9223372036854775808"), "N is at most 1000000"),
        ]
        no_window = ("--mca", "osc", "^sm,rdma,pt2pt,ucx,monitoring")
        cases.append(((("run", self.config, "-o", os.path.join(folder, "x.h5"), "--work-queue",
                        "window")), "--work-queue window: this MPI cannot make the one-sided window"))
        for index, (args, message) in enumerate(cases):
            result = subprocess.run(
                mpi_command(*args, ranks=2, transport=no_window if index == len(cases) - 1 else ()),
                capture_output=True, text=True, timeout=60, cwd=self.dir)
            self.assertEqual(result.returncode, 2, f"{args}: {result.stderr}")
            self.assertIn(message, result.stderr)
            self.assertEqual(os.listdir(self.dir), ["sleepy.yaml"], args)


if __name__ == "__main__":
    unittest.main()

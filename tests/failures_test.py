"""A failing task end to end (`on_error`, docs/config.md): the `faulty` test kernel throws
at chosen values, indices or genomes.

- Abort (the default): the job ends with exit 1 and a message naming the task, its point's
  swept values and its replicate; no result file.
- Record: the run completes, exits 3, and the file holds exactly the hand-computed failures
  (/tasks status 2, /failures, missing records, the exhaustive ranges the reductions miss),
  identical on 1, 2 and 3 ranks, in shards merged, and across a kill and resume; a resume
  does not rerun failures unless given --retry-failed.
- A GA group of ranks fails a task together, whichever member's evaluation threw, and the
  leader alone failing its validation does not hang the others.
"""

import os
import re
import signal
import subprocess
import time
import unittest

import h5py
import numpy as np

from cli_support import TempDirTest, levelforge, mpi_command
from checkpoint_test import UNFINALIZED, kill_orphans

SWEEP = """
    experiment: faulty-sweep
    kernel: faulty
    driver: sweep
    on_error: {on_error}
    params: {{fail_value: 3, sleep_ms: {sleep_ms}}}
    checkpoint: {{every: 1}}
    sweep:
      grid: {{params.value: [3, 1, 2, 4, 5]}}
      replicates: 2
"""

# Chunks of 300: index 1234 lies in [1200, 1500) of task 1, 4999 in [4800, 5000) of task 2.
EXHAUSTIVE = """
    experiment: faulty-exhaustive
    kernel: faulty
    driver: exhaustive
    on_error: record
    params: {count: 5000, solution_every: 7}
    exhaustive: {chunk: 300}
    sweep:
      grid: {params.fail_index: [-1, 1234, 4999]}
"""

# fail_ones 13 of 16 bits: reached at some generation of the GA's climb, not at the start.
GA = """
    experiment: faulty-ga
    kernel: faulty
    driver: ga
    on_error: {on_error}
    params: {{length: 16}}
    ga: {{population: 12, generations: 15, keep_best: 2, ranks_per_task: {ranks_per_task}}}
    sweep:
      grid: {{params.fail_ones: [-1, 13]}}
      replicates: 2
"""

ABORT_MESSAGE = re.compile(r"rank \d+: error: task (\d+) \(point (\d+) \((\S+)\), replicate (\d+)\)")


class FailureTest(TempDirTest):
    def config_file(self, text, **values):
        return self.write(text.format(**values) if values else text, "config.yaml")

    def run_recorded(self, config, name, *extra, ranks=None, expect=3):
        out = self.path(name)
        result = levelforge("run", config, "-o", out, "-q", *extra, ranks=ranks, timeout=120)
        self.assertEqual(result.returncode, expect, result.stderr)
        self.assertNotRegex(result.stderr, UNFINALIZED)
        return out

    def failures(self, path):
        with h5py.File(path, "r") as f:
            return f["failures"][()], f["tasks"][()]


class Abort(FailureTest):
    def test_a_sweep_task_that_throws_ends_the_run_naming_it(self):
        config = self.config_file(SWEEP, on_error="abort", sleep_ms=0)
        for ranks in (None, 3):
            out = self.path(f"abort-{ranks}.h5")
            result = levelforge("run", config, "-o", out, "-q", ranks=ranks, timeout=60)
            self.assertEqual(result.returncode, 1, result.stderr)
            match = ABORT_MESSAGE.search(result.stderr)
            self.assertIsNotNone(match, result.stderr)
            # value 3 is point 0: tasks 0 and 1; either may be the first to throw.
            self.assertIn(match.group(1), ("0", "1"))
            self.assertEqual(match.group(2), "0")
            self.assertEqual(match.group(3), "params.value=3")
            self.assertIn("faulty: failing on purpose at value 3", result.stderr)
            self.assertFalse(os.path.exists(out))
            # The checkpoint keeps why the run stopped, for `inspect` and the next resume; any
            # rank that said so had saved it first.
            error = (f"task {match.group(1)} (point 0 (params.value=3), replicate {match.group(4)}): "
                     "faulty: failing on purpose at value 3")
            inspected = levelforge("inspect", out)
            self.assert_ok(inspected)
            self.assertIn(f"{out} does not exist yet: its run was stopped by a kernel's error",
                          inspected.stdout)
            self.assertIn(f"stopped by           {error} (on_error: abort, session 0)", inspected.stdout)
            self.assertIn(f"`levelforge resume {out} --set on_error=record` records this failure",
                          inspected.stdout)
        resumed = levelforge("resume", out, "--set", "on_error=record", "-q")
        self.assertEqual(resumed.returncode, 3, resumed.stderr)
        self.assertIn(f"levelforge: session 0 stopped on a kernel's error: {error}\n", resumed.stderr)

    def test_an_exhaustive_chunk_that_throws_names_its_index_range(self):
        config = self.config_file(EXHAUSTIVE.replace("on_error: record", "on_error: abort"))
        result = levelforge("run", config, "-o", self.path("x.h5"), "-q", timeout=60)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("task 1 (point 1 (params.fail_index=1234), replicate 0), indices 1200 to 1499: "
                      "faulty: failing on purpose at index 1234", result.stderr)

    def test_a_ga_group_that_throws_ends_the_run_without_hanging(self):
        config = self.config_file(GA, on_error="abort", ranks_per_task=3)
        result = levelforge("run", config, "-o", self.path("g.h5"), "-q", ranks=3, timeout=60)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertRegex(result.stderr, r"task [23] \(point 1 \(params.fail_ones=13\), replicate [01]\): "
                                        r"generation \d+, individual \d+: faulty")


class Record(FailureTest):
    def test_sweep_failures_are_data(self):
        config = self.config_file(SWEEP, on_error="record", sleep_ms=0)
        files = [self.run_recorded(config, f"s{ranks}.h5", ranks=ranks) for ranks in (None, 2, 3)]
        for other in files[1:]:
            self.assert_same_results(files[0], other)
        failures, tasks = self.failures(files[0])
        self.assertEqual(failures["task"].tolist(), [0, 1])
        self.assertEqual(failures["point"].tolist(), [0, 0])
        self.assertEqual(failures["replicate"].tolist(), [0, 1])
        self.assertEqual(failures["begin"].tolist(), [-1, -1])
        self.assertEqual({m.decode() for m in failures["message"]},
                         {"faulty: failing on purpose at value 3"})
        self.assertEqual(tasks["status"].tolist(), [2, 2] + [1] * 8)
        with h5py.File(files[0], "r") as f:
            self.assertEqual(f["sweep/records"]["value"].tolist(), [-1, -1, 1, 1, 2, 2, 4, 4, 5, 5])
        inspected = levelforge("inspect", files[0])
        self.assert_ok(inspected)
        self.assertIn("tasks: 8 done, 2 failed", inspected.stdout)
        self.assertIn("point 0 (params.value=3):", inspected.stdout)
        self.assertIn("2 x replicate 0, replicate 1: faulty: failing on purpose at value 3",
                      inspected.stdout)

    def test_exhaustive_reductions_say_what_they_miss(self):
        config = self.config_file(EXHAUSTIVE)
        files = [self.run_recorded(config, f"x{ranks}.h5", ranks=ranks) for ranks in (None, 2, 3)]
        for other in files[1:]:
            self.assert_same_results(files[0], other)
        failures, tasks = self.failures(files[0])
        # The last task's failing index 4999 is in its tail's last chunk: 4200 + 150 + 75 +
        # 37 + 29 x 18 = 4984 (chunk_plan.hpp).
        self.assertEqual(list(zip(failures["task"].tolist(), failures["begin"].tolist(),
                                  failures["end"].tolist())), [(1, 1200, 1500), (2, 4984, 5000)])
        self.assertEqual(tasks["status"].tolist(), [1, 2, 2])
        with h5py.File(files[0], "r") as f:
            self.assertEqual(f["exhaustive/ranges"]["uncovered"].tolist(), [0, 300, 16])
            self.assertEqual(f["exhaustive/counts"]["visited"].tolist(), [5000, 4700, 4984])
            # Every index divisible by 7 is a solution; a failed chunk's, written before it
            # threw, are dropped with it, and no other chunk's rows go with them.
            uncovered = {1: range(1200, 1500), 2: range(4984, 5000)}
            expected = [(task, index) for task in range(3) for index in range(0, 5000, 7)
                        if index not in uncovered.get(task, ())]
            solutions = f["exhaustive/solutions"][()]
            self.assertEqual(list(zip(solutions["task"].tolist(), solutions["index"].tolist())),
                             expected)
        inspected = levelforge("inspect", files[0])
        self.assertIn("1 x replicate 0 indices [1200, 1500): faulty: failing on purpose at index 1234",
                      inspected.stdout)

    def test_a_failed_chunk_drops_its_solutions_and_no_others(self):
        # Task 1's first chunk [0, 300) fails after writing its solutions (0, 7, ..., 294)
        # straight into the rank's rows, which then hold task 0's before them.
        config = self.config_file(EXHAUSTIVE.replace("count: 5000,", "count: 1000,").replace(
            "[-1, 1234, 4999]", "[-1, 100]"))
        expected = [(task, index) for task in range(2) for index in range(0, 1000, 7)
                    if task == 0 or index >= 300]
        for ranks in (None, 2, 3):
            path = self.run_recorded(config, f"first{ranks}.h5", ranks=ranks)
            with h5py.File(path, "r") as f:
                solutions = f["exhaustive/solutions"][()]
                self.assertEqual(list(zip(solutions["task"].tolist(), solutions["index"].tolist())),
                                 expected, f"{ranks} ranks")
                self.assertEqual(solutions["n"].tolist(), [index for _, index in expected])

    def test_ga_failures_are_the_same_for_any_group_size(self):
        files = []
        for ranks, per_task in ((None, 0), (2, 0), (3, 0), (3, 3), (2, 2)):
            config = self.config_file(GA, on_error="record", ranks_per_task=per_task)
            files.append(self.run_recorded(config, f"g{ranks}-{per_task}.h5", ranks=ranks))
        for other in files[1:]:
            self.assert_same_results(files[0], other)
        failures, tasks = self.failures(files[0])
        self.assertEqual(tasks["status"].tolist()[:2], [1, 1])
        failed = failures["task"].tolist()
        self.assertTrue(failed and set(failed) <= {2, 3}, failed)
        for message in failures["message"]:
            self.assertRegex(message.decode(), r"^generation \d+, individual \d+: faulty: failing on "
                                               r"purpose at a genome of 1[3-6] ones$")
        with h5py.File(files[0], "r") as f:
            for task in failed:
                self.assertTrue(np.all(f["ga/best_genomes"][task] == -1))
                self.assertTrue(np.all(f["ga/history"]["generation"][task] == -1))

    def test_a_validation_only_the_leader_runs_fails_the_task_without_a_hang(self):
        config = self.config_file(GA.replace("params: {{length: 16}}",
                                             "params: {{length: 16, fail_validation: true}}"),
                                  on_error="record", ranks_per_task=3)
        one = self.run_recorded(config, "v1.h5")
        three = self.run_recorded(config, "v3.h5", ranks=3)
        self.assert_same_results(one, three)
        failures, _ = self.failures(three)
        self.assertEqual(len(failures), 4)
        self.assertIn(b"failing on purpose in validation", failures["message"][0])

    def test_no_failures_exit_0_with_an_empty_table(self):
        config = self.config_file(SWEEP.replace("fail_value: 3", "fail_value: 99"),
                                  on_error="record", sleep_ms=0)
        out = self.run_recorded(config, "none.h5", expect=0)
        failures, tasks = self.failures(out)
        self.assertEqual(len(failures), 0)
        self.assertTrue(np.all(tasks["status"] == 1))

    def test_shards_merge_with_their_failures(self):
        config = self.config_file(EXHAUSTIVE)
        whole = self.run_recorded(config, "whole.h5", ranks=2)
        codes = [levelforge("run", config, "-o", self.path("part.h5"), "-q", "--shard", f"{i}/2",
                            ranks=2).returncode for i in range(2)]
        shard_files = [self.path(f"part.shard-{i}-of-2.h5") for i in range(2)]
        shard_failures = [len(self.failures(path)[0]) for path in shard_files]
        # Each shard exits 3 exactly when it holds a failure.
        self.assertEqual(codes, [3 if count else 0 for count in shard_failures])
        self.assertEqual(sum(shard_failures), 2)
        merged = self.path("merged.h5")
        self.assert_ok(levelforge("merge", merged, *shard_files, ranks=2))
        self.assert_same_results(whole, merged)


# Slow runs of the other drivers, checkpointing often, with failures early and later on.
SLOW_EXHAUSTIVE = """
    experiment: slow-faulty-exhaustive
    kernel: faulty
    driver: exhaustive
    on_error: record
    params: {count: 4000, sleep_ms: 400}
    exhaustive: {chunk: 500}
    checkpoint: {every: 1}
    sweep:
      grid: {params.fail_index: [250, -1, 3999]}
"""

SLOW_GA = """
    experiment: slow-faulty-ga
    kernel: faulty
    driver: ga
    on_error: record
    params: {length: 16, sleep_ms: 8}
    ga: {population: 12, generations: 15, keep_best: 2}
    checkpoint: {every: 1}
    sweep:
      grid: {params.fail_ones: [13, -1]}
      replicates: 2
"""


class ResumeFailures(FailureTest):
    """Slow runs with failures, killed once their checkpoint holds `failed` of them."""

    def start_and_kill(self, config, out, failed=2):
        process = subprocess.Popen(mpi_command("run", config, "-o", out, "-q", ranks=2),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            shown = levelforge("inspect", out + ".checkpoint")
            found = re.search(r"failed\s+(\d+) of the done", shown.stdout)
            if found and int(found.group(1)) >= failed:
                break
            time.sleep(0.1)
        else:
            self.fail(f"the checkpoint never held {failed} failures")
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        kill_orphans(out)
        self.assertFalse(os.path.exists(out), "the run ended before the kill: make it slower")

    def check_kill_and_resume(self, text, failed):
        """Killed with `failed` failures saved, resumed (on 3 ranks, then with --retry-failed
        after a second kill): both end as the uninterrupted run."""
        config = self.config_file(text)
        reference = self.run_recorded(config, "reference.h5", ranks=2)
        total = len(self.failures(reference)[0])
        kept = self.path("kept.h5")
        self.start_and_kill(config, kept, failed)
        self.assertEqual(levelforge("resume", kept, "-q", ranks=3, timeout=120).returncode, 3)
        self.assert_same_results(reference, kept)
        sessions = self.failures(kept)[0]["session"].tolist()
        self.assertGreaterEqual(sessions.count(0), failed, "a resume ran saved failures again")
        retried = self.path("retried.h5")
        self.start_and_kill(config, retried, failed)
        self.assertEqual(levelforge("resume", retried, "-q", "--retry-failed", ranks=1,
                                    timeout=120).returncode, 3)
        self.assert_same_results(reference, retried)
        self.assertEqual(self.failures(retried)[0]["session"].tolist(), [1] * total)

    def test_exhaustive_failures_survive_a_kill(self):
        self.check_kill_and_resume(SLOW_EXHAUSTIVE, failed=1)

    def test_ga_failures_survive_a_kill(self):
        self.check_kill_and_resume(SLOW_GA, failed=1)

    def test_a_resume_keeps_failures_unless_asked_to_retry(self):
        reference = self.run_recorded(self.config_file(SWEEP, on_error="record", sleep_ms=150),
                                      "reference.h5", ranks=3)
        config = self.config_file(SWEEP, on_error="record", sleep_ms=150)

        kept = self.path("kept.h5")
        self.start_and_kill(config, kept)
        result = levelforge("resume", kept, "-q", ranks=3, timeout=120)
        self.assertEqual(result.returncode, 3, result.stderr)
        self.assert_same_results(reference, kept)
        failures, _ = self.failures(kept)
        self.assertEqual(failures["session"].tolist(), [0, 0], "a resume ran the failures again")

        retried = self.path("retried.h5")
        self.start_and_kill(config, retried)
        result = levelforge("run", config, "-o", retried, "-q", "--resume", "--retry-failed",
                            ranks=2, timeout=120)
        self.assertEqual(result.returncode, 3, result.stderr)
        self.assert_same_results(reference, retried)
        failures, _ = self.failures(retried)
        self.assertEqual(failures["session"].tolist(), [1, 1], "--retry-failed did not rerun them")

    def test_the_failures_of_a_complete_run_can_be_retried(self):
        config = self.config_file(EXHAUSTIVE)
        reference = self.run_recorded(config, "reference.h5", ranks=2)
        out = self.run_recorded(config, "retried.h5")
        result = levelforge("resume", out, "--retry-failed", ranks=3)
        self.assertEqual(result.returncode, 3, result.stderr)
        self.assertIn("is complete with 2 failures: running them again", result.stderr)
        # 3 tasks of 5,000 indices in chunks of 300: 17 + 17, then 14 and a tail of 33
        # (chunks of 150, 75, 37, then 18) on the last task.
        self.assertIn("resumed: 79 of 81 chunks restored", result.stderr)
        self.assert_same_results(reference, out)
        failures, _ = self.failures(out)
        self.assertEqual(failures["session"].tolist(), [1, 1])
        self.assertFalse(os.path.exists(out + ".checkpoint"))
        with h5py.File(out, "r") as f:
            self.assertEqual(f.attrs["sessions"], 2)
        # Without --retry-failed a complete run is left as it is.
        again = levelforge("resume", out)
        self.assert_ok(again)
        self.assertIn("is complete; nothing to resume", again.stdout)
        clean = self.run_recorded(self.config_file(SWEEP.replace("fail_value: 3", "fail_value: 99"),
                                                   on_error="record", sleep_ms=0), "clean.h5",
                                  expect=0)
        nothing = levelforge("run", self.path("config.yaml"), "-o", clean, "--resume",
                             "--retry-failed")
        self.assert_ok(nothing)
        self.assertIn("holds no failures to retry", nothing.stderr)

    def test_retry_failed_needs_resume(self):
        config = self.config_file(SWEEP, on_error="record", sleep_ms=0)
        result = levelforge("run", config, "-o", self.path("r.h5"), "--retry-failed")
        self.assertEqual(result.returncode, 2)
        self.assertIn("--resume", result.stderr)


if __name__ == "__main__":
    unittest.main()

"""slurm/levelforge.sbatch and slurm/levelforge-array.sbatch end to end, on the single-node
Slurm cluster of slurm/local-cluster.sh: one job, a job array merged with `levelforge merge`,
and a job whose time limit is too short, which checkpoints on Slurm's warning signal, is
requeued and finishes with the results of an uninterrupted run.

Starts the cluster when it is not up (that needs root) and stops it at the end only then.
Reads LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS from the environment (CTest sets them).
Run alone: LEVELFORGE_BIN=build/runner/cli/levelforge MPIEXEC=mpiexec \\
           MPIEXEC_FLAGS="--oversubscribe --allow-run-as-root" /usr/bin/python3 tests/slurm_test.py -v
"""

import fcntl
import os
import re
import shlex
import subprocess
import sys
import time
import unittest

import h5py

from cli_support import LEVELFORGE, MPIEXEC, MPIEXEC_FLAGS, TempDirTest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCAL_CLUSTER = os.path.join(ROOT, "slurm", "local-cluster.sh")
SBATCH_ONE = os.path.join(ROOT, "slurm", "levelforge.sbatch")
SBATCH_ARRAY = os.path.join(ROOT, "slurm", "levelforge-array.sbatch")
DEMO = os.path.join(ROOT, "configs", "demo.yaml")

# Job states after which a job (or array task) will not run again.
FINAL_STATES = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
                "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY"}

# The Slurm commands of this test talk to the local cluster whatever the caller's
# environment says: its config, no SBATCH_* defaults, no enclosing job's SLURM_* variables.
SLURM_ENV = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "SBATCH_"))}
SLURM_ENV["SLURM_CONF"] = "/etc/slurm/slurm.conf"
SLURM_ENV["LEVELFORGE_BIN"] = os.path.abspath(LEVELFORGE)

started_cluster = False
# Held for the whole module: CTest's RESOURCE_LOCK keeps one ctest from running two Slurm
# tests at once, this keeps two test processes (two ctest runs) from sharing the cluster,
# where one would stop it under the other's jobs.
LOCK_PATH = os.environ.get("LEVELFORGE_SLURM_TEST_LOCK", "/tmp/levelforge-slurm-test.lock")
lock_file = None


def run(command, timeout=60, **kwargs):
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          env=SLURM_ENV, check=False, **kwargs)


def setUpModule():
    global started_cluster, lock_file
    try:
        lock_file = open(LOCK_PATH, "a")  # pylint: disable=consider-using-with
    except PermissionError:  # another user's lock file: flock works on a read-only file too
        lock_file = open(LOCK_PATH, "r")  # pylint: disable=consider-using-with
    fcntl.flock(lock_file, fcntl.LOCK_EX)
    if run([LOCAL_CLUSTER, "status"]).returncode == 0:
        return
    if os.geteuid() != 0:
        # The skip makes tests/run_suites.py exit 77, a skip for CTest (SKIP_RETURN_CODE).
        print("slurm_test skipped: the local Slurm cluster is not up and starting it needs "
              "root (sudo slurm/local-cluster.sh start)", file=sys.stderr)
        raise unittest.SkipTest("local Slurm cluster not up, not root")
    result = run([LOCAL_CLUSTER, "start"], timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"slurm/local-cluster.sh start failed:\n{result.stdout}\n{result.stderr}")
    started_cluster = True


def tearDownModule():
    if started_cluster:
        run([LOCAL_CLUSTER, "stop"], timeout=120)
    if lock_file is not None:
        lock_file.close()


def job_records(job_id):
    """`scontrol show job -o JOB` as one dict per job (one per array task), {} when unknown."""
    result = run(["scontrol", "show", "job", "-o", str(job_id)])
    if result.returncode != 0:
        return []
    return [dict(re.findall(r"(\w+)=(\S*)", line)) for line in result.stdout.splitlines() if line]


class SlurmTest(TempDirTest):
    """Jobs submitted from the test's scratch directory, where their logs land."""

    def sbatch(self, *args, launcher="mpirun"):
        env = dict(SLURM_ENV, LEVELFORGE_LAUNCHER=launcher)
        result = subprocess.run(["sbatch", "--parsable", *args], capture_output=True, text=True,
                                timeout=60, env=env, cwd=self.dir, check=False)
        self.assertEqual(result.returncode, 0, f"sbatch {' '.join(args)}:\n{result.stderr}")
        return result.stdout.strip().split(";")[0]

    def wait_for(self, job_id, timeout):
        """Polls until the job, or every task of an array, is in a final state; its records."""
        deadline = time.monotonic() + timeout
        while True:
            records = job_records(job_id)
            if records and all(r.get("JobState") in FINAL_STATES for r in records):
                return records
            if time.monotonic() > deadline:
                run(["scancel", str(job_id)])
                self.fail(f"job {job_id} not finished after {timeout} s: {records}\n{self.logs()}")
            time.sleep(1)

    def logs(self):
        text = ""
        for name in sorted(os.listdir(self.dir)):
            if name.startswith("slurm-") and name.endswith(".out"):
                with open(self.path(name)) as log:
                    text += f"----- {name}\n{log.read()}"
        return text

    def log(self, name):
        with open(self.path(name)) as log:
            return log.read()

    def assert_completed(self, records):
        for record in records:
            self.assertEqual((record["JobState"], record["ExitCode"]), ("COMPLETED", "0:0"),
                             f"{record}\n{self.logs()}")

    def reference_run(self, config, output, *args):
        """The same experiment straight under mpiexec on 2 ranks, as a Popen."""
        command = [MPIEXEC, "-n", "2", *MPIEXEC_FLAGS, LEVELFORGE, "run", config, "-o", output,
                   "-q", *args]
        return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)

    def finish(self, process, timeout=300):
        output, _ = process.communicate(timeout=timeout)
        self.assertEqual(process.returncode, 0, output)


class OneJob(SlurmTest):
    def test_demo(self):
        """The demo as one 2-task job: exit 0, progress and summary in the log, a complete file."""
        output = self.path("demo.h5")
        job = self.sbatch("-n", "2", "--time=5", SBATCH_ONE, DEMO, "-o", output,
                          "--progress-interval", "1")
        self.assert_completed(self.wait_for(job, timeout=120))
        log = self.log(f"slurm-{job}.out")
        self.assertIn(f"levelforge.sbatch: job {job} on ", log)
        self.assertIn("levelforge: demo (match3 kernel, ga driver): 6 tasks on 2 ranks", log)
        self.assertRegex(log, r"progress: 6/6 tasks .* 100\.0%")
        self.assertIn("levelforge: 6 tasks, 3600 kernel calls in", log)
        self.assertIn(f"levelforge: results: {output}", log)
        self.assertIn("levelforge.sbatch: levelforge exited with 0", log)
        with h5py.File(output, "r") as f:
            self.assertEqual(f.attrs["complete"], 1)
            self.assertEqual(f.attrs["ranks"], 2)
            self.assertEqual(f.attrs["experiment"], "demo")
            self.assertEqual(len(f["tasks"]), 6)
            self.assertTrue((f["tasks"]["status"] == 1).all())
        self.assertFalse(os.path.exists(output + ".checkpoint"))


class Array(SlurmTest):
    def test_shards_merge_to_the_unsharded_run(self):
        """--array=0-2 (srun): three shards; the merge command printed in the logs gives the
        result datasets of one unsharded mpiexec run."""
        output = self.path("demo.h5")
        reference = self.reference_run(DEMO, self.path("reference.h5"))
        job = self.sbatch("--array=0-2", "-n", "2", "--time=5", SBATCH_ARRAY, DEMO, "-o", output,
                          launcher="srun")
        records = self.wait_for(job, timeout=180)
        self.assertEqual(sorted(r["ArrayTaskId"] for r in records), ["0", "1", "2"])
        self.assert_completed(records)
        self.finish(reference)

        merge_lines = set()
        for task in range(3):
            log = self.log(f"slurm-{job}_{task}.out")
            shard_file = self.path(f"demo.shard-{task}-of-3.h5")
            self.assertIn(f"task {task}: shard {task} of 3", log)
            self.assertIn(f"srun --mpi=pmix {SLURM_ENV['LEVELFORGE_BIN']} run {DEMO} -o {output} "
                          f"--shard {task}/3 --resume", log)
            self.assertIn(f"levelforge: results: {shard_file}", log)
            lines = log.splitlines()
            merge_lines.add(lines[lines.index(
                "levelforge-array.sbatch: when all 3 shards are done, merge them "
                f"(in {self.dir}):") + 1].strip())
            self.assertIn(f"sbatch --dependency=afterok:{job} ", log)
        self.assertEqual(len(merge_lines), 1, merge_lines)
        merge = shlex.split(merge_lines.pop())
        self.assertEqual(merge[1:], ["merge", output] + [
            self.path(f"demo.shard-{i}-of-3.h5") for i in range(3)])

        result = subprocess.run(merge, capture_output=True, text=True, timeout=120,
                                cwd=self.dir, check=False)
        self.assert_ok(result)
        with h5py.File(output, "r") as f:
            self.assertEqual(f.attrs["complete"], 1)
            self.assertEqual(len(f["tasks"]), 6)
        self.assert_same_results(self.path("reference.h5"), output)


# A GA of 8 tasks whose evaluations sleep 45 ms: 271 evaluations a task, 4 tasks a rank on 2
# ranks, about 50 s whatever the speed of the machine, and nearly no CPU taken from the tests
# that run beside it.
SLEEPY_GA = """experiment: sleepy-ga
kernel: onemax
driver: ga
params: {length: 32, sleep_us: 45000}
ga: {population: 10, generations: 30, elitism: 1, keep_best: 2}
sweep:
  grid: {params.length: [24, 32]}
  replicates: 4
seed: 12
"""


class Requeue(SlurmTest):
    # Work for about 50 s on 2 ranks: longer than Slurm's warning can come (its time-limit
    # checks are 30 s apart, so with --time=1 the warning comes 0 to 30 s after the start,
    # and launch.sh holds it until 10 s).

    def test_time_limit_checkpoint_requeue_resume(self):
        """--time=1 with the warning 50 s before: the run checkpoints (exit 75), the job is
        requeued under the same id, resumes and ends with the results of an uninterrupted run."""
        output = self.path("sweep.h5")
        config = self.path("sleepy_ga.yaml")
        with open(config, "w") as f:
            f.write(SLEEPY_GA)
        job = self.sbatch("-n", "2", "--time=1", "--signal=B:USR1@50", SBATCH_ONE, config,
                          "-o", output)
        # The reference runs meanwhile: the job idles while it is requeued.
        reference = self.reference_run(config, self.path("reference.h5"))
        [record] = self.wait_for(job, timeout=420)
        self.finish(reference, timeout=420)
        self.assertEqual(record["JobId"], job)
        self.assert_completed([record])
        restarts = int(record["Restarts"])
        print(f"\nslurm_test: {restarts} restarts", file=sys.stderr)
        self.assertGreaterEqual(restarts, 1, self.logs())

        log = self.log(f"slurm-{job}.out")  # --open-mode=append: every run's lines
        self.assertIn("levelforge.sbatch: got SIGUSR1", log)
        self.assertIn("levelforge: stopped by signal 10: checkpoint saved in", log)
        self.assertEqual(log.count(f"levelforge.sbatch: checkpointed (exit 75); requeueing job {job}"),
                         restarts, log)
        self.assertEqual(log.count(f"levelforge.sbatch: job {job}"), restarts + 1, log)
        self.assertIn(f"levelforge.sbatch: job {job} (restart {restarts}) on ", log)
        # The first run is `run CONFIG ... --resume`; every restart `resume OUTPUT`, with
        # nothing retyped, and says what it restored.
        self.assertEqual(log.count(f"{SLURM_ENV['LEVELFORGE_BIN']} run {config} -o {output} "), 1, log)
        self.assertEqual(log.count(f"{SLURM_ENV['LEVELFORGE_BIN']} resume {output}\n"), restarts, log)
        self.assertRegex(log, r"levelforge: resumed: \d+ of \d+ tasks restored")
        self.assertIn(f"levelforge: results: {output}", log)
        self.assertTrue(log.rstrip().splitlines()[-1].startswith(
            "levelforge.sbatch: levelforge exited with 0"), log)
        self.assertFalse(os.path.exists(output + ".checkpoint"))
        with h5py.File(output, "r") as f:
            self.assertEqual(f.attrs["complete"], 1)
            self.assertEqual(len(f["tasks"]), 8)
        self.assert_same_results(self.path("reference.h5"), output)


if __name__ == "__main__":
    unittest.main()

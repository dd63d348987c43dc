"""End-to-end tests of the spawn kernel: configs/spawn_sweep.yaml and configs/spawn_ga.yaml
run (shrunk with --set) on 1, 2 and 3 ranks with identical result datasets, their records
checked for what every task must satisfy, and object tables the kernel refuses reported as
config errors naming the file and line.

Run by CTest with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment.
"""

import math
import os
import time
import unittest

import h5py
import numpy as np

from cli_support import TempDirTest, levelforge

CONFIGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "configs")
SWEEP = os.path.join(CONFIGS, "spawn_sweep.yaml")
GA = os.path.join(CONFIGS, "spawn_ga.yaml")
ENEMIES = 8

SMALL_SWEEP = ["--set", "params.runs=100", "--set", "sweep.replicates=1"]
SMALL_GA = ["--set", "params.runs=10", "--set", "params.validation_runs=40",
            "--set", "ga.population=8", "--set", "ga.generations=3", "--set", "ga.keep_best=2",
            "--set", "sweep.replicates=2"]


class Determinism(TempDirTest):
    def test_sweep_on_1_2_3_ranks(self):
        self.assert_same_on_ranks(SWEEP, SMALL_SWEEP)

    def test_ga_on_1_2_3_ranks(self):
        self.assert_same_on_ranks(GA, SMALL_GA)


class Experiments(TempDirTest):
    def test_sweep_records(self):
        out = self.run_to(SWEEP, SMALL_SWEEP, None, "sweep.h5")
        with h5py.File(out, "r") as f:
            points = f["points"][()]
            records = f["sweep/records"][()]
        self.assertEqual(len(points), 12)
        self.assertEqual(sorted(set(points["params.recency"])), [b"all", b"decay", b"window"])
        self.assertEqual(len(records), 12)
        # The looping saw-tooth 10, 12, .. 28: mean required difficulty 19.
        self.assertTrue(np.allclose(records["mean_required"], 19))
        self.assertTrue(np.all(records["mean_spawned"] <= records["mean_required"]))
        self.assertTrue(np.allclose(records["error_share"], records["mean_abs_error"] / 19))
        shares = np.stack([records[f"share_{k}"] for k in range(ENEMIES)], axis=1)
        self.assertTrue(np.allclose(shares.sum(axis=1), 1))
        for k in range(ENEMIES, 16):
            self.assertTrue(np.all(np.isnan(records[f"share_{k}"])), k)
            self.assertTrue(np.all(np.isnan(records[f"absence_{k}"])), k)
        # Slime and thief are eligible from level 0, the troll from level 5 (difficulty 20).
        self.assertTrue(np.all(records["max_longest_absence"] <= 50))
        self.assertTrue(np.all((records["repetition"] >= 0) & (records["repetition"] <= 1)))
        self.assertTrue(np.all(records["mean_types"] <= ENEMIES))

    def test_ga_genomes_and_validation(self):
        out = self.run_to(GA, SMALL_GA, None, "ga.h5")
        with h5py.File(out, "r") as f:
            genomes = f["ga/best_genomes"][()]
            best = f["ga/best"][()]
            validation = f["ga/validation"][()]
        self.assertEqual(genomes.shape, (2, 2, 2 + ENEMIES))
        self.assertEqual(genomes.dtype, np.float64)  # a real genome, its genes as they are
        self.assertTrue(np.all((genomes[:, :, 0] >= 0) & (genomes[:, :, 0] <= 100)))
        self.assertTrue(np.all((genomes[:, :, 1:] >= 0) & (genomes[:, :, 1:] <= 1)))
        self.assertTrue(np.array_equal(best["weight_increment"], genomes[:, :, 0]))
        self.assertTrue(np.array_equal(best["decay"], genomes[:, :, 1]))
        for row in best.flat:
            expected = (1 - row["repetition"] if row["error_share"] <= 0.1
                        else -(row["error_share"] - 0.1))
            self.assertTrue(math.isclose(row["fitness"], expected), row)
        self.assertEqual(validation.shape, (2, 2))
        self.assertTrue(np.all(validation["validated_error_share"] >= 0))


class BadTables(TempDirTest):
    CONFIG = """\
        experiment: bad
        kernel: spawn
        driver: sweep
        params:
          objects:
            - {name: orc, strength: 6}
            - {name: orc, strength: 2}
        """

    def refused(self, text):
        config = self.write(text, "bad.yaml")
        result = levelforge("validate", config)
        self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
        return config, result.stderr

    def test_duplicate_name_names_the_line(self):
        config, message = self.refused(self.CONFIG)
        self.assertIn(f"{config}:7:", message)
        self.assertIn("duplicate object name 'orc'", message)

    def test_table_file_errors_name_the_file(self):
        self.write("- {name: slime, strength: 0}\n", "enemies.yaml")
        _, message = self.refused(self.CONFIG.replace(
            "objects:\n            - {name: orc, strength: 6}\n            - {name: orc, strength: 2}",
            "objects: enemies.yaml"))
        self.assertIn(f"{self.path('enemies.yaml')}:1:", message)
        self.assertIn("strength must be > 0", message)

    def test_unsorted_keyframes(self):
        _, message = self.refused(self.CONFIG.replace(
            "- {name: orc, strength: 2}",
            "- {name: ogre, strength: 2}\n"
            "          keyframes: [{time: 5, value: 1}, {time: 2, value: 1}]"))
        self.assertIn("keyframe times must increase strictly", message)


class Memory(TempDirTest):
    """Issue 51: a spawn kernel of 100,000 levels holds 15 MB, and a rank once built every
    point's. A sweep of such points holds one at a time, so it validates and runs within a
    memory limit that every point's kernel at once (40 x 15 MB) would pass; a sweep that
    cannot fit is refused with exit 2, naming its size, before any kernel is built. Under a
    limit on the process's data (RLIMIT_DATA), so that a regression fails the test instead of
    filling the machine's memory."""

    LIMIT = 384 << 20
    CONFIG = f"""\
        experiment: long-runs
        kernel: spawn
        driver: sweep
        params:
          objects: {os.path.join(CONFIGS, "spawn", "enemies.yaml")}
          levels: 100000
          runs: 1
        sweep:
          grid:
            params.weight_increment: {{linspace: [0, 100, POINTS]}}
          replicates: REPLICATES
        """

    def config(self, points, replicates):
        text = self.CONFIG.replace("POINTS", str(points)).replace("REPLICATES", str(replicates))
        return self.write(text, "long_runs.yaml")

    def test_many_points_of_long_runs_hold_one_kernel_at_a_time(self):
        config = self.config(40, 1)
        validated = levelforge("validate", config, memory_limit=self.LIMIT)
        self.assertEqual(validated.returncode, 0, validated.stderr)
        self.assertIn("the largest part, 14 MiB: params.levels = 100000 levels x 152 bytes "
                      "(the kernel of one point at a time)", validated.stdout)
        out = self.path("long_runs.h5")
        self.assert_ok(levelforge("run", config, "-o", out, "-q", memory_limit=self.LIMIT))
        with h5py.File(out, "r") as f:
            self.assertEqual(len(f["sweep/records"]), 40)

    def test_a_sweep_that_cannot_fit_is_refused_before_any_kernel_is_built(self):
        config = self.config(3000, 1_000_000_000_000)
        for command in (["validate", config], ["run", config, "-o", self.path("never.h5")]):
            started = time.monotonic()
            refused = levelforge(*command, memory_limit=self.LIMIT, timeout=60)
            seconds = time.monotonic() - started
            self.assertEqual(refused.returncode, 2, refused.stdout + refused.stderr)
            self.assertIn(f"{config}: the records of 3000000000000000 tasks per rank (3000 points x "
                          "1000000000000 replicates = 3000000000000000 tasks on 1 rank) and 2 "
                          "copies made to write them: the run needs about", refused.stderr)
            # Refused from the config alone: building 3000 kernels first takes seconds more.
            self.assertLess(seconds, 5, command[0])
        self.assertFalse(os.path.exists(self.path("never.h5")))


if __name__ == "__main__":
    unittest.main()

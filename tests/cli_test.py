"""End-to-end tests of the levelforge executable: real MPI runs on 1, 2 and 3 ranks,
result files read back with h5py, and every way a user can get the command line wrong.

Run by CTest with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment.
"""

import json
import os
import subprocess
import unittest

import h5py
import numpy as np

from cli_support import (LEVELFORGE, TCP_TRANSPORT, TempDirTest, levelforge, reseal,
                         result_datasets, seal)

GA_CONFIG = """
experiment: ga-small
kernel: onemax
driver: ga
params: {length: 40}
ga: {population: 50, generations: 25, elitism: 2, keep_best: 4, mutation_rate: 0.02}
sweep:
  grid: {params.length: [20, 40]}
  replicates: 2
seed: 7
"""

MATCH3_CONFIG = """
experiment: match3-small
kernel: match3
driver: ga
params: {playouts: 20, validation_playouts: 100, moves: 40}
ga: {population: 10, generations: 4, keep_best: 2, reevaluate_elites: true}
sweep:
  grid: {params.genome: [seed, grid]}
seed: 10
"""

SWEEP_CONFIG = """
experiment: sweep-small
kernel: onemax
driver: sweep
sweep:
  grid: {params.climb_steps: [5, 50, 500]}
  replicates: 9
seed: 8
"""

EXHAUSTIVE_CONFIG = """
experiment: collatz-small
kernel: collatz
driver: exhaustive
params: {count: 60000, solution_steps: 250}
exhaustive: {chunk: 1500}
sweep:
  grid: {params.start: [1, 1000000]}
seed: 9
"""

TILTMAZE_GA_CONFIG = """
experiment: tiltmaze-ga-small
kernel: tiltmaze
driver: ga
params: {width: 6, height: 6, targets: 3}
ga: {population: 12, generations: 8, keep_best: 1}
sweep:
  grid: {params.target_length: [6, 12]}
  replicates: 2
seed: 12
"""

# MAP-Elites over OneMax's two halves: archives of 3 x 3 and 5 x 5 cells, in groups of ranks.
QD_CONFIG = """
experiment: qd-small
kernel: onemax
driver: qd
params: {length: 24}
qd: {init: 30, iterations: 6, batch: 20, crossover_rate: 0.3}
sweep:
  grid: {qd.bins: [3, 5]}
  replicates: 2
seed: 21
"""

TILTMAZE_SWEEP_CONFIG = """
experiment: tiltmaze-sweep-small
kernel: tiltmaze
driver: sweep
params: {placement: anywhere, width: 7, height: 5}
sweep:
  grid: {params.collect: [stop, pass], params.targets: [1, 4]}
  replicates: 6
seed: 13
"""

# One sixteenth of the 4 x 4 mazes, with their hardest pairs, in uneven chunks.
# A sweep of a range and Sobol samples (docs/config.md, "Sampling"): 2 widths x 4 samples.
SAMPLED_SWEEP_CONFIG = """
experiment: sampled
kernel: tiltmaze
driver: sweep
params: {placement: resting}
sweep:
  grid: {params.width: {range: [4, 9, 4]}}
  sample:
    method: sobol
    n: 4
    space:
      params.wall_density: {uniform: [0.1, 0.5]}
      params.targets: {int: [1, 4]}
  replicates: 2
seed: 3
"""

TILTMAZE_EXHAUSTIVE_CONFIG = """
experiment: tiltmaze-4x4-part
kernel: tiltmaze
driver: exhaustive
params: {width: 4, height: 4, pairs: true}
exhaustive: {begin: 5000000, end: 6048576, chunk: 50000}
seed: 14
"""

# Every puzzle with numbers up to 30, two moves, in uneven chunks.
MATCHSTICK_CONFIG = """
experiment: matchstick-small
kernel: matchstick
driver: exhaustive
params: {max_value: 30, moves: 2}
exhaustive: {chunk: 7001}
seed: 15
"""


class ConfigTest(TempDirTest):
    def config(self, text, name="config.yaml"):
        return self.write(text, name)

    def check_config(self, config, expected_datasets, overrides=(), rank_counts=(2, 3),
                     over_tcp=(3,)):
        """Runs `config` alone and on each of `rank_counts` (those in `over_tcp` over TCP
        without hardware atomics, the others over Open MPI's default, shared memory) and
        asserts identical result datasets; returns the single process's."""
        files = {}
        name = os.path.splitext(os.path.basename(config))[0]
        for ranks in (None, *rank_counts):
            out = self.path(f"{name}-{ranks}.h5")
            self.assert_ok(levelforge("run", config, "-o", out, "-q", *overrides, ranks=ranks,
                                      transport=TCP_TRANSPORT if ranks in over_tcp else ()))
            files[ranks] = result_datasets(out)
        reference = files[None]
        for name in expected_datasets:
            self.assertIn(name, reference)
        for ranks in rank_counts:
            self.assertEqual(sorted(files[ranks]), sorted(reference))
            for name, data in reference.items():
                other = files[ranks][name]
                self.assertEqual(data.dtype, other.dtype, name)
                self.assertEqual(data.tobytes(), other.tobytes(), f"{name} differs on {ranks} ranks")
        return reference


class Determinism(ConfigTest):
    """The same config gives identical result datasets on 1 (no mpiexec), 2 (shared memory)
    and 3 ranks (TCP, one-sided operations by messages: a network without hardware atomics)."""

    def check(self, text, expected_datasets):
        return self.check_config(self.config(text), expected_datasets)

    def test_ga(self):
        data = self.check(GA_CONFIG, ["/ga/history", "/ga/best", "/ga/best_genomes", "/tasks", "/points"])
        self.assertEqual(data["/ga/history"].shape, (4, 25))
        self.assertTrue(np.all(np.diff(data["/ga/history"]["best"], axis=1) >= 0), "elitism keeps the best")

    def test_match3_ga_with_validation_and_levels(self):
        data = self.check(MATCH3_CONFIG, ["/ga/history", "/ga/validation", "/ga/best_levels"])
        self.assertEqual(data["/ga/best_levels"].shape, (2, 2, 10, 5))
        levels = data["/ga/best_levels"]
        self.assertTrue(np.all((levels < 5) | (levels == 255)), "colors or empty")

    def test_sweep(self):
        data = self.check(SWEEP_CONFIG, ["/sweep/records", "/tasks"])
        self.assertEqual(data["/sweep/records"].shape, (27,))

    def test_exhaustive(self):
        data = self.check(EXHAUSTIVE_CONFIG, ["/exhaustive/counts", "/exhaustive/solutions",
                                              "/exhaustive/top/longest", "/exhaustive/histograms/steps"])
        self.assertEqual(list(data["/exhaustive/counts"]["visited"]), [60000, 60000])
        solutions = data["/exhaustive/solutions"]
        self.assertTrue(np.all(solutions["steps"] >= 250))
        order = np.lexsort((solutions["index"], solutions["task"]))
        self.assertTrue(np.array_equal(order, np.arange(len(solutions))), "ordered by task, index")

    def test_tiltmaze_ga(self):
        data = self.check(TILTMAZE_GA_CONFIG, ["/ga/history", "/ga/best", "/ga/best_levels"])
        levels = data["/ga/best_levels"]
        self.assertEqual(levels.shape, (4, 1, 13, 13))
        self.assertTrue(np.all(levels[:, :, 0, 0::2] == ord("+")), "the drawing's corners")
        self.assertTrue(np.all(data["/ga/best"]["fitness"] <= 0))

    def test_island_ga(self):
        """The shipped island config, smaller: islands of 4 to 64 individuals (several islands
        per rank, and ranks per island in a group of 2 or 3), on 1, 2, 3 and 7 ranks."""
        overrides = ["--set", "ga.population=64", "--set", "ga.generations=12",
                     "--set", "ga.migration.every=3", "--set", "ga.migration.topology=random",
                     "--set", "sweep.replicates=1"]
        data = self.check_config(os.path.join(REPO, "configs", "tiltmaze_islands.yaml"),
                                 ["/ga/island_history", "/ga/island_best", "/ga/migrations"],
                                 overrides, rank_counts=(2, 3, 7))
        islands = data["/ga/island_history"]
        self.assertEqual(islands.shape, (3, 12, 16))
        # Points of 1, 4 and 16 islands: the rest of each block is missing.
        self.assertEqual(list((islands["island"] >= 0).sum(axis=(1, 2))), [12 * 1, 12 * 4, 12 * 16])
        migrations = data["/ga/migrations"]
        # After generations 3, 6 and 9: 4 islands x 2 migrants, 16 x 2; none with one island.
        self.assertEqual(list((migrations["generation"] >= 0).sum(axis=1)), [0, 3 * 4 * 2, 3 * 16 * 2])
        valid = migrations[2][migrations[2]["generation"] >= 0]
        self.assertTrue(np.all(valid["generation"] % 3 == 0))
        self.assertTrue(np.all(valid["from"] != valid["to"]))
        self.assertTrue(np.all(valid["source"] // 4 == valid["from"]), "islands of 4")
        self.assertTrue(np.all(valid["target"] // 4 == valid["to"]))
        best = data["/ga/history"]["best"]
        island_best = np.where(islands["island"] >= 0, islands["best"], -np.inf).max(axis=2)
        self.assertTrue(np.array_equal(best, island_best), "the task's best is its best island's")

    def test_island_ga_ending_before_its_first_migration(self):
        """Tasks that end before the first migration (3 generations, migration every 10): the
        run completes with an empty ga/migrations block, not an error once all work is done."""
        data = self.check_config(os.path.join(REPO, "configs", "tiltmaze_islands.yaml"),
                                 ["/ga/migrations"], ["--set", "ga.population=64",
                                                      "--set", "ga.generations=3",
                                                      "--set", "sweep.replicates=1"],
                                 rank_counts=(2,), over_tcp=())
        self.assertEqual(data["/ga/migrations"].shape, (3, 0))
        self.assertEqual(data["/ga/island_history"].shape[:2], (3, 3))

    def test_qd(self):
        data = self.check(QD_CONFIG, ["/qd/history", "/qd/archive", "/qd/archive_genomes",
                                      "/qd/measure_bins"])
        archive = data["/qd/archive"]
        self.assertEqual(archive.shape, (4, 25))
        self.assertEqual(data["/qd/measure_bins"].tolist(), [[3, 3], [5, 5]])
        # Points of 9 cells: the other 16 rows of their block are padding.
        self.assertTrue(np.all(archive["cell"][:2, 9:] == -1))
        self.assertEqual(archive["cell"][2:].tolist(), [list(range(25))] * 2)
        history = data["/qd/history"]
        self.assertEqual(history.shape, (4, 7))
        self.assertEqual(history["evaluations"][:, -1].tolist(), [30 + 6 * 20] * 4)
        self.assertTrue(np.all(np.diff(history["occupied"], axis=1) >= 0), "cells are never lost")
        self.assertEqual(history["occupied"][:, -1].tolist(), (archive["occupied"] == 1).sum(axis=1).tolist())
        filled = archive[archive["occupied"] == 1]
        # OneMax's fitness is the mean of its two halves (12 bits each).
        self.assertTrue(np.allclose(filled["fitness"],
                                    (filled["measure_first_half"] + filled["measure_second_half"]) / 2))

    def test_shipped_qd_configs(self):
        """configs/tiltmaze_qd.yaml and configs/match3_qd.yaml, shortened, with a validated
        archive and levels, identical on 1, 2 and 3 ranks; configs/tiltmaze_qd_archives.yaml
        (grid, CVT and novelty) on 7 too."""
        tiltmaze = self.check_config(os.path.join(REPO, "configs", "tiltmaze_qd.yaml"),
                                     ["/qd/archive", "/qd/archive_levels"],
                                     ["--set", "qd.iterations=15", "--set", "sweep.replicates=2"])
        self.assertEqual(tiltmaze["/qd/archive"].shape, (2, 256))
        # The three archives on the game: a novelty archive's entries are its first cells.
        archives = self.check_config(os.path.join(REPO, "configs", "tiltmaze_qd_archives.yaml"),
                                     ["/qd/archive", "/qd/centroids"],
                                     ["--set", "qd.iterations=10", "--set", "sweep.replicates=1",
                                      "--set", "qd.cvt_samples=2560"], rank_counts=(2, 3, 7))
        self.assertEqual(archives["/qd/cells"].tolist(), [256] * 3)
        self.assertEqual(archives["/qd/measure_bins"].tolist(), [[16, 16], [0, 0], [0, 0]])
        self.assertTrue(np.all(np.isnan(archives["/qd/centroids"][[0, 2]])))
        entries = archives["/qd/archive"]["occupied"][2] == 1
        self.assertGreater(entries.sum(), 20)
        self.assertEqual(np.flatnonzero(entries).tolist(), list(range(entries.sum())))
        match3 = self.check_config(os.path.join(REPO, "configs", "match3_qd.yaml"),
                                   ["/qd/archive", "/qd/validation", "/qd/archive_levels"],
                                   ["--set", "qd.iterations=3", "--set", "qd.batch=30",
                                    "--set", "params.validation_playouts=100",
                                    "--set", "sweep.replicates=1"])
        occupied = match3["/qd/archive"]["occupied"] == 1
        self.assertTrue(np.all(np.isfinite(match3["/qd/validation"]["validated_mean"][occupied])))
        self.assertTrue(np.all(np.isnan(match3["/qd/validation"]["validated_mean"][~occupied])))

    def test_cma_es_reaches_the_spheres_optimum(self):
        """configs/sphere_es.yaml (the ga driver breeding by CMA-ES), identical on 1, 2, 3 and
        7 ranks: every replicate stops within 1e-8 of the optimum in under 4,000 evaluations,
        Hansen's usual count for 20 dimensions, its genome within 1e-4 of x_i = 2.048."""
        data = self.check_config(os.path.join(REPO, "configs", "sphere_es.yaml"),
                                 ["/ga/best", "/ga/best_genomes"], ["--set", "sweep.replicates=3"],
                                 rank_counts=(2, 3, 7))
        best = data["/ga/best"][:, 0]
        self.assertTrue(np.all(best["sphere"] < 1e-8), best["sphere"])
        self.assertTrue(np.all(data["/tasks"]["units"] < 4000), data["/tasks"]["units"])
        genomes = data["/ga/best_genomes"][:, 0]
        self.assertEqual(genomes.dtype, np.float64)
        self.assertTrue(np.all(np.abs(genomes - 2.048) < 1e-4))

    def test_nsga2_fronts_on_zdt_and_tilt_mazes(self):
        """configs/zdt_nsga2.yaml (on 1, 2, 3 and 7 ranks: on 7, groups of 2 and 3 ranks breed
        one population) and configs/tiltmaze_nsga2.yaml (on 1 and 3), shortened, identical on
        every rank count. From the file alone: the final population (ga/best, every individual
        kept) gives the last recorded front by brute-force dominance and its hypervolume by a
        sweep, and ZDT's f1 and f2 follow from the stored genomes."""
        data = self.check_config(os.path.join(REPO, "configs", "zdt_nsga2.yaml"),
                                 ["/ga/pareto_history", "/ga/fronts", "/ga/objective_reference"],
                                 ["--set", "ga.population=20", "--set", "ga.generations=30",
                                  "--set", "ga.keep_best=20", "--set", "sweep.replicates=1"],
                                 rank_counts=(2, 3, 7))
        self.assertEqual(data["/ga/fronts"].shape, (3, 30, 20, 2))
        self.assertEqual(data["/ga/objective_reference"].tolist(), [[1.1, 1.1]] * 3)
        for task, problem in enumerate((1, 2, 3)):
            population = data["/ga/best"][task]
            genomes = data["/ga/best_genomes"][task]
            g = 1 + 9 * genomes[:, 1:].sum(axis=1) / 29
            ratio = genomes[:, 0] / g
            h = {1: 1 - np.sqrt(ratio), 2: 1 - ratio ** 2,
                 3: 1 - np.sqrt(ratio) - ratio * np.sin(10 * np.pi * genomes[:, 0])}[problem]
            self.assertTrue(np.allclose(population["f1"], genomes[:, 0]))
            self.assertTrue(np.allclose(population["f2"], g * h))
            points = np.stack([population["f1"], population["f2"]], axis=1)
            dominated = [any(np.all(q <= p) and np.any(q < p) for q in points) for p in points]
            front = points[~np.array(dominated)]
            recorded = data["/ga/fronts"][task, -1]
            recorded = recorded[~np.isnan(recorded[:, 0])]
            self.assertEqual(sorted(map(tuple, recorded)), sorted(map(tuple, front)))
            inside = front[np.all(front < 1.1, axis=1)]  # the others add no volume
            order = np.argsort(inside[:, 0])
            widths = np.diff(np.append(inside[order, 0], 1.1))
            heights = 1.1 - np.minimum.accumulate(inside[order, 1])
            history = data["/ga/pareto_history"][task]
            self.assertAlmostEqual(history["hypervolume"][-1], float(np.sum(widths * heights)), places=12)
            self.assertEqual(history["front_size"][-1], len(front))
            self.assertEqual(history["evaluations"].tolist(), [20 * (k + 1) for k in range(30)])
        mazes = self.check_config(os.path.join(REPO, "configs", "tiltmaze_nsga2.yaml"),
                                  ["/ga/pareto_history", "/ga/fronts"],
                                  ["--set", "ga.population=12", "--set", "ga.generations=6",
                                   "--set", "sweep.replicates=1"], rank_counts=(3,))
        # Both breedings of a kernel with objectives record fronts.
        self.assertTrue(np.all(mazes["/ga/pareto_history"]["front_size"] >= 1))

    def test_real_genome_searches_on_a_game(self):
        """configs/spawn_es.yaml and configs/spawn_emitters.yaml, shortened: CMA-ES and the
        four QD emitters (and a schedule of two kinds) on the spawn kernel's real genome,
        identical on 1, 2 and 3 ranks (CMA-ES) and on 1, 3 and 7 (the emitters), its genes
        float64 within their bounds and exactly what the evaluation decoded."""
        es = self.check_config(os.path.join(REPO, "configs", "spawn_es.yaml"), ["/ga/best_genomes"],
                               ["--set", "params.runs=10", "--set", "params.validation_runs=20",
                                "--set", "ga.generations=4", "--set", "sweep.replicates=1"])
        genomes = es["/ga/best_genomes"][:, 0]
        self.assertEqual(genomes.dtype, np.float64)
        self.assertTrue(np.all((genomes[:, 0] >= 0) & (genomes[:, 0] <= 100)))
        self.assertTrue(np.all((genomes[:, 1:] >= 0) & (genomes[:, 1:] <= 1)))
        self.assertTrue(np.array_equal(es["/ga/best"][:, 0]["weight_increment"], genomes[:, 0]))
        qd = self.check_config(os.path.join(REPO, "configs", "spawn_emitters.yaml"), ["/qd/archive"],
                               ["--set", "params.runs=10", "--set", "params.validation_runs=20",
                                "--set", "qd.iterations=6", "--set", "sweep.replicates=1"],
                               rank_counts=(3, 7))
        self.assertEqual(qd["/qd/history"]["evaluations"][:, -1].tolist(), [50 + 6 * 20] * 5)
        archive = qd["/qd/archive"]
        genomes = qd["/qd/archive_genomes"]
        occupied = archive["occupied"] == 1
        self.assertTrue(np.array_equal(archive["decay"][occupied], genomes[occupied][:, 1]))

    def test_sphere_qd_real_genomes(self):
        """configs/sphere_qd.yaml, shortened, over a grid and CVT cells, by Gaussian mutation
        and Iso+LineDD: a real genome's genes are float64 in the file (NaN in an empty cell)
        and are exactly the genes evaluated, by the sphere's formulas computed here again from
        them; the CVT points' centroids are in the file, and each elite's cell is the centroid
        nearest its measures."""
        data = self.check_config(os.path.join(REPO, "configs", "sphere_qd.yaml"),
                                 ["/qd/archive", "/qd/archive_genomes", "/qd/centroids", "/qd/cells"],
                                 ["--set", "qd.iterations=10", "--set", "sweep.replicates=2",
                                  "--set", "qd.cvt_samples=25000"])
        genomes = data["/qd/archive_genomes"]
        self.assertEqual(genomes.dtype, np.float64)
        self.assertEqual(genomes.shape, (8, 2500, 20))
        self.assertEqual(data["/qd/cells"].tolist(), [2500] * 4)
        self.assertEqual(data["/qd/measure_bins"].tolist(), [[50, 50]] * 2 + [[0, 0]] * 2)
        centroids = data["/qd/centroids"]
        self.assertTrue(np.all(np.isnan(centroids[:2])))
        self.assertTrue(np.all(np.abs(centroids[2:]) <= 51.2))
        np.testing.assert_array_equal(centroids[2], centroids[3])  # one seed, one tessellation
        cvt = data["/qd/archive"][4:]  # tasks 4 to 7: the CVT points
        for task in cvt:
            filled = task[task["occupied"] == 1]
            measures = np.stack([filled["measure_projection_first"], filled["measure_projection_second"]], axis=1)
            distances = (((measures[:, None, :] - centroids[2][None, :, :]) / 102.4) ** 2).sum(axis=2)
            self.assertEqual(distances.argmin(axis=1).tolist(), filled["cell"].tolist())
        archive = data["/qd/archive"]
        occupied = archive["occupied"] == 1
        self.assertTrue(np.all(np.isnan(genomes[~occupied])))
        # The CMA emitters, shortened, identical on 1, 2, 3 and 7 ranks too.
        emitters = self.check_config(os.path.join(REPO, "configs", "sphere_emitters.yaml"), ["/qd/archive"],
                                     ["--set", "qd.iterations=30", "--set", "sweep.replicates=1"],
                                     rank_counts=(2, 3, 7))
        self.assertEqual(emitters["/qd/history"]["evaluations"][:, -1].tolist(), [100 + 30 * 180] * 4)
        filled, genes = archive[occupied], genomes[occupied]
        self.assertGreater(len(filled), 200)
        self.assertTrue(np.all(np.abs(genes) <= 10.24))
        sphere = ((genes - 2.048) ** 2).sum(axis=1)
        np.testing.assert_allclose(filled["sphere"], sphere, rtol=1e-12)
        np.testing.assert_allclose(filled["fitness"], 100 * (1 - sphere / (20 * 7.168 ** 2)), rtol=1e-12)
        folded = np.where(np.abs(genes) <= 5.12, genes, 5.12 / genes)
        np.testing.assert_allclose(filled["measure_projection_first"], folded[:, :10].sum(axis=1), atol=1e-12)
        np.testing.assert_allclose(filled["measure_projection_second"], folded[:, 10:].sum(axis=1), atol=1e-12)

    def test_tiltmaze_sweep(self):
        data = self.check(TILTMAZE_SWEEP_CONFIG, ["/sweep/records"])
        records = data["/sweep/records"]
        self.assertEqual(records.shape, (24,))
        self.assertTrue(np.all(records["maze"] != b""))
        self.assertTrue(np.all((records["length"] >= 0) == (records["solvable"] == 1)))

    def test_sampled_sweep(self):
        data = self.check(SAMPLED_SWEEP_CONFIG, ["/sweep/records", "/points"])
        points = data["/points"]
        self.assertEqual(list(points["params.width"]), [4] * 4 + [8] * 4)
        # The two-dimensional Sobol points (0.5, 0.5), (0.75, 0.25), (0.25, 0.75),
        # (0.375, 0.375) mapped by hand onto [0.1, 0.5) and 1..4.
        sobol = [(0.5, 0.5), (0.75, 0.25), (0.25, 0.75), (0.375, 0.375)]
        self.assertEqual(list(points["params.wall_density"]), [0.1 + u * (0.5 - 0.1) for u, _ in sobol] * 2)
        self.assertEqual(list(points["params.targets"]), [1 + int(v * 4) for _, v in sobol] * 2)
        self.assertEqual(data["/sweep/records"].shape, (16,))

    def test_tiltmaze_exhaustive(self):
        data = self.check(TILTMAZE_EXHAUSTIVE_CONFIG,
                          ["/exhaustive/counts", "/exhaustive/top/hardest", "/exhaustive/top/hardest_pair",
                           "/exhaustive/histograms/distance", "/exhaustive/histograms/pair_length"])
        self.assertEqual(list(data["/exhaustive/counts"]["evaluated"]), [1 << 20])
        self.assertEqual(int(data["/exhaustive/histograms/distance"].sum()), 1 << 20)
        hardest = data["/exhaustive/top/hardest"][0]
        self.assertEqual(len(hardest), 100)
        self.assertTrue(np.all((hardest["config"] >= 5000000) & (hardest["config"] < 6048576)))
        self.assertTrue(np.all(np.diff(hardest["distance"]) <= 0), "hardest first")

    def test_matchstick_exhaustive(self):
        data = self.check(MATCHSTICK_CONFIG, ["/exhaustive/counts", "/exhaustive/solutions",
                                              "/exhaustive/top/good_puzzles",
                                              "/exhaustive/histograms/solution_count"])
        counts = data["/exhaustive/counts"][0]
        self.assertEqual(counts["puzzles"], 31 ** 3 * 2)
        self.assertEqual(len(data["/exhaustive/solutions"]), counts["solutions"])
        good = data["/exhaustive/top/good_puzzles"][0]
        self.assertTrue(np.all(np.diff(good["difficulty"]) <= 0), "hardest first")
        # The records are built by the rank that writes them, from each row's index
        # (((A 31 + B) 31 + C) 2 + op): each is its own puzzle's and has its row's score.
        good = good[good["index"] >= 0]
        self.assertEqual(len(good), min(counts["good"], 1000))
        for row in good:
            rest, op = divmod(int(row["index"]), 2)
            rest, c = divmod(rest, 31)
            a, b = divmod(rest, 31)
            self.assertEqual(row["puzzle"].decode(), f"{a}{'+-'[op]}{b}={c}")
            self.assertEqual(row["difficulty"], row["score"])


REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Transports(ConfigTest):
    """Each driver gives the datasets of 1 rank on 16 or 32 ranks over TCP without hardware
    atomics (8 and 16 ranks per core here); where no window can be made (osc/pt2pt) the
    default work queue is the server, which answers whatever the transport and says so in
    the provenance; its host and claim policy, and which ranks write the file, change
    nothing."""

    def check(self, text, expected_datasets, ranks, overrides=()):
        return self.check_config(self.config(text), expected_datasets, overrides,
                                 rank_counts=(ranks,), over_tcp=(ranks,))

    def test_ga_in_groups_on_16(self):
        self.check(GA_CONFIG, ["/ga/history"], 16, ["--set", "ga.ranks_per_task=3"])

    def test_qd_on_16(self):
        self.check(QD_CONFIG, ["/qd/archive"], 16)

    def test_sweep_on_32_and_its_provenance(self):
        self.check(SWEEP_CONFIG, ["/sweep/records"], 32)
        with h5py.File(self.path("config-32.h5"), "r") as f:
            self.assertIn("server thread on rank 0", f.attrs["work_queue"])
            self.assertEqual(f.attrs["work_queue_claims"], "guided")
            self.assertEqual(f.attrs["mpi_thread_level"], "multiple")
            self.assertIn(f.attrs["simd_isa"], ("portable", "avx2", "avx512"))
            self.assertNotIn("kernel_simd", f.attrs)  # the sweep's kernel has no SIMD path
            self.assertIn("MPI", f.attrs["mpi_library"])
            self.assertEqual(f.attrs["ranks"], 32)
            self.assertEqual(f.attrs["ranks_per_writer"], "node")
            self.assertEqual(f.attrs["output_writers"], 1)  # one host

    def test_exhaustive_on_32(self):
        self.check(EXHAUSTIVE_CONFIG, ["/exhaustive/solutions"], 32)

    def test_the_launch_options_change_nothing(self):
        """One item per request, guided batches on the server (the default on one node is the
        one-sided window), every rank writing, and two writers of which one writes for two
        ranks."""
        references = {}
        for text, options, writers in ((EXHAUSTIVE_CONFIG, ("--claims", "single"), 1),
                                       (EXHAUSTIVE_CONFIG, ("--work-queue", "server"), 1),
                                       (EXHAUSTIVE_CONFIG, ("--ranks-per-writer", "1"), 3),
                                       (QD_CONFIG, ("--ranks-per-writer", "2"), 2)):
            config = self.config(text)
            if text not in references:
                references[text] = self.run_to(config, (), None, f"alone-{len(references)}.h5")
            reference = references[text]
            out = self.path(f"{options[1]}.h5")
            self.assert_ok(levelforge("run", config, "-o", out, "-q", *options, ranks=3))
            self.assert_same_results(reference, out)
            with h5py.File(out, "r") as f:
                self.assertIn(options[1], f.attrs["work_queue_claims"] + f.attrs["work_queue"]
                              + f.attrs["ranks_per_writer"])
                self.assertEqual(f.attrs["output_writers"], writers)

    def test_a_bad_writer_count_is_refused(self):
        result = levelforge("run", self.config(EXHAUSTIVE_CONFIG), "-o", self.path("bad.h5"),
                            "--ranks-per-writer", "0")
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("--ranks-per-writer", result.stderr)
        self.assertIn("'0'", result.stderr)
        self.assertFalse(os.path.exists(self.path("bad.h5")))


class Experiments(ConfigTest):
    """The shipped experiments run end to end and meet their bar."""

    def test_match3_paper_targets_are_met(self):
        out = self.path("paper.h5")
        self.assert_ok(levelforge("run", os.path.join(REPO, "configs", "match3_paper.yaml"),
                                  "-o", out, "-q", ranks=2, timeout=600))
        with h5py.File(out, "r") as f:
            best = f["ga/validation"][:, 0]
            targets = f["points"]["params.target"]
            replicates = int(f.attrs["replicates"])
            self.assertEqual(f["ga/best_levels"].shape[2:], (10, 5))
            # Scored per wave: the bitboard kernel, on any CPU.
            self.assertEqual(f.attrs["kernel_simd"], "bitboard playouts (no SIMD lanes)")
        # Table 1: score mean / std of the paper's boards for targets 0.70, 0.63, 0.57.
        paper = {0.70: (17.2, 4.31), 0.63: (16.8, 5.59), 0.57: (16.0, 5.95)}
        medians = []
        for point, target in enumerate(targets):
            boards = best[point * replicates:(point + 1) * replicates]
            median = float(np.median(boards["validated_p_normal"]))
            self.assertLess(abs(median - target), 0.02, f"target {target}: median validated p {median}")
            # The replicate whose validated mean is the median of its target's.
            middle = boards[np.argsort(boards["validated_mean"])[replicates // 2]]
            mean, std = paper[round(float(target), 2)]
            self.assertLess(abs(middle["validated_mean"] - mean), 3, f"target {target}: {middle}")
            self.assertLess(max(middle["validated_std"] / std, std / middle["validated_std"]), 1.5,
                            f"target {target}: {middle}")
            medians.append(middle["validated_mean"])
        # The paper's difficulty order: the lower the target, the lower the mean score.
        self.assertEqual(medians, sorted(medians, reverse=True))

    def test_match3_sweep_reaches_its_targets(self):
        out = self.path("sweep.h5")
        self.assert_ok(levelforge("run", os.path.join(REPO, "configs", "match3_sweep.yaml"),
                                  "-o", out, "-q", ranks=2, timeout=600))
        with h5py.File(out, "r") as f:
            best = f["ga/history"]["best"]
            self.assertEqual(best.shape[0], 108)
            self.assertTrue(np.all(best.max(axis=1) >= 0.99), "every task reaches fitness 0.99")

    def run_config(self, name, timeout=600):
        out = self.path(name.replace(".yaml", ".h5"))
        self.assert_ok(levelforge("run", os.path.join(REPO, "configs", name), "-o", out, "-q",
                                  ranks=2, timeout=timeout))
        return out

    def test_tiltmaze_sweep(self):
        with h5py.File(self.run_config("tiltmaze_sweep.yaml"), "r") as f:
            records = f["sweep/records"][()]
            points = f["points"][()]
            replicates = int(f.attrs["replicates"])
        self.assertEqual(len(records), 144 * 200)
        self.assertTrue(np.all((records["length"] >= 0) == (records["solvable"] == 1)))
        # No target is on the start, so a solvable maze with targets needs a tilt; a maze
        # whose ball cannot move gets no resting-placed target at all.
        solvable = records[records["solvable"] == 1]
        self.assertTrue(np.all((solvable["length"] >= 1) == (solvable["targets"] >= 1)))
        self.assertTrue(np.all(records["components"] <= records["resting"]))
        for point, values in enumerate(points):
            rows = records[point * replicates:(point + 1) * replicates]
            if values["params.placement"] == b"resting" and values["params.targets"] == 1:
                # One target where the ball can rest: always reachable, in either mode.
                self.assertTrue(np.all(rows["solvable"] == 1), values)

    def test_sphere_emitters_rank_as_the_papers(self):
        """configs/sphere_emitters.yaml with 2 replicates: at equal budgets CMA-MAE's final QD
        score is above CMA-ME's and CMA-ME's above MAP-Elites', as Fontaine et al. 2020 and
        Fontaine & Nikolaidis 2023 report on this benchmark (at full size: bench/RESULTS.md)."""
        out = self.path("emitters.h5")
        self.assert_ok(levelforge("run", os.path.join(REPO, "configs", "sphere_emitters.yaml"),
                                  "-o", out, "-q", "--set", "sweep.replicates=2", ranks=2,
                                  timeout=600))
        with h5py.File(out, "r") as f:
            final = f["qd/history"][:, -1]
            emitters = [e.decode() for e in f["points"]["qd.emitter"]]
            self.assertEqual(f["qd/archive_genomes"].dtype, np.float64)
        self.assertEqual(final["evaluations"].tolist(), [540_100] * 8)
        score = {emitter: final["qd_score"][2 * p:2 * p + 2].mean() for p, emitter in enumerate(emitters)}
        self.assertGreater(score["cma_mae"], score["cma_me"], score)
        self.assertGreater(score["cma_me"], score["kernel"], score)
        self.assertGreater(score["cma_me"], score["iso_line"], score)

    def test_tiltmaze_ga_reaches_each_length(self):
        with h5py.File(self.run_config("tiltmaze_ga.yaml"), "r") as f:
            best = f["ga/best"][:, 0]
            lengths = f["points"]["params.target_length"]
            replicates = int(f.attrs["replicates"])
        self.assertTrue(np.all(best["solvable"] == 1))
        for point, wanted in enumerate(lengths):
            found = best["length"][point * replicates:(point + 1) * replicates]
            if wanted <= 30:
                self.assertTrue(np.all(found == wanted), f"length {wanted}: found {found}")
            self.assertTrue(np.all(best["fitness"][point * replicates:(point + 1) * replicates]
                                   == -np.abs(found - wanted)))

    def test_tiltmaze_4x4_exhaustive(self):
        out = self.run_config("tiltmaze_4x4_exhaustive.yaml")
        with h5py.File(out, "r") as f:
            counts = f["exhaustive/counts"][0]
            distance = f["exhaustive/histograms/distance"][0]
            hardest = f["exhaustive/top/hardest"][0]
        self.assertEqual((counts["evaluated"], counts["self_symmetric"]), (1 << 24, 1 << 12))
        self.assertEqual(int(distance.sum()), 1 << 24)
        largest = int(np.nonzero(distance)[0].max()) - 1  # bin 0 is the underflow
        self.assertEqual(int(hardest["distance"][0]), largest)
        self.assertEqual(len(hardest), 100)
        with h5py.File(out, "r") as f:
            isa = f.attrs["simd_isa"]
            self.assertIn(isa, ("portable", "avx2", "avx512"))
            # Counted in the bit planes: always on AVX2, on AVX-512 where it has VPOPCNTDQ.
            planes = {"portable": ("",), "avx2": (", histograms in the bit planes (popcnt)",),
                      "avx512": ("", ", histograms in the bit planes (vpopcntdq)")}[isa]
            self.assertIn(f.attrs["kernel_simd"],
                          [f"4 x 4 exhaustive summaries, {isa}{counted}" for counted in planes])
            self.assertEqual([v.decode() for v in f["ranks"]["simd_isa"]], [isa] * f.attrs["ranks"])
        # The stored maze, drawn and solved again by the solve command.
        drawn = levelforge("maze", out, "/exhaustive/top/hardest")
        self.assert_ok(drawn)
        solved = levelforge("solve", "tiltmaze", "-", "--json", stdin=drawn.stdout)
        self.assert_ok(solved)
        self.assertEqual(json.loads(solved.stdout)["length"], largest)

    def test_tiltmaze_4x4_pairs_once_up_to_reflection(self):
        with h5py.File(self.run_config("tiltmaze_4x4_pairs.yaml"), "r") as f:
            counts = f["exhaustive/counts"][0]
            lengths = f["exhaustive/histograms/pair_length"][0]
            hardest = f["exhaustive/top/hardest_pair"][0]
        self.assertEqual((counts["evaluated"], counts["configurations"], counts["self_symmetric"]),
                         ((1 << 23) + (1 << 11), 1 << 24, 1 << 12))
        self.assertEqual(int(lengths.sum()), counts["evaluated"])
        self.assertEqual(int(hardest["length"][0]), int(np.nonzero(lengths)[0].max()) - 1)
        self.assertTrue(np.all(hardest["first"] < hardest["second"]))

    def test_matchstick_2digit(self):
        with h5py.File(self.run_config("matchstick_2digit.yaml"), "r") as f:
            counts = f["exhaustive/counts"][0]
            solutions = f["exhaustive/solutions"][()]
            good = f["exhaustive/top/good_puzzles"][0]
            histogram = f["exhaustive/histograms/solution_count"][0]
        # A + B = C and A - B = C with all three in 0..99: 5050 each.
        self.assertEqual((counts["puzzles"], counts["true_puzzles"]), (2_000_000, 10_100))
        self.assertEqual(len(solutions), counts["solutions"])
        self.assertEqual(int(histogram.sum()), 2_000_000)
        single = solutions[(solutions["puzzle_solutions"] == 1) & (solutions["puzzle_true"] == 0)]
        self.assertEqual(len(single), counts["good"])
        self.assertEqual(len(good), 1000)
        self.assertTrue(np.all(np.diff(good["difficulty"]) <= 0), "hardest first")
        by_puzzle = dict(zip(single["puzzle"], single["solution"]))
        for row in good:
            self.assertEqual(by_puzzle[row["puzzle"]], row["solution"])
        self.assertTrue(np.all(solutions["distance"] == 1))

    def test_matchstick_2digit_two_moves(self):
        with h5py.File(self.run_config("matchstick_2digit_k2.yaml"), "r") as f:
            counts = f["exhaustive/counts"][0]
            distances = f["exhaustive/solutions"]["distance"]
        self.assertEqual(counts["puzzles"], 2_000_000)
        self.assertEqual(len(distances), counts["solutions"])
        self.assertEqual(set(np.unique(distances)), {1, 2})


class Run(ConfigTest):
    def test_writes_provenance_and_refuses_to_overwrite(self):
        config = self.config(GA_CONFIG)
        out = self.path("out.h5")
        self.assert_ok(levelforge("run", config, "-o", out, "-q", ranks=2))
        with h5py.File(out, "r") as f:
            self.assertEqual(f.attrs["complete"], 1)
            self.assertEqual(f.attrs["ranks"], 2)
            self.assertEqual(f.attrs["kernel"], "onemax")
            self.assertEqual(f.attrs["seed"], 7)
            self.assertIn("population: 50", f.attrs["config"])
            self.assertIn(f"output: {out}", f.attrs["config"], "-o is recorded as an override")
            self.assertTrue(f.attrs["start_time"].endswith("Z"))
            self.assertGreaterEqual(len(f.attrs["hosts"]), 1)
            self.assertEqual(list(f["tasks"]["status"]), [1, 1, 1, 1])
        before = os.stat(out).st_mtime_ns
        refused = levelforge("run", config, "-o", out, "-q", ranks=2)
        self.assertEqual(refused.returncode, 2)
        self.assertIn("already exists (the complete result of this run); pass --force", refused.stderr)
        self.assertEqual(refused.stderr.count("already exists"), 1, "reported once, by rank 0")
        self.assertEqual(os.stat(out).st_mtime_ns, before)
        self.assert_ok(levelforge("run", config, "-o", out, "-q", "--force", ranks=2))
        self.assertNotEqual(os.stat(out).st_mtime_ns, before)

    def test_set_overrides_reach_the_run_and_the_provenance(self):
        config = self.config(GA_CONFIG)
        out = self.path("over.h5")
        self.assert_ok(levelforge("run", config, "-o", out, "-q", "--set", "ga.generations=7",
                                  "--set", "sweep.grid.params.length=[8, 9, 10]"))
        with h5py.File(out, "r") as f:
            self.assertEqual(f["ga/history"].shape, (6, 7))
            self.assertEqual(list(f["points"]["params.length"]), [8, 9, 10])
            self.assertIn("generations: 7", f.attrs["config"])

    def test_config_output_key_and_summary(self):
        out = self.path("sub/dir/named.h5")
        config = self.config(SWEEP_CONFIG + f"\noutput: {out}\n")
        result = levelforge("run", config, ranks=2)
        self.assert_ok(result)
        self.assertTrue(os.path.exists(out))
        self.assertIn(f"results: {out}", result.stdout)
        self.assertIn("27 tasks", result.stdout)

    def test_progress_lines_when_not_a_terminal(self):
        config = self.config(SWEEP_CONFIG)
        result = levelforge("run", config, "--no-output", "--progress-interval", "0.01",
                            "--set", "params.cost_us=20000", "--set", "sweep.replicates=3")
        self.assert_ok(result)
        lines = [line for line in result.stderr.splitlines() if line.startswith("progress: ")]
        self.assertGreaterEqual(len(lines), 2)
        self.assertIn("9/9 tasks", lines[-1])
        self.assertIn("ETA", lines[-1])
        self.assertFalse(os.path.exists("results/sweep-small.h5"))

    def test_a_single_ga_task_reports_its_generations(self):
        # One task of 8 slow generations: progress comes per generation, not only at the end.
        config = self.config(GA_CONFIG.replace("  grid: {params.length: [20, 40]}\n  replicates: 2\n",
                                               "  replicates: 1\n"))
        result = levelforge("run", config, "--no-output", "--progress", "lines",
                            "--progress-interval", "0.001", "--set", "params.cost_us=3000",
                            "--set", "ga.population=10", "--set", "ga.generations=8")
        self.assert_ok(result)
        lines = [line for line in result.stderr.splitlines() if line.startswith("progress: ")]
        during = [line for line in lines if line.startswith("progress: 0/1 tasks")]
        self.assertGreaterEqual(len(during), 3, result.stderr)
        evals = [int(line.split()[3].split("/")[0]) for line in during]
        self.assertEqual(evals, sorted(evals))
        self.assertLess(evals[0], evals[-1])
        self.assertIn("1/1 tasks", lines[-1])

    def test_progress_styles(self):
        config = self.config(SWEEP_CONFIG)
        bar = levelforge("run", config, "--no-output", "--progress", "bar")
        self.assert_ok(bar)
        # Text mode reads the bar's carriage return as a line end.
        self.assertRegex(bar.stderr, r"\[#+\.*\] 27/27 tasks")
        self.assertNotIn("progress: ", bar.stderr)
        none = levelforge("run", config, "--no-output", "--progress", "none")
        self.assert_ok(none)
        self.assertNotIn("progress: ", none.stderr)
        self.assertNotRegex(none.stderr, r"\[[#.]+\]")
        wrong = levelforge("run", config, "--no-output", "--progress", "dots")
        self.assertEqual(wrong.returncode, 2, wrong.stderr)
        self.assertIn("--progress", wrong.stderr)


class Commands(ConfigTest):
    def test_validate_prints_the_expanded_sweep_and_defaults(self):
        result = levelforge("validate", self.config(GA_CONFIG))
        self.assert_ok(result)
        self.assertIn("2 points x 2 replicates = 4 tasks", result.stdout)
        self.assertIn("params.length=20", result.stdout)
        self.assertIn("tournament: 3", result.stdout)  # a default filled in
        self.assertIn("crossover_rate: 0.9", result.stdout)

    def test_kernels_lists_every_kernel_and_parameter(self):
        listing = levelforge("kernels")
        self.assert_ok(listing)
        for name, drivers in (("onemax", "ga, qd, sweep"), ("collatz", "sweep, exhaustive"),
                              ("faulty", "ga, sweep, exhaustive")):
            self.assertRegex(listing.stdout, rf"{name}\s+{drivers}")
        detail = levelforge("kernels", "collatz")
        self.assert_ok(detail)
        self.assertRegex(detail.stdout, r"count\s+int\s+1000000\s+\[1, 1000000000000\]")
        self.assertRegex(detail.stdout, r"solution_steps\s+int\s+400")
        self.assertIn("longest", detail.stdout)

    def test_kernels_unknown_name_suggests(self):
        result = levelforge("kernels", "colatz")
        self.assertEqual(result.returncode, 2)
        self.assertIn("did you mean 'collatz'", result.stderr)

    def test_inspect_shows_provenance_tasks_and_datasets(self):
        out = self.path("i.h5")
        self.assert_ok(levelforge("run", self.config(EXHAUSTIVE_CONFIG), "-o", out, "-q", ranks=2))
        result = levelforge("inspect", out)
        self.assert_ok(result)
        for text in ("experiment           collatz-small", "ranks                2", "tasks: 2 done, 0 pending",
                     "/exhaustive/solutions", "[2 x 1002] int64", "params.start"):
            self.assertIn(text, result.stdout)

    def test_inspect_summarizes_each_qd_point_over_its_replicates(self):
        """A qd run's final archive per point: coverage median (of two replicates, their mean),
        min and max, QD score and best fitness medians, iterations, from /qd/history's last
        rows as h5py reads them."""
        out = self.path("qd.h5")
        self.assert_ok(levelforge("run", self.config(QD_CONFIG), "-o", out, "-q"))
        result = levelforge("inspect", out, "--brief")
        self.assert_ok(result)
        lines = result.stdout.splitlines()
        start = lines.index("final archive per point (over replicates):")
        self.assertEqual(lines[start + 1].split(),
                         ["point", "coverage", "min", "max", "qd_score", "best", "iterations"])
        with h5py.File(out, "r") as f:
            final = f["qd/history"][:, -1]
        rows = [line.split() for line in lines[start + 2:start + 4]]
        for point, row in enumerate(rows):
            mine = final[2 * point:2 * point + 2]
            expected = [point, np.mean(mine["coverage"]), mine["coverage"].min(),
                        mine["coverage"].max(), np.mean(mine["qd_score"]), np.mean(mine["best"]), 6]
            self.assertEqual(int(row[0]), point)
            np.testing.assert_allclose([float(value) for value in row], expected, rtol=1e-5)
        self.assertTrue(any(final[field][2 * point] != final[field][2 * point + 1]
                            for field in ("coverage", "qd_score", "best") for point in (0, 1)),
                        "every median is of two equal values: the mean of two is not tested")

    def test_one_process_commands_start_no_mpi(self):
        """Alone, the commands that need no MPI never call MPI_Init: with a setting that makes
        MPI_Init fail (a transport that does not exist) they still work, and `run` fails."""
        env = dict(os.environ, OMPI_MCA_pml="no_such_transport")

        def alone(*args):
            return subprocess.run([LEVELFORGE, *args], capture_output=True, text=True, env=env, timeout=60)

        for args in (("kernels",), ("validate", self.config(GA_CONFIG)),
                     ("solve", "matchstick", "6+4=4"), ("--version",)):
            self.assert_ok(alone(*args))
        started = alone("run", self.config(GA_CONFIG), "-o", self.path("never.h5"), "-q")
        self.assertNotEqual(started.returncode, 0, "MPI_Init fails with that setting")
        self.assertFalse(os.path.exists(self.path("never.h5")))

    def test_version(self):
        result = levelforge("--version")
        self.assert_ok(result)
        self.assertRegex(result.stdout, r"levelforge \d+\.\d+\.\d+")
        self.assertRegex(result.stdout, r"simd: .*this CPU runs (portable|avx2|avx512)")
        self.assertIn("tiltmaze: 4 x 4 exhaustive summaries", result.stdout)


class BadInput(ConfigTest):
    def assert_refused(self, result, *fragments, code=2):
        self.assertEqual(result.returncode, code, result.stderr)
        for fragment in fragments:
            self.assertIn(fragment, result.stderr)
        self.assertEqual(os.listdir(self.dir), [name for name in os.listdir(self.dir) if not name.endswith(".h5")
                                                and not name.endswith(".partial")])

    def test_unknown_key_names_place_and_suggestion(self):
        config = self.config(GA_CONFIG.replace("elitism: 2", "elitsm: 2"))
        result = levelforge("run", config, "-o", self.path("x.h5"), ranks=2)
        self.assert_refused(result, f"{config}:6:", "unknown key 'elitsm'", "did you mean 'elitism'")
        self.assertEqual(result.stderr.count("unknown key"), 1)

    def test_out_of_range_and_wrong_type(self):
        config = self.config(GA_CONFIG.replace("population: 50", "population: 1"))
        self.assert_refused(levelforge("run", config, "-o", self.path("x.h5")), "ga.population", "out of range")
        config = self.config(GA_CONFIG.replace("population: 50", "population: many"))
        self.assert_refused(levelforge("run", config, "-o", self.path("x.h5")), "expected an int", "'many'")

    def test_bad_override_names_the_override(self):
        config = self.config(GA_CONFIG)
        result = levelforge("run", config, "-o", self.path("x.h5"), "--set", "ga.tournament=0")
        self.assert_refused(result, "--set ga.tournament=0", "out of range")

    def test_contradicting_settings(self):
        config = self.config(GA_CONFIG.replace("elitism: 2", "elitism: 50"))
        self.assert_refused(levelforge("run", config, "-o", self.path("x.h5")), "elitism", "population")

    def test_tiltmaze_exhaustive_other_than_4x4(self):
        config = self.config(TILTMAZE_EXHAUSTIVE_CONFIG.replace("width: 4", "width: 5"))
        self.assert_refused(levelforge("run", config, "-o", self.path("x.h5")), "point 0",
                            "enumerates 4 x 4 mazes", "got 5 x 4")

    def test_tiltmaze_more_targets_than_cells(self):
        config = self.config(TILTMAZE_SWEEP_CONFIG.replace("width: 7, height: 5", "width: 2, height: 2"))
        self.assert_refused(levelforge("run", config, "-o", self.path("x.h5")),
                            "targets 4 leaves no cell for the start on a 2 x 2 maze")

    def test_missing_config_file(self):
        self.assert_refused(levelforge("run", self.path("nope.yaml")), "nope.yaml", "does not exist")

    def test_yaml_syntax_error(self):
        config = self.config("experiment: x\nkernel: [onemax\n")
        self.assert_refused(levelforge("validate", config), f"{config}:")

    def test_billion_laughs_is_refused_at_once(self):
        # Nine anchors, each a list of nine aliases of the one before: 9^9 values expanded,
        # in under 1 KB. Counted, not expanded: refused in well under the timeout.
        lines = ["experiment: laughs", "kernel: onemax", "driver: ga", "sweep:", "  grid:",
                 "    params.length:", "      - &a [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
        for before, anchor in zip("abcdefgh", "bcdefghi"):
            lines.append(f"      - &{anchor} [{', '.join(['*' + before] * 9)}]")
        text = "\n".join(lines) + "\n"
        self.assertLess(len(text), 1024)
        config = self.config(text)
        refusal = (f"{config}:13:13: aliases expand the config past 1048576 nodes here: alias *f "
                   "stands for 597871")
        self.assert_refused(levelforge("validate", config, timeout=30), refusal)
        self.assert_refused(levelforge("run", config, "-o", self.path("x.h5"), timeout=30), refusal)

    def test_inspect_rejects_other_files(self):
        text = self.path("notes.txt")
        with open(text, "w") as out:
            out.write("not hdf5\n")
        result = levelforge("inspect", text)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("is not an HDF5 file", result.stderr)
        missing = levelforge("inspect", self.path("missing.h5"))
        self.assertNotEqual(missing.returncode, 0)
        self.assertIn("does not exist", missing.stderr)
        plain = self.path("plain.h5")
        with h5py.File(plain, "w") as f:
            f["x"] = [1, 2, 3]
        other = levelforge("inspect", plain)
        self.assertNotEqual(other.returncode, 0)
        self.assertIn(f"{plain}: no levelforge seal: written by another program", other.stderr)
        # Sealed as levelforge would, but still not a result file.
        sealed = self.path("sealed.h5")
        with h5py.File(sealed, "w", userblock_size=seal.BLOCK) as f:
            f["x"] = [1, 2, 3]
        reseal(sealed)
        other = levelforge("inspect", sealed)
        self.assertNotEqual(other.returncode, 0)
        self.assertIn("written by levelforge but not a result file", other.stderr)


class Failure(ConfigTest):
    """A failing rank ends the whole job with its message; nothing looks complete."""

    def test_kernel_exception_on_one_rank_aborts_the_job(self):
        config = self.config("""
            experiment: fails
            kernel: faulty
            driver: sweep
            params: {fail_value: 5, sleep_ms: 100}
            sweep:
              grid: {params.value: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]}
        """)
        out = self.path("fails.h5")
        result = levelforge("run", config, "-o", out, "-q", ranks=3, timeout=60)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("failing on purpose at value 5", result.stderr)
        self.assertFalse(os.path.exists(out))

    def test_exhaustive_failure_leaves_only_a_partial_file(self):
        config = self.config("""
            experiment: fails
            kernel: faulty
            driver: exhaustive
            params: {count: 20000, fail_index: 12345}
            exhaustive: {chunk: 100}
        """)
        out = self.path("fails.h5")
        result = levelforge("run", config, "-o", out, "-q", ranks=2, timeout=60)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("failing on purpose at index 12345", result.stderr)
        self.assertFalse(os.path.exists(out))
        # What is left, if anything, must not pass for a result: unreadable or marked incomplete.
        if os.path.exists(out + ".partial"):
            try:
                with h5py.File(out + ".partial", "r") as f:
                    self.assertEqual(f.attrs["complete"], 0)
            except OSError:
                pass
        inspected = levelforge("inspect", out + ".partial")
        self.assertTrue(inspected.returncode != 0 or "did not complete" in inspected.stdout)

    def test_unwritable_output(self):
        config = self.config(SWEEP_CONFIG)
        blocker = self.path("file")
        with open(blocker, "w") as out:
            out.write("a file, not a folder\n")
        result = levelforge("run", config, "-o", os.path.join(blocker, "x.h5"), "-q", ranks=2, timeout=60)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("x.h5", result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)

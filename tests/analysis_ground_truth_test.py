"""analysis.kernels.tiltmaze_ground_truth (python3 -m analysis.kernels.tiltmaze_ground_truth QD.h5
EXHAUSTIVE.h5) on files made by the real runner: configs/tiltmaze_4x4_exhaustive.yaml (every 4 x 4 maze) and a shortened
configs/tiltmaze_4x4_qd.yaml (5 iterations, one replicate per archive kind). The longest
distance per wall count against values known by hand, the reachable cells, the covered
cells and gaps recomputed here by plain loops over what h5py reads, the report's section,
and the files refused.

Run by CTest through tests/run_suites.py, with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in
the environment.
"""

import concurrent.futures
import contextlib
import io
import math
import os
import shutil
import sys
import tempfile
import unittest

import h5py
import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

import analysis  # noqa: E402  (the repository's package, after the path above)
from analysis.kernels import tiltmaze_ground_truth as ground_truth  # noqa: E402
from analysis.kernels.tiltmaze_ground_truth import GroundTruthError  # noqa: E402
from analysis_shipped_reports_test import clashes, drawn_texts  # noqa: E402
from cli_support import TempDirTest, levelforge, reseal  # noqa: E402

CONFIGS = os.path.join(REPO, "configs")
# The longest one-target distance over the 4 x 4 mazes of w inner walls, w = 0..24, start in
# the top-left corner: with no wall the ball reaches the other three corners in 1 and 2
# tilts; 13, the longest of all, needs 6 to 11 walls; 24 walls leave the ball no move.
LONGEST = [2, 5, 7, 8, 11, 11, 13, 13, 13, 13, 13, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
FILES = {}


def setUpModule():
    FILES["dir"] = tempfile.mkdtemp(prefix="levelforge-ground-truth-")
    runs = {
        "exhaustive": ("tiltmaze_4x4_exhaustive.yaml", []),
        "qd": ("tiltmaze_4x4_qd.yaml", ["--set", "qd.iterations=5", "--set", "sweep.replicates=1"]),
        "qd_5x5": ("tiltmaze_4x4_qd.yaml", ["--set", "qd.iterations=1", "--set", "sweep.replicates=1",
                                            "--set", "params.width=5", "--set", "params.height=5"]),
    }

    def run(name):
        config, extra = runs[name]
        path = os.path.join(FILES["dir"], f"{name}.h5")
        # Alone, not under mpiexec: a file holds the same datasets on any rank count.
        return name, path, levelforge("run", os.path.join(CONFIGS, config), "-o", path, "-q", *extra)

    # At once: each run's half second is mostly the start of MPI, not work.
    with concurrent.futures.ThreadPoolExecutor(len(runs)) as pool:
        for name, path, made in pool.map(run, runs):
            if made.returncode != 0:
                raise AssertionError(f"{name}: {made.stderr}")
            FILES[name] = path


def tearDownModule():
    shutil.rmtree(FILES.pop("dir"), ignore_errors=True)


def comparison():
    if "comparison" not in FILES:
        run, found = ground_truth.run_comparison(FILES["qd"], FILES["exhaustive"])
        run.close()
        FILES["comparison"] = found
    return FILES["comparison"]


def command(*args):
    """`python3 -m analysis.kernels.tiltmaze_ground_truth ARGS` in this process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = ground_truth.main([os.fspath(arg) for arg in args])
    return code, out.getvalue(), err.getvalue()


def brute_bin(value, low, high, bins):
    """The runner's bin of one value, written out: floor, clipped to [0, bins - 1]."""
    scaled = (value - low) / (high - low) * bins
    return min(max(math.floor(scaled), 0), bins - 1)


def brute_force():
    """From h5py alone: the reference grid, every cell's exact best fitness (None where no
    maze reaches it) and, per task, {cell: the best elite fitness placed there}."""
    with h5py.File(FILES["exhaustive"], "r") as f:
        counts = f["exhaustive/histograms/walls_distance"][0][1:-1].reshape(25, 16)
    with h5py.File(FILES["qd"], "r") as f:
        bins = f["qd/measure_bins"][()]
        grid_point = next(p for p in range(len(bins)) if all(bins[p] > 0))
        low, high = f["qd/measure_low"][grid_point], f["qd/measure_high"][grid_point]
        names = [str(name) for name in f["qd"].attrs["measures"]]
        archive = f["qd/archive"][()]
        points = [int(row["point"]) for row in f["tasks"][()]]
    self_bins = bins[grid_point]
    assert names == ["length", "wall_density"], names

    def cell_of(length, density):
        return (brute_bin(length, low[0], high[0], self_bins[0]) * self_bins[1]
                + brute_bin(density, low[1], high[1], self_bins[1]))

    best = {}
    for walls in range(25):
        for length in range(16):
            if length == 0:
                reached = counts[walls][0] > 0
            else:
                reached = any(counts[walls][d] > 0 for d in range(length, 16))
            if reached:
                cell = cell_of(float(length), walls / 24)
                best[cell] = max(best.get(cell, -math.inf), -abs(length - 13))
    elites = []
    for task in range(archive.shape[0]):
        found = {}
        for row in archive[task]:
            if row["occupied"] != 1:
                continue
            cell = cell_of(row["measure_length"], row["measure_wall_density"])
            if points[task] == grid_point:
                assert cell == row["cell"], (task, cell, row["cell"])
            found[cell] = max(found.get(cell, -math.inf), float(row["fitness"]))
        elites.append(found)
    return self_bins, best, elites, points


class Truth(unittest.TestCase):
    def test_longest_distance_per_wall_count(self):
        truth = ground_truth.read_truth(FILES["exhaustive"])
        self.assertEqual(truth.counts.shape, (25, 16))
        self.assertEqual(truth.longest.tolist(), LONGEST)
        self.assertEqual(truth.counts.sum(axis=1).tolist(), [math.comb(24, w) for w in range(25)])
        # No target at all: the start's two walls closed, which takes 2 walls or more.
        self.assertEqual(truth.empty_maze.tolist(), [False, False] + [True] * 23)
        self.assertEqual(truth.counts[:, 0].sum(), 1 << 22)
        pairs = truth.pairs()
        self.assertEqual(len(pairs), sum(LONGEST) + 23)
        self.assertIn((13, 6), pairs)
        self.assertNotIn((13, 5), pairs)
        self.assertIn((0, 24), pairs)

    def test_reachable_cells_of_the_shipped_grid(self):
        found = comparison()
        self.assertEqual((found.grid.names, found.grid.bins), (("length", "wall_density"), (7, 7)))
        self.assertEqual(found.grid.cells, 49)
        self.assertEqual(int(found.cells.reachable.sum()), 38)
        bins, best, _, _ = brute_force()
        self.assertEqual(sorted(best), found.cells.cell[found.cells.reachable == 1].tolist())
        for cell in found.cells.itertuples(index=False):
            if cell.reachable:
                self.assertEqual(cell.exact_best, best[cell.cell], cell.cell)
            else:
                self.assertTrue(np.isnan(cell.exact_best))
        # Length 12 and 13 (the last bin) only between 6 and 12 walls: densities 0.25..0.5.
        last = found.cells[(found.cells.bin_length == 6) & (found.cells.reachable == 1)]
        self.assertEqual(last.bin_wall_density.tolist(), [1, 2, 3])
        self.assertEqual(last.exact_best.tolist(), [0.0, 0.0, 0.0])


class Comparison(unittest.TestCase):
    def test_covered_cells_and_gaps_by_brute_force(self):
        found = comparison()
        _, best, elites, points = brute_force()
        self.assertEqual(found.tasks.task.tolist(), list(range(len(elites))))
        self.assertEqual(found.tasks.archive.tolist(), ["grid", "cvt", "novelty"])
        for task, cells in enumerate(elites):
            with self.subTest(task=task):
                self.assertTrue(set(cells) <= set(best), "an elite outside the reachable cells")
                gaps = {cell: best[cell] - fitness for cell, fitness in cells.items()}
                row = found.tasks[found.tasks.task == task].iloc[0]
                self.assertEqual(row.covered, len(cells))
                self.assertEqual(row.reachable, 38)
                self.assertEqual(row.outside, 0)
                self.assertAlmostEqual(row.coverage_reachable, 100 * len(cells) / 38)
                self.assertAlmostEqual(row.coverage_all_cells, 100 * len(cells) / 49)
                self.assertAlmostEqual(row.mean_gap, sum(gaps.values()) / len(gaps))
                self.assertEqual(row.at_exact_best, sum(gap == 0 for gap in gaps.values()))
                mine = found.per_cell[found.per_cell.task == task].set_index("cell").gap
                self.assertEqual(mine.to_dict(), gaps)
                # One replicate per point: the per-cell table's mean gap is this task's.
                suffix = found.points.suffix[found.points.point == points[task]].iloc[0]
                column = found.cells.set_index("cell")[f"gap_mean_{suffix}"].dropna()
                self.assertEqual(column.to_dict(), gaps)
        # A grid archive holds one elite per cell: its cells are its own.
        self.assertEqual(found.tasks.elites[0], found.tasks.covered[0])

    def test_command_prints_tables_and_writes_files(self):
        with tempfile.TemporaryDirectory() as out:
            code, stdout, stderr = command(FILES["qd"], FILES["exhaustive"], "--out", out)
            self.assertEqual((code, stderr), (0, ""))
            self.assertIn("49 cells, 38 reachable by some maze, 11 by none", stdout)
            for point, kind in enumerate(["grid", "cvt", "novelty"]):
                self.assertIn(f"point {point}: archive={kind} ({kind} archive), 1 replicates", stdout)
            self.assertEqual(stdout.count("\n     mean "), 3)
            written = sorted(os.listdir(out))
            self.assertEqual(written, ["data", "ground_truth.png", "ground_truth_cells.csv",
                                       "ground_truth_tasks.csv", "ground_truth_walls.csv"])
            import pandas as pd
            tasks = pd.read_csv(os.path.join(out, "ground_truth_tasks.csv"))
            self.assertEqual(tasks.covered.tolist(), comparison().tasks.covered.tolist())
            walls = pd.read_csv(os.path.join(out, "ground_truth_walls.csv"))
            self.assertEqual(walls.longest.tolist(), LONGEST)
            drawn = pd.read_csv(os.path.join(out, "data", "ground_truth.csv"))
            self.assertEqual(len(drawn), 3 * 49)
            self.assertEqual(drawn.groupby("point").shown.value_counts().unstack()
                             .loc[:, "unreachable"].tolist(), [11, 11, 11])
            covered = drawn[drawn.shown == "covered"]
            self.assertEqual(covered.groupby("point").size().tolist(), tasks.covered.tolist())

    def test_the_report_takes_the_ground_truth(self):
        from analysis import report
        from unittest import mock
        saved = {}

        def keep(self, fig, name, title, caption, data):
            saved[name] = caption, clashes(drawn_texts(fig))
            import matplotlib.pyplot as plt
            plt.close(fig)
            self.figures.append((name, title, caption, f"data/{name}.csv"))

        with tempfile.TemporaryDirectory() as out, \
                mock.patch.object(report, "kernel_figures", lambda *args: None), \
                mock.patch.object(report.Report, "save", keep):
            index = report.build(FILES["qd"], out, ground_truth=FILES["exhaustive"])
            with open(index) as f:
                page = f.read()
        self.assertIn("<h2>Ground truth: every 4 x 4 maze</h2>", page)
        self.assertIn("<h3>point 2: archive=novelty (novelty archive)</h3>", page)
        caption, clashing = saved["ground_truth.png"]
        self.assertEqual(clashing, [])
        for words in ("fitness units, which are tilts", "re-binned onto this grid",
                      "-|length - 13|", "no 4 x 4 maze", "Red cross"):
            self.assertIn(words, caption)


class Refusals(TempDirTest):
    def assert_refused(self, qd, exhaustive, *fragments):
        with self.assertRaises((GroundTruthError, analysis.LoadError)) as raised:
            run, _ = ground_truth.run_comparison(qd, exhaustive)
            run.close()
        for fragment in fragments:
            self.assertIn(fragment, str(raised.exception))
        code, stdout, stderr = command(qd, exhaustive, "--out", self.path("out"))
        self.assertEqual((code, stdout), (2, ""))
        self.assertTrue(stderr.startswith("analysis.kernels.tiltmaze_ground_truth: error: "), stderr)
        self.assertEqual(stderr.count("\n"), 1)
        self.assertFalse(os.path.exists(self.path("out")))

    def copy(self, name):
        path = self.path(f"{name}.h5")
        shutil.copy(FILES[name], path)
        return path

    def test_a_run_of_other_mazes(self):
        self.assert_refused(FILES["qd_5x5"], FILES["exhaustive"], FILES["qd_5x5"],
                            "not a QD run of 4 x 4 tilt mazes", "params.width is 5 at point 0")

    def test_the_files_swapped(self):
        self.assert_refused(FILES["exhaustive"], FILES["exhaustive"], "a tiltmaze exhaustive run",
                            "the QD file comes first")
        self.assert_refused(FILES["qd"], FILES["qd"], FILES["qd"], "a tiltmaze qd run",
                            "the QD file comes first")

    def test_an_exhaustive_file_without_the_histogram(self):
        path = self.copy("exhaustive")
        with h5py.File(path, "r+") as f:
            del f["exhaustive/histograms/walls_distance"]
        reseal(path)
        self.assert_refused(FILES["qd"], path, path, "no /exhaustive/histograms/walls_distance")

    def test_a_run_without_a_grid_point(self):
        path = self.copy("qd")
        with h5py.File(path, "r+") as f:
            f["qd/measure_bins"][0] = [0, 0]
        reseal(path)
        self.assert_refused(path, FILES["exhaustive"], path, "no sweep point has a grid archive")

    def test_a_recorded_cell_the_binning_rule_does_not_give(self):
        path = self.copy("qd")
        with h5py.File(path, "r+") as f:
            archive = f["qd/archive"][()]
            slot = int(np.flatnonzero(archive[0]["occupied"] == 1)[0])
            archive[0, slot]["cell"] = (archive[0, slot]["cell"] + 1) % 49
            f["qd/archive"][0] = archive[0]
        reseal(path)
        self.assert_refused(path, FILES["exhaustive"], "another cell than the one recorded")

    def test_an_elite_where_no_maze_reaches(self):
        # A CVT elite (no recorded grid cell to check) moved to length 13 without walls.
        path = self.copy("qd")
        with h5py.File(path, "r+") as f:
            archive = f["qd/archive"][()]
            slot = int(np.flatnonzero(archive[1]["occupied"] == 1)[0])
            archive[1, slot]["measure_length"] = 13.0
            archive[1, slot]["measure_wall_density"] = 0.0
            f["qd/archive"][1] = archive[1]
        reseal(path)
        self.assert_refused(path, FILES["exhaustive"], "hold an elite though no 4 x 4 maze reaches",
                            "the ground truth or the mapping is wrong")


if __name__ == "__main__":
    unittest.main()

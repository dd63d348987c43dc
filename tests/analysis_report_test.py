"""python3 -m analysis.report on real runs of each kernel's small config: every figure the
kernel promises is written as a valid PNG of non-trivial size with its numbers beside it
(data/<figure>.csv, linked from index.html), and index.html shows them with the provenance
and the sweep. The numbers of each figure are checked against values computed here from the
HDF5 file with h5py and NumPy alone (those of the GA targets, the fitness curves and the
tilt-maze solvable fraction in analysis_figures_test.py).

The reports are made in this process (analysis.report.main), which imports matplotlib and
pandas once rather than once per report; `python3 -m analysis.report` itself runs in
test_a_file_load_refuses_is_an_error and analysis_figures_test.py.

Run by CTest through tests/run_suites.py, with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment.
"""

import contextlib
import csv
import io
import itertools
import os
import re
import subprocess
import sys
import unittest

import h5py
import numpy as np
import yaml

import result_files
from cli_support import TempDirTest, levelforge
from analysis import report as analysis_report

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# kernel config, overrides that keep it small, the figures its report must have.
CASES = {
    "match3": ("demo.yaml", ["--set", "ga.generations=4"],
               ["fitness.png", "match3_targets.png", "match3_normal_fit.png", "match3_boards.png"]),
    "tiltmaze_sweep": ("tiltmaze_sweep.yaml", ["--set", "sweep.replicates=10"],
                       ["tiltmaze_examples.png", "tiltmaze_solvable.png", "tiltmaze_lengths.png"]),
    "tiltmaze_exhaustive": ("tiltmaze_4x4_exhaustive.yaml", [], ["histograms.png", "tiltmaze_hardest.png"]),
    "matchstick": ("matchstick_2digit.yaml", ["--set", "params.max_value=30"],
                   ["histograms.png", "matchstick_good.png"]),
    "tiltmaze_ga": ("tiltmaze_ga.yaml", ["--set", "ga.generations=3", "--set", "sweep.replicates=1"],
                    ["fitness.png", "tiltmaze_best.png"]),
    # Islands 1, 4 and 16 exchanging migrants every 2 generations: the islands' figure.
    "tiltmaze_islands": ("tiltmaze_islands.yaml",
                         ["--set", "ga.population=64", "--set", "ga.generations=6", "--set",
                          "ga.migration.every=2", "--set", "sweep.replicates=1"],
                         ["fitness.png", "ga_islands.png", "tiltmaze_best.png"]),
    # MAP-Elites maps: the fitness heatmap, coverage and QD score, the elites drawn.
    "tiltmaze_qd": ("tiltmaze_qd.yaml", ["--set", "qd.iterations=20", "--set", "sweep.replicates=2"],
                    ["qd_archive.png", "qd_progress.png", "qd_levels.png"]),
    "match3_qd": ("match3_qd.yaml", ["--set", "qd.iterations=5", "--set", "qd.batch=40",
                                     "--set", "params.validation_playouts=200",
                                     "--set", "sweep.replicates=1"],
                  ["qd_archive.png", "qd_progress.png", "qd_levels.png"]),
    "tiltmaze_pairs": ("tiltmaze_4x4_pairs.yaml", [], ["histograms.png", "tiltmaze_hardest_pair.png"]),
    # A sampled sweep (Sobol points over three keys): the record fields against them; 128
    # mazes, so that some are unsolvable and `solvable` is a 0/1 field that varies.
    "tiltmaze_sample": ("tiltmaze_sample.yaml", ["--set", "sweep.sample.n=16", "--set", "sweep.replicates=8"],
                        ["sampled.png", "sampled_fractions.png", "tiltmaze_examples.png"]),
    "match3_sweep": ("../tests/data/match3_sweep_boards.yaml", [], ["match3_sweep.png"]),
    # Fewer swept keys than the config (no aggression): one panel per monster.
    "monsters_sweep": ("monsters_sweep.yaml",
                       ["--set", "params.worlds=8", "--set", "params.turns=40", "--set",
                        "sweep={grid: {params.monster: [goblin, orc], params.fear: [0, 8], "
                        "params.group_size: [1, 6]}}"],
                       ["monsters_species.png", "monsters_survival.png", "monsters_motives.png"]),
    # Only a text key swept, with replicates: survival per monster.
    "monsters_one_key": ("monsters_sweep.yaml",
                         ["--set", "params.worlds=8", "--set", "params.turns=40", "--set",
                          "sweep={grid: {params.monster: [goblin, orc]}, replicates: 2}"],
                         ["monsters_survival.png", "monsters_motives.png"]),
    "monsters_ga": ("monsters_ga.yaml",
                    ["--set", "ga.population=6", "--set", "ga.generations=2", "--set", "params.worlds=8",
                     "--set", "params.turns=40", "--set", "params.validation_worlds=20"],
                    ["fitness.png", "monsters_species.png", "monsters_survival.png", "monsters_motives.png"]),
    "spawn_sweep": ("spawn_sweep.yaml", ["--set", "params.runs=50", "--set", "sweep.replicates=2"],
                    ["spawn_tradeoff.png", "spawn_strip.png"]),
    "spawn_ga": ("spawn_ga.yaml",
                 ["--set", "params.runs=20", "--set", "params.validation_runs=50", "--set", "ga.population=6",
                  "--set", "ga.generations=2", "--set", "sweep.replicates=2"],
                 ["fitness.png", "spawn_tradeoff.png", "spawn_strip.png"]),
}


# Reports of any kernel, from a small file written with h5py (tests/result_files.py): the
# driver, the file's options, the figures its report must have.
FIXTURES = {
    # A GA over sampled points: one fitness panel colored by the first sampled key.
    "ga_sample": ("ga", dict(
        points={"ga.mutation_rate": [0.001 * 1.5 ** k for k in range(12)],
                "params.length": [8 + (k * 7) % 33 for k in range(12)]},
        sweep={"sample": {"method": "lhs", "n": 12, "space": {
            "ga.mutation_rate": {"loguniform": [0.001, 0.1]}, "params.length": {"int": [8, 40]}}}}),
        ["fitness.png", "sampled.png"]),
}


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def per_point(records, replicates):
    """The rows of a task-indexed table grouped by sweep point (task = point x replicates + r)."""
    return [records[start:start + replicates] for start in range(0, len(records), replicates)]


class Reports(TempDirTest):
    def data(self, figure):
        with open(os.path.join(self.out, "data", f"{figure}.csv")) as f:
            return list(csv.DictReader(f))

    def hdf5(self, *paths):
        with h5py.File(self.result, "r") as f:
            values = [f[path][()] for path in paths]
            return (*values, int(f.attrs["replicates"]))

    def assert_histogram_data(self, figure, names):
        """Each histogram's inner bins, edges and counts as /exhaustive/histograms/NAME holds them."""
        rows = self.data(figure)
        with h5py.File(self.result, "r") as f:
            for name in names:
                dataset = f[f"exhaustive/histograms/{name}"]
                low, high, bins = (dataset.attrs[k] for k in ("low", "high", "bins"))
                width = (high - low) / bins
                mine = [r for r in rows if r["reduction"] == name and r["task"] == "0"]
                self.assertEqual([int(r["count"]) for r in mine], list(dataset[0][1:-1]), name)
                np.testing.assert_allclose([float(r["low"]) for r in mine],
                                           [low + i * width for i in range(bins)], err_msg=name)

    def report(self, name):
        if name in FIXTURES:
            driver, options, figures = FIXTURES[name]
            result_path = result_files.write(self.dir, driver, name=f"{name}.h5", **options)
        else:
            config, overrides, figures = CASES[name]
            result_path = self.path(f"{name}.h5")
            # Alone, not under mpiexec: the report reads the same datasets on any rank count
            # (cli_test's Determinism) and the rank count only as a provenance value; an mpiexec
            # start costs about 0.1 s of CPU and 0.3 s of wall.
            self.assert_ok(levelforge("run", os.path.join(REPO, "configs", config), "-o", result_path,
                                      "-q", *overrides))
        out = self.out = self.path(f"{name}-report")
        self.result = result_path
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            self.assertEqual(analysis_report.main([result_path, "-o", out]), 0)
        index = os.path.join(out, "index.html")
        self.assertIn(f"report: {index}", printed.getvalue())
        with open(index) as f:
            page = f.read()
        for figure in figures:
            path = os.path.join(out, figure)
            self.assertTrue(os.path.exists(path), f"{name}: {figure} missing")
            with open(path, "rb") as f:
                self.assertEqual(f.read(8), PNG_SIGNATURE, figure)
            self.assertGreater(os.path.getsize(path), 5000, f"{figure} is too small to show anything")
            self.assertIn(f'src="{figure}"', page)
        for figure in (name for name in os.listdir(out) if name.endswith(".png")):
            data = f"data/{figure[:-len('.png')]}.csv"
            self.assertIn(f'href="{data}"', page, f"{figure}: no data linked")
            self.assertTrue(self.data(figure[:-len(".png")]), f"{figure}: empty {data}")
        self.assertEqual(sorted(re.findall(r'src="([^"]+)"', page)),
                         sorted(name for name in os.listdir(out) if name.endswith(".png")))
        self.assertIn("<h2>Provenance</h2>", page)
        self.assertIn("git_commit", page)
        self.assertNotIn("http", page, "no network resources")
        return page

    def test_match3(self):
        page = self.report("match3")
        self.assertIn("target", page)
        best, validation, replicates = self.hdf5("ga/best", "ga/validation")
        rows = self.data("match3_boards")
        self.assertEqual([int(r["task"]) for r in rows], list(range(0, len(best), replicates)))
        for row in rows:
            task = int(row["task"])
            self.assertEqual(row["quantity"], "p_normal")
            self.assertAlmostEqual(float(row["at_selection"]), best[task, 0]["p_normal"], places=12)
            self.assertAlmostEqual(float(row["validated"]), validation[task, 0]["validated_p_normal"],
                                   places=12)

    def test_tiltmaze_sweep(self):
        # 144 points: the sweep table is whole, folded under a <details>.
        page = self.report("tiltmaze_sweep")
        sweep = page[page.index("<h2>Sweep</h2>"):page.index("<h2>Results</h2>")]
        self.assertIn("<details><summary>144 rows (open)</summary>", sweep)
        self.assertEqual(sweep.count("<tr>"), 145)
        # Solution lengths per swept combination (width stands for the zipped height).
        records, points, replicates = self.hdf5("sweep/records", "points")
        keys = ("params.placement", "params.targets", "params.collect", "params.width",
                "params.wall_density")
        expected = {}
        for point, mine in zip(points, per_point(records, replicates)):
            lengths = mine["length"][(mine["targets"] > 0) & (mine["solvable"] == 1)]
            if len(lengths):
                key = tuple(text(point[k]) if k in ("params.placement", "params.collect")
                            else float(point[k]) for k in keys)
                expected[key] = (len(lengths), float(np.median(lengths)),
                                 float(np.quantile(lengths, 0.25)), int(lengths.max()))
        got = {tuple(r[k] if k in ("params.placement", "params.collect") else float(r[k]) for k in keys):
               (int(r["solvable"]), float(r["median"]), float(r["q25"]), int(float(r["longest"])))
               for r in self.data("tiltmaze_lengths")}
        self.assertEqual(got, expected)
        examples = self.data("tiltmaze_examples")
        self.assertEqual(len(examples), 6)
        for row in examples:
            record = records[int(row["task"])]
            self.assertEqual(int(row["task"]) % replicates, 0)
            self.assertEqual((row["maze"], int(row["solvable"]), int(row["length"])),
                             (text(record["maze"]), int(record["solvable"]), int(record["length"])))

    def test_tiltmaze_sample(self):
        self.report("tiltmaze_sample")
        records, points, replicates = self.hdf5("sweep/records", "points")
        # The 0/1 fields as the fraction of 1 per bin of each sampled key, with the tasks per bin.
        fractions = self.data("sampled_fractions")
        self.assertEqual({r["field"] for r in fractions}, {"solvable", "proven_shortest"})
        key_of = np.repeat(points, replicates)
        for (field, key), rows in itertools.groupby(fractions, lambda r: (r["field"], r["key"])):
            rows = list(rows)
            self.assertEqual(sum(int(r["tasks"]) for r in rows), len(records), (field, key))
            for k, row in enumerate(rows):
                low, high = float(row["low"]), float(row["high"])
                values = key_of[key]
                inside = (values == low) if low == high else \
                    (values >= low) & ((values < high) if k < len(rows) - 1 else (values <= high))
                self.assertEqual(int(row["tasks"]), int(inside.sum()), (field, key, k))
                self.assertEqual(int(row["ones"]), int(records[field][inside].sum()), (field, key, k))
        rows = self.data("sampled")
        self.assertNotIn("solvable", rows[0])
        self.assertEqual([int(r["task"]) for r in rows], list(range(len(records))))
        keys = ("params.wall_density", "params.width", "params.targets")
        for row in rows:
            task = int(row["task"])
            point = points[task // replicates]
            for key in keys:
                self.assertEqual(float(row[key]), float(point[key]))
            fields = [c for c in row if c not in ("task", "point", "replicate", *keys)]
            self.assertIn("length", fields)
            for field in fields:
                self.assertEqual(float(row[field]), float(records[task][field]), field)

    def test_ga_sample(self):
        self.report("ga_sample")
        best, points, replicates = self.hdf5("ga/best", "points")
        rows = self.data("sampled")
        self.assertEqual([int(r["task"]) for r in rows], list(range(len(best))))
        for row in rows:
            task = int(row["task"])
            self.assertEqual(float(row["ga.mutation_rate"]), points[task // replicates]["ga.mutation_rate"])
            self.assertEqual(float(row["fitness"]), best[task, 0]["fitness"])
        curves = self.data("fitness")
        self.assertEqual({int(r["point"]) for r in curves}, set(points["point"]))

    def test_tiltmaze_exhaustive(self):
        page = self.report("tiltmaze_exhaustive")
        self.assert_histogram_data("histograms", ["components", "distance", "reachable"])
        # A run without pairs counts nothing in pair_length: named, not drawn as an empty panel.
        pairs, _ = self.hdf5("exhaustive/histograms/pair_length")
        self.assertEqual(pairs[0][1:-1].sum(), 0)
        self.assertNotIn("pair_length", {row["reduction"] for row in self.data("histograms")})
        self.assertIn("Left out, nothing counted within their bins: pair_length.", page)
        top, _ = self.hdf5("exhaustive/top/hardest")
        rows = self.data("tiltmaze_hardest")
        self.assertEqual([(r["maze"], r["moves"]) for r in rows],
                         [(text(e["maze"]), text(e["moves"])) for e in top[0][:5]])

    def test_matchstick(self):
        self.report("matchstick")
        self.assert_histogram_data("histograms", ["solution_count"])
        top, _ = self.hdf5("exhaustive/top/good_puzzles")
        rows = self.data("matchstick_good")
        self.assertEqual([(r["puzzle"], r["solution"], float(r["score"])) for r in rows],
                         [(text(e["puzzle"]), text(e["solution"]), float(e["score"])) for e in top[0][:5]])

    def test_tiltmaze_ga(self):
        self.report("tiltmaze_ga")
        best, replicates = self.hdf5("ga/best")
        rows = self.data("tiltmaze_best")
        # Replicate 0 of six points spread over the sweep, the first and the last included.
        tasks = [int(r["task"]) for r in rows]
        self.assertEqual(len(tasks), min(len(best) // replicates, 6))
        self.assertEqual((tasks[0], tasks[-1]), (0, len(best) - replicates))
        self.assertEqual(tasks, sorted(set(tasks)))
        self.assertEqual([(r["maze"], int(r["length"])) for r in rows],
                         [(text(best[task, 0]["maze"]), int(best[task, 0]["length"])) for task in tasks])
        self.assertTrue(all(task % replicates == 0 for task in tasks))

    def check_qd_archive(self, name):
        """Every square of the heatmap is an elite of the file, at its cell, with its fitness."""
        self.report(name)
        archive, replicates = self.hdf5("qd/archive")
        rows = self.data("qd_archive")
        self.assertGreater(len(rows), 0)
        shown = {int(row["task"]) for row in rows}
        self.assertEqual(len(rows), int(sum((archive[task]["occupied"] == 1).sum() for task in shown)))
        for row in rows:
            stored = archive[int(row["task"]), int(row["cell"])]
            self.assertEqual(stored["occupied"], 1)
            self.assertEqual(float(row["fitness"]), stored["fitness"])
        return archive, rows

    def test_tiltmaze_qd(self):
        archive, rows = self.check_qd_archive("tiltmaze_qd")
        for row in rows:
            stored = archive[int(row["task"]), int(row["cell"])]
            self.assertEqual(int(row["bin_length"]) * 16 + int(row["bin_wall_density"]), stored["cell"])

    def test_match3_qd(self):
        archive, rows = self.check_qd_archive("match3_qd")
        for row in rows:
            stored = archive[int(row["task"]), int(row["cell"])]
            self.assertEqual(int(row["bin_p"]) * 10 + int(row["bin_empty_fraction"]), stored["cell"])

    def test_tiltmaze_islands(self):
        self.report("tiltmaze_islands")
        history, migrations, points, replicates = self.hdf5("ga/island_history", "ga/migrations", "points")
        rows = self.data("ga_islands")
        # One task per point (replicates 1: every task), each island's every generation.
        self.assertEqual(len(rows), int((history["generation"] >= 0).sum()))
        self.assertEqual(len(rows), 6 * sum(points["ga.islands"]))
        for row in rows:
            task, generation, island = int(row["task"]), int(row["generation"]), int(row["island"])
            stored = history[task, generation, island]
            self.assertEqual(int(row["ga.islands"]), points["ga.islands"][task // replicates])
            self.assertEqual(float(row["best"]), stored["best"])
            self.assertEqual(float(row["diversity"]), stored["diversity"])
            mine = migrations[task]
            self.assertEqual(int(row["emigrants"]), int(((mine["generation"] == generation)
                                                         & (mine["from"] == island)).sum()))
        self.assertEqual(sorted({int(r["generation"]) for r in rows if int(r["emigrants"])}), [2, 4])

    def test_tiltmaze_pairs(self):
        self.report("tiltmaze_pairs")

    def test_match3_sweep(self):
        self.assertIn("Success probability of the swept boards", self.report("match3_sweep"))

    def assert_monsters_sweep_data(self, keys):
        """Survival and motive shares per sweep point: means over its replicates."""
        records, points, replicates = self.hdf5("sweep/records", "points")
        survival = {tuple(text(r[k]) if k == "params.monster" else float(r[k]) for k in keys):
                    float(r["p_survive"]) for r in self.data("monsters_survival")}
        motives = {int(r["point"]): r for r in self.data("monsters_motives")}
        self.assertEqual(len(survival), len(points))
        self.assertEqual(sorted(motives), list(points["point"]))
        for point, mine in zip(points, per_point(records, replicates)):
            key = tuple(text(point[k]) if k == "params.monster" else float(point[k]) for k in keys)
            self.assertAlmostEqual(survival[key], mine["p_survive"].mean(), places=12)
            for motive in ("fear", "aggression", "desire", "misc", "wander", "none"):
                self.assertAlmostEqual(float(motives[point["point"]][motive]),
                                       mine[f"share_{motive}"].mean(), places=12)

    def test_monsters_sweep(self):
        page = self.report("monsters_sweep")
        self.assertIn("Hero survival", page)
        # The species picture: the catalogue's files, read here with PyYAML.
        species = {row["species"]: row for row in self.data("monsters_species")}
        self.assertEqual(sorted(species), ["goblin", "orc", "skeleton"])
        for name, row in species.items():
            with open(os.path.join(REPO, "configs", "species", f"{name}.yaml")) as f:
                written = yaml.safe_load(f)
            self.assertEqual(int(row["strength"]), written["strength"], name)
            for motive, weight in written["motives"].items():
                self.assertEqual(float(row[motive]), weight, f"{name}: {motive}")
        self.assert_monsters_sweep_data(("params.monster", "params.fear", "params.group_size"))

    def test_monsters_one_key(self):
        self.report("monsters_one_key")
        self.assert_monsters_sweep_data(("params.monster",))

    def test_monsters_ga(self):
        self.assertIn("Target against validated hero survival", self.report("monsters_ga"))
        best, validation, replicates = self.hdf5("ga/best", "ga/validation")
        rows = self.data("monsters_survival")
        self.assertEqual(len(rows), len(best))
        for row in rows:
            task = int(row["task"])
            self.assertAlmostEqual(float(row["at_selection"]), best[task, 0]["p_survive"], places=12)
            self.assertAlmostEqual(float(row["validated"]), validation[task, 0]["validated_p_survive"],
                                   places=12)
        motives = self.data("monsters_motives")
        self.assertEqual([int(r["task"]) for r in motives], list(range(len(best))))
        for row in motives:
            kept = best[int(row["task"]), 0]
            self.assertAlmostEqual(float(row["fear"]), kept["share_fear"], places=12)
            self.assertAlmostEqual(float(row["aggression"]), kept["share_aggression"], places=12)
            self.assertAlmostEqual(float(row["other"]), 1 - kept["share_fear"] - kept["share_aggression"],
                                   places=12)

    def spawn_masks(self, levels):
        """A first_run text as masks, four hex digits per level (docs/spawn.md)."""
        levels = text(levels).rstrip("\0")
        return [int(levels[i:i + 4], 16) for i in range(0, len(levels), 4)]

    def strips(self):
        strips = {}
        for row in self.data("spawn_strip"):
            strips.setdefault(row["run"], []).append(int(row["mask"]))
        return strips

    def test_spawn_sweep(self):
        self.assertIn("Enemies per level", self.report("spawn_sweep"))
        records, points, replicates = self.hdf5("sweep/records", "points")
        groups = per_point(records, replicates)
        rows = self.data("spawn_tradeoff")
        self.assertEqual(len(rows), len(points))
        for point, mine in zip(points, groups):
            row = [r for r in rows if float(r["params.weight_increment"]) == point["params.weight_increment"]
                   and r["params.recency"] == text(point["params.recency"])][0]
            self.assertAlmostEqual(float(row["error_share_pct"]), 100 * mine["error_share"].mean(), places=9)
            self.assertAlmostEqual(float(row["repetition_pct"]), 100 * mine["repetition"].mean(), places=9)
            self.assertAlmostEqual(float(row["entropy_bits"]), mine["entropy"].mean(), places=12)
        first_runs = [self.spawn_masks(mine["first_run"][0]) for mine in groups]
        strips = self.strips()
        self.assertEqual(len(strips), min(len(points), 4))
        for title, masks in strips.items():
            self.assertIn(masks, first_runs, title)

    def test_spawn_ga(self):
        page = self.report("spawn_ga")
        best, validation, replicates = self.hdf5("ga/best", "ga/validation")
        # The results table: every numeric field, the validated ones too, with its mean and
        # spread; the text and list fields named as left out.
        results = page[page.index("<h2>Results</h2>"):page.index("<h2>Fitness over generations</h2>")]
        fields = [(best, name) for name in best.dtype.names if name != "position"] + \
            [(validation, name) for name in validation.dtype.names]
        numeric = [(table, name) for table, name in fields if table.dtype[name].kind in "if"]
        self.assertIn("validated_repetition", [name for _, name in numeric])
        for table, name in numeric:
            values = table[:replicates, 0][name]  # the one point's tasks, their best
            self.assertIn(f"<th>{name}</th>", results)
            self.assertIn(f"<td>{values.mean():.4g} ± {values.std(ddof=1):.2g}</td>", results, name)
        self.assertRegex(results, r"Not in the results table[^<]*: validated_first_run, genome;")
        strips = list(self.strips().values())
        self.assertEqual(strips, [self.spawn_masks(validation[task, 0]["validated_first_run"])
                                  for task in range(min(len(best), 4))])
        at_selection = [r for r in self.data("spawn_tradeoff") if r["series"] == "at selection"]
        self.assertEqual(len(at_selection), best.size)
        for row in at_selection:
            self.assertAlmostEqual(float(row["error_share_pct"]),
                                   100 * best[int(row["task"]), int(row["position"])]["error_share"], places=9)

    def test_a_file_load_refuses_is_an_error(self):
        missing = self.path("missing.h5")
        made = subprocess.run([sys.executable, "-m", "analysis.report", missing, "-o", self.path("r")],
                              cwd=REPO, capture_output=True, text=True, timeout=60)
        self.assertEqual(made.returncode, 2)
        self.assertIn("does not exist", made.stderr)
        self.assertFalse(os.path.exists(self.path("r")))


if __name__ == "__main__":
    unittest.main()

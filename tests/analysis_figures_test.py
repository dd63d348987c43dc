"""The numbers behind the report's figures (DIR/data/<figure>.csv), each checked against
values computed here from the HDF5 file with h5py and NumPy alone: the quantity a figure
plots is the one the run optimized, no swept key is averaged away, and an early-stopped task
keeps its last value. The figures of any kernel are drawn from small files written with h5py
(tests/result_files.py); the kernels' own figures, the islands and the QD archive from real
runs.

Run by CTest through tests/run_suites.py, with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment.
"""

import contextlib
import csv
import io
import os
import unittest
from unittest import mock

import h5py
import numpy as np

import result_files
from cli_support import TempDirTest, levelforge, reseal
import analysis  # the repository's package: cli_support puts it on the path
from analysis import figures as analysis_figures, report as analysis_report

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def text(value):
    return value.decode() if isinstance(value, bytes) else value


def axes_drawn(fig):
    """What a reader sees of each visible panel of `fig`: labels, scales, and its lines that
    have a legend entry, each as (label, points, marker)."""
    return [{"xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(), "title": ax.get_title(),
             "xscale": ax.get_xscale(), "yscale": ax.get_yscale(),
             "lines": [(line.get_label(), len(line.get_xdata()), line.get_marker())
                       for line in ax.get_lines() if not line.get_label().startswith("_")]}
            for ax in fig.axes if ax.get_visible()]


class FigureData(TempDirTest):
    def report(self, config, *overrides, figures=()):
        result = self.path(os.path.basename(config).replace(".yaml", ".h5"))
        # Alone, not under mpiexec: a figure's numbers come from datasets that are the same on
        # any rank count (cli_test's Determinism); an mpiexec start costs about 0.1 s of CPU
        # and 0.3 s of wall.
        self.assert_ok(levelforge("run", os.path.join(REPO, config), "-o", result, "-q", *overrides))
        return result, self.report_file(result, figures)

    def fixture(self, driver, figures=(), **options):
        """The report of a file written by tests/result_files.py: (its path, the report's)."""
        result = result_files.write(self.dir, driver, **options)
        return result, self.report_file(result, figures)

    def report_file(self, result, figures=()):
        out = self.path("report")
        extra = [argument for directory in figures for argument in ("--figures", directory)]
        # In this process, as analysis_report_test.py does: a Python with matplotlib and pandas
        # costs more to start than most of these reports take to make.
        errors = io.StringIO()
        # Each figure's panels as drawn, taken as it is saved: self.drawn[name].
        self.drawn = {}
        save = analysis_figures.Report.save

        def keep(report, fig, name, *args, **kwargs):
            self.drawn[name] = axes_drawn(fig)
            return save(report, fig, name, *args, **kwargs)

        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(errors), \
                mock.patch.object(analysis_figures.Report, "save", keep):
            made = analysis_report.main([result, "-o", out, *extra])
        self.assertEqual(made, 0, errors.getvalue())
        return out

    def data(self, out, figure):
        path = os.path.join(out, "data", f"{figure}.csv")
        self.assertTrue(os.path.exists(path), f"{figure}: no data beside the figure")
        with open(os.path.join(out, "index.html")) as index:
            self.assertIn(f'href="data/{figure}.csv"', index.read())
        with open(path) as f:
            return list(csv.DictReader(f))

    def test_fitness_curves_carry_an_early_stop_forward_and_never_fall(self):
        # Tasks that stopped before the last generation (ga.stop_fitness).
        result, out = self.fixture("ga", replicates=5, points={"params.length": [8, 16]},
                                   generations=8, stopped={0: 3, 1: 5, 6: 1, 8: 4})
        rows = self.data(out, "fitness")
        with h5py.File(result, "r") as f:
            history = f["ga/history"][()]
            tasks = f["tasks"][()]
        ran = (history["generation"] >= 0).sum(axis=1)
        self.assertLess(ran.min(), history.shape[1], "no task stopped early: the case is not tested")
        expected = {}
        for point in np.unique(tasks["point"]):
            mine = tasks["task"][tasks["point"] == point]
            last = ran[mine].max()
            curves = []
            for task in mine:
                best = np.maximum.accumulate(history["best"][task, :ran[task]])
                curves.append(np.concatenate([best, np.full(last - ran[task], best[-1])]))
            for generation, values in enumerate(np.array(curves).T):
                expected[(int(point), generation)] = float(np.median(values))
        got = {(int(row["point"]), int(row["generation"])): float(row["median"]) for row in rows}
        self.assertEqual(got.keys(), expected.keys())
        for key, value in expected.items():
            self.assertAlmostEqual(got[key], value, places=12, msg=key)
        for point in {p for p, _ in got}:
            medians = [got[(point, g)] for g in range(len([k for k in got if k[0] == point]))]
            self.assertEqual(medians, sorted(medians), f"point {point}: the curve falls")

    def test_a_noisy_fitness_is_drawn_as_measured_with_the_validated_final_best(self):
        # match3's fitness is an estimate over playouts (it validates: /ga/validation, whose
        # validated_fitness the kernel computes as it computes the fitness).
        result, out = self.report("configs/demo.yaml", "--set", "ga.generations=8", "--set",
                                  "params.validation_playouts=500")
        rows = self.data(out, "fitness")
        with h5py.File(result, "r") as f:
            best = f["ga/history"]["best"]
            validated = f["ga/validation"][:, 0]["validated_p_normal"]
            points = f["points"][()]
            replicates = int(f.attrs["replicates"])
        self.assertTrue((np.diff(best, axis=1) < 0).any(), "no generation's best fell: the case is not tested")
        got = {(int(row["point"]), int(row["generation"])): row for row in rows}
        self.assertEqual(len(got), len(points) * best.shape[1])
        for point in points["point"]:
            mine = slice(point * replicates, (point + 1) * replicates)
            for generation in range(best.shape[1]):
                self.assertAlmostEqual(float(got[(point, generation)]["median"]),
                                       np.median(best[mine, generation]), places=12, msg=(point, generation))
        for point in points["point"]:
            mine = slice(point * replicates, (point + 1) * replicates)
            for generation in range(best.shape[1]):
                last = generation == best.shape[1] - 1
                self.assertEqual(got[(point, generation)]["validated"] != "", last, (point, generation))
            expected = np.median(1 - np.abs(points["params.target"][point] - validated[mine]))
            self.assertGreater(expected, 0.5, "a fitness of 1 - |target - p| where p is a probability")
            self.assertAlmostEqual(float(got[(point, best.shape[1] - 1)]["validated"]), expected, places=12)
        [panel] = self.drawn["fitness.png"]
        self.assertIn("measured in the generation", panel["ylabel"])
        self.assertNotIn("so far", panel["ylabel"])
        self.assertIn("final best, validated", [label for label, *_ in panel["lines"]])
        with open(os.path.join(out, "index.html")) as index:
            self.assertIn("not the best found so far", index.read())

    def test_a_point_stopped_at_generation_0_is_drawn_and_n_is_given(self):
        # Point 0's tasks stopped at generation 0 (a 1-bit genome's optimum found at once).
        result, out = self.fixture("ga", points={"params.length": [1, 24]}, lengths=[1, 24],
                                   stopped={0: 1, 1: 1})
        with h5py.File(result, "r") as f:
            ran = (f["ga/history"]["generation"] >= 0).sum(axis=1)
        self.assertEqual(ran[:2].tolist(), [1, 1], "point 0 ran past generation 0: the case is not tested")
        [panel] = self.drawn["fitness.png"]
        self.assertEqual(len(panel["lines"]), 2)
        for label, points, marker in panel["lines"]:
            self.assertTrue(points > 1 or marker not in ("", "None", None), f"{label}: drawn as nothing")
        self.assertIn("median of 2 replicates, IQR band", panel["ylabel"])

    def test_a_loguniform_key_gets_log_axes_and_one_replicate_no_median(self):
        rates, lengths = [0.001, 0.003, 0.01, 0.02, 0.05, 0.1], [8, 40, 20, 13, 31, 25]
        self.fixture("ga", replicates=1, points={"ga.mutation_rate": rates, "params.length": lengths},
                     sweep={"sample": {"method": "lhs", "n": 6, "space": {
                         "ga.mutation_rate": {"loguniform": [0.001, 0.1]},
                         "params.length": {"int": [8, 40]}}}})
        curves, colors = self.drawn["fitness.png"]
        self.assertIn("one replicate per point", curves["ylabel"])
        self.assertNotIn("median", curves["ylabel"])
        self.assertEqual((colors["ylabel"], colors["yscale"]), ("ga.mutation_rate (log scale)", "log"))
        panels = self.drawn["sampled.png"]
        rate = [p for p in panels if p["xlabel"].startswith("mutation_rate")]
        length = [p for p in panels if p["xlabel"] == "length"]
        self.assertTrue(rate and length)
        self.assertEqual({(p["xscale"]) for p in rate}, {"log"})
        self.assertEqual({(p["xscale"]) for p in length}, {"linear"})

    def test_histograms_of_tasks_of_different_sizes_are_their_shares(self):
        # 300 and 20000 indices: on one count axis the small task would lie flat at zero.
        result, out = self.fixture("exhaustive", points={"params.count": [300, 20000]}, replicates=1,
                                   size=[300, 20000])
        rows = self.data(out, "histograms")
        with h5py.File(result, "r") as f:
            steps = f["exhaustive/histograms/steps"][()][:, 1:-1]
        self.assertEqual(len(rows), steps.size)
        for row in rows:
            task, count = int(row["task"]), int(row["count"])
            self.assertAlmostEqual(float(row["share"]), count / steps[task].sum(), places=12)
        [panel] = self.drawn["histograms.png"]
        self.assertEqual(panel["ylabel"], "share of the task's count")

    def test_counts_over_three_decades_get_a_log_axis(self):
        # As the shipped matchstick puzzles by their number of solutions: about 10^6 with none,
        # a few with the most; on a linear axis the tail would lie flat at zero.
        # The kernel's module names what a count is (matchstick: puzzles).
        modules = self.path("modules")
        os.makedirs(modules)
        with open(os.path.join(modules, "fixture.py"), "w") as module:
            module.write("def histogram_counts(run):\n    return 'puzzles'\n\n\n"
                         "def figures(report):\n    pass\n")
        spread = [[0, 1_000_000, 40_000, 3_000, 200, 9, 2, 1, 0, 0, 0, 0]]
        result, out = self.fixture("exhaustive", figures=[modules], points={}, replicates=1,
                                   histogram=spread)
        with h5py.File(result, "r") as f:
            counts = f["exhaustive/histograms/steps"][0][1:-1]
        counted = counts[counts > 0]
        self.assertGreaterEqual(counted.max(), 1000 * counted.min(), "the case is not tested")
        [panel] = self.drawn["histograms.png"]
        self.assertEqual((panel["yscale"], panel["ylabel"]), ("log", "puzzles (log scale)"))
        # Counts of 300 indices, within three decades: linear.
        result, _ = self.fixture("exhaustive", name="linear.h5", points={}, replicates=1, size=300)
        with h5py.File(result, "r") as f:
            counts = f["exhaustive/histograms/steps"][0][1:-1]
        counted = counts[counts > 0]
        self.assertLess(counted.max(), 1000 * counted.min())
        [panel] = self.drawn["histograms.png"]
        self.assertEqual((panel["yscale"], panel["ylabel"]), ("linear", "count"))

    def test_a_kernel_without_figures_gets_its_records_against_the_swept_keys(self):
        # A kernel without a figure module (analysis/kernels/): the generic results figure.
        result, out = self.fixture("sweep", text=False, replicates=3, points={
            "params.length": [8, 8, 32, 32], "params.climb_steps": [5, 50, 5, 50]})
        rows = self.data(out, "results")
        with h5py.File(result, "r") as f:
            records = f["sweep/records"][()]
            points = f["points"][()]
        varying = [name for name in records.dtype.names if len(np.unique(records[name])) > 1]
        self.assertEqual(sorted({row["field"] for row in rows}), sorted(varying))
        self.assertEqual(len(rows), len(varying) * len(points))
        for row in rows:
            point = int(row["point"])
            values = records[row["field"]][point * 3:(point + 1) * 3]
            self.assertEqual(int(row["params.length"]), points["params.length"][point])
            self.assertEqual(int(row["tasks"]), 3)
            self.assertEqual(float(row["median"]), np.median(values))
            self.assertEqual(float(row["q25"]), np.quantile(values, 0.25))
        panels = self.drawn["results.png"]
        self.assertEqual([p["ylabel"] for p in panels], varying)
        self.assertEqual(panels[-1]["xlabel"], "length")
        for panel in panels:
            self.assertEqual([(label, points) for label, points, _ in panel["lines"]],
                             [("climb_steps=5 (n=3)", 2), ("climb_steps=50 (n=3)", 2)])
        self.assertGreater(os.path.getsize(os.path.join(out, "results.png")), 5000)

    def test_match3_targets_plot_the_estimator_each_point_selected_on(self):
        result, out = self.report(
            "configs/demo.yaml", "--set", "ga.generations=3", "--set",
            "sweep={grid: {params.target: [0.3, 0.7], params.estimator: [normal, empirical]}}")
        rows = self.data(out, "match3_targets")
        with h5py.File(result, "r") as f:
            best = f["ga/best"][()]
            validation = f["ga/validation"][()]
            points = f["points"][()]
            replicates = int(f.attrs["replicates"])
        self.assertEqual(len(rows), len(best))
        for row in rows:
            task = int(row["task"])
            estimator = text(points["params.estimator"][task // replicates])
            self.assertEqual(row["quantity"], f"p_{estimator}")
            self.assertAlmostEqual(float(row["at_selection"]), best[task, 0][f"p_{estimator}"], places=12)
            self.assertAlmostEqual(float(row["validated"]), validation[task, 0][f"validated_p_{estimator}"],
                                   places=12)

    def test_match3_normal_fit_is_every_kept_board_by_its_scoring_rule(self):
        result, out = self.report(
            "configs/demo.yaml", "--set", "ga.generations=2", "--set",
            "sweep={grid: {params.target: [0.6], params.score_per: [move, wave]}, replicates: 2}")
        rows = self.data(out, "match3_normal_fit")
        with h5py.File(result, "r") as f:
            validation = f["ga/validation"][()]
            points = f["points"][()]
            replicates = int(f.attrs["replicates"])
        self.assertEqual(len(rows), validation.size)  # tasks x kept boards
        self.assertEqual({row["score_per"] for row in rows}, {"move", "wave"})
        for row in rows:
            task, position = int(row["task"]), int(row["position"])
            kept = validation[task, position]
            self.assertEqual(row["score_per"], text(points["params.score_per"][task // replicates]))
            self.assertAlmostEqual(float(row["p_normal"]), kept["validated_p_normal"], places=12)
            self.assertAlmostEqual(float(row["p_empirical"]), kept["validated_p_empirical"], places=12)
            self.assertAlmostEqual(float(row["normal_minus_empirical"]),
                                   kept["validated_p_normal"] - kept["validated_p_empirical"], places=12)

    def test_match3_targets_of_an_unswept_estimator_are_the_configs(self):
        # demo.yaml does not set the estimator: the kernel's default, normal, is what it selected on.
        _, out = self.report("configs/demo.yaml", "--set", "ga.generations=2")
        self.assertEqual({row["quantity"] for row in self.data(out, "match3_targets")}, {"p_normal"})

    def test_tiltmaze_solvable_fraction_keeps_every_regime_apart(self):
        result, out = self.report(
            "configs/tiltmaze_sweep.yaml", "--set",
            "sweep={grid: {params.placement: [anywhere, resting], params.wall_density: [0.1, 0.4], "
            "params.targets: [1, 6]}, zip: {params.width: [6, 10], params.height: [6, 10]}, "
            "replicates: 12}")
        rows = self.data(out, "tiltmaze_solvable")
        with h5py.File(result, "r") as f:
            records = f["sweep/records"][()]
            points = f["points"][()]
            replicates = int(f.attrs["replicates"])
        keys = ["params.placement", "params.wall_density", "params.targets", "params.width"]
        point_of = np.arange(len(records)) // replicates
        expected = {}
        for point in points:
            mine = records[point_of == point["point"]]
            placed = mine[mine["targets"] > 0]
            key = tuple(str(text(point[k])) for k in keys)
            expected[key] = (len(placed), int(placed["solvable"].sum()), int((mine["targets"] == 0).sum()))
        got = {}
        for row in rows:
            key = (row["params.placement"], str(float(row["params.wall_density"])),
                   str(int(float(row["params.targets"]))), str(int(float(row["params.width"]))))
            got[key] = (int(float(row["mazes"])), int(float(row["solvable"])), int(float(row["no_target"])))
        normalized = {(p, str(float(d)), str(int(t)), str(int(w))): v
                      for (p, d, t, w), v in expected.items()}
        self.assertEqual(got, normalized)
        for row in rows:
            mazes = float(row["mazes"])
            if mazes:
                self.assertAlmostEqual(float(row["fraction"]), float(row["solvable"]) / mazes, places=12)
        # The index lists every point, with integral values printed as integers.
        with open(os.path.join(out, "index.html")) as index:
            page = index.read()
        sweep = page[page.index("<h2>Sweep</h2>"):page.index("<h2>Results</h2>")]
        self.assertEqual(sweep.count("<tr>"), len(points) + 1)
        self.assertIn("<td>6</td>", sweep)
        self.assertNotIn("<td>6.0</td>", sweep)

    def test_the_hardest_pairs_drawn_are_the_top_tables_first(self):
        result, out = self.report("configs/tiltmaze_4x4_pairs.yaml")
        rows = self.data(out, "tiltmaze_hardest_pair")
        with h5py.File(result, "r") as f:
            top = f["exhaustive/top/hardest_pair"][()][0]
        self.assertEqual(len(rows), 5)
        for row, entry in zip(rows, top):
            self.assertEqual(row["maze"], text(entry["maze"]))
            self.assertEqual(row["moves"], text(entry["moves"]))
            self.assertEqual(int(float(row["score"])), int(entry["score"]))

    def test_match3_sweep_boards_by_their_estimator(self):
        result, out = self.report("tests/data/match3_sweep_boards.yaml")
        rows = self.data(out, "match3_sweep")
        with h5py.File(result, "r") as f:
            records = f["sweep/records"][()]
            points = f["points"][()]
            replicates = int(f.attrs["replicates"])
        self.assertEqual(len(rows), len(points))
        for point in points:
            estimator = text(point["params.estimator"])
            values = records[f"p_{estimator}"][point["point"] * replicates:(point["point"] + 1) * replicates]
            row = [r for r in rows if float(r["params.threshold"]) == point["params.threshold"]
                   and r["params.estimator"] == estimator][0]
            self.assertEqual(row["quantity"], f"p_{estimator}")
            self.assertAlmostEqual(float(row["mean"]), values.mean(), places=12)
            self.assertAlmostEqual(float(row["std"]), values.std(ddof=1), places=12)

    def test_the_index_gives_each_points_results_with_their_spread(self):
        result, out = self.fixture("sweep", replicates=3)
        with h5py.File(result, "r") as f:
            steps = f["sweep/records"][()]["value"].astype(float)
            replicates = int(f.attrs["replicates"])
        with open(os.path.join(out, "index.html")) as index:
            page = index.read()
        results = page[page.index("<h2>Results</h2>"):]
        for point in range(len(steps) // replicates):
            mine = steps[point * replicates:(point + 1) * replicates]
            self.assertIn(f"<td>{mine.mean():.4g} ± {mine.std(ddof=1):.2g}</td>", results)

    def test_island_tables_and_figure_follow_the_file(self):
        # Islands 1 and 4 in one run: the one-island point's rows are padded out to four.
        generations, every, count, replicates = 8, 2, 1, 2
        config = self.write(f"""\
            experiment: islands
            kernel: onemax
            driver: ga
            params: {{length: 24}}
            ga: {{population: 32, generations: {generations}, islands: 4,
                 migration: {{every: {every}, count: {count}, topology: ring}}}}
            sweep:
              grid: {{ga.islands: [1, 4]}}
              replicates: {replicates}
            seed: 5
            """, "islands.yaml")
        result, out = self.report(config)
        with h5py.File(result, "r") as f:
            history = f["ga/island_history"][()]
            migrations = f["ga/migrations"][()]
            island_best = f["ga/island_best"][()]
            genomes = f["ga/island_best_genomes"][()]
        self.assertEqual(history.shape, (2 * replicates, generations, 4))
        with analysis.load(result) as run:
            islands = run.island_history
            moved = run.migrations
            best = run.island_best
            tasks = run.tasks
        # Every generation of every island of every task, by hand: (1 + 4) islands x 8 x 2.
        self.assertEqual(len(islands), replicates * generations * (1 + 4))
        self.assertEqual(len(islands), int((history["generation"] >= 0).sum()))
        lone = islands[islands["ga.islands"] == 1]
        self.assertEqual(set(lone.island), {0})
        self.assertEqual(len(lone), replicates * generations)
        for row in islands.itertuples():
            stored = history[row.task, row.generation, row.island]
            self.assertEqual((stored["generation"], stored["island"]), (row.generation, row.island))
            self.assertEqual((stored["best"], stored["diversity"]), (row.best, row.diversity))
            self.assertTrue(0 <= row.diversity <= 1)
        # Migrants leave each of the 4 islands after generations 2, 4 and 6 (never after the last).
        events = len(range(every, generations - 1, every))
        self.assertEqual(len(moved), replicates * 4 * count * events)
        self.assertEqual(len(moved), int((migrations["generation"] >= 0).sum()))
        self.assertTrue((moved.generation % every == 0).all())
        self.assertEqual(sorted(set(moved.generation)), list(range(every, generations - 1, every)))
        self.assertEqual(set(moved["ga.islands"]), {4})
        self.assertTrue((moved.to == (moved["from"] + 1) % 4).all(), "ring: island i sends to i + 1")
        # The best individual of each island, its genome without padding.
        self.assertEqual(len(best), replicates * (1 + 4))
        for row in best.itertuples():
            self.assertEqual(row.fitness, island_best[row.task, row.island]["fitness"])
            self.assertEqual(row.genome, [g for g in genomes[row.task, row.island].tolist() if g >= 0])

        self.assertTrue(os.path.getsize(os.path.join(out, "ga_islands.png")) > 5000)
        rows = self.data(out, "ga_islands")
        first = tasks[tasks.replicate == 0].set_index("point").task
        self.assertEqual({int(r["task"]) for r in rows}, set(first))
        self.assertEqual(len(rows), generations * (1 + 4))
        expected = islands.set_index(["task", "generation", "island"])
        left = moved.groupby(["task", "generation", "from"]).size()
        for row in rows:
            key = (int(row["task"]), int(row["generation"]), int(row["island"]))
            self.assertEqual(float(row["best"]), expected.loc[key, "best"], key)
            self.assertEqual(float(row["diversity"]), expected.loc[key, "diversity"], key)
            self.assertEqual(int(row["emigrants"]), int(left.get(key, 0)), key)
            self.assertEqual(int(row["ga.islands"]), int(expected.loc[key, "ga.islands"]), key)

    def test_qd_tables_and_figures_follow_the_file(self):
        # onemax measures the share of ones in each half of the genome: 12 genes a half. Two
        # points of 5 and 8 bins along first_half; second_half overridden to 3 bins over
        # [0.25, 0.75], so values outside fall into the end bins. The 5-bin point's 15 cells
        # are padded out to the 8-bin point's 24.
        length, init, iterations, batch, replicates = 24, 30, 12, 20, 2
        config = self.write(f"""\
            experiment: qd
            kernel: onemax
            driver: qd
            params: {{length: {length}}}
            qd: {{bins: 8, init: {init}, iterations: {iterations}, batch: {batch},
                 measures: {{second_half: {{bins: 3, range: [0.25, 0.75]}}}}}}
            sweep: {{grid: {{qd.bins: [5, 8]}}, replicates: {replicates}}}
            seed: 7
            """, "qd.yaml")
        # A figure module for onemax (a kernel without one): its genomes drawn as qd_levels.
        modules = self.path("modules")
        os.makedirs(modules)
        with open(os.path.join(modules, "onemax.py"), "w") as module:
            module.write("from analysis.figures import qd_levels\n\n\n"
                         "def figures(report):\n"
                         "    qd_levels(report, lambda ax, row, level: ax.imshow([row['genome']]),\n"
                         "              'Each genome as a strip of bits.')\n")
        result, out = self.report(config, figures=[modules])
        with h5py.File(result, "r") as f:
            history = f["qd/history"][()]
            archive = f["qd/archive"][()]
            genomes = f["qd/archive_genomes"][()]
            low, high, bins = (f[f"qd/measure_{part}"][()] for part in ("low", "high", "bins"))
            names = [text(name) for name in f["qd"].attrs["measures"]]
        self.assertEqual(names, ["first_half", "second_half"])
        self.assertEqual(bins.tolist(), [[5, 3], [8, 3]])
        self.assertEqual(archive.shape, (2 * replicates, 24))
        tasks = 2 * replicates
        point_of = np.arange(tasks) // replicates
        with analysis.load(result) as run:
            qd_history = run.qd_history
            qd_archive = run.qd_archive
        # Every iteration of every task, iteration 0 the initial genomes: 13 rows a task.
        self.assertEqual(len(qd_history), tasks * (iterations + 1))
        self.assertEqual(len(qd_history), int((history["iteration"] >= 0).sum()))
        for task, rows in qd_history.groupby("task"):
            self.assertEqual(rows.iteration.tolist(), list(range(iterations + 1)))
            self.assertEqual(rows.evaluations.tolist(), [init + batch * i for i in range(iterations + 1)])
            self.assertEqual(rows.coverage.tolist(), sorted(rows.coverage), f"task {task}: coverage falls")
            cells = int(np.prod(bins[point_of[task]]))
            np.testing.assert_allclose(rows.coverage, rows.occupied / cells)
            self.assertTrue((rows["qd.bins"] == [5, 8][point_of[task]]).all())
        # One row per occupied cell: as many as the history's last `occupied`, as the file's.
        last = qd_history.sort_values("iteration").groupby("task").tail(1).set_index("task")
        per_task = qd_archive.groupby("task").size()
        for task in range(tasks):
            self.assertEqual(per_task[task], last.occupied[task])
            self.assertEqual(per_task[task], int((archive["occupied"][task] == 1).sum()))
            fitness = archive["fitness"][task][archive["occupied"][task] == 1]
            self.assertAlmostEqual(last.qd_score[task], fitness.sum(), places=9)  # score_offset 0
            self.assertEqual(last.best[task], fitness.max())
        self.assertTrue((archive["cell"][0, 15:] == -1).all(), "the 5-bin point's padding")
        self.assertEqual(list(qd_archive.columns[:11]), [
            "task", "point", "replicate", "qd.bins", "cell", "bin_first_half", "bin_second_half",
            "measure_first_half", "measure_second_half", "fitness", "ones"])
        for row in qd_archive.itertuples():
            point = point_of[row.task]
            stored = archive[row.task, row.cell]
            self.assertEqual((stored["cell"], stored["occupied"]), (row.cell, 1))
            self.assertEqual(row.genome, genomes[row.task, row.cell].tolist())
            # Hand-derived: onemax's fitness and measures from the genome.
            self.assertEqual(row.fitness, sum(row.genome) / length)
            self.assertEqual(row.measure_first_half, sum(row.genome[:12]) / 12)
            self.assertEqual(row.measure_second_half, sum(row.genome[12:]) / 12)
            found = []
            for m, name in enumerate(names):
                value = getattr(row, f"measure_{name}")
                scaled = (value - low[point, m]) / (high[point, m] - low[point, m]) * bins[point, m]
                found.append(int(min(max(np.floor(scaled), 0), bins[point, m] - 1)))
            self.assertEqual([row.bin_first_half, row.bin_second_half], found, row)
            self.assertEqual(row.cell, row.bin_first_half * bins[point, 1] + row.bin_second_half)
        self.assertTrue((qd_archive.measure_second_half > 0.75).any(), "no value above the range")

        # The heatmap: per point, the replicate with the highest final QD score, every elite.
        rows = self.data(out, "qd_archive")
        expected = {point: max(range(point * replicates, (point + 1) * replicates),
                               key=lambda t: (last.qd_score[t], -t)) for point in (0, 1)}
        self.assertEqual({int(r["point"]): int(r["task"]) for r in rows}, expected)
        self.assertEqual(len(rows), sum(per_task[t] for t in expected.values()))
        for row in rows:
            task, cell = int(row["task"]), int(row["cell"])
            self.assertEqual(float(row["fitness"]), archive[task, cell]["fitness"])
            mine = qd_archive[(qd_archive.task == task) & (qd_archive.cell == cell)].iloc[0]
            self.assertEqual((int(row["bin_first_half"]), int(row["bin_second_half"])),
                             (mine.bin_first_half, mine.bin_second_half))
            width = 1 / bins[point_of[task], 0]
            self.assertAlmostEqual(float(row["first_half_low"]), mine.bin_first_half * width)

        # Progress: per point and iteration, the replicates' mean coverage and QD score.
        rows = self.data(out, "qd_progress")
        self.assertEqual(len(rows), 2 * (iterations + 1))
        for row in rows:
            point, iteration = int(row["point"]), int(row["iteration"])
            mine = history[point * replicates:(point + 1) * replicates, iteration]
            self.assertAlmostEqual(float(row["coverage_mean"]), mine["coverage"].mean(), places=12)
            self.assertAlmostEqual(float(row["qd_score_max"]), mine["qd_score"].max(), places=12)
            self.assertEqual(float(row["evaluations"]), init + batch * iteration)
        for point in (0, 1):
            coverage = [float(r["coverage_mean"]) for r in rows if int(r["point"]) == point]
            self.assertEqual(coverage, sorted(coverage))

        # The levels: the task with the highest final QD score, the bins its elites reach cut
        # into at most 4 runs along first_half and 3 (its bins) along second_half; a panel per
        # block that holds an elite, showing one of them.
        rows = self.data(out, "qd_levels")
        best = max(range(tasks), key=lambda t: (last.qd_score[t], -t))
        self.assertEqual({int(r["task"]) for r in rows}, {best})
        elites = qd_archive[qd_archive.task == best]
        blocks = {}
        for name, most in (("first_half", 4), ("second_half", 3)):
            reached = np.arange(elites[f"bin_{name}"].min(), elites[f"bin_{name}"].max() + 1)
            blocks[name] = [list(b) for b in np.array_split(reached, min(most, len(reached)))]
        filled = {(i, j) for i, bx in enumerate(blocks["first_half"])
                  for j, by in enumerate(blocks["second_half"])
                  if ((elites.bin_first_half.isin(bx)) & (elites.bin_second_half.isin(by))).any()}
        self.assertEqual(len(rows), len(filled))
        got = set()
        for row in rows:
            cell = int(row["cell"])
            self.assertEqual(float(row["fitness"]), archive[best, cell]["fitness"])
            for name in ("first_half", "second_half"):
                self.assertLessEqual(int(row[f"block_{name}_first"]), int(row[f"bin_{name}"]))
                self.assertLessEqual(int(row[f"bin_{name}"]), int(row[f"block_{name}_last"]))
            i = [b[0] for b in blocks["first_half"]].index(int(row["block_first_half_first"]))
            j = [b[0] for b in blocks["second_half"]].index(int(row["block_second_half_first"]))
            got.add((i, j))
        self.assertEqual(got, filled)
        for figure in ("qd_archive.png", "qd_progress.png", "qd_levels.png"):
            self.assertGreater(os.path.getsize(os.path.join(out, figure)), 5000, figure)

    def test_hypervolume_and_final_fronts_follow_the_file(self):
        # NSGA-II on ZDT1 and ZDT3, the second point stopping after 5 of 8 generations (a zip).
        replicates = 2
        config = self.write(f"""\
            experiment: zdt-small
            kernel: zdt
            driver: ga
            params: {{dimension: 4}}
            ga: {{breeding: nsga2, population: 12, generations: 8, keep_best: 12}}
            sweep:
              zip: {{params.problem: [1, 3], ga.generations: [8, 5]}}
              replicates: {replicates}
            seed: 3
            """, "zdt.yaml")
        result, out = self.report(config)
        with h5py.File(result, "r") as f:
            stored = f["ga/pareto_history"][()]
            fronts = f["ga/fronts"][()]
            reference = f["ga/objective_reference"][()]
        ran = stored["generation"] >= 0
        self.assertEqual(ran.sum(axis=1).tolist(), [8, 8, 5, 5])

        # Per point and generation, over the replicates: the file's hypervolumes.
        rows = self.data(out, "ga_hypervolume")
        self.assertEqual(len(rows), int(ran[::replicates].sum()))
        for row in rows:
            point, generation = int(row["point"]), int(row["generation"])
            mine = stored[point * replicates:(point + 1) * replicates, generation]
            self.assertTrue((mine["generation"] == generation).all())
            self.assertAlmostEqual(float(row["hypervolume_mean"]), mine["hypervolume"].mean(), places=12)
            self.assertEqual(float(row["hypervolume_min"]), mine["hypervolume"].min())
            self.assertEqual(float(row["hypervolume_max"]), mine["hypervolume"].max())
            self.assertEqual(float(row["evaluations"]), mine["evaluations"].mean())
            self.assertEqual(int(row["replicates"]), replicates)
            self.assertEqual([float(row["reference_f1"]), float(row["reference_f2"])],
                             reference[point].tolist())
        # Each task's front of its last generation: the file's non-NaN members, in order.
        rows = self.data(out, "ga_pareto_front")
        for task in range(len(stored)):
            last = int(stored["generation"][task][ran[task]].max())
            members = fronts[task, last][~np.isnan(fronts[task, last]).all(axis=1)]
            mine = [r for r in rows if int(r["task"]) == task]
            self.assertEqual({int(r["generation"]) for r in mine}, {last})
            self.assertEqual([int(r["member"]) for r in mine], list(range(len(members))))
            np.testing.assert_array_equal([[float(r["f1"]), float(r["f2"])] for r in mine], members)
        self.assertEqual(len(rows), sum(int(stored["front_size"][t][ran[t]][-1]) for t in range(4)))
        drawn = self.drawn["ga_pareto_front.png"]
        self.assertEqual([(panel["xlabel"], panel["ylabel"]) for panel in drawn],
                         [("f1 (minimized)", "f2 (minimized)"), ("f1 (minimized)", "")])
        self.assertEqual([panel["title"] for panel in drawn],
                         ["problem=1\nfinal fronts, generation 7", "problem=3\nfinal fronts, generation 4"])
        with open(os.path.join(out, "index.html")) as index:
            page = index.read()
        self.assertIn("bounded by the reference point (f1, f2) = (1.1, 1.1)", page)
        self.assertIn("in the objectives&#x27; own units", page)
        self.assertIn("The replicates&#x27; fronts are overlaid, not pooled", page)
        for figure in ("ga_hypervolume.png", "ga_pareto_front.png"):
            self.assertGreater(os.path.getsize(os.path.join(out, figure)), 5000, figure)

        # Three objectives (the file rewritten with g as the third): the first two are drawn,
        # and the caption says so.
        with h5py.File(result, "r+") as f:
            widened = np.concatenate([fronts, fronts[..., :1] * 0 + 1], axis=3)
            widened[np.isnan(fronts[..., :1]).repeat(3, axis=3)] = np.nan
            del f["ga/fronts"], f["ga/objective_reference"]
            f["ga/fronts"] = widened
            f["ga/objective_reference"] = np.concatenate([reference, reference[:, :1]], axis=1)
            f["ga"].attrs["objectives"] = np.array(["f1", "f2", "g"], dtype=h5py.string_dtype())
            f["ga"].attrs["minimize"] = np.array([1, 1, 1], dtype=np.int64)
        reseal(result)
        out = self.report_file(result)
        rows = self.data(out, "ga_pareto_front")
        self.assertEqual({float(r["g"]) for r in rows}, {1.0})
        self.assertEqual(self.drawn["ga_pareto_front.png"][0]["xlabel"], "f1 (minimized)")
        self.assertEqual(self.drawn["ga_pareto_front.png"][0]["ylabel"], "f2 (minimized)")
        with open(os.path.join(out, "index.html")) as index:
            page = index.read()
        self.assertIn("The kernel has 3 objectives (f1, f2, g); the panels show the first two", page)
        self.assertIn("The hypervolume is over all 3 objectives (f1, f2, g)", page)


if __name__ == "__main__":
    unittest.main()

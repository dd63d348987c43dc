"""analysis.load on result files made by the real runner, every driver, checked against
what h5py reads from the same files (LoadRuns, ManyRuns: the writer held against the
loader); and the files it must refuse, with their reasons, the catalog and the exports, on a
file written with h5py (tests/result_files.py).

Run by CTest through tests/run_suites.py, with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in
the environment.
"""

import contextlib
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np
import xxhash
import yaml

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

import analysis  # noqa: E402  (the repository's package, after the path above)
import result_files  # noqa: E402
from cli_support import TempDirTest, analysis_command, levelforge, reseal  # noqa: E402

DATA = os.path.join(REPO, "tests", "data")
# A command that should return at once, but on a FIFO would wait for a writer: a test waits
# this long for it before failing, never longer (it returns in about a second).
PROMPTLY_S = 60
SHARED = {}


def shared_run(test, config, *args, ranks=None):
    """The result of `config` run with `args` (alone, or under mpiexec on `ranks`), made once
    for every test that only reads it or copies it (a run per test is more than the CI's
    time allows); tearDownModule removes it. Alone by default: these tests are about what
    analysis reads, and a file holds the same datasets on any rank count (cli_test's
    Determinism); analysis reads the rank count only as a provenance value, which
    test_match3_best_has_validation_and_levels checks on 2 ranks. An mpiexec start costs
    about 0.1 s of CPU and 0.3 s of wall."""
    key = (config, *args, ranks)
    if key not in SHARED:
        if "dir" not in SHARED:
            SHARED["dir"] = tempfile.mkdtemp(prefix="levelforge-shared-")
        path = os.path.join(SHARED["dir"], f"run-{len(SHARED)}.h5")
        test.assert_ok(levelforge("run", config, "-o", path, "-q", *args, ranks=ranks))
        SHARED[key] = path
    return SHARED[key]


def shared_sweep(test):
    """A sweep's result as tests/data/doc_sweep.yaml's would be (its experiment, seed, points
    and replicates), written with h5py once (tests/result_files.py) for the tests of what
    analysis refuses, lists and exports: no run needed."""
    if "sweep" not in SHARED:
        if "dir" not in SHARED:
            SHARED["dir"] = tempfile.mkdtemp(prefix="levelforge-shared-")
        SHARED["sweep"] = result_files.write(SHARED["dir"], "sweep", experiment="doc-sweep", seed=2,
                                             kernel="collatz", points={"params.start": [1, 1000]},
                                             replicates=5)
    return SHARED["sweep"]


def tearDownModule():
    if "dir" in SHARED:
        shutil.rmtree(SHARED["dir"], ignore_errors=True)


def folder_bytes(folder):
    """{name: bytes} of every file in `folder` (hidden ones too): what a test compares to
    show that a command left a folder as it was."""
    found = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as f:
            found[name] = f.read()
    return found


def cli_process(*args):
    """`python3 -m analysis ARGS` as its own process, for what could block or crash it."""
    return subprocess.run([sys.executable, "-m", "analysis", *map(os.fspath, args)], cwd=REPO,
                          capture_output=True, text=True, timeout=PROMPTLY_S)


def text_of(value):
    return value.decode() if isinstance(value, bytes) else value


def run_config(test, config, out, *args, ranks=None):
    """`config` run with `args`, its result at `out`: a copy of shared_run's, so that the
    tests reading the same experiment (doc_ga.yaml in seven of them, doc_sweep.yaml in six)
    run it once. A shard's file is named by the shard: that run is the test's own, on 2
    ranks (a shard's padding rows are the rows no rank of the shard writes)."""
    if "--shard" in args:
        test.assert_ok(levelforge("run", config, "-o", out, "-q", *args, ranks=2))
    else:
        shutil.copy(shared_run(test, config, *args, ranks=ranks), out)
    return out


class LoadRuns(TempDirTest):
    def test_ga_tables_match_the_file(self):
        out = run_config(self, os.path.join(DATA, "doc_ga.yaml"), self.path("ga.h5"))
        with analysis.load(out) as run, h5py.File(out, "r") as f:
            self.assertEqual(run.driver, "ga")
            history = f["ga/history"][()]
            real = history["generation"] >= 0
            self.assertEqual(len(run.history), int(real.sum()))
            self.assertEqual(list(run.history.columns[:6]), ["task", "generation", "best", "mean", "std", "min"])
            task, generation = 2, 7
            row = run.history[(run.history.task == task) & (run.history.generation == generation)]
            self.assertEqual(float(row["best"].iloc[0]), float(history[task, generation]["best"]))
            # One row per task, its swept value beside it.
            tasks = f["tasks"][()]
            points = f["points"][()]
            self.assertEqual(len(run.tasks), len(tasks))
            swept = [c for c in points.dtype.names if c != "point"][0]
            self.assertEqual(list(run.tasks[swept]), [points[swept][p] for p in tasks["point"]])
            # The kept individuals, their genomes without padding.
            best = f["ga/best"][()]
            genomes = f["ga/best_genomes"][()]
            kept = best["position"] >= 0
            self.assertEqual(len(run.best), int(kept.sum()))
            first = run.best[(run.best.task == 2) & (run.best.position == 0)].iloc[0]
            self.assertEqual(first["fitness"], best[2, 0]["fitness"])
            self.assertEqual(first["genome"], [g for g in genomes[2, 0].tolist() if g >= 0])
            joined = run.with_params(run.history)
            self.assertIn(swept, joined.columns)
            self.assertEqual(len(joined), len(run.history))

    def test_a_shard_holds_its_own_tasks_and_padding_elsewhere(self):
        # Shard 1 of 3 of each run: its tasks are those with task % 3 == 1. The other rows are
        # the documented padding, never rows that look like results (task 0, fitness 0.0).
        ga = run_config(self, os.path.join(DATA, "doc_ga.yaml"), self.path("ga.h5"),
                        "--shard", "1/3")
        sweep = run_config(self, os.path.join(DATA, "doc_sweep.yaml"), self.path("sweep.h5"),
                           "--shard", "1/3")
        ga = ga.replace(".h5", ".shard-1-of-3.h5")
        sweep = sweep.replace(".h5", ".shard-1-of-3.h5")
        with h5py.File(ga, "r") as f:
            tasks = f["tasks"][()]
            others = np.arange(len(tasks)) % 3 != 1
            self.assertTrue((tasks["status"][others] == 0).all())
            self.assertTrue((tasks["task"][others] == -1).all())
            self.assertTrue((f["ga/history"][()]["generation"][others] == -1).all())
            self.assertTrue(np.isnan(f["ga/best"][()]["fitness"][others]).all())
            self.assertTrue((f["ga/best_genomes"][()][others] == -1).all())
        with analysis.load(ga, allow_shard=True) as run:
            self.assertEqual(sorted(run.tasks.task), [1])
            self.assertEqual(set(run.history.task), {1})
            self.assertEqual(set(run.best.task), {1})
        with h5py.File(sweep, "r") as f:
            others = np.arange(len(f["tasks"])) % 3 != 1
            self.assertTrue((f["sweep/records"][()]["steps"][others] == -1).all())
        with analysis.load(sweep, allow_shard=True) as run:
            self.assertEqual(sorted(run.tasks.task), [1, 4, 7])
            self.assertEqual(sorted(run.records.task), [1, 4, 7])

    def test_genomes_are_cut_at_their_points_length(self):
        """Mazes of 3 x 3 and 5 x 4 have genomes of 3*3*2 + 1 + 2 and 5*4*2 + 1 + 2 values
        (walls, start, target slots, docs/tiltmaze.md), padded to the longer with -1; an empty
        target slot is a -1 gene too, so the point's genome length is what cuts them."""
        config = self.write("""
experiment: genome-lengths
kernel: tiltmaze
driver: ga
params: {targets: 2}
ga: {population: 8, generations: 2, keep_best: 2}
sweep:
  zip: {params.width: [3, 5], params.height: [3, 4]}
seed: 4
""", "lengths.yaml")
        out = run_config(self, config, self.path("lengths.h5"))
        with analysis.load(out) as run, h5py.File(out, "r") as f:
            lengths = f["ga/genome_length"][()].tolist()
            self.assertEqual(lengths, [3 * 3 * 2 + 3, 5 * 4 * 2 + 3])
            for row in run.best.itertuples():
                self.assertEqual(len(row.genome), lengths[row.point])
                self.assertEqual(row.genome, f["ga/best_genomes"][row.task, row.position][:lengths[row.point]].tolist())

    def test_match3_best_has_validation_and_levels(self):
        out = run_config(self, os.path.join(REPO, "configs", "demo.yaml"), self.path("demo.h5"),
                         "--set", "ga.generations=3", ranks=2)
        with analysis.load(out) as run, h5py.File(out, "r") as f:
            self.assertIn("validated_p_empirical", run.best.columns)
            validation = f["ga/validation"][()]
            self.assertEqual(run.best["validated_mean"].iloc[0], validation[0, 0]["validated_mean"])
            self.assertEqual(run.levels.shape, f["ga/best_levels"].shape)
            # The seed genome is one signed 32-bit gene: a negative one is a gene, not padding.
            genomes = f["ga/best_genomes"][()]
            self.assertTrue((genomes < -1).any(), "no negative gene: the case is not tested")
            for row in run.best.itertuples():
                self.assertEqual(row.genome, genomes[row.task, row.position].tolist())
            provenance = run.provenance
            self.assertEqual(provenance["kernel"], "match3")
            self.assertEqual(provenance["ranks"], 2)
            self.assertEqual(provenance["seed"], 2026)
            # The configs parsed (the one written and the one run, defaults filled in) and as text.
            self.assertEqual(provenance["config"]["experiment"], "demo")
            self.assertEqual(provenance["config"]["ga"]["generations"], 3)
            self.assertNotIn("estimator", provenance["config"]["params"])
            self.assertEqual(provenance["effective_config"]["params"]["estimator"], "normal")
            self.assertIn("experiment: demo", provenance["config_text"])
            self.assertEqual(provenance["effective_config_text"], f.attrs["effective_config"].decode()
                             if isinstance(f.attrs["effective_config"], bytes) else f.attrs["effective_config"])
            self.assertEqual(list(run.provenance_frame.columns[:3]), ["experiment", "kernel", "driver"])
            self.assertEqual(provenance["git_commit"], f.attrs["git_commit"].decode()
                             if isinstance(f.attrs["git_commit"], bytes) else f.attrs["git_commit"])

    def test_sweep_records_carry_their_points(self):
        out = run_config(self, os.path.join(DATA, "doc_sweep.yaml"), self.path("sweep.h5"))
        with analysis.load(out) as run, h5py.File(out, "r") as f:
            records = f["sweep/records"][()]
            self.assertEqual(len(run.records), len(records))
            self.assertEqual(list(run.records["steps"]), records["steps"].tolist())
            self.assertTrue({"task", "point", "replicate"} <= set(run.records.columns))
            with self.assertRaises(analysis.LoadError):
                _ = run.history  # a sweep has none, and says so

    def test_exhaustive_reductions_top_and_solutions(self):
        out = run_config(self, os.path.join(DATA, "doc_exhaustive.yaml"), self.path("ex.h5"))
        with analysis.load(out) as run, h5py.File(out, "r") as f:
            counts = f["exhaustive/counts"][()]
            visited = run.reductions[(run.reductions.reduction == "visited")]
            self.assertEqual(list(visited["value"]), counts["visited"].tolist())
            steps = f["exhaustive/histograms/steps"]
            histogram = run.reductions[(run.reductions.reduction == "steps") & (run.reductions.task == 1)]
            self.assertEqual(len(histogram), steps.shape[1])
            self.assertEqual(histogram["value"].tolist(), steps[1].tolist())
            # Bin s + 1 counts the values with s steps: low = s, high = s + 1.
            bin7 = histogram[histogram["bin"] == 8].iloc[0]
            self.assertEqual((bin7["low"], bin7["high"]), (7.0, 8.0))
            self.assertEqual(histogram["low"].iloc[0], -np.inf)
            top = run.top["longest"]
            table = f["exhaustive/top/longest"][()]
            self.assertEqual(len(top), int((table["index"] >= 0).sum()))
            self.assertEqual(top[top.task == 0]["score"].tolist()[:3], table[0]["score"][:3].tolist())
            self.assertEqual(len(run.solutions), f["exhaustive/solutions"].shape[0])

    def test_failures_are_listed_and_left_out_of_the_results(self):
        sweep = self.write("""
            experiment: faulty-sweep
            kernel: faulty
            driver: sweep
            on_error: record
            params: {fail_value: 2}
            sweep: {grid: {params.value: [1, 2, 3]}, replicates: 2}
        """, "sweep.yaml")
        out = self.path("sweep.h5")
        self.assertEqual(levelforge("run", sweep, "-o", out, "-q").returncode, 3)
        with analysis.load(out) as run:
            self.assertEqual(run.records["task"].tolist(), [0, 1, 4, 5])
            self.assertNotIn(-1, run.records["value"].tolist())
            self.assertEqual(run.failures["task"].tolist(), [2, 3])
            self.assertEqual(run.failures["params.value"].tolist(), [2, 2])
            self.assertEqual(set(run.failures["message"]), {"faulty: failing on purpose at value 2"})
        exhaustive = self.write("""
            experiment: faulty-exhaustive
            kernel: faulty
            driver: exhaustive
            on_error: record
            params: {count: 1000, fail_index: 250}
            exhaustive: {chunk: 100}
        """, "exhaustive.yaml")
        out = self.path("exhaustive.h5")
        self.assertEqual(levelforge("run", exhaustive, "-o", out, "-q").returncode, 3)
        with analysis.load(out) as run:
            visited = run.reductions[run.reductions.reduction == "visited"].iloc[0]
            self.assertEqual((visited["value"], visited["uncovered"]), (900, 100))
            self.assertEqual(run.failures[["begin", "end"]].values.tolist(), [[200, 300]])
        # A run without failures has an empty frame with the columns.
        clean = run_config(self, os.path.join(DATA, "doc_sweep.yaml"), self.path("clean.h5"))
        with analysis.load(clean) as run:
            self.assertEqual(len(run.failures), 0)
            self.assertIn("message", run.failures.columns)

    def assert_records_match(self, run, f):
        """records: one row per task, the file's columns first, then task, point, replicate
        and the swept values (text params as str)."""
        records = f["sweep/records"][()]
        points = f["points"][()]
        swept = [c for c in points.dtype.names if c != "point"]
        self.assertEqual(run.records.shape,
                         (len(records), len(records.dtype.names) + 3 + len(swept)))
        self.assertEqual(list(run.records.columns),
                         ["task", *records.dtype.names, "point", "replicate", *swept])
        self.assertEqual(list(run.points.columns), ["point", *swept])
        for key in swept:
            values = [v.decode() if isinstance(v, bytes) else v for v in points[key]]
            self.assertEqual(list(run.points[key]), values, key)
        return records

    def test_monsters_sweep_and_ga(self):
        sweep = run_config(self, os.path.join(REPO, "configs", "monsters_sweep.yaml"),
                           self.path("ms.h5"), "--set", "params.worlds=4", "--set", "params.turns=20",
                           "--set", "sweep.grid.params.fear=[0, 8]",
                           "--set", "sweep.grid.params.group_size=[3]")
        with analysis.load(sweep) as run, h5py.File(sweep, "r") as f:
            records = self.assert_records_match(run, f)
            self.assertEqual(set(run.records["params.monster"]), {"goblin", "orc"})
            self.assertEqual(run.records["p_survive"].tolist(), records["p_survive"].tolist())
            self.assertEqual([s["name"] for s in run.param_table("species")],
                             ["goblin", "orc", "skeleton"])
            self.assertIsNone(run.param_table("worlds"))  # a scalar, not a table
        ga = run_config(self, os.path.join(REPO, "configs", "monsters_ga.yaml"), self.path("mg.h5"),
                        "--set", "ga.population=4", "--set", "ga.generations=2",
                        "--set", "params.worlds=4", "--set", "params.turns=20",
                        "--set", "params.validation_worlds=4")
        with analysis.load(ga) as run, h5py.File(ga, "r") as f:
            self.assertEqual(len(run.best), int((f["ga/best"]["position"][()] >= 0).sum()))
            self.assertTrue({"p_survive", "share_fear", "validated_p_survive"} <= set(run.best.columns))
            self.assertEqual(len(run.history), int((f["ga/history"]["generation"][()] >= 0).sum()))
            self.assertEqual(list(run.points["params.target"]), [0.2, 0.5, 0.8])

    def test_spawn_sweep_and_ga(self):
        sweep = run_config(self, os.path.join(REPO, "configs", "spawn_sweep.yaml"), self.path("ss.h5"),
                           "--set", "params.runs=10", "--set", "sweep.replicates=1")
        with analysis.load(sweep) as run, h5py.File(sweep, "r") as f:
            records = self.assert_records_match(run, f)
            self.assertEqual(list(run.records["params.recency"][:3]), ["all", "window", "decay"])
            # first_run: 4 hex digits for each of the 50 levels (docs/spawn.md).
            self.assertEqual(run.records["first_run"].tolist(),
                             [v.decode() for v in records["first_run"]])
            self.assertTrue(all(len(text) == 200 for text in run.records["first_run"]))
            self.assertEqual([o["name"] for o in run.param_table("objects")],
                             ["slime", "thief", "wolf", "goblin", "skeleton", "archer", "orc", "troll"])
        ga = run_config(self, os.path.join(REPO, "configs", "spawn_ga.yaml"), self.path("sg.h5"),
                        "--set", "params.runs=10", "--set", "params.validation_runs=10", "--set",
                        "ga.population=4", "--set", "ga.generations=2", "--set", "sweep.replicates=1")
        with analysis.load(ga) as run, h5py.File(ga, "r") as f:
            validation = f["ga/validation"][()]
            self.assertEqual(list(run.best.columns[-len(validation.dtype.names) - 1:-1]),
                             list(validation.dtype.names))
            self.assertEqual(run.best["validated_first_run"].iloc[0],
                             validation[0, 0]["validated_first_run"].decode())
            self.assertEqual(run.swept_keys, [])

    def test_module_command_summarizes_a_file(self):
        out = run_config(self, os.path.join(DATA, "doc_sweep.yaml"), self.path("sweep.h5"))
        result = subprocess.run([sys.executable, "-m", "analysis", out], cwd=REPO,
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("records: 10 rows", result.stdout)


class ManyRuns(TempDirTest):
    def test_files_load_together_with_a_run_column(self):
        ga = run_config(self, os.path.join(DATA, "doc_ga.yaml"), self.path("ga.h5"))
        sweep = run_config(self, os.path.join(DATA, "doc_sweep.yaml"), self.path("sweep.h5"))
        with h5py.File(self.path("other.h5"), "w") as f:
            f["x"] = [1]
        with h5py.File(ga, "r") as f:
            ga_tasks = len(f["tasks"])
            ga_history = int((f["ga/history"][()]["generation"] >= 0).sum())
            commit = f.attrs["git_commit"]
            commit = (commit.decode() if isinstance(commit, bytes) else commit)[:7]
        with h5py.File(sweep, "r") as f:
            sweep_tasks = len(f["tasks"])
        with analysis.load_many([ga, sweep]) as runs:
            self.assertEqual(len(runs.tasks), ga_tasks + sweep_tasks)
            self.assertEqual(sorted(set(runs.tasks.run)),
                             [f"doc-ga seed=1 commit={commit}", f"doc-sweep seed=2 commit={commit}"])
            # Only the ga file has a history; every row names it.
            self.assertEqual(len(runs.history), ga_history)
            self.assertEqual(set(runs.history.path), {ga})
            self.assertEqual(len(runs.records), sweep_tasks)
        with self.assertRaises(analysis.LoadError):
            analysis.load_many(self.path("*.h5"))  # other.h5 is no result
        table = analysis.catalog(self.dir)
        self.assertEqual(list(table.path), [ga, self.path("other.h5"), sweep])
        self.assertEqual(list(table.tasks.iloc[[0, 2]]), [ga_tasks, sweep_tasks])
        self.assertEqual(list(table.done.iloc[[0, 2]]), [ga_tasks, sweep_tasks])
        self.assertIn("no levelforge seal", table.note.iloc[1])
        code, _, error = analysis_command("catalog", self.dir, "--csv", self.path("catalog.csv"))
        self.assertEqual(code, 0, error)
        with open(self.path("catalog.csv")) as f:
            self.assertEqual(f.readline().strip(), ",".join(analysis.many.CATALOG_COLUMNS))
            self.assertEqual(len(f.readlines()), 3)

    def test_a_run_exports_every_table_as_csv(self):
        ga = run_config(self, os.path.join(DATA, "doc_ga.yaml"), self.path("ga.h5"))
        out = self.path("export")
        code, _, error = analysis_command("export", ga, out, "--format", "csv")
        self.assertEqual(code, 0, error)
        self.assertEqual(sorted(os.listdir(out)), sorted(
            [*(f"{name}.csv" for name in ("provenance", "points", "tasks", "failures", "history", "best")),
             "levelforge-export.json"]))
        with h5py.File(ga, "r") as f:
            history = f["ga/history"][()]
            genomes = f["ga/best_genomes"][()]
        with open(os.path.join(out, "history.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), int((history["generation"] >= 0).sum()))
        self.assertIn("params.length", rows[0])
        with open(os.path.join(out, "best.csv")) as f:
            best = list(csv.DictReader(f))
        first = [row for row in best if row["task"] == "0" and row["position"] == "0"][0]
        self.assertEqual(first["genome"], " ".join(str(g) for g in genomes[0, 0] if g >= 0))

    def test_joins_add_only_what_is_missing(self):
        ga = run_config(self, os.path.join(DATA, "doc_ga.yaml"), self.path("ga.h5"))
        with analysis.load(ga) as run:
            self.assertIn("params.length", run.history.columns)
            self.assertIn("params.length", run.best.columns)
            twice = run.with_params(run.with_params(run.history))
            self.assertEqual(list(twice.columns), list(run.history.columns))
            self.assertFalse([c for c in twice.columns if c.endswith(("_x", "_y"))])

    def test_island_tables_are_empty_without_islands(self):
        ga = run_config(self, os.path.join(DATA, "doc_ga.yaml"), self.path("ga.h5"))
        islands = run_config(self, os.path.join(DATA, "doc_ga.yaml"), self.path("islands.h5"),
                             "--set", "ga.islands=3", "--set", "ga.migration.every=4")
        with analysis.load(ga) as run:
            self.assertEqual(list(run.island_history.columns),
                             ["task", "generation", "island", "best", "mean", "std", "min", "diversity",
                              "distance_to_others",
                              "point", "replicate", "params.length"])
            self.assertEqual(list(run.migrations.columns),
                             ["task", "generation", "from", "to", "source", "target", "fitness",
                              "point", "replicate", "params.length"])
            self.assertEqual(list(run.island_best.columns),
                             ["task", "point", "replicate", "params.length", "island", "fitness", "genome"])
            for frame in (run.island_history, run.migrations, run.island_best):
                self.assertTrue(frame.empty)
        with analysis.load(islands) as run, h5py.File(islands, "r") as f:
            history = f["ga/island_history"][()]
            self.assertEqual(len(run.island_history), int((history["generation"] >= 0).sum()))
            self.assertEqual(set(run.island_history.island), {0, 1, 2})
            # The history's rows are the islands' together: its best is the best island's.
            joined = run.island_history.groupby(["task", "generation"]).best.max()
            overall = run.history.set_index(["task", "generation"]).best
            self.assertTrue((joined.reindex(overall.index) == overall).all())
        with analysis.load_many([ga, islands]) as runs:
            self.assertEqual(set(runs.island_history.path), {islands})
        sweep = run_config(self, os.path.join(DATA, "doc_sweep.yaml"), self.path("sweep.h5"))
        with analysis.load(sweep) as run, self.assertRaises(analysis.LoadError):
            run.island_history

    def test_qd_tables_load_together_export_and_belong_to_qd(self):
        qd = run_config(self, os.path.join(DATA, "doc_qd.yaml"), self.path("qd.h5"))
        ga = run_config(self, os.path.join(DATA, "doc_ga.yaml"), self.path("ga.h5"))
        with h5py.File(qd, "r") as f:
            archive = f["qd/archive"][()]
        with analysis.load(qd) as run:
            self.assertEqual(list(run.qd_history.columns), [
                "task", "iteration", "evaluations", "occupied", "coverage", "qd_score", "best",
                "inserted", "point", "replicate", "qd.mutation_rate"])
            self.assertEqual(len(run.qd_history), 4 * 6)
            self.assertEqual(len(run.qd_archive), int((archive["occupied"] == 1).sum()))
            self.assertEqual(list(run.qd_archive.columns), [
                "task", "point", "replicate", "qd.mutation_rate", "cell", "bin_first_half",
                "bin_second_half", "measure_first_half", "measure_second_half", "fitness", "ones",
                "genome"])
            self.assertEqual(run.qd_measures.values.tolist(), [
                [0, "first_half", 0.0, 1.0, 4, 16], [0, "second_half", 0.0, 1.0, 4, 16],
                [1, "first_half", 0.0, 1.0, 4, 16], [1, "second_half", 0.0, 1.0, 4, 16]])
            self.assertIsNone(run.qd_levels)  # onemax renders no levels
            for table in ("history", "best", "records", "reductions", "island_history"):
                with self.assertRaises(analysis.LoadError):
                    getattr(run, table)
        with analysis.load(ga) as run:
            for table in ("qd_history", "qd_archive", "qd_measures", "qd_levels"):
                with self.assertRaises(analysis.LoadError):
                    getattr(run, table)
        with analysis.load_many([ga, qd]) as runs:
            self.assertEqual(set(runs.qd_history.path), {qd})
            self.assertEqual(len(runs.qd_archive), int((archive["occupied"] == 1).sum()))
            self.assertEqual(set(runs.history.path), {ga})
        out = self.path("export")
        code, _, error = analysis_command("export", qd, out)
        self.assertEqual(code, 0, error)
        self.assertEqual(sorted(os.listdir(out)), sorted(
            [*(f"{name}.csv" for name in ("provenance", "points", "tasks", "failures", "qd_history",
                                          "qd_archive", "qd_measures")), "levelforge-export.json"]))
        with open(os.path.join(out, "qd_archive.csv")) as f:
            first = next(csv.DictReader(f))
        with h5py.File(qd, "r") as f:
            stored = f["qd/archive_genomes"][int(first["task"]), int(first["cell"])]
        self.assertEqual(first["genome"], " ".join(map(str, stored)))
        code, printed, error = analysis_command(qd)
        self.assertEqual(code, 0, error)
        self.assertIn(f"qd_history: {4 * 6} rows", printed)

    def test_cvt_archives_and_real_genomes_load_as_stored(self):
        """A sphere run over a grid and CVT cells: the CVT point's rows have no bins (-1) and
        their cell's centroid, the grid point's no centroid; genomes are the stored float64
        genes; the netCDF export has one cell per cell of the larger archive."""
        config = self.write("""experiment: cvt
kernel: sphere
driver: qd
params: {dimension: 6}
qd: {bins: 5, cells: 40, cvt_samples: 2000, init: 30, iterations: 4, batch: 20}
sweep: {grid: {qd.archive: [grid, cvt]}, replicates: 1}
seed: 4
""", "cvt.yaml")
        out = run_config(self, config, self.path("cvt.h5"))
        with h5py.File(out, "r") as f:
            centroids = f["qd/centroids"][()]
            genomes = f["qd/archive_genomes"][()]
        with analysis.load(out) as run:
            archive = run.qd_archive
            self.assertEqual(run.qd_measures.cells.tolist(), [25, 25, 40, 40])
            self.assertEqual(run.qd_measures.bins.tolist(), [5, 5, 0, 0])
            grid, cvt = archive[archive.point == 0], archive[archive.point == 1]
            self.assertFalse(grid.empty or cvt.empty)
            self.assertTrue((grid.bin_projection_first >= 0).all())
            self.assertTrue(grid.centroid_projection_first.isna().all())
            self.assertTrue((cvt[["bin_projection_first", "bin_projection_second"]] == -1).all().all())
            np.testing.assert_array_equal(cvt.centroid_projection_second.to_numpy(),
                                          centroids[1, cvt.cell.to_numpy(), 1])
            for row in archive.itertuples():
                np.testing.assert_array_equal(row.genome, genomes[row.task, row.cell])
            cells = run.to_xarray().sizes["cell"]
        self.assertEqual(cells, 40)


# NSGA-II on ZDT1 and ZDT3, small: the two points run 8 and 5 generations (a zip), so the
# second point's rows of /ga/pareto_history and /ga/fronts are padding after generation 4.
ZDT = """\
experiment: zdt-small
kernel: zdt
driver: ga
params: {dimension: 4}
ga: {breeding: nsga2, population: 12, generations: 8, keep_best: 12}
sweep:
  zip: {params.problem: [1, 3], ga.generations: [8, 5]}
  replicates: 2
seed: 3
"""


class ParetoRuns(TempDirTest):
    """A GA of a kernel with objectives (zdt): pareto_history, fronts and objective_reference
    as the file holds them, listed, exported and concatenated; a run without objectives has
    None for each and lists, exports and concatenates nothing new."""

    def test_pareto_tables_match_the_file(self):
        zdt = run_config(self, self.write(ZDT, "zdt.yaml"), self.path("zdt.h5"))
        ga = run_config(self, os.path.join(DATA, "doc_ga.yaml"), self.path("ga.h5"))
        with h5py.File(zdt, "r") as f:
            stored = f["ga/pareto_history"][()]
            fronts = f["ga/fronts"][()]
            reference = f["ga/objective_reference"][()]
            names = [text_of(name) for name in f["ga"].attrs["objectives"]]
            minimize = f["ga"].attrs["minimize"].tolist()
        self.assertEqual((names, minimize), (["f1", "f2"], [1, 1]))
        self.assertEqual(stored.shape, (4, 8))
        self.assertTrue((stored["generation"][2:, 5:] == -1).all(), "the 5-generation point's padding")
        with analysis.load(zdt) as run:
            history, members, objectives = run.pareto_history, run.fronts, run.objective_reference
            self.assertEqual(run.ga.objective_names, ["f1", "f2"])
            self.assertIs(run.ga.fronts, members)
            dataset = run.to_xarray()
        self.assertEqual(list(history.columns), [
            "task", "generation", "evaluations", "front_size", "hypervolume", "point", "replicate",
            "params.problem", "ga.generations"])
        self.assertEqual(len(history), int((stored["generation"] >= 0).sum()))
        self.assertEqual(len(history), 2 * 8 + 2 * 5)
        for row in history.itertuples():
            mine = stored[row.task, row.generation]
            self.assertEqual((mine["generation"], mine["evaluations"], mine["front_size"]),
                             (row.generation, row.evaluations, row.front_size))
            self.assertEqual(mine["hypervolume"], row.hypervolume)
            self.assertEqual(row.evaluations, 12 * (row.generation + 1))
        self.assertGreater(history.hypervolume.max(), 0)
        self.assertFalse(history.hypervolume.isna().any())
        # One row per front member: each generation's non-NaN members, in the file's order.
        self.assertEqual(list(members.columns), [
            "task", "point", "replicate", "params.problem", "ga.generations", "generation", "member",
            "f1", "f2"])
        present = ~np.isnan(fronts).all(axis=3)
        self.assertEqual(len(members), int(present.sum()))
        for (task, generation), rows in members.groupby(["task", "generation"]):
            kept = fronts[task, generation][present[task, generation]]
            self.assertEqual(rows.member.tolist(), list(range(len(kept))))
            np.testing.assert_array_equal(rows[["f1", "f2"]].to_numpy(), kept)
            self.assertEqual(len(rows), stored[task, generation]["front_size"])
        self.assertEqual(objectives.values.tolist(), [
            [0, "f1", 1, reference[0, 0]], [0, "f2", 1, reference[0, 1]],
            [1, "f1", 1, reference[1, 0]], [1, "f2", 1, reference[1, 1]]])
        # The netCDF export: the same numbers over the sweep's dimensions.
        self.assertAlmostEqual(float(dataset["pareto_hypervolume"].sum()), history.hypervolume.sum(),
                               places=12)
        self.assertEqual(int(dataset["front_f1"].notnull().sum()), len(members))
        self.assertEqual(dataset["objective_reference"].sizes["objective"], 2)

        with analysis.load(ga) as run:
            self.assertIsNone(run.pareto_history)
            self.assertIsNone(run.fronts)
            self.assertIsNone(run.objective_reference)
            self.assertIsNone(run.ga.objective_names)
        with analysis.load_many([ga, zdt]) as runs:
            self.assertEqual(set(runs.fronts.path), {zdt})
            self.assertEqual(len(runs.pareto_history), len(history))
            self.assertEqual(set(runs.history.path), {ga, zdt})
        code, printed, error = analysis_command(zdt)
        self.assertEqual(code, 0, error)
        self.assertIn(f"pareto_history: {len(history)} rows", printed)
        self.assertIn(f"fronts: {len(members)} rows", printed)
        code, printed, error = analysis_command(ga)
        self.assertEqual(code, 0, error)
        self.assertNotIn("pareto_history", printed)
        out = self.path("export")
        code, _, error = analysis_command("export", zdt, out)
        self.assertEqual(code, 0, error)
        self.assertEqual(sorted(os.listdir(out)), sorted(
            [*(f"{name}.csv" for name in ("provenance", "points", "tasks", "failures", "history", "best",
                                          "pareto_history", "fronts", "objective_reference")),
             "levelforge-export.json"]))
        with open(os.path.join(out, "fronts.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), len(members))
        self.assertEqual(float(rows[-1]["f2"]), members.f2.iloc[-1])
        with open(os.path.join(out, "pareto_history.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([float(r["hypervolume"]) for r in rows], history.hypervolume.tolist())


class CatalogEntries(TempDirTest):
    """`catalog DIR` over entries it cannot read: each a row saying why, nothing opened that
    could block; a DIR that is no folder is an error."""

    def test_unreadable_entries_are_rows_with_a_note(self):
        results = self.path("results")
        os.mkdir(results)
        os.symlink(shared_sweep(self), os.path.join(results, "good.h5"))
        os.symlink(os.path.join(results, "purged.h5"), os.path.join(results, "scratch.h5"))
        os.mkfifo(os.path.join(results, "pipe.h5"))
        os.mkdir(os.path.join(results, "folder.h5"))
        os.symlink("loop.h5", os.path.join(results, "loop.h5"))
        listed = cli_process("catalog", results, "--csv", self.path("catalog.csv"))
        self.assertEqual(listed.returncode, 0, listed.stderr)
        with open(self.path("catalog.csv")) as f:
            rows = {os.path.basename(row["path"]): row for row in csv.DictReader(f)}
        self.assertEqual({name: row["note"] for name, row in rows.items()}, {
            "folder.h5": f"{results}/folder.h5 is a directory, not a levelforge file",
            "good.h5": "",
            "loop.h5": f"{results}/loop.h5 cannot be read: Too many levels of symbolic links",
            "pipe.h5": f"{results}/pipe.h5 is a FIFO (named pipe), not a levelforge file",
            "scratch.h5": f"{results}/scratch.h5 is a symbolic link to {results}/purged.h5, "
                          f"which does not exist"})
        self.assertEqual((rows["good.h5"]["experiment"], rows["good.h5"]["done"]), ("doc-sweep", "10"))
        self.assertEqual(int(rows["good.h5"]["bytes"]), os.path.getsize(shared_sweep(self)))

    def test_a_missing_folder_or_a_file_is_an_error(self):
        missing = self.path("nowhere")
        self.assertEqual(analysis_command("catalog", missing), (2, "", f"analysis: error: {missing} does not exist\n"))
        good = shared_sweep(self)
        self.assertEqual(analysis_command("catalog", good),
                         (2, "", f"analysis: error: {good} is a regular file, not a folder\n"))


class Exports(TempDirTest):
    """`export RESULT DIR`: DIR holds one run's export, listed in its manifest; another run's
    export is replaced only with --force, files no export wrote never."""

    TABLES = ["provenance.csv", "points.csv", "tasks.csv", "failures.csv", "records.csv"]

    def another_run(self, name, **attributes):
        """A copy of the shared result with `attributes` changed, as another run's file."""
        path = self.path(name)
        shutil.copy(shared_sweep(self), path)
        with h5py.File(path, "r+") as f:
            for key, value in attributes.items():
                f.attrs[key] = value
        reseal(path)
        return path

    def manifest(self, folder):
        with open(os.path.join(folder, "levelforge-export.json")) as f:
            return json.load(f)

    def test_an_export_lists_its_files_and_replaces_them_when_run_again(self):
        good = shared_sweep(self)
        out = self.path("export")
        code, printed, error = analysis_command("export", good, out)
        self.assertEqual(code, 0, error)
        self.assertEqual(printed.split(), [os.path.join(out, name) for name in self.TABLES])
        manifest = self.manifest(out)
        with h5py.File(good, "r") as f:
            # The config without the settings that change no result, as levelforge's identity.
            config = yaml.safe_load(text_of(f.attrs["effective_config"]))
            for key in ("output", "checkpoint", "on_error"):
                del config[key]
            config = json.dumps(config, sort_keys=True).encode()
            build = {key: text_of(f.attrs[key]) for key in (
                "levelforge_version", "git_commit", "git_changes", "kernel_version",
                "kernel_commit", "kernel_sources") if key in f.attrs}
            self.assertEqual(manifest["run"], {
                "experiment": "doc-sweep", "seed": 2, **build,
                "config_xxh3": f"{xxhash.xxh3_64_intdigest(config):016x}"})
            self.assertEqual(manifest["start_time"], text_of(f.attrs["start_time"]))
        self.assertEqual((manifest["source"], manifest["files"]), (good, {"csv": self.TABLES}))
        # An earlier export of the run had a table this one has not (a GA's island tables, say):
        # exported again, the run's tables replace it and it goes.
        manifest["files"]["csv"].append("migrations.csv")
        with open(os.path.join(out, "levelforge-export.json"), "w") as f:
            json.dump(manifest, f)
        self.write("task,from,to\n", "export/migrations.csv")
        self.assertEqual(analysis_command("export", good, out)[0], 0)
        self.assertEqual(sorted(os.listdir(out)), sorted([*self.TABLES, "levelforge-export.json"]))
        # The run as netCDF beside its CSV files: one run's export in two formats.
        self.assertEqual(analysis_command("export", good, out, "--format", "netcdf")[0], 0)
        self.assertEqual(self.manifest(out)["files"], {"csv": self.TABLES, "netcdf": ["doc-sweep.nc"]})

    def test_another_runs_export_is_replaced_only_with_force(self):
        good = shared_sweep(self)
        other = self.another_run("other.h5", experiment="other-sweep")
        out = self.path("export")
        # The same run resumed or retried (a later start time) and moved is no other run.
        with h5py.File(good, "r") as f:
            config = text_of(f.attrs["effective_config"]).replace(good, self.path("moved.h5"))
        resumed = self.another_run("resumed.h5", start_time="2027-01-02T03:04:05Z", sessions=2,
                                   effective_config=config)
        self.assertEqual(analysis_command("export", good, out)[0], 0)
        self.assertEqual(analysis_command("export", resumed, out)[0], 0)
        self.assertEqual(self.manifest(out)["source"], resumed)
        shutil.rmtree(out)
        self.assertEqual(analysis_command("export", good, out, "--format", "netcdf")[0], 0)
        before = folder_bytes(out)
        code, printed, error = analysis_command("export", other, out)
        self.assertEqual((code, printed), (2, ""))
        self.assertRegex(error, rf"^analysis: error: {re.escape(out)} holds the export of another run, "
                                rf"doc-sweep seed=2 commit=\w{{7}} started \S+ from {re.escape(good)} \(1 "
                                rf"file, listed in levelforge-export.json\): pass --force to "
                                rf"replace it, or choose another folder\n$")
        self.assertEqual(folder_bytes(out), before)
        # --force: the files the old manifest lists go (doc-sweep.nc), the new run's come.
        code, printed, error = analysis_command("export", other, out, "--force")
        self.assertEqual(code, 0, error)
        self.assertEqual(sorted(os.listdir(out)), sorted([*self.TABLES, "levelforge-export.json"]))
        self.assertEqual(self.manifest(out)["run"]["experiment"], "other-sweep")

    def test_files_no_export_wrote_are_never_replaced(self):
        good = shared_sweep(self)
        notes = self.path("notes")
        os.mkdir(notes)
        self.write("point,mean\n", "notes/summary.csv")
        for force in ([], ["--force"]):
            code, printed, error = analysis_command("export", good, notes, *force)
            self.assertEqual((code, printed), (2, ""))
            self.assertEqual(error, f"analysis: error: {notes} holds CSV or netCDF files that no "
                                    f"export of this package lists (summary.csv); they would pass "
                                    f"for this run's tables: move them away, or choose another "
                                    f"folder (--force replaces an export, never these)\n")
            self.assertEqual(os.listdir(notes), ["summary.csv"])
        # A manifest that cannot be read: which files are the export's is unknown, --force or not.
        os.remove(os.path.join(notes, "summary.csv"))
        self.write("{not json", "notes/levelforge-export.json")
        code, printed, error = analysis_command("export", good, notes, "--force")
        self.assertEqual(code, 2)
        self.assertIn(f"{notes}/levelforge-export.json cannot be read as an export's manifest "
                      f"(not JSON", error)
        self.assertEqual(os.listdir(notes), ["levelforge-export.json"])


class OutputErrors(TempDirTest):
    """An output that cannot be written ends in one `analysis: error:` line, no traceback:
    exit 2 when it is refused before anything is written, exit 1 when writing fails on the way
    (a full disk); nothing half-written is left, an earlier export stays as it was."""

    def setUp(self):
        super().setUp()
        self.mounts = []

    def tearDown(self):
        for folder in reversed(self.mounts):
            subprocess.run(["umount", folder], capture_output=True, check=False)
        super().tearDown()

    def tmpfs(self, name, options):
        """A tmpfs mounted with `options` at the scratch folder `name`, as checkpoint_test's
        DiskFull mounts its small disks; skips the test where that is not allowed."""
        if os.geteuid() != 0:
            self.skipTest("mounting a tmpfs needs root")
        folder = self.path(name)
        os.mkdir(folder)
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", folder],
                                 capture_output=True, text=True, check=False)
        if mounted.returncode != 0:
            self.skipTest(f"cannot mount a tmpfs: {mounted.stderr.strip()}")
        self.mounts.append(folder)
        return folder

    def test_a_missing_or_wrong_output_path_is_refused(self):
        good = shared_sweep(self)
        results = self.path("results")
        os.mkdir(results)
        missing = self.path("missing")
        for args, message in [
                (("catalog", results, "--csv", f"{missing}/catalog.csv"),
                 f"the catalog's CSV file {missing}/catalog.csv: its folder {missing} does not exist"),
                (("catalog", results, "--csv", results),
                 f"the catalog's CSV file {results} is a directory, not a regular file"),
                (("export", good, f"{good}/export"),
                 f"the export folder {good}/export cannot be created: Not a directory"),
                (("export", good, good), f"the export folder {good} is a regular file, not a folder")]:
            self.assertEqual(analysis_command(*args), (2, "", f"analysis: error: {message}\n"), args)
        self.assertEqual(os.listdir(results), [])
        self.assertFalse(os.path.exists(missing))

    def test_a_read_only_folder_is_refused(self):
        good = shared_sweep(self)
        read_only = self.tmpfs("read-only", "size=64k,ro")
        message = f"analysis: error: cannot write into {read_only}: Read-only file system\n"
        self.assertEqual(analysis_command("catalog", self.dir, "--csv", f"{read_only}/catalog.csv"), (2, "", message))
        self.assertEqual(analysis_command("export", good, read_only), (2, "", message))

    def test_a_full_disk_fails_leaving_the_earlier_export(self):
        good = shared_sweep(self)
        disk = self.tmpfs("disk", "size=64k")
        out = os.path.join(disk, "export")
        self.assertEqual(analysis_command("export", good, out)[0], 0)
        before = folder_bytes(out)
        with open(os.path.join(disk, "filler"), "wb", buffering=0) as filler:
            with contextlib.suppress(OSError):
                while True:
                    filler.write(bytes(4096))
        full = r"No space left on device \(the file system of \S+ is full: 0 bytes free\)\n$"
        code, printed, error = analysis_command("export", good, out)
        self.assertEqual((code, printed), (1, ""))
        self.assertRegex(error, rf"^analysis: error: writing {re.escape(out)}/\w+\.csv: {full}")
        self.assertEqual(folder_bytes(out), before)  # no temporary file either
        os.mkdir(self.path("results"))
        code, printed, error = analysis_command("catalog", self.path("results"), "--csv", f"{disk}/catalog.csv")
        self.assertEqual((code, printed), (1, ""))
        self.assertRegex(error, rf"^analysis: error: writing {re.escape(disk)}/catalog\.csv: {full}")
        # netCDF, with room to begin the file but not to end it: HDF5 crashed the process at its
        # exit after such a write (SIGSEGV), so the command runs in a process of its own.
        filler = os.path.join(disk, "filler")
        os.truncate(filler, os.path.getsize(filler) - 8192)
        done = cli_process("export", good, f"{disk}/netcdf", "--format", "netcdf")
        self.assertEqual((done.returncode, done.stdout), (1, ""), done.stderr)
        # HDF5's reason for it is no errno ("NetCDF: HDF error"): the free space tells.
        self.assertRegex(done.stderr, rf"^analysis: error: writing {re.escape(disk)}/netcdf/"
                                      rf"doc-sweep\.nc: [^\n]+ \(the file system of \S+ is full")
        self.assertEqual(sorted(os.listdir(disk)), ["export", "filler", "netcdf"])
        self.assertEqual(os.listdir(f"{disk}/netcdf"), [])


class Installed(TempDirTest):
    def test_the_package_installs_and_imports_from_anywhere(self):
        # A virtual environment over Debian's packages; nothing is fetched. Debian's pip (one
        # of those packages) installs into it: a pip of the venv's own, unpacked by ensurepip,
        # cost 2.6 s of the test's 4.3 s of CPU and installs the same way.
        venv = self.path("venv")
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv],
                       check=True)
        installed = subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "install", "-q",
                                    "--no-deps", "--no-build-isolation", "--no-index", "-e", REPO],
                                   capture_output=True, text=True)
        self.assertEqual(installed.returncode, 0, installed.stderr)
        # From another directory, without sys.path edits; importing switches no backend.
        probe = ("import matplotlib; matplotlib.use('svg'); "
                 "import analysis, analysis.figures, analysis.report; "
                 "assert matplotlib.get_backend() == 'svg', matplotlib.get_backend(); "
                 "print(analysis.__file__)")
        ran = subprocess.run([os.path.join(venv, "bin", "python"), "-c", probe], cwd=self.dir,
                             capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
        self.assertEqual(ran.returncode, 0, ran.stderr)
        self.assertEqual(ran.stdout.strip(), os.path.join(REPO, "analysis", "__init__.py"))


class Refusals(TempDirTest):
    def setUp(self):
        super().setUp()
        self.good = shared_sweep(self)

    def changed(self, name, **attributes):
        path = self.path(name)
        shutil.copy(self.good, path)
        with h5py.File(path, "r+") as f:
            for key, value in attributes.items():
                f.attrs[key] = value
        reseal(path)  # the loader's checks behind the seal
        return path

    def assert_refused(self, path, *fragments):
        with self.assertRaises(analysis.LoadError) as caught:
            analysis.load(path)
        for fragment in fragments:
            self.assertIn(fragment, str(caught.exception))

    def test_missing_file(self):
        self.assert_refused(self.path("nothing.h5"), "does not exist")

    def test_another_format_version(self):
        self.assert_refused(self.changed("v2.h5", format_version=2), "format version 2", "reads version 1")

    def test_an_incomplete_run_says_what_is_done(self):
        path = self.changed("partial.h5", complete=0)
        with h5py.File(path, "r+") as f:
            tasks = f["tasks"][()]
            tasks["status"][3:] = 0
            f["tasks"][...] = tasks
        reseal(path)
        self.assert_refused(path, "incomplete run", "3 of 10 tasks done")

    def test_an_interrupted_run_points_to_its_checkpoint(self):
        os.mkdir(self.path("gone.h5.checkpoint"))
        self.assert_refused(self.path("gone.h5"), "interrupted", "levelforge resume")

    def test_a_changed_file_is_refused_by_its_seal(self):
        edited = self.path("edited.h5")
        shutil.copy(self.good, edited)
        with h5py.File(edited, "r+") as f:
            f.attrs["note"] = "added by hand"
        self.assert_refused(edited, "changed after levelforge wrote it")
        flipped = self.path("flipped.h5")
        shutil.copy(self.good, flipped)
        with open(flipped, "r+b") as f:
            f.seek(os.path.getsize(flipped) // 2)
            byte = f.read(1)
            f.seek(-1, os.SEEK_CUR)
            f.write(bytes([byte[0] ^ 0x10]))
        self.assert_refused(flipped, "no longer match the XXH3-64 checksum")
        cut = self.path("cut.h5")
        shutil.copy(self.good, cut)
        os.truncate(cut, os.path.getsize(cut) - 1)
        self.assert_refused(cut, "cut short")

    def test_a_shard_unless_asked_for(self):
        path = self.changed("shard.h5", shard_index=1, shard_count=3)
        self.assert_refused(path, "shard 1 of 3", "levelforge merge")
        with analysis.load(path, allow_shard=True) as run:
            self.assertEqual(len(run.tasks), 10)

    def test_what_is_no_regular_file_is_refused_by_name(self):
        """A folder, a device, a dangling symbolic link (a purged scratch file) or a loop of
        links: LoadError naming the path and what is there, from load and load_many alike."""
        os.mkdir(self.path("folder.h5"))
        os.symlink(self.path("purged.h5"), self.path("scratch.h5"))
        os.symlink("loop.h5", self.path("loop.h5"))
        self.assert_refused(self.path("folder.h5"), "folder.h5 is a directory, not a levelforge file")
        self.assert_refused("/dev/null", "/dev/null is a character device, not a levelforge file")
        self.assert_refused(self.path("scratch.h5"), f"scratch.h5 is a symbolic link to "
                            f"{self.path('purged.h5')}, which does not exist")
        self.assert_refused(self.path("loop.h5"), "loop.h5 cannot be read: Too many levels of symbolic links")
        with self.assertRaises(analysis.LoadError) as caught:
            analysis.load_many([self.good, self.path("scratch.h5")])
        self.assertIn("scratch.h5 is a symbolic link to", str(caught.exception))
        os.symlink(self.good, self.path("linked.h5"))  # a link to a result is that result
        with analysis.load(self.path("linked.h5")) as run:
            self.assertEqual(len(run.tasks), 10)

    def test_a_fifo_is_refused_at_once(self):
        # Opened, it would wait for a writer: the command must return, exit 2, with the reason.
        fifo = self.path("pipe.h5")
        os.mkfifo(fifo)
        done = cli_process(fifo)
        self.assertEqual((done.returncode, done.stdout), (2, ""), done.stderr)
        self.assertEqual(done.stderr, f"analysis: error: {fifo} is a FIFO (named pipe), not a "
                                      f"levelforge file\n")

    def test_not_a_levelforge_file(self):
        path = self.path("other.h5")
        with h5py.File(path, "w") as f:
            f["x"] = [1, 2, 3]
        self.assert_refused(path, "no levelforge seal: written by another program")
        text = self.write("plain text\n", "notes.h5")
        self.assert_refused(text, "not an HDF5 file written by levelforge")


if __name__ == "__main__":
    unittest.main()

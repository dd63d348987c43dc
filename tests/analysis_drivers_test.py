"""The drivers' modules of analysis/drivers/: each driver's tables reached under their
documented names and through its accessor (`run.ga.history`), the same frames; another
driver's refused by name; and a driver that is not levelforge's own plugs in as one module
and one entry of DRIVERS (its tables loaded, listed, exported and its figures drawn). On
small files written with h5py (tests/result_files.py): no run, no LEVELFORGE_BIN.

    /usr/bin/python3 tests/run_suites.py tests/analysis_drivers_test.py
"""

import contextlib
import io
import os
import sys
import types
import unittest
from unittest import mock

import numpy as np

import result_files
from cli_support import TempDirTest, analysis_command

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import analysis  # noqa: E402  (the repository's package, after the path above)
from analysis import drivers, loader  # noqa: E402

HOOKS = ("TABLES", "SOMETIMES", "RESULT_TABLE", "RESULTS_WHAT", "UNIT", "task_results",
         "sampled_records", "figures", "variables", "point_variables", "run_variables")


class Drivers(TempDirTest):
    def test_every_driver_has_one_module_with_every_hook(self):
        self.assertEqual(drivers.DRIVERS, ("ga", "sweep", "exhaustive", "qd"))
        for name in drivers.DRIVERS:
            module = drivers.module(name)
            self.assertEqual(module.__name__, f"analysis.drivers.{name}")
            for hook in HOOKS:
                self.assertTrue(hasattr(module, hook), f"{name}: no {hook}")
            self.assertIn(name, loader._ACCESSORS)
        with self.assertRaisesRegex(analysis.LoadError, "knows the drivers ga, sweep, exhaustive, qd"):
            drivers.module("newer")

    def test_a_table_is_the_same_under_both_names_and_refused_for_another_driver(self):
        for driver, table in (("ga", "history"), ("sweep", "records"), ("exhaustive", "reductions"),
                              ("qd", "qd_archive")):
            path = result_files.write(self.dir, driver)
            with analysis.load(path) as run:
                accessor = getattr(run, driver)
                self.assertIs(getattr(run, table), getattr(accessor, table))
                self.assertIs(getattr(run, driver), accessor)
                other = "qd" if driver != "qd" else "ga"
                with self.assertRaisesRegex(analysis.LoadError,
                                            f"`{other}` exists for {other} runs; this is a {driver} run"):
                    getattr(run, other)
        with analysis.load(self.path("ga.h5")) as run:
            with self.assertRaisesRegex(analysis.LoadError, "`records` exists for sweep runs"):
                run.records

    def test_a_new_driver_is_one_module_and_one_list_entry(self):
        # A made-up driver "toy" writing /toy/scores (T,): score per task.
        def write_toy(f, rng, points, replicates, status):
            result_files.dataset(f.create_group("toy"), "scores", result_files.table(
                [(float(t),) for t in range(points * replicates)], [("score", "<f8")]))

        with mock.patch.dict(result_files.WRITERS, {"toy": write_toy}):
            path = result_files.write(self.dir, "toy")
        module = types.ModuleType("analysis.drivers.toy")
        drawn = []

        @loader.register_driver("toy", ("scores",))
        class ToyTables(loader.DriverTables):
            @property
            def scores(self):
                return self._cached("scores", lambda: self.with_params(
                    loader._frame(self._file["toy/scores"][()]).assign(
                        task=np.arange(len(self._file["toy/scores"])))))

        module.__dict__.update(
            TABLES=("scores",), SOMETIMES=(), RESULT_TABLE="scores", RESULTS_WHAT="the scores",
            UNIT="task", task_results=lambda run: (run.scores, ["score"]),
            sampled_records=lambda run: None,
            figures=lambda report, kernel_module: drawn.append(report.run.driver),
            variables=lambda run, joined: [], point_variables=lambda run, by_sweep: [],
            run_variables=lambda run: [])
        try:
            with mock.patch.object(drivers, "DRIVERS", (*drivers.DRIVERS, "toy")), \
                    mock.patch.dict(sys.modules, {"analysis.drivers.toy": module}):
                with analysis.load(path) as run:
                    self.assertEqual(run.scores.score.tolist(), run.toy.scores.score.tolist())
                    self.assertEqual(len(run.scores), len(run.tasks))
                    self.assertIn("params.target", run.scores.columns)
                code, printed, error = analysis_command(path)
                self.assertEqual(code, 0, error)
                self.assertIn(f"scores: {len(run.tasks)} rows", printed)
                code, printed, error = analysis_command("export", path, self.path("export"))
                self.assertEqual(code, 0, error)
                self.assertIn("scores.csv", os.listdir(self.path("export")))
                from analysis import report
                with contextlib.redirect_stdout(io.StringIO()):
                    self.assertEqual(report.main([path, "-o", self.path("report")]), 0)
                self.assertEqual(drawn, ["toy"])
        finally:
            del loader._ACCESSORS["toy"]
            for name in ("toy", "scores"):
                delattr(loader.Result, name)


if __name__ == "__main__":
    unittest.main()

"""python3 -m analysis.report on real runs of each kernel's small config: every figure the
kernel promises is written as a valid PNG of non-trivial size, and index.html shows them
with the provenance and the sweep.

Run by CTest under pytest, with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment.
"""

import os
import re
import subprocess
import sys
import unittest

from cli_support import TempDirTest, levelforge

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# kernel config, overrides that keep it small, the figures its report must have.
CASES = {
    "match3": ("demo.yaml", ["--set", "ga.generations=4"],
               ["fitness.png", "match3_targets.png", "match3_boards.png"]),
    "tiltmaze_sweep": ("tiltmaze_sweep.yaml", ["--set", "sweep.replicates=10"],
                       ["tiltmaze_solvable.png", "tiltmaze_lengths.png"]),
    "tiltmaze_exhaustive": ("tiltmaze_4x4_exhaustive.yaml", [], ["histograms.png", "tiltmaze_hardest.png"]),
    "matchstick": ("matchstick_2digit.yaml", ["--set", "params.max_value=30"],
                   ["histograms.png", "matchstick_solutions.png", "matchstick_good.png"]),
    "tiltmaze_ga": ("tiltmaze_ga.yaml", ["--set", "ga.generations=3", "--set", "sweep.replicates=1"],
                    ["fitness.png"]),
}


class Reports(TempDirTest):
    def report(self, name):
        config, overrides, figures = CASES[name]
        result_path = self.path(f"{name}.h5")
        self.assert_ok(levelforge("run", os.path.join(REPO, "configs", config), "-o", result_path, "-q",
                                  *overrides, ranks=2))
        out = self.path(f"{name}-report")
        made = subprocess.run([sys.executable, "-m", "analysis.report", result_path, "-o", out],
                              cwd=REPO, capture_output=True, text=True, timeout=300)
        self.assertEqual(made.returncode, 0, made.stderr)
        index = os.path.join(out, "index.html")
        self.assertIn(f"report: {index}", made.stdout)
        with open(index) as f:
            page = f.read()
        for figure in figures:
            path = os.path.join(out, figure)
            self.assertTrue(os.path.exists(path), f"{name}: {figure} missing")
            with open(path, "rb") as f:
                self.assertEqual(f.read(8), PNG_SIGNATURE, figure)
            self.assertGreater(os.path.getsize(path), 5000, f"{figure} is too small to show anything")
            self.assertIn(f'src="{figure}"', page)
        self.assertEqual(sorted(re.findall(r'src="([^"]+)"', page)),
                         sorted(name for name in os.listdir(out) if name.endswith(".png")))
        self.assertIn("<h2>Provenance</h2>", page)
        self.assertIn("git_commit", page)
        self.assertNotIn("http", page, "no network resources")
        return page

    def test_match3(self):
        page = self.report("match3")
        self.assertIn("target", page)

    def test_tiltmaze_sweep(self):
        self.report("tiltmaze_sweep")

    def test_tiltmaze_exhaustive(self):
        self.report("tiltmaze_exhaustive")

    def test_matchstick(self):
        self.report("matchstick")

    def test_tiltmaze_ga(self):
        self.report("tiltmaze_ga")

    def test_a_file_load_refuses_is_an_error(self):
        missing = self.path("missing.h5")
        made = subprocess.run([sys.executable, "-m", "analysis.report", missing, "-o", self.path("r")],
                              cwd=REPO, capture_output=True, text=True, timeout=60)
        self.assertEqual(made.returncode, 2)
        self.assertIn("does not exist", made.stderr)
        self.assertFalse(os.path.exists(self.path("r")))


if __name__ == "__main__":
    unittest.main()

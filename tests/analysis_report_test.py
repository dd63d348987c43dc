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
                    ["fitness.png", "tiltmaze_best.png"]),
    "tiltmaze_pairs": ("tiltmaze_4x4_pairs.yaml", [], ["histograms.png", "tiltmaze_hardest_pair.png"]),
    "match3_sweep": ("../tests/data/match3_sweep_boards.yaml", [], ["match3_sweep.png"]),
    # Fewer swept keys than the config (no aggression): one panel per monster.
    "monsters_sweep": ("monsters_sweep.yaml",
                       ["--set", "params.worlds=8", "--set", "params.turns=40", "--set",
                        "sweep={grid: {params.monster: [goblin, orc], params.fear: [0, 8], "
                        "params.group_size: [1, 6]}}"],
                       ["monsters_survival.png", "monsters_motives.png"]),
    # Only a text key swept, with replicates: survival per monster.
    "monsters_one_key": ("monsters_sweep.yaml",
                         ["--set", "params.worlds=8", "--set", "params.turns=40", "--set",
                          "sweep={grid: {params.monster: [goblin, orc]}, replicates: 2}"],
                         ["monsters_survival.png", "monsters_motives.png"]),
    "monsters_ga": ("monsters_ga.yaml",
                    ["--set", "ga.population=6", "--set", "ga.generations=2", "--set", "params.worlds=8",
                     "--set", "params.turns=40", "--set", "params.validation_worlds=20"],
                    ["fitness.png", "monsters_survival.png", "monsters_motives.png"]),
    "spawn_sweep": ("spawn_sweep.yaml", ["--set", "params.runs=50", "--set", "sweep.replicates=2"],
                    ["spawn_tradeoff.png", "spawn_strip.png"]),
    "spawn_ga": ("spawn_ga.yaml",
                 ["--set", "params.runs=20", "--set", "params.validation_runs=50", "--set", "ga.population=6",
                  "--set", "ga.generations=2", "--set", "sweep.replicates=2"],
                 ["fitness.png", "spawn_tradeoff.png", "spawn_strip.png"]),
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
        # 144 points: the sweep table is whole, folded under a <details>.
        page = self.report("tiltmaze_sweep")
        sweep = page[page.index("<h2>Sweep</h2>"):page.index("<h2>Results</h2>")]
        self.assertIn("<details><summary>144 rows (open)</summary>", sweep)
        self.assertEqual(sweep.count("<tr>"), 145)

    def test_tiltmaze_exhaustive(self):
        self.report("tiltmaze_exhaustive")

    def test_matchstick(self):
        self.report("matchstick")

    def test_tiltmaze_ga(self):
        self.report("tiltmaze_ga")

    def test_tiltmaze_pairs(self):
        self.report("tiltmaze_pairs")

    def test_match3_sweep(self):
        self.assertIn("Success probability of the swept boards", self.report("match3_sweep"))

    def test_monsters_sweep(self):
        page = self.report("monsters_sweep")
        self.assertIn("Hero survival", page)

    def test_monsters_one_key(self):
        self.report("monsters_one_key")

    def test_monsters_ga(self):
        self.assertIn("Target against validated hero survival", self.report("monsters_ga"))

    def test_spawn_sweep(self):
        self.assertIn("Enemies per level", self.report("spawn_sweep"))

    def test_spawn_ga(self):
        self.report("spawn_ga")

    def test_a_file_load_refuses_is_an_error(self):
        missing = self.path("missing.h5")
        made = subprocess.run([sys.executable, "-m", "analysis.report", missing, "-o", self.path("r")],
                              cwd=REPO, capture_output=True, text=True, timeout=60)
        self.assertEqual(made.returncode, 2)
        self.assertIn("does not exist", made.stderr)
        self.assertFalse(os.path.exists(self.path("r")))


if __name__ == "__main__":
    unittest.main()

"""The researcher's own kernel, built out of the tree (examples/out_of_tree_kernel/,
docs/kernels.md): levelforge installed into a scratch prefix with `cmake --install`, the
example configured against that prefix alone (find_package(levelforge CONFIG)), built with
levelforge_add_executable, its own test run, its config run on 2 ranks and the result read
back with analysis.load, and its figure module found by the report with --figures.

Reads LEVELFORGE_BUILD_DIR (the build to install), LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS
from the environment (CTest sets them).
"""

import os
import subprocess
import sys
import unittest

from cli_support import MPIEXEC, MPIEXEC_FLAGS, TempDirTest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "out_of_tree_kernel")
BUILD_DIR = os.environ["LEVELFORGE_BUILD_DIR"]
sys.path.insert(0, ROOT)
import analysis  # noqa: E402  (the repository's package, after the path above)


class OutOfTree(TempDirTest):
    def run_ok(self, *command, cwd=None, timeout=600):
        result = subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=timeout)
        self.assertEqual(result.returncode, 0,
                         f"{' '.join(command)}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}")
        return result

    def test_example_kernel_builds_against_the_installed_package_and_runs(self):
        prefix, build = self.path("prefix"), self.path("build")
        self.run_ok("cmake", "--install", BUILD_DIR, "--prefix", prefix)
        self.assertTrue(os.access(os.path.join(prefix, "bin", "levelforge"), os.X_OK))

        self.run_ok("cmake", "-S", EXAMPLE, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                    f"-DCMAKE_PREFIX_PATH={prefix}")
        self.run_ok("cmake", "--build", build, "-j", str(os.cpu_count() or 2))
        tested = self.run_ok("ctest", "--test-dir", build, "--output-on-failure")
        self.assertIn("100% tests passed", tested.stdout)

        tiles = os.path.join(build, "levelforge-tiles")
        listed = self.run_ok(tiles, "kernels").stdout
        self.assertIn("sliding_tiles", listed)
        self.assertIn("match3", listed, "the built-in kernels are there too")
        self.assertIn("rows", self.run_ok(tiles, "kernels", "sliding_tiles").stdout)
        self.assertNotIn("sliding_tiles", self.run_ok(os.path.join(prefix, "bin", "levelforge"),
                                                      "kernels").stdout)

        out = self.path("tiles.h5")
        self.run_ok(MPIEXEC, "-n", "2", *MPIEXEC_FLAGS, tiles, "run",
                    os.path.join(EXAMPLE, "sliding_tiles.yaml"), "-o", out, "-q")
        with analysis.load(out) as run:
            self.assertEqual(run.kernel, "sliding_tiles")
            best = run.with_params(run.best)
            top = best[best["position"] == 0]
            self.assertEqual(len(top), 4, "2 targets x 2 replicates")
            for _, row in top.iterrows():
                # 40 x 30 evaluations find boards at or next to the wanted difficulty.
                self.assertLessEqual(abs(row["distance"] - row["params.target"]), 1, row.to_dict())
                self.assertGreaterEqual(row["moved"], row["distance"])

        report = self.path("report")
        self.run_ok("/usr/bin/python3", "-m", "analysis.report", out, "-o", report,
                    "--figures", os.path.join(EXAMPLE, "figures"), cwd=ROOT)
        self.assertTrue(os.path.isfile(os.path.join(report, "sliding_tiles_distance.png")))
        with open(os.path.join(report, "index.html"), encoding="utf-8") as index:
            self.assertIn("Board difficulty", index.read())


if __name__ == "__main__":
    unittest.main()

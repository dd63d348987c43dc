"""The researcher's own kernel, built out of the tree (examples/out_of_tree_kernel/,
docs/kernels.md): levelforge installed into a scratch prefix with `cmake --install`; the
tutorial's own CMakeLists.txt and commands, taken from the docs, run in a folder holding
nothing else but the kernel's sources; the example configured against that prefix alone
(find_package(levelforge CONFIG)), built with levelforge_add_executable, its own test run,
its config run on 2 ranks and the result read back with analysis.load, and its figure module
found by the report with --figures.

Reads LEVELFORGE_BUILD_DIR (the build to install), LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS
from the environment (CTest sets them).
"""

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
import unittest

import h5py

from cli_support import MPIEXEC, MPIEXEC_FLAGS, TempDirTest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "out_of_tree_kernel")
BUILD_DIR = os.environ["LEVELFORGE_BUILD_DIR"]
sys.path.insert(0, ROOT)
import analysis  # noqa: E402  (the repository's package, after the path above)


def tutorial_blocks(step, language):
    """The fenced `language` blocks of step `step` of docs/kernels.md's tutorial, unindented."""
    with open(os.path.join(ROOT, "docs", "kernels.md"), encoding="utf-8") as doc:
        steps = re.split(r"^(?=\d+\. \*\*)", doc.read().split("## Tutorial", 1)[1], flags=re.M)
    text = next(part for part in steps if part.startswith(f"{step}. "))
    return [textwrap.dedent(block) for block in
            re.findall(rf"^ *```{language}\n(.*?)^ *```$", text, flags=re.M | re.S)]


class OutOfTree(TempDirTest):
    def run_ok(self, *command, cwd=None, timeout=600):
        result = subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=timeout)
        self.assertEqual(result.returncode, 0,
                         f"{' '.join(command)}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}")
        return result

    def test_tutorial_text_alone_builds_against_the_installed_package(self):
        """The tutorial's own commands and CMakeLists.txt, taken from docs/kernels.md, in a
        folder that holds nothing else but the kernel's sources: no other find_package can
        supply what the package config forgets to find."""
        home, source = self.path("home"), self.path("tiles")
        os.makedirs(home)
        os.makedirs(source)
        for name in ("sliding_tiles.hpp", "sliding_tiles.cpp", "register.cpp"):
            shutil.copy(os.path.join(EXAMPLE, name), source)
        [cmake_lists] = tutorial_blocks(4, "cmake")
        with open(os.path.join(source, "CMakeLists.txt"), "w", encoding="utf-8") as out:
            out.write(cmake_lists)
        environment = dict(os.environ, HOME=home)
        [install] = tutorial_blocks(1, "sh")
        # Step 1 runs in the checkout, whose build folder here is the one under test.
        install = re.sub(r"--install build\b", f"--install {shlex.quote(BUILD_DIR)}", install)
        [build] = tutorial_blocks(4, "sh")
        for commands in (install, build):
            result = subprocess.run(["bash", "-euo", "pipefail", "-c", commands], cwd=source,
                                    env=environment, capture_output=True, text=True, timeout=600)
            self.assertEqual(result.returncode, 0,
                             f"{commands}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}")
        self.assertNotIn("CMake Warning", result.stderr)
        self.assertIn("drivers: ga, sweep", result.stdout)

    def test_example_kernel_builds_against_the_installed_package_and_runs(self):
        prefix, build, source = self.path("prefix"), self.path("build"), self.path("source")
        self.run_ok("cmake", "--install", BUILD_DIR, "--prefix", prefix)
        self.assertTrue(os.access(os.path.join(prefix, "bin", "levelforge"), os.X_OK))
        self.check_only_the_public_headers_are_installed(os.path.join(prefix, "include", "levelforge"))

        # A copy, which the researcher edits below.
        shutil.copytree(EXAMPLE, source)
        self.run_ok("cmake", "-S", source, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
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
        self.check_an_edited_kernel_is_other_code(source, build, tiles)

    def check_only_the_public_headers_are_installed(self, include):
        """The kernel API and the registration header; of the runner only what those include,
        under detail/, never the rest of it (the HDF5, MPI and checkpoint layers)."""
        installed = sorted(os.path.relpath(os.path.join(folder, name), include)
                           for folder, _, names in os.walk(include) for name in names)
        api = sorted(os.path.join("kernels", "api", name)
                     for name in os.listdir(os.path.join(ROOT, "kernels", "api")) if name.endswith(".hpp"))
        public = [path for path in installed if not path.startswith("detail/")]
        self.assertEqual(public, sorted(api + ["runner/engine/register_kernel.hpp"]))
        detail = [path for path in installed if path.startswith("detail/")]
        self.assertIn("detail/runner/engine/describe_kernel.hpp", detail)
        for private in ("runner/h5/", "runner/mpi/", "runner/checkpoint/", "runner/output/", "kernels/match3/"):
            self.assertEqual([path for path in installed if private in path], [], private)

    def check_an_edited_kernel_is_other_code(self, source, build, tiles):
        """A run stopped, the kernel edited and rebuilt: its checkpoint is the old code's and is
        not resumed as this build's; a retry after the fix runs with the new build and the
        result names both."""
        out = self.path("stopped.h5")
        run = subprocess.Popen(
            [MPIEXEC, "-n", "2", *MPIEXEC_FLAGS, tiles, "run",
             os.path.join(source, "sliding_tiles.yaml"), "-o", out, "--set", "ga.generations=60",
             "--set", "ga.stop_fitness=2", "--set", "checkpoint.every=1",
             "--progress-interval", "0.02"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for line in run.stderr:
            if line.startswith("progress: "):
                run.send_signal(signal.SIGUSR1)
                break
        run.communicate(timeout=120)
        self.assertEqual(run.returncode, 75)
        with open(os.path.join(source, "sliding_tiles.cpp"), "a", encoding="utf-8") as kernel:
            kernel.write("\n// An edit: other code, though it computes the same.\n")
        self.run_ok("cmake", "--build", build, "--target", "levelforge-tiles")

        refused = subprocess.run([tiles, "resume", out], capture_output=True, text=True, timeout=60)
        self.assertEqual(refused.returncode, 2, refused.stderr)
        self.assertIn("the code of kernel sliding_tiles changed", refused.stderr)
        self.assertRegex(refused.stderr, r"kernel code: sources sha256:\w+, version none in the "
                                         r"checkpoint, sources sha256:\w+, version none now")
        retried = self.run_ok(tiles, "resume", out, "--retry-failed", "-q")
        with h5py.File(out, "r") as f:
            builds = [b.decode() if isinstance(b, bytes) else b for b in f.attrs["builds"]]
            sources = f.attrs["kernel_sources"]
        self.assertEqual(len(builds), 2, builds)
        self.assertIn(f"sources {sources}", builds[1])
        self.assertNotIn(f"sources {sources}", builds[0])
        inspected = self.run_ok(tiles, "inspect", out, "--brief").stdout
        self.assertRegex(inspected, rf"kernel_sources +{re.escape(sources)}")
        self.assertEqual(retried.returncode, 0)


if __name__ == "__main__":
    unittest.main()

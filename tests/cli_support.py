"""What the end-to-end tests of the levelforge executable share: running it (alone or
under mpiexec) and a test case with a scratch directory.

Reads LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS from the environment (CTest sets them).
"""

import contextlib
import importlib
import io
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
import types
import unittest

import h5py
import numpy as np

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)  # the repository's package `analysis`, for the tests that use it


def _analysis_seal():
    """analysis/seal.py (with analysis/files.py, which it imports), under a package name of
    its own so that analysis/__init__.py does not run: that imports pandas, 0.3-0.4 s of CPU
    in each of the ~30 test processes that need only the seal's block size and reseal()."""
    name = "_levelforge_analysis_seal_only"
    if name not in sys.modules:
        package = types.ModuleType(name)
        package.__path__ = [os.path.join(REPO, "analysis")]
        sys.modules[name] = package
    return importlib.import_module(f"{name}.seal")


seal = _analysis_seal()

LEVELFORGE = os.environ["LEVELFORGE_BIN"]
MPIEXEC = os.environ.get("MPIEXEC", "mpiexec")
MPIEXEC_FLAGS = shlex.split(os.environ.get("MPIEXEC_FLAGS", ""))


# Columns that record where, when and how long, not what: excluded when results are compared.
TIMING_COLUMNS = {"wall_time", "rank", "session", "units_before"}
RUN_DEPENDENT = {"/ranks"}


def result_datasets(path):
    """Every dataset of a result file as arrays, timing and rank columns removed."""
    datasets = {}

    def visit(name, item):
        if not isinstance(item, h5py.Dataset) or "/" + name in RUN_DEPENDENT:
            return
        data = item[()]
        if data.dtype.names:
            # The kept columns packed into a new array, column by column: the bytes of
            # data[kept].tolist() made an array again, without a Python object per value
            # (0.2 s of the 0.38 s a 28,800-row sweep table took).
            kept = [column for column in data.dtype.names if column not in TIMING_COLUMNS]
            packed = np.empty(data.shape, dtype=[(c, data.dtype[c]) for c in kept])
            for column in kept:
                packed[column] = data[column]
            data = packed
        datasets["/" + name] = data

    with h5py.File(path, "r") as f:
        f.visititems(visit)
    return datasets


def reseal(path):
    """Seals `path` again, as levelforge's writer does (docs/hdf5-layout.md, "The seal"):
    for a test that changed a levelforge file on purpose and wants levelforge to read it."""
    with open(path, "r+b") as f:
        f.seek(seal.BLOCK)
        block = seal.block_for(f.read())
        f.seek(0)
        f.write(block)


def process_ids(where, matches):
    """Ids of the processes whose /proc/PID/`where` (cmdline or environ), split into its
    NUL-separated fields, satisfies `matches`; processes that end meanwhile are skipped."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/{where}", "rb") as f:
                fields = f.read().split(b"\0")
        except OSError:
            continue
        if matches(fields):
            found.append(int(entry))
    return found


# Open MPI over a network transport without hardware atomics, as on an Ethernet cluster: TCP
# between all ranks (also on one node) and one-sided operations by messages (osc/pt2pt).
TCP_TRANSPORT = ("--mca", "btl", "self,tcp", "--mca", "osc", "pt2pt")


def analysis_command(*args):
    """`python3 -m analysis ARGS` in this process: (exit code, stdout, stderr)."""
    from analysis import __main__ as analysis_main  # pandas: only for the tests that call it
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = analysis_main.main([os.fspath(arg) for arg in args])
    return code, out.getvalue(), err.getvalue()


def mpi_command(*args, ranks, transport=()):
    """The command line of levelforge `args` under mpiexec on `ranks` ranks."""
    return [MPIEXEC, "-n", str(ranks), *MPIEXEC_FLAGS, *transport, LEVELFORGE, *args]


def levelforge(*args, ranks=None, stdin=None, timeout=120, transport=(), memory_limit=None):
    """Runs levelforge, under mpiexec when `ranks` is given, else as a singleton. With
    `memory_limit` (bytes) its data (heap and private mappings, RLIMIT_DATA) is limited to
    that: a test of a run's memory then fails with bad_alloc instead of filling the machine."""
    command = ([LEVELFORGE, *args] if ranks is None
               else mpi_command(*args, ranks=ranks, transport=transport))
    limit = None
    if memory_limit is not None:
        def limit():
            resource.setrlimit(resource.RLIMIT_DATA, (memory_limit, memory_limit))
    return subprocess.run(command, capture_output=True, text=True, input=stdin, timeout=timeout,
                          preexec_fn=limit)


class TempDirTest(unittest.TestCase):
    """A test with its own scratch directory, removed afterwards."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="levelforge-test-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, text, name):
        """`text`, dedented, as the file `name` in the scratch directory; returns its path."""
        path = self.path(name)
        with open(path, "w") as out:
            out.write(textwrap.dedent(text))
        return path

    def assert_ok(self, result):
        self.assertEqual(result.returncode, 0, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}")

    def assert_same_results(self, expected_path, actual_path):
        """Every result dataset of the two files identical, timing and rank columns aside.
        `expected_path` may also be a reference's result_datasets(), read once for a test
        that compares many runs with it."""
        expected = expected_path if isinstance(expected_path, dict) else result_datasets(expected_path)
        actual = result_datasets(actual_path)
        self.assertEqual(sorted(actual), sorted(expected), actual_path)
        for name, data in expected.items():
            self.assertEqual(data.dtype, actual[name].dtype, name)
            self.assertEqual(data.shape, actual[name].shape, name)
            self.assertEqual(data.tobytes(), actual[name].tobytes(), f"{name} differs in {actual_path}")

    def run_to(self, config, extra, ranks, name):
        """`levelforge run config` with `extra` arguments on `ranks` ranks (None: a
        singleton) into the scratch file `name`; returns its path."""
        out = self.path(name)
        self.assert_ok(levelforge("run", config, "-o", out, "-q", *extra, ranks=ranks))
        return out

    def assert_same_on_ranks(self, config, extra):
        """The config run on 1, 2 and 3 ranks gives identical results; returns the 1-rank file."""
        files = [self.run_to(config, extra, ranks, f"run-{ranks}.h5") for ranks in (1, 2, 3)]
        for other in files[1:]:
            self.assert_same_results(files[0], other)
        return files[0]


class SolveTest(TempDirTest):
    """Tests of `levelforge solve KERNEL`; subclasses set `kernel`."""

    kernel = None

    def assert_refused(self, result, *fragments):
        """Exit 2, nothing on stdout, every fragment in the message."""
        self.assertEqual(result.returncode, 2, f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}")
        self.assertEqual(result.stdout, "")
        for fragment in fragments:
            self.assertIn(fragment, result.stderr)

    def solve_json(self, target, *args):
        """The --json report of `solve KERNEL target args`: exactly one object on one line."""
        result = levelforge("solve", self.kernel, target, "--json", *args)
        self.assert_ok(result)
        self.assertEqual(result.stdout.count("\n"), 1)
        return json.loads(result.stdout)

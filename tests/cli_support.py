"""What the end-to-end tests of the levelforge executable share: running it (alone or
under mpiexec) and a test case with a scratch directory.

Reads LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS from the environment (CTest sets them).
"""

import json
import os
import shlex
import shutil
import subprocess
import tempfile
import textwrap
import unittest

LEVELFORGE = os.environ["LEVELFORGE_BIN"]
MPIEXEC = os.environ.get("MPIEXEC", "mpiexec")
MPIEXEC_FLAGS = shlex.split(os.environ.get("MPIEXEC_FLAGS", ""))


def levelforge(*args, ranks=None, stdin=None, timeout=120):
    """Runs levelforge, under mpiexec when `ranks` is given, else as a singleton."""
    command = [LEVELFORGE, *args]
    if ranks is not None:
        command = [MPIEXEC, "-n", str(ranks), *MPIEXEC_FLAGS, *command]
    return subprocess.run(command, capture_output=True, text=True, input=stdin, timeout=timeout)


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

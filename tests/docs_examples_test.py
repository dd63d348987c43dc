"""Every example in docs/ run against real files: each `$ COMMAND` transcript (its output
lines follow it until the next `$` line) is run in a scratch directory holding the files the
docs name (results/demo.h5 from a real demo run, level.maze, bad.maze, results.h5, faulty.yaml)
and its output must be the documented one; every python block runs against the demo's
result, and so does each `python3 -m analysis` command line on it; every full YAML config
validates and every fragment validates inside a base config; every command in a shipped
config's comments runs.
The hdf5-layout.md blocks run in docs_snippet_test.py against each driver's file.

In a documented output, a line `...` stands for any lines (the rest of the output at the end
of a block). The output of a command that runs MPI (`mpiexec ...`) or reads a run's file
(`inspect`) is compared with its run-dependent tokens masked: decimal numbers, durations,
commits, times, host names and which rank reports; under `mpiexec` the ranks and Open MPI write at once, so
levelforge's lines may come in any order after the first, and Open MPI's notices are not
compared.

Run by CTest with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment.
"""

import os
import pathlib
from collections import Counter
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import unittest

import h5py
import numpy as np
import yaml

from cli_support import LEVELFORGE, MPIEXEC, MPIEXEC_FLAGS, reseal, seal

REPO = pathlib.Path(__file__).resolve().parent.parent
DOCS = sorted((REPO / "docs").glob("*.md")) + [REPO / "README.md"]

# Transcripts that are not run, each with the reason and the test that covers the behaviour.
NOT_RUN = {
    "cat level.maze": "the input of the next transcripts, written into the scratch directory from here",
    "echo $?": "checked as the exit status of the transcript before it",
    "levelforge inspect results/demo.h5":
        "an interrupted run's checkpoint after a given number of generations: checkpoint_test "
        "(VerifyBeforeActing) inspects real interrupted runs",
}

# The cell maze of docs/cli.md with a character the format does not have at line 2, column 4.
BAD_MAZE = "+-+-+\n|S x|\n+-+-+\n"
FAULTY = """\
experiment: faulty-sweep
kernel: faulty
driver: sweep
params: {fail_value: 3}
sweep:
  grid: {params.value: [0, 1, 2, 3, 4, 5]}
seed: 1
output: results/faulty.h5
"""
# The docs' maze table: row 3 holds the maze of docs/cli.md.
MAZE_TABLE = ["3x2;0;2,4;4;4", "3x3;3;1,4,7;dc;00", "1x1;0;;;", "6x5;16;5,11,17;5405580;1802b0"]

VOLATILE = [
    (re.compile(r"\b[0-9a-f]{40}(-dirty)?"), "<commit>"),
    (re.compile(r"\bsha256:[0-9a-f]{16}\b"), "<hash>"),  # a kernel's sources, uncommitted changes
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"), "<time>"),
    (re.compile(r"\b\d+:\d\d:\d\d\b"), "<duration>"),
    (re.compile(r"\d+\.\d+(e[+-]\d+)?"), "<number>"),
    (re.compile(r"^(hosts\s+).*$"), r"\1<hosts>"),
    (re.compile(r"\brank \d+: "), "rank <rank>: "),  # whichever rank pulled the task
]


def code_blocks(path):
    """(first line number, language, lines) of every fenced block of a markdown file."""
    lines = path.read_text().splitlines()
    blocks, start = [], None
    for number, line in enumerate(lines, start=1):
        if line.startswith("```"):
            if start is None:
                start, language, body = number + 1, line[3:].strip(), []
            else:
                blocks.append((start, language, body))
                start = None
        elif start is not None:
            body.append(line)
    return blocks


def transcripts():
    """(place, command, documented output lines) of every `$ ` line in the docs."""
    found = []
    for doc in DOCS:
        for start, _, body in code_blocks(doc):
            for offset, line in enumerate(body):
                if not line.startswith("$ "):
                    continue
                output = []
                for following in body[offset + 1:]:
                    if following.startswith("$ "):
                        break
                    output.append(following)
                found.append((f"{doc.relative_to(REPO)}:{start + offset}", line[2:], output))
    return found


# A command in a shipped config's comments: a comment line indented as one (`#   mpirun ...`)
# or one in backquotes.
CONFIG_COMMAND = r"(?:mpirun|mpiexec|levelforge|/usr/bin/python3|python3) [^`]*"
# Runs of more than 3 s on 2 cores, cut for the test of their configs' commands: what is
# checked is that each command runs, not what the full run finds.
WORK_CUTS = {"tiltmaze_islands": " --set ga.generations=10",
             "matchstick_2digit_k2": " --set params.max_value=30"}


def config_commands():
    """(config, place, command) of every command in the comments of configs/, in order."""
    found = []
    for path in sorted((REPO / "configs").rglob("*.yaml")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if not line.startswith("#"):
                continue
            indented = re.fullmatch(rf"#\s{{2,}}({CONFIG_COMMAND})", line)
            commands = [indented.group(1)] if indented else re.findall(rf"`({CONFIG_COMMAND})`", line)
            found += [(path, f"{path.relative_to(REPO)}:{number}", command) for command in commands]
    return found


def masked(lines):
    """The lines with run-dependent tokens masked and runs of spaces as one (a table's
    padding follows its numbers' widths)."""
    out = []
    for line in lines:
        for pattern, replacement in VOLATILE:
            line = pattern.sub(replacement, line)
        out.append(" ".join(line.split()))
    return out


def matches(documented, actual):
    """Whether the actual lines are the documented ones, `...` standing for any lines."""
    if not documented:
        return not actual
    if documented[0].strip() == "...":
        rest = documented[1:]
        return any(matches(rest, actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and documented[0] == actual[0] and matches(documented[1:], actual[1:])


class DriverLists(unittest.TestCase):
    """The docs' lists of drivers are those `levelforge kernels` offers: a driver added (or
    renamed) in runner/drivers/driver_list.hpp fails here until the docs say so."""

    @classmethod
    def setUpClass(cls):
        listing = subprocess.run([LEVELFORGE, "kernels"], capture_output=True, text=True, check=True)
        cls.offered = set()
        # "NAME  DRIVER, DRIVER  SUMMARY" under the header, up to the blank line.
        for line in listing.stdout.splitlines()[1:]:
            if not line.strip():
                break
            for word in line.split()[1:]:
                cls.offered.add(word.rstrip(","))
                if not word.endswith(","):
                    break

    def test_the_drivers_table_lists_every_driver(self):
        text = (REPO / "docs" / "drivers.md").read_text()
        table = text[:text.index("## Tasks")]
        self.assertEqual(set(re.findall(r"^\| `(\w+)` \|", table, re.M)), self.offered)

    def test_the_config_reference_has_a_section_per_driver_with_settings(self):
        text = (REPO / "docs" / "config.md").read_text()
        sections = set(re.findall(r"^### `(\w+)`$", text, re.M))
        # A driver without settings (sweep) has no section of its own.
        self.assertEqual(sections, self.offered - {"sweep"})


class DocsExamples(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="levelforge-docs-")
        work = pathlib.Path(cls.dir)
        # `levelforge` on PATH, as the docs call it.
        (work / "bin").mkdir()
        (work / "bin" / "levelforge").symlink_to(LEVELFORGE)
        cls.environment = dict(os.environ, PATH=f"{work / 'bin'}:{os.environ['PATH']}",
                               LEVELFORGE_MPIEXEC=shlex.join([MPIEXEC, *MPIEXEC_FLAGS]))
        cls.workspace(work)
        level = [t for t in transcripts() if t[1] == "cat level.maze"][0][2]
        (work / "level.maze").write_text("\n".join(level) + "\n")
        (work / "bad.maze").write_text(BAD_MAZE)
        (work / "faulty.yaml").write_text(FAULTY)
        record = np.dtype([("task", "<i8"), ("maze", "S64")])
        with h5py.File(work / "results.h5", "w", userblock_size=seal.BLOCK) as f:
            f.attrs["format"] = "levelforge-results"
            f.attrs["format_version"] = 1
            f.create_dataset("sweep/records", data=np.array(
                [(task, maze.encode()) for task, maze in enumerate(MAZE_TABLE)], dtype=record))
        reseal(work / "results.h5")
        demo = cls.shell("mpiexec -n 2 levelforge run configs/demo.yaml --progress none", work)
        assert demo.returncode == 0, demo.stdout

    @staticmethod
    def workspace(work):
        """`work` as the docs' commands expect the repository root: configs/, analysis/ and
        build/runner/cli/levelforge."""
        (work / "configs").symlink_to(REPO / "configs")
        (work / "analysis").symlink_to(REPO / "analysis")
        (work / "build" / "runner" / "cli").mkdir(parents=True)
        (work / "build" / "runner" / "cli" / "levelforge").symlink_to(LEVELFORGE)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    @classmethod
    def shell(cls, command, directory=None):
        # mpiexec as the tests start it (flags for root and oversubscription).
        command = re.sub(r"^mpiexec\b", "$LEVELFORGE_MPIEXEC", command)
        # stderr into stdout, as a terminal interleaves them.
        return subprocess.run(["bash", "-c", "exec 2>&1\n" + command], cwd=directory or cls.dir,
                              env=cls.environment, capture_output=True, text=True, timeout=300)

    def test_every_transcript_prints_what_the_docs_show(self):
        checked, wrong = 0, []
        found = transcripts()
        for number, (place, command, output) in enumerate(found):
            if command in NOT_RUN:
                continue
            directory = None
            if re.search(r"levelforge run\b", command):
                # A run writes its output: in a directory of its own, as on a first run.
                directory = pathlib.Path(tempfile.mkdtemp(dir=self.dir))
                self.workspace(directory)
                shutil.copy(pathlib.Path(self.dir) / "faulty.yaml", directory)
            done = self.shell(command.split("  #")[0], directory)
            actual, documented = done.stdout.splitlines(), output
            following = found[number + 1] if number + 1 < len(found) else None
            if following and following[1] == "echo $?" and str(done.returncode) != following[2][0]:
                wrong.append(f"{place}: `{command}` exited {done.returncode}, the docs say {following[2][0]}")
            if command.startswith("mpiexec") or command.startswith("levelforge inspect"):
                actual, documented = masked(actual), masked(documented)
            if re.search(r"levelforge run\b", command):
                # A terminal redraws the progress line; without one the lines pile up: the
                # last one stands for them.
                progress = [line for line in actual if line.startswith("progress:")]
                actual = [line for line in actual if not line.startswith("progress:")]
                if any(line.startswith("progress:") for line in documented):
                    documented = [line for line in documented if not line.startswith("progress:")]
                    if not progress:
                        wrong.append(f"{place}: `{command}` reported no progress")
            if command.startswith("mpiexec"):
                # levelforge's lines: the first, then the rest in any order. Open MPI's own
                # notices (an abort's) differ between its versions and runs: not compared.
                ours = [[line for line in lines if line.startswith("levelforge:")]
                        for lines in (documented, actual)]
                agree = ours[0][:1] == ours[1][:1] and Counter(ours[0][1:]) == Counter(ours[1][1:])
            else:
                agree = matches(documented, actual)
            if not agree:
                wrong.append(f"{place}: `{command}` printed\n" + "\n".join(actual)
                             + "\n-- the docs show --\n" + "\n".join(documented))
            checked += 1
        self.assertEqual(wrong, [], "\n\n".join(wrong))
        self.assertGreater(checked, 20)

    def test_every_command_in_a_config_comment_runs(self):
        """Each command a shipped config's comments show runs as written (a row number `N`
        given as 0), in a checkout-like directory where that config's result is made first
        when no command of the comment makes it."""
        found = config_commands()
        self.assertGreaterEqual(len(found), 8)
        work = pathlib.Path(tempfile.mkdtemp(dir=self.dir))
        self.workspace(work)
        wrong = []
        for config, place, command in found:
            if command.startswith("python3"):
                wrong.append(f"{place}: `{command}`: the first python3 on PATH may not see "
                             "Debian's python3-h5py; the docs name /usr/bin/python3")
                continue
            output = yaml.safe_load(config.read_text()).get("output", "")
            cut = WORK_CUTS.get(config.stem, "")
            if re.search(r"levelforge run\b", command):
                command += cut
            elif output and output in command and not (work / output).exists():
                made = self.shell(f"mpiexec -n 2 levelforge run {config.relative_to(REPO)} -q{cut}", work)
                if made.returncode != 0:
                    wrong.append(f"{place}: making the result for `{command}`:\n{made.stdout}")
                    continue
            done = self.shell(re.sub(r"^mpirun\b", "mpiexec", re.sub(r"\bN\b", "0", command)), work)
            if done.returncode != 0:
                wrong.append(f"{place}: `{command}` exited {done.returncode}:\n{done.stdout}")
        self.assertEqual(wrong, [], "\n\n".join(wrong))

    def test_python_blocks_run_against_the_demo_result(self):
        for doc in DOCS:
            if doc.name == "hdf5-layout.md":
                continue  # docs_snippet_test.py runs them against every driver's file
            for start, language, body in code_blocks(doc):
                if language != "python":
                    continue
                with self.subTest(place=f"{doc.name}:{start}"):
                    done = subprocess.run([sys.executable, "-c", "\n".join(body)], cwd=self.dir,
                                          env=dict(self.environment, PYTHONPATH=str(REPO)),
                                          capture_output=True, text=True, timeout=300)
                    self.assertEqual(done.returncode, 0, f"{doc.name}:{start}: {done.stderr}")

    def test_analysis_commands_run_on_the_demo_result(self):
        """The docs' `python3 -m analysis ...` lines on results/demo.h5 (the lines on other
        configs' results: analysis_report_test makes those reports on smaller runs)."""
        commands = [line for doc in DOCS for _, language, body in code_blocks(doc) if not language
                    for line in body if line.startswith("/usr/bin/python3 -m analysis")
                    and "results/demo.h5" in line]
        self.assertGreaterEqual(len(commands), 2)
        for command in commands:
            done = subprocess.run(["bash", "-c", command], cwd=self.dir, capture_output=True, text=True,
                                  env=dict(self.environment, PYTHONPATH=str(REPO)), timeout=300)
            self.assertEqual(done.returncode, 0, f"`{command}`: {done.stderr}")
            self.assertTrue(done.stdout, command)

    def test_yaml_configs_validate(self):
        """A whole config validates as it is; a fragment inside one of the shipped or test
        configs (the first that it completes)."""
        bases = [yaml.safe_load(path.read_text()) for path in
                 sorted((REPO / "configs").glob("*.yaml")) + sorted((REPO / "tests" / "data").glob("*.yaml"))]
        blocks = [(doc, start, body) for doc in DOCS for start, language, body in code_blocks(doc)
                  if language == "yaml"]
        self.assertTrue(blocks)
        for doc, start, body in blocks:
            with self.subTest(place=f"{doc.name}:{start}"):
                fragment = yaml.safe_load("\n".join(body))
                configs = [fragment] if "kernel" in fragment else [{**base, **fragment} for base in bases]
                errors = []
                for config in configs:
                    path = pathlib.Path(self.dir) / f"{doc.stem}-{start}.yaml"
                    path.write_text(yaml.safe_dump(config))
                    done = self.shell(f"levelforge validate {shlex.quote(str(path))}")
                    if done.returncode == 0:
                        break
                    errors.append(done.stdout.strip())
                else:
                    self.fail(f"{doc.name}:{start}: no config takes it:\n" + "\n".join(errors))


if __name__ == "__main__":
    unittest.main()

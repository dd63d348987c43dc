"""End-to-end tests of `levelforge solve tiltmaze` and `levelforge maze`: hand-drawn mazes
with hand-computed answers, the JSON report field by field, maze files from stdin and in
the compact form, bad input, and mazes read back from HDF5 tables made here with h5py.

Moves are checked by replaying them on a model of the maze written here (not the C++ one),
so an answer is right because the maze says so, not because two solvers agree.

Run by CTest with LEVELFORGE_BIN, MPIEXEC and MPIEXEC_FLAGS in the environment.
"""

import json
import os
import random
import textwrap
import unittest

import h5py
import numpy as np

from cli_support import SolveTest, TempDirTest, levelforge, reseal, seal


def drawing(text):
    return textwrap.dedent(text).lstrip("\n")


# Start (0,0) can only roll right to (0,2), then down to (1,2), then left onto the target
# (1,0): the one shortest solution is RDL (length 3), in both modes.
CORRIDOR = drawing("""
    +-+-+-+
    |S    |
    +-+-+ +
    |T    |
    +-+-+-+
""")

# The document's "group that can be entered but not left". From the start (1,0) the ball
# circulates in A = {(1,0), (1,1)}; rolling up or down from (1,0) it ends in the column
# B = {(0,0), (2,0)}, from (1,1) in the column C = {(0,1), (2,1)}, and neither column has a
# way out (walls on both sides). A target in B and one in C: no play visits both, in stop
# or in pass mode (no roll passes over a target between A, B and C).
TRAP = drawing("""
    +-+-+-+
    |T|T| |
    + + + +
    |S  | |
    + + + +
    | | | |
    +-+-+-+
""")

# The same walls, targets (1,1) in A and (0,1), (2,1) in C: solvable; the shortest plays
# are R then U D or D U (3 tilts: (1,1) needs R, each end of column C one more tilt).
TRAP_SOLVABLE = drawing("""
    +-+-+-+
    | |T| |
    + + + +
    |S T| |
    + + + +
    | |T| |
    +-+-+-+
""")
TRAP_SOLVABLE_COMPACT = "3x3;3;1,4,7;dc;00"

# The example of docs/tiltmaze.md: the target (1,1) is never a resting cell (rolls along
# row 1 go from (1,0) to (1,2) and back), so stop mode cannot collect it; in pass mode D
# then R rolls over it and U ends on (0,2): DRU, the only play of 3 tilts reaching (0,2).
DOC_EXAMPLE = drawing("""
    +-+-+-+
    |S  |T|
    + +-+ +
    |  T  |
    +-+-+-+
""")
DOC_EXAMPLE_COMPACT = "3x2;0;2,4;4;4"


class Maze:
    """A tilt maze read from its drawing, with the rolls of docs/tiltmaze.md."""

    MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}

    def __init__(self, text):
        lines = [line for line in text.splitlines() if not line.startswith("#")]
        self.height, self.width = (len(lines) - 1) // 2, (len(lines[0]) - 1) // 2
        self.lines = lines
        self.start = None
        self.targets = set()
        for r in range(self.height):
            for c in range(self.width):
                mark = lines[2 * r + 1][2 * c + 1]
                if mark == "S":
                    self.start = (r, c)
                elif mark == "T":
                    self.targets.add((r, c))

    def open(self, r, c, dr, dc):
        """True when the ball on (r, c) can step by (dr, dc): the character between is a space."""
        return self.lines[2 * r + 1 + dr][2 * c + 1 + dc] == " "

    def play(self, moves, collect):
        """The targets `moves` collect from the start."""
        r, c = self.start
        collected = {(r, c)}
        for move in moves:
            dr, dc = self.MOVES[move]
            while self.open(r, c, dr, dc):
                r, c = r + dr, c + dc
                if collect == "pass":
                    collected.add((r, c))
            collected.add((r, c))
        return collected & self.targets


class MazeTest(SolveTest):
    kernel = "tiltmaze"

    def write(self, text, name="level.maze"):
        path = self.path(name)
        with open(path, "w") as out:
            out.write(text)  # as given: some tests need exact spacing
        return path

    def assert_plays(self, text, moves, collect):
        maze = Maze(text)
        self.assertEqual(maze.play(moves, collect), maze.targets, f"{moves} in {collect} mode")


class Solve(MazeTest):
    def test_stop_mode_shortest_solution(self):
        result = levelforge("solve", "tiltmaze", self.write(CORRIDOR))
        self.assert_ok(result)
        self.assertIn("maze: 3x2, start (0,0), 1 target, collect stop\n", result.stdout)
        self.assertIn("solvable: yes (2-SAT: satisfiable; chain test: agrees)\n", result.stdout)
        self.assertIn("roll graph: 4 resting cells reachable from the start, 1 component, 0 DAG edges",
                      result.stdout)
        self.assertIn("  C0 (start, 1 target): (0,0) (0,2) (1,0)* (1,2)\n", result.stdout)
        self.assertIn("shortest solution: 3 tilts: RDL\n", result.stdout)
        self.assertEqual(result.stderr, "")

    def test_a_group_entered_but_not_left_is_unsolvable(self):
        path = self.write(TRAP)
        for collect in ("stop", "pass"):
            result = levelforge("solve", "tiltmaze", path, "--collect", collect)
            self.assert_ok(result)
            self.assertIn("solvable: no", result.stdout)
            self.assertIn("roll graph: 6 resting cells reachable from the start, 3 components, 2 DAG edges",
                          result.stdout)
            self.assertIn("  C0 (start): (1,0) (1,1) -> C1 C2\n", result.stdout)
            # The two columns, one target each, in either order after the start's group.
            self.assertRegex(result.stdout, r"  C[12] \(1 target\): \(0,0\)\* \(2,0\)\n")
            self.assertRegex(result.stdout, r"  C[12] \(1 target\): \(0,1\)\* \(2,1\)\n")
            self.assertIn("solution: unsolvable\n", result.stdout)
        stop = levelforge("solve", "tiltmaze", path)
        self.assertIn("2-SAT: unsatisfiable; chain test: agrees", stop.stdout)

    def test_unsolvable_in_stop_mode_solvable_in_pass_mode(self):
        path = self.write(DOC_EXAMPLE)
        stop = levelforge("solve", "tiltmaze", path)
        self.assert_ok(stop)
        self.assertIn("solvable: no (2-SAT: unsatisfiable", stop.stdout)
        self.assertIn("targets the ball never rests on: (1,1) (never collected in stop mode)", stop.stdout)
        self.assertIn("solution: unsolvable", stop.stdout)
        passing = levelforge("solve", "tiltmaze", path, "--collect", "pass")
        self.assert_ok(passing)
        self.assertIn("solvable: yes (2-SAT: satisfiable; exact search: agrees)", passing.stdout)
        self.assertIn("shortest solution: 3 tilts: DRU\n", passing.stdout)
        self.assert_plays(DOC_EXAMPLE, "DRU", "pass")

    def test_json_report_field_by_field(self):
        report = self.solve_json(self.write(TRAP_SOLVABLE))
        self.assertEqual(report["kernel"], "tiltmaze")
        self.assertEqual(report["collect"], "stop")
        self.assertIs(report["solvable"], True)
        self.assertIs(report["two_sat"], True)
        self.assertIs(report["chain"], True)
        self.assertIsNone(report["search"])  # pass mode only
        self.assertIs(report["proven_shortest"], True)
        self.assertEqual(report["length"], 3)
        self.assertIn(report["moves"], ("RUD", "RDU"))
        self.assert_plays(TRAP_SOLVABLE, report["moves"], "stop")
        self.assertEqual((report["width"], report["height"], report["start"]), (3, 3, 3))
        self.assertEqual(report["targets"], [1, 4, 7])
        self.assertEqual(report["compact"], TRAP_SOLVABLE_COMPACT)
        self.assertEqual(report["resting_cells"], 6)
        self.assertEqual(report["dag_edges"], 2)
        self.assertEqual(report["off_resting_targets"], [])
        components = report["components"]
        self.assertEqual([c["id"] for c in components], [0, 1, 2])  # topological order
        self.assertEqual(components[0], {"id": 0, "cells": [3, 4], "targets": [4], "successors": [1, 2]})
        rest = sorted((c["cells"], c["targets"], c["successors"]) for c in components[1:])
        self.assertEqual(rest, [([0, 6], [], []), ([1, 7], [1, 7], [])])

    def test_json_unsolvable_and_pass_mode(self):
        path = self.write(DOC_EXAMPLE)
        stop = self.solve_json(path)
        self.assertIs(stop["solvable"], False)
        self.assertEqual((stop["length"], stop["moves"], stop["proven_shortest"]), (-1, "", False))
        self.assertEqual(stop["off_resting_targets"], [4])
        self.assertEqual(stop["source"], path)
        passing = self.solve_json(path, "--collect", "pass")
        self.assertEqual(passing["collect"], "pass")
        self.assertIs(passing["solvable"], True)
        self.assertIs(passing["two_sat"], True)
        self.assertIs(passing["search"], True)
        self.assertIsNone(passing["chain"])  # stop mode only
        self.assertEqual((passing["length"], passing["moves"]), (3, "DRU"))

    def test_stdin(self):
        from_file = levelforge("solve", "tiltmaze", self.write(CORRIDOR))
        from_stdin = levelforge("solve", "tiltmaze", "-", stdin=CORRIDOR)
        self.assert_ok(from_stdin)
        self.assertEqual(from_stdin.stdout, from_file.stdout)
        report = json.loads(levelforge("solve", "tiltmaze", "-", "--json", stdin=CORRIDOR).stdout)
        self.assertEqual(report["source"], "<stdin>")
        bad = levelforge("solve", "tiltmaze", "-", stdin=CORRIDOR.replace("S", "s"))
        self.assert_refused(bad, "<stdin>:2:2: invalid cell character 's'")

    def test_compact_line_file(self):
        path = self.write(f"# stored by a sweep\n# the maze:\n{DOC_EXAMPLE_COMPACT}\n\n")
        from_compact = self.solve_json(path, "--collect", "pass")
        from_drawing = self.solve_json(self.write(DOC_EXAMPLE, "drawn.maze"), "--collect", "pass")
        del from_compact["source"], from_drawing["source"]
        self.assertEqual(from_compact, from_drawing)
        # Errors in a compact line are placed in the file: line 2, after one comment.
        wrong = self.write("# unsorted targets\n3x2;0;4,2;4;4\r\n", "wrong.maze")
        self.assert_refused(levelforge("solve", "tiltmaze", wrong),
                            f"{wrong}:2:9: targets must be strictly ascending: 2 after 4")
        twice = self.write(f"{DOC_EXAMPLE_COMPACT}\n# fine\n{DOC_EXAMPLE_COMPACT}\n", "twice.maze")
        self.assert_refused(levelforge("solve", "tiltmaze", twice), f"{twice}:3:1: a second line")

    def test_more_targets_than_the_exact_search_takes(self):
        # An open 7 x 7 maze, every border cell but the start a target (23): in pass mode one
        # lap around the border collects them all. Beyond 20 targets the solution is built
        # along the condensation and not proven shortest.
        rows = ["+" + "-+" * 7]
        for r in range(7):
            cells = "".join("S" if (r, c) == (0, 0) else "T" if r in (0, 6) or c in (0, 6) else " "
                            for c in range(7))
            rows += ["|" + " ".join(cells) + "|", "+" + ("-+" if r == 6 else " +") * 7]
        text = "\n".join(rows) + "\n"
        path = self.write(text)
        report = self.solve_json(path, "--collect", "pass")
        self.assertIs(report["solvable"], True)
        self.assertIs(report["proven_shortest"], False)
        self.assertEqual(report["length"], len(report["moves"]))
        self.assert_plays(text, report["moves"], "pass")
        human = levelforge("solve", "tiltmaze", path, "--collect", "pass")
        self.assertIn("(valid, but not proven shortest: more than 20 targets)", human.stdout)
        # Stop mode: border cells between the corners are never resting cells.
        self.assertIs(self.solve_json(path)["solvable"], False)

    def test_under_mpiexec_one_report(self):
        result = levelforge("solve", "tiltmaze", self.write(CORRIDOR), ranks=2)
        self.assert_ok(result)
        self.assertEqual(result.stdout.count("shortest solution: 3 tilts: RDL"), 1)


class SolveBadInput(MazeTest):
    def test_bad_maze_text_names_line_and_column(self):
        # One comment line in front; the wall under (0,1) is an 'x' (docs/tiltmaze.md).
        text = "# a comment\n" + DOC_EXAMPLE.replace("+ +-+ +", "+ +x+ +")
        path = self.write(text)
        for args in ((), ("--json",)):
            self.assert_refused(levelforge("solve", "tiltmaze", path, *args),
                                f"{path}:4:4: invalid character 'x' at a horizontal wall position")
        open_border = self.write(CORRIDOR.replace("|T    |", " T    |"), "open.maze")
        self.assert_refused(levelforge("solve", "tiltmaze", open_border), f"{open_border}:4:1: open border")
        empty = self.write("# nothing\n", "empty.maze")
        self.assert_refused(levelforge("solve", "tiltmaze", empty), f"{empty}:1:1: empty maze")

    def test_missing_file(self):
        missing = self.path("nope.maze")
        self.assert_refused(levelforge("solve", "tiltmaze", missing), f"puzzle file '{missing}' does not exist")
        self.assert_refused(levelforge("solve", "tiltmaze", self.dir), "is a directory")

    def test_unknown_kernel(self):
        path = self.write(CORRIDOR)
        self.assert_refused(levelforge("solve", "match3", path), "no solver for kernel 'match3'", "tiltmaze")
        self.assert_refused(levelforge("solve", "tiltmase", path), "did you mean 'tiltmaze'")

    def test_bad_options(self):
        path = self.write(CORRIDOR)
        self.assert_refused(levelforge("solve", "tiltmaze", path, "--collect", "roll"), "--collect")
        self.assert_refused(levelforge("solve", "tiltmaze"), "file")


def compact(width, height, start, targets, east, south):
    """The compact string of docs/tiltmaze.md, written here from the specification."""

    def hex_bits(bits):
        bits = bits + [0] * (-len(bits) % 4)
        return "".join("%x" % int("".join(map(str, bits[i:i + 4])), 2) for i in range(0, len(bits), 4))

    east_bits = [east[r][c] for r in range(height) for c in range(width - 1)]
    south_bits = [south[r][c] for r in range(height - 1) for c in range(width)]
    return (f"{width}x{height};{start};{','.join(map(str, sorted(targets)))};"
            f"{hex_bits(east_bits)};{hex_bits(south_bits)}")


def random_maze(rng, width, height, target_count):
    """A random maze as (drawing, compact string), both made here."""
    east = [[int(rng.random() < 0.3) for _ in range(width)] for _ in range(height)]
    south = [[int(rng.random() < 0.3) for _ in range(width)] for _ in range(height)]
    cells = rng.sample(range(width * height), target_count + 1)
    start, targets = cells[0], cells[1:]
    lines = ["+" + "-+" * width]
    for r in range(height):
        row = "|"
        for c in range(width):
            cell = r * width + c
            row += "S" if cell == start else "T" if cell in targets else " "
            row += "|" if c == width - 1 or east[r][c] else " "
        lines.append(row)
        lines.append("+" + "".join("-+" if r == height - 1 or south[r][c] else " +" for c in range(width)))
    return "\n".join(lines) + "\n", compact(width, height, start, targets, east, south)


class MazeFromResults(MazeTest):
    """`levelforge maze` on tables written here with h5py, as a tiltmaze run would."""

    def setUp(self):
        super().setUp()
        rng = random.Random(2024)
        self.random_drawing, random_compact = random_maze(rng, 16, 12, 9)
        self.table = [DOC_EXAMPLE_COMPACT, TRAP_SOLVABLE_COMPACT, random_compact,
                      "3x2;0;0,2,4;4;4",  # the start is also a target
                      "3x2;0;2,4;4",  # a field missing
                      ""]  # no maze stored
        record = np.dtype([("task", "<i8"), ("maze", "S2400"), ("score", "<f8")])
        rows = np.array([(i, m.encode(), 0.5 * i) for i, m in enumerate(self.table)], dtype=record)
        best = np.zeros((2, 3), dtype=record)
        best[1, 2] = (7, TRAP_SOLVABLE_COMPACT.encode(), 1.0)
        self.file = self.path("results.h5")
        # With room for the seal, then sealed: levelforge reads only sealed files.
        with h5py.File(self.file, "w", userblock_size=seal.BLOCK) as f:
            f.attrs["format"] = "levelforge-results"
            f.attrs["format_version"] = 1
            f.create_dataset("sweep/records", data=rows)
            f.create_dataset("ga/best", data=best)
            f.create_dataset("ga/genome_length", data=np.arange(3))
        reseal(self.file)

    def maze(self, *args):
        return levelforge("maze", self.file, *args)

    def test_round_trip_to_the_exact_text(self):
        result = self.maze("/sweep/records", "--row", "1")
        self.assert_ok(result)
        self.assertEqual(result.stdout,
                         f"# {self.file}: /sweep/records row 1, field 'maze': 3x3, start (1,0), 3 targets\n"
                         f"# compact: {TRAP_SOLVABLE_COMPACT}\n" + TRAP_SOLVABLE)
        first = self.maze("/sweep/records")  # row 0 by default
        self.assertEqual(first.stdout.split("\n", 2)[2], DOC_EXAMPLE)
        big = self.maze("sweep/records", "--row", "2", "--field", "maze")
        self.assert_ok(big)
        self.assertEqual(big.stdout.split("\n", 2)[2], self.random_drawing)

    def test_row_counts_all_elements_of_a_2d_table(self):
        result = self.maze("/ga/best", "--row", "5")  # element [1][2]
        self.assert_ok(result)
        self.assertTrue(result.stdout.endswith(TRAP_SOLVABLE))

    def test_output_is_a_maze_file_solve_reads(self):
        for row in ("0", "1", "2", "3"):
            shown = self.write(self.maze("/sweep/records", "--row", row).stdout, f"row{row}.maze")
            stored = self.write(self.table[int(row)] + "\n", f"row{row}.compact")
            for collect in ("stop", "pass"):
                a = self.solve_json(shown, "--collect", collect)
                b = self.solve_json(stored, "--collect", collect)
                self.assertEqual((a["solvable"], a["length"]), (b["solvable"], b["length"]), f"row {row}")

    def test_start_on_a_target(self):
        result = self.maze("/sweep/records", "--row", "3")
        self.assert_ok(result)
        self.assertIn("# compact: 3x2;0;0,2,4;4;4\n", result.stdout)
        self.assertIn("# note: the start (0,0) is also a target", result.stdout)
        self.assertTrue(result.stdout.endswith(DOC_EXAMPLE))

    def test_solve(self):
        result = self.maze("/sweep/records", "--row", "1", "--solve")
        self.assert_ok(result)
        self.assertIn(TRAP_SOLVABLE + "\nmaze: 3x3, start (1,0), 3 targets, collect stop\n", result.stdout)
        self.assertRegex(result.stdout, r"shortest solution: 3 tilts: R(UD|DU)\n")
        passing = self.maze("/sweep/records", "--solve", "--collect", "pass")
        self.assertIn("shortest solution: 3 tilts: DRU\n", passing.stdout)
        stop = self.maze("/sweep/records", "--solve")
        self.assertIn("solution: unsolvable\n", stop.stdout)

    def test_errors_name_file_dataset_row_and_problem(self):
        f = self.file
        self.assert_refused(self.maze("/sweep/records", "--row", "6"),
                            f"{f}: /sweep/records row 6: no such row; the table has 6 rows")
        self.assert_refused(self.maze("/sweep/records", "--row", "-1"), "--row", "'-1'")
        self.assert_refused(self.maze("/sweep/recs"),
                            f"{f}: /sweep/recs: no such dataset; tables with a 'maze' field: /ga/best, /sweep/records")
        self.assert_refused(self.maze("/sweep"), f"{f}: /sweep: is a group, not a dataset")
        self.assert_refused(self.maze("/ga/genome_length"), f"{f}: /ga/genome_length: not a table")
        self.assert_refused(self.maze("/sweep/records", "--field", "mze"),
                            f"{f}: /sweep/records: no field 'mze'; did you mean 'maze'?")
        self.assert_refused(self.maze("/sweep/records", "--field", "score"),
                            f"{f}: /sweep/records: field 'score' is a number")
        self.assert_refused(self.maze("/sweep/records", "--row", "4"),
                            f"{f}: /sweep/records row 4, field 'maze': not a compact tilt maze: "
                            "<compact>:1:12: expected 5 fields")
        self.assert_refused(self.maze("/sweep/records", "--row", "5"),
                            f"{f}: /sweep/records row 5, field 'maze': empty (no maze stored in this row)")
        self.assert_refused(levelforge("maze", self.path("none.h5"), "/sweep/records"),
                            f"{self.path('none.h5')} does not exist")
        not_hdf5 = self.write(CORRIDOR)
        self.assert_refused(levelforge("maze", not_hdf5, "/sweep/records"), f"{not_hdf5} is not an HDF5 file")


class Summary(SolveTest):
    """`levelforge inspect` prints the tiltmaze kernel's summary of a run, counted here again
    from the file's records with h5py."""

    kernel = "tiltmaze"

    def test_inspect_counts_the_solvable_mazes(self):
        config = self.write("""
            experiment: summary
            kernel: tiltmaze
            driver: sweep
            params: {width: 6, height: 6, wall_density: 0.3, targets: 3, collect: pass, placement: anywhere}
            sweep: {replicates: 40}
            seed: 11
            """, "summary.yaml")
        result = self.run_to(config, [], 2, "summary.h5")
        with h5py.File(result, "r") as f:
            records = f["sweep/records"][...]
        lengths = sorted(int(r["length"]) for r in records if r["solvable"])
        self.assertGreater(len(lengths), 0)
        self.assertLess(len(lengths), len(records))
        shown = levelforge("inspect", result, "--brief")
        self.assert_ok(shown)
        self.assertIn(
            f"tiltmaze summary:\n  random mazes: {len(lengths)} of {len(records)} solvable "
            f"({100 * len(lengths) / len(records):.1f}%); shortest solutions: median "
            f"{lengths[len(lengths) // 2]} tilts, longest {lengths[-1]}\n", shown.stdout)


class Memory(TempDirTest):
    """Issue 51: a tilt-maze sweep of 1,000,000 points took 7.2 GB a rank, its records and the
    copies made to write them, which the estimate did not count. Too many of them are refused
    with exit 2 by `validate` and `run` alike, under a limit on the process's data
    (RLIMIT_DATA), so that a regression fails the test instead of filling the machine."""

    def test_records_that_cannot_fit_are_refused(self):
        config = self.write("""\
            experiment: many-mazes
            kernel: tiltmaze
            driver: sweep
            sweep:
              grid:
                params.wall_density: {linspace: [0, 0.5, 100000]}
              replicates: 1000000
            """, "many_mazes.yaml")
        for command in (["validate", config], ["run", config, "-o", self.path("never.h5")]):
            refused = levelforge(*command, memory_limit=1 << 30, timeout=60)
            self.assertEqual(refused.returncode, 2, refused.stdout + refused.stderr)
            self.assertIn(f"{config}: the records of 100000000000 tasks per rank (100000 points x "
                          "1000000 replicates = 100000000000 tasks on 1 rank) and 2 copies made "
                          "to write them: the run needs about 665 TiB per rank", refused.stderr)
        self.assertFalse(os.path.exists(self.path("never.h5")))


if __name__ == "__main__":
    unittest.main(verbosity=2)

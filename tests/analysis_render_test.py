"""Picture tests for the kernels' drawings (draw_match3, draw_tiltmaze, draw_matchstick,
draw_spawn_strip in analysis/kernels/NAME.py): draw hand-built levels, save a PNG, and read
pixels back at positions found through ax.transData. What they re-implement from the C++ side
(the compact maze form, the rolls, the seven-segment table) is held equal to the runner's
`levelforge solve` on many random cases (RunnerAgreement).

Run: LEVELFORGE_BIN=build/runner/cli/levelforge /usr/bin/python3 tests/analysis_render_test.py -v
"""

import dataclasses
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402

from analysis.kernels import match3, matchstick, spawn, tiltmaze  # noqa: E402

DPI = 100
EXAMPLE = "3x2;0;2,4;4;4"  # docs/tiltmaze.md, "The compact form"
# 3 x 3, start in the middle, targets in two corners; a wall right of the centre cell (east
# wall 3 of 6: 0001 00 -> "10") and walls under (0,0) and (1,2) (south walls 0 and 5 of 6:
# 1000 01 -> "84").
INNER = "3x3;4;0,8;10;84"
# docs/cli.md, "Tilt mazes": a sweep maze as compact string, its text form, and its solution.
CLI_COMPACT = "6x5;16;5,11,17;5405580;1802b0"
CLI_DRAWING = """\
+-+-+-+-+-+-+
|   |   |  T|
+ + + +-+-+ +
| |        T|
+ + + + + + +
|       |S T|
+ + +-+ +-+ +
| |   |   | |
+-+-+ + + + +
| |         |
+-+-+-+-+-+-+
"""
CLI_RESTING = {10, 16, 17, 7, 11, 0, 1, 18, 19, 20, 26, 4, 5, 25, 29}


def text_form(maze):
    """The drawing of docs/tiltmaze.md "The drawing", written independently of tiltmaze.py."""
    w, h = maze.width, maze.height
    lines = ["+" + "-+" * w]
    for row in range(h):
        line = "|"
        for col in range(w):
            cell = row * w + col
            line += "S" if cell == maze.start else "T" if cell in maze.targets else " "
            line += "|" if col == w - 1 or maze.east[cell] else " "
        lines.append(line)
        under = "+"
        for col in range(w):
            under += ("-" if row == h - 1 or maze.south[row * w + col] else " ") + "+"
        lines.append(under)
    return "\n".join(lines) + "\n"


class Picture:
    """A figure with one Axes, and the RGB of its saved PNG at data points."""

    def __init__(self, test, width_in, height_in):
        self.fig, self.ax = plt.subplots(figsize=(width_in, height_in), dpi=DPI)
        test.addCleanup(plt.close, self.fig)
        self.test = test

    def rgb_at(self, points):
        self.fig.canvas.draw()  # fixes the transforms before mapping data to pixels
        display = self.ax.transData.transform(np.asarray(points, dtype=float))
        with tempfile.TemporaryDirectory() as tmp:
            png = os.path.join(tmp, "picture.png")
            self.fig.savefig(png, dpi=DPI)
            image = mpimg.imread(png)
        width, height = self.fig.canvas.get_width_height()
        self.test.assertEqual(image.shape[:2], (height, width))
        # Display y counts up from the bottom; PNG rows count down from the top.
        return [tuple(image[int(height - y), int(x), :3]) for x, y in display]


def is_black(rgb):
    return max(rgb) < 0.2


def is_white(rgb):
    return min(rgb) > 0.95


def display_y(picture, point):
    picture.fig.canvas.draw()
    return picture.ax.transData.transform(point)[1]


class Match3Test(unittest.TestCase):
    BOARD = np.array([[0, 1, 2], [3, 255, 7]], dtype=np.uint8)

    def test_cell_centres_have_palette_colors(self):
        picture = Picture(self, 3, 2)
        self.assertIs(match3.draw_match3(picture.ax, self.BOARD), picture.ax)
        rows, cols = self.BOARD.shape
        centres = [(c + 0.5, r + 0.5) for r in range(rows) for c in range(cols)]
        for (x, y), rgb in zip(centres, picture.rgb_at(centres)):
            value = int(self.BOARD[int(y), int(x)])
            want = (1.0, 1.0, 1.0) if value == 255 else to_rgb(match3.MATCH3_PALETTE[value])
            np.testing.assert_allclose(rgb, want, atol=0.02,
                                       err_msg=f"cell ({int(y)}, {int(x)}) value {value}")

    def test_row_zero_on_top(self):
        picture = Picture(self, 3, 2)
        match3.draw_match3(picture.ax, self.BOARD)
        self.assertGreater(display_y(picture, (0.5, 0.5)), display_y(picture, (0.5, 1.5)))

    def test_palette_is_distinct_and_never_white(self):
        colors = [to_rgb(c) for c in match3.MATCH3_PALETTE]
        self.assertEqual(len(colors), 8)
        self.assertEqual(len(set(colors)), 8)
        self.assertFalse(any(is_white(c) for c in colors))

    def test_bad_cell_values_raise(self):
        picture = Picture(self, 1, 1)
        with self.assertRaisesRegex(ValueError, "9"):
            match3.draw_match3(picture.ax, np.array([[0, 9]], dtype=np.uint8))
        with self.assertRaisesRegex(ValueError, "3"):
            match3.draw_match3(picture.ax, np.array([[0, 3]], dtype=np.uint8), colors=3)


class ParseCompactTest(unittest.TestCase):
    def test_doc_example(self):
        maze = tiltmaze.parse_compact(EXAMPLE)
        self.assertEqual((maze.width, maze.height, maze.start), (3, 2, 0))
        self.assertEqual(maze.targets, (2, 4))
        self.assertEqual(maze.east, (0, 1, 0, 0, 0, 0))
        self.assertEqual(maze.south, (0, 1, 0, 0, 0, 0))

    def test_one_by_one(self):
        maze = tiltmaze.parse_compact("1x1;0;;;")
        self.assertEqual((maze.width, maze.height, maze.start, maze.targets), (1, 1, 0, ()))
        self.assertEqual((maze.east, maze.south), ((0,), (0,)))

    def test_inner_walls(self):
        maze = tiltmaze.parse_compact(INNER)
        self.assertEqual(maze.east, (0, 0, 0, 0, 1, 0, 0, 0, 0))
        self.assertEqual(maze.south, (1, 0, 0, 0, 0, 1, 0, 0, 0))
        self.assertEqual((maze.start, maze.targets), (4, (0, 8)))

    def test_cli_example_matches_its_drawing(self):
        # The bit order (first wall in the digit's 8 bit, rows then columns) decides this.
        self.assertEqual(text_form(tiltmaze.parse_compact(CLI_COMPACT)), CLI_DRAWING)

    def test_doc_errors_name_string_and_problem(self):
        for text, problem in [
            ("3x2;0;2,4;4", "expected 5 fields"),
            ("3x2;0;4,2;4;4", "strictly ascending: 2 after 4"),
            ("3x2;0;2,4;4;5", "padding bits set in the last digit of the south walls"),
        ]:
            with self.subTest(text=text):
                with self.assertRaises(ValueError) as caught:
                    tiltmaze.parse_compact(text)
                self.assertIn(repr(text), str(caught.exception))
                self.assertIn(problem, str(caught.exception))

    def test_other_errors(self):
        for text in ["3x2;0;2,4;4;4;", "03x2;0;;4;4", "3X2;0;;4;4", "3;0;;4;4", "65x1;0;;;",
                     "0x1;0;;;", "3x2;6;;4;4", "3x2;00;;4;4", "3x2;-1;;4;4", "3x2;0;2,;4;4",
                     "3x2;0;2,2;4;4",
                     "3x2;0;,2;4;4", "3x2;0;9;4;4", "3x2;0;;44;4", "3x2;0;;;4", "3x2;0;;A;4",
                     "3x2;0;;g;4", "1x1;0;;;0", ""]:
            with self.subTest(text=text):
                with self.assertRaises(ValueError) as caught:
                    tiltmaze.parse_compact(text)
                self.assertIn(repr(text), str(caught.exception))


class TiltmazeTest(unittest.TestCase):
    def draw(self, compact, path=None):
        maze = tiltmaze.parse_compact(compact)
        picture = Picture(self, maze.width, maze.height)
        self.assertIs(tiltmaze.draw_tiltmaze(picture.ax, compact, path=path), picture.ax)
        return maze, picture

    def check_walls(self, compact, walls, open_):
        _, picture = self.draw(compact)
        for point, rgb in zip(walls, picture.rgb_at(walls)):
            self.assertTrue(is_black(rgb), f"{compact}: wall at {point} drawn {rgb}")
        for point, rgb in zip(open_, picture.rgb_at(open_)):
            self.assertTrue(is_white(rgb), f"{compact}: open at {point} drawn {rgb}")

    def test_example_walls(self):
        # east of (0,1), under (0,1), and the border left of (0,0) and under (1,2)
        walls = [(2, 0.5), (1.5, 1), (0, 0.5), (2.5, 2)]
        open_ = [(1, 0.5), (1, 1.5), (2, 1.5), (0.5, 1), (2.5, 1)]
        self.check_walls(EXAMPLE, walls, open_)

    def test_inner_walls(self):
        walls = [(2, 1.5), (0.5, 1), (2.5, 2), (3, 2.5)]
        open_ = [(1, 1.5), (1.5, 1), (1.5, 2), (1, 0.5), (2, 0.5), (0.5, 2), (2.5, 1)]
        self.check_walls(INNER, walls, open_)

    def test_start_and_targets(self):
        for compact in (EXAMPLE, INNER):
            maze, picture = self.draw(compact)
            cells = [maze.start, *maze.targets]
            rgbs = picture.rgb_at([tiltmaze.cell_center(maze, c) for c in cells])
            r, g, b = rgbs[0]
            self.assertTrue(g > 0.4 and r < 0.3 and b < 0.3, f"{compact}: start is {rgbs[0]}")
            for cell, (r, g, b) in zip(cells[1:], rgbs[1:]):
                self.assertTrue(r > 0.8 and g < 0.2 and b < 0.2,
                                f"{compact}: target {cell} is {(r, g, b)}")

    def test_row_zero_on_top(self):
        maze, picture = self.draw(EXAMPLE)
        top, bottom = tiltmaze.cell_center(maze, 0), tiltmaze.cell_center(maze, 3)
        self.assertGreater(display_y(picture, top), display_y(picture, bottom))

    def test_hdf5_bytes_accepted(self):
        # fixed-size HDF5 string fields read back as NUL-padded bytes
        self.assertEqual(tiltmaze.cell_center(b"3x2;0;2,4;4;4\0\0", 5), (2.5, 1.5))
        self.assertEqual(tiltmaze.path_cells(np.bytes_(INNER.encode()), b"UL"), [4, 1, 0])
        self.assertEqual(len(matchstick.matchstick_sticks(b"1+1=2")), 7 + 2 + 7 + 2 + 7)

    def test_cell_center(self):
        maze = tiltmaze.parse_compact(EXAMPLE)
        self.assertEqual(tiltmaze.cell_center(maze, 0), (0.5, 0.5))
        self.assertEqual(tiltmaze.cell_center(maze, 5), (2.5, 1.5))
        self.assertEqual(tiltmaze.cell_center(EXAMPLE, 4), (1.5, 1.5))
        with self.assertRaises(ValueError):
            tiltmaze.cell_center(maze, 6)

    def test_moves_roll_to_walls(self):
        maze = tiltmaze.parse_compact(INNER)
        # U rolls 4 -> 1, L 1 -> 0, D is blocked by the wall under 0, R rolls 0 -> 2.
        self.assertEqual(tiltmaze.path_cells(maze, "ULDR"), [4, 1, 0, 0, 2])
        self.assertEqual(tiltmaze.path_cells(maze, "NWSE"), [4, 1, 0, 0, 2])
        # R is blocked by the wall right of 4; D rolls to the bottom row.
        self.assertEqual(tiltmaze.path_cells(maze, "RDR"), [4, 4, 7, 8])
        self.assertEqual(tiltmaze.path_cells(maze, [4, 3]), [4, 3])
        # Walls above and to the left stop the ball too: under (0,0) for U from 3, under
        # (1,2) for U from 8, right of 4 for L from 5.
        self.assertEqual(tiltmaze.path_cells(maze, "LU"), [4, 3, 3])
        self.assertEqual(tiltmaze.path_cells(maze, "DRUL"), [4, 7, 8, 8, 6])
        self.assertEqual(tiltmaze.path_cells("3x3;5;;10;84", "L"), [5, 5])
        # The solver's moves for the docs/cli.md maze rest only on its resting cells and stop
        # on every target (stop mode).
        cells = tiltmaze.path_cells(CLI_COMPACT, "RLURU")
        self.assertEqual(len(cells), 6)
        self.assertLessEqual(set(cells), CLI_RESTING)
        self.assertLessEqual({5, 11, 17}, set(cells))
        with self.assertRaisesRegex(ValueError, "X"):
            tiltmaze.path_cells(maze, "UX")

    def test_path_is_drawn_blue(self):
        # Halfway from 4 up to 1, and from 1 to 0: white without a path, blue with it.
        points = [(1.5, 0.85), (1.0, 0.5)]
        _, plain = self.draw(INNER)
        for rgb in plain.rgb_at(points):
            self.assertTrue(is_white(rgb), rgb)
        for path in ("UL", [4, 1, 0]):
            _, picture = self.draw(INNER, path=path)
            for point, (r, g, b) in zip(points, picture.rgb_at(points)):
                self.assertTrue(b > 0.5 and b > r + 0.2 and b > g + 0.1,
                                f"path {path!r} at {point}: {(r, g, b)}")


class MatchstickTest(unittest.TestCase):
    EQUATION = "8-1=7"

    def midpoints(self, sticks):
        return [((x0 + x1) / 2, (y0 + y1) / 2) for _, _, _, (x0, y0), (x1, y1), _ in sticks]

    def test_lit_segments_follow_the_digit_table(self):
        sticks = matchstick.matchstick_sticks(self.EQUATION)
        lit = {p: {n for q, _, n, _, _, on in sticks if q == p and on} for p in range(5)}
        unlit = {p: {n for q, _, n, _, _, on in sticks if q == p and not on} for p in range(5)}
        self.assertEqual(lit[0], set("abcdefg"))
        self.assertEqual(lit[2], {"b", "c"})
        self.assertEqual(unlit[2], set("adefg"))
        self.assertEqual((lit[1], unlit[1]), ({"h"}, {"v"}))
        self.assertEqual(lit[4], {"a", "b", "c"})

    def test_pixels(self):
        picture = Picture(self, 5, 2)
        self.assertIs(matchstick.draw_matchstick(picture.ax, self.EQUATION), picture.ax)
        sticks = [s for s in matchstick.matchstick_sticks(self.EQUATION) if s[0] in (0, 2)]
        self.assertEqual(len(sticks), 14)
        lit_rgb = to_rgb(matchstick._LIT)
        for stick, rgb in zip(sticks, picture.rgb_at(self.midpoints(sticks))):
            position, symbol, name, _, _, lit = stick
            where = f"'{symbol}' segment {name}: {rgb}"
            if lit:
                self.assertLess(max(rgb), 0.6, where)  # dark, whatever the exact color
                np.testing.assert_allclose(rgb, lit_rgb, atol=0.05, err_msg=where)
            else:
                # faint: drawn, but light
                self.assertTrue(min(rgb) > 0.8 and max(rgb) < 0.97, where)
        # between the two strokes of '=' nothing is drawn
        (rgb,) = picture.rgb_at([(3.5, 1.0)])
        self.assertTrue(is_white(rgb), rgb)

    def test_top_segment_on_top(self):
        picture = Picture(self, 1, 2)
        matchstick.draw_matchstick(picture.ax, "8")
        sticks = matchstick.matchstick_sticks("8")
        ys = {stick[2]: display_y(picture, mid)
              for stick, mid in zip(sticks, self.midpoints(sticks))}
        self.assertGreater(ys["a"], ys["g"])
        self.assertGreater(ys["g"], ys["d"])

    def test_bad_symbol(self):
        with self.assertRaisesRegex(ValueError, "'x'"):
            matchstick.matchstick_sticks("6x4=4")
        with self.assertRaises(ValueError):
            matchstick.matchstick_sticks("")


class SpawnStripTest(unittest.TestCase):
    # docs/spawn.md, first_run: 4 hex digits per level, bit K for table position K.
    LEVELS = "0001" "0005" "0005" "0002"  # {0}, {0, 2}, {0, 2} (a repeat), {1}

    def test_parse(self):
        self.assertEqual(spawn.parse_spawn_levels(self.LEVELS), [1, 5, 5, 2])
        self.assertEqual(spawn.parse_spawn_levels(b"8000ffff"), [0x8000, 0xFFFF])
        self.assertEqual(spawn.parse_spawn_levels(""), [])
        for bad in ("001", "000g", "00A1"):
            with self.assertRaises(ValueError, msg=bad):
                spawn.parse_spawn_levels(bad)

    def test_cells_filled_where_the_object_appeared(self):
        picture = Picture(self, 4, 2)
        drawn = spawn.draw_spawn_strip(picture.ax, self.LEVELS, names=["a", "b", "c"])
        self.assertIs(drawn, picture.ax)
        masks = spawn.parse_spawn_levels(self.LEVELS)
        centres = [(level + 0.5, k + 0.5) for level in range(4) for k in range(3)]
        for (x, y), rgb in zip(centres, picture.rgb_at(centres)):
            level, k = int(x), int(y)
            if masks[level] >> k & 1:
                np.testing.assert_allclose(rgb, to_rgb(spawn._SPAWNED), atol=0.02,
                                           err_msg=f"level {level} object {k}")
            else:
                self.assertTrue(is_white(rgb), f"level {level} object {k}: {rgb}")
        self.assertEqual([t.get_text() for t in picture.ax.get_yticklabels()], ["a", "b", "c"])

    def test_repeated_level_marked_and_object_zero_on_top(self):
        picture = Picture(self, 4, 2)
        spawn.draw_spawn_strip(picture.ax, [1, 5, 5, 2])
        under = [(level + 0.5, 3.4) for level in range(4)]
        marks = picture.rgb_at(under)
        np.testing.assert_allclose(marks[2], to_rgb(spawn._REPEAT), atol=0.02)
        for level in (0, 1, 3):
            self.assertTrue(is_white(marks[level]), f"level {level}: {marks[level]}")
        self.assertGreater(display_y(picture, (0.5, 0.5)), display_y(picture, (0.5, 1.5)))

    def test_bad_input(self):
        axes = plt.subplots()[1]
        self.addCleanup(plt.close, axes.figure)
        with self.assertRaisesRegex(ValueError, "2 names for 3 objects"):
            spawn.draw_spawn_strip(axes, "0004", names=["a", "b"], objects=3)
        with self.assertRaisesRegex(ValueError, "past the 2"):
            spawn.draw_spawn_strip(axes, "0004", names=["a", "b"])
        with self.assertRaisesRegex(ValueError, "no levels"):
            spawn.draw_spawn_strip(axes, "")


def solve(*arguments, stdin=None):
    """`levelforge solve ... --json` as a dict (no MPI launcher: solve runs on one process)."""
    done = subprocess.run([os.environ["LEVELFORGE_BIN"], "solve", *arguments, "--json"], input=stdin,
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise AssertionError(f"levelforge solve {arguments} {stdin!r}: {done.stderr}")
    return json.loads(done.stdout)


def random_compact(rng):
    """A random maze in the compact form, spelled as docs/tiltmaze.md says (written here)."""
    width, height = rng.randint(1, 9), rng.randint(1, 9)
    cells = width * height
    targets = sorted(rng.sample(range(cells), rng.randint(0, min(cells, 5))))
    density = rng.choice((0.1, 0.3, 0.5))

    def walls(count):
        bits = [int(rng.random() < density) for _ in range(count)] + [0] * (-count % 4)
        return "".join(f"{int(''.join(map(str, bits[i:i + 4])), 2):x}" for i in range(0, len(bits), 4))

    return (f"{width}x{height};{rng.randrange(cells)};{','.join(map(str, targets))};"
            f"{walls((width - 1) * height)};{walls(width * (height - 1))}")


class RunnerAgreement(unittest.TestCase):
    """tiltmaze.py's compact parser and rolls and matchstick.py's digit table against the
    runner's own, on random cases: the same maze read, the same resting cells reached, the
    same sticks moved."""

    def test_compact_mazes_and_rolls_agree_with_the_solver(self):
        rng = random.Random(20)
        solved = 0
        for _ in range(150):
            compact = random_compact(rng)
            report = solve("tiltmaze", "-", stdin=compact + "\n")
            maze = tiltmaze.parse_compact(compact)
            self.assertEqual((report["width"], report["height"], report["start"], tuple(report["targets"])),
                             (maze.width, maze.height, maze.start, maze.targets), compact)
            self.assertEqual(report["compact"], compact)
            # Every resting cell reachable by rolls from the start, by tiltmaze.py's rolls.
            reached, frontier = {maze.start}, [maze.start]
            while frontier:
                here = dataclasses.replace(maze, start=frontier.pop())
                for move in "UDLR":
                    cell = tiltmaze.path_cells(here, move)[-1]
                    if cell not in reached:
                        reached.add(cell)
                        frontier.append(cell)
            components = {cell for component in report["components"] for cell in component["cells"]}
            self.assertEqual(reached, components, compact)
            self.assertEqual(len(reached), report["resting_cells"], compact)
            if report["solvable"]:
                solved += 1
                rests = tiltmaze.path_cells(maze, report["moves"])
                self.assertLessEqual(set(maze.targets), set(rests), f"{compact}: {report['moves']}")
                self.assertEqual(len(rests) - 1, report["length"])
        self.assertGreater(solved, 30, "too few solvable mazes to check the replayed moves")

    def test_the_digit_table_moves_the_sticks_the_solver_moves(self):
        rng = random.Random(21)

        def places(equation):
            """Lit places as `POSITION.SEGMENT`, positions counted without '=' (docs/cli.md)."""
            symbols = [symbol for symbol in equation if symbol != "="]
            lit = set()
            for position, _, name, _, _, on in matchstick.matchstick_sticks("".join(symbols)):
                if on:
                    lit.add(f"{position}.{name}")
            return lit

        checked = 0
        for _ in range(200):
            a, b = rng.randrange(100), rng.randrange(100)
            operator = rng.choice("+-")
            c = a + b if operator == "+" else a - b
            c = abs(c + rng.choice((0, 0, 1, -1, 10))) % 100
            puzzle = f"{a}{operator}{b}={c}"
            moves = rng.choice((1, 2))
            report = solve("matchstick", puzzle, "--moves", str(moves))
            for detail in report["details"]:
                before, after = places(puzzle), places(detail["equation"])
                pairs = [pair.split(">") for pair in detail["moved"].split()]
                self.assertEqual({source for source, _ in pairs}, before - after, detail)
                self.assertEqual({destination for _, destination in pairs}, after - before, detail)
                self.assertEqual(detail["distance"], len(after - before), detail)
                checked += 1
        self.assertGreater(checked, 150, "too few solutions to compare the digit tables")


if __name__ == "__main__":
    unittest.main()

"""Tilt mazes (kernels/tiltmaze): solvability against wall density and solution lengths of
a sweep, the hardest mazes of an exhaustive run with their solutions, the mazes spread over a
QD archive. `analysis.report` calls figures(report) for a run of this kernel."""

import re
import textwrap
from dataclasses import dataclass

import matplotlib.pyplot as plt
from matplotlib.patches import Circle, Rectangle

from . import bare_axes, spread_points, stored_text
from ..figures import line_panels, panels_and_lines, point_label, qd_levels, varied_keys


# Drawing (usable on any matplotlib Axes in a notebook)

@dataclass(frozen=True)
class Maze:
    """A tilt maze as in kernels/tiltmaze/maze.hpp.

    ``east[cell]`` is 1 for a wall between the cell and its right neighbour, ``south[cell]``
    for one between it and the cell below; entries for the last column / last row are 0.
    Cells are numbered row-major: cell = row * width + column, row 0 at the top.
    """

    width: int
    height: int
    start: int
    targets: tuple
    east: tuple
    south: tuple

    @property
    def cells(self):
        return self.width * self.height


_SIZE = re.compile(r"([1-9][0-9]*)x([1-9][0-9]*)")
_NUMBER = re.compile(r"0|[1-9][0-9]*")  # no sign, no leading zeros: one spelling per maze
_HEX = re.compile(r"[0-9a-f]*")
_MAX_SIDE = 64
_MAX_TARGETS = 64


def _bits(field, count, what, fail):
    """The ``count`` walls of a hex field, the first wall in the first digit's bit 8."""
    if not _HEX.fullmatch(field):
        fail(f"the {what} must be lower-case hex digits 0-9a-f, found {field!r}")
    digits = (count + 3) // 4
    if len(field) != digits:
        fail(f"the {what} ({count} walls) need {digits} hex digits, found {len(field)}")
    bits = []
    for digit in field:
        value = int(digit, 16)
        bits.extend((value >> (3 - k)) & 1 for k in range(4))
    if any(bits[count:]):
        fail(f"padding bits set in the last digit of the {what} ({count} walls): they must be 0")
    return bits[:count]


def parse_compact(text):
    """Parse a compact maze ``WxH;START;TARGETS;EAST;SOUTH`` (docs/tiltmaze.md).

    Accepts exactly the spelling ``to_compact`` writes and raises ValueError, naming the
    string and the problem, for anything else.
    """
    if not isinstance(text, str):
        raise ValueError(f"compact maze must be a str, got {type(text).__name__}: {text!r}")

    def fail(problem):
        raise ValueError(f"bad compact maze {text!r}: {problem}")

    fields = text.split(";")
    if len(fields) != 5:
        fail(f"expected 5 fields separated by ';' (WxH;START;TARGETS;EAST;SOUTH), "
             f"found {len(fields)}")
    size, start_text, targets_text, east_text, south_text = fields

    match = _SIZE.fullmatch(size)
    if not match:
        fail(f"the size must be WxH in decimal without leading zeros, found {size!r}")
    width, height = int(match.group(1)), int(match.group(2))
    if not (1 <= width <= _MAX_SIDE and 1 <= height <= _MAX_SIDE):
        fail(f"size {width}x{height} is outside 1..{_MAX_SIDE} on a side")
    cells = width * height

    def cell(spelling, what):
        if not _NUMBER.fullmatch(spelling):
            fail(f"{what} must be a decimal number without sign or leading zeros, "
                 f"found {spelling!r}")
        value = int(spelling)
        if value >= cells:
            fail(f"{what} {value} is outside the maze (cells 0..{cells - 1})")
        return value

    start = cell(start_text, "the start cell")
    targets = []
    if targets_text:
        for spelling in targets_text.split(","):
            target = cell(spelling, "a target cell")
            if targets and target <= targets[-1]:
                fail(f"targets must be strictly ascending: {target} after {targets[-1]}")
            targets.append(target)
        if len(targets) > _MAX_TARGETS:
            fail(f"more than {_MAX_TARGETS} targets ({len(targets)})")

    east_bits = _bits(east_text, (width - 1) * height, "east walls", fail)
    south_bits = _bits(south_text, width * (height - 1), "south walls", fail)
    # The compact fields hold only the walls the model uses; the others stay 0.
    east = [0] * cells
    south = [0] * cells
    for row in range(height):
        for col in range(width - 1):
            east[row * width + col] = east_bits[row * (width - 1) + col]
    for row in range(height - 1):
        for col in range(width):
            south[row * width + col] = south_bits[row * width + col]
    return Maze(width, height, start, tuple(targets), tuple(east), tuple(south))


def _as_maze(maze):
    maze = stored_text(maze)
    return parse_compact(maze) if isinstance(maze, str) else maze


def cell_center(maze, cell):
    """(x, y) of a cell's centre in the data coordinates of ``draw_tiltmaze``."""
    maze = _as_maze(maze)
    if not 0 <= cell < maze.cells:
        raise ValueError(f"cell {cell} is outside the {maze.width}x{maze.height} maze")
    row, col = divmod(cell, maze.width)
    return col + 0.5, row + 0.5


# The solver writes U D L R (kernels/tiltmaze/maze.hpp, direction_letters); compass letters
# are accepted too. Each is (row step, column step).
_STEPS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1),
          "N": (-1, 0), "S": (1, 0), "W": (0, -1), "E": (0, 1)}


def _blocked(maze, cell, step):
    row, col = divmod(cell, maze.width)
    drow, dcol = step
    if drow == -1:
        return row == 0 or maze.south[cell - maze.width]
    if drow == 1:
        return row == maze.height - 1 or maze.south[cell]
    if dcol == -1:
        return col == 0 or maze.east[cell - 1]
    return col == maze.width - 1 or maze.east[cell]


def path_cells(maze, path):
    """The cells a path rests on, the start first.

    ``path`` is a move string (each letter a tilt: the ball rolls until a wall, as the
    solver's ``moves``) or a sequence of cell indices, returned unchanged.
    """
    maze = _as_maze(maze)
    path = stored_text(path)
    if not isinstance(path, str):
        cells = [int(c) for c in path]
        for c in cells:
            cell_center(maze, c)  # range check
        return cells
    cells = [maze.start]
    for letter in path:
        step = _STEPS.get(letter.upper())
        if step is None:
            raise ValueError(f"move {letter!r} in {path!r} is none of U D L R (or N E S W)")
        cell = cells[-1]
        while not _blocked(maze, cell, step):
            cell += step[0] * maze.width + step[1]
        cells.append(cell)
    return cells


def draw_tiltmaze(ax, maze, path=None, number_moves=False):
    """Draw a tilt maze: border and walls thick black, start a green disc, targets red
    squares, and ``path`` (moves like ``"RLURU"`` or a list of cells) a blue polyline
    through cell centres, with ``number_moves`` the number of each move where it ends (one
    label per cell, "2,9" where moves 2 and 9 both end there).
    ``maze`` is a ``Maze`` or its compact string. Returns ``ax``.
    """
    maze = _as_maze(maze)
    w, h = maze.width, maze.height
    wall = dict(color="black", linewidth=4, solid_capstyle="projecting", zorder=5)
    ax.plot([0, w, w, 0, 0], [0, 0, h, h, 0], **wall)
    for cell in range(maze.cells):
        row, col = divmod(cell, w)
        if col < w - 1 and maze.east[cell]:
            ax.plot([col + 1, col + 1], [row, row + 1], **wall)
        if row < h - 1 and maze.south[cell]:
            ax.plot([col, col + 1], [row + 1, row + 1], **wall)

    if path is not None:
        points = [cell_center(maze, c) for c in path_cells(maze, path)]
        xs, ys = zip(*points)
        # Below the markers, so the start and targets stay readable under the path.
        ax.plot(xs, ys, color="tab:blue", linewidth=2.5, marker="o", markersize=3, zorder=2)
        if number_moves:
            # One label per cell: a path that comes back to a cell lists every move ending
            # there ("2,9"), where one number per move would print over the other.
            ending = {}
            for move, point in enumerate(points[1:], start=1):
                ending.setdefault(point, []).append(str(move))
            for (x, y), moves in ending.items():
                ax.annotate(",".join(moves), (x, y), xytext=(3, 3), textcoords="offset points",
                            fontsize=7, color="navy", zorder=7)
    for target in maze.targets:
        x, y = cell_center(maze, target)
        ax.add_patch(Rectangle((x - 0.25, y - 0.25), 0.5, 0.5, color="red", zorder=3))
    # After the targets: the model lets the start be a target, and the start should show.
    x, y = cell_center(maze, maze.start)
    ax.add_patch(Circle((x, y), 0.3, color="green", zorder=4))

    margin = 0.1
    ax.set_xlim(-margin, w + margin)
    ax.set_ylim(h + margin, -margin)
    bare_axes(ax)
    return ax


# A statistic of fewer mazes than this is drawn hollow: a median of 2 mazes next to one of
# 200 must not look as sure.
FEW_MAZES = 5


def mark_few(axes, data, x, y, count, line_keys, panel_keys):
    """Hollow markers over the points of `line_panels(data, x, y, ...)` taken over fewer than
    FEW_MAZES mazes (the `count` column), with one legend entry saying so."""
    few = data[count] < FEW_MAZES
    if not few.any():
        return
    for ax, (_, lines) in zip(axes.flat, panels_and_lines(data, line_keys, panel_keys)):
        for _, points, color in lines:
            points = points[points[count] < FEW_MAZES]
            ax.scatter(points[x], points[y], s=30, facecolor="white", edgecolor=color, zorder=3)
    # A black proxy, not one line's color: the legend entry is for every line.
    axes.flat[0].scatter([], [], s=30, facecolor="white", edgecolor="black",
                         label=f"fewer than {FEW_MAZES} mazes")


def tiltmaze_sweep(report):
    run = report.run
    records = run.records
    # Sampled points are no grid to draw lines through: the generic sampled.png and
    # sampled_fractions.png show them, solvable as a fraction per bin with its counts.
    if "params.wall_density" not in records.columns or run.sampled_keys:
        return
    x = "params.wall_density"
    others = [key for key in varied_keys(run) if key != x]
    line_keys, panel_keys = others[:1], others[1:]
    # A maze that got no target (no cell to place one on) is solved by standing still: it is
    # counted apart, not as solvable.
    placed = records[records.targets > 0]
    keys = [*panel_keys, *line_keys, x]
    data = placed.groupby(keys).agg(mazes=("solvable", "size"), solvable=("solvable", "sum"))
    data["fraction"] = data.solvable / data.mazes
    data = data.join(records[records.targets == 0].groupby(keys).size().rename("no_target"),
                     how="outer").fillna({"mazes": 0, "solvable": 0, "no_target": 0}).reset_index()
    data = data.astype({"mazes": int, "solvable": int, "no_target": int})
    fig, axes = line_panels(data, x, "fraction", line_keys, panel_keys, marker="o")
    mark_few(axes, data, x, "fraction", "mazes", line_keys, panel_keys)
    for ax in axes.flat:
        ax.set_ylim(-0.02, 1.02)
    report.save_panels(fig, axes, ("wall density", "solvable fraction"),
                       "tiltmaze_solvable.png", "Solvable fraction against wall density",
                       "The fraction of random mazes that are solvable, for every swept value: one "
                       "line per value of the first key, one panel per combination of the others. "
                       "Mazes that got no target are left out (counted in the data as no_target). "
                       f"Hollow: a fraction of fewer than {FEW_MAZES} mazes.",
                       data=data)
    tiltmaze_lengths(report, placed[placed.solvable == 1], x, line_keys, panel_keys)


def tiltmaze_lengths(report, solvable, x, line_keys, panel_keys):
    """The shortest solution lengths of the solvable mazes against wall density, laid out as
    the solvable fraction: median with the interquartile band, per swept combination."""
    if solvable.empty:
        return
    keys = [*panel_keys, *line_keys, x]
    data = solvable.groupby(keys)["length"].agg(
        solvable="size", mean="mean", median="median", q25=lambda v: v.quantile(0.25),
        q75=lambda v: v.quantile(0.75), longest="max").reset_index()
    fig, axes = line_panels(data, x, "median", line_keys, panel_keys, band=("q25", "q75"), marker="o")
    mark_few(axes, data, x, "median", "solvable", line_keys, panel_keys)
    report.save_panels(fig, axes, ("wall density", "shortest solution length (moves)"),
                       "tiltmaze_lengths.png", "Solution lengths against wall density",
                       "The shortest solution length of the solvable mazes: median with the band "
                       "between the 25th and 75th percentiles, laid out as the solvable fraction "
                       "(mean and longest in the data). Hollow: a median of fewer than "
                       f"{FEW_MAZES} solvable mazes (their count, solvable, in the data).", data=data)


def maze_panels(report, rows, name, title, caption, heading):
    """One maze per row of `rows` (a `maze` column, `moves` when known) with its solution
    path, moves numbered in order, titled by `heading(row)`; the rows go beside the figure."""
    fig, axes = plt.subplots(1, len(rows), figsize=(2.8 * len(rows), 3.8), squeeze=False)
    for ax, (_, row) in zip(axes[0], rows.iterrows()):
        moves = row["moves"] if "moves" in row and row["moves"] else None
        draw_tiltmaze(ax, row["maze"], path=moves, number_moves=moves is not None)
        ax.set_title(heading(row), fontsize="small")
    report.save(fig, name, title, caption, data=rows)


def histogram_counts(run):
    """What an exhaustive run's histograms count: the mazes it visited, under
    `symmetry: reflection` one per pair of mirror images (docs/tiltmaze.md)."""
    if "params.symmetry" in run.points.columns:
        return "mazes, one per reflection class at points of symmetry: reflection"
    if run.setting("params.symmetry") == "reflection":
        return "mazes, one per reflection class"
    return "mazes"


def tiltmaze_hardest(report):
    """The five hardest mazes of task 0 of each top-k table of mazes (`hardest`: one target,
    `hardest_pair`: two)."""
    for table, rows in sorted(report.run.top.items()):
        if "maze" not in rows.columns or rows.empty:
            continue
        shown = rows[rows.task == 0].head(5).reset_index(drop=True)
        what = "two targets" if "second" in shown.columns else "one target"
        # The kernel visits one maze of each pair of mirror images (docs/tiltmaze.md).
        mirrored = (" Counted up to reflection (symmetry: reflection): each maze stands for "
                    "itself and its mirror image about the diagonal through the start corner, "
                    "which is as hard and not listed."
                    if report.run.setting("params.symmetry") == "reflection" else "")
        maze_panels(report, shown, f"tiltmaze_{table}.png", f"Hardest mazes ({what})",
                    f"The hardest mazes of the run (top-k table '{table}', {what}): start (green), "
                    "targets (red), walls, and a shortest solution (blue), each move's number "
                    "where it ends (several numbers where the path comes back to a cell); the "
                    f"title spells the moves.{mirrored}",
                    lambda row: f"{int(row['score'])} moves\n{textwrap.fill(row['moves'], 24)}")


def tiltmaze_best(report):
    """A GA's evolved mazes: the best maze of replicate 0 of up to six sweep points spread
    over the sweep."""
    run = report.run
    best = run.best[(run.best.position == 0) & (run.best.replicate == 0)]
    if "maze" not in best.columns or best.empty:
        return
    shown, which = spread_points(best.sort_values("point"), 6)
    columns = ["task", "point", *run.swept_keys, "fitness", "solvable", "length", "targets", "maze"]
    maze_panels(report, shown[[c for c in columns if c in shown.columns]], "tiltmaze_best.png",
                "Evolved mazes",
                f"The best maze of replicate 0 of {which}: start (green), targets (red), walls; "
                "the title gives its point and shortest solution length.",
                lambda row: f"{textwrap.fill(point_label(run, row['point'], varied_keys(run)), 30)}\n"
                            f"length {int(row['length'])}, fitness {row['fitness']:.3g}")


def tiltmaze_examples(report):
    """Random mazes of a sweep as drawn: replicate 0 of up to six points spread over the sweep,
    titled with their point and whether (and in how many moves) they are solvable."""
    run = report.run
    records = run.records
    if "maze" not in records.columns or records.empty:
        return
    shown, which = spread_points(records[records.replicate == 0].sort_values("point"), 6)
    columns = ["task", "point", *run.swept_keys, "solvable", "length", "targets", "maze"]
    maze_panels(report, shown[[c for c in columns if c in shown.columns]], "tiltmaze_examples.png",
                "Example mazes",
                f"Replicate 0 of {which}, as generated: start (green), targets (red), walls; "
                "titles give the point and the shortest solution length.",
                lambda row: textwrap.fill(point_label(run, row["point"], varied_keys(run)), 30) + "\n"
                + (f"solvable in {int(row['length'])}" if row["solvable"] else "unsolvable"))


def figures(report):
    if report.run.driver == "sweep":
        tiltmaze_examples(report)
        tiltmaze_sweep(report)
    elif report.run.driver == "exhaustive":
        tiltmaze_hardest(report)
    elif report.run.driver == "qd":
        if "maze" in report.run.qd_archive.columns:
            qd_levels(report, lambda ax, row, level: draw_tiltmaze(ax, row["maze"]),
                      "Each maze with its start (green), targets (red) and walls.")
    else:
        tiltmaze_best(report)

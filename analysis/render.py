"""Pictures of levels drawn onto a matplotlib Axes.

Four kinds of level, each drawn by one function that takes an Axes and returns it:

- ``draw_match3(ax, cells)``: a match-3 board (docs/match3.md), one filled square per cell;
- ``draw_tiltmaze(ax, maze, path=None)``: a tilt maze (docs/tiltmaze.md), given parsed or
  as its compact string ``WxH;START;TARGETS;EAST;SOUTH``;
- ``draw_matchstick(ax, equation)``: a matchstick equation such as ``"6+4=4"``
  (docs/matchstick.md) in seven-segment sticks;
- ``draw_spawn_strip(ax, levels, names=None)``: the enemies of a run of spawn levels
  (docs/spawn.md), one column per level and one row per object, given as the masks or as
  the record's ``first_run`` text (``parse_spawn_levels``).

Coordinates: a board or maze cell (row r, column c) covers x in [c, c+1] and y in [r, r+1],
with the y axis inverted so that row 0 is at the top, as in the text forms. ``cell_center``
and ``matchstick_sticks`` give positions in these data coordinates so callers (and the tests)
can find what was drawn without guessing.

The caller chooses the backend; scripts without a display call ``matplotlib.use("Agg")``
before importing pyplot. This module never imports pyplot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from matplotlib.colors import to_rgb
from matplotlib.patches import Circle, Rectangle

__all__ = [
    "MATCH3_PALETTE",
    "EMPTY",
    "Maze",
    "parse_compact",
    "cell_center",
    "path_cells",
    "draw_match3",
    "draw_tiltmaze",
    "matchstick_sticks",
    "draw_matchstick",
    "SPAWN_DIGITS",
    "parse_spawn_levels",
    "draw_spawn_strip",
]

# ---------------------------------------------------------------------------------------
# match3

# Eight hues far apart (match3 allows 2..8 colors), none close to white so an empty cell
# cannot be mistaken for a colored one.
MATCH3_PALETTE = (
    "#e41a1c",  # 0 red
    "#377eb8",  # 1 blue
    "#4daf4a",  # 2 green
    "#ffd92f",  # 3 yellow
    "#984ea3",  # 4 purple
    "#ff7f00",  # 5 orange
    "#17becf",  # 6 cyan
    "#a65628",  # 7 brown
)
EMPTY = 255  # docs/match3.md: an empty cell, also the padding of /ga/best_levels


def _bare(ax):
    """Square cells, no ticks, no frame: the drawing is the whole picture."""
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)


def draw_match3(ax, cells, colors=None):
    """Draw a match-3 board: each cell a square of its palette color, 255 white.

    ``cells`` is a 2-D array (rows, cols) of color indices, as one level of
    ``/ga/best_levels``. ``colors`` is either a sequence of matplotlib colors replacing
    ``MATCH3_PALETTE`` or an int, the level's color count, checked against the cells.
    A value with no color raises ValueError. Returns ``ax``.
    """
    board = np.asarray(cells)
    if board.ndim != 2 or board.size == 0:
        raise ValueError(f"match3 board must be a non-empty 2-D array, got shape {board.shape}")
    if colors is None or isinstance(colors, (int, np.integer)):
        palette = MATCH3_PALETTE
        allowed = len(palette) if colors is None else int(colors)
        if not 1 <= allowed <= len(palette):
            raise ValueError(f"colors={colors}: this palette draws 1..{len(palette)} colors")
    else:
        palette = tuple(colors)
        allowed = len(palette)
    used = board[board != EMPTY]
    bad = used[(used < 0) | (used >= allowed)]
    if bad.size:
        raise ValueError(f"match3 cell value {int(bad[0])} is neither a color 0..{allowed - 1} "
                         f"nor {EMPTY} (empty)")

    rows, cols = board.shape
    rgb = np.ones((rows, cols, 3))
    for index in np.unique(used):
        rgb[board == index] = to_rgb(palette[int(index)])
    # extent puts cell (r, c) on [c, c+1] x [r, r+1]; origin "upper" keeps row 0 on top.
    ax.imshow(rgb, extent=(0, cols, rows, 0), origin="upper", interpolation="nearest")
    # Unclipped, so the outer lines are not cut in half by the axes limits.
    grid = dict(color="0.3", linewidth=0.8, clip_on=False)
    for x in range(cols + 1):
        ax.plot([x, x], [0, rows], **grid)
    for y in range(rows + 1):
        ax.plot([0, cols], [y, y], **grid)
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    _bare(ax)
    return ax


# ---------------------------------------------------------------------------------------
# tiltmaze


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


def _text(value):
    """str from a string read out of HDF5: fixed-size fields come back as NUL-padded bytes."""
    if isinstance(value, (bytes, np.bytes_)):
        return bytes(value).rstrip(b"\0").decode("ascii")
    return value


def _as_maze(maze):
    maze = _text(maze)
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
    path = _text(path)
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
    _bare(ax)
    return ax


# ---------------------------------------------------------------------------------------
# matchstick

# kernels/matchstick/equation.hpp, digit_patterns: segment a..g is bit 0..6.
_DIGIT_PATTERNS = (0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F)
_SEGMENTS = "abcdefg"
# A symbol takes one unit across and two down; the sticks sit inside with a margin so that
# neighbouring symbols do not touch.
_LEFT, _RIGHT, _TOP, _MIDDLE, _BOTTOM = 0.2, 0.8, 0.2, 1.0, 1.8
_GAP = 0.06  # sticks stop short of the corners, as real matches do
_LIT = "#7a3b0c"
_UNLIT = "#e8e8e8"


def _segment_ends(name):
    l, r, t, m, b = _LEFT, _RIGHT, _TOP, _MIDDLE, _BOTTOM
    return {
        "a": ((l, t), (r, t)), "b": ((r, t), (r, m)), "c": ((r, m), (r, b)),
        "d": ((l, b), (r, b)), "e": ((l, m), (l, b)), "f": ((l, t), (l, m)),
        "g": ((l, m), (r, m)),
        # operator places: h the horizontal stick, v the vertical one ('+' = h v, '-' = h)
        "h": ((l, m), (r, m)), "v": ((0.5, m - 0.3), (0.5, m + 0.3)),
        # '=' is fixed (not a position): two horizontals
        "=1": ((l, m - 0.2), (r, m - 0.2)), "=2": ((l, m + 0.2), (r, m + 0.2)),
    }[name]


def matchstick_sticks(equation):
    """Every stick place of an equation as ``(position, symbol, name, (x0, y0), (x1, y1),
    lit)`` in the data coordinates of ``draw_matchstick``; ``position`` counts symbols from 0
    (the '=' included), ``name`` is a..g for a digit, h/v for '+' and '-', =1/=2 for '='.
    Raises ValueError for a character that is not a digit, '+', '-' or '='.
    """
    equation = _text(equation)
    if not isinstance(equation, str) or not equation:
        raise ValueError(f"matchstick equation must be a non-empty str, got {equation!r}")
    sticks = []
    for position, symbol in enumerate(equation):
        if symbol.isdigit() and symbol.isascii():
            pattern = _DIGIT_PATTERNS[int(symbol)]
            places = [(name, bool(pattern >> bit & 1)) for bit, name in enumerate(_SEGMENTS)]
        elif symbol == "+":
            places = [("h", True), ("v", True)]
        elif symbol == "-":
            # The empty vertical place is drawn faint: '-' can receive a stick there.
            places = [("h", True), ("v", False)]
        elif symbol == "=":
            places = [("=1", True), ("=2", True)]
        else:
            raise ValueError(f"matchstick equation {equation!r}: unknown symbol {symbol!r} "
                             f"at column {position + 1}")
        for name, lit in places:
            (x0, y0), (x1, y1) = _segment_ends(name)
            # Pull both ends in along the stick so sticks meeting at a corner stay apart.
            dx, dy = np.sign(x1 - x0) * _GAP, np.sign(y1 - y0) * _GAP
            sticks.append((position, symbol, name, (position + x0 + dx, y0 + dy),
                           (position + x1 - dx, y1 - dy), lit))
    return sticks


def draw_matchstick(ax, equation):
    """Draw a matchstick equation (e.g. ``"6+4=4"``): lit sticks thick and dark, the empty
    places of digits and of '-' thin and faint. Returns ``ax``.
    """
    equation = _text(equation)
    sticks = matchstick_sticks(equation)
    for _, _, _, (x0, y0), (x1, y1), lit in sticks:
        if lit:
            ax.plot([x0, x1], [y0, y1], color=_LIT, linewidth=5, solid_capstyle="round",
                    zorder=2)
        else:
            ax.plot([x0, x1], [y0, y1], color=_UNLIT, linewidth=2, solid_capstyle="round",
                    zorder=1)
    ax.set_xlim(0, len(equation))
    ax.set_ylim(2, 0)
    _bare(ax)
    return ax


# ---------------------------------------------------------------------------------------
# spawn

SPAWN_DIGITS = 4  # docs/spawn.md: hex digits per level in first_run, bit K = object K
_SPAWNED = "#377eb8"
_REPEAT = "#e41a1c"


def parse_spawn_levels(text):
    """The masks of a ``first_run`` text: ``SPAWN_DIGITS`` lowercase hex digits per level,
    bit K set when the object at table position K appeared. Raises ValueError otherwise."""
    text = _text(text)
    if not isinstance(text, str) or len(text) % SPAWN_DIGITS or not _HEX.fullmatch(text):
        raise ValueError(f"spawn levels {text!r}: expected {SPAWN_DIGITS} lowercase hex digits "
                         f"per level")
    return [int(text[i:i + SPAWN_DIGITS], 16) for i in range(0, len(text), SPAWN_DIGITS)]


def draw_spawn_strip(ax, levels, names=None, objects=None):
    """Draw which objects each level of a run holds: level i is the column x in [i, i+1]
    (left to right), object K the row y in [K, K+1] (object 0 on top), a filled cell when the
    object appeared. A red bar under a level marks the same set of objects as the level
    before (docs/spawn.md, repetition).

    ``levels`` is a ``first_run`` text or a sequence of masks; ``names`` labels the rows
    (table order), ``objects`` sets the row count (default: the names, else up to the
    highest object that appeared). Returns ``ax``.
    """
    if isinstance(levels, (str, bytes)):
        masks = parse_spawn_levels(levels)
    else:
        masks = [int(mask) for mask in levels]
    if not masks:
        raise ValueError("spawn strip: no levels")
    if objects is None:
        objects = len(names) if names else max(max(masks).bit_length(), 1)
    if names is not None and len(names) != objects:
        raise ValueError(f"spawn strip: {len(names)} names for {objects} objects")
    if max(masks) >> objects:
        raise ValueError(f"spawn strip: a level holds an object past the {objects} of the table")
    present = np.array([[mask >> k & 1 for mask in masks] for k in range(objects)], dtype=bool)
    rgb = np.ones((objects, len(masks), 3))
    rgb[present] = to_rgb(_SPAWNED)
    ax.imshow(rgb, extent=(0, len(masks), objects, 0), origin="upper", interpolation="nearest",
              aspect="auto")
    grid = dict(color="0.8", linewidth=0.5, clip_on=False)
    for x in range(len(masks) + 1):
        ax.plot([x, x], [0, objects], **grid)
    for y in range(objects + 1):
        ax.plot([0, len(masks)], [y, y], **grid)
    for level in range(1, len(masks)):
        if masks[level] == masks[level - 1]:
            ax.add_patch(Rectangle((level, objects + 0.15), 1, 0.5, color=_REPEAT, clip_on=False))
    ax.set_xlim(0, len(masks))
    ax.set_ylim(objects + 0.7, 0)
    ax.set_yticks(np.arange(objects) + 0.5)
    ax.set_yticklabels(names if names is not None else [str(k) for k in range(objects)],
                       fontsize="small")
    ax.set_xticks(np.arange(0, len(masks), 10) + 0.5)
    ax.set_xticklabels([str(level) for level in range(0, len(masks), 10)], fontsize="small")
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return ax

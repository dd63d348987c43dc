"""Matchstick equations (kernels/matchstick): the good puzzles before and after (the
solution counts per puzzle are the generic histograms.png, counting puzzles).
`analysis.report` calls figures(report) for a run of this kernel."""

import matplotlib.pyplot as plt
import numpy as np

from . import bare_axes, stored_text


# Drawing (usable on any matplotlib Axes in a notebook)

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
    equation = stored_text(equation)
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
    equation = stored_text(equation)
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
    bare_axes(ax)
    return ax


def histogram_counts(run):
    """What the histograms count: candidate puzzles (docs/matchstick.md)."""
    return "puzzles"


def matchstick(report):
    run = report.run
    good = run.top.get("good_puzzles")
    if good is None or not len(good):
        return
    shown = good[good.task == 0].head(5).reset_index(drop=True)
    fig, axes = plt.subplots(len(shown), 2, figsize=(8, 1.4 * len(shown)), squeeze=False)
    for row_axes, (_, row) in zip(axes, shown.iterrows()):
        draw_matchstick(row_axes[0], row["puzzle"])
        draw_matchstick(row_axes[1], row["solution"])
        row_axes[1].set_title(f"difficulty {row['score']:.4g}", fontsize="x-small", loc="right")
    axes[0][0].set_title("puzzle", fontsize="small")
    axes[0][1].set_title("solution", fontsize="small", loc="left")
    report.save(fig, "matchstick_good.png", "Good puzzles",
                "The best puzzles of task 0 by difficulty (the top-k table's score): the false "
                "equation and the true one after the move.", data=shown)


def figures(report):
    if report.run.driver == "exhaustive":
        matchstick(report)

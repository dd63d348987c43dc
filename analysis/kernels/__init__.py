"""The figures of each shipped kernel: analysis/kernels/<kernel>.py defines figures(report)
(analysis/report.py finds it by the run's kernel name; analysis/figures.py has what they
share) and the kernel's drawing of a level onto a matplotlib Axes (`draw_<kernel>`).

Coordinates of the drawings: a board or maze cell (row r, column c) covers x in [c, c+1] and
y in [r, r+1], with the y axis inverted so that row 0 is at the top, as in the text forms.
The kernel modules give positions in these data coordinates (`cell_center`,
`matchstick_sticks`) so callers (and the tests) can find what was drawn without guessing."""

import numpy as np

from .. import figures  # noqa: F401  (chooses matplotlib's Agg backend before pyplot loads)


def spread_points(rows, most):
    """The level pictures' points: up to `most` of `rows` (one row per sweep point, in point
    order) spread evenly over the sweep, the first and the last point included, with a phrase
    for the caption naming them. The first few points of a grid would all share the value of
    its first key."""
    chosen = rows.iloc[np.unique(np.linspace(0, len(rows) - 1, min(len(rows), most))
                                 .round().astype(int))].reset_index(drop=True)
    if len(chosen) == len(rows):
        return chosen, "every sweep point" if len(rows) > 1 else "the run's one point"
    return chosen, (f"{len(chosen)} of the {len(rows)} sweep points spread evenly over the sweep, "
                    f"the first and the last included (points "
                    f"{', '.join(str(int(point)) for point in chosen.point)})")


def bare_axes(ax):
    """Square cells, no ticks, no frame: the drawing is the whole picture."""
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)


def stored_text(value):
    """str from a string read out of HDF5: fixed-size fields come back as NUL-padded bytes."""
    if isinstance(value, (bytes, np.bytes_)):
        return bytes(value).rstrip(b"\0").decode("ascii")
    return value

"""The figures of each shipped kernel: analysis/kernels/<kernel>.py defines figures(report)
(analysis/report.py finds it by the run's kernel name; analysis/figures.py has what they
share)."""

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

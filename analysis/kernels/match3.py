"""Match-3 (kernels/match3): GA targets against validated success probabilities, the best
boards, the boards spread over a QD archive. `analysis.report` calls figures(report) for a run
of this kernel."""

import textwrap

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import to_rgb

from . import bare_axes, spread_points
from ..figures import (by_keys, line_panels, panel_grid, point_label, qd_levels, sweep_roles,
                       targets, values_label, varied_keys)


# Drawing (usable on any matplotlib Axes in a notebook)

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
    bare_axes(ax)
    return ax


def match3_targets(report):
    run = report.run
    targets(report, lambda point: f"p_{run.setting('params.estimator', point)}", "playouts",
            ("target success probability", "success probability of the best level"),
            "match3_targets.png", "Target against validated success probability",
            "Each task's best board: its success probability by the run's estimator (p_normal: a "
            "normal fit of the playout scores, p_empirical: the fraction of playouts over the "
            "threshold), as estimated during selection and as measured again on fresh playouts, "
            "against the target it was evolved for.")


def match3_boards(report):
    """The best board of replicate 0 of up to six sweep points spread over the sweep, titled
    with its point and its success probability by the run's estimator, at selection and
    validated."""
    run = report.run
    levels = run.levels
    if levels is None:
        return
    best = run.best[(run.best.position == 0) & (run.best.replicate == 0)]
    shown, which = spread_points(best.sort_values("point"), 6)
    quantity = [f"p_{run.setting('params.estimator', point)}" for point in shown.point]
    fig, axes = plt.subplots(1, len(shown), figsize=(2.6 * len(shown), 4.0), squeeze=False)
    for ax, (_, row), field in zip(axes[0], shown.iterrows(), quantity):
        draw_match3(ax, levels[int(row["task"]), 0])
        validated = f", validated {row[f'validated_{field}']:.3f}" if f"validated_{field}" in row else ""
        ax.set_title(f"{textwrap.fill(point_label(run, row['point'], varied_keys(run)), 28)}\n"
                     f"{field} {row[field]:.3f}{validated}", fontsize="x-small")
    data = shown[[c for c in ("task", "point", *run.swept_keys, "fitness") if c in shown.columns]].copy()
    data["quantity"] = quantity
    data["at_selection"] = [row[q] for q, (_, row) in zip(quantity, shown.iterrows())]
    data["validated"] = [row.get(f"validated_{q}") for q, (_, row) in zip(quantity, shown.iterrows())]
    fig.tight_layout()
    report.save(fig, "match3_boards.png", "Best boards",
                f"The best board of replicate 0 of {which}, before play; white cells are empty. "
                "Titles: the point, and the board's success probability by the run's estimator at "
                "selection and validated on fresh playouts.", data=data)


def match3_normal_fit(report):
    """What the paper's method (a normal fit of the playout scores) says against counting: each
    kept board's validated p_normal against its validated p_empirical, on the same fresh
    playouts. One panel per scoring rule (params.score_per) and other varied swept key but the
    target; colors by target."""
    run = report.run
    kept = run.with_params(run.best)
    if not {"validated_p_normal", "validated_p_empirical"} <= set(kept.columns):
        return
    data = kept[["task", "point", *run.swept_keys, "position"]].copy()
    data["score_per"] = [run.setting("params.score_per", point) or "move" for point in kept.point]
    for column in ("mean", "std", "p_normal", "p_empirical"):
        data[column] = kept[f"validated_{column}"].to_numpy()
    data["normal_minus_empirical"] = data.p_normal - data.p_empirical
    keys = ["score_per", *(k for k in varied_keys(run) if k not in ("params.target", "params.score_per"))]
    panels = by_keys(data, keys)
    fig, axes = panel_grid(len(panels), width=4.6, height=4.4)
    for ax, (panel, rows) in zip(axes.flat, panels):
        groups = rows.groupby("params.target") if "params.target" in rows else [(None, rows)]
        for target, group in groups:
            label = "boards" if target is None else f"target {target:g}"
            ax.scatter(group.p_empirical, group.p_normal, s=14, label=label)
        ax.plot([0, 1], [0, 1], color="grey", linewidth=1, linestyle="--", label="normal = counted")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_title(f"{textwrap.fill(values_label(keys, panel), 50)}\nnormal - counted: "
                     f"{rows.normal_minus_empirical.mean():+.3f} (mean)", fontsize="small")
    report.save_panels(fig, axes, ("p_empirical (playouts counted over the threshold)",
                                   "p_normal (normal fit of their scores)"),
                       "match3_normal_fit.png", "The normal fit against counting",
                       "Each kept board's success probability on the same fresh validation "
                       "playouts, by the paper's method (a normal distribution fitted to the "
                       "scores) and by counting the playouts over the threshold. Points above the "
                       "diagonal: the normal fit overstates the probability; heavy-tailed score "
                       "distributions (a rare playout with long cascades) fall far below it.",
                       data=data)


def match3_sweep(report):
    """A sweep of boards: each point's success probability by the run's estimator, mean over
    its replicates with their standard deviation, against the swept keys."""
    run = report.run
    records = run.records
    x, lines, panels = sweep_roles(run, ("params.target", "params.gene", "params.threshold"))
    if records.empty:
        return
    records = records.assign(quantity=[f"p_{run.setting('params.estimator', p)}" for p in records.point])
    records["p"] = [row[q] for q, (_, row) in zip(records.quantity, records.iterrows())]
    keys = [k for k in (x, *lines, *panels) if k] + ["quantity"]
    data = records.groupby(keys)["p"].agg(mean="mean", std="std", replicates="count").reset_index()
    if x is None:
        x = "quantity"
    fig, axes = line_panels(data, x, "mean", lines, panels, errors="std", marker="o")
    for ax in axes.flat:
        ax.set_ylim(-0.02, 1.02)
    shown = ", ".join(sorted(set(data.quantity)))
    report.save_panels(fig, axes, (x.split(".")[-1], f"success probability ({shown})"),
                       "match3_sweep.png", "Success probability of the swept boards",
                       "Each sweep point's success probability by the run's estimator: mean over "
                       "its replicates, bars one standard deviation.", data=data)


def figures(report):
    if report.run.driver == "ga":
        match3_targets(report)
        match3_normal_fit(report)
        match3_boards(report)
    elif report.run.driver == "qd":
        if report.run.qd_levels is not None:
            qd_levels(report, lambda ax, row, level: draw_match3(ax, level),
                      "Each board before play, one square per cell in its color; white cells are "
                      "empty.")
    else:
        match3_sweep(report)

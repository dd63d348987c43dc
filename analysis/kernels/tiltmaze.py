"""Tilt mazes (kernels/tiltmaze): solvability against wall density and solution lengths of
a sweep, the hardest mazes of an exhaustive run with their solutions. `analysis.report`
calls figures(report) for a run of this kernel."""

import matplotlib.pyplot as plt
import numpy as np

from ..figures import values_label, by_keys
from ..render import draw_tiltmaze


def tiltmaze_sweep(report):
    run = report.run
    records = run.records
    if "params.wall_density" not in records.columns:
        return
    size = "params.width" if "params.width" in records.columns else None
    collect = "params.collect" if "params.collect" in records.columns else None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    groups = [c for c in (size, collect) if c]
    for key, rows in by_keys(records, groups):
        fraction = rows.groupby("params.wall_density")["solvable"].mean()
        label = values_label(groups, key) or "all"
        ax.plot(fraction.index, fraction.to_numpy(), marker="o", label=label)
    ax.set_ylim(-0.02, 1.02)
    report.save_plot(fig, ax, ("wall density", "solvable fraction"), "tiltmaze_solvable.png",
                     "Solvable fraction against wall density",
                     "The fraction of random mazes that are solvable, per maze size and collect mode.",
                     legend_columns=2)
    solvable = records[records.solvable == 1]
    if len(solvable):
        fig, ax = plt.subplots(figsize=(7, 4))
        for key, rows in (solvable.groupby(collect) if collect else [("all", solvable)]):
            ax.hist(rows["length"], bins=np.arange(0, rows["length"].max() + 2) - 0.5, alpha=0.6,
                    label=f"collect={key}")
        ax.set_xlabel("shortest solution length (moves)")
        ax.set_ylabel("mazes")
        ax.legend(fontsize="small")
        report.save(fig, "tiltmaze_lengths.png", "Solution lengths",
                    "Shortest solution lengths of the solvable mazes.")


def tiltmaze_hardest(report):
    top = report.run.top.get("hardest")
    if top is None or "maze" not in top.columns:
        return
    shown = top[top.task == 0].head(6)
    fig, axes = plt.subplots(1, len(shown), figsize=(2.6 * len(shown), 3), squeeze=False)
    for ax, (_, row) in zip(axes[0], shown.iterrows()):
        draw_tiltmaze(ax, row["maze"], path=row["moves"] if "moves" in row else None)
        ax.set_title(f"{int(row['score'])} moves", fontsize="small")
    report.save(fig, "tiltmaze_hardest.png", "Hardest mazes",
                "The hardest mazes of the run (top-k table 'hardest'): start (green), target (red), "
                "walls, and the shortest solution (blue).")


def figures(report):
    if report.run.driver == "sweep":
        tiltmaze_sweep(report)
    elif report.run.driver == "exhaustive":
        tiltmaze_hardest(report)

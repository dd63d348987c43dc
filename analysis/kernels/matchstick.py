"""Matchstick equations (kernels/matchstick): solution counts per puzzle and the good
puzzles before and after. `analysis.report` calls figures(report) for a run of this
kernel."""

import matplotlib.pyplot as plt

from ..figures import histogram_bars
from ..render import draw_matchstick


def matchstick(report):
    run = report.run
    reductions = run.reductions
    counts = reductions[(reductions.reduction == "solution_count") & (reductions.task == 0)]
    if len(counts):
        fig, ax = plt.subplots(figsize=(7, 4))
        histogram_bars(ax, counts)
        ax.set_yscale("log")
        ax.set_xlabel("solutions of a puzzle")
        ax.set_ylabel("puzzles (log scale)")
        report.save(fig, "matchstick_solutions.png", "Solutions per puzzle",
                    "How many solutions each candidate puzzle has.")
    good = run.top.get("good_puzzles")
    if good is None or not len(good):
        return
    shown = good[good.task == 0].head(5)
    fig, axes = plt.subplots(len(shown), 2, figsize=(8, 1.4 * len(shown)), squeeze=False)
    for row_axes, (_, row) in zip(axes, shown.iterrows()):
        draw_matchstick(row_axes[0], row["puzzle"])
        draw_matchstick(row_axes[1], row["solution"])
    axes[0][0].set_title("puzzle", fontsize="small")
    axes[0][1].set_title("solution", fontsize="small")
    report.save(fig, "matchstick_good.png", "Good puzzles",
                "The best puzzles by difficulty: the false equation and the true one after the move.")


def figures(report):
    if report.run.driver == "exhaustive":
        matchstick(report)

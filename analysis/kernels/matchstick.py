"""Matchstick equations (kernels/matchstick): the good puzzles before and after (the
solution counts per puzzle are the generic histograms.png, counting puzzles).
`analysis.report` calls figures(report) for a run of this kernel."""

import matplotlib.pyplot as plt

from ..render import draw_matchstick


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

"""Sliding tiles (examples/out_of_tree_kernel): how hard the boards came out. Found by
`python3 -m analysis.report RESULT.h5 -o DIR --figures examples/out_of_tree_kernel/figures`."""

import matplotlib.pyplot as plt


def figures(report):
    """A histogram of the fewest solving moves: of the best board of each GA task, or of
    every scrambled board of a sweep."""
    run = report.run
    frame = run.best if run.driver == "ga" else run.records
    if "distance" not in frame.columns or frame.empty:
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    top = int(frame["distance"].max())
    ax.hist(frame["distance"], bins=range(0, top + 2), align="left", label="boards")
    what = "best board of each task" if run.driver == "ga" else "scrambled boards"
    report.save_plot(fig, ax, ("fewest solving moves", "boards"), "sliding_tiles_distance.png",
                     "Board difficulty", f"The fewest moves that solve the {what}.")

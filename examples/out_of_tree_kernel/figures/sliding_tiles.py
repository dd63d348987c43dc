"""Sliding tiles (examples/out_of_tree_kernel): how hard the boards came out. Found by
`python3 -m analysis.report RESULT.h5 -o DIR --figures examples/out_of_tree_kernel/figures`."""

import matplotlib.pyplot as plt
import pandas as pd


def figures(report):
    """A histogram of the fewest solving moves: of every board a GA task kept at its end (its
    best genomes, /ga/best), or of every scrambled board of a sweep."""
    run = report.run
    frame = run.best if run.driver == "ga" else run.records
    if "distance" not in frame.columns or frame.empty:
        return
    fig, ax = plt.subplots(figsize=(6, 4))
    top = int(frame["distance"].max())
    counts, _, _ = ax.hist(frame["distance"], bins=range(0, top + 2), align="left", label="boards")
    what = ("boards each GA task kept at its end (its best genomes)" if run.driver == "ga"
            else "scrambled boards")
    data = pd.DataFrame({"fewest_solving_moves": range(0, top + 1), "boards": counts.astype(int)})
    report.save_plot(fig, ax, ("fewest solving moves", "boards"), "sliding_tiles_distance.png",
                     "Board difficulty", f"The fewest moves that solve the {what}.", data)

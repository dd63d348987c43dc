#!/usr/bin/python3
"""The QD emitters against their papers' own benchmark (issue 54): runs
bench/configs/sphere_papers.yaml at each dimension asked for, and prints (with --record,
appends to bench/RESULTS.md) each emitter's final QD score and coverage over the replicates
beside the figures Fontaine & Nikolaidis 2023 report for the same setup.

The QD score is given two ways: the runner's (the sum over occupied cells of fitness,
qd.score_offset 0) and the papers' (that sum divided by the archive's cells: the mean
fitness over all cells, an empty one counting 0, on the 0..100 scale).

    bench/qd_papers.py --dimensions 20,100 --record      # about 25 minutes on 2 cores
    bench/qd_papers.py --dimensions 20 --iterations 1000 # a quicker look, not the papers'
"""

import argparse
import sys
from pathlib import Path

import h5py
import numpy as np

import paper_runs

BENCH = paper_runs.BENCH
CONFIG = BENCH / "configs" / "sphere_papers.yaml"

# Fontaine & Nikolaidis 2023, linear projection (sphere), n = 100, 100 x 100 cells: the
# README of their code (icaros-usc/cma_mae), "reported results from the paper"; QD score as
# the mean over cells of the normalized objective, coverage in %.
PAPER_N100 = {"kernel": (41.64, 50.80), "iso_line": (49.07, 60.42), "cma_me": (36.50, 42.82),
              "cma_mae": (64.86, 83.31)}
NAMES = {"kernel": "MAP-Elites", "iso_line": "MAP-Elites (line)", "cma_me": "CMA-ME",
         "cma_mae": "CMA-MAE"}


def summarize(out):
    """{emitter: (evaluations, qd scores, coverages)} of the final history rows."""
    with h5py.File(out, "r") as f:
        final = f["qd/history"][:, -1]
        emitters = [e.decode() if isinstance(e, bytes) else e for e in f["points"]["qd.emitter"]]
        replicates = int(f.attrs["replicates"])
        cells = int(f["qd/cells"][0])
    rows = {}
    for point, emitter in enumerate(emitters):
        mine = final[point * replicates:(point + 1) * replicates]
        rows[emitter] = (int(mine["evaluations"][0]), mine["qd_score"], 100 * mine["coverage"], cells)
    return rows


def table(dimension, rows):
    lines = ["| emitter | evaluations | QD score (sum) | QD score / cells | coverage (%) | "
             "paper: QD score / cells | paper: coverage (%) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for emitter, (evaluations, scores, coverage, cells) in rows.items():
        paper = PAPER_N100.get(emitter) if dimension == 100 else None
        normalized = scores / cells
        lines.append(
            f"| {NAMES[emitter]} | {evaluations:,} | {np.mean(scores):,.0f} ± {np.std(scores, ddof=1):,.0f} | "
            f"{np.mean(normalized):.2f} ± {np.std(normalized, ddof=1):.2f} | "
            f"{np.mean(coverage):.2f} ± {np.std(coverage, ddof=1):.2f} | "
            f"{paper[0] if paper else '–'} | {paper[1] if paper else '–'} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levelforge", default=paper_runs.LEVELFORGE)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--dimensions", default="20,100")
    parser.add_argument("--replicates", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=0, help="0: the config's 10,000")
    parser.add_argument("--out", type=Path, default=BENCH / "RESULTS.md")
    parser.add_argument("--record", action="store_true", help="append the tables to --out")
    args = parser.parse_args()
    sections = []
    for dimension in (int(d) for d in args.dimensions.split(",")):
        out = Path(f"/tmp/levelforge-qd-papers-{dimension}.h5")
        overrides = [f"params.dimension={dimension}", f"sweep.replicates={args.replicates}"]
        if args.iterations:
            overrides.append(f"qd.iterations={args.iterations}")
        shown, wall = paper_runs.run(args.levelforge, args.ranks, CONFIG, out, overrides)
        rows = summarize(out)
        sections.append(f"Dimension {dimension} (`{shown}`, {wall:.0f} s on {args.ranks} ranks):\n\n"
                        + table(dimension, rows))
        print(sections[-1], flush=True)
    if args.record:
        paper_runs.record(args.out, "QD emitters on the sphere linear projection "
                          f"(`bench/qd_papers.py --dimensions {args.dimensions} --replicates "
                          f"{args.replicates}`)",
                          [f"mean ± standard deviation over {args.replicates} replicates; the "
                           "paper's figures: Fontaine & Nikolaidis 2023 (mean of 20 trials, n = "
                           "100 only)"],
                          "\n\n".join(sections), args.levelforge, args.ranks)


if __name__ == "__main__":
    sys.exit(main())

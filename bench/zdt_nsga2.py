#!/usr/bin/python3
"""NSGA-II against Deb et al. 2002's own check (issue 54): runs configs/zdt_nsga2.yaml (ZDT1-3,
30 genes, a population of 100 for 250 generations) over the replicates asked for, and prints
(with --record, appends to bench/RESULTS.md) each problem's final hypervolume (reference
point (1.1, 1.1)) beside two figures of the true front: its whole volume (the continuous
front) and the most that 100 points of it can hold (what a population of 100 can reach; 100
evenly spaced points of ZDT2's concave front hold 99.1% of the whole).

    bench/zdt_nsga2.py --replicates 20 --record     # about a minute on 2 cores
"""

import argparse
import sys
from pathlib import Path

import h5py
import numpy as np

import paper_runs

BENCH = paper_runs.BENCH
CONFIG = paper_runs.REPO / "configs" / "zdt_nsga2.yaml"
REFERENCE = 1.1


def true_front(problem, samples):
    """The non-dominated points of ZDT `problem`'s front (g = 1), sampled evenly in f1."""
    f1 = np.linspace(0, 1, samples)
    f2 = {1: 1 - np.sqrt(f1), 2: 1 - f1 ** 2,
          3: 1 - np.sqrt(f1) - f1 * np.sin(10 * np.pi * f1)}[problem]
    kept = f2 < np.minimum.accumulate(np.append(np.inf, f2[:-1]))  # ZDT3's front has gaps
    return f1[kept], f2[kept]


def whole_volume(problem):
    f1, f2 = true_front(problem, 400_001)
    return float(np.sum(np.diff(np.append(f1, REFERENCE)) * (REFERENCE - f2)))


def best_sampled_volume(problem, size, candidates=1500):
    """The most volume `size` points of the front can hold, over `candidates` of them: dynamic
    programming over the points sorted by f1, each adding its strip up to the next."""
    f1, f2 = true_front(problem, candidates)
    best = (REFERENCE - f1) * (REFERENCE - f2)  # of k points, the leftmost being i
    upper = np.triu(np.ones((len(f1), len(f1)), dtype=bool), 1)
    for _ in range(2, size + 1):
        gain = (f1[None, :] - f1[:, None]) * (REFERENCE - f2)[:, None] + best[None, :]
        best = np.where(upper, gain, -np.inf).max(axis=1)
    return float(best.max())


def table(out):
    with h5py.File(out, "r") as f:
        final = f["ga/pareto_history"][:, -1]
        problems = f["points"]["params.problem"]
        replicates = int(f.attrs["replicates"])
        population = int(f["ga/fronts"].shape[2])
    lines = ["| problem | evaluations | hypervolume: mean | median | lowest | whole front | "
             f"best {population} points | median / whole | median / best {population} | "
             "runs within 1% of best |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for point, problem in enumerate(problems):
        mine = final[point * replicates:(point + 1) * replicates]
        volumes = mine["hypervolume"]
        whole = whole_volume(int(problem))
        best = best_sampled_volume(int(problem), population)
        median = float(np.median(volumes))
        within = int(np.sum(volumes >= 0.99 * best))
        lines.append(f"| ZDT{problem} | {int(mine['evaluations'][0]):,} | {np.mean(volumes):.4f} | "
                     f"{median:.4f} | {np.min(volumes):.4f} | {whole:.4f} | {best:.4f} | "
                     f"{100 * median / whole:.2f}% | {100 * median / best:.2f}% | "
                     f"{within} of {len(volumes)} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levelforge", default=paper_runs.LEVELFORGE)
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--replicates", type=int, default=20)
    parser.add_argument("--out", type=Path, default=BENCH / "RESULTS.md")
    parser.add_argument("--record", action="store_true", help="append the table to --out")
    args = parser.parse_args()
    result = Path("/tmp/levelforge-zdt-nsga2.h5")
    shown, wall = paper_runs.run(args.levelforge, args.ranks, CONFIG, result,
                                 [f"sweep.replicates={args.replicates}"])
    section = f"`{shown}`, {wall:.0f} s on {args.ranks} ranks:\n\n" + table(result)
    print(section, flush=True)
    if args.record:
        paper_runs.record(args.out, "NSGA-II on ZDT1-3 at Deb et al. 2002's budget "
                          f"(`bench/zdt_nsga2.py --replicates {args.replicates}`)",
                          ["final hypervolume over the replicates, reference point (1.1, 1.1); "
                           "the whole front's volume, and the most 100 of its points can hold"],
                          section, args.levelforge, args.ranks)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""End-to-end benchmarks of levelforge: GA and exhaustive scaling over MPI ranks, and the
cost of HDF5 output for a sweep of many small tasks. See bench/README.md.

Builds nothing: point --levelforge at a Release build. Every benchmark runs its cases
interleaved (repeat 1: every case, repeat 2: every case, ...) so that noise on a shared
machine hits all cases alike, and every ratio is computed from the medians of this one
invocation.

    bench/run_benchmarks.py --repeats 5                      # print the table
    bench/run_benchmarks.py --repeats 5 --record             # and append it to bench/RESULTS.md
    bench/run_benchmarks.py --ranks 1,2,4,8,16 --only collatz
    bench/run_benchmarks.py --repeats 1 --scale 0.1          # smoke test (floors not meaningful)

Exit status: 0 when every run worked (whatever the floors say; --strict: 1 when a floor
fails), 2 when a run failed or its output could not be read.
"""

import argparse
import datetime
import json
import math
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "bench"
CONFIGS = BENCH / "configs"
DEFAULT_RESULTS = BENCH / "RESULTS.md"
BENCHMARKS = ("ga", "islands", "qd", "collatz", "queue", "sweep", "tiltmaze", "matchstick",
              "checkpoint", "match3", "drivers")

# Open MPI over a network transport without hardware atomics, as on an Ethernet cluster: TCP
# between all ranks (also on one node) and one-sided operations by messages (osc/pt2pt).
TRANSPORTS = {"default": [], "tcp": ["--mca", "btl", "self,tcp", "--mca", "osc", "pt2pt"]}

# The run command's summary line on stdout (runner/cli/launch.cpp), e.g.
#   levelforge: 12 tasks, 30252 kernel calls in 0.02 s on 2 ranks (max idle 6.8%)
SUMMARY = re.compile(
    r"^levelforge: (?P<tasks>\d+) tasks?, (?P<calls>\d+) kernel calls in (?P<seconds>[0-9.]+) s"
    r" on (?P<ranks>\d+) ranks? \(max idle (?P<idle>[0-9.]+)%\)\s*$",
    re.MULTILINE,
)

# Full-size parameters: read from bench/configs/*.yaml (with PyYAML), else these, which
# are the values of those files. --scale shrinks generations, count and tasks.
FALLBACK = {"ga_population": 512, "ga_generations": 20, "ga_elitism": 0, "ga_islands": 1,
            "islands_population": 4096, "islands_generations": 6, "islands_elitism": 0,
            "islands_islands": 8, "collatz_count": 20_000_000, "sweep_tasks": 10_000}

# Floors (bench/README.md): 2 ranks against 1 for the scaling runs, output against none.
GA_FLOOR = 1.8       # throughput 2 ranks / 1 rank >= 1.8
ISLANDS_FLOOR = 1.9  # the island GA's throughput 2 ranks / 1 rank >= 1.9
QD_FLOOR = 1.9       # the qd driver's throughput 2 ranks / 1 rank >= 1.9 (100 us kernel)
QD_FREE_FLOOR = 1e6  # the qd driver's evaluations per second with a free kernel on 1 rank
COLLATZ_FLOOR = 1.85  # speedup 2 ranks / 1 rank >= 1.85
QUEUE_ITEMS = 20_000  # empty tasks or chunks of one scheduling run
IDLE_FLOOR = 0.05    # idle fraction of every rank on 2 ranks <= 5 %
SWEEP_FLOOR = 1.10   # process wall time with output / without <= 1.10
TILTMAZE_FLOOR = 5.0  # seconds: the whole 4 x 4 run (MPI start, HDF5 output) on 2 ranks
MATCHSTICK_FLOOR = 5.0  # seconds: the whole 2,000,000-puzzle k = 1 run on 2 ranks


class RunError(Exception):
    pass


# ----------------------------------------------------------------------------- running


class Runner:
    def __init__(self, args, workdir):
        self.levelforge = args.levelforge
        self.mpiexec = shlex.split(args.mpiexec)
        self.mpiexec_args = shlex.split(args.mpiexec_args)
        self.timeout = args.timeout
        self.workdir = Path(workdir)
        self.verbose = args.verbose
        self.transport = args.transport
        self.env = dict(os.environ)
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            # Open MPI refuses to run as root without these.
            self.env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
            self.env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        self.counter = 0

    def launcher(self, ranks, transport=None):
        """mpiexec and its arguments for `ranks` ranks over `transport` (default: --transport)."""
        chosen = TRANSPORTS[transport or self.transport]
        return [*self.mpiexec, "--oversubscribe", *chosen, *self.mpiexec_args, "-n", str(ranks)]

    def run(self, config, ranks, overrides=(), output=True, transport=None, options=()):
        """One `levelforge run` under mpiexec. Returns a dict with the parsed summary line,
        the process wall time and, with output, the /ranks table of the result file.
        `options` are more arguments of `run` (--work-queue, --claims)."""
        self.counter += 1
        result_path = self.workdir / f"run-{self.counter}.h5"
        cmd = [*self.launcher(ranks, transport), str(self.levelforge), "run", str(config), "-q",
               *options]
        for item in overrides:
            cmd += ["--set", item]
        cmd += ["-o", str(result_path), "--force"] if output else ["--no-output"]
        if self.verbose:
            print("  $ " + shlex.join(cmd), file=sys.stderr, flush=True)
        started = time.perf_counter()
        try:
            proc = subprocess.run(cmd, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, timeout=self.timeout, check=False)
        except subprocess.TimeoutExpired as error:
            raise RunError(f"timed out after {self.timeout} s: {shlex.join(cmd)}") from error
        process_seconds = time.perf_counter() - started
        if proc.returncode != 0:
            raise RunError(f"exit status {proc.returncode}: {shlex.join(cmd)}\n"
                           f"stdout:\n{proc.stdout[-2000:]}\nstderr:\n{proc.stderr[-2000:]}")
        found = SUMMARY.search(proc.stdout)
        if found is None:
            raise RunError(f"no summary line in the output of {shlex.join(cmd)}:\n{proc.stdout[-2000:]}")
        if int(found["ranks"]) != ranks:
            raise RunError(f"the summary says {found['ranks']} ranks, expected {ranks}")
        run = {
            "tasks": int(found["tasks"]),
            "calls": int(found["calls"]),
            "driver_seconds_stdout": float(found["seconds"]),
            "max_idle_stdout": float(found["idle"]) / 100,
            "process_seconds": process_seconds,
        }
        run["driver_seconds"] = run["driver_seconds_stdout"]
        if output:
            rows = read_ranks_table(result_path)
            if len(rows) != ranks:
                raise RunError(f"{result_path}: /ranks has {len(rows)} rows, expected {ranks}")
            run["ranks_table"] = rows
            # The stdout figure is the same max over ranks, rounded to 0.1 ms; use the exact one.
            exact = max(row["wall_time"] for row in rows)
            if abs(exact - run["driver_seconds_stdout"]) > 0.00051:
                print(f"warning: /ranks says the driver took {exact:.5f} s, stdout says "
                      f"{run['driver_seconds_stdout']:.4f} s", file=sys.stderr)
            run["driver_seconds"] = exact
            result_path.unlink()
        return run


def read_ranks_table(path):
    try:
        import h5py  # Debian's python3-h5py
    except ImportError as error:
        raise RunError("h5py is missing: run this script with /usr/bin/python3 "
                       "(Debian: apt-get install python3-h5py)") from error
    try:
        with h5py.File(path, "r") as file:
            table = file["ranks"][()]
    except (OSError, KeyError) as error:
        raise RunError(f"{path}: cannot read the /ranks table: {error}") from error
    return [{"rank": int(row["rank"]), "wall_time": float(row["wall_time"]),
             "idle_time": float(row["idle_time"]), "work_units": int(row["work_units"])}
            for row in table]


# ----------------------------------------------------------------------------- statistics


class Series:
    """The values of one case's metric over the repeats."""

    def __init__(self, benchmark, case, metric, unit, fmt="{:.3f}"):
        self.benchmark, self.case, self.metric, self.unit, self.fmt = benchmark, case, metric, unit, fmt
        self.values = []

    @property
    def median(self):
        return statistics.median(self.values)

    def row(self):
        f = self.fmt.format
        return [self.benchmark, self.case, f"{self.metric} ({self.unit})", f(self.median),
                f(min(self.values)), f(max(self.values)), str(len(self.values))]


class Ratio:
    """A ratio of medians, checked against a floor (op '>=' or '<=') or only reported."""

    def __init__(self, benchmark, name, value, op=None, floor=None):
        self.benchmark, self.name, self.value, self.op, self.floor = benchmark, name, value, op, floor

    @property
    def verdict(self):
        if self.op is None:
            return ""
        ok = self.value >= self.floor if self.op == ">=" else self.value <= self.floor
        return "PASS" if ok else "FAIL"

    def row(self):
        floor = "" if self.op is None else f"{self.op} {self.floor:g}"
        return [self.benchmark, self.name, f"{self.value:.3f}", floor, self.verdict]


def config_values():
    """The sizes the benchmarks scale and check, from the config files when PyYAML is
    there (python3-yaml). Keys missing from a file take levelforge's defaults."""
    try:
        import yaml
    except ImportError:
        return dict(FALLBACK)

    def load(name):
        with open(CONFIGS / name) as file:
            return yaml.safe_load(file) or {}

    def whole(value):  # PyYAML reads 2e7 as a string (YAML 1.1); levelforge takes it
        return int(float(value))

    ga = load("ga_fixed_cost.yaml").get("ga", {})
    islands = load("ga_islands.yaml").get("ga", {})
    collatz = load("collatz_2e7.yaml").get("params", {})
    sweep = load("sweep_10k.yaml").get("sweep", {})
    if sweep.get("grid") or sweep.get("zip"):
        raise RunError("sweep_10k.yaml: the script expects replicates only, no grid or zip")
    return {"ga_population": whole(ga.get("population", 64)),
            "ga_generations": whole(ga.get("generations", 50)),
            "ga_elitism": whole(ga.get("elitism", 1)),
            "ga_islands": whole(ga.get("islands", 1)),
            "islands_population": whole(islands.get("population", 64)),
            "islands_generations": whole(islands.get("generations", 50)),
            "islands_elitism": whole(islands.get("elitism", 1)),
            "islands_islands": whole(islands.get("islands", 1)),
            "collatz_count": whole(collatz.get("count", 1_000_000)),
            "sweep_tasks": whole(sweep.get("replicates", 1))}


def scaled(value, scale, least):
    return max(least, int(round(value * scale)))


def rank_label(ranks):
    return f"{ranks} rank{'s' if ranks > 1 else ''}"


def scaling_ratios(benchmark, metric, speedup_by_ranks, ranks, floor):
    """Ratios of each rank count against the smallest: `speedup_by_ranks(base, r)`; the
    1 -> 2 rank ratio is held to `floor`, the others are reported with their efficiency."""
    base = ranks[0]
    ratios = []
    for r in ranks[1:]:
        value = speedup_by_ranks(base, r)
        bound = (">=", floor) if (base, r) == (1, 2) else (None, None)
        ratios.append(Ratio(benchmark, f"{metric} {r}r/{base}r", value, *bound))
        if (base, r) != (1, 2):
            ratios.append(Ratio(benchmark, f"efficiency {r}r/{base}r", value * base / r))
    return ratios


# ----------------------------------------------------------------------------- benchmarks


def bench_ga(runner, args, ranks):
    """Throughput (evaluations per second of driver wall time) of one fixed-cost GA task."""
    return ga_throughput(runner, args, ranks, "ga", "ga_fixed_cost.yaml", GA_FLOOR)


def bench_islands(runner, args, ranks):
    """The same for one island GA task (8 islands exchanging migrants)."""
    return ga_throughput(runner, args, ranks, "islands", "ga_islands.yaml", ISLANDS_FLOOR)


def bench_qd(runner, args, ranks):
    """The qd driver: throughput of one fixed-cost task on 1 and 2 ranks, and evaluations per
    second of driver wall with a free kernel on one rank (the driver's own cost)."""
    evaluations = {}
    for name in ("qd_fixed_cost.yaml", "qd_free.yaml"):
        qd = yaml_section(name, "qd", {"init": 100, "iterations": 100, "batch": 100})
        iterations = scaled(int(qd.get("iterations", 100)), args.scale, 1)
        evaluations[name] = (int(qd.get("init", 100)) + iterations * int(qd.get("batch", 100)),
                             [f"qd.iterations={iterations}"])
    fixed, fixed_overrides = evaluations["qd_fixed_cost.yaml"]
    free, free_overrides = evaluations["qd_free.yaml"]
    series = {r: Series("qd", rank_label(r), "throughput", "evals/s", "{:.0f}") for r in ranks}
    free_series = Series("qd", "free kernel, 1 rank", "throughput", "evals/s", "{:.0f}")
    notes = []
    for _ in range(args.warmup):
        runner.run(CONFIGS / "qd_fixed_cost.yaml", ranks[0], fixed_overrides, output=False)
    for rep in range(args.repeats):
        for r in ranks:
            run = runner.run(CONFIGS / "qd_fixed_cost.yaml", r, fixed_overrides, output=False)
            if run["calls"] != fixed:
                notes.append(f"qd on {r} ranks: {run['calls']} kernel calls, expected {fixed}")
            series[r].values.append(fixed / run["driver_seconds"])
            progress(f"qd rep {rep + 1}/{args.repeats}, {rank_label(r)}: {run['driver_seconds']:.3f} s")
        run = runner.run(CONFIGS / "qd_free.yaml", 1, free_overrides, output=False)
        free_series.values.append(free / run["driver_seconds"])
        progress(f"qd free rep {rep + 1}/{args.repeats}: {run['driver_seconds']:.3f} s")
    ratios = scaling_ratios("qd", "throughput", lambda base, r: series[r].median / series[base].median,
                            ranks, QD_FLOOR)
    ratios.append(Ratio("qd", "free kernel evals/s, 1 rank", free_series.median, ">=", QD_FREE_FLOOR))
    return [*(series[r] for r in ranks), free_series], ratios, notes


def yaml_section(name, section, fallback):
    try:
        import yaml
    except ImportError:
        return fallback
    with open(CONFIGS / name) as file:
        return (yaml.safe_load(file) or {}).get(section, fallback)


def ga_throughput(runner, args, ranks, benchmark, config_name, floor):
    sizes = config_values()
    population, elitism = sizes[f"{benchmark}_population"], sizes[f"{benchmark}_elitism"]
    islands = sizes[f"{benchmark}_islands"]
    generations = scaled(sizes[f"{benchmark}_generations"], args.scale, 2)
    overrides = [f"ga.generations={generations}"]
    expected = population + (generations - 1) * (population - islands * elitism)
    config = CONFIGS / config_name
    series = {r: Series(benchmark, rank_label(r), "throughput", "evals/s", "{:.0f}")
              for r in ranks}
    walls = {r: Series(benchmark, rank_label(r), "driver wall", "s") for r in ranks}
    notes = []
    for _ in range(args.warmup):
        runner.run(config, ranks[0], overrides)
    for rep in range(args.repeats):
        for r in ranks:
            run = runner.run(config, r, overrides)
            if run["calls"] != expected:
                note = (f"{benchmark} on {r} ranks: the summary counts {run['calls']} kernel calls, the "
                        f"config makes {expected} evaluations")
                if note not in notes:
                    notes.append(note)
            series[r].values.append(expected / run["driver_seconds"])
            walls[r].values.append(run["driver_seconds"])
            progress(f"{benchmark} rep {rep + 1}/{args.repeats}, {rank_label(r)}: "
                     f"{run['driver_seconds']:.3f} s")
    ratios = scaling_ratios(benchmark, "throughput",
                            lambda base, r: series[r].median / series[base].median, ranks, floor)
    rows = [s for r in ranks for s in (series[r], walls[r])]
    return rows, ratios, notes


def bench_collatz(runner, args, ranks):
    """Driver wall time of the exhaustive Collatz scan, speedup and idle fractions."""
    count = scaled(config_values()["collatz_count"], args.scale, 100_000)
    overrides = [f"params.count={count}"]
    config = CONFIGS / "collatz_2e7.yaml"
    walls = {r: Series("collatz", rank_label(r), "driver wall", "s") for r in ranks}
    idles = {r: Series("collatz", rank_label(r), "max idle", "%", "{:.2f}")
             for r in ranks}
    per_rank = {r: [[] for _ in range(r)] for r in ranks}
    for _ in range(args.warmup):
        runner.run(config, ranks[0], overrides)
    for rep in range(args.repeats):
        for r in ranks:
            run = runner.run(config, r, overrides)
            if run["calls"] != count:
                raise RunError(f"collatz on {r} ranks: {run['calls']} kernel calls, expected {count}")
            fractions = [row["idle_time"] / row["wall_time"] if row["wall_time"] > 0 else 0.0
                         for row in sorted(run["ranks_table"], key=lambda row: row["rank"])]
            for k, fraction in enumerate(fractions):
                per_rank[r][k].append(100 * fraction)
            walls[r].values.append(run["driver_seconds"])
            idles[r].values.append(100 * max(fractions))
            progress(f"collatz rep {rep + 1}/{args.repeats}, {rank_label(r)}: {run['driver_seconds']:.3f} s, "
                     f"idle " + ", ".join(f"{100 * f:.1f}%" for f in fractions))
    ratios = scaling_ratios("collatz", "speedup", lambda base, r: walls[base].median / walls[r].median,
                            ranks, COLLATZ_FLOOR)
    for r in ranks:
        if r == 1:
            continue
        value = idles[r].median / 100
        floor = ("<=", IDLE_FLOOR) if r == 2 else (None, None)
        ratios.append(Ratio("collatz", f"idle fraction, max over ranks, {r}r", value, *floor))
    rows = []
    for r in ranks:
        rows += [walls[r], idles[r]]
        if r > 1:
            for k in range(r):
                s = Series("collatz", f"{r} ranks", f"idle rank {k}", "%", "{:.2f}")
                s.values = per_rank[r][k]
                rows.append(s)
    return rows, ratios, []


def mpi_costs(runner, benchmark, runs, unit, prefixes, ratios):
    """Runs bench_mpi_costs for each (ranks, transport, arguments) of `runs` and adds its rows
    in `unit` whose names start with one of `prefixes` to `ratios`; False if it is not built."""
    costs = runner.levelforge.parent.parent.parent / "bench" / "bench_mpi_costs"
    if not costs.exists():
        return False
    for r, t, arguments in runs:
        cmd = [*runner.launcher(r, t), str(costs), *arguments, "--reps", "3"]
        proc = subprocess.run(cmd, env=runner.env, capture_output=True, text=True,
                              timeout=runner.timeout, check=False)
        if proc.returncode != 0:
            raise RunError(f"exit status {proc.returncode}: {shlex.join(cmd)}\n{proc.stderr[-2000:]}")
        where = " ".join([f"{r}r", t, *arguments[1:]])
        for line in proc.stdout.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 4 and cells[2] == unit and cells[0].startswith(prefixes):
                ratios.append(Ratio(benchmark, f"{cells[0]} ({unit}), {where}", float(cells[1])))
    return True


def bench_queue(runner, args, ranks):
    """The work queue: Collatz 2e7 in 20 chunks of 1,000,000 (every claim waits a chunk when
    the queue needs rank 0's help) on each transport and counter host; empty tasks and empty
    chunks through the queue on every rank count; one request's latency (bench_mpi_costs)."""
    count = scaled(config_values()["collatz_count"], args.scale, 100_000)
    collatz = CONFIGS / "collatz_2e7.yaml"
    coarse = [f"params.count={count}", f"exhaustive.chunk={max(1, count // 20)}"]
    cases = [(2, "default", "server"), (2, "default", "window"), (2, "tcp", "server"),
             (4, "tcp", "server"), (4, "default", "server")]
    walls = {c: Series("queue", f"collatz 20 chunks, {c[0]}r {c[1]}, {c[2]}", "driver wall", "s")
             for c in cases}
    idles = {c: Series("queue", f"collatz 20 chunks, {c[0]}r {c[1]}, {c[2]}", "max idle", "%",
                       "{:.2f}") for c in cases}
    for rep in range(args.repeats):
        for case in cases:
            r, transport, host = case
            run = runner.run(collatz, r, coarse, output=False, transport=transport,
                             options=["--work-queue", host])
            walls[case].values.append(run["driver_seconds"])
            idles[case].values.append(100 * run["max_idle_stdout"])
            progress(f"queue rep {rep + 1}/{args.repeats}, collatz {r}r {transport} {host}: "
                     f"{run['driver_seconds']:.3f} s, max idle {100 * run['max_idle_stdout']:.1f}%")
    ratios = []
    for case in cases:
        floor = ("<=", IDLE_FLOOR) if case[1] == "tcp" else (None, None)
        ratios.append(Ratio("queue", f"idle fraction, collatz 20 chunks, {case[0]}r {case[1]} "
                            f"{case[2]}", idles[case].median / 100, *floor))
    rows = [x for c in cases for x in (walls[c], idles[c])]

    # Scheduling alone: items that cost nothing, so the driver's wall time is the queue's.
    items = scaled(QUEUE_ITEMS, args.scale, 1000)
    empty = {"tasks": (CONFIGS / "sweep_10k.yaml",
                       [f"sweep.replicates={items}", "params.cost_us=0", "params.climb_steps=0"]),
             "chunks": (collatz, [f"params.count={items}", "exhaustive.chunk=1",
                                  "params.solution_steps=1000"])}
    parallel = [r for r in ranks if r > 1] or [2]
    rates = {(kind, r, t, c): Series("queue", f"empty {kind}, {r}r {t}, {c} claims", "throughput", "items/s", "{:.0f}")
             for kind in empty for r in parallel for t in TRANSPORTS for c in ("guided", "single")}
    for rep in range(args.repeats):
        for (kind, r, t, claims), series in rates.items():
            config, overrides = empty[kind]
            run = runner.run(config, r, overrides, output=False, transport=t,
                             options=["--claims", claims])
            series.values.append(items / max(run["driver_seconds"], 1e-3))
        progress(f"queue rep {rep + 1}/{args.repeats}: empty items done")
    rows += list(rates.values())
    for (kind, r, t, claims), series in rates.items():
        ratios.append(Ratio("queue", f"empty {kind} per second per rank, {r}r {t} {claims}",
                            series.median / r))
    notes = ["queue: the driver wall of the empty runs is the stdout figure, to 0.1 ms; "
             f"{items} items per run"]
    if not mpi_costs(runner, "queue", [(r, t, ["--distribution-only"]) for r in parallel for t in TRANSPORTS],
                     "us", ("queue", "top-k"), ratios):
        notes.append("queue: bench_mpi_costs not built (-DLEVELFORGE_BUILD_BENCHMARKS=ON): no latencies")
    return rows, ratios, notes


def bench_sweep(runner, args, ranks):
    """Process wall time of many small sweep tasks with HDF5 output (one writer per node, the
    default, and every rank writing) against --no-output; the ways of writing its table alone
    (bench_mpi_costs --output-only) on each rank count, on the real host and on hosts of 4
    pretended ranks."""
    tasks = scaled(config_values()["sweep_tasks"], args.scale, 100)
    overrides = [f"sweep.replicates={tasks}"]
    config = CONFIGS / "sweep_10k.yaml"
    r = args.sweep_ranks
    # (name, output, options of `run`)
    cases = (("output, a writer per node", True, ("--ranks-per-writer", "node")),
             ("output, every rank writes", True, ("--ranks-per-writer", "1")),
             ("no-output", False, ()))
    process = {name: Series("sweep", f"{r} ranks, {name}", "process wall", "s") for name, _, _ in cases}
    driver = {name: Series("sweep", f"{r} ranks, {name}", "driver wall", "s") for name, _, _ in cases}
    for _ in range(args.warmup):
        runner.run(config, r, overrides, output=True)
    for rep in range(args.repeats):
        for name, output, options in cases:
            run = runner.run(config, r, overrides, output=output, options=options)
            if run["tasks"] != tasks or run["calls"] != tasks:
                raise RunError(f"sweep: {run['tasks']} tasks and {run['calls']} kernel calls, "
                               f"expected {tasks} of each")
            process[name].values.append(run["process_seconds"])
            driver[name].values.append(run["driver_seconds"])
            progress(f"sweep rep {rep + 1}/{args.repeats}, {name}: "
                     f"{run['process_seconds']:.3f} s process, {run['driver_seconds']:.3f} s driver")
    notes = ["sweep: the no-output driver wall time is the stdout figure, rounded to 0.1 ms"]
    node, every, none = (name for name, _, _ in cases)
    ratios = [
        Ratio("sweep", f"process wall output/no-output, {r}r",
              process[node].median / process[none].median, "<=", SWEEP_FLOOR),
        Ratio("sweep", f"process wall output/no-output, every rank writing, {r}r",
              process[every].median / process[none].median),
        Ratio("sweep", f"driver wall output/no-output, {r}r",
              driver[node].median / driver[none].median),
    ]
    # What the process ratio dilutes with the constant MPI and HDF5 start-up cost.
    for name in (node, every):
        ratios.append(Ratio("sweep", f"output cost per task, {name}, {r}r (us, from process medians)",
                            1e6 * (process[name].median - process[none].median) / tasks))
    runs = [(n, args.transport, ["--output-only", *hosts]) for n in ranks if n > 1
            for hosts in ([], ["--ranks-per-node", "4"]) if hosts == [] or n > 4]
    if not mpi_costs(runner, "sweep", runs, "ms", ("result table",), ratios):
        notes.append("sweep: bench_mpi_costs not built (-DLEVELFORGE_BUILD_BENCHMARKS=ON): no table writes")
    return list(process.values()) + list(driver.values()), ratios, notes


def shipped_runs(runner, args, benchmark, cases, calls):
    """Process and driver wall time of shipped configs as a user starts them (MPI start and
    HDF5 output included) on --sweep-ranks ranks, cases interleaved. `cases` are
    (name, config, overrides); every run must make `calls` kernel calls."""
    r = args.sweep_ranks
    process = {name: Series(benchmark, f"{r} ranks, {name}", "process wall", "s") for name, _, _ in cases}
    driver = {name: Series(benchmark, f"{r} ranks, {name}", "driver wall", "s") for name, _, _ in cases}
    for _ in range(args.warmup):
        runner.run(cases[0][1], r, cases[0][2])
    for rep in range(args.repeats):
        for name, config, overrides in cases:
            run = runner.run(config, r, overrides)
            if run["calls"] != calls:
                raise RunError(f"{benchmark} {name}: {run['calls']} kernel calls, expected {calls}")
            process[name].values.append(run["process_seconds"])
            driver[name].values.append(run["driver_seconds"])
            progress(f"{benchmark} rep {rep + 1}/{args.repeats}, {name}: "
                     f"{run['process_seconds']:.3f} s process, {run['driver_seconds']:.3f} s driver")
    return process, driver


def bench_tiltmaze(runner, args, _ranks):
    """The shipped 4 x 4 tilt-maze runs (configs/tiltmaze_4x4_*.yaml): the single-target
    run against its floor; the two-target run with every configuration and with each maze
    once up to reflection, for what the symmetry saves."""
    r = args.sweep_ranks
    configs = REPO / "configs"
    cases = [
        ("single", configs / "tiltmaze_4x4_exhaustive.yaml", []),
        ("pairs", configs / "tiltmaze_4x4_pairs.yaml", ["params.symmetry=none"]),
        ("pairs, reflection", configs / "tiltmaze_4x4_pairs.yaml", []),
    ]
    process, driver = shipped_runs(runner, args, "tiltmaze", cases, 1 << 24)
    ratios = [
        Ratio("tiltmaze", f"single-target process wall, {r}r (s)", process["single"].median, "<=",
              TILTMAZE_FLOOR),
        Ratio("tiltmaze", f"single-target configurations/s per rank, {r}r (driver)",
              (1 << 24) / driver["single"].median / r),
        Ratio("tiltmaze", f"pairs driver wall reflection/none, {r}r",
              driver["pairs, reflection"].median / driver["pairs"].median),
    ]
    return [*process.values(), *driver.values()], ratios, []


def bench_matchstick(runner, args, _ranks):
    """The shipped 2,000,000-puzzle matchstick sweeps (configs/matchstick_2digit*.yaml),
    every solution record written: k = 1 against its floor, and k = 2."""
    r = args.sweep_ranks
    configs = REPO / "configs"
    cases = [("k=1", configs / "matchstick_2digit.yaml", []),
             ("k=2", configs / "matchstick_2digit_k2.yaml", [])]
    process, driver = shipped_runs(runner, args, "matchstick", cases, 2_000_000)
    ratios = [
        Ratio("matchstick", f"k=1 process wall, {r}r (s)", process["k=1"].median, "<=", MATCHSTICK_FLOOR),
        Ratio("matchstick", f"k=1 puzzles/s per rank, {r}r (driver)", 2_000_000 / driver["k=1"].median / r),
        Ratio("matchstick", f"k=2 puzzles/s per rank, {r}r (driver)", 2_000_000 / driver["k=2"].median / r),
    ]
    return [*process.values(), *driver.values()], ratios, []


def bench_checkpoint(runner, args, _ranks):
    """What checkpoints cost: the shipped tilt-maze sweep (28,800 short tasks) with a segment
    every 10 tasks per rank, at the default (200) and practically never."""
    r = args.sweep_ranks
    config = REPO / "configs" / "tiltmaze_sweep.yaml"
    cases = [("every 10", config, ["checkpoint.every=10"]),
             ("default (200)", config, []),
             ("never", config, ["checkpoint.every=1000000000"])]
    process, driver = shipped_runs(runner, args, "checkpoint", cases, 28_800)
    segments = 28_800 / 10
    ratios = [
        Ratio("checkpoint", f"driver wall default/never, {r}r", driver["default (200)"].median / driver["never"].median),
        Ratio("checkpoint", f"driver wall every-10/never, {r}r", driver["every 10"].median / driver["never"].median),
        Ratio("checkpoint", f"cost per segment, {r}r (ms, from driver medians, {segments:.0f} segments)",
              1e3 * (driver["every 10"].median - driver["never"].median) * r / segments),
    ]
    return [*process.values(), *driver.values()], ratios, []


def google_benchmark(runner, args, name, benchmark_filter, repetitions=None):
    """Runs build/bench/bench_NAME (Google Benchmark, --repeats repetitions, or `repetitions`,
    interleaved by its own runner) and returns its iterations as (name, {arg: value},
    items_per_second); None when the binary is not built."""
    binary = runner.levelforge.parent.parent.parent / "bench" / f"bench_{name}"
    if not binary.exists():
        return None
    repetitions = args.repeats if repetitions is None else repetitions
    # A single repetition in a fresh process gets the warm-up a burst's later ones have.
    warmup = ["--benchmark_min_warmup_time=0.2"] if repetitions == 1 else []
    cmd = [str(binary), f"--benchmark_repetitions={repetitions}", *warmup, "--benchmark_format=json",
           "--benchmark_enable_random_interleaving=true", f"--benchmark_filter={benchmark_filter}"]
    if runner.verbose:
        print("  $ " + shlex.join(cmd), file=sys.stderr, flush=True)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=runner.timeout, check=False)
    if proc.returncode != 0:
        raise RunError(f"exit status {proc.returncode}: {shlex.join(cmd)}\n{proc.stderr[-2000:]}")
    runs = []
    for run in json.loads(proc.stdout)["benchmarks"]:
        if run.get("run_type") != "iteration" or run.get("error_occurred"):
            continue
        base, *parts = run["name"].split("/")
        runs.append((base, dict(part.split(":") for part in parts if ":" in part),
                     run["items_per_second"]))
    return runs


def not_built(benchmark, name):
    return f"{benchmark}: bench_{name} not built (-DLEVELFORGE_BUILD_BENCHMARKS=ON)"


def bench_match3(runner, args, _ranks):
    """Match-3 random playouts on one core (bench_match3): the lock-step kernel on each
    instruction set this CPU has, the bitboard kernel, the scalar reference and the draw-only
    cost, on 5 x 10 / 5 colors, 8 x 8 / 6 and 16 x 16 / 6."""
    runs = google_benchmark(runner, args, "match3", "Playouts")
    if runs is None:
        return [], [], [not_built("match3", "match3")]
    series = {}
    isa_names = {"0": "portable", "1": "avx2", "2": "avx512"}
    for name, fields, per_second in runs:
        board = f"{fields['w']}x{fields['h']}/{fields['colors']}"
        kernel = name.removeprefix("BM_").removesuffix("RandomPlayouts").removesuffix("Playouts")
        if "isa" in fields:
            kernel += f" {isa_names[fields['isa']]}"
            if fields["isa"] == "2":
                kernel += " ifma52" if fields["products"] == "1" else " mul32"
        key = (board, kernel)
        if key not in series:
            series[key] = Series("match3", f"{board} {kernel}", "playouts/s", "1/s", "{:.0f}")
        series[key].values.append(per_second)
    series = dict(sorted(series.items()))
    ratios = []
    for board in dict.fromkeys(b for b, _ in series):
        bitboard = series.get((board, "Bitboard"))
        draw_only = series.get((board, "DrawOnly"))
        for (b, kernel), s in series.items():
            if b != board or not kernel.startswith(("Lockstep", "Fast")) or bitboard is None:
                continue
            # The floor holds for what production runs on this CPU (Fast: lock-step on its
            # best instruction set); the other paths are reported beside it.
            floor = 2.5 if board == "5x10/5" and kernel == "Fast" else None
            ratios.append(Ratio("match3", f"{board} {kernel} / Bitboard", s.median / bitboard.median,
                                ">=" if floor else None, floor))
            if draw_only is not None:
                ratios.append(Ratio("match3", f"{board} {kernel} / draw-only", s.median / draw_only.median))
    return list(series.values()), ratios, []


def bench_drivers(runner, args, _ranks):
    """What the drivers cost beside their kernels: each kernel alone on one core (Google
    Benchmark) against whole runs on --sweep-ranks ranks through the driver, per rank, in the
    same invocation. Exhaustive: the matchstick k = 1 and 4 x 4 tilt-maze sweeps (floor: the
    run without output >= 80% of the bare solver per rank; with output and the kernel's own
    visit, with its records, reported); ga and sweep: the match3 kernel's evaluations."""
    r = args.sweep_ranks
    solver = Series("drivers", "matchstick k=1 solver alone, 1 core", "throughput", "puzzles/s", "{:.0f}")
    summaries = Series("drivers", "tiltmaze 4x4 summaries alone, 1 core", "throughput", "configs/s",
                       "{:.0f}")
    # The bare kernels, the floors' references, are measured once per repeat beside that
    # repeat's runs: the machine's pace drifts by 10% over a minute, and one burst of
    # repetitions before all the runs would compare the runs with one moment of it.
    bare = (("matchstick", "BM_FastSweep_k1/stride:1$", solver),
            ("tiltmaze_four", "BM_summarize_many/", summaries))

    def measure_bare():
        for name, benchmark_filter, series in bare:
            runs = google_benchmark(runner, args, name, benchmark_filter, repetitions=1)
            if runs is None:
                return [not_built("drivers", name)]
            series.values += [v for _, _, v in runs]
        return []

    kernel_runs = {"drivers": google_benchmark(runner, args, "drivers", ".")}
    missing = [not_built("drivers", name) for name, runs in kernel_runs.items() if runs is None]
    missing += measure_bare() if not missing else []
    if missing:
        return [], [], missing
    cases = {"0": "matchstick k=1", "1": "tiltmaze 4x4", "2": "matchstick k=1, no solution records"}
    alone = {}
    for name, fields, per_second in kernel_runs["drivers"]:
        label = name.removeprefix("BM_")
        if "case" in fields:
            label = f"{cases[fields['case']]} {label.removeprefix('Exhaustive').lower()}"
        alone.setdefault(label, Series("drivers", f"{label}, 1 core", "throughput", "1/s", "{:.0f}"))
        alone[label].values.append(per_second)

    configs = REPO / "configs"
    runs = [  # name, config, output, kernel calls
        ("matchstick k=1, no output", configs / "matchstick_2digit.yaml", False, 2_000_000),
        ("matchstick k=1, output", configs / "matchstick_2digit.yaml", True, 2_000_000),
        ("tiltmaze 4x4, no output", configs / "tiltmaze_4x4_exhaustive.yaml", False, 1 << 24),
        ("tiltmaze 4x4, output", configs / "tiltmaze_4x4_exhaustive.yaml", True, 1 << 24),
        ("match3 ga, no output", CONFIGS / "match3_ga_driver.yaml", False, None),
        ("match3 sweep, no output", CONFIGS / "match3_sweep_driver.yaml", False, 4000),
    ]
    through = {name: Series("drivers", f"{name}, {r} ranks", "per rank", "1/s", "{:.0f}")
               for name, _, _, _ in runs}
    for _ in range(args.warmup):
        runner.run(runs[0][1], r, output=False)
    for rep in range(args.repeats):
        if rep > 0:
            measure_bare()
        for name, config, output, calls in runs:
            run = runner.run(config, r, output=output)
            if calls is not None and run["calls"] != calls:
                raise RunError(f"drivers {name}: {run['calls']} kernel calls, expected {calls}")
            through[name].values.append(run["calls"] / run["driver_seconds"] / r)
            progress(f"drivers rep {rep + 1}/{args.repeats}, {name}: {run['driver_seconds']:.3f} s")

    ratios = []
    for kernel, bare in (("matchstick k=1", solver), ("tiltmaze 4x4", summaries)):
        ratios.append(Ratio("drivers", f"{kernel}: {r}-rank run per rank, no output / alone",
                            through[f"{kernel}, no output"].median / bare.median, ">=", 0.8))
        ratios.append(Ratio("drivers", f"{kernel}: {r}-rank run per rank, output / alone",
                            through[f"{kernel}, output"].median / bare.median))
        ratios.append(Ratio("drivers", f"{kernel}: the kernel's visit (records, reductions) / alone",
                            alone[f"{kernel} visit"].median / bare.median))
        ratios.append(Ratio("drivers", f"{kernel}: {r}-rank run per rank, no output / the visit",
                            through[f"{kernel}, no output"].median / alone[f"{kernel} visit"].median))
    for driver, bench in (("ga", "Match3Evaluate"), ("sweep", "Match3SweepRun")):
        ratios.append(Ratio("drivers", f"match3 {driver}: {r}-rank run per rank / alone",
                            through[f"match3 {driver}, no output"].median / alone[bench].median))
    return [solver, summaries, *alone.values(), *through.values()], ratios, []


RUNNERS = {"ga": bench_ga, "islands": bench_islands, "qd": bench_qd, "collatz": bench_collatz,
           "queue": bench_queue, "sweep": bench_sweep, "tiltmaze": bench_tiltmaze,
           "matchstick": bench_matchstick, "checkpoint": bench_checkpoint, "match3": bench_match3,
           "drivers": bench_drivers}


# ----------------------------------------------------------------------------- report


def progress(message):
    print("  " + message, file=sys.stderr, flush=True)


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def loadavg():
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def git_describe():
    try:
        commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return commit + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def levelforge_version(path):
    try:
        return subprocess.run([str(path), "--version"], capture_output=True, text=True,
                              timeout=30, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def markdown_table(header, rows, right=()):
    widths = [max(len(str(x)) for x in column) for column in zip(header, *rows)]
    def line(cells):
        return "| " + " | ".join(str(c).rjust(w) if i in right else str(c).ljust(w)
                                 for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    rule = "|" + "|".join(("-" * (w + 1) + ":") if i in right else ("-" * (w + 2))
                          for i, w in enumerate(widths)) + "|"
    return "\n".join([line(header), rule] + [line(r) for r in rows])


def report(machine, series, ratios, notes):
    parts = ["\n".join(f"- {key}: {value}" for key, value in machine.items()), ""]
    parts.append(markdown_table(["benchmark", "case", "metric", "median", "min", "max", "n"],
                                [s.row() for s in series], right=(3, 4, 5, 6)))
    parts.append("")
    parts.append(markdown_table(["benchmark", "ratio (of medians)", "value", "floor", "result"],
                                [r.row() for r in ratios], right=(2,)))
    if notes:
        parts.append("")
        parts += [f"- note: {n}" for n in notes]
    return "\n".join(parts) + "\n"


RESULTS_HEADER = """\
# levelforge benchmark results

Sections appended by `bench/run_benchmarks.py --record`, newest last. To reproduce one,
build Release and run the command its section names, from the repository root:

    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLEVELFORGE_BUILD_TESTS=OFF
    cmake --build build -j
    bench/run_benchmarks.py --repeats 5 --record

What each benchmark measures, and the definitions of throughput, speedup and idle
fraction, are in bench/README.md. Medians over the repeats; ratios are ratios of the
medians of one invocation (cases interleaved), never of different sections.
"""


# ----------------------------------------------------------------------------- main


def parse_ranks(text):
    try:
        ranks = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a comma-separated list of rank counts, got '{text}'")
    if not ranks or any(r < 1 for r in ranks):
        raise argparse.ArgumentTypeError(f"rank counts must be >= 1, got '{text}'")
    return sorted(set(ranks))


def benchmark_names(text):
    names = text.split(",")
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown benchmark {', '.join(map(repr, unknown))}; "
                                         f"choose from {', '.join(BENCHMARKS)}")
    return names


def positive_float(text):
    value = float(text)
    if not value > 0 or math.isinf(value):
        raise argparse.ArgumentTypeError(f"expected a positive number, got '{text}'")
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("--levelforge", type=Path, default=REPO / "build/runner/cli/levelforge",
                        help="the levelforge binary (default: build/runner/cli/levelforge)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of every case (default 5)")
    parser.add_argument("--warmup", type=int, default=1,
                        help="unrecorded runs of each benchmark's first case before the repeats (default 1)")
    parser.add_argument("--ranks", type=parse_ranks, default=parse_ranks("1,2"),
                        help="rank counts of the ga and collatz scaling cases (default 1,2; "
                             "a bigger node: 1,2,4,8,16); ratios are against the smallest")
    parser.add_argument("--sweep-ranks", type=int, default=2, help="ranks of the sweep benchmark (default 2)")
    parser.add_argument("--only", type=benchmark_names, metavar="NAME[,NAME...]",
                        help=f"run these benchmarks, in this order, of: {', '.join(BENCHMARKS)}")
    parser.add_argument("--scale", type=positive_float, default=1.0,
                        help="shrink the work (GA generations, Collatz count, sweep tasks) by this "
                             "factor, for smoke tests; floors are meaningful only at 1")
    parser.add_argument("--record", action="store_true", help="append the results to --out")
    parser.add_argument("--out", type=Path, default=DEFAULT_RESULTS,
                        help="results file that --record appends to (default bench/RESULTS.md); "
                             "without --record nothing is written")
    parser.add_argument("--mpiexec", default="mpiexec", help="MPI launcher (default mpiexec)")
    parser.add_argument("--transport", choices=sorted(TRANSPORTS), default="default",
                        help="Open MPI transport of every run: default, or tcp (btl self,tcp and "
                             "osc pt2pt: a network without hardware atomics); the queue "
                             "benchmark runs both")
    parser.add_argument("--mpiexec-args", default="", help="extra launcher arguments, e.g. '--bind-to core'")
    parser.add_argument("--timeout", type=float, default=600, help="seconds allowed per run (default 600)")
    parser.add_argument("--strict", action="store_true", help="exit with status 1 when a floor fails")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every command")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.warmup < 0 or args.sweep_ranks < 1:
        parser.error("--repeats and --sweep-ranks must be >= 1, --warmup >= 0")
    args.levelforge = args.levelforge.resolve()
    if not os.access(args.levelforge, os.X_OK):
        parser.error(f"{args.levelforge} is not an executable; build levelforge first "
                     f"(cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j)")

    command = "bench/run_benchmarks.py " + shlex.join(sys.argv[1:] if argv is None else argv)
    selected = args.only or list(BENCHMARKS)
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    machine = {
        "date": now.isoformat().replace("+00:00", "Z"),
        "command": f"`{command}`",
        "host": platform.node(),
        "cpu": f"{cpu_model()}, nproc {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()}"
               f" (online {os.cpu_count()})",
        "levelforge": f"{levelforge_version(args.levelforge)}, tree {git_describe()}",
        "load average at start": loadavg(),
        "repeats": f"{args.repeats} (+{args.warmup} warmup), ranks {','.join(map(str, args.ranks))}, "
                   f"sweep ranks {args.sweep_ranks}, transport {args.transport}, scale {args.scale:g}"
                   + ("" if args.scale == 1 else " (smoke: floors not meaningful)"),
    }
    all_series, all_ratios, all_notes = [], [], []
    try:
        with tempfile.TemporaryDirectory(prefix="levelforge-bench-") as workdir:
            runner = Runner(args, workdir)
            for name in selected:
                progress(f"{name}:")
                series, ratios, notes = RUNNERS[name](runner, args, args.ranks)
                all_series += series
                all_ratios += ratios
                all_notes += notes
    except RunError as error:
        print(f"run_benchmarks: {error}", file=sys.stderr)
        return 2
    machine["load average at end"] = loadavg()
    text = report(machine, all_series, all_ratios, all_notes)
    sys.stderr.flush()
    print(text, end="", flush=True)
    if args.record:
        out = args.out
        new = not out.exists() or out.stat().st_size == 0
        with out.open("a") as file:
            if new:
                file.write(RESULTS_HEADER)
            file.write(f"\n## {machine['date']}\n\n{text}")
        print(f"appended to {out}", file=sys.stderr)
    failed = any(r.verdict == "FAIL" for r in all_ratios)
    return 1 if failed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())

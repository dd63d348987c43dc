"""Small result files written with h5py alone, as docs/hdf5-layout.md describes them: a
complete, sealed levelforge result of each driver in a few milliseconds, for the tests of what
analysis reads (the loader, the report, the figures, the exports), where a real run would
cost an MPI start and the kernel's work. A few end-to-end runs per driver keep the real
writer checked against the loader (analysis_test.py's LoadRuns).

    path = result_files.write(directory, "ga", points={"params.target": [0.2, 0.8]})

The kernel is a made-up one ("fixture" unless named) with the fields below; every number
is drawn from a generator seeded by `seed`, so a file is the same each time it is written.
"""

import os
import sys

import h5py
import numpy as np
import yaml

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from analysis import seal  # noqa: E402  (the repository's package, after the path above)

BLOCK = 512  # the seal's user block (docs/hdf5-layout.md, "The seal")


def table(rows, columns):
    """A structured array of `rows` (tuples) with `columns` [(name, dtype)], packed."""
    return np.array(rows, dtype=np.dtype(columns))


def padded(shape, columns):
    """A structured array of `shape` holding the missing values: -1, NaN, empty text."""
    array = np.zeros(shape, dtype=np.dtype(columns))
    for name, kind in columns:
        array[name] = {"i": -1, "f": np.nan, "S": b""}[np.dtype(kind).kind]
    return array


def dataset(group, name, data, **attrs):
    """`data` as a dataset, chunked and compressed as levelforge writes one with rows."""
    data = np.asarray(data)
    options = dict(compression="gzip", compression_opts=4, shuffle=True) if data.size else {}
    made = group.create_dataset(name, data=data, **options)
    for key, value in attrs.items():
        made.attrs[key] = value
    return made


def seal_file(path):
    """Writes the levelforge seal into the file's first 512 bytes (its HDF5 user block)."""
    with open(path, "r+b") as f:
        f.seek(BLOCK)
        rest = f.read()
        f.seek(0)
        f.write(seal.block_for(rest))


def sweep_points(points):
    """(P, /points rows, columns) of {key: values per point}; text values as fixed strings."""
    count = len(next(iter(points.values()))) if points else 1
    columns = [("point", "<i8")]
    for key, values in points.items():
        if isinstance(values[0], str):
            columns.append((key, f"S{max(len(v) for v in values)}"))
        elif isinstance(values[0], float):
            columns.append((key, "<f8"))
        else:
            columns.append((key, "<i8"))
    rows = [(p, *(points[key][p] for key in points)) for p in range(count)]
    return count, table(rows, columns)


def write(directory, driver, name=None, kernel="fixture", points=None, replicates=2, seed=7,
          failed=(), sweep=None, settings=None, experiment=None, **options):
    """A sealed result file of `driver` in `directory` (named `name`, default DRIVER.h5);
    returns its path. `points`: {swept key: its value at each point} (default one swept
    real key, two points); `failed`: tasks that failed (status 2, a /failures row, no
    results); `sweep`: the config's `sweep` section (default a grid of `points`);
    `settings`: more of the effective config ({"qd": {"score_offset": 0}}); `experiment`:
    its name (default fixture-DRIVER); `options` go to the driver's writer below."""
    points = {"params.target": [0.25, 0.75]} if points is None else points
    path = os.path.join(directory, name or f"{driver}.h5")
    rng = np.random.default_rng(seed)
    count, point_rows = sweep_points(points)
    tasks = count * replicates
    if sweep is None:
        sweep = {"grid": {key: list(values) for key, values in points.items()}} if points else {}
    sweep = {**sweep, "replicates": replicates}
    config = {"experiment": experiment or f"fixture-{driver}", "kernel": kernel, "seed": seed,
              "driver": driver, "sweep": sweep, "output": path, "on_error": "abort",
              "checkpoint": {"every": 60}, **(settings or {})}
    with h5py.File(path, "w", userblock_size=BLOCK) as f:
        root(f, config, driver, kernel, seed, replicates)
        dataset(f, "points", point_rows)
        status = np.ones(tasks, dtype=np.int64)
        status[list(failed)] = 2
        dataset(f, "tasks", table(
            [(t, t // replicates, t % replicates, int(rng.integers(1 << 40)), int(status[t]),
              0 if status[t] == 2 else 10, 0.01 * (t + 1), t % 2, 0, 0) for t in range(tasks)],
            [("task", "<i8"), ("point", "<i8"), ("replicate", "<i8"), ("seed", "<i8"),
             ("status", "<i8"), ("units", "<i8"), ("wall_time", "<f8"), ("rank", "<i8"),
             ("session", "<i8"), ("units_before", "<i8")]))
        dataset(f, "ranks", table([(r, 1.0, 0.1, tasks, b"portable") for r in range(2)],
                                  [("rank", "<i8"), ("wall_time", "<f8"), ("idle_time", "<f8"),
                                   ("work_units", "<i8"), ("simd_isa", "S16")]))
        message = "fixture: the kernel threw"
        begin_end = (0, 50) if driver == "exhaustive" else (-1, -1)
        dataset(f, "failures", table(
            [(t, t // replicates, t % replicates, *begin_end, 0, 0, 0.5, message.encode())
             for t in sorted(failed)],
            [("task", "<i8"), ("point", "<i8"), ("replicate", "<i8"), ("begin", "<i8"),
             ("end", "<i8"), ("session", "<i8"), ("rank", "<i8"), ("wall_time", "<f8"),
             ("message", f"S{len(message)}")]), doc="the failed tasks")
        WRITERS[driver](f, rng, count, replicates, status, **options)
    seal_file(path)
    return path


def root(f, config, driver, kernel, seed, replicates):
    """The root attributes of docs/hdf5-layout.md."""
    text = yaml.safe_dump(config, sort_keys=False)
    for key, value in {
            "format": "levelforge-results", "levelforge_version": "0.1.0",
            "git_commit": "0123456789abcdef0123456789abcdef01234567", "git_changes": "",
            "kernel_version": "0.1.0", "kernel_commit": "unknown",
            "kernel_sources": "sha256:0123456789abcdef", "config": text, "effective_config": text,
            "experiment": config["experiment"], "kernel": kernel, "driver": driver,
            "start_time": "2026-12-07T12:00:00Z", "end_time": "2026-12-07T12:00:01Z"}.items():
        f.attrs[key] = value
    for key, value in {"format_version": 1, "complete": 1, "seed": seed,
                       "replicates": replicates, "ranks": 2, "sessions": 1}.items():
        f.attrs[key] = np.int64(value)
    f.attrs.create("hosts", ["fixture-host"], dtype=h5py.string_dtype())
    f.attrs.create("builds", ["session 0: levelforge 0.1.0 fixture"], dtype=h5py.string_dtype())


def write_ga(f, rng, points, replicates, status, generations=6, kept=3, lengths=None,
             stopped=None, validation=False, levels=False, islands=0):
    """/ga: `generations` per task (`stopped`: {task: generations it ran}), `kept` best
    individuals, genomes of `lengths[point]` bits; `validation`: /ga/validation;
    `levels`: /ga/best_levels of 2 x 3; `islands`: the island tables, that many islands."""
    tasks = points * replicates
    lengths = lengths or [8] * points
    longest = max(lengths)
    group = f.create_group("ga")
    group.attrs.create("group_sizes", ["1"], dtype=h5py.string_dtype())
    fields = [("generation", "<i8"), ("best", "<f8"), ("mean", "<f8"), ("std", "<f8"),
              ("min", "<f8"), ("ones", "<i8")]
    history = padded((tasks, generations), fields)
    best = padded((tasks, kept), [("position", "<i8"), ("fitness", "<f8"), ("ones", "<i8")])
    genomes = np.full((tasks, kept, longest), -1, dtype=np.int64)
    checked = padded((tasks, kept), [("validated_fitness", "<f8"), ("validated_mean", "<f8")])
    for task in np.flatnonzero(status == 1):
        length = lengths[task // replicates]
        ran = (stopped or {}).get(task, generations)
        climb = np.sort(rng.uniform(0.2, 1.0, ran))
        for g in range(ran):
            history[task, g] = (g, climb[g], climb[g] - 0.1, 0.05, climb[g] - 0.2,
                                int(climb[g] * length))
        for k in range(kept):
            genome = rng.integers(0, 2, length)
            genomes[task, k, :length] = genome
            fitness = climb[-1] - 0.01 * k
            best[task, k] = (k, fitness, int(genome.sum()))
            checked[task, k] = (fitness - 0.05, fitness - 0.04)
    dataset(group, "history", history)
    dataset(group, "best", best)
    dataset(group, "best_genomes", genomes)
    dataset(group, "genome_length", np.asarray(lengths, dtype=np.int64),
            doc="genome length of each point; longer rows of best_genomes are padded with -1")
    if validation:
        dataset(group, "validation", checked)
    if levels:
        drawn = rng.integers(0, 4, (tasks, kept, 2, 3)).astype(np.uint8)
        drawn[status != 1] = 255
        dataset(group, "best_levels", drawn, doc="the level of each kept genome")
    if islands:
        write_islands(group, rng, tasks, status, generations, islands, longest)


def write_islands(group, rng, tasks, status, generations, islands, longest):
    """/ga/island_history, island_best, island_best_genomes and migrations: a migrant from each
    island to the next after every second generation."""
    history = padded((tasks, generations, islands), [
        ("generation", "<i8"), ("island", "<i8"), ("best", "<f8"), ("mean", "<f8"), ("std", "<f8"),
        ("min", "<f8"), ("diversity", "<f8"), ("distance_to_others", "<f8")])
    best = padded((tasks, islands), [("island", "<i8"), ("fitness", "<f8"), ("ones", "<i8")])
    genomes = np.full((tasks, islands, longest), -1, dtype=np.int64)
    moves = [(g, i) for g in range(1, generations - 1, 2) for i in range(islands)]
    migrations = padded((tasks, len(moves)), [
        ("generation", "<i8"), ("from", "<i8"), ("to", "<i8"), ("source", "<i8"),
        ("target", "<i8"), ("fitness", "<f8")])
    for task in np.flatnonzero(status == 1):
        for g in range(generations):
            for i in range(islands):
                value = rng.uniform(0.2, 1.0)
                history[task, g, i] = (g, i, value, value - 0.1, 0.05, value - 0.2,
                                       rng.uniform(0, 0.5), rng.uniform(0, 0.5))
        for i in range(islands):
            genome = rng.integers(0, 2, longest)
            genomes[task, i] = genome
            best[task, i] = (i, rng.uniform(0.5, 1.0), int(genome.sum()))
        for m, (g, i) in enumerate(moves):
            migrations[task, m] = (g, i, (i + 1) % islands, m, m + 1, rng.uniform(0, 1))
    dataset(group, "island_history", history)
    dataset(group, "island_best", best)
    dataset(group, "island_best_genomes", genomes)
    dataset(group, "migrations", migrations)


def write_sweep(f, rng, points, replicates, status, text=True):
    """/sweep/records: `value` (real), `ok` (0 or 1) and, with `text`, `label` (text) of
    each task."""
    columns = [("value", "<f8"), ("ok", "<i8"), ("label", "S6")][:3 if text else 2]
    records = padded(points * replicates, columns)
    for task in np.flatnonzero(status == 1):
        records[task] = (rng.normal(task // replicates, 0.5), rng.integers(0, 2), b"t%d" % task)[:len(columns)]
    group = f.create_group("sweep")
    dataset(group, "records", records)


def write_exhaustive(f, rng, points, replicates, status, size=100, bins=10, k=3, histogram=None):
    """/exhaustive of `size` indices per task (a list: per point): the count `visited`, the
    histogram `steps` (`bins` bins over [0, 50); `histogram`, an array (tasks, bins + 2),
    replaces its counts), the top-`k` table `longest` (fields n, steps), and a solution
    record (n, steps) for every index divisible by 40. A failed task's first 50 indices are
    not covered."""
    tasks = points * replicates
    sizes = [size if isinstance(size, int) else size[t // replicates] for t in range(tasks)]
    group = f.create_group("exhaustive")
    dataset(group, "ranges", table([(0, sizes[t], 25, 50 if status[t] == 2 else 0) for t in range(tasks)],
                                   [("begin", "<i8"), ("end", "<i8"), ("chunk", "<i8"),
                                    ("uncovered", "<i8")]))
    steps = [rng.integers(0, 60, sizes[t]) for t in range(tasks)]
    covered = [np.arange(sizes[t]) >= (50 if status[t] == 2 else 0) for t in range(tasks)]
    dataset(group, "counts", table([(int(covered[t].sum()),) for t in range(tasks)],
                                   [("visited", "<i8")]))
    counts = np.zeros((tasks, bins + 2), dtype=np.int64)
    for t in range(tasks):
        seen = steps[t][covered[t]]
        column = np.where(seen >= 50, bins + 1, seen // 5 + 1)
        np.add.at(counts[t], column, 1)
    if histogram is not None:
        counts = np.asarray(histogram, dtype=np.int64)
    histograms = group.create_group("histograms")
    dataset(histograms, "steps", counts, low=0.0, high=50.0, bins=np.int64(bins), doc="steps")
    top = padded((tasks, k), [("score", "<f8"), ("index", "<i8"), ("n", "<i8"), ("steps", "<i8")])
    solutions = []
    for t in range(tasks):
        order = sorted(np.flatnonzero(covered[t]), key=lambda i: (-steps[t][i], i))[:k]
        for rank, index in enumerate(order):
            top[t, rank] = (steps[t][index], index, index + 1, steps[t][index])
        solutions += [(t, i, i + 1, steps[t][i]) for i in range(0, sizes[t], 40) if covered[t][i]]
    dataset(group.create_group("top"), "longest", top, doc="the longest")
    dataset(group, "solutions", table(solutions, [("task", "<i8"), ("index", "<i8"), ("n", "<i8"),
                                                  ("steps", "<i8")]))


def write_qd(f, rng, points, replicates, status, iterations=4, bins=(3, 2), length=6,
             validation=False, levels=False):
    """/qd: a grid of `bins` over the measures a, b, c (as many as `bins` has),
    `iterations` after the initial genomes, genomes of `length`; `validation`: /qd/validation;
    `levels`: /qd/archive_levels of 2 x 3."""
    tasks = points * replicates
    names = ["a", "b", "c"][:len(bins)]
    cells = int(np.prod(bins))
    group = f.create_group("qd")
    group.attrs.create("measures", names, dtype=h5py.string_dtype())
    group.attrs.create("group_sizes", ["1"], dtype=h5py.string_dtype())
    history = padded((tasks, iterations + 1), [
        ("iteration", "<i8"), ("evaluations", "<i8"), ("occupied", "<i8"), ("coverage", "<f8"),
        ("qd_score", "<f8"), ("best", "<f8"), ("inserted", "<i8")])
    archive = padded((tasks, cells), [("cell", "<i8"), ("occupied", "<i8"), ("fitness", "<f8"),
                                      ("ones", "<i8"), *((f"measure_{n}", "<f8") for n in names)])
    checked = padded((tasks, cells), [("validated_fitness", "<f8")])
    genomes = np.full((tasks, cells, length), -1, dtype=np.int64)
    drawn = np.full((tasks, cells, 2, 3), 255, dtype=np.uint8)
    for task in np.flatnonzero(status == 1):
        filled = 0
        for cell in range(cells):
            bin_of = np.unravel_index(cell, bins)
            here = cell == 0 or rng.uniform() < 0.7
            archive[task, cell]["cell"] = cell
            archive[task, cell]["occupied"] = int(here)
            if not here:
                continue
            filled += 1
            genome = rng.integers(0, 2, length)
            genomes[task, cell] = genome
            fitness = rng.uniform(0, 1)
            archive[task, cell]["fitness"] = fitness
            archive[task, cell]["ones"] = int(genome.sum())
            for m, name in enumerate(names):
                archive[task, cell][f"measure_{name}"] = (bin_of[m] + 0.5) / bins[m]
            checked[task, cell] = (fitness - 0.05,)
            drawn[task, cell] = rng.integers(0, 4, (2, 3))
        score = float(np.nansum(archive[task]["fitness"]))
        for i in range(iterations + 1):
            occupied = max(1, filled * (i + 1) // (iterations + 1))
            history[task, i] = (i, 10 * (i + 1), occupied, occupied / cells,
                                score * (i + 1) / (iterations + 1), 0.5 + 0.1 * i, occupied)
    dataset(group, "history", history)
    dataset(group, "archive", archive)
    dataset(group, "archive_genomes", genomes)
    dataset(group, "genome_length", np.full(points, length, dtype=np.int64))
    dataset(group, "measure_low", np.zeros((points, len(names))))
    dataset(group, "measure_high", np.ones((points, len(names))))
    dataset(group, "measure_bins", np.tile(np.asarray(bins, dtype=np.int64), (points, 1)))
    if validation:
        dataset(group, "validation", checked)
    if levels:
        dataset(group, "archive_levels", drawn)


WRITERS = {"ga": write_ga, "sweep": write_sweep, "exhaustive": write_exhaustive, "qd": write_qd}

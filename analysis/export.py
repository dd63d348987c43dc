"""`export_csv` and `export_netcdf`: a run's tables as CSV files, or the run as one netCDF
file, in a folder that then holds one run's export and nothing that could pass for part of it.

Beside its files an export writes a manifest, DIR/levelforge-export.json: the result file it
read, the run (IDENTITY and the effective config: what tells runs apart, as for levelforge's
resume and merge) and the files it wrote of each format. The folder is looked at before
anything is written, since CSV files of two runs side by side read as one run's tables:

- a CSV or netCDF file that no manifest there lists (another program's, or an export made
  before exports had manifests) is refused, `force` or not: it is not an export's to replace;
- a manifest of another run is refused unless `force`; then exactly the files it lists go;
- a manifest of this run: the files of this format are replaced, those the earlier export of
  this format had and this one has not removed; the other format's files stay;
- a manifest that cannot be read is refused, `force` or not: which files are the export's is
  then unknown.

The files are written to temporary names first and renamed into place only once all of them
are complete, the manifest last: a failed export leaves the folder as it was.
"""

import errno
import json
import os
import warnings

import numpy as np
import pandas as pd
import xxhash

from . import drivers, files
from .files import OutputError

MANIFEST = "levelforge-export.json"
MANIFEST_FORMAT = "levelforge-export"
MANIFEST_VERSION = 1
# What tells runs apart, as levelforge tells them apart for resuming and merging
# (docs/checkpoint.md, runner/checkpoint/run_identity.hpp): these provenance attributes (the
# build's where the file has them) and the effective config without the settings that change
# no finished result. A file resumed or retried (a later start time), moved, or made again by
# the same config and build is the same run: its results are the same. A shard is not its
# merged file.
IDENTITY = ("experiment", "seed", "levelforge_version", "git_commit", "git_changes",
            "kernel_version", "kernel_commit", "kernel_sources", "shard_index", "shard_count")
NOT_RESULTS = ("output", "checkpoint", "on_error")
EXTENSIONS = {"csv": ".csv", "netcdf": ".nc"}
# A manifest larger than this is no manifest of ours (a few hundred bytes).
MANIFEST_LIMIT = 1 << 20


def _plain(value):
    """`value` as JSON has it (NumPy scalars as Python ones), so identities compare equal
    whether they come from a file or from a manifest."""
    return json.loads(json.dumps(value, default=lambda v: v.item() if hasattr(v, "item") else
                                 str(v)))


def identity(run):
    """What tells `run` apart from other runs, as a JSON object: IDENTITY, and `config_xxh3`,
    the XXH3-64 of the effective config without NOT_RESULTS as JSON with sorted keys."""
    provenance = run.provenance
    found = {key: provenance[key] for key in IDENTITY
             if key in provenance and provenance[key] == provenance[key]}  # NaN: absent
    config = {key: value for key, value in (provenance.get("effective_config") or {}).items()
              if key not in NOT_RESULTS}
    text = json.dumps(config, sort_keys=True, default=str)
    found["config_xxh3"] = f"{xxhash.xxh3_64_intdigest(text.encode()):016x}"
    return _plain(found)


def describe(manifest):
    """`doc-ga seed=1 commit=3f2a9c1 started 2026-12-07T04:13:26Z (shard 1 of 3)`: the run a
    manifest names."""
    run = manifest["run"]
    text = (f"{run.get('experiment')} seed={run.get('seed')} "
            f"commit={str(run.get('git_commit'))[:7]} started {manifest.get('start_time')}")
    if "shard_index" in run:
        text += f" (shard {run['shard_index']} of {run.get('shard_count')})"
    return text


def _manifest_problem(manifest):
    """Why `manifest` (parsed JSON) is not a manifest of this version, or None."""
    if not isinstance(manifest, dict) or manifest.get("format") != MANIFEST_FORMAT:
        return f"not a {MANIFEST_FORMAT} manifest"
    if manifest.get("version") != MANIFEST_VERSION:
        return (f"manifest version {manifest.get('version')}; this package reads version "
                f"{MANIFEST_VERSION}")
    listed = manifest.get("files")
    if not isinstance(manifest.get("run"), dict) or not isinstance(listed, dict):
        return "no `run` or `files` object"
    for form, names in listed.items():
        # Only plain names of export files: a manifest must not make `force` remove others.
        if form not in EXTENSIONS or not isinstance(names, list) or not all(
                isinstance(n, str) and n == os.path.basename(n) and not n.startswith(".")
                and n.endswith(EXTENSIONS[form]) for n in names):
            return f"`files` lists something else than {', '.join(EXTENSIONS)} file names"
    return None


def read_manifest(directory):
    """The manifest in `directory` as a dict, or None when there is none. OutputError for one
    that cannot be read or is not a manifest of this version (nothing is written then, even
    with force: which files belong to that export is unknown)."""
    path = os.path.join(directory, MANIFEST)
    if not os.path.lexists(path):
        return None
    unreadable = (f"{path} cannot be read as an export's manifest ({{}}), so which files in "
                  f"{directory} belong to that export is unknown: remove them by hand, or "
                  f"choose another folder")
    found = files.problem(path, "a regular file")
    if found is not None:
        raise OutputError(unreadable.format(f"it {found}"))
    try:
        with files.open_regular(path) as f:
            text = f.read(MANIFEST_LIMIT + 1)
    except OSError as error:
        raise OutputError(unreadable.format(error.strerror or error)) from None
    try:
        manifest = json.loads(text) if len(text) <= MANIFEST_LIMIT else None
    except ValueError as error:
        raise OutputError(unreadable.format(f"not JSON: {error}")) from None
    found = _manifest_problem(manifest)
    if found is not None:
        raise OutputError(unreadable.format(found))
    return manifest


def listed(manifest):
    """The names of every file `manifest` (or None) lists, of all formats."""
    return {name for names in (manifest or {}).get("files", {}).values() for name in names}


def _unlisted(directory, manifest):
    """The CSV and netCDF files in `directory` that `manifest` does not list, sorted."""
    known = listed(manifest)
    return sorted(entry.name for entry in os.scandir(directory)
                  if entry.name.lower().endswith(tuple(EXTENSIONS.values()))
                  and entry.name not in known)


def check_folder(directory, run_identity, force):
    """The manifest already in `directory` (None: none) once the export may go ahead;
    OutputError for a folder it must not write into (module docstring)."""
    try:
        manifest = read_manifest(directory)
        strangers = _unlisted(directory, manifest)
    except OSError as error:
        raise OutputError(f"the export folder {directory} cannot be read: "
                          f"{error.strerror or error}") from None
    if strangers:
        shown = ", ".join(strangers[:5]) + (f" and {len(strangers) - 5} more"
                                            if len(strangers) > 5 else "")
        raise OutputError(f"{directory} holds CSV or netCDF files that no export of this package "
                          f"lists ({shown}); they would pass for this run's tables: move them "
                          f"away, or choose another folder (--force replaces an export, never "
                          f"these)")
    if manifest is not None and manifest["run"] != run_identity and not force:
        count = len(listed(manifest))
        raise OutputError(f"{directory} holds the export of another run, "
                          f"{describe(manifest)} from {manifest.get('source')} ({count} "
                          f"file{'' if count == 1 else 's'}, listed in {MANIFEST}): pass --force "
                          f"to replace it, or choose another folder")
    return manifest


def _manifest_text(run, run_identity, exported):
    provenance = run.provenance
    manifest = {"format": MANIFEST_FORMAT, "version": MANIFEST_VERSION,
                "source": os.path.abspath(run.path), "run": run_identity,
                "kernel": run.kernel, "driver": run.driver,
                "start_time": provenance.get("start_time"), "end_time": provenance.get("end_time"),
                "files": exported}
    return json.dumps(_plain(manifest), indent=2) + "\n"


def write_export(run, directory, form, tables, force=False):
    """Writes `tables` ({file name: write(path)}) of format `form` into `directory` as the
    export of `run` (module docstring); returns the paths written. OutputError when the
    folder is refused, WriteError when writing fails: the folder is then as it was."""
    directory = os.fspath(directory)
    files.output_folder(directory, "the export folder")
    run_identity = identity(run)
    previous = check_folder(directory, run_identity, force)
    same_run = previous is not None and previous["run"] == run_identity
    exported = {other: names for other, names in previous["files"].items()
                if other != form} if same_run else {}
    exported[form] = list(tables)
    staged = []
    try:
        for name, write in tables.items():
            path = os.path.join(directory, name)
            staged.append((files.stage(path, write), path))
        text = _manifest_text(run, run_identity, exported)
        manifest = os.path.join(directory, MANIFEST)
        staged.append((files.stage(manifest, lambda p: _write_text(p, text)), manifest))
    except BaseException:
        files.discard(*(temporary for temporary, _ in staged))
        raise
    _remove(directory, listed(previous) - listed({"files": exported}), staged)
    for index, (temporary, path) in enumerate(staged):
        try:
            files.install(temporary, path)
        except BaseException:
            files.discard(*(later for later, _ in staged[index + 1:]))
            raise
    return [path for _, path in staged[:-1]]


def _remove(directory, names, staged):
    """Removes the files `names` of an earlier export that this one does not write again;
    a failure removes the staged files too and raises WriteError."""
    for name in sorted(names):
        path = os.path.join(directory, name)
        try:
            os.unlink(path)
        except FileNotFoundError:
            continue
        except OSError as error:
            files.discard(*(temporary for temporary, _ in staged))
            raise files.failure(error, path) from None


def _write_text(path, text):
    with open(path, "w") as out:
        out.write(text)


def _csv_writer(frame):
    return lambda path: frame.to_csv(path, index=False)


def csv_tables(run):
    """{name: frame}: every table of `run` as `export_csv` writes it."""
    tables = {"provenance": run.provenance_frame}
    tables.update({name: getattr(run, name) for name in ("points", "tasks", "failures")})
    module = drivers.module(run.driver)
    tables.update({name: getattr(run, name) for name in module.TABLES})
    tables.update(drivers.hook(run.driver, "more_tables", {})(run))
    tables.update({name: getattr(run, name) for name in module.SOMETIMES
                   if not getattr(run, name).empty})
    tables.update({name: getattr(run, name) for name in drivers.optional(module)
                   if getattr(run, name) is not None})
    for name, frame in tables.items():
        if "genome" in frame.columns:
            tables[name] = frame.assign(genome=[" ".join(map(str, genes)) for genes in frame.genome])
    return tables


def export_csv(run, directory, force=False):
    """Every table of `run` as DIRECTORY/<table>.csv (top-k tables as top_<name>.csv; the
    island tables of a GA with islands; the Pareto tables of a GA of a kernel with objectives;
    a QD run's history, archive and measures; a genome as its genes joined by spaces), with
    the manifest; returns the paths written. `force`
    replaces another run's export (module docstring)."""
    tables = {f"{name}.csv": _csv_writer(frame) for name, frame in csv_tables(run).items()}
    return write_export(run, directory, "csv", tables, force)


def export_netcdf(run, directory, force=False):
    """`run.to_xarray()` as DIRECTORY/<experiment>.nc (netCDF-4), with the manifest; returns
    the path. `force` replaces another run's export (module docstring)."""
    name = f"{run.provenance['experiment']}.nc"
    written = write_export(run, directory, "netcdf", {name: _netcdf_writer(run.to_xarray())}, force)
    return written[0]


def _variables(frame, index, prefix, joined):
    """`frame`'s columns as variables `<prefix><column>` over the dimensions `index` (columns
    of `frame`), its `joined` columns (the point, replicate, swept values) and a genome left
    out; NaN (None for text) where a combination of `index` has no row."""
    columns = [c for c in frame.columns if c not in (*index, *joined, "genome")]
    return frame.set_index(index)[columns].rename(columns=lambda c: f"{prefix}{c}").to_xarray()


def _genes(frame, index, name):
    """The genomes of `frame` (a list per row) as the variable `name` over `index` and
    `gene`: float64, NaN past each genome's length (a gene may itself be -1, so no integer
    can mark the end)."""
    import xarray as xr

    genes = frame[[*index, "genome"]].explode("genome").dropna(subset=["genome"])
    genes = genes.assign(gene=genes.groupby(index, sort=False).cumcount(),
                         genome=genes.genome.astype(np.float64))
    if genes.empty:
        return xr.Dataset()
    return genes.set_index([*index, "gene"]).genome.rename(name).to_xarray().to_dataset()


def _levels(run, levels, kept, name):
    """The rendered `levels` (tasks, kept, H, W) of the run's tasks as the variable `name`
    over `task`, `kept` and the level's rows and columns; 255 where a cell is no part of a
    level."""
    import xarray as xr

    tasks = run.tasks.task.to_numpy()
    levels = levels[tasks]
    return xr.Dataset({name: (("task", kept, "level_row", "level_column"), levels)},
                      coords={"task": tasks})


def _per_task(run):
    """Every per-task table of `run` as variables over `task` and the table's own dimensions."""
    import xarray as xr

    joined = ("point", "replicate", *run.swept_keys)
    parts = [_variables(run.tasks, ["task"], "", joined),
             *drivers.module(run.driver).variables(run, joined)]
    return xr.merge(parts, join="outer", combine_attrs="drop")


def _axes(run):
    """The sweep's axes (docs/config.md, "Points") as [(dimension, keys, positions, values)]:
    each grid key an axis named by the key, the zip keys one axis `zip`, the sampled keys one
    axis `sample`; `positions` each point's position along the axis, `values` the keys'
    values by position. When the points are not the product of these axes in row-major order,
    one axis `point` holding every swept key. No swept key: no axis."""
    points = run.points.sort_values("point").reset_index(drop=True)
    sweep = run.provenance.get("effective_config", {}).get("sweep") or {}
    keyed = [(key, [key]) for key in sweep.get("grid") or {} if key in run.swept_keys]
    zipped = [key for key in sweep.get("zip") or {} if key in run.swept_keys]
    keyed += [("zip", zipped)] if zipped else []
    keyed += [("sample", run.sampled_keys)] if run.sampled_keys else []
    if not run.swept_keys:
        return []
    whole = [("point", list(run.swept_keys), points.point.to_numpy(), points.set_index("point"))]
    if sorted(k for _, keys in keyed for k in keys) != sorted(run.swept_keys) or \
            not (points.point.to_numpy() == np.arange(len(points))).all():
        return whole
    sizes = [len(points[keys].drop_duplicates()) for name, keys in keyed if name != "sample"]
    if run.sampled_keys:
        sizes.append(len(points) // max(1, int(np.prod(sizes, dtype=np.int64))))
    if int(np.prod(sizes, dtype=np.int64)) != len(points):
        return whole
    axes = []
    for (name, keys), positions in zip(keyed, np.unravel_index(np.arange(len(points)), sizes)):
        values = points[keys].groupby(positions).first()
        # Every point at one position of an axis has that position's values of its keys.
        if not values.iloc[positions].reset_index(drop=True).equals(points[keys]):
            return whole
        axes.append((name, keys, positions, values))
    return axes


def _by_sweep(dataset, axes, dimension, replicates=None):
    """`dataset` over `dimension` (point ids, or task ids when `replicates` is given) laid out
    over the sweep's `axes` (_axes), and `replicate` for tasks: a grid key's axis is a
    dimension indexed by the key's values; the keys of another axis are coordinates along
    it, each indexed. The ids stay as the variable `dimension`, NaN where there is no row."""
    ids = dataset[dimension].to_numpy()
    point = ids // replicates if replicates else ids
    levels = {name: values[keys[0]].to_numpy()[positions[point]] if name == keys[0]
              else positions[point] for name, keys, positions, values in axes}
    if replicates:
        levels["replicate"] = ids % replicates
    if not levels:  # one point, no replicate dimension: a point's table
        return dataset.isel({dimension: 0}, drop=True)
    index = pd.MultiIndex.from_arrays(list(levels.values()), names=list(levels))
    laid = dataset.rename({dimension: "_row"}).assign({dimension: ("_row", ids)})
    with warnings.catch_warnings():
        # xarray 2023.01 fills an integer array with NaN before it writes every cell of a
        # complete product; where cells stay empty (a shard) it promotes the dtype first.
        warnings.filterwarnings("ignore", "invalid value encountered in cast", RuntimeWarning)
        laid = laid.assign_coords(_row=index).unstack("_row")
    for name, keys, _, values in axes:
        if name == keys[0]:
            continue
        laid = laid.assign_coords({key: (name, values[key].reindex(laid[name].values).to_numpy())
                                   for key in keys})
    return laid


def run_dataset(run):
    """The run as an xarray.Dataset (docs/analysis.md, "The netCDF export")."""
    axes = _axes(run)
    dataset = _by_sweep(_per_task(run), axes, "task", int(run.provenance["replicates"]))
    driver = drivers.module(run.driver)
    for part in driver.point_variables(run, lambda frame: _by_sweep(frame, axes, "point")):
        dataset = dataset.merge(part)
    failures = run.failures
    dataset = dataset.merge(_variables(failures.assign(failure=np.arange(len(failures))),
                                       ["failure"], "failure_", ()))
    for part in driver.run_variables(run):
        dataset = dataset.merge(part)
    for name, value in run.provenance_frame.iloc[0].items():
        if isinstance(value, list):
            value = ", ".join(map(str, value))
        if value is not None and not (isinstance(value, float) and np.isnan(value)):
            dataset.attrs[name] = value if isinstance(value, (int, float, str)) else str(value)
    # Last: xarray 2023.01 cannot align (merge) datasets with several indexes along a dimension.
    for name, keys, _, _ in axes:
        for key in keys if name != keys[0] else ():
            dataset = dataset.set_xindex(key)
    return dataset


def _netcdf_writer(dataset):
    """write(path) for `dataset` as netCDF-4. The file is written by a forked child that ends
    with os._exit: after a write that failed (a full disk) HDF5 crashes the process that made
    it at exit (SIGSEGV in H5F__close_cb, from H5_term_library), so the failure must stay in a
    process that skips the exit handlers; here it is an OSError with the child's message."""
    def write(path):
        if not hasattr(os, "fork"):
            dataset.to_netcdf(path, engine="netcdf4")
            return
        readable, writable = os.pipe()
        child = os.fork()
        if child == 0:
            os.close(readable)
            _write_in_child(lambda: dataset.to_netcdf(path, engine="netcdf4"), writable)
        os.close(writable)
        with os.fdopen(readable, "rb") as pipe:
            message = pipe.read().decode(errors="replace")
        _, status = os.waitpid(child, 0)
        if status != 0:
            raise OSError(errno.EIO, message or f"the process writing it ended with status {status}")
    return write


def _write_in_child(write, pipe):
    """In the forked child: write(), its error's message into `pipe`, and os._exit."""
    code = 0
    try:
        write()
    except BaseException as error:  # noqa: B902  everything ends here, in this process
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        os.write(pipe, (reason or type(error).__name__).encode()[:4096])
        code = 1
    os._exit(code)

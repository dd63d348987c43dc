"""python3 -m analysis RESULT.h5: what `analysis.load` makes of a result file.
python3 -m analysis catalog DIR [--csv FILE]: one line per result file under DIR (FILE -:
standard output).
python3 -m analysis export RESULT.h5 DIR [--format csv|netcdf] [--force]: every table as
DIR/<table>.csv, or the run as one netCDF file (Result.to_xarray()), with a manifest
DIR/levelforge-export.json; a folder holding another run's export is refused unless --force.
Exit 2: a file that cannot be loaded or an output refused, nothing written; exit 1: writing
failed (a full disk), nothing left that looks complete."""

import argparse
import sys

from . import LoadError, catalog, drivers, export_csv, export_netcdf, load
from .files import OutputError, WriteError, output_file, standard_stream, write_whole


def describe(args):
    with load(args.result, allow_shard=args.shard) as run:
        provenance = run.provenance
        print(f"{args.result}: {provenance['experiment']} ({run.kernel} kernel, {run.driver} driver), "
              f"levelforge {provenance['levelforge_version']}")
        for name in ("tasks", *drivers.listed_tables(run)):
            frame = getattr(run, name)
            print(f"{name}: {frame.shape[0]} rows x {frame.shape[1]} columns: {', '.join(map(str, frame.columns))}")
        for line in drivers.hook(run.driver, "describe_lines", [])(run):
            print(line)


def list_catalog(args):
    # The CSV's path is checked before the folder is searched: a refusal comes at once.
    stream = standard_stream(args.csv) if args.csv else None
    target = output_file(args.csv, "the catalog's CSV file") if args.csv and not stream else None
    table = catalog(args.directory)
    if stream:
        table.to_csv(stream, index=False)
    elif target:
        write_whole(target, lambda path: table.to_csv(path, index=False))
        print(f"catalog: {len(table)} files into {args.csv}")
    elif table.empty:
        print(f"{args.directory}: no .h5 files")
    else:
        print(table.drop(columns=["note"] if not table.note.any() else []).to_string(index=False))


def export(args):
    with load(args.result, allow_shard=args.shard) as run:
        written = (export_csv(run, args.directory, args.force) if args.format == "csv"
                   else [export_netcdf(run, args.directory, args.force)])
        for path in written:
            print(path)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    commands = {"catalog": list_catalog, "export": export}
    parser = argparse.ArgumentParser(prog="python3 -m analysis", description=__doc__)
    if argv and argv[0] in commands:
        command = argv[0]
        parser.prog += f" {command}"
        if command == "catalog":
            parser.add_argument("directory", help="a directory searched for .h5 files")
            parser.add_argument("--csv", metavar="FILE",
                                help="write the catalog as CSV (-: to standard output)")
        else:
            parser.add_argument("result", help="a levelforge result file")
            parser.add_argument("directory", help="where the CSV files go")
            parser.add_argument("--format", choices=["csv", "netcdf"], default="csv")
            parser.add_argument("--force", action="store_true",
                                help="replace another run's export in DIRECTORY")
            parser.add_argument("--shard", action="store_true", help="accept a shard's file")
        args = parser.parse_args(argv[1:])
        action = commands[command]
    else:
        parser.add_argument("result", help="a levelforge result file")
        parser.add_argument("--shard", action="store_true", help="accept a shard's file")
        args = parser.parse_args(argv)
        action = describe
    return run_action(action, args)


def run_action(action, args):
    """`action(args)`'s exit code: 0, or one `analysis: error:` line on stderr and 2 for a file
    that cannot be loaded or an output refused before writing, 1 for a write or read that
    failed on the way (a full disk, an I/O error)."""
    try:
        action(args)
    except (LoadError, OutputError) as error:
        return fail(error, 2)
    except OSError as error:  # WriteError, or a read that failed after the file's checks
        return fail(error, 1)
    return 0


def fail(error, code):
    """Prints `error` as one `analysis: error:` line; returns `code`."""
    message = str(error)
    if isinstance(error, OSError) and not isinstance(error, WriteError) and error.strerror:
        message = error.strerror + (f": {error.filename}" if error.filename else "")
    print(f"analysis: error: {message}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())

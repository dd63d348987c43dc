"""python3 -m analysis RESULT.h5: what `analysis.load` makes of a result file.
python3 -m analysis catalog DIR [--csv FILE]: one line per result file under DIR.
python3 -m analysis export RESULT.h5 DIR [--format csv|netcdf]: every table as
DIR/<table>.csv, or the run as one netCDF file (Result.to_xarray())."""

import argparse
import sys

from . import LoadError, catalog, export_csv, export_netcdf, load
from .many import ISLAND_TABLES

TABLES = {"ga": ("tasks", "history", "best"), "sweep": ("tasks", "records"),
          "exhaustive": ("tasks", "reductions", "solutions"),
          "qd": ("tasks", "qd_history", "qd_archive", "qd_measures")}


def describe(args):
    with load(args.result, allow_shard=args.shard) as run:
        provenance = run.provenance
        print(f"{args.result}: {provenance['experiment']} ({run.kernel} kernel, {run.driver} driver), "
              f"levelforge {provenance['levelforge_version']}")
        islands = [name for name in ISLAND_TABLES if run.driver == "ga" and not getattr(run, name).empty]
        for name in (*TABLES[run.driver], *islands):
            frame = getattr(run, name)
            print(f"{name}: {frame.shape[0]} rows x {frame.shape[1]} columns: {', '.join(map(str, frame.columns))}")
        if run.driver == "exhaustive":
            for name, frame in run.top.items():
                print(f"top[{name!r}]: {frame.shape[0]} rows")


def list_catalog(args):
    table = catalog(args.directory)
    if args.csv:
        table.to_csv(args.csv, index=False)
        print(f"catalog: {len(table)} files into {args.csv}")
    elif table.empty:
        print(f"{args.directory}: no .h5 files")
    else:
        print(table.drop(columns=["note"] if not table.note.any() else []).to_string(index=False))


def export(args):
    with load(args.result, allow_shard=args.shard) as run:
        written = (export_csv(run, args.directory) if args.format == "csv"
                   else [export_netcdf(run, args.directory)])
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
            parser.add_argument("--csv", metavar="FILE", help="write the catalog as CSV")
        else:
            parser.add_argument("result", help="a levelforge result file")
            parser.add_argument("directory", help="where the CSV files go")
            parser.add_argument("--format", choices=["csv", "netcdf"], default="csv")
            parser.add_argument("--shard", action="store_true", help="accept a shard's file")
        args = parser.parse_args(argv[1:])
        action = commands[command]
    else:
        parser.add_argument("result", help="a levelforge result file")
        parser.add_argument("--shard", action="store_true", help="accept a shard's file")
        args = parser.parse_args(argv)
        action = describe
    try:
        action(args)
    except LoadError as error:
        print(f"analysis: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

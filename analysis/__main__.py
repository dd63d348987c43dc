"""python3 -m analysis RESULT.h5: what `analysis.load` makes of a result file."""

import argparse
import sys

from . import LoadError, load

TABLES = {"ga": ("tasks", "history", "best"), "sweep": ("tasks", "records"),
          "exhaustive": ("tasks", "reductions", "solutions")}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m analysis", description=__doc__)
    parser.add_argument("result", help="a levelforge result file")
    parser.add_argument("--shard", action="store_true", help="accept a shard's file")
    args = parser.parse_args(argv)
    try:
        with load(args.result, allow_shard=args.shard) as run:
            provenance = run.provenance.iloc[0]
            print(f"{args.result}: {provenance['experiment']} ({run.kernel} kernel, {run.driver} driver), "
                  f"levelforge {provenance['levelforge_version']}")
            for name in TABLES[run.driver]:
                frame = getattr(run, name)
                print(f"{name}: {frame.shape[0]} rows x {frame.shape[1]} columns: {', '.join(map(str, frame.columns))}")
            if run.driver == "exhaustive":
                for name, frame in run.top.items():
                    print(f"top[{name!r}]: {frame.shape[0]} rows")
    except LoadError as error:
        print(f"analysis: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

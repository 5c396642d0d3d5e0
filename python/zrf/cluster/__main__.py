"""`python -m zrf.cluster` (also `zrf-cluster`): zrf's long jobs on a Ray cluster.

    python -m zrf.cluster [--address local|auto|HOST:PORT] [--cpus N] [--results FILE] JOB ...

    perft FILE DEPTH [--variant V] [--setup POS] [--moves M] [--divide] [--only] [--bulk] [--unique] [--split K]
    selfplay FILE --games N --engine SETTING --vs SETTING [--seed S] [--random-plies P] [--max-plies M]
    check DIR                       every rules file under DIR, one line each
    replay --check DIR              every .zsg and .game record under DIR, one line each
    match ARGS...                   scripts/match.py ARGS with its games spread over the cluster
    dagaz ARGS...                   scripts/dagaz_diff.py ARGS with its pages spread over the cluster

Results are printed as `zrf perft`, `zrf selfplay`, `zrf check --folder DIR` and `zrf replay --check DIR`
print them. With `--results FILE`, finished tasks are appended to FILE as they come back, and
a rerun with the same arguments resumes from it (docs/cluster.md).
"""

import argparse
import os
import sys
import time


def _parser():
    p = argparse.ArgumentParser(prog="python -m zrf.cluster",
                                description="zrf's long jobs on a Ray cluster")
    p.add_argument("--address", default="local",
                   help="`local` starts Ray on this machine; `auto` or HOST:PORT joins a "
                        "running cluster (default: local)")
    p.add_argument("--cpus", type=int, default=None,
                   help="CPUs of the local Ray (with --address local; default: all)")
    p.add_argument("--results", default=None,
                   help="JSON-lines file of finished tasks: written as they finish, resumed "
                        "from by a rerun with the same arguments")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    sub = p.add_subparsers(dest="job", required=True)

    pf = sub.add_parser("perft", help="count the move tree, split into tasks")
    pf.add_argument("file")
    pf.add_argument("depth", type=int)
    pf.add_argument("--variant")
    pf.add_argument("--setup")
    pf.add_argument("--moves", help="moves to play first, separated by spaces (as zrf perft)")
    pf.add_argument("--divide", action="store_true", help="print `MOVE N` per root move")
    pf.add_argument("--only", action="store_true", help="count DEPTH alone")
    pf.add_argument("--bulk", action="store_true", help="count the last level without making it")
    pf.add_argument("--unique", action="store_true",
                    help="count capture chains with the same start, end and captures once")
    pf.add_argument("--split", type=int, help="split depth (default: docs/cluster.md's rule)")

    sp = sub.add_parser("selfplay", help="a zrf selfplay match, games spread over workers")
    sp.add_argument("file")
    sp.add_argument("--variant")
    sp.add_argument("--setup")
    sp.add_argument("--games", type=int, default=10)
    sp.add_argument("--time", default="0.1s")
    sp.add_argument("--engine", default="")
    sp.add_argument("--vs")
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--random-plies", type=int, default=2)
    sp.add_argument("--max-plies", type=int, default=400)

    ck = sub.add_parser("check", help="every rules file under a folder, one line each")
    ck.add_argument("dir")

    rp = sub.add_parser("replay", help="with --check: every record under a folder")
    rp.add_argument("--check", action="store_true", required=True)
    rp.add_argument("dir")

    mt = sub.add_parser("match", help="scripts/match.py's matches over the cluster",
                        add_help=False)
    mt.add_argument("rest", nargs=argparse.REMAINDER)

    dz = sub.add_parser("dagaz", help="scripts/dagaz_diff.py's comparison with Dagaz over the "
                        "cluster", add_help=False)
    dz.add_argument("rest", nargs=argparse.REMAINDER)
    return p


# The scripts of a clone that the `match` and `dagaz` jobs run, and the variable naming
# another copy.
SCRIPTS = {"match": ("match.py", "ZRF_MATCH_SCRIPT"), "dagaz": ("dagaz_diff.py", "ZRF_DAGAZ_SCRIPT")}


def _script(args):
    """Runs scripts/match.py or scripts/dagaz_diff.py (from the repository this package was
    built from or the current folder's, or the file $ZRF_MATCH_SCRIPT / $ZRF_DAGAZ_SCRIPT
    names) with its games or pages spread over the cluster."""
    import runpy

    name, variable = SCRIPTS[args.job]
    script = os.environ.get(variable)
    if not script:
        here = os.path.dirname(os.path.abspath(__file__))
        for up in (here, os.getcwd()):
            for _ in range(5):
                cand = os.path.join(up, "scripts", name)
                if os.path.isfile(cand):
                    script = cand
                    break
                up = os.path.dirname(up)
            if script:
                break
    if not script:
        sys.exit(f"error: scripts/{name} not found: run from a clone of zrf or set {variable}")
    argv = [script, *args.rest, "--cluster", args.address]
    if args.cpus:
        argv += ["--cluster-cpus", str(args.cpus)]
    if args.results:
        argv += ["--results", args.results]
    if args.quiet and args.job == "dagaz":
        argv += ["--quiet"]
    sys.argv = argv
    runpy.run_path(script, run_name="__main__")
    return 0


def _split(argv):
    """The arguments before a `match` or `dagaz` job (this command's) and after it (the
    script's, passed on as they are: argparse would read `--depth` of the script as ours)."""
    for i, word in enumerate(argv):
        if word in SCRIPTS and (i == 0 or argv[i - 1] not in ("--address", "--cpus", "--results")):
            return argv[:i + 1], argv[i + 1:]
    return argv, None


def main(argv=None):
    ours, theirs = _split(list(sys.argv[1:] if argv is None else argv))
    args = _parser().parse_args(ours)
    if theirs is not None:
        args.rest = theirs
    if args.job in SCRIPTS:
        return _script(args)
    from . import jobs
    from .runner import connect

    progress = not args.quiet
    cpus = connect(args.address, args.cpus)
    started = time.monotonic()
    if args.job == "perft":
        lines, total = jobs.perft(args.file, args.depth, variant=args.variant, setup=args.setup,
                                  moves=args.moves,
                                  divide=args.divide, only=args.only, unique=args.unique,
                                  bulk=args.bulk, cpus=cpus, split=args.split,
                                  results=args.results, progress=progress)
        print("\n".join(lines), flush=True)
        secs = time.monotonic() - started
        print(f"time {secs:.3f} s, {total / max(secs, 1e-9):.0f} nodes/s", file=sys.stderr)
        return 0
    if args.job == "selfplay":
        table = jobs.selfplay(args.file, games=args.games, engine=args.engine, vs=args.vs,
                              seed=args.seed, random_plies=args.random_plies,
                              max_plies=args.max_plies, time=args.time, variant=args.variant,
                              setup=args.setup, cpus=cpus, results=args.results,
                              progress=progress)
        print(table, flush=True)
        return 0
    kind = "rules" if args.job == "check" else "record"
    if not os.path.isdir(args.dir):
        print(f"error: cannot read the folder {args.dir}: not a folder", file=sys.stderr)
        return 2
    lines, failed = jobs.check(args.dir, kind, results=args.results, progress=progress)
    print("\n".join(lines), flush=True)
    return 1 if failed else 0


def cli():
    """The `zrf-cluster` console script: errors from zrf are printed, not traced."""
    from .. import ZrfError

    try:
        sys.exit(main())
    except ZrfError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    cli()

#!/usr/bin/env python3
"""Times zrf and Fairy-Stockfish perft with bulk counting side by side.

Run through scripts/fsf-bench.sh, which builds both. Each run is a separate process whose CPU
time (user + sys) is taken; the programs run round by round, interleaved, so that a change in
the machine's load hits both sides alike. Both count the last level without making its moves
(zrf `perft --bulk`, Fairy-Stockfish `go perft`). Chess is checked against the published
count; in the other games the two programs must agree with each other. A wrong count is
reported and makes the exit code 1. The start-up of each program (loading the rules file,
Fairy-Stockfish's variant tables) is timed on its own and listed beside the totals.
"""

import argparse
import datetime
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from rbg_bench import cpu_model, fmt, git_rev, report_wrong, run  # noqa: E402

# name, zrf arguments, Fairy-Stockfish variant, build ("classic" or "large"), depth, published
WORKLOADS = [
    ("chess", ["games/chess.zrf"], "chess", "classic", 6, 119_060_324),
    ("crazyhouse", ["games/chess.zrf", "--variant", "Crazyhouse"], "crazyhouse", "classic", 6, None),
    ("capablanca", ["games/capablanca.zrf"], "capablanca", "large", 5, None),
]

TITLES = {
    "chess": "chess perft 6",
    "crazyhouse": "Crazyhouse perft 6",
    "capablanca": "Capablanca perft 5",
}


def fsf_input(variant, depth):
    lines = ["uci"]
    if variant != "chess":
        lines.append(f"setoption name UCI_Variant value {variant}")
    lines += ["position startpos", f"go perft {depth}" if depth else "isready", "quit", ""]
    return "\n".join(lines)


def fsf_count(out):
    m = re.search(r"^Nodes searched: (\d+)$", out, re.M)
    return int(m.group(1)) if m else None


def zrf_count(out, depth):
    m = re.search(rf"^{depth} (\d+)$", out, re.M)
    return int(m.group(1)) if m else None


def cell(values):
    return f"{fmt(statistics.median(values))} ({min(values):.2f}-{max(values):.2f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--zrf", required=True, help="the zrf binary (release build)")
    ap.add_argument("--fsf", required=True, help="Fairy-Stockfish, classical build")
    ap.add_argument("--fsf-large", help="Fairy-Stockfish built with largeboards=yes (Capablanca)")
    ap.add_argument("--fsf-source", default="?", help="the Fairy-Stockfish revision, for the table")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", nargs="+", choices=[w[0] for w in WORKLOADS])
    args = ap.parse_args()
    binaries = {"classic": args.fsf, "large": args.fsf_large}
    work = [
        w
        for w in WORKLOADS
        if (not args.only or w[0] in args.only) and binaries[w[3]]
    ]

    load_before = os.getloadavg()
    times = {(w[0], side): [] for w in work for side in ("zrf", "fsf", "zrf0", "fsf0")}
    wrong = []
    for r in range(args.rounds):
        for name, zargs, variant, build, depth, published in work:
            fsf = binaries[build]
            jobs = [
                ("zrf", [args.zrf, "perft", *zargs, str(depth), "--bulk", "--only"], None),
                ("fsf", [fsf], fsf_input(variant, depth)),
                ("zrf0", [args.zrf, "perft", *zargs, "0", "--only"], None),
                ("fsf0", [fsf], fsf_input(variant, 0)),
            ]
            if r % 2:
                jobs.reverse()
            counts = {}
            for side, cmd, stdin in jobs:
                secs, out, code = run(cmd, stdin)
                times[(name, side)].append(secs)
                if side in ("zrf", "fsf"):
                    counts[side] = zrf_count(out, depth) if side == "zrf" else fsf_count(out)
                    if code != 0 or counts[side] is None:
                        wrong.append(f"{side} {name}: exit {code}, no count")
                    print(f"round {r + 1} {side} {name:11} {secs:6.2f} s  {counts[side]}", file=sys.stderr)
            expected = published if published is not None else counts.get("fsf")
            if counts.get("zrf") != expected or counts.get("fsf") != expected:
                wrong.append(f"{name}: zrf {counts.get('zrf')}, Fairy-Stockfish {counts.get('fsf')}, published {published}")
    load_after = os.getloadavg()

    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"{date}; {os.cpu_count()} cores ({cpu_model()}); load average {load_before[0]:.1f} "
        f"before, {load_after[0]:.1f} after; zrf {git_rev()}; Fairy-Stockfish {args.fsf_source}."
    )
    print(
        f"CPU time (user+sys), median of {args.rounds} interleaved rounds (min-max), "
        "last level counted without making its moves, depth D only; start-up alone beside it."
    )
    print()
    print("| work (leaves) | zrf | Fairy-Stockfish | zrf / FSF | start-up zrf, FSF | ratio without start-up |")
    print("|---|---|---|---|---|---|")
    for name, _, _, _, depth, published in work:
        z, f = times[(name, "zrf")], times[(name, "fsf")]
        z0, f0 = (statistics.median(times[(name, side)]) for side in ("zrf0", "fsf0"))
        zm, fm = statistics.median(z), statistics.median(f)
        ratio = f"{zm / fm:.2f}" if fm > 0 else "-"
        net = f"{(zm - z0) / (fm - f0):.2f}" if fm > f0 else "-"
        leaves = f" ({published:,})" if published else ""
        print(
            f"| {TITLES[name]}{leaves} | {cell(z)} | {cell(f)} | {ratio} | {z0:.3f} s, {f0:.3f} s | {net} |"
        )
    return report_wrong(wrong)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Times zrf and compiled Regular Boardgames (rbg2cpp) perft side by side.

Run through scripts/rbg-bench.sh, which builds both. Every program is a separate process whose
CPU time (user + sys, from wait4) is taken; the programs run round by round, interleaved, so
that a change in the machine's load hits both sides alike. Every count is checked against the
published perft figure; a wrong count is reported and makes the exit code 1.
"""

import argparse
import datetime
import os
import platform
import re
import statistics
import subprocess
import sys

# name, zrf arguments, RBG program (None: zrf alone), depth, published count, goal text
WORKLOADS = [
    ("chess", ["games/chess.zrf"], "chess", 5, 4_865_609, "ratio <= 0.8 (0.5)"),
    ("checkers", ["games/checkers.zrf"], "englishDraughts", 9, 3_963_680, "ratio <= 0.8 (0.5)"),
    (
        "international",
        ["games/international-draughts.zrf"],
        "internationalDraughts",
        7,
        1_049_442,
        "ratio <= 0.5",
    ),
    ("crazyhouse", ["games/chess.zrf", "--variant", "Crazyhouse"], None, 5, 4_888_832, "<= 1.0 s"),
]

TITLES = {
    "chess": "chess perft 5",
    "checkers": "English checkers perft 9",
    "international": "international draughts perft 7",
    "crazyhouse": "Crazyhouse perft 5",
}


def run(cmd, stdin=None):
    """Runs cmd with stdin as its input; returns (CPU seconds, stdout, exit code)."""
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    if stdin is not None:
        proc.stdin.write(stdin)
        proc.stdin.close()
    out = proc.stdout.read()
    proc.stdout.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, out, proc.returncode


def zrf_count(out, depth):
    m = re.search(rf"^{depth} (\d+)$", out, re.M)
    return int(m.group(1)) if m else None


def rbg_count(out):
    m = re.search(r"^perft: (\d+)$", out, re.M)
    return int(m.group(1)) if m else None


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def git_rev():
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "interpreter", "stdlib"])
        return rev + ("+changes" if dirty.returncode else "")
    except (OSError, subprocess.CalledProcessError):
        return "?"


def report_wrong(wrong):
    """Lists the wrong counts, if any; returns the exit code."""
    if not wrong:
        return 0
    print()
    print("WRONG COUNTS:")
    for w in wrong:
        print("  " + w)
    return 1


def fmt(secs):
    return f"{secs:.2f} s"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--zrf", required=True, help="the zrf binary (release build)")
    ap.add_argument("--rbg", required=True, help="folder of the RBG perft programs (GAME/perft)")
    ap.add_argument("--rbg-sources", default="?", help="the RBG source revisions, for the table")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", nargs="+", choices=[w[0] for w in WORKLOADS])
    args = ap.parse_args()
    work = [w for w in WORKLOADS if not args.only or w[0] in args.only]

    load_before = os.getloadavg()
    times = {(w[0], side): [] for w in work for side in ("zrf", "rbg")}
    wrong = []
    for r in range(args.rounds):
        for name, zargs, rbg, depth, expected, _ in work:
            jobs = [("zrf", [args.zrf, "perft", *zargs, str(depth), "--only"])]
            if rbg:
                jobs.append(("rbg", [os.path.join(args.rbg, rbg, "perft"), str(depth)]))
            if r % 2:
                jobs.reverse()
            for side, cmd in jobs:
                secs, out, code = run(cmd)
                n = zrf_count(out, depth) if side == "zrf" else rbg_count(out)
                if code != 0 or n != expected:
                    wrong.append(f"{side} {name}: exit {code}, count {n}, published {expected}")
                times[(name, side)].append(secs)
                print(f"round {r + 1} {side:3} {name:13} {secs:6.2f} s  {n}", file=sys.stderr)
    load_after = os.getloadavg()

    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(
        f"{date}; {os.cpu_count()} cores ({cpu_model()}); load average {load_before[0]:.1f} "
        f"before, {load_after[0]:.1f} after; zrf {git_rev()}; {args.rbg_sources}."
    )
    print(
        f"CPU time (user+sys), median of {args.rounds} interleaved rounds (min-max), "
        "every leaf move made, depth D only."
    )
    print()
    print("| work (leaves) | zrf | rbg2cpp | zrf / rbg2cpp | goal |")
    print("|---|---|---|---|---|")
    for name, _, rbg, depth, expected, goal in work:
        z = times[(name, "zrf")]
        zm = statistics.median(z)
        cell = f"{fmt(zm)} ({min(z):.2f}-{max(z):.2f})"
        if rbg:
            b = times[(name, "rbg")]
            bm = statistics.median(b)
            rcell = f"{fmt(bm)} ({min(b):.2f}-{max(b):.2f})"
            ratio = f"{zm / bm:.2f}" if bm > 0 else "-"
        else:
            rcell, ratio = "-", "-"
        print(f"| {TITLES[name]} ({expected:,}) | {cell} | {rcell} | {ratio} | {goal} |")
    return report_wrong(wrong)


if __name__ == "__main__":
    sys.exit(main())

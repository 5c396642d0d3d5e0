#!/usr/bin/env bash
# zrf.cluster against one process, in one run, on a local Ray cluster (docs/cluster.md):
#
#   scripts/cluster-bench.sh [DEPTH] [GAMES] [CPUS]    default 7 200 2
#
# Starts a local Ray of CPUS CPUs (its start-up is timed apart: a real cluster is started once,
# with `ray start`), then, in one process:
# 1. chess perft DEPTH (7: 3,195,901,860 leaves) through `zrf.cluster.perft`, against
#    `Game.perft` in the driver process alone;
# 2. GAMES random chess games (`zrf selfplay --engine random --vs random`, seed 1) through
#    `zrf.cluster.selfplay`, against the same games played one after another in the driver.
# The counts and the tables must be equal; it prints the seconds and the speed-ups, and the
# CPU time the perft tasks take together against one process (a bound on the speed-up that the
# machine's load does not change).
# Needs the package built for speed (`maturin develop --release -m python/Cargo.toml`), Ray
# and tqdm; PYTHON names the interpreter (default python3). Perft 7 takes about 5 minutes on
# one core of an idle machine: run it when the machine is otherwise idle (`uptime`).
set -euo pipefail
cd "$(dirname "$0")/.."
exec "${PYTHON:-python3}" - "${1:-7}" "${2:-200}" "${3:-2}" <<'PYEOF'
import os, sys, time
import zrf
import zrf.cluster as zc
from zrf import _zrf

depth, games, cpus = (int(a) for a in sys.argv[1:4])
print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
t = time.monotonic()
zc.connect("local", cpus)
print(f"Ray start-up: {time.monotonic() - t:.1f} s", flush=True)
g = zrf.load("games/chess.zrf")

t = time.monotonic()
lines, n_cluster = zc.perft("games/chess.zrf", depth, only=True, cpus=cpus, progress=False)
t_cluster = time.monotonic() - t
t = time.monotonic()
n_single = g.perft(depth)
t_single = time.monotonic() - t
assert n_single == n_cluster, (n_single, n_cluster)
print(f"chess perft {depth} = {n_single:,}: one process {t_single:.1f} s, "
      f"cluster of {cpus} CPUs {t_cluster:.1f} s, speed-up {t_single / t_cluster:.2f}x", flush=True)

# The same split once more, each task timing its own CPU: what the tasks cost together against
# one process, whatever the machine's load (Ray's own processes are not counted).
from zrf.cluster import jobs
k, _, frontier, _ = zc.split_depth(g, depth, None, cpus)
ref = jobs.shared(jobs.Rules("games/chess.zrf"))

def timed(r, prefix):
    c = time.process_time()
    n = _zrf.perft_task(jobs._game(r), prefix, [depth - k])[0]
    return [n, time.process_time() - c]

got = zc.run_tasks(timed, [(i, (ref, p)) for i, p in enumerate(frontier)], progress=False)
c = time.process_time()
g.perft(depth)
cpu_single = time.process_time() - c
cpu_tasks = sum(v[1] for v in got.values())
assert sum(v[0] for v in got.values()) == n_single
print(f"CPU time: one process {cpu_single:.1f} s, the {len(frontier)} tasks {cpu_tasks:.1f} s "
      f"together (largest {max(v[1] for v in got.values()):.2f} s): at most "
      f"{cpus * cpu_single / cpu_tasks:.2f}x on {cpus} idle CPUs", flush=True)

t = time.monotonic()
table_cluster = zc.selfplay("games/chess.zrf", games=games, engine="random", vs="random",
                            cpus=cpus, progress=False)
t_cluster = time.monotonic() - t
t = time.monotonic()
res = _zrf.selfplay_games(g, "random", "random", 1, list(range(games)))
t_single = time.monotonic() - t
assert _zrf.selfplay_table(g, "random", "random", res) == table_cluster
print(f"{games} random chess games: one process {t_single:.1f} s, cluster of {cpus} CPUs "
      f"{t_cluster:.1f} s, speed-up {t_single / t_cluster:.2f}x", flush=True)
print(table_cluster)
print(f"load average after: {os.getloadavg()[0]:.2f}")
PYEOF

#!/usr/bin/env bash
# zrf.cluster against one process, in one run, on a local Ray cluster (docs/cluster.md):
#
#   scripts/cluster-bench.sh [DEPTH] [GAMES] [CPUS] [REPEAT]    default 7 200 2 5
#
# Starts a local Ray of CPUS CPUs (its start-up is timed apart: a real cluster is started once,
# with `ray start`), then, in one process:
# 1. chess perft DEPTH (7: 3,195,901,860 leaves) through `zrf.cluster.perft`, against
#    `Game.perft` in the driver process alone (DEPTH 0 skips it);
# 2. GAMES random chess games (`zrf selfplay --engine random --vs random`, seed 1) through
#    `zrf.cluster.selfplay`, against the same games played one after another in the driver,
#    REPEAT times in turn with CPUS plain processes playing the cluster's tasks (what the
#    machine allows at that moment), after runs of CPUS games, one a task (the fixed cost of a
#    run: the first, whose workers may still import zrf, then the median of 20).
# The counts and the tables must be equal; it prints the seconds and the speed-ups (each run's
# and the median), and the CPU time the perft tasks take together against one process (a bound
# on the speed-up that the machine's load does not change).
# Needs the package built for speed (`maturin develop --release -m python/Cargo.toml`), Ray
# and tqdm; PYTHON names the interpreter (default python3). Perft 7 takes about 5 minutes on
# one core of an idle machine: run it when the machine is otherwise idle (`uptime`).
set -euo pipefail
cd "$(dirname "$0")/.."
exec "${PYTHON:-python3}" - "${1:-7}" "${2:-200}" "${3:-2}" "${4:-5}" <<'PYEOF'
import os, statistics, sys, time
import zrf
import zrf.cluster as zc
from zrf import _zrf

depth, games, cpus, repeat = (int(a) for a in sys.argv[1:5])
print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()), flush=True)
t = time.monotonic()
zc.connect("local", cpus)
print(f"Ray start-up: {time.monotonic() - t:.1f} s", flush=True)
g = zrf.load("games/chess.zrf")

if depth > 0:
    t = time.monotonic()
    lines, n_cluster = zc.perft("games/chess.zrf", depth, only=True, cpus=cpus, progress=False)
    t_cluster = time.monotonic() - t
    t = time.monotonic()
    n_single = g.perft(depth)
    t_single = time.monotonic() - t
    assert n_single == n_cluster, (n_single, n_cluster)
    print(f"chess perft {depth} = {n_single:,}: one process {t_single:.1f} s, cluster of "
          f"{cpus} CPUs {t_cluster:.1f} s, speed-up {t_single / t_cluster:.2f}x", flush=True)

    # The same split once more, each task timing its own CPU: what the tasks cost together
    # against one process, whatever the machine's load (Ray's own processes are not counted).
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
    print(f"CPU time: one process {cpu_single:.1f} s, the {len(frontier)} tasks "
          f"{cpu_tasks:.1f} s together (largest {max(v[1] for v in got.values()):.2f} s): at most "
          f"{cpus * cpu_single / cpu_tasks:.2f}x on {cpus} idle CPUs", flush=True)


# Selfplay: first CPUS games (one a task, a task per CPU: what a run costs beyond its games),
# then GAMES games REPEAT times, one process, cluster and CPUS plain processes (a fork pool
# playing the cluster's tasks: what the machine allows at that moment) in turn, each time
# printed (the machine's load varies between runs), then the medians of the speed-ups.
import multiprocessing


def share(part):
    return _zrf.selfplay_games(g, "random", "random", 1, part)


def single(n):
    t = time.monotonic()
    res = _zrf.selfplay_games(g, "random", "random", 1, list(range(n)))
    return time.monotonic() - t, _zrf.selfplay_table(g, "random", "random", res)


def cluster(n):
    t = time.monotonic()
    table = zc.selfplay("games/chess.zrf", games=n, engine="random", vs="random", cpus=cpus,
                        progress=False)
    return time.monotonic() - t, table


def plain(n):
    # The games cut as the cluster cuts them (runs of consecutive games), handed out in turn.
    t = time.monotonic()
    per = zc.random_games_per_task(n, cpus)
    parts = [list(range(i, min(i + per, n))) for i in range(0, n, per)]
    played = sum(len(got) for got in pool.map(share, parts, chunksize=1))
    return time.monotonic() - t, played


pool = multiprocessing.get_context("fork").Pool(cpus)
pool.map(share, [[i] for i in range(cpus)])
t_cluster, _ = cluster(cpus)
t_single, _ = single(cpus)
print(f"{cpus} random chess games, one a CPU, the first run (a worker may still import zrf): "
      f"one process {t_single * 1000:.0f} ms, cluster {t_cluster * 1000:.0f} ms", flush=True)
fixed = sorted(cluster(cpus)[0] for _ in range(20))
print(f"the same again, 20 times: cluster median {statistics.median(fixed) * 1000:.1f} ms, from "
      f"{fixed[0] * 1000:.1f} to {fixed[-1] * 1000:.1f} ms (the fixed cost of a run)", flush=True)
ups, plains = [], []
for _ in range(repeat):
    t_single, table_single = single(games)
    t_cluster, table_cluster = cluster(games)
    t_plain, played = plain(games)
    assert table_single == table_cluster and played == games
    ups.append(t_single / t_cluster)
    plains.append(t_single / t_plain)
    print(f"{games} random chess games ({zc.random_games_per_task(games, cpus)} a task): "
          f"one process {t_single:.3f} s, cluster of {cpus} CPUs {t_cluster:.3f} s, "
          f"speed-up {ups[-1]:.2f}x ({cpus} plain processes {t_plain:.3f} s, "
          f"{plains[-1]:.2f}x), load average {os.getloadavg()[0]:.2f}", flush=True)
pool.close()
pool.join()
for what, xs in (("cluster", ups), (f"{cpus} plain processes", plains)):
    xs.sort()
    print(f"speed-up over {repeat} runs, {what}: median {statistics.median(xs):.2f}x, "
          f"from {xs[0]:.2f}x to {xs[-1]:.2f}x", flush=True)
print(table_cluster)
print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
PYEOF

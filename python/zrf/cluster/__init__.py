"""zrf on a Ray cluster: deep perft, self-play matches, protocol matches and corpus checks
spread over many processes or machines, with results that equal the single-machine commands.

    import zrf.cluster as zc
    zc.connect("local", cpus=2)          # or "auto", or "HEAD:6379" to join a cluster
    lines, total = zc.perft("chess", 5)  # ["1 20", "2 400", ..., "5 4865609"]
    print(zc.selfplay("chess", games=20, engine="random", vs="random"))

The command line is `python -m zrf.cluster` (or `zrf-cluster`); docs/cluster.md explains how
to run it on a real cluster, how work is split and what it costs.
"""

from .jobs import (RANDOM_GAMES_PER_TASK, TASKS_PER_CPU, check, perft, random_games_per_task,
                   selfplay, split_depth)
from .runner import MAX_RETRIES, connect, load_results, run_key, run_tasks, worker_cache

__all__ = [
    "MAX_RETRIES",
    "RANDOM_GAMES_PER_TASK",
    "TASKS_PER_CPU",
    "check",
    "connect",
    "load_results",
    "perft",
    "random_games_per_task",
    "run_key",
    "run_tasks",
    "selfplay",
    "split_depth",
    "worker_cache",
]

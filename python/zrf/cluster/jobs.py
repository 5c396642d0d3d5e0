"""The jobs of `zrf.cluster`: perft, selfplay, and corpus checks, each as tasks for
`runner.run_tasks`, with results that match the single-machine commands exactly."""

import hashlib
import os

import ray

from .. import _zrf, load
from . import runner
from .runner import run_key, run_tasks, worker_cache

# Perft is split into at least this many tasks per CPU of the cluster (see `split_depth`).
TASKS_PER_CPU = 8

# Games between random movers are played this many to a task at least (while the cluster's
# CPUs all get one): a random chess game is about a millisecond and a half of work, a task
# costs Ray a few milliseconds (see `random_games_per_task`).
RANDOM_GAMES_PER_TASK = 256


class Rules:
    """How a worker finds a rules file: by its path when the file is there (its includes
    beside it), else from the text the driver read (a file shipped with the job), else as a
    shipped game's name (`chess`)."""

    def __init__(self, source, variant=None):
        self.source = os.fspath(source)
        self.variant = variant
        self.text = None
        if os.path.isfile(self.source):
            self.source = os.path.abspath(self.source)
            with open(self.source, encoding="utf-8", errors="surrogateescape") as f:
                self.text = f.read()
        # What a worker keys its loaded game by: the same in every process (`hash` of a
        # string is not), so a task finds the game an earlier task of its worker loaded.
        text = self.text if self.text is not None else ""
        digest = hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
        self.cache_key = ("game", self.source, self.variant, digest)

    def key(self):
        """What identifies the rules in a run's key: the text when read, else the name."""
        return {"rules": self.text if self.text is not None else self.source,
                "variant": self.variant}

    def game(self):
        """The loaded game, kept by the worker process for its next tasks."""
        cache = worker_cache()
        k = self.cache_key
        if k not in cache:
            if self.text is not None and not os.path.isfile(self.source):
                cache[k] = load(self.text, self.variant)
            else:
                cache[k] = load(self.source, self.variant)
        return cache[k]


class Shared:
    """Rules put once in Ray's object store: a task carries the reference and the rules' cache
    key, and a worker that has loaded the rules already (for an earlier task, of this run or
    another) takes its game from its cache without fetching them."""

    def __init__(self, rules):
        self.cache_key = rules.cache_key
        self.ref = ray.put(rules)

    def game(self):
        cache = worker_cache()
        if self.cache_key in cache:
            return cache[self.cache_key]
        return ray.get(self.ref).game()


def _game(rules):
    """The game of a task's rules: `Rules`, `Shared` (see `shared`) or a reference to `Rules`."""
    if isinstance(rules, ray.ObjectRef):
        rules = ray.get(rules)
    return rules.game()


# How many rules files a driver keeps in Ray's object store between runs (see `shared`).
SHARED_KEPT = 16

# The rules this driver put in the object store: {(Ray session, rules' cache key): Shared}.
_shared = {}


def shared(rules):
    """The rules put in Ray's object store, so that tasks carry a reference and a key, not the
    text of the file (`Shared`). They are put once per Ray session: the next run on the same
    rules takes the same reference (a put costs a couple of milliseconds, a tenth of a short
    run). The last `SHARED_KEPT` rules files are kept; those of an earlier session are dropped."""
    session = runner.session()
    key = (session, rules.cache_key)
    if key not in _shared:
        for old in [k for k in _shared if k[0] != session]:
            del _shared[old]
        while len(_shared) >= SHARED_KEPT:
            del _shared[next(iter(_shared))]
        _shared[key] = Shared(rules)
    return _shared[key]


def split_depth(game, depth, setup, cpus, unique=False, tasks_per_cpu=TASKS_PER_CPU, moves=None):
    """The split depth of a perft: the smallest number of plies k (1 <= k < depth) whose
    move sequences number at least `tasks_per_cpu` times the cluster's CPUs, or depth - 1 if
    none does. Each sequence becomes a task counting the depth - k plies below it. Returns
    (k, root move texts, sequences, leaf counts of depths 1..k)."""
    want = tasks_per_cpu * max(1, cpus)
    k = 1
    while True:
        texts, frontier, counts = _zrf.perft_frontier(game, k, setup, unique, moves)
        if len(frontier) >= want or k >= depth - 1 or not frontier:
            return k, texts, frontier, counts
        k += 1


def _perft_task(rules, prefix, depths, setup, unique, bulk, moves=None):
    return _zrf.perft_task(_game(rules), prefix, depths, setup, unique, bulk, moves)


def perft(source, depth, *, variant=None, setup=None, moves=None, divide=False, only=False,
          unique=False, bulk=False, cpus=1, split=None, results=None, progress=True):
    """Perft of a rules file on the cluster. Returns (lines, total leaves): the lines
    `zrf perft` prints (`D N` per depth, or the last only with `only`; then `MOVE N` per root
    move with `divide`), and the leaves counted over the printed depths. `moves` (texts
    separated by spaces, as `zrf perft --moves`) are played from the start position first."""
    rules = Rules(source, variant)
    game = rules.game()
    depth = int(depth)
    if depth <= 0:
        return [], 0
    if split is None:
        k, texts, frontier, low = split_depth(game, depth, setup, cpus, unique, moves=moves)
    else:
        k = max(1, min(int(split), depth))
        texts, frontier, low = _zrf.perft_frontier(game, k, setup, unique, moves)
    rest = depth - k
    # Depths to count below each sequence: every one up to the last, or the last alone.
    below = [rest] if only else list(range(1, rest + 1))
    below = [d for d in below if d > 0]
    counts = {d: low[d - 1] for d in range(1, k + 1)}
    per_root = [0] * len(texts)
    if below:
        key = run_key("perft", depth=depth, setup=setup, split=k, only=only, unique=unique,
                      bulk=bulk, **rules.key(), **({"moves": moves} if moves else {}))
        ref = shared(rules)
        tasks = [(i, (ref, p, below, setup, unique, bulk, moves)) for i, p in enumerate(frontier)]

        def add(i, got):
            for d, n in zip(below, got):
                counts[k + d] = counts.get(k + d, 0) + n
            if divide and frontier[i]:
                per_root[frontier[i][0]] += got[-1]

        run_tasks(_perft_task, tasks, results=results, key=key, desc=f"perft {depth}",
                  progress=progress, on_result=add)
    elif divide:
        for p in frontier:
            per_root[p[0]] += 1
    shown = [depth] if only else list(range(1, depth + 1))
    lines = [f"{d} {counts.get(d, 0)}" for d in shown]
    if divide:
        lines += [f"{t} {n}" for t, n in zip(texts, per_root)]
    return lines, sum(counts.get(d, 0) for d in shown)


def _selfplay_task(rules, engine, vs, seed, indices, random_plies, max_plies, time, setup):
    return [list(r) for r in _zrf.selfplay_games(_game(rules), engine, vs, seed, indices,
                                                 random_plies, max_plies, time, setup)]


def random_games_per_task(games, cpus):
    """How many games between random movers a task plays: the games spread evenly over the
    CPUs (one task each) while that gives a task fewer than `RANDOM_GAMES_PER_TASK` games, else
    at least that many and up to `TASKS_PER_CPU` tasks per CPU (so a long run keeps every CPU
    busy to the end and a rerun resumes from small parts)."""
    cpus = max(1, cpus)
    even = -(-games // cpus)
    return max(1, -(-games // (TASKS_PER_CPU * cpus)), min(RANDOM_GAMES_PER_TASK, even))


def selfplay(source, *, games=10, engine="", vs=None, seed=1, random_plies=2, max_plies=400,
             time="0.1s", variant=None, setup=None, cpus=1, results=None, progress=True):
    """A `zrf selfplay` match with its games spread over the cluster; returns the table
    `zrf selfplay` prints. Game i is seeded from `seed` and i as the binary seeds it, so the
    table is the same whichever workers play which games. A task is one game, except between
    random movers (a game takes a millisecond), where a task plays a run of consecutive games
    (`random_games_per_task`)."""
    rules = Rules(source, variant)
    game = rules.game()
    games = int(games)
    # Read the settings now, so that a bad one fails before any task is sent.
    _zrf.selfplay_table(game, engine, vs, [], time)
    both_random = engine.strip().lower() == "random" and (vs or engine).strip().lower() == "random"
    per_task = random_games_per_task(games, cpus) if both_random else 1
    key = run_key("selfplay", engine=engine, vs=vs, seed=seed, random_plies=random_plies,
                  max_plies=max_plies, time=time, setup=setup, per_task=per_task, **rules.key())
    ref = shared(rules)
    tasks = [(i, (ref, engine, vs, seed, list(range(i, min(i + per_task, games))),
                  random_plies, max_plies, time, setup))
             for i in range(0, games, per_task)]
    # An engine searches on one thread; a game of two engines uses one CPU at a time.
    got = run_tasks(_selfplay_task, tasks, results=results, key=key, desc="games",
                    progress=progress)
    scored = [tuple(r) for i in range(0, games, per_task) for r in got[i]]
    return _zrf.selfplay_table(game, engine, vs, scored, time)


def corpus(folder, kind):
    """The files of a folder (recursively, in name order, as the binary walks it) that are
    rules files (`kind="rules"`) or records `zrf replay --check` replays (`"record"`)."""
    out = []

    def walk(d, level):
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            if os.path.isdir(p) and level < 64:
                walk(p, level + 1)
            elif _zrf.corpus_kind(p) == kind:
                out.append(p)

    walk(os.fspath(folder), 0)
    return out


def _check_task(kind, path):
    f = _zrf.check_rules_file if kind == "rules" else _zrf.replay_record_file
    return list(f(path))


def check(folder, kind="rules", *, results=None, progress=True):
    """`zrf check --folder DIR` (`kind="rules"`) or `zrf replay --check DIR` (`kind="record"`) with the
    files checked in parallel; returns (lines, number failed): one line per file in name
    order, then the totals line."""
    files = corpus(folder, kind)
    key = run_key("check", kind=kind, files=[os.path.abspath(p) for p in files])
    # Workers read by absolute path (their folder may differ); lines show the path as given.
    tasks = [(p, (kind, os.path.abspath(p))) for p in files]
    got = run_tasks(_check_task, tasks, results=results, key=key, desc="files",
                    progress=progress)
    lines = [got[p][1].replace(os.path.abspath(p), p, 1) for p in files]
    failed = sum(1 for p in files if not got[p][0])
    what = "files" if kind == "rules" else "records"
    lines.append(_zrf.corpus_totals(what, len(files), failed))
    return lines, failed

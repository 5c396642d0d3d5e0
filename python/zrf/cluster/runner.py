"""Running a list of tasks on Ray: retries, a progress bar, and a results file to resume from.

Every job of `zrf.cluster` (perft, selfplay, corpus checks, protocol matches) is a list of
independent tasks, each named by a small key (an int or a string) and returning a small,
JSON-able value. `run_tasks` sends them to Ray, retried by Ray when a worker dies
(`max_retries`), and collects each result once. With a results file, every finished task is
appended to it as one JSON line as soon as it comes back, tagged with the run's key (the
job's arguments); a rerun with the same key skips the tasks the file already holds, so an
interrupted run loses at most the tasks that were in flight.
"""

import hashlib
import inspect
import json
import os
import sys
import time

import ray

# How often Ray retries a task whose worker died (killed, out of memory, machine lost).
MAX_RETRIES = 3

# Objects kept by a worker process between tasks (loaded games, engine processes).
_worker_cache = {}


def worker_cache():
    """A dict that lives as long as the worker process: tasks keep loaded games or started
    engine processes here, so the next task on the same worker reuses them."""
    return _worker_cache


def connect(address="local", cpus=None):
    """Starts Ray on this machine (`address="local"`, `cpus` CPUs, all by default) or joins a
    running cluster (`"auto"`, or the head's `host:port`); does nothing if Ray is already up.
    Returns the number of CPUs the cluster offers.

    A local cluster runs its workers at the priority of this process (nice 0), not Ray's
    default of 15 (unless `RAY_worker_niceness` says otherwise): under Linux's autogroup
    scheduler, workers at nice 15 beside a driver and Ray's own processes at 0 draw only a small
    part of their session's share of a CPU, and lose it to other sessions' work."""
    if not ray.is_initialized():
        if address in (None, "local"):
            system = {} if "RAY_worker_niceness" in os.environ else {"worker_niceness": 0}
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                     _system_config=system)
        else:
            ray.init(address=address, log_to_driver=False)
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def run_key(job, **args):
    """The key of a run: the job's name and its arguments (those that change the results)."""
    text = json.dumps({"job": job, **args}, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def load_results(path, key):
    """The results a file already holds for the run `key`: {task: result}. A line cut short
    by a crash (the last one) is ignored."""
    done = {}
    if not path or not os.path.exists(path):
        return done
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if isinstance(rec, dict) and rec.get("run") == key and "task" in rec:
                done[_task_id(rec["task"])] = rec.get("result")
    return done


def _task_id(t):
    # JSON turns tuples into lists; keys are ints or strings, or tuples of them.
    return tuple(t) if isinstance(t, list) else t


class _Results:
    """Appends finished tasks to the results file, one flushed and synced line each."""

    def __init__(self, path, key):
        self.key = key
        self.f = None
        self.synced = time.monotonic()
        if not path:
            return
        cut = False
        if os.path.exists(path) and os.path.getsize(path) > 0:
            with open(path, "rb") as f:
                f.seek(-1, os.SEEK_END)
                cut = f.read(1) != b"\n"
        self.f = open(path, "a", encoding="utf-8")
        if cut:
            # A line cut short by a crash: end it, so the next line starts on its own.
            self.f.write("\n")

    def add(self, task, result):
        if self.f is None:
            return
        self.f.write(json.dumps({"run": self.key, "task": task, "result": result}) + "\n")
        # Flushed at once (a killed driver loses nothing), synced to disk at most once a
        # second (a lost machine loses at most a second of results; a sync per line would cap
        # a run at a few hundred tasks a second).
        self.f.flush()
        now = time.monotonic()
        if now - self.synced >= 1.0:
            os.fsync(self.f.fileno())
            self.synced = now

    def close(self):
        if self.f is not None:
            self.f.flush()
            os.fsync(self.f.fileno())
            self.f.close()


def _maybe_fail(task, fault):
    """The test-only fault hook: `fault` is `(task, marker)`; the worker running that task
    exits at once, the first time only (the marker file records that it did)."""
    if fault is None or task != _task_id(fault[0]):
        return
    marker = fault[1]
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    os._exit(17)


def _remote(fn, num_cpus):
    """`fn` as a Ray task (retried when its worker dies, with the test-only fault hook): a task
    then carries its arguments alone, not the function (sending the function with every task,
    and `.options()` at every run, cost about a millisecond a task). Made once for a function
    defined at a module's top level (it lives as long as the process); once per run for
    another callable (a closure, a lambda, a bound method), which is not kept."""
    key = (fn, num_cpus)
    if key in _remotes:
        return _remotes[key]

    def call(task, args, fault):
        _maybe_fail(task, fault)
        return fn(*args)

    remote = ray.remote(num_cpus=num_cpus, max_retries=MAX_RETRIES)(call)
    if inspect.isfunction(fn) and "<" not in fn.__qualname__:
        _remotes[key] = remote
    return remote


# {(function, CPUs a task takes): its Ray task}, for functions at a module's top level.
_remotes = {}


def session():
    """What names the Ray session this process is connected to: the job and the node of the
    driver, both new when Ray is started or joined again (an object put in the store of an
    earlier session is gone)."""
    try:
        ctx = ray.get_runtime_context()
        return (ctx.get_job_id(), ctx.get_node_id())
    except Exception:  # a connection that does not tell (Ray Client): a new session each time
        return object()


def fault_from_env():
    """`ZRF_CLUSTER_FAULT=TASK:MARKER`: the test-only hook that makes the worker running
    task TASK (a task index) exit once, the first time (MARKER is the file that records it)."""
    spec = os.environ.get("ZRF_CLUSTER_FAULT")
    if not spec:
        return None
    task, _, marker = spec.partition(":")
    task = int(task) if task.lstrip("-").isdigit() else task
    return (task, marker)


def run_tasks(fn, tasks, *, results=None, key=None, desc="tasks", progress=True, on_result=None,
              num_cpus=1):
    """Runs `fn(*args)` for each `(task, args)` of `tasks` on the cluster and returns
    {task: result}. `fn` must be importable or picklable; each call is retried by Ray when its
    worker dies. With `results` (a path) and `key` (from `run_key`), finished tasks are read
    from and appended to that file, so a rerun resumes. `on_result(task, result)` is called
    for each result as it comes (in completion order), also for those read from the file."""
    from tqdm import tqdm

    tasks = list(tasks)
    done = load_results(results, key) if results else {}
    names = {task for task, _ in tasks}
    done = {t: r for t, r in done.items() if t in names}
    if on_result:
        for t, r in done.items():
            on_result(t, r)
    fault = fault_from_env()
    out = dict(done)
    todo = [(t, a) for t, a in tasks if t not in done]
    bar = tqdm(total=len(tasks), initial=len(done), desc=desc, disable=not progress,
               file=sys.stderr, unit="task", dynamic_ncols=True)
    sink = _Results(results, key)
    try:
        remote = _remote(fn, num_cpus)
        # Twice as many tasks in flight as the cluster has CPUs (and 8 more), so every worker
        # has the next one queued, and the driver never waits on hundreds of thousands of
        # references. A run of at most 10 tasks sends them all without asking Ray for its CPUs
        # (a millisecond, which is a tenth of a short run).
        in_flight = len(todo)
        if in_flight > 10:
            cpus = int(ray.cluster_resources().get("CPU", 1))
            in_flight = 2 * max(1, cpus // max(1, num_cpus)) + 8
        queue = iter(todo)
        pending = {}
        while True:
            for t, a in queue:
                pending[remote.remote(t, a, fault)] = t
                if len(pending) >= in_flight:
                    break
            if not pending:
                break
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            if ready:
                ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=0)
            for ref in ready:
                t = pending.pop(ref)
                r = ray.get(ref)
                out[t] = r
                sink.add(t, r)
                if on_result:
                    on_result(t, r)
                bar.update(1)
    finally:
        sink.close()
        bar.close()
    return out

#!/usr/bin/env python3
"""Perft of zrf beside Dagaz on the games of the Dagaz repository (run by scripts/dagaz-diff.sh).

Each Dagaz game page (GAME.htm) is paired with the rules file of its directory whose name is the
longest `-`-separated prefix of the page's design script (`chaturanga-1.js` -> `chaturanga.zrf`).
For each pair, Dagaz counts perft 1..DEPTH from its start position; zrf counts the variant whose
start position is the same (of several such variants, the first that agrees), else variant 1
started from Dagaz's position (`--setup`). Two readings of Dagaz are counted:
  pure  Dagaz's kernel and the game's design script only (its reading of the ZRF model);
  full  also the game's extension scripts (Dagaz's own rules on top: forced captures, check...).
Writes OUT/results.jsonl and prints one line per pair that disagrees, then the totals.

With `--cluster local|auto|HOST:PORT` (the `zrf` Python package's zrf.cluster, on Ray; also
`python -m zrf.cluster dagaz ARGS`) every page is a task on a worker, the lines and totals are
the same and in the same order, and `--results FILE` keeps finished pages so that a rerun with
the same arguments compares only the others. A worker needs node, underscore.js ($UNDERSCORE),
the Dagaz checkout and the zrf binary at the paths given here; a page whose worker lacks one is
reported as `not run` with the reason, and the others go on (docs/cluster.md)."""
import argparse, hashlib, json, os, re, shutil, socket, subprocess, sys
from collections import Counter

# Dagaz design options that change the rules: ZRF options (the design script may set them
# although the rules file does not, as Dagaz's converted scripts were sometimes edited by hand)
# and Dagaz's own (`shared-pieces`: move either side's pieces; `detect-loops`: a chain may not
# come back to a square it passed).
ZOG_OPTIONS = {'pass-partial', 'pass-turn', 'recycle-captures', 'discard-cascades', 'maximal-captures',
               'shared-pieces', 'detect-loops', 'moves-limit'}
DAGAZ_ONLY = {'shared-pieces', 'detect-loops', 'moves-limit'}
HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'dagaz_perft.js')


def parser():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dagaz', required=True, help='the src/debug directory of a Dagaz checkout')
    ap.add_argument('--zrf', required=True, help='the zrf binary')
    ap.add_argument('--out', required=True)
    ap.add_argument('--depth', type=int, default=3)
    ap.add_argument('--timeout', type=int, default=10)
    ap.add_argument('--modes', default='pure,full')
    ap.add_argument('--only', nargs='*', default=[], help='substrings of page paths to keep')
    ap.add_argument('--node', default='node', help='the JavaScript runtime that runs the harness')
    ap.add_argument('--harness', default=HARNESS, help='the perft harness run in Dagaz (default: dagaz_perft.js beside this script)')
    ap.add_argument('--cluster', metavar='ADDRESS', help='compare the pages on a Ray cluster through zrf.cluster: `local`, `auto` or HOST:PORT')
    ap.add_argument('--cluster-cpus', type=int, help='CPUs of a `--cluster local` Ray (default: all)')
    ap.add_argument('--results', help='with --cluster: keep finished pages in this file and resume from it')
    ap.add_argument('--quiet', action='store_true', help='with --cluster: no progress bar')
    return ap


def run(cmd, t):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors='replace', timeout=t)
        out, err, to = p.stdout, p.stderr, False
    except subprocess.TimeoutExpired as e:
        dec = lambda x: x.decode('latin1') if isinstance(x, bytes) else (x or '')
        out, err, to = dec(e.stdout), dec(e.stderr), True
    except OSError as e:
        out, err, to = '', str(e), False
    return [int(m.group(2)) for m in re.finditer(r'^(\d+) (\d+)$', out, re.M)], out, err, to


def norm(text):
    """A position text as a set of (player, type, square) and off-board counts."""
    s = set()
    for part in text.split(';'):
        w = part.split()
        if not w or w[0] in ('turn', 'last', 'counter') or len(w) < 3:
            continue
        if w[0] == 'off':
            s.add(('off',) + tuple(w[1:4]))
            continue
        for p in w[2:]:
            if p[-1] in '?!*':
                p = p.split('-')[0].rstrip('!*')
            s.add((w[0], w[1], p.lower()))
    return s


def agree(x, y):
    n = 0
    while n < min(len(x), len(y)) and x[n] == y[n]:
        n += 1
    return n


def pairs(a):
    games = os.path.join(a.dagaz, 'games')
    for root, _, files in sorted(os.walk(games)):
        for f in sorted(files):
            if not f.endswith('.htm'):
                continue
            htm = os.path.join(root, f)
            if a.only and not any(o in htm for o in a.only):
                continue
            html = open(htm, encoding='latin1').read()
            for s in re.findall(r'<script[^>]*src="([^"/]+\.js)"', html):
                js = os.path.join(root, s)
                if os.path.exists(js) and 'Dagaz.Model.BuildDesign' in open(js, encoding='latin1').read():
                    parts = s[:-3].split('-')
                    for k in range(len(parts), 0, -1):
                        z = os.path.join(root, '-'.join(parts[:k]) + '.zrf')
                        if os.path.exists(z):
                            yield htm, js, z
                            break
                    break


def missing(a, htm, js, zrf):
    """Why this machine cannot compare the page (a missing program or file), or None."""
    if shutil.which(a.node) is None:
        return 'the JavaScript runtime `%s` is not on this machine (install node.js)' % a.node
    if shutil.which(a.zrf) is None:
        return 'the zrf binary %s is not on this machine' % a.zrf
    under = os.environ.get('UNDERSCORE', '/usr/share/javascript/underscore/underscore.js')
    for what, path in (('the harness', a.harness), ('underscore.js ($UNDERSCORE)', under),
                       ('the Dagaz page', htm), ('its design script', js), ('its rules file', zrf)):
        if not os.path.isfile(path):
            return '%s %s is not on this machine' % (what, path)
    return None


def not_run(a, htm, zrf, why):
    """The records and lines of a page that could not be compared on this machine."""
    why += ' (%s)' % socket.gethostname()
    page = os.path.relpath(htm, a.dagaz)
    return [({'page': page, 'zrf': os.path.relpath(zrf, a.dagaz), 'mode': mode, 'not_run': why},
             ['%s %s: not run: %s' % (mode, page, why)]) for mode in a.modes.split(',')]


def compare_or_say(a, htm, js, zrf, cache):
    """`compare`, or the page reported as not run when it fails (an unreadable file...)."""
    try:
        return compare(a, htm, js, zrf, cache)
    except Exception as e:  # one page's failure must not stop the others
        return not_run(a, htm, zrf, 'error: %s: %s' % (type(e).__name__, e))


def compare(a, htm, js, zrf, cache=None):
    """Compares one page with its rules file in every mode; returns per mode a record (the
    line of results.jsonl) and the lines to print. `cache` keeps what zrf says of a rules
    file (variants, board, start positions) for the next pages of the same file."""
    cache = {} if cache is None else cache
    page = os.path.relpath(htm, a.dagaz)
    why = missing(a, htm, js, zrf)
    if why is not None:
        return not_run(a, htm, zrf, why)
    # move priorities: the design script names each type in a comment after addPriority
    js_prio = re.findall(r'^\s*design\.addPriority\(\d+\);\s*//\s*(\S+)', open(js, encoding='latin1').read(), re.M)
    m = re.search(r'^[^;]*\(move-priorities([^)]*)\)', open(zrf, encoding='latin1').read(), re.M)
    zrf_prio = m.group(1).split() if m else []
    if ('variants', zrf) not in cache:
        _, c, _, _ = run([a.zrf, 'check', zrf], 60)
        m = re.search(r'^variants: (\d+)', c, re.M)
        cache[('variants', zrf)] = int(m.group(1)) if m else 1
        m = re.search(r'^board: (\d+) positions', c, re.M)
        cache[('positions', zrf)] = int(m.group(1)) if m else None
    variants, positions = cache[('variants', zrf)], cache[('positions', zrf)]
    out = []
    for mode in a.modes.split(','):
        extra = ['--pure', '--dedupe'] if mode == 'pure' else []
        d, _, derr, dto = run([a.node, a.harness, htm, str(a.depth)] + extra, a.timeout)
        m = re.search(r'^setup: (.*)$', derr, re.M)
        dsetup = m.group(1) if m else None
        unknown = (re.search(r'^unknown-options: (.*)$', derr, re.M) or re.match('()', '')).group(1).split()
        opts = (re.search(r'^options: (.*)$', derr, re.M) or re.match('()', '')).group(1).split()
        zopts = {k.lower().replace(' ', '-'): v.lower() for k, v in
                 re.findall(r'^[^;]*\(option\s+"([^"]+)"\s+([^\s)]+)', open(zrf, encoding='latin1').read(), re.M)}
        zog = [o for o in opts if o.split('=')[0] in ZOG_OPTIONS and
               (o.split('=')[0] in DAGAZ_ONLY or zopts.get(o.split('=')[0]) != o.split('=', 1)[1].lower())]
        m = re.search(r' positions: (\d+) players:', derr)
        dpos = int(m.group(1)) if m else None
        unl = (re.search(r'^drops-without-count: (.*)$', derr, re.M) or re.match('()', '')).group(1).split()
        best = None
        for v in range(1, min(variants, 40) + 1):
            key = ('setup', zrf, v)
            if key not in cache:
                _, o, _, _ = run([a.zrf, 'moves', zrf, '--variant', str(v), '--print-position'], 30)
                cache[key] = o.splitlines()[0] if o else ''
            if dsetup is None or norm(cache[key]) != norm(dsetup):
                continue
            z, _, _, zto = run([a.zrf, 'perft', zrf, str(a.depth), '--variant', str(v)], a.timeout)
            cand = (agree(d, z), v, True, z, '')
            if best is None or cand[0] > best[0]:
                best = cand
            if z and best[0] == min(len(d), len(z)):
                break
        if best is None:
            cmd = [a.zrf, 'perft', zrf, str(a.depth), '--variant', '1']
            if dsetup is not None:
                cmd += ['--setup', dsetup]
            z, _, zerr, zto = run(cmd, a.timeout)
            why = 'timeout' if zto else (zerr.strip().splitlines() or [''])[0][:200]
            best = (agree(d, z), 1, False, z, why)
        k = min(len(d), len(best[3]))
        rec = {'page': page, 'zrf': os.path.relpath(zrf, a.dagaz), 'mode': mode,
               'dagaz': d, 'zrf_counts': best[3], 'variant': best[1], 'same_start': best[2],
               'agree': best[0], 'compared': k, 'unknown_options': unknown, 'options_only_in_dagaz': zog, 'drops_without_count': unl, 'priorities': [js_prio, zrf_prio]}
        lines = []
        if k == 0:
            lines.append('%s %s: not compared: Dagaz %s%s, zrf %s %s' % (mode, rec['page'], d, ' (timeout)' if dto else '',
                                                                     best[3], best[4]))
        if k and best[0] < k:
            lines.append('%s %s: Dagaz %s, zrf %s (variant %d%s)%s' % (
                mode, rec['page'], d, best[3], best[1], '' if best[2] else ', Dagaz start',
                ' unknown options: ' + ' '.join(unknown) if unknown else '') +
                ('; Dagaz sets ' + ' '.join(zog) + ', the rules file not' if zog else '') +
                ('; %s positions in Dagaz, %s in the rules file' % (dpos, positions)
                 if dpos is not None and positions is not None and dpos != positions else '') +
                ('; Dagaz drops pieces not held (player:type): ' + ' '.join(unl[:6]) + (' ...' if len(unl) > 6 else '') if unl else '') +
                ('' if js_prio == zrf_prio else '; move priorities %s in Dagaz, %s in the rules file' % (
                    ' '.join(js_prio) or 'none', ' '.join(zrf_prio) or 'none')))
        out.append((rec, lines))
    return out


class Report:
    """Writes the records to OUT/results.jsonl, prints the lines of each page, and counts."""

    def __init__(self, a):
        self.depth = a.depth
        self.totals = {m: Counter() for m in a.modes.split(',')}
        os.makedirs(a.out, exist_ok=True)
        self.res = open(os.path.join(a.out, 'results.jsonl'), 'w')

    def add(self, compared):
        for rec, lines in compared:
            self.res.write(json.dumps(rec) + '\n')
            self.res.flush()
            t = self.totals[rec['mode']]
            t['pairs'] += 1
            if 'not_run' in rec:
                t['not run'] += 1
            elif rec['compared'] == 0:
                t['not compared'] += 1
            for depth in range(1, rec.get('compared', 0) + 1):
                t['compared at %d' % depth] += 1
                if rec['agree'] >= depth:
                    t['agree at %d' % depth] += 1
            for line in lines:
                print(line, flush=True)

    def close(self):
        self.res.close()
        for mode, t in self.totals.items():
            print(mode + ': ' + ', '.join('%s %d' % (k, t[k]) for k in
                  ['pairs', 'not compared'] + [f'{w} at {i}' for i in range(1, self.depth + 1) for w in ('compared', 'agree')]
                  + (['not run'] if t['not run'] else [])))


def _page_task(a, htm, js, zrf):
    """One page on a cluster worker, with the worker's cache of rules files."""
    from zrf.cluster import worker_cache

    return [[rec, lines] for rec, lines in compare_or_say(a, htm, js, zrf, worker_cache().setdefault('dagaz', {}))]


def file_hash(path):
    """What identifies the zrf binary in a run's key (a rebuilt binary is another run)."""
    path = shutil.which(path) or path
    if not os.path.isfile(path):
        return path
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return h.hexdigest()


def cluster(a, found, report):
    """The pages as tasks on a Ray cluster; their lines printed in page order."""
    import zrf.cluster as zc

    zc.connect(a.cluster, a.cluster_cpus)
    for name in ('dagaz', 'zrf', 'harness', 'out'):
        setattr(a, name, os.path.abspath(getattr(a, name)) if os.path.exists(getattr(a, name)) else getattr(a, name))
    key = zc.run_key('dagaz', depth=a.depth, timeout=a.timeout, modes=a.modes, node=a.node,
                     zrf=file_hash(a.zrf), harness=file_hash(a.harness))
    tasks = [(os.path.relpath(htm, a.dagaz), (a, os.path.abspath(htm), os.path.abspath(js), os.path.abspath(zrf)))
             for htm, js, zrf in found]
    order = [t for t, _ in tasks]
    got, nxt = {}, [0]

    def arrived(page, result):
        got[page] = result
        while nxt[0] < len(order) and order[nxt[0]] in got:
            report.add([tuple(r) for r in got.pop(order[nxt[0]])])
            nxt[0] += 1

    zc.run_tasks(_page_task, tasks, results=a.results, key=key, desc='pages',
                 progress=not a.quiet, on_result=arrived)


def main(argv=None):
    a = parser().parse_args(argv)
    found = list(pairs(a))
    report = Report(a)
    if a.cluster:
        cluster(a, found, report)
    else:
        cache = {}
        for htm, js, zrf in found:
            report.add(compare_or_say(a, htm, js, zrf, cache))
    report.close()


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Perft of zrf beside Dagaz on the games of the Dagaz repository (run by scripts/dagaz-diff.sh).

Each Dagaz game page (GAME.htm) is paired with the rules file of its directory whose name is the
longest `-`-separated prefix of the page's design script (`chaturanga-1.js` -> `chaturanga.zrf`).
For each pair, Dagaz counts perft 1..DEPTH from its start position; zrf counts the variant whose
start position is the same (of several such variants, the first that agrees), else variant 1
started from Dagaz's position (`--setup`). Two readings of Dagaz are counted:
  pure  Dagaz's kernel and the game's design script only (its reading of the ZRF model);
  full  also the game's extension scripts (Dagaz's own rules on top: forced captures, check...).
Writes OUT/results.jsonl and prints one line per pair that disagrees, then the totals."""
import argparse, json, os, re, subprocess, sys
from collections import Counter

ap = argparse.ArgumentParser()
ap.add_argument('--dagaz', required=True, help='the src/debug directory of a Dagaz checkout')
ap.add_argument('--zrf', required=True, help='the zrf binary')
ap.add_argument('--out', required=True)
ap.add_argument('--depth', type=int, default=3)
ap.add_argument('--timeout', type=int, default=10)
ap.add_argument('--modes', default='pure,full')
ap.add_argument('--only', nargs='*', default=[], help='substrings of page paths to keep')
a = ap.parse_args()
# Dagaz design options that change the rules: ZRF options (the design script may set them
# although the rules file does not, as Dagaz's converted scripts were sometimes edited by hand)
# and Dagaz's own (`shared-pieces`: move either side's pieces; `detect-loops`: a chain may not
# come back to a square it passed).
ZOG_OPTIONS = {'pass-partial', 'pass-turn', 'recycle-captures', 'discard-cascades', 'maximal-captures',
               'shared-pieces', 'detect-loops', 'moves-limit'}
DAGAZ_ONLY = {'shared-pieces', 'detect-loops', 'moves-limit'}
HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'dagaz_perft.js')


def run(cmd, t=None):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, errors='replace', timeout=t or a.timeout)
        out, err, to = p.stdout, p.stderr, False
    except subprocess.TimeoutExpired as e:
        dec = lambda x: x.decode('latin1') if isinstance(x, bytes) else (x or '')
        out, err, to = dec(e.stdout), dec(e.stderr), True
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


def pairs():
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


os.makedirs(a.out, exist_ok=True)
res = open(os.path.join(a.out, 'results.jsonl'), 'w')
totals = {m: Counter() for m in a.modes.split(',')}
variants_cache, setups_cache, positions_cache = {}, {}, {}
for htm, js, zrf in pairs():
    # move priorities: the design script names each type in a comment after addPriority
    js_prio = re.findall(r'^\s*design\.addPriority\(\d+\);\s*//\s*(\S+)', open(js, encoding='latin1').read(), re.M)
    m = re.search(r'^[^;]*\(move-priorities([^)]*)\)', open(zrf, encoding='latin1').read(), re.M)
    zrf_prio = m.group(1).split() if m else []
    if zrf not in variants_cache:
        _, c, _, _ = run([a.zrf, 'check', zrf], 60)
        m = re.search(r'^variants: (\d+)', c, re.M)
        variants_cache[zrf] = int(m.group(1)) if m else 1
        m = re.search(r'^board: (\d+) positions', c, re.M)
        positions_cache[zrf] = int(m.group(1)) if m else None
    for mode in a.modes.split(','):
        extra = ['--pure', '--dedupe'] if mode == 'pure' else []
        d, _, derr, dto = run(['node', HARNESS, htm, str(a.depth)] + extra)
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
        for v in range(1, min(variants_cache[zrf], 40) + 1):
            key = (zrf, v)
            if key not in setups_cache:
                _, o, _, _ = run([a.zrf, 'moves', zrf, '--variant', str(v), '--print-position'], 30)
                setups_cache[key] = o.splitlines()[0] if o else ''
            if dsetup is None or norm(setups_cache[key]) != norm(dsetup):
                continue
            z, _, _, zto = run([a.zrf, 'perft', zrf, str(a.depth), '--variant', str(v)])
            cand = (agree(d, z), v, True, z, '')
            if best is None or cand[0] > best[0]:
                best = cand
            if z and best[0] == min(len(d), len(z)):
                break
        if best is None:
            cmd = [a.zrf, 'perft', zrf, str(a.depth), '--variant', '1']
            if dsetup is not None:
                cmd += ['--setup', dsetup]
            z, _, zerr, zto = run(cmd)
            why = 'timeout' if zto else (zerr.strip().splitlines() or [''])[0][:200]
            best = (agree(d, z), 1, False, z, why)
        k = min(len(d), len(best[3]))
        rec = {'page': os.path.relpath(htm, a.dagaz), 'zrf': os.path.relpath(zrf, a.dagaz), 'mode': mode,
               'dagaz': d, 'zrf_counts': best[3], 'variant': best[1], 'same_start': best[2],
               'agree': best[0], 'compared': k, 'unknown_options': unknown, 'options_only_in_dagaz': zog, 'drops_without_count': unl, 'priorities': [js_prio, zrf_prio]}
        res.write(json.dumps(rec) + '\n')
        res.flush()
        t = totals[mode]
        t['pairs'] += 1
        if k == 0:
            t['not compared'] += 1
            print('%s %s: not compared: Dagaz %s%s, zrf %s %s' % (mode, rec['page'], d, ' (timeout)' if dto else '',
                                                              best[3], best[4]), flush=True)
        for depth in range(1, k + 1):
            t['compared at %d' % depth] += 1
            if best[0] >= depth:
                t['agree at %d' % depth] += 1
        if k and best[0] < k:
            print('%s %s: Dagaz %s, zrf %s (variant %d%s)%s' % (
                mode, rec['page'], d, best[3], best[1], '' if best[2] else ', Dagaz start',
                ' unknown options: ' + ' '.join(unknown) if unknown else '') +
                ('; Dagaz sets ' + ' '.join(zog) + ', the rules file not' if zog else '') +
                ('; %s positions in Dagaz, %s in the rules file' % (dpos, positions_cache[zrf])
                 if dpos is not None and positions_cache[zrf] is not None and dpos != positions_cache[zrf] else '') +
                ('; Dagaz drops pieces not held (player:type): ' + ' '.join(unl[:6]) + (' ...' if len(unl) > 6 else '') if unl else '') +
                ('' if js_prio == zrf_prio else '; move priorities %s in Dagaz, %s in the rules file' % (
                    ' '.join(js_prio) or 'none', ' '.join(zrf_prio) or 'none')), flush=True)
for mode, t in totals.items():
    print(mode + ': ' + ', '.join('%s %d' % (k, t[k]) for k in
          ['pairs', 'not compared'] + [f'{w} at {i}' for i in range(1, a.depth + 1) for w in ('compared', 'agree')]))

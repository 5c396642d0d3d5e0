#!/usr/bin/env python3
"""The import graph between the modules of one folder of the crate, and its cycles.

    scripts/module-graph.sh [FOLDER] [--depth N] [--check]
                                  (default interpreter/engine, depth 1)

A module is a file or folder under FOLDER, cut at DEPTH path components (depth 1: each
child of FOLDER, a folder's files counted as one module; FOLDER's own mod.rs is `(root)`).
Module A depends on module B when A's code, outside comments, strings and `#[cfg(test)]`
modules, names an item B defines at its top level (a type, trait, constant, static, or a
free function called by name) or names B's path (`b::`, when no other module has B's
name). An `impl` of another module's type counts as a use of it. Names that two modules
define are left out (they cannot be told apart by text), and so are names a module defines
itself.

Prints each module's dependencies, then the strongly connected components with more than
one module (each a set of modules that import each other in a cycle), then the two-module
cycles among them, then the `impl` blocks that sit outside their type's module: an inherent
`impl T` (or `impl Trait for T`, unless the trait is defined where the impl is) belongs in
the file that defines `T` or in the folder of that module's children (`t.rs` or `t/mod.rs`:
`t/`). Types defined in two files are skipped.

With --check it prints the report only when there is a cycle or an impl block outside its
type's module, and then fails (CI runs it).
"""

import os
import re
import io
import sys
from collections import defaultdict

root_dir = "interpreter/engine"
depth = 1
check = False
args = sys.argv[1:]
while args:
    a = args.pop(0)
    if a == "--check":
        check = True
    elif a == "--depth":
        depth = int(args.pop(0))
    else:
        root_dir = a.rstrip("/")


def module_of(path):
    rel = os.path.relpath(path, root_dir)
    parts = rel[:-3].split(os.sep) if rel.endswith(".rs") else rel.split(os.sep)
    if parts == ["mod"]:
        return "(root)"
    if parts[-1] == "mod":
        parts = parts[:-1]
    return "/".join(parts[:depth])


def strip(text):
    """The code of a file without comments, string and char literals and test modules."""
    cut = re.search(r"^\s*#\[cfg\(test\)\]\s*\n\s*mod \w+\s*\{", text, re.M)
    if cut:
        text = text[: cut.start()]
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]):
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            i += len(m.group(0))
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)


report = io.StringIO()
real_stdout, sys.stdout = sys.stdout, report

files = defaultdict(str)
by_file = {}
for d, _, names in os.walk(root_dir):
    for f in sorted(names):
        if f.endswith(".rs"):
            p = os.path.join(d, f)
            with open(p, encoding="utf-8") as fh:
                by_file[p] = strip(fh.read())
            files[module_of(p)] += by_file[p] + "\n"

item = re.compile(
    r"^(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|trait|const|static|type|union)\s+(?!fn\b)([A-Za-z_]\w*)",
    re.M,
)
free_fn = re.compile(r"^(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?fn\s+([A-Za-z_]\w*)", re.M)
# Names a module binds itself, which shadow another module's item of the same name: enum
# variants, methods, local bindings and closures.
local = re.compile(
    r"^\s+([A-Z]\w*)\s*(?:,|\(|\{|=|$)|\bfn\s+(\w+)|\blet\s+(?:mut\s+)?(\w+)", re.M
)
defs = defaultdict(set)
fns = defaultdict(set)
own = defaultdict(set)
for m, code in files.items():
    defs[m].update(item.findall(code))
    fns[m].update(free_fn.findall(code))
    for groups in local.findall(code):
        own[m].update(g for g in groups if g)
owners = defaultdict(set)
for m in files:
    # `const _` (a check made at compile time) defines no name.
    for name in (defs[m] | fns[m]) - {"_"}:
        owners[name].add(m)
mods = sorted(files)
short = {m: m.split("/")[-1] for m in mods if m != "(root)"}
# A path `b::` is told apart only when one module has that name (`compiled/rays`, `exec/rays`).
short = {m: b for m, b in short.items() if list(short.values()).count(b) == 1}

deps = {m: set() for m in mods}
for m, code in files.items():
    for b, name in short.items():
        if b != m and re.search(r"(?<![\w.])" + re.escape(name) + r"::", code):
            deps[m].add(b)
    for name, who in owners.items():
        if len(who) != 1 or m in who or name in own[m]:
            continue
        (b,) = who
        if name in defs[b]:
            pat = r"(?<![\w.:])" + re.escape(name) + r"\b"
        else:  # a free function: called by name, not as a method or through a path
            pat = r"(?<![\w.:])" + re.escape(name) + r"\s*(?:\(|::<)"
        if re.search(pat, code):
            deps[m].add(b)

print(f"# Module imports under {root_dir} (depth {depth})\n")
for m in mods:
    print(f"{m} -> {', '.join(sorted(deps[m])) or '-'}")

# Strongly connected components (Tarjan).
index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in sorted(deps[v]):
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        comps.append(sorted(comp))


sys.setrecursionlimit(10000)
for m in mods:
    if m not in index:
        visit(m)
cyclic = [c for c in comps if len(c) > 1]
print("\n# Cycles (modules that import each other, directly or through others)\n")
for c in cyclic:
    print("{" + ", ".join(c) + "}")
if not cyclic:
    print("none")
pairs = sorted({tuple(sorted((a, b))) for a in mods for b in deps[a] if a in deps[b]})
print("\n# Two-module cycles\n")
for a, b in pairs:
    print(f"{a} <-> {b}")
if not pairs:
    print("none")

# Impl blocks outside their type's module.
type_item = re.compile(
    r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:struct|enum|trait|union)\s+([A-Za-z_]\w*)", re.M
)
impl_item = re.compile(
    r"^\s*impl\b(?:\s*<[^{]*?>)?\s+(?:([\w:]+)(?:<[^{]*?>)?\s+for\s+)?&?(?:'\w+\s+)?([\w:]+)",
    re.M,
)
defined = defaultdict(set)
for p, code in by_file.items():
    for name in type_item.findall(code):
        defined[name].add(p)


def home(p):
    """The folder of the children of the module defined in file `p`."""
    return os.path.dirname(p) if os.path.basename(p) == "mod.rs" else p[:-3]


def inside(p, q):
    """Whether file `p` is the module of file `q` or one of its descendants."""
    return p == q or p.startswith(home(q) + os.sep)


outside = defaultdict(list)
placed = defaultdict(set)
for p, code in sorted(by_file.items()):
    for trait, ty in impl_item.findall(code):
        ty, trait = ty.split("::")[-1], trait.split("::")[-1]
        if len(defined.get(ty, ())) != 1:
            continue
        (q,) = defined[ty]
        placed[ty].add(os.path.relpath(p, root_dir))
        if trait and len(defined.get(trait, ())) == 1 and inside(p, next(iter(defined[trait]))):
            continue
        if not inside(p, q):
            outside[ty].append(os.path.relpath(p, root_dir))
print("\n# Impl blocks outside their type's module\n")
for ty in sorted(outside):
    (q,) = defined[ty]
    where = ", ".join(sorted(set(outside[ty])))
    print(f"{ty} ({os.path.relpath(q, root_dir)}): {where}")
if not outside:
    print("none")
sys.stdout = real_stdout
failed = bool(cyclic or outside)
if failed or not check:
    print(report.getvalue(), end="")
sys.exit(1 if check and failed else 0)

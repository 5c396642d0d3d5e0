#!/usr/bin/env bash
# Perft of zrf beside Dagaz (Konstantin Kamenev's JavaScript engine for ZRF games) on the
# games of the Dagaz repository, each paired with the rules file Dagaz converted it from.
#   scripts/dagaz-diff.sh [--depth N] [--timeout S] [--modes pure,full] [--only SUBSTRING...]
# Fetches Dagaz (github.com/stepney141/Dagaz) into target/dagaz-diff on first use, or takes
# DAGAZ_SRC (a checkout or a bare git directory). Needs git, node and python3; underscore.js
# from Debian's libjs-underscore or npm. Nothing of Dagaz is copied into this repository.
# `--cluster local|auto|HOST:PORT [--results FILE]` compares the pages on a Ray cluster
# (PYTHON names an interpreter with the zrf package; docs/cluster.md).
set -euo pipefail
cd "$(dirname "$0")/.."
work=target/dagaz-diff
mkdir -p "$work"
if [ ! -d "$work/src/debug/games" ]; then
  src=${DAGAZ_SRC:-}
  if [ -z "$src" ]; then
    src=$work/Dagaz.git
    [ -d "$src" ] || git clone --quiet --bare --depth 1 https://github.com/stepney141/Dagaz "$src"
  fi
  if [ -d "$src/.git" ]; then src=$src/.git; fi
  mkdir -p "$work/src"
  git --git-dir="$src" archive HEAD src/debug/kernel src/debug/games | tar -x -C "$work"
fi
if [ -z "${UNDERSCORE:-}" ]; then
  UNDERSCORE=/usr/share/javascript/underscore/underscore.js
  if [ ! -f "$UNDERSCORE" ]; then
    [ -d "$work/npm/node_modules/underscore" ] || npm install --silent --prefix "$work/npm" underscore >/dev/null
    UNDERSCORE=$PWD/$work/npm/node_modules/underscore/underscore.js
  fi
fi
export UNDERSCORE
cargo build --release --quiet
exec "${PYTHON:-python3}" scripts/dagaz_diff.py --dagaz "$work/src/debug" --zrf target/release/zrf --out "$work" "$@"

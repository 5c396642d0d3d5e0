#!/usr/bin/env bash
# Differential test against pydraughts and Fairy-Stockfish: 200 random games per reference
# game, comparing the legal move sets at every ply (about 30 minutes on two cores).
# Installs the two libraries in a virtual environment under target/ on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=target/oracle-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet pydraughts pyffish
fi
cargo build --release --quiet
exec "$venv/bin/python" scripts/differential.py "$@"

#!/usr/bin/env bash
# Installs what scripts/match.py needs (python-chess, pydraughts; Debian's stockfish), builds
# zrf in release mode, then runs scripts/match.py with the arguments given.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import chess, draughts" 2>/dev/null || python3 -m pip install -q chess pydraughts
if [ ! -x /usr/games/stockfish ] && ! command -v stockfish >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq stockfish
fi
cargo build --release -q
exec python3 scripts/match.py "$@"

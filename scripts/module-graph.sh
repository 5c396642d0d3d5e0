#!/usr/bin/env bash
# The import graph between the modules of a folder of the crate (default interpreter/engine)
# and its cycles; see scripts/module_graph.py.
#
#   scripts/module-graph.sh [FOLDER] [--depth N]
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/module_graph.py "$@"

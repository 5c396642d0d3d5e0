#!/usr/bin/env bash
# zrf against Fairy-Stockfish: perft with bulk counting (the last level counted without making
# its moves), timed side by side (CPU time, user+sys, median of interleaved rounds).
# Not part of `cargo test`.
#
#   scripts/fsf-bench.sh [--rounds N] [--only chess crazyhouse capablanca]
#   scripts/fsf-bench.sh --build-only          # fetch and compile Fairy-Stockfish only
#
# It builds Fairy-Stockfish twice from its public source, outside this repository (nothing of
# it is copied into it): the classical build (chess, Crazyhouse) and a largeboards=yes build
# (Capablanca's 10x8 board), both with ARCH=x86-64-bmi2.
#   FSF_SRC  fairy-stockfish/Fairy-Stockfish, a checkout or a bare git directory (its HEAD is
#            exported). Unset, the script tries `git clone https://github.com/...`.
# The build goes to FSF_BUILD_DIR (default ${TMPDIR:-/tmp}/zrf-fsf-build), reused by later runs.
# Then scripts/fsf_bench.py times `zrf perft FILE D --bulk --only` and `go perft D`.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
build="${FSF_BUILD_DIR:-${TMPDIR:-/tmp}/zrf-fsf-build}"
case "$build" in
  "$repo"|"$repo"/*) echo "FSF_BUILD_DIR must be outside the repository" >&2; exit 2 ;;
esac
build_only=0
args=()
for a in "$@"; do
  if [ "$a" = "--build-only" ]; then build_only=1; else args+=("$a"); fi
done
for tool in g++ make git python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "needs $tool" >&2; exit 2; }
done

src="$build/src"
if [ ! -e "$src/.zrf-source" ]; then
  rm -rf "$src" && mkdir -p "$src"
  if [ -n "${FSF_SRC:-}" ] && [ -f "$FSF_SRC/HEAD" ] && [ -d "$FSF_SRC/objects" ]; then
    git --git-dir="$FSF_SRC" archive HEAD | tar -x -C "$src"
    echo "$(git --git-dir="$FSF_SRC" rev-parse --short HEAD)" >"$src/.zrf-source"
  elif [ -n "${FSF_SRC:-}" ] && [ -d "$FSF_SRC/src" ]; then
    cp -a "$FSF_SRC/." "$src/"
    echo "$(git -C "$FSF_SRC" rev-parse --short HEAD 2>/dev/null || echo '?')" >"$src/.zrf-source"
  elif git clone --quiet --depth 1 https://github.com/fairy-stockfish/Fairy-Stockfish.git "$src" 2>/dev/null; then
    git -C "$src" rev-parse --short HEAD >"$src/.zrf-source"
  else
    rm -rf "$src"
    echo "could not clone Fairy-Stockfish (no network?); give a checkout as FSF_SRC=/path" >&2
    exit 2
  fi
fi

# fsf_build NAME MAKE-ARGS...: builds Fairy-Stockfish into $build/NAME once.
fsf_build() {
  local name="$1"; shift
  [ -x "$build/$name" ] && return 0
  echo "building Fairy-Stockfish ($name, about 3 minutes) ..." >&2
  rm -rf "$build/work" && cp -a "$src" "$build/work"
  make -C "$build/work/src" -j"$(nproc)" build ARCH=x86-64-bmi2 "$@" >"$build/$name.log" 2>&1 \
    || { tail -20 "$build/$name.log" >&2; exit 1; }
  cp "$build/work/src/stockfish" "$build/$name"
  rm -rf "$build/work"
}
fsf_build fsf-classic
fsf_build fsf-large largeboards=yes
[ "$build_only" -eq 1 ] && { echo "Fairy-Stockfish in $build" >&2; exit 0; }

cd "$repo"
cargo build --release --quiet
exec python3 scripts/fsf_bench.py --zrf target/release/zrf --fsf "$build/fsf-classic" \
  --fsf-large "$build/fsf-large" --fsf-source "$(cat "$src/.zrf-source")" ${args[@]+"${args[@]}"}

#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind) of zrf's perft at small depths: the same
# four workloads as scripts/rbg-bench.sh, repeatable to a fraction of a percent on a loaded
# machine, so that a speed step is measured even when wall and CPU times are noise.
#
#   scripts/callgrind.sh [chess|checkers|international|crazyhouse ...]
#
# For each workload it runs `zrf perft FILE D --only` and `zrf perft FILE 1 --only` under
# callgrind; the difference is the tree search without loading, also given per leaf. When the
# RBG perft programs built by scripts/rbg-bench.sh are present (RBG_BUILD_DIR, default
# ${TMPDIR:-/tmp}/zrf-rbg-build), their counts are listed beside zrf's (the same method; the
# x86-64-v3 builds perft-vg, as valgrind cannot run the native builds' AVX-512 code).
# Instruction counts are not times (the two programs differ in memory traffic and branches),
# but their ratio moves with real changes only.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null 2>&1 || { echo "needs valgrind (Debian package valgrind)" >&2; exit 2; }
rbg="${RBG_BUILD_DIR:-${TMPDIR:-/tmp}/zrf-rbg-build}/out"
cargo build --release --quiet
zrf=target/release/zrf

# name | zrf arguments | RBG program | depth | published leaves
workloads=(
  "chess|games/chess.zrf|chess|4|197281"
  "checkers|games/checkers.zrf|englishDraughts|7|179740"
  "international|games/international-draughts.zrf|internationalDraughts|5|27117"
  "crazyhouse|games/chess.zrf --variant Crazyhouse||4|197281"
)

# ir CMD...: the instructions CMD executes (callgrind's "Collected" total).
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# group N: N with thousands separators.
group() {
  echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'
}

# count CMD...: the last number CMD prints (the leaf count of zrf and of RBG's perft).
count() {
  "$@" 2>/dev/null | grep -Eo '[0-9]+$' | tail -1
}

echo "zrf $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- interpreter stdlib || echo +changes); instructions (callgrind Ir)."
echo
echo "| work | zrf search | zrf per leaf | zrf load | rbg2cpp search | rbg2cpp per leaf | zrf / rbg2cpp |"
echo "|---|---|---|---|---|---|---|"
status=0
for w in "${workloads[@]}"; do
  IFS='|' read -r name zargs prog depth leaves <<<"$w"
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  read -r -a za <<<"$zargs"
  n=$(count "$zrf" perft "${za[@]}" "$depth" --only)
  if [ "$n" != "$leaves" ]; then
    echo "zrf $name perft $depth: $n, published $leaves" >&2
    status=1
  fi
  base=$(ir "$zrf" perft "${za[@]}" 1 --only)
  full=$(ir "$zrf" perft "${za[@]}" "$depth" --only)
  search=$((full - base))
  rcells="- | - | -"
  if [ -n "$prog" ] && [ -x "$rbg/$prog/perft-vg" ]; then
    rn=$(count "$rbg/$prog/perft-vg" "$depth")
    [ "$rn" != "$leaves" ] && echo "note: rbg2cpp $name perft $depth: $rn, published $leaves" >&2
    rbase=$(ir "$rbg/$prog/perft-vg" 1)
    rfull=$(ir "$rbg/$prog/perft-vg" "$depth")
    rsearch=$((rfull - rbase))
    rcells="$(group "$rsearch") | $((rsearch / leaves)) | $(awk -v a="$search" -v b="$rsearch" 'BEGIN { printf "%.2f", a / b }')"
  fi
  printf "| %s perft %s (%s) | %s | %d | %s | %s |\n" "$name" "$depth" "$(group "$leaves")" \
    "$(group "$search")" "$((search / leaves))" "$(group "$base")" "$rcells"
done
exit $status

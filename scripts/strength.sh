#!/usr/bin/env bash
# Strength tables for every shipped game and variant (issue: the computer opponent).
#
#   scripts/strength.sh [GAMES] [JOBS]     default 20 games per match, 2 matches at a time
#
# For each game and variant it plays two 20-game matches with `zrf selfplay`:
#   1. the default engine at 0.1 s per move against the random mover, from the start (the
#      random mover already makes every game different; the engine, told that its opponent
#      moves at random, plays for the expected result where it can search to the end);
#   2. alpha-beta at depth 4 against alpha-beta at depth 2, the first two plies random so
#      that the deterministic engines play twenty different games.
# Each match's table goes to target/strength/, and a summary with one line per match to
# target/strength/summary.md. It takes hours (a depth-4 match in a drop game alone takes about
# half an hour): it is not part of `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-20}
JOBS=${2:-2}
# ZRF may name another build of zrf (a copy, so that rebuilding during the run is safe).
if [ -z "${ZRF:-}" ]; then
  cargo build --release --quiet
  ZRF=target/release/zrf
fi
OUT=${OUT:-target/strength}
# MATCHES=random or MATCHES=depth runs only the matches against the random mover, or only the
# depth matches (the latter take hours).
# CLUSTER=local|auto|HOST:PORT plays each match's games on a Ray cluster through the Python
# package (`python -m zrf.cluster selfplay`, the same table; docs/cluster.md), one match at a
# time; PYTHON names the interpreter that has the package (default python3), and finished games
# are kept in $RESULTS (target/strength-results.jsonl), so a rerun resumes; Ray's messages go
# to $OUT/NAME.log beside each table.
MATCHES=${MATCHES:-all}
# FILES names the rules files to play (default: every shipped game, games/*.zrf).
FILES=${FILES:-games/*.zrf}
rm -rf "$OUT"; mkdir -p "$OUT"

jobs_file=$OUT/jobs.txt
: > "$jobs_file"
for f in $FILES; do
  n=$($ZRF check "$f" --list-variants | grep -c '\[')
  for v in $(seq 1 "$n"); do
    [ "$MATCHES" = depth ] || echo "$f|$v|time 0.1s|random|0" >> "$jobs_file"
    [ "$MATCHES" = random ] || echo "$f|$v|depth 4|depth 2|2" >> "$jobs_file"
  done
done

run_one() {
  IFS='|' read -r f v a b plies <<< "$1"
  name="$(basename "$f" .zrf)-$v-$(echo "$a-vs-$b" | tr ' .' '__')"
  start=$(date +%s)
  if [ -n "$CLUSTER" ]; then
    "$PYTHON" -m zrf.cluster --address "$CLUSTER" --quiet --results "$RESULTS" \
      selfplay "$f" --variant "$v" --games "$GAMES" --engine "$a" --vs "$b" \
      --seed 1 --random-plies "$plies" > "$OUT/$name.txt" 2> "$OUT/$name.log"
  else
    "$ZRF" selfplay "$f" --variant "$v" --games "$GAMES" --engine "$a" --vs "$b" \
      --seed 1 --random-plies "$plies" > "$OUT/$name.txt" 2>&1
  fi
  echo "seconds: $(( $(date +%s) - start ))" >> "$OUT/$name.txt"
  echo "file: $(basename "$f")" >> "$OUT/$name.txt"
}
export -f run_one
CLUSTER=${CLUSTER:-}
PYTHON=${PYTHON:-python3}
# Finished games, kept outside $OUT so that a rerun after an interruption resumes.
RESULTS=${RESULTS:-target/strength-results.jsonl}
# Through a cluster, the cluster runs the games of one match in parallel.
[ -n "$CLUSTER" ] && JOBS=1
export GAMES OUT ZRF CLUSTER PYTHON RESULTS
tr '\n' '\0' < "$jobs_file" | xargs -0 -P "$JOBS" -I{} bash -c 'run_one "$@"' _ {}

{
  echo "| game | variant | A | B | A wins | draws | A losses | A score | avg plies | seconds |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for t in "$OUT"/*.txt; do
    [ "$(basename "$t")" = jobs.txt ] && continue
    title=$(head -1 "$t")
    a=$(sed -n 's/^A = //p' "$t"); b=$(sed -n 's/^B = //p' "$t")
    row=$(grep '^all ' "$t" | awk '{print $3" | "$4" | "$5" | "$6" | "$7}')
    secs=$(sed -n 's/^seconds: //p' "$t")
    echo "| $(sed -n 's/^file: //p' "$t") | $title | $a | $b | $row | $secs |"
  done
} > "$OUT/summary.md"
cat "$OUT/summary.md"

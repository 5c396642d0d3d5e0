#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind) of `zrf lsp`'s re-analysis of a keystroke and
# of formatting, on the workloads of `cargo bench --bench edit`; immune to the machine's load.
#
#   scripts/callgrind-edit.sh
#
# Each workload is run with 1 and with 6 samples of one iteration; the difference divided by 5
# is one iteration, without the start-up and the reading of the files.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null 2>&1 || { echo "needs valgrind (Debian package valgrind)" >&2; exit 2; }
bench=$(cargo bench --bench edit --no-run --message-format=json 2>/dev/null \
  | grep '"kind":\["bench"\]' | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -1)
[ -x "$bench" ] || { echo "cannot build benches/edit.rs" >&2; exit 2; }

ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bench" --bench --sample-size 1 \
    --sample-count "$1" "$2" 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

for w in cubic-chess suzumu-shogi ko-shogi "three shogi" format_cubic_chess; do
  one=$(ir 1 "$w")
  six=$(ir 6 "$w")
  echo "$w: $(( (six - one) / 5 )) instructions an iteration"
done

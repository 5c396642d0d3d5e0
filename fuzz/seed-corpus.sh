#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ for every target. Run from anywhere; fuzz/corpus is git-ignored.
# Rules files seed the rules targets; a few records and positions seed the record and setup
# targets (positions need a built zrf: target/debug/zrf or target/release/zrf).
set -euo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$fuzz")"
dagaz="$repo/tests/corpus/dagaz"
rules_targets=(parse_never_panics load_never_panics play_never_panics)
for t in "${rules_targets[@]}" record_native setup_text play_random serve_request; do
  mkdir -p "$fuzz/corpus/$t"
done
n=0
copy() {
  # The seed's name is its content hash, so re-running adds nothing twice.
  local f="$1" name
  name="$(sha1sum "$f" | cut -c1-40)"
  for t in "${rules_targets[@]}"; do
    cp "$f" "$fuzz/corpus/$t/$name"
  done
  n=$((n + 1))
}
shopt -s nullglob
for f in "$repo"/games/*.zrf "$repo"/stdlib/*.zrf; do
  copy "$f"
done
if [ -d "$dagaz" ]; then
  while IFS= read -r -d '' f; do
    copy "$f"
  done < <(find "$dagaz" -type f -name '*.zrf' -print0)
else
  echo "note: $dagaz is absent; seeding from games/ and stdlib/ only" >&2
fi
echo "seeded $n files into ${rules_targets[*]}"

# Writes stdin as a seed of target $1.
seed() {
  local tmp name
  tmp="$(mktemp)"
  cat > "$tmp"
  name="$(sha1sum "$tmp" | cut -c1-40)"
  mv "$tmp" "$fuzz/corpus/$1/$name"
}

# Records, as `save` writes them (paths relative to the repository, as the target reads them).
seed record_native <<'REC'
[Game "games/chess.zrf"]
[Variant "Chess"]
[Date "2025-01-31"]
[Result "White wins (checkmated)"]

1. e2-e4 e7-e5
2. d1-h5 b8-c6
3. f1-c4 g8-f6
4. h5xf7
REC
seed record_native <<'REC'
[Game "games/chess.zrf"]
[Variant "Crazyhouse"]
[Setup "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pp] w KQkq - 2 3"]
[Result "*"]

3. f3xe5 c6xe5 {a comment
over lines} 4. P@d5 ; the rest
REC
seed record_native <<'REC'
[Game "games/checkers.zrf"]
[Variant "Checkers"]
[Setup "W:W18:B14,K22"]
[Result "*"]

1. 18x9
REC
seed record_native <<'REC'
[Game "games/tic-tac-toe.zrf"]
[Setup "turn 0; last - -;\noff X man 5; off O man 4"]

1. M@b2 M@a1
2. M@c3 M@a3 *
REC
seed record_native <<'REC'
[Game "games/international-draughts.zrf"]

1. 32-28 19-23 2. 28x19 14x23
REC

# Positions: three bytes pick the game (its index among games/*.zrf, sorted, then the
# variant), then the text.
files=("$repo"/games/*.zrf)
zrf=""
for z in "$repo/target/release/zrf" "$repo/target/debug/zrf"; do
  if [ -x "$z" ]; then zrf="$z"; break; fi
done
for i in "${!files[@]}"; do
  prefix="$(printf '\\x%02x\\x%02x\\x00' $((i % 256)) $((i / 256)))"
  if [ -n "$zrf" ]; then
    native="$("$zrf" moves "${files[$i]}" --print-position 2>/dev/null | head -1 || true)"
    [ -n "$native" ] && { printf "$prefix"; printf '%s' "$native"; } | seed setup_text
  fi
  case "${files[$i]##*/}" in
    chess.zrf)
      for fen in "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" \
                 "r3k2r/8/8/8/4pP2/8/8/R3K2R b Kq f3 12 40"; do
        { printf "$prefix"; printf '%s' "$fen"; } | seed setup_text
      done ;;
    *draughts*.zrf|checkers.zrf)
      for pdn in "W:W18:B14,K22" "B:W14,19,K32:B1,2,K22"; do
        { printf "$prefix"; printf '%s' "$pdn"; } | seed setup_text
      done ;;
  esac
done
[ -z "$zrf" ] && echo "note: no built zrf; setup_text has no native-position seeds" >&2
# play_random needs no seeds: any bytes pick a game and moves.
echo "seeded record_native and setup_text"

# Requests to the web board: a flags byte (method in bits 0-2; 8: the token, 16: a good Host,
# 32: JSON content type, 64: `{game}` is the newest game), the target, headers, a blank line,
# the body. \x79 is a POST with all four, \x58 a GET with the token, Host and `{game}`.
request() {
  local flags="$1" target="$2" body="${3:-}"
  { printf "$flags"; printf '%s\n\n%s' "$target" "$body"; } | seed serve_request
}
request '\x79' /api/games '{}'
request '\x79' /api/games '{"variant": "Crazyhouse"}'
for cmd in '{"cmd": "move", "move": "e2-e4"}' '{"cmd": "undo"}' '{"cmd": "redo"}' \
           '{"cmd": "new"}' '{"cmd": "stop"}' '{"cmd": "save", "format": "pgn"}' \
           '{"cmd": "setup", "position": "8/8/8/8/8/8/8/K6k w - - 0 1"}' \
           '{"cmd": "engine", "setting": "alphabeta depth 2"}' \
           '{"cmd": "computer", "sides": [false, true]}' '{"cmd": "variant", "variant": "2"}' \
           '{"cmd": "load", "name": "x.pgn", "record": "[Game \"chess.zrf\"]\n\n1. e4 e5 *\n"}' \
           '{"cmd": "load", "name": "x.zsg", "record": "version=Zillions 2.0\nRulesFile=../x.zrf\n"}'; do
  request '\x79' '/api/games/{game}' "$cmd"
done
for target in '/api/games/{game}' '/' '/page.js' '/images/0.png' '/?token=fuzz-token'; do
  request '\x58' "$target"
done
printf '\x01/api/games\nHost: evil.example\nOrigin: http://evil.example\nContent-Type: text/plain\n\n{}' \
  | seed serve_request
echo "seeded serve_request"

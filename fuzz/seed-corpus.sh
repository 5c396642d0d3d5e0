#!/usr/bin/env bash
# Copies the rules files the project knows into fuzz/corpus/<target>/ as seeds.
# Run from anywhere; fuzz/corpus is git-ignored.
set -euo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$fuzz")"
dagaz="$repo/tests/corpus/dagaz"
targets=(parse_never_panics load_never_panics)
for t in "${targets[@]}"; do
  mkdir -p "$fuzz/corpus/$t"
done
n=0
copy() {
  # The seed's name is its content hash, so re-running adds nothing twice.
  local f="$1" name
  name="$(sha1sum "$f" | cut -c1-40)"
  for t in "${targets[@]}"; do
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
echo "seeded $n files into ${targets[*]}"

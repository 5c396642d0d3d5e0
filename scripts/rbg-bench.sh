#!/usr/bin/env bash
# zrf against compiled Regular Boardgames (rbg2cpp): perft with every leaf move made, timed
# side by side (CPU time, user+sys, median of interleaved rounds). Not part of `cargo test`.
#
#   scripts/rbg-bench.sh [--rounds N] [--only chess|checkers|international|crazyhouse ...]
#   scripts/rbg-bench.sh --build-only          # fetch and compile the RBG perft programs only
#
# It builds rbg2cpp's perft programs for chess, English checkers and international draughts
# from the public sources, outside this repository (nothing of them is copied into it):
#   RBG2CPP_SRC    uicus/rbg2cpp     (the compiler and its perft driver test/perft.cpp)
#   RBGPARSER_SRC  uicus/rbgParser   (the parser library the compiler links)
#   RBGGAMES_SRC   marekesz/rbgGames (the game descriptions, games/*.rbg)
# Each may be a checkout, or a bare git directory (its HEAD is exported). Unset, the script
# tries `git clone https://github.com/...`. The build goes to RBG_BUILD_DIR (default
# ${TMPDIR:-/tmp}/zrf-rbg-build) and is reused by later runs. The generated C++ needs
# Boost (Debian libboost-dev), installed with apt-get when missing.
#
# Then scripts/rbg_bench.py times `zrf perft FILE D --only` (release build) and the RBG
# programs, checks every count against the published perft figures and prints a Markdown
# table ready for the README's "Speed" section.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
build="${RBG_BUILD_DIR:-${TMPDIR:-/tmp}/zrf-rbg-build}"
case "$build" in
  "$repo"|"$repo"/*) echo "RBG_BUILD_DIR must be outside the repository" >&2; exit 2 ;;
esac

build_only=0
args=()
for a in "$@"; do
  if [ "$a" = "--build-only" ]; then build_only=1; else args+=("$a"); fi
done

sudo_cmd() {
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo "$@"; else "$@"; fi
}

# --- tools -------------------------------------------------------------------------------
for tool in g++ make git python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "needs $tool" >&2; exit 2; }
done
if [ ! -f /usr/include/boost/version.hpp ]; then
  echo "installing libboost-dev (the generated C++ includes Boost) ..." >&2
  (sudo_cmd apt-get update -qq && sudo_cmd apt-get install -y -qq libboost-dev) >/dev/null 2>&1 \
    || { echo "could not install libboost-dev; install Boost >= 1.67 headers and re-run" >&2; exit 2; }
fi

# --- sources -----------------------------------------------------------------------------
# fetch_source NAME VAR URL: puts the source tree at $build/NAME.
fetch_source() {
  local name="$1" var="$2" url="$3"
  local src="${!var:-}" dest="$build/$1"
  [ -e "$dest/.zrf-source" ] && return 0
  rm -rf "$dest" && mkdir -p "$dest"
  if [ -n "$src" ]; then
    if [ -f "$src/HEAD" ] && [ -d "$src/objects" ]; then
      git --git-dir="$src" archive HEAD | tar -x -C "$dest"
      echo "$src $(git --git-dir="$src" rev-parse --short HEAD)" >"$dest/.zrf-source"
    elif [ -d "$src" ]; then
      cp -a "$src/." "$dest/"
      echo "$src $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')" >"$dest/.zrf-source"
    else
      echo "$var=$src is not a directory" >&2; exit 2
    fi
  elif git clone --quiet --depth 1 "$url" "$dest" 2>/dev/null; then
    echo "$url $(git -C "$dest" rev-parse --short HEAD)" >"$dest/.zrf-source"
  else
    rm -rf "$dest"
    cat >&2 <<EOF
could not clone $url (no network?).
Provide the three Regular Boardgames sources as checkouts or bare git directories:
  RBG2CPP_SRC=/path/to/rbg2cpp RBGPARSER_SRC=/path/to/rbgParser \\
  RBGGAMES_SRC=/path/to/rbgGames scripts/rbg-bench.sh
(from https://github.com/uicus/rbg2cpp, https://github.com/uicus/rbgParser and
https://github.com/marekesz/rbgGames)
EOF
    exit 2
  fi
}
mkdir -p "$build"
# A recursive checkout of rbg2cpp carries the other two as submodules.
if [ -n "${RBG2CPP_SRC:-}" ]; then
  [ -z "${RBGPARSER_SRC:-}" ] && [ -d "$RBG2CPP_SRC/rbgParser/src" ] && RBGPARSER_SRC="$RBG2CPP_SRC/rbgParser"
  [ -z "${RBGGAMES_SRC:-}" ] && [ -d "$RBG2CPP_SRC/rbgGames/games" ] && RBGGAMES_SRC="$RBG2CPP_SRC/rbgGames"
fi
fetch_source rbg2cpp RBG2CPP_SRC https://github.com/uicus/rbg2cpp.git
fetch_source rbgParser RBGPARSER_SRC https://github.com/uicus/rbgParser.git
fetch_source rbgGames RBGGAMES_SRC https://github.com/marekesz/rbgGames.git

# --- the compiler ------------------------------------------------------------------------
# rbg2cpp's Makefile expects the parser and the games as its submodules.
for sub in rbgParser rbgGames; do
  rm -rf "$build/rbg2cpp/$sub"
  ln -s "../$sub" "$build/rbg2cpp/$sub"
done
if [ ! -x "$build/rbg2cpp/bin/rbg2cpp" ]; then
  echo "building rbg2cpp in $build/rbg2cpp (about 2 minutes) ..." >&2
  make -C "$build/rbg2cpp" -j"$(nproc)" rbg2cpp >"$build/rbg2cpp-make.log" 2>&1 \
    || { tail -20 "$build/rbg2cpp-make.log" >&2; exit 1; }
fi

# --- the perft programs --------------------------------------------------------------------
# As rbg2cpp's `make perft_GAME`: the game compiled to reasoner.{hpp,cpp}, linked with the
# repository's test/perft.cpp (which copies the state and applies every move, leaves too) and
# built with the Makefile's RELEASE_FLAGS. A second build, perft-vg, targets x86-64-v3 instead
# of the native CPU, for scripts/callgrind.sh: valgrind stops at AVX-512 instructions.
flags=(-std=c++17 -Ofast -flto -s -DNDEBUG -DRBG_RANDOM_GENERATOR=0)
for game in chess englishDraughts internationalDraughts; do
  out="$build/out/$game"
  if [ ! -x "$out/perft" ] || [ ! -x "$out/perft-vg" ]; then
    echo "compiling the RBG perft program for $game ..." >&2
    mkdir -p "$out"
    (cd "$out" \
      && "$build/rbg2cpp/bin/rbg2cpp" -o reasoner "$build/rbgGames/games/$game.rbg" \
      && cp "$build/rbg2cpp/test/perft.cpp" . \
      && g++ "${flags[@]}" -march=native -I. -o perft reasoner.cpp perft.cpp \
      && g++ "${flags[@]}" -march=x86-64-v3 -I. -o perft-vg reasoner.cpp perft.cpp) \
      >"$out/build.log" 2>&1 \
      || { tail -20 "$out/build.log" >&2; exit 1; }
  fi
done
[ "$build_only" -eq 1 ] && { echo "RBG perft programs in $build/out" >&2; exit 0; }

# --- zrf and the timing --------------------------------------------------------------------
cd "$repo"
cargo build --release --quiet
sources="rbg2cpp $(cut -d' ' -f2 "$build/rbg2cpp/.zrf-source"), rbgParser $(cut -d' ' -f2 "$build/rbgParser/.zrf-source"), rbgGames $(cut -d' ' -f2 "$build/rbgGames/.zrf-source")"
exec python3 scripts/rbg_bench.py --zrf target/release/zrf --rbg "$build/out" \
  --rbg-sources "$sources" ${args[@]+"${args[@]}"}

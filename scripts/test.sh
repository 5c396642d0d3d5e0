#!/usr/bin/env bash
# The README's test command: the Rust tests (`cargo test`), then the Python package's tests.
#
# The Python part makes a virtual environment in target/pyenv (with the interpreter named by
# $PYTHON, python3 by default; CPython 3.9 or newer), installs the pinned test requirements of
# python/requirements-test.txt into it (again only when that file changes), builds the `zrf`
# package in release mode with maturin (a wheel in target/wheels) and installs it there, and
# runs `pytest python/tests`. Arguments are passed to pytest (e.g. `scripts/test.sh -k openspiel`);
# ZRF_SKIP_CARGO_TEST=1 skips the Rust tests while working on the Python side.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${ZRF_SKIP_CARGO_TEST:-0}" != 1 ]; then
  cargo test
fi

if [ ! -f python/Cargo.toml ]; then
  echo "scripts/test.sh: no python/Cargo.toml, so no Python package to test" >&2
  exit 0
fi

PYTHON=${PYTHON:-python3}
VENV=target/pyenv

# Debian splits venv (and its ensurepip) out of python3 into python3-venv.
make_venv() {
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
}
if [ ! -x "$VENV/bin/python" ]; then
  if ! make_venv >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1; then
      SUDO=""
      [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo"
      minor=$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
      ($SUDO apt-get update -qq && { $SUDO apt-get install -y -qq "python$minor-venv" \
        || $SUDO apt-get install -y -qq python3-venv; }) >/dev/null 2>&1 \
        || echo "warning: could not install python3-venv" >&2
    fi
    make_venv
  fi
fi

# The requirements are installed again only when their file changed since the last install.
STAMP="$VENV/requirements-test.installed"
if ! cmp -s python/requirements-test.txt "$STAMP"; then
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  "$VENV/bin/python" -m pip install --quiet -r python/requirements-test.txt
  cp python/requirements-test.txt "$STAMP"
fi

# A wheel installed as `pip install .` would, not an editable install: that would write the
# native module into python/zrf in the source tree.
rm -rf target/wheels
"$VENV/bin/maturin" build --release --quiet --interpreter "$VENV/bin/python" --out target/wheels
"$VENV/bin/python" -m pip install --quiet --force-reinstall --no-deps target/wheels/zrf-*.whl

"$VENV/bin/python" -m pytest -p no:cacheprovider python/tests "$@"

# Sourced by bin/run and bin/test: a virtualenv in .venv with the project installed.
# Works on a fresh Debian-like machine with Python 3.11 (installs python3-venv if needed, as root).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null; then
    for candidate in python3.11 python3.12 python3.13; do
        command -v "$candidate" >/dev/null && PYTHON=$candidate && break
    done
fi
"$PYTHON" -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null || {
    echo "Python 3.11 or newer is required (found: $("$PYTHON" --version 2>&1))" >&2; exit 1; }

apt_install() { "$ROOT/bin/apt-install" "$@"; }

# The venv is made without pip and the interpreter's own pip installs into it (pip --python, pip >= 22.3):
# making a venv with pip compiles a copy of pip first, a third of a first start on a busy machine.
if [ ! -x .venv/bin/python ]; then
    VENV_ARGS=()
    "$PYTHON" -m pip --python "$PYTHON" --version >/dev/null 2>&1 && VENV_ARGS=(--without-pip)
    "$PYTHON" -m venv "${VENV_ARGS[@]}" .venv 2>/dev/null || {
        rm -rf .venv; apt_install python3-venv; "$PYTHON" -m venv .venv; }
fi
# Modules are compiled at install (no --no-compile): with PYTHONDONTWRITEBYTECODE set, as on this machine,
# Python would otherwise compile every import on every start (a second start 11 s -> 23 s).
pip_install() {
    local pip=(.venv/bin/python -m pip)
    [ -x .venv/bin/pip ] || pip=("$PYTHON" -m pip --python .venv/bin/python)
    # uv installs the same versions as pip from the same PyPI in a fraction of the time: into a fresh venv,
    # 18 s against pip's 70 s here (both with their caches warm, both compiling).  A minor release of
    # uv may change its command line (0.x), so the series is pinned.  Where uv cannot be had or fails (no
    # PyPI, only a mirror pip is configured for: uv reads no pip.conf), pip does the install as before.
    [ -x .venv/bin/uv ] || "${pip[@]}" install -q "uv==0.13.*" 2>/dev/null || true
    if [ -x .venv/bin/uv ] && .venv/bin/uv pip install -q --python .venv/bin/python --compile-bytecode pip "$@"; then
        return 0
    fi
    [ -x .venv/bin/uv ] && echo "uv could not install the project; pip installs it instead" >&2
    "${pip[@]}" install -q pip "$@"  # pip too, for .venv/bin/pip later
}
# What is installed is stamped with the hash of both pyproject files and the extras: bin/run needs none,
# bin/test "[test,docs]"; a venv made with more extras than asked for is ready too (no second install).
EXTRAS=${EXTRAS:-}
HASH=$(cat pyproject.toml clients/python/pyproject.toml | sha256sum | cut -c1-16)
installed() {
    local stamp wanted
    for stamp in .venv/.installed-"$HASH"*; do
        [ -e "$stamp" ] || continue
        for wanted in ${EXTRAS//[\[\],]/ }; do
            [[ "$stamp" =~ [\[,]$wanted[],] ]] || continue 2
        done
        return 0
    done
    return 1
}

# Browser assets (code editor, KaTeX, htmx) come from npm and are served from
# node_modules as static files; there is no build step.  npm runs beside pip: neither needs the other.
NPM=
if [ -f package-lock.json ]; then
    command -v npm >/dev/null || apt_install nodejs npm
    NPM_STAMP=node_modules/.installed-$(sha256sum package-lock.json | cut -c1-16)
    if [ ! -e "$NPM_STAMP" ]; then
        (npm ci --no-audit --no-fund --loglevel=error && touch "$NPM_STAMP") &
        NPM=$!
    fi
fi
if ! installed; then
    # The project, and the command-line client and notebook magic (docs/students/cli.md), a package
    # of its own: one resolution.
    pip_install -e ".$EXTRAS" -e clients/python
    touch ".venv/.installed-$HASH$EXTRAS"
fi
if [ -n "$NPM" ]; then
    wait "$NPM" || { echo "npm ci failed" >&2; exit 1; }
fi
export PATH="$ROOT/.venv/bin:$PATH"

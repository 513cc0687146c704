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

apt_install() {
    [ "$(id -u)" = 0 ] || { echo "please install: $*" >&2; return 1; }
    export DEBIAN_FRONTEND=noninteractive
    if [ -z "${APT_UPDATED:-}" ]; then apt-get update -qq; APT_UPDATED=1; fi
    apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv 2>/dev/null || { rm -rf .venv; apt_install python3-venv; "$PYTHON" -m venv .venv; }
fi
EXTRAS=${EXTRAS:-}
STAMP=.venv/.installed-$(cat pyproject.toml clients/python/pyproject.toml | sha256sum | cut -c1-16)$EXTRAS
if [ ! -e "$STAMP" ]; then
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e ".$EXTRAS"
    # The command-line client and notebook magic (README, "Outside the browser"): a package of its own.
    .venv/bin/python -m pip install -q -e clients/python
    touch "$STAMP"
fi
export PATH="$ROOT/.venv/bin:$PATH"

# Browser assets (code editor, KaTeX, htmx) come from npm and are served from
# node_modules as static files; there is no build step.
if [ -f package-lock.json ]; then
    command -v npm >/dev/null || apt_install nodejs npm
    NPM_STAMP=node_modules/.installed-$(sha256sum package-lock.json | cut -c1-16)
    if [ ! -e "$NPM_STAMP" ]; then
        npm ci --no-audit --no-fund --loglevel=error
        touch "$NPM_STAMP"
    fi
fi

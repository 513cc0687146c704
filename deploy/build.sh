#!/usr/bin/env bash
# Build the images docker-compose.yml runs, offline, and print their tags.
#
#   deploy/build.sh     # stdout: the app and data image tags; progress on stderr
#
# No registry is needed.  Every image starts from the sandbox image's stages
# (sandbox/image/build.sh, run first): Debian bookworm made by debootstrap, and
# that plus NumPy at the project's pin.
#   numpy-judge-deps:<h>  + the Python dependencies of pyproject.toml from PyPI
#   numpy-judge-app:<h>   + the project (web and worker), static files collected
#   numpy-judge-data:<h>  Debian's PostgreSQL and Redis servers (one image, two services)
# Each is tagged :latest too, and reused while the hash of its inputs is unchanged.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
PYPI_INDEX=${PIP_INDEX_URL:-https://pypi.org/simple}
CA_BUNDLE=${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}
APP_PATHS=(manage.py pyproject.toml engine judge sandbox problems deploy/gunicorn.conf.py)
ASSETS=(ace-builds/src-min-noconflict katex/dist htmx.org/dist)  # what settings.STATICFILES_DIRS serves
export DOCKER_BUILDKIT=0
CLEANUP=()
log() { echo "deploy-build: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
hash_of() { sha256sum | cut -c1-16; }
image_exists() { docker image inspect "$1" >/dev/null 2>&1; }
image_id() { docker image inspect --format '{{.Id}}' "$1"; }
cleanup() {
    local path
    for path in "${CLEANUP[@]}"; do
        if [[ $path == container:* ]]; then docker rm -f "${path#container:}" >/dev/null 2>&1 || true
        else rm -rf "$path"; fi
    done
}
trap cleanup EXIT

# Runs install-deps.sh KIND in a container from BASE on the default bridge; commits it as IMAGE.
install_layer() {
    local kind=$1 base=$2 image=$3 name inputs
    name=numpy-judge-build-$BASHPID-$RANDOM  # BASHPID: the two layers build in parallel
    inputs=$(mktemp -d)
    CLEANUP+=("container:$name" "$inputs")
    cp "$REPO/pyproject.toml" "$HERE/entrypoint-postgres.sh" "$inputs/"
    [[ -r $CA_BUNDLE ]] && cp "$CA_BUNDLE" "$inputs/ca.pem"
    chmod -R a+rX "$inputs"
    log "$kind: installing into $image"
    docker run --name "$name" --network bridge -v "$inputs:/in:ro" "$base" \
        sh -c "$(cat "$HERE/install-deps.sh")" install-deps "$kind" "$PYPI_INDEX" >"$inputs/log" 2>&1 ||
        { tail -n 30 "$inputs/log" >&2; die "$kind: install failed"; }
    docker commit --change 'CMD ["python3"]' "$name" "$image" >/dev/null
}

layer() {  # kind base -> sets LAYER
    local kind=$1 base=$2 hash
    hash=$({ image_id "$base"; cat "$HERE/install-deps.sh" "$HERE/entrypoint-postgres.sh"
             [[ $kind == app ]] && cat "$REPO/pyproject.toml"; echo "$kind"; } | hash_of)
    LAYER=numpy-judge-$([[ $kind == app ]] && echo deps || echo data):$hash
    if image_exists "$LAYER"; then log "$kind: $LAYER cached"; else install_layer "$kind" "$base" "$LAYER"; fi
}

app_stage() {  # deps image -> sets APP
    local deps=$1 context hash
    context=$(mktemp -d)
    CLEANUP+=("$context")
    mkdir -p "$context/app/node_modules"
    (cd "$REPO" && tar -c --exclude=__pycache__ --exclude='*.pyc' "${APP_PATHS[@]}") | tar -x -C "$context/app"
    for asset in "${ASSETS[@]}"; do
        [[ -d $REPO/node_modules/$asset ]] || die "node_modules/$asset is missing (run bin/setup-env.sh or npm ci)"
        mkdir -p "$context/app/node_modules/$asset"
        cp -a "$REPO/node_modules/$asset/." "$context/app/node_modules/$asset/"
    done
    cp "$HERE/Dockerfile" "$context/Dockerfile"
    hash=$({ image_id "$deps"; cd "$context" && find . -type f -print0 | sort -z | xargs -0 sha256sum; } | hash_of)
    APP=numpy-judge-app:$hash
    if image_exists "$APP"; then log "app: $APP cached"; return; fi
    docker build -q --build-arg "DEPS_IMAGE=$deps" -t "$APP" "$context" >"$context.log" 2>&1 ||
        { cat "$context.log" >&2; rm -f "$context.log"; die "docker build failed"; }
    rm -f "$context.log"
    log "app: $APP built"
}

main() {
    docker info >/dev/null 2>&1 || "$REPO/scripts/ensure-docker.sh"
    exec 7>"${TMPDIR:-/tmp}/numpy-judge-deploy-build.lock"
    flock 7
    "$REPO/sandbox/image/build.sh" >/dev/null
    # The two install layers need nothing of each other (pip from PyPI, apt from Debian): built side by side.
    local deps data pid tag_file
    tag_file=$(mktemp)
    CLEANUP+=("$tag_file")
    (trap cleanup EXIT; CLEANUP=(); layer data judge-sandbox-base:latest; echo "$LAYER" >"$tag_file") &
    pid=$!
    layer app judge-sandbox-numpy:latest
    deps=$LAYER
    wait "$pid" || die "data: install failed"
    data=$(cat "$tag_file")
    app_stage "$deps"
    docker tag "$APP" numpy-judge-app:latest
    docker tag "$data" numpy-judge-data:latest
    echo "$APP"
    echo "$data"
}
main "$@"

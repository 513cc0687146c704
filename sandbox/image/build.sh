#!/usr/bin/env bash
# Build the sandbox image from a local Docker engine and print its tag.
#
#   sandbox/image/build.sh        # stdout: judge-sandbox:<hash>; progress on stderr
#
# Three stages, each cached as an image tagged with a hash of its own inputs:
#   judge-sandbox-base:<h>   Debian bookworm minbase + python3, by debootstrap
#                            (or python:3.11-slim, if that can be pulled)
#   judge-sandbox-numpy:<h>  + NumPy as pinned in pyproject.toml (numpy==2.2.6), from PyPI,
#                            pip run in a throwaway container
#   judge-sandbox:<h>        + sandbox/{__init__,protocol}.py and the sandbox/zygote/ package, user, env, command
# A stage whose tag exists is reused, so a changed zygote rebuilds only the last
# stage and an unchanged tree is a no-op.  Apart from that one try of
# python:3.11-slim, no registry image is needed: only Debian's mirror and PyPI,
# and only for the first two stages.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# Where the runner's files come from; only tests point this elsewhere.
SANDBOX_SRC=${JUDGE_SANDBOX_SRC:-$REPO/sandbox}

SUITE=bookworm
BASE_PACKAGES=(python3)
# The trusted side's pin in pyproject.toml, so that both sides cannot drift apart.
NUMPY_PIN=$(grep -oE '"numpy==[0-9][^"]*"' "$REPO/pyproject.toml" 2>/dev/null | head -n 1 | tr -d '"')
NUMPY_PIN=${NUMPY_PIN:-numpy==2.2.6}
PYPI_INDEX=${PIP_INDEX_URL:-https://pypi.org/simple}
# The runner: these two modules and every module of the zygote package (paths under sandbox/).
RUNNER_FILES=(__init__.py protocol.py)
REGISTRY_BASE=python:3.11-slim
LABEL=org.numpy-judge.inputs-hash
FALLBACK_MIRROR=http://deb.debian.org/debian
CA_BUNDLE=${PIP_CERT:-/etc/ssl/certs/ca-certificates.crt}

export DOCKER_BUILDKIT=0 # the classic builder needs no buildx plugin and builds FROM a local image
CLEANUP=()
STARTED=$EPOCHREALTIME
BASE_IMAGE="" NUMPY_IMAGE="" NUMPY_LOG="" TAG=""

log() { echo "build: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", b - a }'; }
hash_of() { sha256sum | cut -c1-16; }
image_exists() { docker image inspect "$1" >/dev/null 2>&1; }

cleanup() {
    local path
    for path in "${CLEANUP[@]}"; do
        if [[ $path == container:* ]]; then
            docker rm -f "${path#container:}" >/dev/null 2>&1 || true
        else
            # debootstrap mounts /proc and /sys in the target; never rm through them.
            findmnt -rno TARGET | grep -F "$path/" | sort -r | xargs -r umount -l 2>/dev/null || true
            rm -rf --one-file-system "$path"
        fi
    done
}
trap cleanup EXIT

# ---------------------------------------------------------------- base stage

# The Debian mirror this machine's apt already uses for $SUITE main.
debian_mirror() {
    local lists=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list)
    local sources=(/etc/apt/sources.list.d/*.sources)
    {
        awk -v suite="$SUITE" '$1 == "deb" {
            i = 2
            if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
            if ($(i + 1) == suite) for (j = i + 2; j <= NF; j++) if ($j == "main") print $i
        }' "${lists[@]}" 2>/dev/null
        awk -v suite="$SUITE" 'BEGIN { RS = "" } {
            types = uris = suites = comps = ""; enabled = 1
            n = split($0, lines, "\n")
            for (k = 1; k <= n; k++) {
                if (lines[k] ~ /^#/) continue
                split(lines[k], kv, ":[ \t]*")
                value = substr(lines[k], index(lines[k], ":") + 1)
                if (kv[1] == "Types") types = value
                if (kv[1] == "URIs") uris = value
                if (kv[1] == "Suites") suites = value
                if (kv[1] == "Components") comps = value
                if (kv[1] == "Enabled" && value ~ /no/) enabled = 0
            }
            if (enabled && (" " types " ") ~ / deb / && (" " suites " ") ~ (" " suite " ") \
                && (" " comps " ") ~ / main /) { split(uris, u, " "); print u[1] }
        }' "${sources[@]}" 2>/dev/null
    } | grep -m1 . || echo "$FALLBACK_MIRROR"
}

strip_rootfs() {
    local root=$1
    rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/* "$root"/var/cache/debconf/*-old \
        "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/usr/share/locale/* \
        "$root"/usr/share/lintian
    find "$root"/var/log -type f -delete
    find "$root"/usr/share/doc -mindepth 1 ! -name copyright ! -type d -delete
    find "$root"/usr/share/doc -mindepth 1 -type d -empty -delete
    # Keep later package installs (the NumPy fallback) just as lean.
    printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
        'path-exclude /usr/share/man/*' 'path-exclude /usr/share/info/*' \
        'path-exclude /usr/share/locale/*' >"$root"/etc/dpkg/dpkg.cfg.d/judge-sandbox-nodoc
    echo 'APT::Install-Recommends "false";' >"$root"/etc/apt/apt.conf.d/90judge-sandbox
}

build_debootstrap_base() {
    local image=$1 hash=$2 work mirror
    [[ $(id -u) == 0 ]] || die "debootstrap needs root (or build once as root)"
    command -v debootstrap >/dev/null || "$REPO/scripts/ensure-docker.sh"
    mirror=$(debian_mirror)
    work=$(mktemp -d /var/tmp/judge-sandbox-base.XXXXXX)
    CLEANUP+=("$work")
    log "base: debootstrap $SUITE (${BASE_PACKAGES[*]}) from $mirror"
    debootstrap --variant=minbase --include="$(IFS=,; echo "${BASE_PACKAGES[*]}")" \
        "$SUITE" "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 ||
        { tail -n 20 "$work/debootstrap.log" >&2; die "debootstrap failed"; }
    strip_rootfs "$work/rootfs"
    tar --numeric-owner -C "$work/rootfs" -c . |
        docker import --change "LABEL $LABEL=$hash" \
            --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8' \
            --change 'CMD ["python3"]' - "$image" >/dev/null
}

# Sets BASE_IMAGE: a cached debootstrap base, else the registry's Python image
# (local or pulled), else a debootstrap base built now.
base_stage() {
    local started=$EPOCHREALTIME hash image
    hash=$({ echo "$SUITE"; printf '%s\n' "${BASE_PACKAGES[@]}"; declare -f strip_rootfs build_debootstrap_base; } | hash_of)
    image=judge-sandbox-base:$hash
    if image_exists "$image"; then
        log "base: $image cached"
    elif image_exists "$REGISTRY_BASE" || timeout 10 docker pull -q "$REGISTRY_BASE" >/dev/null 2>&1; then
        log "base: using $REGISTRY_BASE from a registry"
        image=$(docker image inspect --format '{{.Id}}' "$REGISTRY_BASE")
    else
        log "base: $REGISTRY_BASE cannot be pulled; building from Debian packages"
        build_debootstrap_base "$image" "$hash"
        log "base: $image built in $(since "$started")"
    fi
    BASE_IMAGE=$image
}

# ---------------------------------------------------------------- numpy stage

# Runs install-numpy.sh in a container from $1 on network $3; commits it as $4.
run_numpy_step() {
    local base=$1 mode=$2 network=$3 image=$4 hash=$5 name ca=/dev/null rc=0
    name=judge-sandbox-build-$$-$RANDOM
    CLEANUP+=("container:$name")
    [[ -r $CA_BUNDLE ]] && ca=$CA_BUNDLE
    log "numpy: $mode install on the $network network"
    docker run -i --name "$name" --network "$network" "$base" \
        sh -c "$(cat "$HERE/install-numpy.sh")" install-numpy "$mode" "$NUMPY_PIN" "$PYPI_INDEX" \
        <"$ca" >"$NUMPY_LOG" 2>&1 || rc=$?
    if ((rc == 0)); then
        # Reset the command: commit would otherwise keep the install script as CMD.
        docker commit --change "LABEL $LABEL=$hash" --change "LABEL org.numpy-judge.numpy-source=$mode" \
            --change 'CMD ["python3"]' "$name" "$image" >/dev/null
    fi
    docker rm -f "$name" >/dev/null
    return "$rc"
}

warn_fallback() {
    log "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
    log "!!! WARNING: PyPI ($PYPI_INDEX) is unreachable from the build container."
    log "!!! Falling back to Debian's python3-numpy, which is NOT $NUMPY_PIN:"
    log "!!! results may differ from the judge's trusted side. The image is tagged"
    log "!!! -debian and is not cached as the pinned build: the next run retries PyPI."
    log "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"
}

# Sets NUMPY_IMAGE, building it if needed.
numpy_stage() {
    local base=$BASE_IMAGE started=$EPOCHREALTIME hash image mode network rc
    hash=$({ echo "$base"; echo "$NUMPY_PIN"; cat "$HERE/install-numpy.sh"; declare -f run_numpy_step; } | hash_of)
    image=judge-sandbox-numpy:$hash
    if image_exists "$image"; then
        log "numpy: $image cached"
        NUMPY_IMAGE=$image
        return
    fi
    NUMPY_LOG=$(mktemp)
    CLEANUP+=("$NUMPY_LOG")
    # The bridge is the normal way out; host networking covers an engine
    # started with --iptables=false, whose bridge has no NAT.
    for mode in pypi debian; do
        [[ $mode == debian ]] && { warn_fallback; image+=-debian; }
        for network in bridge host; do
            rc=0
            run_numpy_step "$base" "$mode" "$network" "$image" "$hash" || rc=$?
            if ((rc == 0)); then
                log "numpy: $(grep '^NUMPY_VERSION=' "$NUMPY_LOG"), $image built in $(since "$started")"
                NUMPY_IMAGE=$image
                return
            fi
            ((rc == 75)) || { tail -n 30 "$NUMPY_LOG" >&2; die "the numpy step failed (exit $rc)"; }
            log "numpy: $(tail -n 1 "$NUMPY_LOG")"
        done
    done
    die "neither PyPI nor Debian's mirror is reachable from a container"
}

# ---------------------------------------------------------------- runner stage

build_runner() {
    local numpy_image=$1 tag=$2 hash=$3 context file
    context=$(mktemp -d)
    CLEANUP+=("$context")
    mkdir "$context/sandbox"
    cp "$HERE/Dockerfile" "$context/Dockerfile"
    for file in "${RUNNER_FILES[@]}"; do
        install -D -m 0644 "$SANDBOX_SRC/$file" "$context/sandbox/$file"
    done
    docker build -q --build-arg "NUMPY_IMAGE=$numpy_image" --label "$LABEL=$hash" \
        -t "$tag" "$context" >"$context.log" 2>&1 || { cat "$context.log" >&2; die "docker build failed"; }
    rm -f "$context.log"
}

# Sets TAG, building the final image if needed.
runner_stage() {
    local numpy_image=$NUMPY_IMAGE started=$EPOCHREALTIME hash tag file
    for file in "${RUNNER_FILES[@]}"; do
        [[ -f $SANDBOX_SRC/$file ]] || die "missing $SANDBOX_SRC/$file"
    done
    hash=$({
        echo "$numpy_image"
        cat "$HERE/Dockerfile"
        declare -f build_runner
        for file in "${RUNNER_FILES[@]}"; do
            echo "== $file"
            cat "$SANDBOX_SRC/$file"
        done
    } | hash_of)
    tag=judge-sandbox:$hash
    if image_exists "$tag"; then
        log "runner: $tag cached"
    else
        build_runner "$numpy_image" "$tag" "$hash"
        log "runner: $tag built in $(since "$started")"
    fi
    docker tag "$tag" judge-sandbox:latest
    # The web/worker images (deploy/build.sh) start from the same two stages.
    docker tag "$BASE_IMAGE" judge-sandbox-base:latest
    docker tag "$numpy_image" judge-sandbox-numpy:latest
    TAG=$tag
}

main() {
    [[ -f $SANDBOX_SRC/zygote/__main__.py ]] || die "missing $SANDBOX_SRC/zygote/__main__.py"
    RUNNER_FILES+=($(cd "$SANDBOX_SRC" && printf '%s\n' zygote/*.py | LC_ALL=C sort))
    docker info >/dev/null 2>&1 || "$REPO/scripts/ensure-docker.sh"
    # One build at a time: two would race to create the same tags.
    exec 8>"${TMPDIR:-/tmp}/judge-sandbox-build.lock"
    flock 8
    base_stage
    numpy_stage
    runner_stage
    log "done in $(since "$STARTED"): $TAG ($(docker image inspect --format '{{.Size}}' "$TAG" |
        awk '{ printf "%.0f MB", $1 / 1e6 }'))"
    [[ $NUMPY_IMAGE != *-debian ]] ||
        log "WARNING: $TAG has Debian's NumPy, not $NUMPY_PIN: PyPI was unreachable"
    echo "$TAG"
}

main "$@"

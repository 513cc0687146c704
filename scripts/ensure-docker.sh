#!/usr/bin/env bash
# Make sure a Docker engine answers on this machine, as root, without systemd.
#
# Idempotent and cheap when everything is already there: installs Debian's
# docker.io and debootstrap only if they are missing, starts dockerd in the
# background only if it is not running, then waits until `docker info` works.
# Safe to call from .ci/run, from sandbox/image/build.sh and by hand, many times.
#
# What dockerd needs is probed rather than assumed, so the same script works on
# a VM (overlay2, working iptables) and in a container-like machine:
#   - overlay2 if an overlay mount works on the data root, else vfs (slow, big);
#   - iptables NAT for the default bridge if `iptables` works, else
#     --iptables=false (containers on the bridge then have no way out; the image
#     build falls back to --network host for its one networked step);
#   - if dockerd still cannot start (no CAP_NET_ADMIN for the docker0 bridge),
#     one retry with --bridge=none: `--network none` sandboxes still work.
set -euo pipefail

SOCKET=/var/run/docker.sock
PIDFILE=/var/run/docker.pid
LOG=/var/log/dockerd.log
LOCK=/run/lock/ensure-docker.lock
DATA_ROOT=/var/lib/docker
TIMEOUT_S=${ENSURE_DOCKER_TIMEOUT_S:-60}
DOCKERD_PID=""

say() { echo "ensure-docker: $*" >&2; }
die() { say "ERROR: $*"; exit 1; }

# Whichever docker CLI comes first on PATH (here a newer static one in
# /usr/local/bin shadows Debian's /usr/bin/docker) must reach our daemon: pin
# the socket rather than trust DOCKER_HOST or a CLI context.
docker_ok() { docker -H "unix://$SOCKET" info >/dev/null 2>&1; }

install_missing_packages() {
    local missing=()
    command -v dockerd >/dev/null || missing+=(docker.io)
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    command -v docker >/dev/null || missing+=(docker.io)
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u | grep .)
    ((${#missing[@]})) || return 0
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    # bin/apt-install's lock: bin/test installs Chromium at the same time.
    exec 8>/run/lock/judge-apt.lock
    flock -w 900 8 || die "another install holds /run/lock/judge-apt.lock"
    apt-get update -qq
    # The package's postinst would try to start the service; there is no init
    # system to do that properly, so we start dockerd ourselves below.
    local policy=/usr/sbin/policy-rc.d created_policy=""
    if [[ ! -e $policy ]]; then
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created_policy=1
    fi
    local rc=0
    apt-get install -y -qq --no-install-recommends "${missing[@]}" iptables >/dev/null || rc=$?
    [[ -z $created_policy ]] || rm -f "$policy"
    exec 8>&-
    ((rc == 0)) || die "apt-get install ${missing[*]} failed"
}

alive() {
    local state
    state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) && [[ -n $state && $state != Z ]]
}

# The pid of a running dockerd, from its pid file; nothing if there is none.
running_dockerd() {
    local pid
    [[ -r $PIDFILE ]] && pid=$(<"$PIDFILE") && [[ -n $pid ]] && alive "$pid" &&
        [[ $(cat "/proc/$pid/comm" 2>/dev/null) == dockerd ]] && echo "$pid"
    return 0
}

configured_in_daemon_json() {
    [[ -r /etc/docker/daemon.json ]] && grep -q "\"$1\"" /etc/docker/daemon.json
}

storage_driver() {
    local probe
    mkdir -p "$DATA_ROOT"
    probe=$(mktemp -d "$DATA_ROOT/.overlay-probe.XXXXXX")
    mkdir "$probe"/{lower,upper,work,merged}
    if mount -t overlay overlay -o "lowerdir=$probe/lower,upperdir=$probe/upper,workdir=$probe/work" \
        "$probe/merged" 2>/dev/null; then
        umount "$probe/merged"
        echo overlay2
    else
        echo vfs
    fi
    rm -rf "$probe"
}

dockerd_flags() {
    local out=()
    if ! configured_in_daemon_json storage-driver; then
        out+=("--storage-driver=$(storage_driver)")
    fi
    if ! configured_in_daemon_json iptables && ! iptables -t nat -L -n >/dev/null 2>&1; then
        out+=(--iptables=false)
    fi
    echo "${out[@]}"
}

# A daemon killed hard leaves pid files behind, and where nothing reaps orphans
# (no init in a container) their pids stay zombies that look alive to dockerd.
remove_stale_pidfiles() {
    local file pid
    for file in "$PIDFILE" /var/run/docker/containerd/containerd.pid; do
        [[ -r $file ]] || continue
        pid=$(<"$file")
        if [[ -z $pid ]] || ! alive "$pid"; then
            rm -f "$file"
        fi
    done
}

start_dockerd() {
    local flags=$1
    remove_stale_pidfiles
    say "starting dockerd $flags (log: $LOG)"
    # setsid: the daemon must outlive the shell that started it.  Without job
    # control the background child is no group leader, so setsid does not fork
    # and $! is dockerd itself.
    # shellcheck disable=SC2086
    setsid dockerd -H "unix://$SOCKET" $flags >>"$LOG" 2>&1 </dev/null 9>&- &
    DOCKERD_PID=$!
}

# Wait until docker answers; fail early if the daemon process died.
wait_for_docker() {
    local pid=$1 deadline=$((SECONDS + TIMEOUT_S))
    until docker_ok; do
        alive "$pid" && ((SECONDS < deadline)) || return 1
        sleep 0.5
    done
}

check_every_cli() {
    local cli
    for cli in $(type -aP docker | xargs -n1 readlink -f | sort -u); do
        "$cli" -H "unix://$SOCKET" version --format "{{.Server.Version}}" >/dev/null 2>&1 ||
            die "$cli cannot talk to the daemon on $SOCKET"
    done
}

fail_with_log() {
    tail -n 20 "$LOG" >&2 || true
    die "$1 (see $LOG)"
}

start_and_wait() {
    local pid flags
    pid=$(running_dockerd)
    if [[ -z $pid ]]; then
        flags=$(dockerd_flags)
        start_dockerd "$flags"
        pid=$DOCKERD_PID
    fi
    wait_for_docker "$pid" && return 0
    alive "$pid" && fail_with_log "docker did not answer on $SOCKET within ${TIMEOUT_S}s"
    [[ -z ${flags:-} || $flags == *bridge=none* ]] && fail_with_log "dockerd exited"
    say "dockerd exited; retrying without the default bridge"
    start_dockerd "$flags --iptables=false --bridge=none"
    wait_for_docker "$DOCKERD_PID" || fail_with_log "dockerd did not start"
}

main() {
    [[ $(id -u) == 0 ]] || die "must run as root"
    # Concurrent callers (CI jobs, the build, a developer) queue here, so that
    # only one of them installs packages or starts the daemon.
    exec 9>"$LOCK"
    flock -w $((TIMEOUT_S + 120)) 9 || die "another ensure-docker holds $LOCK"
    install_missing_packages
    docker_ok || start_and_wait
    check_every_cli
    [[ -z ${DOCKER_HOST:-} || $DOCKER_HOST == "unix://$SOCKET" ]] ||
        say "note: DOCKER_HOST=$DOCKER_HOST points elsewhere; the local engine is on unix://$SOCKET"
    say "ready: $(docker -H "unix://$SOCKET" info --format \
        'engine {{.ServerVersion}}, storage {{.Driver}}, cgroup v{{.CgroupVersion}} ({{.CgroupDriver}})')"
}

main "$@"

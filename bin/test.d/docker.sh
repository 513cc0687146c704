# Docker engine, the sandbox image and the compose plugin for the Docker tests
# (tests/test_docker_*.py, tests/security/).  Sourced by bin/test, which calls
# docker_start before it makes the Python environment and docker_finish after.
# dockerd does not survive between machines' sessions, so it is started here
# (scripts/ensure-docker.sh) and the image is rebuilt only when its inputs
# changed (sandbox/image/build.sh).  On a fresh machine that is most of a
# minute (the engine's packages, debootstrap, NumPy), so it runs in the
# background while pip installs the project.  In CI, Docker tests must run:
# when any of this fails there, bin/test stops.
DOCKER_SETUP_PID=
docker_start() {
    [ "$(id -u)" = 0 ] || { echo "docker.sh: not root: cannot start dockerd or build images" >&2; return 0; }
    mkdir -p var
    ( scripts/ensure-docker.sh && sandbox/image/build.sh >var/sandbox-image.tag ) >var/docker-setup.log 2>&1 &
    DOCKER_SETUP_PID=$!
}
docker_finish() {
    local ready=
    if [ -n "$DOCKER_SETUP_PID" ]; then
        if wait "$DOCKER_SETUP_PID"; then
            grep "ready:\|build: done" var/docker-setup.log >&2 || true
            SANDBOX_IMAGE=$(cat var/sandbox-image.tag) && scripts/ensure-compose.sh && ready=1
        else
            tail -n 20 var/docker-setup.log >&2
        fi
    fi
    if [ -n "$ready" ]; then
        export SANDBOX_IMAGE JUDGE_DOCKER_READY=1
        # The whole suite: the compose stack's images (a few minutes on a fresh machine) start building now,
        # while pytest starts; tests/test_docker_compose.py runs deploy/build.sh itself, which waits for this
        # build (one build at a time) and then finds its images made, or reports what failed.
        if [ -z "${FAST:-}" ] && [ $# -eq 0 ]; then
            deploy/build.sh >var/deploy-build.log 2>&1 &
        fi
    elif [ "${CI:-}" = true ]; then
        echo "docker.sh: Docker or the sandbox image could not be set up; CI needs the Docker tests" >&2
        exit 1
    else
        echo "docker.sh: Docker is not available here; Docker tests will be skipped" >&2
    fi
}

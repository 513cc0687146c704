# Docker engine, the sandbox image and the compose plugin for the Docker tests
# (tests/test_docker_*.py, tests/security/).  Sourced by bin/test.
# dockerd does not survive between machines' sessions, so it is started here
# (scripts/ensure-docker.sh) and the image is rebuilt only when its inputs
# changed (sandbox/image/build.sh).  In CI, Docker tests must run: when any of
# this fails there, bin/test stops here.
docker_setup() {
    [ "$(id -u)" = 0 ] || { echo "docker.sh: not root: cannot start dockerd or build images" >&2; return 1; }
    scripts/ensure-docker.sh || return 1
    SANDBOX_IMAGE=$(sandbox/image/build.sh) || return 1
    scripts/ensure-compose.sh || return 1
}
if docker_setup; then
    export SANDBOX_IMAGE JUDGE_DOCKER_READY=1
    # The whole suite: the compose stack's images (a few minutes on a fresh machine) start building now, while
    # pytest starts; tests/test_docker_compose.py runs deploy/build.sh itself, which waits for this build
    # (one build at a time) and then finds its images made, or reports what failed.
    if [ -z "${FAST:-}" ] && [ $# -eq 0 ]; then
        mkdir -p var
        deploy/build.sh >var/deploy-build.log 2>&1 &
    fi
else
    if [ "${CI:-}" = true ]; then
        echo "docker.sh: Docker or the sandbox image could not be set up; CI needs the Docker tests" >&2
        exit 1
    fi
    echo "docker.sh: Docker is not available here; Docker tests will be skipped" >&2
fi

#!/usr/bin/env bash
# Check that the sandbox image works under the backend's hardening flags and
# that each flag is actually enforced by this machine's engine and kernel.
#
#   sandbox/image/verify.sh [IMAGE]      # default judge-sandbox:latest
#
# Prints one line per check and ends with "N passed, N failed"; exits non-zero
# if any check failed.  Needs a running engine (scripts/ensure-docker.sh).
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IMAGE=${1:-judge-sandbox:latest}
SECCOMP=$HERE/seccomp.json
HARDENED=(--rm --network none --memory 256m --memory-swap 256m --pids-limit 64 --read-only
    --tmpfs /tmp:size=16m --cap-drop ALL --security-opt no-new-privileges
    --security-opt "seccomp=$SECCOMP")
PASSED=0 FAILED=0
NUMPY_VERSION=$(grep -oE '"numpy==[0-9][^"]*"' "$HERE/../../pyproject.toml" 2>/dev/null | head -n 1 | tr -d '"')
NUMPY_VERSION=${NUMPY_VERSION#numpy==}
NUMPY_VERSION=${NUMPY_VERSION:-2.2.6}

check() {
    local name=$1 expected=$2 actual=$3
    if [[ $actual == "$expected" ]]; then
        echo "ok   $name"
        PASSED=$((PASSED + 1))
    else
        echo "FAIL $name: expected [$expected], got [$actual]"
        FAILED=$((FAILED + 1))
    fi
}

# Runs python3 -c "$2" in a hardened container as user $1, printing its output.
sandboxed() {
    local user=$1 code=$2
    shift 2
    docker run "${HARDENED[@]}" --user "$user" "$@" "$IMAGE" python3 -c "$code" 2>&1
}

# One container answers everything that needs no special workload.
PROBE='
import ctypes, errno, os, socket
libc = ctypes.CDLL(None, use_errno=True)
def err(result):
    return "ok" if result >= 0 else errno.errorcode[ctypes.get_errno()]
def status(key):
    return next(l.split()[1] for l in open("/proc/self/status") if l.startswith(key + ":"))
def sock(family):
    try:
        socket.socket(family).close()
        return "ok"
    except OSError as e:
        return errno.errorcode[e.errno]
def write(path):
    try:
        open(path, "w").close()
        return "ok"
    except OSError as e:
        return errno.errorcode[e.errno]
memory = "/sys/fs/cgroup/memory/"
facts = {
    "uid": os.getuid(),
    "interfaces": ",".join(sorted(os.listdir("/sys/class/net"))),
    "CapEff": status("CapEff"),
    "NoNewPrivs": status("NoNewPrivs"),
    "Seccomp": status("Seccomp"),
    "ptrace": err(libc.ptrace(0, 0, 0, 0)),
    "clone(CLONE_NEWUSER)": err(libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0)),
    "unshare": err(libc.unshare(0x10000000)),
    "clone3": err(libc.syscall(435, 0, 0)),
    "mount": err(libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)),
    "keyctl": err(libc.syscall(250, 0, 0, 0, 0, 0)),
    "bpf": err(libc.syscall(321, 0, 0, 0)),
    "io_uring_setup": err(libc.syscall(425, 1, 0)),
    "socket(AF_INET)": sock(socket.AF_INET),
    "socket(AF_INET6)": sock(socket.AF_INET6),
    "socket(AF_NETLINK)": sock(socket.AF_NETLINK),
    "socket(AF_UNIX)": sock(socket.AF_UNIX),
    "write /opt": write("/opt/x"),
    "write /tmp": write("/tmp/x"),
    "memory limit": open(memory + "memory.limit_in_bytes").read().strip() if os.path.exists(memory) else "?",
    "memory+swap limit": open(memory + "memory.memsw.limit_in_bytes").read().strip() if os.path.exists(memory + "memory.memsw.limit_in_bytes") else "?",
}
for key, value in facts.items():
    print(f"{key}={value}")
'

probe_checks() {
    local facts
    facts=$(sandboxed 65534 "$PROBE")
    fact() { grep -m1 "^$1=" <<<"$facts" | cut -d= -f2-; }
    check "runs as uid 65534" 65534 "$(fact uid)"
    check "--network none: only lo" lo "$(fact interfaces)"
    check "--cap-drop ALL: no effective capability" 0000000000000000 "$(fact CapEff)"
    check "no-new-privileges" 1 "$(fact NoNewPrivs)"
    check "seccomp filter active" 2 "$(fact Seccomp)"
    local call
    for call in ptrace unshare "clone(CLONE_NEWUSER)" mount keyctl bpf io_uring_setup \
        "socket(AF_INET)" "socket(AF_INET6)" "socket(AF_NETLINK)"; do
        check "seccomp: $call is refused" EPERM "$(fact "$call")"
    done
    check "seccomp: clone3 says ENOSYS (glibc falls back to clone)" ENOSYS "$(fact clone3)"
    check "seccomp: socket(AF_UNIX) is allowed" ok "$(fact "socket(AF_UNIX)")"
    check "--read-only: the image is not writable" EROFS "$(fact "write /opt")"
    check "--tmpfs /tmp is writable" ok "$(fact "write /tmp")"
    check "--memory 256m in the cgroup" 268435456 "$(fact "memory limit")"
    check "--memory-swap 256m: no swap on top" 268435456 "$(fact "memory+swap limit")"
}

workload_checks() {
    check "numpy $NUMPY_VERSION (the pin in pyproject.toml) under the profile" "$NUMPY_VERSION 8000000.0" "$(sandboxed 65534 \
        'import numpy; print(numpy.__version__, (numpy.ones((200,200))@numpy.ones((200,200))).sum())')"

    # Touch 400 MB of pages: the cgroup's OOM killer must end the process.
    local rc=0
    sandboxed 65534 'x = b"\1" * (400 << 20); print("survived")' >/dev/null || rc=$?
    check "--memory: 400 MB allocation is OOM-killed (exit 137)" 137 "$rc"

    check "--pids-limit 64 stops a fork loop" "stopped" "$(sandboxed 65534 '
import os, time
n = 0
try:
    while n < 500:
        if os.fork() == 0:
            time.sleep(5)
            os._exit(0)
        n += 1
except BlockingIOError:
    print("stopped" if n < 64 else f"stopped late at {n}")
else:
    print(f"not stopped after {n}")')"

    check "--tmpfs /tmp:size=16m is full at 16 MB" ENOSPC "$(sandboxed 65534 '
import errno
try:
    with open("/tmp/big", "wb") as f:
        f.write(b"x" * (20 << 20))
    print("wrote 20 MB")
except OSError as e:
    print(errno.errorcode[e.errno])')"

    # The zygote runs as root in the container with only the capabilities it
    # needs to hand each job to a uid of its own.
    check "fork + setresuid + wait as uid 0 with SETUID/SETGID" "100123 7" "$(sandboxed 0 '
import os
pid = os.fork()
if pid == 0:
    os.setgroups([]); os.setresgid(100123, 100123, 100123); os.setresuid(100123, 100123, 100123)
    print(os.getuid(), end=" ", flush=True)
    os._exit(7)
print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))' --cap-add SETUID --cap-add SETGID)"
}

zygote_check() {
    # Two frames: a 4-byte big-endian length, then the body: the JSON's 4-byte length and the JSON.
    local reply
    reply=$(printf '\0\0\0\x11\0\0\0\x0d{"op":"ping"}\0\0\0\x11\0\0\0\x0d{"op":"exit"}' |
        docker run -i "${HARDENED[@]}" "$IMAGE" 2>&1 | tr -d '\0-\37')
    check "the image's command is the zygote, and it answers a ping" "\"numpy\":\"$NUMPY_VERSION\"" \
        "$(grep -o '"numpy":"[^"]*"' <<<"$reply" || echo "$reply")"
}

docker image inspect "$IMAGE" >/dev/null 2>&1 || { echo "no image $IMAGE: run sandbox/image/build.sh" >&2; exit 1; }
probe_checks
workload_checks
zygote_check
echo "$PASSED passed, $FAILED failed"
((FAILED == 0))

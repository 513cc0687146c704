"""The Docker backend: a warm pool of hardened containers, each running one zygote.

Every container is started from the sandbox image (``sandbox/image/``) with no
network, a read-only root, a small tmpfs for scratch, every capability dropped
but the five the zygote needs to drop its children to another uid, no new
privileges, our seccomp profile, a pids limit, a memory limit with no swap on
top, and a CPU quota.  No network is involved, and the container cannot reach
anything.

The worker talks to the zygote over a Unix socket (the default): for each
container it creates a private directory (0700) under ``socket_dir`` with a
listening socket in it, bind-mounts only that directory, read-only, at
``/run/judge``, and accepts the one connection the zygote makes when it starts;
then it deletes the socket file, so nothing else can connect.  Frames go straight
between the two processes.  The alternative (``socket_dir=None``, for an engine on
another machine) is the container's attached stdin/stdout: the Docker API hijacks
the HTTP connection, and every chunk the container writes arrives behind an 8-byte
header (stream, 0, 0, 0, length) that ``DemuxChannel`` strips.  That works
anywhere, but every frame is copied by containerd's shim and by dockerd, which
here costs about a millisecond per round trip (bench/sandbox_latency.py).

A pool keeps ``pool_size`` containers per worker process: one job at a time per
container.  ``run`` returns at the job's ``done``; a background thread then waits
for the zygote's ``clean`` (it has killed what the job left, and forked the next
job's child) before the container can take another job, so the cleanup is off the
submission's clock.  A container
is retired after ``max_jobs`` jobs, or at once when the zygote reports an anomaly
(a timeout or crash, a process that outlived the job, files left behind) or when
it fails; a replacement starts in the background.
A container that dies mid-job closes the stream, which raises ``SandboxError``
(the grader retries on a fresh container) well before any deadline.

Containers carry labels naming the host and the worker process that owns them;
``remove_orphans`` deletes those whose owner is gone (a worker killed with
SIGKILL, a machine that rebooted).  ``auto_remove`` and ``stdin_once`` normally
make that unnecessary: when a worker dies its attach connection closes, the
zygote reads end-of-file and exits, and the engine removes the container.
"""

from __future__ import annotations

import contextvars
import logging
import os
import random
import select
import shutil
import socket
import tempfile
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sandbox import protocol as P
from sandbox.backends.base import (
    ZYGOTE_ENVIRONMENT,
    FrameChannel,
    GenerateJob,
    Job,
    JobRun,
    Sandbox,
    SandboxError,
    log_job,
)

log = logging.getLogger(__name__)

SECCOMP_PROFILE = Path(__file__).resolve().parents[1] / "image" / "seccomp.json"
LABEL = "org.numpy-judge.sandbox"
OWNER_LABEL = "org.numpy-judge.owner"  # "<host>/<pid>/<process start time>"
HOST_LABEL = "org.numpy-judge.host"
SOCKET_LABEL = "org.numpy-judge.socket-dir"  # the host directory to delete with the container
# Where the zygote finds the socket inside the container, and its name there.
SOCKET_MOUNT = "/run/judge"
SOCKET_NAME = "z.sock"
# A Unix socket's path must fit in 108 bytes.
MAX_SOCKET_PATH = 100
DEFAULT_SOCKET_DIR = Path(tempfile.gettempdir()) / f"judge-sandbox-{os.getuid()}"
# The zygote runs as root inside the container only to switch each child to its
# own uid: these are the capabilities that takes (sandbox/image/README.md says why).
ZYGOTE_CAPABILITIES = ["SETUID", "SETGID", "KILL", "CHOWN", "DAC_OVERRIDE"]
START_TIMEOUT_S = 60.0
# A job whose test ran past half its limit runs on at this fraction of the CPU weight (sandbox/zygote/supervisor.py).
SLOW_WEIGHT_DIVISOR = 8
STDOUT, STDERR = 1, 2


def _client(timeout: float = 30.0) -> Any:
    import docker

    return docker.from_env(timeout=timeout)


def available(image: str) -> bool:
    """Whether an engine answers here and has ``image``."""
    try:
        client = _client(timeout=5)
        try:
            client.api.inspect_image(image)
        finally:
            client.close()
        return True
    except Exception:  # no SDK, no socket, no daemon, no image: all mean "not here"
        return False


# --------------------------------------------------------------------------
# Owners and orphans
# --------------------------------------------------------------------------


def _start_time(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def owner_label() -> str:
    return f"{socket.gethostname()}/{os.getpid()}/{_start_time(os.getpid())}"


def _owner_alive(owner: str) -> bool:
    host, _, rest = owner.partition("/")
    pid, _, started = rest.partition("/")
    if host != socket.gethostname():
        return True  # another machine's worker: not ours to judge
    return pid.isdigit() and _start_time(int(pid)) == started


def remove_orphans(client: Any = None, socket_dir: Path | None = None) -> int:
    """Remove sandbox containers of this host whose worker process is gone; return how many.

    Also removes the socket directories under ``socket_dir`` that no container uses
    any more (a container whose worker died removed itself, but not its directory).
    """
    client = client or _client()
    removed = 0
    filters = {"label": [LABEL, f"{HOST_LABEL}={socket.gethostname()}"]}
    in_use = set()
    for info in client.api.containers(all=True, filters=filters):
        labels = info.get("Labels", {})
        if _owner_alive(labels.get(OWNER_LABEL, "")):
            in_use.add(labels.get(SOCKET_LABEL))
            continue
        _remove(client, info["Id"])
        _remove_socket_dir(labels.get(SOCKET_LABEL))
        removed += 1
    if removed:
        log.warning("removed %d sandbox container(s) left by dead workers", removed)
    if socket_dir is not None and socket_dir.is_dir():
        # Old enough that no worker can be between making one and starting its container.
        stale_before = time.time() - 2 * START_TIMEOUT_S
        for path in socket_dir.glob("z-*"):
            try:
                stale = str(path) not in in_use and path.stat().st_mtime < stale_before
            except FileNotFoundError:
                continue  # another worker's check removed it meanwhile (workers of one host share the directory)
            if stale:
                _remove_socket_dir(path)
    return removed


def _remove_socket_dir(path: str | Path | None) -> None:
    if path and os.path.basename(str(path)).startswith("z-"):
        shutil.rmtree(path, ignore_errors=True)


def _remove(client: Any, container_id: str) -> None:
    import docker.errors

    try:
        client.api.remove_container(container_id, force=True)
    except docker.errors.NotFound:
        pass
    except docker.errors.APIError as exc:  # "removal already in progress" by auto_remove
        if exc.status_code != 409:
            log.warning("could not remove sandbox container %s: %s", container_id[:12], exc)


# --------------------------------------------------------------------------
# One container
# --------------------------------------------------------------------------


class NoConnection(SandboxError):
    """A started container's zygote never connected to its socket."""


class SocketChannel(FrameChannel):
    """Frames over the Unix socket the zygote connected to: no daemon copies them."""

    def __init__(self, sock: socket.socket) -> None:
        super().__init__(sock.fileno(), sock.fileno())
        sock.setblocking(True)  # writes block; reads wait in select() with a deadline
        self.sock = sock

    def read_some(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.read_fd], [], [], timeout)
        if not ready:
            return b""
        try:
            chunk = self.sock.recv(1 << 20)
        except OSError as exc:
            raise SandboxError(f"lost the container's connection: {exc}") from None
        if not chunk:
            raise SandboxError("the container closed its output (it died or was killed)")
        return chunk


class DemuxChannel(SocketChannel):
    """Frames over a hijacked attach connection whose chunks carry 8-byte stream headers."""

    def __init__(self, sock: socket.socket) -> None:
        super().__init__(sock)
        self.raw = bytearray()

    def read_some(self, timeout: float) -> bytes:
        self.raw += super().read_some(timeout)
        payload = bytearray()
        while len(self.raw) >= 8:
            stream, size = self.raw[0], int.from_bytes(self.raw[4:8], "big")
            if len(self.raw) < 8 + size:
                break
            if stream == STDOUT:
                payload += self.raw[8 : 8 + size]
            del self.raw[: 8 + size]
        return bytes(payload)

    def idle_and_healthy(self) -> bool:
        return super().idle_and_healthy() and not self.raw


class Container:
    """One started sandbox container with its zygote answering on ``channel``."""

    def __init__(
        self,
        client: Any,
        container_id: str,
        channel: SocketChannel | DemuxChannel,
        child_uid: int,
        socket_dir: Path | None = None,
        keepalive: Any = None,
    ) -> None:
        self.client = client
        self.id = container_id
        self.child_uid = child_uid
        self.channel = channel
        self.socket_dir = socket_dir
        self._keepalive = keepalive  # for attach: the HTTP response owning the socket
        self.info: dict[str, Any] = {}
        self.jobs = 0
        self.slowing: threading.Thread | None = None  # lowering its CPU weight during a slow test

    def close(self) -> None:
        _remove(self.client, self.id)
        try:
            self.channel.sock.close()
        except OSError:
            pass
        _remove_socket_dir(self.socket_dir)


# --------------------------------------------------------------------------
# The pool
# --------------------------------------------------------------------------


class DockerSandbox(Sandbox):
    """A warm pool of sandbox containers; ``run`` uses one at a time (``pool_size=1``: always the same)."""

    name = "docker"
    _orphans_checked = False

    def __init__(
        self,
        image: str = "judge-sandbox:latest",
        pool_size: int = 2,
        *,
        memory_mb: int = 1024,
        cpus: float = 1.0,
        pids_limit: int = 64,
        scratch_mb: int = 16,
        max_jobs: int = 200,
        socket_dir: str | Path | None = DEFAULT_SOCKET_DIR,
        cpu_shares: int | None = None,
        client: Any = None,
    ) -> None:
        self.image = image
        self.socket_dir = Path(socket_dir).resolve() if socket_dir else None
        if self.socket_dir is not None and len(str(self.socket_dir / "z-xxxxxxxx" / SOCKET_NAME)) > MAX_SOCKET_PATH:
            log.warning(
                "sandbox socket directory %s is too long for a Unix socket path; "
                "using the containers' attached streams (slower)",
                self.socket_dir,
            )
            self.socket_dir = None
        if self.socket_dir is not None:
            self.socket_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self.pool_size = max(1, int(pool_size))
        self.memory_mb = memory_mb
        self.cpus = cpus
        self.cpu_shares = cpu_shares  # the CPU weight against other containers (None: the engine's default)
        self.pids_limit = pids_limit
        self.scratch_mb = scratch_mb
        self.max_jobs = max_jobs
        self.client = client or _client()
        self.seccomp = SECCOMP_PROFILE.read_text()
        self.owner = owner_label()
        self.info: dict[str, Any] = {}
        self._lock = threading.Condition()
        self._ready: deque[Container] = deque()
        self._starting = 0
        self._busy = 0  # taken by a job, or back from one and settling
        self._settling = 0
        self._closed = False
        self._last_failure: Exception | None = None
        self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="sandbox-pool")
        self._settler = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sandbox-settle")
        if not DockerSandbox._orphans_checked:
            DockerSandbox._orphans_checked = True
            remove_orphans(self.client, self.socket_dir)
        with self._lock:
            self._replenish()

    # ---- the Sandbox interface

    def run(self, job: Job | GenerateJob) -> JobRun:
        container = self._take()
        container.channel.on_slow = lambda: self._slow_down(container)
        try:
            result = container.channel.run_job(job)
        except (SandboxError, OSError) as exc:
            self._retire(container, f"failed: {exc}")
            raise SandboxError(f"docker sandbox failed: {exc}") from None
        container.jobs += 1
        result.info = container.info | {"container": container.id[:12]}
        log_job(job, result, f"container {container.id[:12]}")
        # A job that hit a limit or crashed was cleaned up by the zygote, but its container is
        # replaced anyway (in the background): nothing it did can matter to the next submission.
        limit_hit = next((e["outcome"] for e in result.events if e.get("outcome") in P.Outcome.RECYCLE), None)
        if result.anomaly or limit_hit:
            self._retire(container, result.anomaly or f"a test ended with {limit_hit}")
        elif container.jobs >= self.max_jobs:
            self._retire(container, f"served {container.jobs} jobs")
        else:
            with self._lock:
                self._settling += 1
            # In the caller's context: a container recycled after this job logs it under the job's request id.
            self._settler.submit(contextvars.copy_context().run, self._settle, container)
        return result

    def close(self) -> None:
        with self._lock:
            self._closed = True
            ready, self._ready = list(self._ready), deque()
            self._lock.notify_all()
        for container in ready:
            container.close()
        self._settler.shutdown(wait=True)
        self._executor.shutdown(wait=True)

    # ---- the pool

    def ready_containers(self) -> list[Container]:
        """The warm containers the next jobs will use, once settled (tests look inside them)."""
        with self._lock:
            self._lock.wait_for(lambda: not self._settling, timeout=START_TIMEOUT_S)
            return list(self._ready)

    def wait_until_full(self, timeout_s: float = START_TIMEOUT_S) -> None:
        """Block until every container of the pool is warm (benchmarks and tests)."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            while len(self._ready) + self._busy < self.pool_size:
                self._replenish()
                if self._starting == 0 and self._last_failure is not None:
                    raise SandboxError(f"cannot start a sandbox container: {self._last_failure}")
                if not self._lock.wait(max(0.0, deadline - time.monotonic())):
                    raise SandboxError("the sandbox pool did not fill in time")

    def _take(self) -> Container:
        deadline = time.monotonic() + START_TIMEOUT_S
        with self._lock:
            if self._closed:
                raise SandboxError("the sandbox pool is closed")
            while True:
                while self._ready:
                    # The most recently settled.  One job at a time with a few milliseconds
                    # between them (a worker's database work) always gets the same container;
                    # back to back, a job takes another one while the last cleans up and forks
                    # its next child (``clean`` comes after both), so the two containers take
                    # turns and each job finds its child forked.
                    container = self._ready.pop()
                    if container.channel.idle_and_healthy():
                        self._busy += 1
                        self._replenish()
                        return container
                    self._executor.submit(container.close)
                if self._starting == 0 and self._last_failure is not None:
                    failure, self._last_failure = self._last_failure, None
                    raise SandboxError(f"cannot start a sandbox container: {failure}")
                self._replenish()
                if not self._lock.wait(max(0.0, deadline - time.monotonic())):
                    raise SandboxError("no sandbox container became ready in time")

    def _settle(self, container: Container) -> None:
        """Wait for the zygote's ``clean`` after a job, then make the container available again (at its full
        CPU weight: the next job is another student's)."""
        try:
            anomaly = container.channel.settle()
        except (SandboxError, OSError) as exc:
            anomaly = f"it did not clean up: {exc}"
        if not anomaly and container.slowing is not None:
            container.slowing.join()
            container.slowing = None
            if not self._set_weight(container, self.weight):
                anomaly = "its CPU weight could not be restored"
        with self._lock:
            self._settling -= 1
            self._lock.notify_all()
        if anomaly:
            self._retire(container, anomaly)
        else:
            self._give_back(container)

    @property
    def weight(self) -> int:
        """The containers' CPU weight against other containers (cgroup ``cpu.shares``; the engine's default is 1024)."""
        return self.cpu_shares or 1024

    def _slow_down(self, container: Container) -> None:
        """A test of this container's job has run past half its limit (the zygote's ``slow``): the rest of the
        job gets an eighth of the CPU weight, in a thread of its own, so the job is not held up by the engine."""
        if container.slowing is None:
            container.slowing = threading.Thread(
                target=self._set_weight,
                name="sandbox-slow-down",
                args=(container, max(2, self.weight // SLOW_WEIGHT_DIVISOR)),
            )
            container.slowing.start()

    def _set_weight(self, container: Container, shares: int) -> bool:
        try:
            self.client.api.update_container(container.id, cpu_shares=shares)
        except Exception as exc:  # the container is gone (a loop's is retired at its timeout), or the engine failed
            log.info("could not set sandbox container %s's CPU weight to %d: %s", container.id[:12], shares, exc)
            return False
        return True

    def _give_back(self, container: Container) -> None:
        with self._lock:
            self._busy -= 1
            if not self._closed:
                self._ready.append(container)
                self._lock.notify_all()
                return
        container.close()

    def _retire(self, container: Container, why: str) -> None:
        log.info("recycling sandbox container %s: %s", container.id[:12], why)
        with self._lock:
            self.recycled += 1
            self._busy -= 1
            if not self._closed:
                self._executor.submit(container.close)
                self._replenish()
                return
        container.close()

    def _replenish(self) -> None:
        """Start containers in the background until the pool is full (lock held)."""
        if self._closed:
            return
        missing = self.pool_size - len(self._ready) - self._starting - self._busy
        for _ in range(max(0, missing)):
            self._starting += 1
            self._executor.submit(self._start_one)

    def _start_one(self) -> None:
        container = failure = None
        try:
            container = self.start_container()
        except Exception as exc:  # reported to the next caller of _take
            failure = exc
            log.warning("could not start a sandbox container: %s", exc)
        with self._lock:
            self._starting -= 1
            if container is not None and not self._closed:
                self._ready.append(container)
                self._last_failure = None
            elif failure is not None:
                self._last_failure = failure
            self._lock.notify_all()
        if container is not None and self._closed:
            container.close()

    # ---- one container

    def host_config(self, socket_dir: Path | None = None) -> dict[str, Any]:
        config: dict[str, Any] = self.client.api.create_host_config(
            # Only the container's own socket directory, read-only (connecting needs no write).
            binds=[f"{socket_dir}:{SOCKET_MOUNT}:ro"] if socket_dir else None,
            network_mode="none",
            read_only=True,
            # Root-owned and 0711: a child writes only in the directory the zygote gives it.
            tmpfs={"/tmp": f"size={self.scratch_mb}m,mode=0711"},
            ipc_mode="none",  # no /dev/shm to leave files in
            cap_drop=["ALL"],
            cap_add=ZYGOTE_CAPABILITIES,
            security_opt=["no-new-privileges", f"seccomp={self.seccomp}"],
            pids_limit=self.pids_limit,
            mem_limit=f"{self.memory_mb}m",
            memswap_limit=f"{self.memory_mb}m",
            nano_cpus=int(self.cpus * 1e9),
            cpu_shares=self.cpu_shares,
            init=True,  # tini as pid 1 reaps whatever a child orphans
            auto_remove=True,
        )
        return config

    def command(self, child_uid: int, connect: bool = False) -> list[str]:
        # --reap-after-reply: a finished job's killed child is waited for after `done`, so its
        # teardown overlaps the worker's checking instead of adding to the round trip.
        command = ["python3", "-s", "-B", "-m", "sandbox.zygote", "--child-uid", str(child_uid), "--reap-after-reply"]
        return command + ["--connect", f"{SOCKET_MOUNT}/{SOCKET_NAME}"] if connect else command

    def start_container(self) -> Container:
        where = self.socket_dir  # another thread may fall back meanwhile
        try:
            return self._start_with_socket(where) if where else self._start(None, None)
        except NoConnection as exc:
            # The engine cannot bind the directory, or it is not the host's path: fall back for good.
            log.warning(
                "sandbox containers cannot connect through %s (%s); using their attached "
                "streams (slower). Is SANDBOX_SOCKET_DIR a host path, mounted at the same "
                "path in this worker?",
                where,
                exc,
            )
            self.socket_dir = None
            return self._start(None, None)

    def _start_with_socket(self, where: Path) -> Container:
        socket_dir = Path(tempfile.mkdtemp(prefix="z-", dir=where))
        listener = None
        try:
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(str(socket_dir / SOCKET_NAME))
            listener.listen(1)
            return self._start(socket_dir, listener)
        except Exception:
            _remove_socket_dir(socket_dir)
            raise
        finally:
            if listener is not None:
                listener.close()
                # Connected (or failed): nothing else may ever connect.
                (socket_dir / SOCKET_NAME).unlink(missing_ok=True)

    def _start(self, socket_dir: Path | None, listener: socket.socket | None) -> Container:
        api = self.client.api
        # A uid of its own per container, so that per-uid limits never span two sandboxes.
        child_uid = random.randrange(200_000, 2_000_000_000)
        labels = {LABEL: "1", OWNER_LABEL: self.owner, HOST_LABEL: socket.gethostname()}
        created = api.create_container(
            self.image,
            command=self.command(child_uid, connect=listener is not None),
            user="0",
            # With attach, and since not detached, StdinOnce: our hang-up is its end-of-file.
            # With a socket, the socket's end is.
            stdin_open=listener is None,
            tty=False,
            network_disabled=True,
            environment=ZYGOTE_ENVIRONMENT,
            labels=labels | ({SOCKET_LABEL: str(socket_dir)} if socket_dir else {}),
            host_config=self.host_config(socket_dir),
        )
        container_id = created["Id"]
        try:
            if listener is not None:
                api.start(container_id)
                channel, keepalive = SocketChannel(self._accept(listener, container_id)), None
            else:
                # Attach before starting, so nothing the zygote writes can be missed.
                response = api.attach_socket(container_id, params={"stdin": 1, "stdout": 1, "stream": 1})
                channel, keepalive = DemuxChannel(getattr(response, "_sock", response)), response
                api.start(container_id)
            container = Container(self.client, container_id, channel, child_uid, socket_dir, keepalive)
            container.info = container.channel.ping(timeout_s=START_TIMEOUT_S)
        except Exception:
            _remove(self.client, container_id)
            raise
        return container

    def _accept(self, listener: socket.socket, container_id: str) -> socket.socket:
        """The zygote's connection; fails fast if its container stops before connecting."""
        import docker.errors

        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if select.select([listener], [], [], 0.2)[0]:
                return listener.accept()[0]
            try:
                state = self.client.api.inspect_container(container_id)["State"]
            except docker.errors.NotFound:
                state = {"Status": "removed"}
            if not state.get("Running"):
                raise NoConnection(f"the sandbox container stopped ({state.get('Status')}) before connecting")
        raise NoConnection("the sandbox container did not connect in time")

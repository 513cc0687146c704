"""What a job left behind in a sandbox: live processes of the student's uid, files in scratch.

Both backends are inspected from the host, as root, through /proc: a sandbox's
zygote has a pid here, and /proc/<pid>/root shows its file system as it sees it
(the masked tree of the process backend, the container's for Docker).
"""

from __future__ import annotations

import glob
import os
import time

from sandbox.backends.docker import DockerSandbox
from sandbox.backends.process import ProcessSandbox


def processes_of(uid: int, zombies: bool = False) -> list[int]:
    """Processes whose real uid is ``uid``; zombies only when asked."""
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/status") as status:
                fields = dict(line.split(":", 1) for line in status if ":" in line)
        except (OSError, ValueError):
            continue
        if int(fields["Uid"].split()[0]) == uid and (zombies or not fields["State"].strip().startswith(("Z", "X"))):
            found.append(int(entry))
    return found


def scratch_entries(root_pid: int, whole_tmp: bool) -> list[str]:
    """Whatever lies in the zygote's scratch, except the one empty directory its waiting child owns.

    ``whole_tmp``: anything else in /tmp counts too (a container's /tmp is the zygote's alone;
    the process backend's may hold the mount points of a checkout that lives under /tmp).
    """
    workdirs = glob.glob(f"/proc/{root_pid}/root/tmp/zygote-*/*")
    entries = [path for workdir in workdirs for path in glob.glob(f"{workdir}/*") + glob.glob(f"{workdir}/.*")]
    if len(workdirs) > 1:
        entries += workdirs
    others = (
        [
            p
            for p in glob.glob(f"/proc/{root_pid}/root/tmp/*") + glob.glob(f"/proc/{root_pid}/root/tmp/.*")
            if "/tmp/zygote-" not in p
        ]
        if whole_tmp
        else []
    )
    return [path.split("/root", 1)[1] for path in entries + others]


def zygote_pid(root_pid: int) -> int:
    """The zygote under a container's init (tini), or the process itself."""
    try:
        with open(f"/proc/{root_pid}/task/{root_pid}/children") as children:
            kids = [int(pid) for pid in children.read().split()]
    except OSError:
        return root_pid
    return kids[0] if kids else root_pid


def leftovers(sandbox, settle_s: float = 5.0) -> list[str]:
    """Everything that survived the last job in the sandboxes the next job may use; [] when clean."""
    deadline = time.monotonic() + settle_s
    while True:
        found = _leftovers(sandbox)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def _leftovers(sandbox) -> list[str]:
    found = []
    if isinstance(sandbox, ProcessSandbox):
        if sandbox.process is None:
            return []
        pid = sandbox.process.pid
        uid = sandbox.info.get("child_uid")
        targets = [(pid, uid)]
    elif isinstance(sandbox, DockerSandbox):
        targets = []
        for container in sandbox.ready_containers():
            state = sandbox.client.api.inspect_container(container.id)["State"]
            targets.append((zygote_pid(state["Pid"]), container.child_uid))
    else:
        raise TypeError(sandbox)
    for pid, uid in targets:
        if uid is not None:
            found += [f"process {p} of uid {uid}" for p in processes_of(uid)]
        found += [f"file {path}" for path in scratch_entries(pid, isinstance(sandbox, DockerSandbox))]
    return found

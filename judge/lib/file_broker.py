"""The embedded default's broker: kombu's file-system transport, made safe to read while others write.

kombu's transport (5.7) creates a message file and only then writes it; a worker polling the folder every
50 ms can read it empty in between, and the JSON error that follows ends a Celery worker ("Unrecoverable
error", kombu issue 1551).  The same holds for an exchange table, which is truncated before it is rewritten.

Here, as the rules of this broker:

- A message is written under a name no reader looks at (``.<name>.part``) and renamed into place, so a reader
  sees it whole or not at all.  Exchange tables are replaced the same way, under a lock file of their own.
- A reader claims a message by renaming it into the claimed folder: atomic on one file system, so two
  workers never take the same message (kombu moves it to the temporary folder, which may be another file
  system, where a move is a copy).
- A message that cannot be decoded never ends the worker.  A young one (another writer may still be writing
  it, as kombu's own transport does) goes back into the queue for a later look; one older than
  ``DAMAGED_AFTER_S`` is moved to the damaged folder with a log line naming the file.  Its submission is not
  lost: the database holds it, and the recovery sweep sends it again.
- A worker waiting for work sleeps on the queue folder (Linux's inotify) instead of looking into it every
  poll: a message renamed into place wakes it at once, and an idle worker costs next to nothing.  Where
  inotify is missing it looks every ``polling_interval`` as kombu does.
"""

from __future__ import annotations

import ctypes
import fcntl
import logging
import os
import select
import sys
import time
import uuid
from pathlib import Path
from typing import Any, cast

from kombu.transport import filesystem
from kombu.transport.virtual import Channel as VirtualChannel
from kombu.utils.json import dumps, loads

log = logging.getLogger(__name__)

DAMAGED_AFTER_S = 2.0  # a writer that is slower than this to finish one message is taken for a broken one


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a reader of ``path`` finds the old content or all of the new."""
    part = path.with_name(f".{path.name}.{uuid.uuid4().hex}.part")
    with open(part, "wb") as file:
        file.write(data)
    os.replace(part, path)


def decoded_message(data: bytes) -> dict[str, Any] | None:
    """The message in ``data``, or None where it is not one kombu can deliver."""
    try:
        payload = loads(data.decode())
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(payload, dict) or not isinstance(payload.get("properties"), dict) or "body" not in payload:
        return None
    return payload


def queued_counts(folder: Path) -> dict[str, int]:
    """Messages waiting in the queue folder, per queue (a message file is named ``<time>_<uuid>.<queue>.msg``;
    one a worker has taken has left the folder)."""
    counts: dict[str, int] = {}
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return counts
    for name in names:
        queue, _, suffix = name.partition(".")[2].rpartition(".")
        if suffix == "msg" and queue:
            counts[queue] = counts.get(queue, 0) + 1
    return counts


class Channel(filesystem.Channel):
    # kombu's two base classes name the second argument differently (payload, message): it is passed by position.
    def _put(self, queue: str, payload: dict, **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{round(time.monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        try:
            write_atomically(Path(self.data_folder_out) / name, dumps(payload).encode())
        except OSError as exc:
            raise filesystem.ChannelError(f"Cannot add a message to {self.data_folder_out!r}") from exc

    def _get(self, queue: str, timeout: float | None = None) -> dict:
        wanted = f"{queue}.msg"
        for name in sorted(os.listdir(self.data_folder_in)):
            if name.partition(".")[2] == wanted and (payload := self._take(name)) is not None:
                return payload
        raise filesystem.Empty

    def _take(self, name: str) -> dict | None:
        """Claim the message file ``name`` and decode it; None if another reader took it or it is not whole."""
        queued, claimed = Path(self.data_folder_in) / name, self.claimed_folder / name
        try:
            os.rename(queued, claimed)
        except FileNotFoundError:  # another worker took it
            return None
        try:
            data, written = claimed.read_bytes(), claimed.stat().st_mtime
        except OSError as exc:
            raise filesystem.ChannelError(f"Cannot read the message {str(claimed)!r}") from exc
        payload = decoded_message(data)
        if payload is not None:
            claimed.unlink()
        elif time.time() - written < DAMAGED_AFTER_S:
            os.rename(claimed, queued)  # perhaps still being written: look again at the next poll
        else:
            os.rename(claimed, self.damaged_folder / name)
            log.error(
                "The broker message %s could not be read (%d bytes); it was moved to %s. Its work is not "
                "lost: the recovery sweep sends it again.",
                name,
                len(data),
                self.damaged_folder,
            )
        return payload

    # --- exchange tables: replaced whole, under a lock file, never truncated in place -----------------------

    def get_table(self, exchange: str) -> list:
        file = self._exchange_file(exchange)
        try:
            table = loads(file.read_bytes().decode())
        except FileNotFoundError:
            return []
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            raise filesystem.ChannelError(f"Cannot read the exchange table {file}") from exc
        return [filesystem.exchange_queue_t(*row) for row in table]

    def _queue_bind(self, exchange: str, routing_key: str, pattern: str, queue: str) -> None:
        row = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with self._exchange_lock(exchange):
            table = self.get_table(exchange)
            if row not in table:
                self._write_table(exchange, [row, *table])

    def _delete(self, queue: str, exchange: str, routing_key: str, pattern: str, *args, **kwargs) -> None:
        VirtualChannel._delete(self, queue, exchange, routing_key, pattern, *args, **kwargs)
        row = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with self._exchange_lock(exchange):
            table = self.get_table(exchange)
            if row in table:
                self._write_table(exchange, [r for r in table if r != row])

    def _write_table(self, exchange: str, table: list) -> None:
        write_atomically(self._exchange_file(exchange), dumps(table).encode())

    def _exchange_lock(self, exchange: str) -> ExchangeLock:
        self.control_folder.mkdir(parents=True, exist_ok=True)
        return ExchangeLock(self._exchange_file(exchange).with_suffix(".lock"))

    @property
    def claimed_folder(self) -> Path:
        return self._folder("claimed_folder", "claimed")

    @property
    def damaged_folder(self) -> Path:
        return self._folder("damaged_folder", "damaged")

    def _folder(self, option: str, default: str) -> Path:
        folder = Path(self.transport_options.get(option) or Path(self.data_folder_in).parent / default)
        folder.mkdir(parents=True, exist_ok=True)
        return folder


class ExchangeLock:
    """An exclusive lock on a file of its own, held by one writer of an exchange table at a time."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __enter__(self) -> None:
        self.file = open(self.path, "a")
        fcntl.flock(self.file.fileno(), fcntl.LOCK_EX)

    def __exit__(self, *exc_info: object) -> None:
        fcntl.flock(self.file.fileno(), fcntl.LOCK_UN)
        self.file.close()


class FolderWatch:
    """Waits until a file is renamed into, or written and closed in, a folder (inotify), or a timeout passes."""

    IN_CLOSE_WRITE, IN_MOVED_TO = 0x8, 0x80

    def __init__(self, folder: str) -> None:
        self.fd = -1
        if not sys.platform.startswith("linux"):
            return
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd >= 0 and libc.inotify_add_watch(fd, os.fsencode(folder), self.IN_CLOSE_WRITE | self.IN_MOVED_TO) >= 0:
            self.fd = fd
        elif fd >= 0:
            os.close(fd)

    @property
    def works(self) -> bool:
        return self.fd >= 0

    def wait(self, seconds: float) -> None:
        """Return when the folder changed (at once if it changed since the last wait) or after ``seconds``."""
        if select.select([self.fd], [], [], max(0.0, seconds))[0]:
            try:
                while os.read(self.fd, 65536):
                    pass
            except BlockingIOError:
                pass


class Transport(filesystem.Transport):
    Channel = Channel
    # A folder on this machine has no host: without this kombu warns at every start that none was supplied.
    default_connection_params: dict[str, Any] = {}

    def drain_events(self, connection: Any, timeout: float | None = None, **kwargs: Any) -> None:
        """kombu's loop, but between two empty looks it sleeps on the queue folder rather than for a poll."""
        started, watch = time.monotonic(), self._watch()
        while True:
            try:
                cast(Any, self.cycle).get(self._deliver, timeout=timeout)  # kombu's stubs type it None
                return
            except filesystem.Empty:
                left = None if timeout is None else timeout - (time.monotonic() - started)
                if left is not None and left <= 0:
                    raise TimeoutError from None
                if watch.works:
                    watch.wait(self.polling_interval * 20 if left is None else left)
                else:
                    time.sleep(self.polling_interval if left is None else min(left, self.polling_interval))

    def _watch(self) -> FolderWatch:
        if getattr(self, "_folder_watch", None) is None:
            options = cast(Any, self.client).transport_options
            self._folder_watch = FolderWatch(options.get("data_folder_in", "data_in"))
        return self._folder_watch

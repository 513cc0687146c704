"""The embedded default's file-system broker never hands a worker a message that is not whole, and a damaged
message file is set aside with a log line instead of ending the worker (kombu issue 1551: the worker exited
with ``JSONDecodeError`` when its poll found a message file created but not yet written)."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import queue
import time
import uuid
from pathlib import Path

import pytest
from kombu import Connection

from judge.lib import file_broker

OURS, KOMBUS = "judge.lib.file_broker:Transport", "filesystem"


@pytest.fixture(autouse=True)
def fresh_broker_state():
    """A transport keeps the bindings it declared in the process (the folders' tables are skipped for those):
    each test's folders start without any."""
    file_broker.Transport.global_state.clear()
    yield
    file_broker.Transport.global_state.clear()


def made_folders(root: Path) -> dict[str, Path]:
    folders = {name: root / name for name in ("queue", "processed", "control", "claimed", "damaged")}
    for folder in folders.values():
        folder.mkdir(exist_ok=True)
    return folders


def connect(root: Path, transport: str = OURS, polling_interval: float = 0.01) -> Connection:
    folders = made_folders(root)
    return Connection(
        "filesystem://",
        transport=transport,
        transport_options={
            "data_folder_in": str(folders["queue"]),
            "data_folder_out": str(folders["queue"]),
            "processed_folder": str(folders["processed"]),
            "control_folder": str(folders["control"]),
            "claimed_folder": str(folders["claimed"]),
            "damaged_folder": str(folders["damaged"]),
            "polling_interval": polling_interval,
        },
    )


def plant(root: Path, data: bytes, age_s: float = 0.0, queue_name: str = "submit") -> Path:
    """A message file as kombu names them, holding ``data``, written ``age_s`` seconds ago."""
    name = f"{int(time.monotonic() * 1000) - 10_000}_{uuid.uuid4()}.{queue_name}.msg"
    path = made_folders(root)["queue"] / name
    path.write_bytes(data)
    then = time.time() - age_s
    os.utime(path, (then, then))
    return path


def test_kombus_own_transport_dies_of_an_empty_message_file(tmp_path):
    """The defect itself, kept as the reason for the transport: kombu raises the worker's fatal error."""
    plant(tmp_path, b"")
    with connect(tmp_path, KOMBUS) as connection, pytest.raises(json.JSONDecodeError):
        connection.SimpleQueue("submit").get(block=False)


def test_an_empty_message_file_is_looked_at_again_while_it_may_still_be_written(tmp_path):
    planted = plant(tmp_path, b"")
    with connect(tmp_path) as connection, pytest.raises(queue.Empty):
        connection.SimpleQueue("submit").get(block=False)
    assert planted.exists()
    assert not any((tmp_path / "damaged").iterdir())


def test_an_old_empty_or_truncated_message_is_set_aside_with_a_log_line_and_the_next_one_delivered(tmp_path, caplog):
    with connect(tmp_path) as connection:
        messages = connection.SimpleQueue("submit")
        messages.put({"submission": 7})
        empty = plant(tmp_path, b"", age_s=5)
        truncated = plant(tmp_path, b'{"body": "eyJzdWJ', age_s=5)
        not_a_message = plant(tmp_path, b"[1, 2, 3]", age_s=5)
        with caplog.at_level(logging.ERROR, logger="judge.lib.file_broker"):
            delivered = messages.get(timeout=5)
            delivered.ack()  # else closing the connection puts it back
    assert delivered.payload == {"submission": 7}
    damaged = sorted(path.name for path in (tmp_path / "damaged").iterdir())
    assert damaged == sorted([empty.name, truncated.name, not_a_message.name])
    assert empty.name in caplog.text and "recovery sweep" in caplog.text
    assert list((tmp_path / "queue").iterdir()) == []


def test_a_message_is_visible_to_a_reader_only_once_it_is_whole(tmp_path, monkeypatch):
    seen_while_writing = []

    class Spying:
        """A file object that lists the queue folder between two halves of a write."""

        def __init__(self, path, mode):
            self.file = open(path, mode)  # noqa: SIM115  (closed by __exit__)

        def __enter__(self):
            return self

        def __exit__(self, *exc_info):
            self.file.close()

        def write(self, data: bytes) -> None:
            self.file.write(data[:5])
            self.file.flush()
            seen_while_writing.extend(p.name for p in (tmp_path / "queue").iterdir() if p.name.endswith(".msg"))
            self.file.write(data[5:])

    def spying_open(path, mode="r"):
        return Spying(path, mode) if mode == "wb" else open(path, mode)

    monkeypatch.setattr(file_broker, "open", spying_open, raising=False)
    with connect(tmp_path) as connection:
        connection.SimpleQueue("submit").put({"submission": 8})
        assert seen_while_writing == []
        monkeypatch.undo()
        assert connection.SimpleQueue("submit").get(timeout=5).payload == {"submission": 8}


def send_many(root: Path, count: int) -> None:
    with connect(root) as connection:
        messages = connection.SimpleQueue("submit")
        for number in range(count):
            messages.put({"n": number})


def test_every_message_sent_while_a_worker_polls_arrives_once_and_whole(tmp_path):
    count = 400
    writers = [multiprocessing.get_context("spawn").Process(target=send_many, args=(tmp_path, count)) for _ in range(2)]
    for writer in writers:
        writer.start()
    received = []
    with connect(tmp_path) as connection:
        messages = connection.SimpleQueue("submit")
        deadline = time.monotonic() + 120
        while len(received) < 2 * count and time.monotonic() < deadline:
            try:
                message = messages.get(timeout=0.5)
                message.ack()
                received.append(message.payload["n"])
            except queue.Empty:
                pass
    for writer in writers:
        writer.join(30)
    assert sorted(received) == sorted(list(range(count)) * 2)
    assert not any((tmp_path / "damaged").iterdir())


def bind(root: Path, name: str) -> None:
    with connect(root) as connection:
        channel = connection.default_channel
        for number in range(30):
            channel._queue_bind("celery.pidbox", "", "", f"{name}-{number}")


def test_exchange_tables_written_by_two_workers_at_once_keep_every_binding(tmp_path):
    binders = [multiprocessing.get_context("spawn").Process(target=bind, args=(tmp_path, name)) for name in ("a", "b")]
    for binder in binders:
        binder.start()
    for binder in binders:
        binder.join(60)
    with connect(tmp_path) as connection:
        queues = {row.queue for row in connection.default_channel.get_table("celery.pidbox")}
    assert queues == {f"{name}-{number}" for name in "ab" for number in range(30)}


def test_a_waiting_worker_is_woken_by_a_message_at_once_not_at_its_next_look(tmp_path):
    """The folder is watched (inotify): with looks 5 s apart, a message sent 0.3 s into a wait arrives then."""
    import threading

    def send_later() -> None:
        time.sleep(0.3)
        with connect(tmp_path) as sender:
            sender.SimpleQueue("submit").put({"submission": 9})

    with connect(tmp_path, polling_interval=5.0) as connection:
        messages = connection.SimpleQueue("submit")
        with pytest.raises(queue.Empty):
            messages.get(block=False)  # declared, and the folder watched from here on
        threading.Thread(target=send_later).start()
        started = time.monotonic()
        message = messages.get(timeout=4)
        took = time.monotonic() - started
        message.ack()
    assert message.payload == {"submission": 9}
    assert took < 2.0

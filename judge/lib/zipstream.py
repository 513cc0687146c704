"""A zip written as it is sent: members go in one at a time and the bytes written so far are handed out, so a
download of thousands of files never holds more than one of them (and the zip's directory, written last).

ZipFile writes to a sink that cannot seek; it then writes a data descriptor after each member instead of going
back to fill in its header, and switches to ZIP64 records by itself past 65,535 members or 4 GiB.
"""

from __future__ import annotations

import zipfile
from datetime import datetime

CHUNK = 64 * 1024  # what ``ready`` waits for: a response of a few large writes, not one per small file


class Sink:
    """A write-only file for ZipFile."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.size = 0

    def write(self, data: bytes) -> int:
        self.parts.append(bytes(data))
        self.size += len(data)
        if len(self.parts) > 512:  # the zip's directory comes as three small writes a member: keep them as one
            self.parts = [b"".join(self.parts)]
        return len(data)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        pass

    def drain(self) -> bytes:
        data, self.parts, self.size = b"".join(self.parts), [], 0
        return data


class ZipStream:
    """``add`` members, send what ``ready`` gives after each, and ``close`` for the last bytes."""

    def __init__(self, folder: str) -> None:
        self._sink = Sink()
        self._zip = zipfile.ZipFile(self._sink, "w")
        self._folder = folder.strip("/")

    def add(self, path: str, data: bytes, when: datetime, compress: int = zipfile.ZIP_DEFLATED) -> None:
        info = zipfile.ZipInfo(f"{self._folder}/{path}", max(when.timetuple()[:6], (1980, 1, 1, 0, 0, 0)))
        info.external_attr = (0o100000 | 0o644) << 16
        info.compress_type = compress
        self._zip.writestr(info, data)

    def ready(self) -> bytes:
        """The bytes written so far once there are enough to be worth a write, else b""."""
        return self._sink.drain() if self._sink.size >= CHUNK else b""

    def close(self) -> bytes:
        self._zip.close()
        return self._sink.drain()

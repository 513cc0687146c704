"""A git repository written straight into a zip, as it is streamed: the standard library only (zlib, hashlib,
zipfile), never the ``git`` program.

Git's formats as written here: a loose object is ``zlib("<type> <size>\\0" + body)`` stored under
``.git/objects/<first two hex digits>/<the other 38>`` and named by the SHA-1 of the uncompressed bytes; a tree
lists its entries sorted by name (a folder's name compared as if it ended in ``/``); a commit names its tree and
parent.  After the history come the refs, the files of the last commit (the working tree) and an index (version 2)
that lists them, so ``git status`` in the unzipped folder is clean.  The index carries no stat data: git
compares the files' contents the first time, then writes its own.

Each member is written to the zip as it is made and the bytes written are handed out by ``drain``, so the code
passes through one object at a time; what stays is a record per member for the zip's directory (written last)
and each object's name: about 3.4 KB a Submit, whatever its code's size (``bench/export_memory.py``).
"""

from __future__ import annotations

import hashlib
import struct
import zipfile
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from judge.lib.zipstream import Sink

FILE_MODE = "100644"
TREE_MODE = "40000"
BRANCH = "main"


@dataclass(frozen=True)
class Person:
    name: str
    email: str

    def signature(self, when: datetime) -> str:
        offset = when.utcoffset()
        minutes = int(offset.total_seconds() // 60) if offset else 0
        sign = "-" if minutes < 0 else "+"
        zone = f"{sign}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d}"
        return f"{self.name} <{self.email}> {int(when.timestamp())} {zone}"


class GitZip:
    """``put`` files, ``commit`` them, repeat; ``finish`` writes the refs, the working tree and the index."""

    def __init__(self, folder: str, when: datetime) -> None:
        self._sink = Sink()
        self._zip = zipfile.ZipFile(self._sink, "w")
        self._folder = folder.strip("/")
        self._when = when.timetuple()[:6]
        self._written: set[str] = set()
        self._dirs: dict[str, dict[str, tuple[str, str]]] = {"": {}}  # folder -> name -> (mode, object name)
        self._dirty: set[str] = {""}
        self._sizes: dict[str, int] = {}  # path -> size, for the index
        self._root = ""
        self.head: str | None = None
        self.commits = 0

    def drain(self) -> bytes:
        """The zip's bytes written since the last call."""
        return self._sink.drain()

    # Objects.
    def _object(self, kind: str, body: bytes) -> str:
        raw = f"{kind} {len(body)}\0".encode() + body
        name = hashlib.sha1(raw, usedforsecurity=False).hexdigest()
        if name not in self._written:
            self._written.add(name)
            # Level 1: git reads any level, and the fastest keeps a long history quick to send.
            self._member(f".git/objects/{name[:2]}/{name[2:]}", zlib.compress(raw, 1), 0o444, zipfile.ZIP_STORED)
        return name

    def _member(self, path: str, data: bytes, mode: int = 0o644, compress: int = zipfile.ZIP_DEFLATED) -> None:
        info = zipfile.ZipInfo(f"{self._folder}/{path}", self._when)
        info.external_attr = (0o100000 | mode) << 16
        info.compress_type = compress
        self._zip.writestr(info, data)

    # The tree being built.
    def put(self, path: str, data: bytes) -> None:
        name = self._object("blob", data)
        *folders, filename = path.split("/")
        for depth in range(len(folders) + 1):
            folder = "/".join(folders[:depth])
            self._dirs.setdefault(folder, {})
            self._dirty.add(folder)
            if depth < len(folders):
                self._dirs[folder].setdefault(folders[depth], (TREE_MODE, ""))
        self._dirs["/".join(folders)][filename] = (FILE_MODE, name)
        self._sizes[path] = len(data)

    def _write_trees(self) -> str:
        """The trees of the folders changed since the last commit, deepest first; the root's name."""
        for folder in sorted(self._dirty, key=lambda f: (-(f.count("/") + bool(f)), f)):
            body = b"".join(
                f"{mode} {name}\0".encode() + bytes.fromhex(sha)
                for name, (mode, sha) in sorted(self._dirs[folder].items(), key=_tree_order)
            )
            sha = self._object("tree", body)
            if folder:
                parent, _, name = folder.rpartition("/")
                self._dirs[parent][name] = (TREE_MODE, sha)
            else:
                self._root = sha
        self._dirty.clear()
        return self._root

    def commit(self, author: Person, when: datetime, message: str) -> str:
        tree = self._write_trees()
        lines = [f"tree {tree}"] + ([f"parent {self.head}"] if self.head else [])
        lines += [f"author {author.signature(when)}", f"committer {author.signature(when)}", "", message.rstrip()]
        self.head = self._object("commit", ("\n".join(lines) + "\n").encode())
        self.commits += 1
        return self.head

    # The end: refs, the files of the last commit, the index.
    def finish(self, files: Iterable[tuple[str, bytes]]) -> bytes:
        """Write the refs and ``files`` (each path of the last commit with its content, in any order), close
        the zip, and return its last bytes."""
        self._member(".git/HEAD", f"ref: refs/heads/{BRANCH}\n".encode())
        self._member(".git/config", b"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n")
        self._member(".git/description", b"Exported from NumPy Transformer Judge.\n")
        if self.head:
            self._member(f".git/refs/heads/{BRANCH}", f"{self.head}\n".encode())
        else:
            self._member(".git/refs/heads/.keep", b"")  # git wants the folder even before a first commit
        index: list[tuple[str, str, int]] = []
        for path, data in files:
            self._member(path, data)
            folder, _, filename = path.rpartition("/")
            index.append((path, self._dirs[folder][filename][1], len(data)))
        self._member(".git/index", _index(index))
        self._zip.close()
        return self.drain()


def _tree_order(item: tuple[str, tuple[str, str]]) -> bytes:
    name, (mode, _) = item
    return (name + "/" if mode == TREE_MODE else name).encode()


def _index(entries: list[tuple[str, str, int]]) -> bytes:
    """Git's index, version 2: a header, one entry per file sorted by path, and the SHA-1 of it all."""
    out = [b"DIRC", struct.pack(">II", 2, len(entries))]
    for path, sha, size in sorted(entries, key=lambda e: e[0].encode()):
        encoded = path.encode()
        entry = struct.pack(">10I", 0, 0, 0, 0, 0, 0, 0o100644, 0, 0, size) + bytes.fromhex(sha)
        entry += struct.pack(">H", min(len(encoded), 0xFFF)) + encoded
        out.append(entry + b"\0" * (8 - len(entry) % 8))  # one to eight NULs: the entry ends on 8 bytes
    body = b"".join(out)
    return body + hashlib.sha1(body, usedforsecurity=False).digest()

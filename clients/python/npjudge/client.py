"""The judge's API over HTTP (the standard library only): JSON, ``.npy`` downloads and the event stream."""

from __future__ import annotations

import json
import re
import shutil
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

from npjudge import config


class ApiError(Exception):
    """The server refused (its problem details' ``detail``), or could not be reached."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


class Client:
    def __init__(self, server: str | None = None, token: str | None = None, timeout: float = 30.0) -> None:
        saved = config.load()
        self.server = (server or saved["server"]).rstrip("/")
        self.token = token if token is not None else saved["token"]
        self.timeout = timeout

    def _open(
        self,
        method: str,
        path: str,
        body: dict | None = None,
        headers: dict | None = None,
        timeout: float | None = None,
    ):
        url = path if path.startswith("http") else f"{self.server}/api/v1{path}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            url,
            data=data,
            method=method,
            headers={
                "Authorization": f"Bearer {self.token}",
                "Accept": "application/json",
                **({"Content-Type": "application/json"} if data is not None else {}),
                **(headers or {}),
            },
        )
        try:
            return urllib.request.urlopen(request, timeout=timeout or self.timeout)
        except urllib.error.HTTPError as error:
            if error.code == 401:
                raise ApiError(self._token_refused(), 401) from None
            raise ApiError(_detail(error), error.code) from None
        except (urllib.error.URLError, OSError) as error:
            raise ApiError(f"cannot reach {self.server}: {getattr(error, 'reason', error)}") from None

    def _token_refused(self) -> str:
        where = f"{self.server}/accounts/me/"
        if not self.token:
            return f"you are not logged in: make a token at {where}, then run `npjudge login`"
        return f"your token was revoked or is wrong: make a new one at {where}, then run `npjudge login`"

    def get(self, path: str):
        with self._open("GET", path) as answer:
            return json.load(answer)

    def download(self, url: str) -> bytes:
        with self._open("GET", url) as answer:
            return answer.read()

    def save(self, path: str, folder: Path, name: str | None = None) -> Path:
        """A download streamed to a file in ``folder``, named ``name`` or as the server's Content-Disposition
        says; written beside it first, so a cut download never leaves a partial file under that name."""
        with self._open("GET", path, timeout=600) as answer:
            target = folder / (name or _attachment_name(answer.headers.get("Content-Disposition", "")) or "download")
            partial = target.with_name(target.name + ".part")
            with open(partial, "wb") as out:
                shutil.copyfileobj(answer, out, 1 << 16)
        partial.replace(target)
        return target

    def submit(self, problem: str, code: str, kind: str = "submit") -> dict:
        """One submission; a retry after a lost answer finds the same one (the Idempotency-Key)."""
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        for attempt in range(2):
            try:
                with self._open(
                    "POST", "/submissions", {"problem": problem, "code": code, "kind": kind}, headers
                ) as answer:
                    return json.load(answer)
            except ApiError as error:
                if error.status or attempt:
                    raise
        raise AssertionError("unreachable")

    def events(self, submission_id: int) -> Iterator[tuple[str, dict]]:
        """(event, data) from the submission's stream, until its verdict."""
        with self._open("GET", f"/submissions/{submission_id}/events", timeout=600) as stream:
            event, data = "message", list[str]()
            for raw in stream:
                line = raw.decode("utf-8").rstrip("\r\n")
                if not line:
                    if data:
                        yield event, json.loads("\n".join(data))
                    event, data = "message", []
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip())

    def wait_for_verdict(self, submission_id: int, on_status=None) -> dict:
        while True:
            for event, data in self.events(submission_id):
                if event == "verdict":
                    return data
                if event == "status" and on_status:
                    on_status(data)
            # The stream closed without a verdict (a time-out): ask again.


def _attachment_name(disposition: str) -> str | None:
    """The file name a Content-Disposition header gives, without any folder in it."""
    match = re.search(r'filename="([^"/\\]+)"', disposition)
    return match.group(1) if match and match.group(1) not in (".", "..") else None


def _detail(error: urllib.error.HTTPError) -> str:
    try:
        return json.loads(error.read()).get("detail") or f"HTTP {error.code}"
    except (ValueError, AttributeError):
        return f"HTTP {error.code} {error.reason}"

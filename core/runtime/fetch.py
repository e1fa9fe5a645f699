"""--prove-ort's network reads: HTTPS only, to the index and the official file host only, bounded in size and time.

Every answer is read with a cap on its size (a declared ``Content-Length`` beyond it is refused before reading; a
body that goes on is stopped at the cap), a timeout on every read and one deadline for the whole answer (a server
that sends a byte every few seconds is stopped at the deadline). Redirects are followed only to URLs the same rule
allows; ``file:``, ``ftp:``, ``data:`` and plain ``http:`` are never opened. Every failure is a
:data:`codes.PROVE_NETWORK` error naming the URL, never a traceback.

The rule is :data:`POLICY`; tests replace it (``monkeypatch.setattr(fetch, "POLICY", ...)``) to reach an index on
127.0.0.1 over plain HTTP. No environment variable can loosen it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..progress import CancelToken, check_cancel
from . import provecodes as codes

__all__ = ["OFFICIAL_FILE_HOST", "POLICY", "Deadline", "Policy", "check_url", "download_to", "get_json"]

#: Where PyPI keeps its files.
OFFICIAL_FILE_HOST = "files.pythonhosted.org"
#: Seconds one read (or the connection) may wait for data.
READ_TIMEOUT = 30.0
#: The index's JSON answer: at most this many bytes (PyPI's onnxruntime document is ~1 MiB, numpy's ~4 MiB) within
#: this many seconds.
JSON_CAP = 16 << 20
JSON_DEADLINE = 120.0
#: A wheel: at most this many bytes (official onnxruntime wheels are < 100 MiB) within this many seconds.
WHEEL_CAP = 400 << 20
WHEEL_DEADLINE = 1800.0
_CHUNK = 1 << 16


@dataclass(frozen=True)
class Policy:
    """Which URLs may be opened: ``schemes``, and hosts (the index's own host is always allowed besides
    ``hosts``); ``context``: the TLS context (None: the system's default, certificates verified)."""

    schemes: frozenset[str] = frozenset({"https"})
    hosts: frozenset[str] = frozenset({OFFICIAL_FILE_HOST})
    #: an ssl.SSLContext: not imported here, the frozen app has no TLS module (build_spec/freeze_config.py); urllib
    #: imports it for an https URL where it can
    context: Any = None
    read_timeout: float = READ_TIMEOUT
    json_deadline: float = JSON_DEADLINE
    wheel_deadline: float = WHEEL_DEADLINE


POLICY = Policy()


class Deadline:
    """One deadline for a whole answer."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def remaining(self) -> float:
        return self.end - time.monotonic()

    def passed(self) -> bool:
        return self.remaining() <= 0


def _host(url: str) -> str:
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def check_url(url: str, index: str, *, file: str | None = None) -> None:
    """Refuse ``url`` unless the policy allows its scheme and host (the index ``index``'s host, or the official
    file host)."""
    try:
        parts = urlsplit(url)
        scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    except ValueError:
        scheme, host = "", ""
    allowed = POLICY.hosts | {_host(index)}
    if scheme not in POLICY.schemes or not host or host not in allowed:
        shown = url if len(url) <= 200 else url[:200] + "…"
        if file is not None:
            raise codes.PROVE_NETWORK.error(variant="download_refused", file=file, url=shown, index=index,
                                            host=OFFICIAL_FILE_HOST, details=shown)
        raise codes.PROVE_NETWORK.error(variant="refused", url=shown, index=index, host=OFFICIAL_FILE_HOST,
                                        details=shown)


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Follow a redirect only to a URL :func:`check_url` allows."""

    def __init__(self, index: str, file: str | None) -> None:
        super().__init__()
        self.index, self.file = index, file

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> Any:
        check_url(newurl, self.index, file=self.file)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _content_length(headers: Any) -> int | None:
    raw = str(headers.get("Content-Length") or "").strip()
    return int(raw) if raw.isdigit() and len(raw) <= 18 else None


def _set_timeout(r: Any, seconds: float) -> None:
    """The socket's timeout for the next read (best effort: the deadline is also checked between reads)."""
    sock = getattr(getattr(getattr(r, "fp", None), "raw", None), "_sock", None)
    with contextlib.suppress(AttributeError, OSError, ValueError):
        sock.settimeout(max(0.05, seconds))  # type: ignore[union-attr]


def _fail(url: str, index: str, file: str | None, reason: str) -> Exception:
    if file is not None:
        return codes.PROVE_NETWORK.error(variant="download", file=file, reason=reason, details=f"{url}: {reason}")
    return codes.PROVE_NETWORK.error(index=index, reason=reason, details=f"{url}: {reason}")


def _pump(r: Any, url: str, index: str, sink: Callable[[bytes, int | None], None], *, cap: int, deadline: Deadline,
          cancel: CancelToken | None, file: str | None) -> None:
    """Read the open answer ``r`` into ``sink`` within ``cap`` bytes and the ``deadline``."""
    limit = f"{cap / 2**20:g} MiB"
    declared = _content_length(r.headers)
    if declared is not None and declared > cap:
        raise _fail(url, index, file, f"the answer would be {declared:,} bytes, more than the {limit} onnxpack "
                                      "accepts")
    done = 0
    while True:
        check_cancel(cancel)
        if deadline.passed():
            raise _fail(url, index, file, f"no complete answer within {deadline.seconds:g} s ({done:,} bytes "
                                          "received)")
        _set_timeout(r, min(POLICY.read_timeout, deadline.remaining()))
        chunk = r.read1(_CHUNK)
        if not chunk:
            break
        done += len(chunk)
        if done > cap:
            raise _fail(url, index, file, f"the answer goes on beyond the {limit} onnxpack accepts")
        sink(chunk, declared)
    if declared is not None and done != declared:
        raise _fail(url, index, file, f"the connection ended after {done:,} of {declared:,} bytes")


def read_bounded(url: str, index: str, sink: Callable[[bytes, int | None], None], *, cap: int, seconds: float,
                 cancel: CancelToken | None = None, file: str | None = None) -> int | None:
    """GET ``url`` and hand its body to ``sink(chunk, declared_length)`` chunk by chunk, within ``cap`` bytes and
    ``seconds``. Returns None, or 404 when the server says there is no such thing. Raises PROVE_NETWORK."""
    check_url(url, index, file=file)
    deadline = Deadline(seconds)
    handlers: list[Any] = [_Redirects(index, file)]
    if POLICY.context is not None:
        handlers.append(urllib.request.HTTPSHandler(context=POLICY.context))
    opener = urllib.request.build_opener(*handlers)
    req = urllib.request.Request(url, headers={"User-Agent": "onnxpack", "Accept-Encoding": "identity"})
    try:
        with opener.open(req, timeout=max(0.05, min(POLICY.read_timeout, deadline.remaining()))) as r:
            _pump(r, url, index, sink, cap=cap, deadline=deadline, cancel=cancel, file=file)
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return 404
        if 300 <= e.code < 400:  # a redirect urllib itself refuses (file:, data:)
            where = str(e.headers.get("Location") or "")[:200] if e.headers is not None else ""
            raise _fail(url, index, file, f"a redirect to {where!r}, which onnxpack does not follow") from None
        raise codes.PROVE_NETWORK.error(variant="status", status=e.code, url=url) from None
    except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError) as e:
        reason = getattr(e, "reason", None) or f"{type(e).__name__}: {e}".rstrip(": ")
        if deadline.passed():
            reason = f"no complete answer within {seconds:g} s"
        elif isinstance(e, TimeoutError) or "timed out" in str(reason):
            reason = f"no data for {POLICY.read_timeout:g} s (timed out)"
        raise _fail(url, index, file, str(reason)) from None
    return None


def get_json(url: str, index: str, cancel: CancelToken | None = None) -> Any:
    """The JSON document at ``url`` (None on 404), bounded by :data:`JSON_CAP` and the policy's deadline; any answer
    that is not JSON (cut short, too deep, a number too long) is PROVE_NETWORK's ``not_json``."""
    parts: list[bytes] = []
    if read_bounded(url, index, lambda b, _n: parts.append(b), cap=JSON_CAP, seconds=POLICY.json_deadline,
                    cancel=cancel) == 404:  # fmt: skip
        return None
    try:
        return json.loads(b"".join(parts))
    except (ValueError, RecursionError) as e:
        detail = str(e)[:300]
        raise codes.PROVE_NETWORK.error(variant="not_json", url=url, details=detail) from None


def download_to(url: str, index: str, write: Callable[[bytes, int | None], None], *, file: str,
                cancel: CancelToken | None = None) -> None:
    """Download a wheel, bounded by :data:`WHEEL_CAP` and the policy's deadline; a 404 is an error too."""
    if read_bounded(url, index, write, cap=WHEEL_CAP, seconds=POLICY.wheel_deadline, cancel=cancel,
                    file=file) == 404:  # fmt: skip
        raise codes.PROVE_NETWORK.error(variant="status", status=404, url=url)

"""--prove-ort against a hostile package index on 127.0.0.1 (issue 39 §1, §6, §8, §10): the wheels' SHA-256 come from
the committed table, never the index; HTTPS only by default; only the index's host and the official file host are
followed; every answer bounded in size and time; malformed answers are clear PROVE_NETWORK errors (exit 1), never a
traceback; no ``.pth`` from a wheel ever runs; the cache is keyed by the hashes and checked before use; leftovers of
a killed run are removed.

The index here is plain HTTP on 127.0.0.1: the tests loosen ``fetch.POLICY`` (no environment variable can) and
replace the table (``wheeltable.table``) with stand-in wheels made here."""

from __future__ import annotations

import base64
import contextlib
import hashlib
import http.server
import json
import os
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from onnxpack.core.errors import InputError, OnnxpackError, RuntimeFailure
from onnxpack.core.runtime import fetch, releaseenvs, wheels, wheeltable
from onnxpack.core.runtime.prove import ensure_release, resolve_releases

ORT = "9.9.1"  # a stand-in release (numpy 2 era) of the stand-in table
NUMPY = "2.99.0"


def make_wheel(folder: Path, name: str, version: str, files: dict[str, str]) -> Path:
    """A minimal pure-Python wheel ``name``-``version``-py3-none-any with ``files`` (path → text)."""
    dist = f"{name}-{version}.dist-info"
    members = dict(files)
    members[f"{dist}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    members[f"{dist}/WHEEL"] = ("Wheel-Version: 1.0\nGenerator: onnxpack-tests\nRoot-Is-Purelib: true\n"
                                "Tag: py3-none-any\n")
    record = []
    for path, text in members.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append(f"{dist}/RECORD,,")
    members[f"{dist}/RECORD"] = "\n".join(record) + "\n"
    path = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        for member, text in members.items():
            zf.writestr(member, text)
    return path


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


Handler = Callable[[http.server.BaseHTTPRequestHandler], None]


class FakeIndex:
    """PyPI's JSON API on 127.0.0.1: ``routes`` maps a path to a handler; ``requests`` lists the paths asked."""

    def __init__(self) -> None:
        self.routes: dict[str, Handler] = {}
        self.requests: list[str] = []
        index = self

        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                index.requests.append(self.path)
                handler = index.routes.get(self.path)
                if handler is None:
                    self.send_error(404)
                    return
                with contextlib.suppress(OSError):  # the client went away (a cap or a deadline): fine
                    handler(self)

            def log_message(self, *_a: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def body(self, path: str, data: bytes) -> None:
        def send(h: http.server.BaseHTTPRequestHandler) -> None:
            h.send_response(200)
            h.send_header("Content-Length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)

        self.routes[path] = send

    def raw(self, path: str, data: bytes, *, then: Callable[[Any], None] | None = None) -> None:
        """Answer ``data`` as it is (status line and headers included), then ``then(wfile)``, then hang up."""

        def send(h: http.server.BaseHTTPRequestHandler) -> None:
            h.wfile.write(data)
            h.wfile.flush()
            if then is not None:
                then(h.wfile)
            h.close_connection = True

        self.routes[path] = send

    def release_doc(self, package: str, version: str, files: list[dict[str, Any]]) -> None:
        self.body(f"/pypi/{package}/json", json.dumps({"info": {"name": package},
                                                       "releases": {version: files}}).encode())

    def serve_wheel(self, package: str, version: str, wheel: Path, *, digest: str | None = None) -> None:
        """The index lists ``wheel`` under ``package`` ``version`` (relative URL, as a mirror may) and serves it."""
        self.release_doc(package, version, [{"filename": wheel.name, "url": f"../../files/{wheel.name}",
                                             "packagetype": "bdist_wheel",
                                             "digests": {"sha256": digest or sha(wheel)}}])
        self.body(f"/files/{wheel.name}", wheel.read_bytes())


def loosen(monkeypatch: pytest.MonkeyPatch) -> fetch.Policy:
    """The download policy for an index on 127.0.0.1 over plain HTTP, with short limits."""
    policy = fetch.Policy(schemes=frozenset({"http", "https"}), hosts=frozenset({"127.0.0.1"}), read_timeout=1.0,
                          json_deadline=3.0, wheel_deadline=3.0)
    monkeypatch.setattr(fetch, "POLICY", policy)
    monkeypatch.setattr(wheels, "_DOCS", {})
    return policy


@pytest.fixture
def loose(monkeypatch: pytest.MonkeyPatch) -> fetch.Policy:
    return loosen(monkeypatch)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ONNXPACK_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def index(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeIndex]:
    idx = FakeIndex()
    monkeypatch.setenv("ONNXPACK_PYPI_URL", idx.url)
    monkeypatch.setattr(wheels, "_DOCS", {})
    yield idx
    idx.server.shutdown()
    idx.server.server_close()


def use_table(monkeypatch: pytest.MonkeyPatch, entries: dict[str, dict[str, Path | str]]) -> None:
    """Replace the committed table: {package: {version: wheel file (its hash is taken) or a SHA-256}}."""
    table = {pkg: {v: {"py3-none-any": (sha(w) if isinstance(w, Path) else w)} for v, w in rel.items()}
             for pkg, rel in entries.items()}
    wheeltable.load({"packages": table})
    monkeypatch.setattr(wheeltable, "table", lambda: table)


@pytest.fixture
def stand_ins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, index: FakeIndex, loose: fetch.Policy,
              cache: Path) -> tuple[Path, Path]:
    """A stand-in onnxruntime and numpy wheel in the table and on the index."""
    folder = tmp_path / "wheels"
    folder.mkdir()
    ort = make_wheel(folder, "onnxruntime", ORT, {"onnxruntime/__init__.py": f"__version__ = {ORT!r}\n"})
    np_ = make_wheel(folder, "numpy", NUMPY, {"numpy/__init__.py": f"__version__ = {NUMPY!r}\n"})
    use_table(monkeypatch, {"onnxruntime": {ORT: ort}, "numpy": {NUMPY: np_}})
    index.serve_wheel("onnxruntime", ORT, ort)
    doc_np = {"info": {}, "releases": {NUMPY: [{"filename": np_.name, "url": f"/files/{np_.name}"}]}}
    index.body("/pypi/numpy/json", json.dumps(doc_np).encode())
    index.body(f"/files/{np_.name}", np_.read_bytes())
    return ort, np_


def _site(env_python: Path) -> Path:
    out = subprocess.run([str(env_python), "-I", "-B", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                         capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


@pytest.mark.slow
def test_a_release_is_installed_from_the_table_and_checked_before_reuse(stand_ins: tuple[Path, Path],
                                                                       index: FakeIndex, cache: Path) -> None:
    env = ensure_release(ORT)
    assert (env.wheel, env.sha256, env.numpy) == (stand_ins[0].name, sha(stand_ins[0]), f"numpy=={NUMPY}")
    site = _site(env.python)
    assert (site / "onnxruntime" / "__init__.py").is_file() and (site / "numpy" / "__init__.py").is_file()
    assert not list(site.glob("pip*")) and not list(site.rglob("*.pyc"))  # made without pip, no bytecode added
    assert env.python.parent.parent.name.startswith(f"{ORT}-") and sha(stand_ins[0])[:16] in str(env.python)
    asked = len(index.requests)
    assert ensure_release(ORT) == env and len(index.requests) == asked  # reused: the index is not asked again
    # changed since (a .pth dropped into it, a file edited): never used, made again from the checked wheels
    (site / "evil.pth").write_text("import os\n", encoding="utf-8")
    again = ensure_release(ORT)
    assert again == env and not (site / "evil.pth").exists()
    (site / "onnxruntime" / "__init__.py").write_text("raise SystemExit('poisoned')\n", encoding="utf-8")
    ensure_release(ORT)
    assert "poisoned" not in (site / "onnxruntime" / "__init__.py").read_text(encoding="utf-8")


def test_a_forged_wheel_is_refused_whatever_hash_the_index_sends(stand_ins: tuple[Path, Path], index: FakeIndex,
                                                                 cache: Path, tmp_path: Path) -> None:
    """The index sends another "onnxruntime" with its own (matching) SHA-256: the table's hash refuses it."""
    forged = make_wheel(tmp_path, "onnxruntime", ORT, {"onnxruntime/__init__.py": "print('forged')\n"})
    index.serve_wheel("onnxruntime", ORT, forged, digest=sha(forged))
    with pytest.raises(RuntimeFailure) as e:
        ensure_release(ORT)
    assert e.value.code == "PROVE_WHEEL_HASH" and sha(stand_ins[0]) in e.value.message
    assert not [p for p in (cache / "ort-releases").rglob("*") if p.is_file()]  # nothing kept, no .part
    assert not (cache / "ort-releases" / "envs").exists()


def test_a_wheel_with_a_pth_file_is_never_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    index: FakeIndex, loose: fetch.Policy, cache: Path) -> None:
    """Even a wheel the table lists is refused when it holds a .pth (code Python runs at every start)."""
    marker = tmp_path / "ran"
    ort = make_wheel(tmp_path, "onnxruntime", ORT, {
        "onnxruntime/__init__.py": "", "evil.pth": f"import pathlib; pathlib.Path({str(marker)!r}).touch()\n"})
    np_ = make_wheel(tmp_path, "numpy", NUMPY, {"numpy/__init__.py": ""})
    use_table(monkeypatch, {"onnxruntime": {ORT: ort}, "numpy": {NUMPY: np_}})
    index.serve_wheel("onnxruntime", ORT, ort)
    index.serve_wheel("numpy", NUMPY, np_)
    with pytest.raises(RuntimeFailure) as e:
        ensure_release(ORT)
    assert e.value.code == "PROVE_WHEEL_HASH" and "evil.pth" in e.value.message
    assert not marker.exists() and not list((cache / "ort-releases" / "envs").glob(f"{ORT}-*"))


def test_a_release_the_table_does_not_list_is_refused_without_asking_the_index(
        stand_ins: tuple[Path, Path], index: FakeIndex) -> None:
    asked = len(index.requests)
    for version in ("9.9.7", "5" * 5000 + ".0.0", "1.2"):
        with pytest.raises(InputError) as e:
            ensure_release(version)
        assert e.value.code == "PROVE_NO_RELEASE" and f"the newest it knows is {ORT}" in e.value.message
        assert len(e.value.message) < 400
    assert len(index.requests) == asked


def test_plain_http_is_refused_by_default(stand_ins: tuple[Path, Path], index: FakeIndex,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the test hook (fetch.POLICY) allows plain HTTP: ONNXPACK_PYPI_URL=http://… alone is refused unopened."""
    monkeypatch.setattr(fetch, "POLICY", fetch.Policy())
    with pytest.raises(RuntimeFailure) as e:
        ensure_release(ORT)
    assert e.value.code == "PROVE_NETWORK" and "not an https URL" in e.value.message
    assert index.requests == []


@pytest.mark.parametrize("url", ["file:///dev/zero", "http://127.0.0.2/x.whl", "https://evil.example/x.whl",
                                 "ftp://127.0.0.1/x.whl", "data:,x"])
def test_only_the_index_and_the_official_host_are_followed(stand_ins: tuple[Path, Path], index: FakeIndex,
                                                           url: str) -> None:
    index.release_doc("onnxruntime", ORT, [{"filename": stand_ins[0].name, "url": url}])
    with pytest.raises(RuntimeFailure) as e:
        ensure_release(ORT)
    assert e.value.code == "PROVE_NETWORK" and "onnxpack only follows those" in e.value.message
    assert "SHA-256" not in e.value.message  # never hashes (nor names the hash of) a local file


def _redirect(to: str) -> bytes:
    return f"HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\n\r\n".encode()


def _trickle(seconds: float) -> Callable[[Any], None]:
    def then(wfile: Any) -> None:
        end = time.monotonic() + 30
        while time.monotonic() < end:
            time.sleep(seconds)
            wfile.write(b" ")
            wfile.flush()

    return then


def _endless(wfile: Any) -> None:
    block = b"[" * 65536
    for _ in range(100_000):
        wfile.write(block)


DOC = "/pypi/onnxruntime/json"
#: (name, how the index answers the JSON request, what the message says)
HOSTILE_DOCS: list[tuple[str, Callable[[FakeIndex], None], str]] = [
    ("non-list releases", lambda i: i.body(DOC, json.dumps({"releases": {ORT: "x"}}).encode()), "not a list of files"),
    ("non-object releases", lambda i: i.body(DOC, json.dumps({"releases": [1, 2]}).encode()), "no release list"),
    ("non-object files", lambda i: i.body(DOC, json.dumps({"releases": {ORT: [1, None, "x"]}}).encode()),
     "does not list"),
    ("non-object digests", lambda i: i.body(DOC, json.dumps({"releases": {ORT: [
        {"filename": f"onnxruntime-{ORT}-py3-none-any.whl", "url": 5, "digests": "abc"}]}}).encode()),
     "is not a URL"),
    ("deep JSON", lambda i: i.body(DOC, b"[" * 200_000 + b"]" * 200_000), "not JSON"),
    ("5,000-digit version", lambda i: i.body(DOC, b'{"releases": {"' + b"9" * 5000 + b'": [], "x": ' + b"9" * 5000
                                                  + b"}}"), "not JSON"),
    ("not JSON", lambda i: i.body(DOC, b"<html>"), "not JSON"),
    ("a bad status line", lambda i: i.raw(DOC, b"HTTP/1.1 two hundred OK\r\n\r\n{}"), "Cannot reach"),
    ("a dropped connection", lambda i: i.raw(DOC, b""), "Cannot reach"),
    ("a cut answer", lambda i: i.raw(DOC, b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"rel"),
     "ended after 5 of 1,000 bytes"),
    ("Content-Length: abc", lambda i: i.raw(DOC, b"HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n[1,"), "not JSON"),
    ("a huge Content-Length", lambda i: i.raw(DOC, b"HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n{"),
     "more than the"),
    ("an endless body", lambda i: i.raw(DOC, b"HTTP/1.1 200 OK\r\n\r\n", then=_endless), "goes on beyond"),
    ("1 byte every 0.3 s", lambda i: i.raw(DOC, b"HTTP/1.1 200 OK\r\n\r\n", then=_trickle(0.3)),
     "no complete answer within 3 s"),
    ("silence", lambda i: i.raw(DOC, b"HTTP/1.1 200 OK\r\n\r\n", then=_trickle(5)), "timed out"),
    ("a redirect to file://", lambda i: i.raw(DOC, _redirect("file:///dev/zero")), "onnxpack does not follow"),
    ("a redirect elsewhere", lambda i: i.raw(DOC, _redirect("http://127.0.0.2/x")), "onnxpack only follows those"),
    ("a 500", lambda i: i.raw(DOC, b"HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n"), "answered 500"),
]


@pytest.mark.parametrize("answer", HOSTILE_DOCS, ids=[h[0] for h in HOSTILE_DOCS])
def test_a_malformed_index_answer_is_a_clear_error(stand_ins: tuple[Path, Path], index: FakeIndex,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   answer: tuple[str, Callable[[FakeIndex], None], str]) -> None:
    monkeypatch.setattr(fetch, "JSON_CAP", 1 << 20)
    _name, serve, words = answer
    serve(index)
    started = time.monotonic()
    with pytest.raises(OnnxpackError) as e:
        ensure_release(ORT)
    assert e.value.code == "PROVE_NETWORK" and words in e.value.message, e.value.message
    assert time.monotonic() - started < 8
    assert len(e.value.message) < 800


HOSTILE_WHEELS: list[tuple[str, bytes, Callable[[Any], None] | None, str]] = [
    ("an endless wheel", b"HTTP/1.1 200 OK\r\n\r\n", _endless, "goes on beyond"),
    ("a trickling wheel", b"HTTP/1.1 200 OK\r\n\r\n", _trickle(0.3), "no complete answer"),
    ("a cut wheel", b"HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\nPK", None, "ended after 2 of 99 bytes"),
    ("a redirect to file://", _redirect("file:///etc/passwd"), None, "onnxpack does not follow"),
    ("a redirect elsewhere", _redirect("https://evil.example/x.whl"), None, "onnxpack only follows those"),
]


@pytest.mark.parametrize("answer", HOSTILE_WHEELS, ids=[h[0] for h in HOSTILE_WHEELS])
def test_a_hostile_wheel_download_is_bounded_and_leaves_nothing(
        stand_ins: tuple[Path, Path], index: FakeIndex, cache: Path, monkeypatch: pytest.MonkeyPatch,
        answer: tuple[str, bytes, Callable[[Any], None] | None, str]) -> None:
    monkeypatch.setattr(fetch, "WHEEL_CAP", 4 << 20)
    _name, head, then, words = answer
    index.raw(f"/files/{stand_ins[0].name}", head, then=then)
    started = time.monotonic()
    with pytest.raises(RuntimeFailure) as e:
        ensure_release(ORT)
    assert e.value.code == "PROVE_NETWORK" and words in e.value.message, e.value.message
    assert time.monotonic() - started < 8
    assert not [p for p in (cache / "ort-releases").rglob("*") if p.is_file()]


def test_leftovers_of_a_killed_run_are_removed_by_the_next(cache: Path) -> None:
    root = cache / "ort-releases"
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    part = root / "wheels" / ("a" * 64) / f".onnxruntime-1.0.0-py3-none-any.whl.{gone.pid}.part"
    tmp = root / "envs" / f".1.0.0-cp311-x.{gone.pid}.tmp"
    mine = root / "envs" / f".1.0.0-cp311-y.{os.getpid()}.tmp"  # a run still going on: kept
    for p in (part.parent, tmp / "lib", mine):
        p.mkdir(parents=True)
    part.write_bytes(b"x" * 100)
    releaseenvs.sweep(root)
    assert not part.exists() and not tmp.exists() and mine.exists()


@pytest.mark.parametrize("name", ["../x.whl", "a/b.whl", "a\\b.whl", ".x.whl", "x.tar.gz", "", "x" * 300 + ".whl"])
def test_a_wheel_name_never_becomes_a_path_elsewhere(name: str) -> None:
    with pytest.raises(RuntimeFailure) as e:
        releaseenvs._safe_name(name)
    assert e.value.code == "PROVE_WHEEL_HASH"
    with pytest.raises(ValueError):  # nor can the table name one
        wheeltable.load({"packages": {"onnxruntime": {"1.0.0": {name.replace(".whl", ""): "a" * 64}}}})


def test_the_committed_table_covers_the_known_releases() -> None:
    """resources/ort_wheels.json: well-formed, every compatibility row with a wheel for CPython 3.11+ on Linux
    x86_64 has one, and numpy 1 and 2 are there to pin."""
    from onnxpack.core.checks.ortreleases import ORT_TO_ONNX

    table = wheeltable.load(json.loads((Path(__file__).parent.parent / "resources" / "ort_wheels.json")
                                       .read_text(encoding="utf-8")))
    minors = {".".join(v.split(".")[:2]) for v in table["onnxruntime"]}
    assert {row[0] for row in ORT_TO_ONNX if tuple(map(int, row[0].split("."))) >= (1, 15)} <= minors
    for v, files in table["onnxruntime"].items():
        if tuple(map(int, v.split("."))) >= (1, 16):
            assert any(k.startswith("cp311-") and "x86_64" in k for k in files), v
            assert any(k.endswith("win_amd64") for k in files), v
            assert any("macosx" in k for k in files), v
    assert any(v.startswith("1.") for v in table["numpy"]) and any(v.startswith("2.") for v in table["numpy"])


def test_auto_always_proves_the_target(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--target-ort`/`--target-app` named a release: `auto` proves it, beside the oldest claimed and the newest
    (issue 41 §11: a Cargo.lock deriving 1.22 got 1.18.1 and the newest only). Releases from a stand-in table."""
    rel = {v: "a" * 64 for v in ("7.1.0", "7.1.1", "7.4.0", "7.4.2", "7.6.0", "7.9.1")}
    use_table(monkeypatch, {"onnxruntime": dict(rel)})
    notes: list[str] = []
    assert resolve_releases(["auto"], "7.1", notes=notes, target="7.4") == ["7.1.1", "7.4.2", "7.9.1"]
    assert resolve_releases(["auto"], "7.4", target="7.4") == ["7.4.2", "7.9.1"]  # once
    assert resolve_releases(["auto"], None, target="7.4") == ["7.4.2", "7.9.1"]
    assert notes == []
    assert resolve_releases(["auto"], "7.1", notes=notes, target="7.5") == ["7.1.1", "7.6.0", "7.9.1"]
    assert len(notes) == 1 and "the target is ONNX Runtime 7.5" in notes[0] and "7.6.0" in notes[0]
    assert resolve_releases(["7.4", "newest"], None) == ["7.4.2", "7.9.1"]

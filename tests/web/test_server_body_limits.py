"""Each route's body limit, enforced by the real server as the body arrives (waitress on a loopback port).

The photo route takes a real photo (8 MiB), the editor's routes a document
(256 KiB), every other route 16 KiB; past its limit a body is refused with the
app's JSON 413 as soon as the server can tell (a declared length when the head
is parsed, a chunked body once it passes the limit), and large bodies in flight
are bounded server-wide (503 busy past that). Nothing is written to disk: an
allowed body, and the answer, stay in memory.
"""

from __future__ import annotations

import base64
import io
import json
import select
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import numpy
import pytest
from PIL import Image
from real_server import Client, Served, connect, error_code_of, host_client, read_answer, serving, status_of
from waitress.buffers import TempfileBasedBuffer

from companion.rules.edition import EDITIONS_VARIABLE
from companion.rules.edition_files import MAX_EXPORT
from web.editor import MAX_DOCUMENT
from web.guard import MAX_BODY
from web.photo import MAX_PHOTO_BODY

TRACE = "/api/host/editor/photo/trace"
IMPORT = "/api/host/editor/import"
ACTION = "/api/seat/action"
DOCUMENT_LIMIT = max(MAX_DOCUMENT, MAX_EXPORT)
MIB = 1024 * 1024
SOON = 3.0  # seconds: a refusal "as it arrives" comes long before the server's 10 s deadline for a request


@pytest.fixture(scope="module")
def photo_jpeg() -> bytes:
    """A 12-megapixel (4000 x 3000) noisy JPEG at high quality: about 5 MiB, like a phone's photo."""
    rng = numpy.random.default_rng(1)
    pixels = rng.integers(0, 48, (3000, 4000, 3), dtype=numpy.uint8)
    pixels += numpy.linspace(60, 180, 4000).astype(numpy.uint8)[None, :, None]
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="JPEG", quality=92)
    data = out.getvalue()
    assert 4.5 * MIB <= len(data) <= 5.8 * MIB, len(data) / MIB
    return data


@pytest.fixture
def spills(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every temporary file waitress opens (a body or an answer too large for its memory buffers)."""
    opened: list[int] = []
    newfile = TempfileBasedBuffer.newfile

    def recording(self: TempfileBasedBuffer) -> object:
        opened.append(1)
        return newfile(self)

    monkeypatch.setattr(TempfileBasedBuffer, "newfile", recording)
    return opened


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spills: list[int]) -> Iterator[Served]:
    folder = tmp_path / "editions"
    monkeypatch.setenv(EDITIONS_VARIABLE, str(folder))
    with serving(tmp_path, EDITIONS_DIR=str(folder)) as served:
        yield served
        deadline = time.monotonic() + SOON
        while served.server.bodies.held() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert served.server.bodies.held() == 0, "a large body's room was never given back"
    assert spills == [], "waitress wrote a body or an answer to a temporary file"


@pytest.fixture
def host(served: Served) -> Client:
    return host_client(served)


def head(path: str, length: int | None, client: Client, content_type: str = "application/json") -> bytes:
    """A POST head as a browser sends it, with a declared length (None: chunked)."""
    framing = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    cookies = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{client.port}\r\nContent-Type: {content_type}\r\n"
            f"X-CSRF-Token: {client.csrf}\r\nCookie: {cookies}\r\n{framing}\r\n\r\n").encode()


def answered_within(sock: socket.socket, seconds: float) -> bool:
    return bool(select.select([sock], [], [], seconds)[0])


def send_chunked(sock: socket.socket, total: int, finish: bool) -> tuple[int, bytes]:
    """Send ``total`` payload bytes in 64 KiB chunks (and the last chunk if ``finish``), stopping as soon as
    the server answers: (payload bytes sent, the answer or b"")."""
    sent = 0
    while sent < total:
        if answered_within(sock, 0):
            return sent, read_answer(sock)
        size = min(65536, total - sent)
        try:
            sock.sendall(b"%x\r\n%s\r\n" % (size, b"x" * size))
        except OSError:  # the server answered and closed
            return sent, read_answer(sock)
        sent += size
    if finish:
        sock.sendall(b"0\r\n\r\n")
    return sent, read_answer(sock) if answered_within(sock, SOON) else b""


def photo_request(jpeg: bytes) -> bytes:
    """The body the editor's page sends to trace a photo (web/static/editor.js ``trace()``)."""
    corners = [[180, 140], [3820, 160], [3850, 2870], [150, 2840]]
    body = {"image": "data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii"), "width": 24,
            "height": 25, "corners": corners}
    return json.dumps(body).encode()


# ---- the photo route: 8 MiB --------------------------------------------------------------------------

def test_a_5_mib_photo_sent_as_the_page_sends_it_is_traced(served: Served, host: Client, photo_jpeg: bytes) -> None:
    """Old: waitress refused every body over 64 KiB, so no real photo could ever be traced."""
    body = photo_request(photo_jpeg)
    assert 6 * MIB < len(body) <= MAX_PHOTO_BODY
    status, headers, answer = host.post(TRACE, body, timeout=120)
    assert status == 200, answer[:300]
    rows = json.loads(answer)["rows"]
    assert len(rows) == 25 and all(isinstance(row, str) and len(row) == 24 for row in rows), rows
    # Its room is given back once answered: when waitress closes the request, a moment after the answer is sent.
    deadline = time.monotonic() + SOON
    while served.server.bodies.held() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert served.server.bodies.held() == 0


def test_a_declared_body_past_the_photo_limit_is_refused_when_its_head_arrives(served: Served, host: Client) -> None:
    with connect(served.port) as sock:
        sock.sendall(head(TRACE, MAX_PHOTO_BODY + 1, host))
        assert answered_within(sock, SOON), "no answer before the body was sent"
        answer = read_answer(sock)
    assert status_of(answer) == 413 and error_code_of(answer) == "too_large", answer[:300]
    # Exactly the limit is the app's to judge (not a photo: 400), not the server's 413.
    with connect(served.port) as sock:
        sock.sendall(head(TRACE, MAX_PHOTO_BODY, host))
        assert not answered_within(sock, 0.5), read_answer(sock)[:300]
        sock.sendall(b"{" + b" " * (MAX_PHOTO_BODY - 2) + b"}")
        answer = read_answer(sock)
    assert status_of(answer) == 400, answer[:300]


def test_a_chunked_body_past_the_photo_limit_is_cut_off_as_it_arrives(served: Served, host: Client) -> None:
    with connect(served.port) as sock:
        sock.sendall(head(TRACE, None, host))
        sent, answer = send_chunked(sock, MAX_PHOTO_BODY + 1, finish=False)
    assert status_of(answer) == 413 and error_code_of(answer) == "too_large", (sent, answer[:300])
    assert sent <= MAX_PHOTO_BODY + 2 * 65536
    with connect(served.port) as sock:
        sock.sendall(head(TRACE, None, host))
        sent, answer = send_chunked(sock, MAX_PHOTO_BODY, finish=True)
    assert sent == MAX_PHOTO_BODY and status_of(answer) == 400, answer[:300]  # not a photo: the app's answer


def test_large_bodies_under_way_are_bounded_and_the_rest_are_busy(served: Served, host: Client) -> None:
    """Each address may send one photo at a time, the server take two at once; the rest get 503 at once."""
    def start(source: str) -> tuple[socket.socket, bytes | None]:
        sock = stack.enter_context(connect(served.port, source))
        sock.sendall(head(TRACE, MAX_PHOTO_BODY, host))
        return sock, read_answer(sock) if answered_within(sock, 0.5) else None

    with ExitStack() as stack:
        first, refused = start("127.0.0.2")
        assert refused is None, refused[:300]
        again = start("127.0.0.2")[1]  # the same address, while its first is under way
        second = start("127.0.0.3")[1]
        third = start("127.0.0.4")[1]
        assert second is None
        for answer in (again, third):
            assert answer is not None and status_of(answer) == 503 and error_code_of(answer) == "busy"
            assert b"\r\nRetry-After: " in answer.split(b"\r\n\r\n")[0]
        first.close()
        deadline = time.monotonic() + SOON
        while served.server.bodies.held() > MAX_PHOTO_BODY and time.monotonic() < deadline:
            time.sleep(0.02)
        assert start("127.0.0.4")[1] is None  # the first's room was given back when it hung up


def test_only_the_host_may_send_a_large_body_so_nobody_else_holds_the_photos_room(served: Served, host: Client) -> None:
    """A phone that is not logged in as host gets 401 at the head, before any body: it holds no room."""
    stranger = Client(served.port, "127.0.0.5")
    stranger.load("/")  # a real browser's cookie and CSRF token, but no host login
    forged = Client(served.port, "127.0.0.6", {"clue_session": host.cookies["clue_session"] + "x"}, host.csrf)
    with ExitStack() as stack:
        for client in (stranger, forged, stranger):
            sock = stack.enter_context(connect(served.port, client.source))
            sock.sendall(head(TRACE, MAX_PHOTO_BODY, client))
            assert answered_within(sock, SOON), "no answer before the body was sent"
            answer = read_answer(sock)
            assert status_of(answer) == 401 and error_code_of(answer) == "host_login", answer[:300]
        assert served.server.bodies.held() == 0
        for source in ("127.0.0.2", "127.0.0.3"):  # the host's two photos still find room
            sock = stack.enter_context(connect(served.port, source))
            sock.sendall(head(TRACE, MAX_PHOTO_BODY, host))
            assert not answered_within(sock, 0.5)
        assert served.server.bodies.held() == 2 * MAX_PHOTO_BODY


# ---- the editor's routes: 256 KiB ----------------------------------------------------------------------

def test_a_94_kib_edition_file_imports_through_the_server(served: Served, host: Client) -> None:
    """Old: a 94 KiB edition document got waitress's 413."""
    status, _, exported = host.request("GET", "/api/host/editor/export/classic")
    assert status == 200
    text = exported.decode().replace('id = "classic"', 'id = "big_board"', 1)
    padding = "".join(f"# note {number:05d}: a long comment as a real file may carry, to make it large\n"
                      for number in range(1300))
    body = (text + padding).encode()
    assert 90 * 1024 <= len(body) <= 100 * 1024
    status, _, answer = host.post(IMPORT, body, content_type="text/plain")
    assert status == 200, answer[:300]
    assert json.loads(answer)["id"] == "big_board"
    with connect(served.port) as sock:
        sock.sendall(head(IMPORT, DOCUMENT_LIMIT + 1, host, "text/plain"))
        assert answered_within(sock, SOON), "no answer before the body was sent"
        answer = read_answer(sock)
    assert status_of(answer) == 413 and error_code_of(answer) == "too_large", answer[:300]


# ---- every other route: 16 KiB ---------------------------------------------------------------------------

def test_a_20_kib_body_to_an_ordinary_route_is_refused_as_it_arrives(served: Served, host: Client) -> None:
    """Old: the server took up to 64 KiB, waiting for the whole body before the app refused it."""
    size = 20 * 1024
    assert size > MAX_BODY
    with connect(served.port) as sock:
        sock.sendall(head(ACTION, size, host))
        assert answered_within(sock, SOON), "the server waited for a body past the route's limit"
        answer = read_answer(sock)
    assert status_of(answer) == 413 and error_code_of(answer) == "too_large", answer[:300]
    with connect(served.port) as sock:
        sock.sendall(head(ACTION, None, host))
        sent, answer = send_chunked(sock, size, finish=False)
    assert status_of(answer) == 413 and error_code_of(answer) == "too_large", (sent, answer[:300])
    with connect(served.port) as sock:  # a photo-sized body is no more welcome here
        sock.sendall(head(ACTION, MAX_PHOTO_BODY, host))
        assert answered_within(sock, SOON)
        assert status_of(read_answer(sock)) == 413


def test_a_large_body_gets_time_to_arrive_over_a_slow_wi_fi(tmp_path: Path, spills: list[int]) -> None:
    """A photo over a poor Wi-Fi takes longer than a request's deadline; it gets a second per 256 KiB more."""
    with serving(tmp_path, server={"head_deadline": 0.5}) as served:
        host = host_client(served)
        size = MIB  # four seconds more
        with connect(served.port) as sock:
            sock.sendall(head(TRACE, size, host))
            for _ in range(16):  # 2.4 s in all: past the deadline (and its 1 s sweep), within this body's time
                time.sleep(0.15)
                sock.sendall(b" " * (size // 16 - 1))
            sock.sendall(b" " * 16)
            answer = read_answer(sock)
        assert status_of(answer) == 400, answer[:300]  # the app's answer (not a photo): the server waited
        with connect(served.port) as sock:  # a small body gets no more than the deadline
            sock.sendall(head(ACTION, 1000, host))
            time.sleep(1.2)
            assert read_answer(sock) == b""  # closed unanswered

"""Photos in bounded memory (issue 27, finding 2): decoded no larger than tracing needs, one at a time,
the memory handed back after each; and a photo body nested too deep is a 400 (finding 5).

A 4000 x 4000 JPEG used to be decoded whole (64 MB, and three copies) in the
waitress thread that received it, and each thread kept what it freed: 1.8 GB
after 72 traces. The memory tests count this process's RSS (the server runs in
it, on its own threads), around traces through the real server on a loopback
port and from several threads at once.
"""

from __future__ import annotations

import base64
import gc
import json
import struct
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from io import BytesIO
from pathlib import Path
from typing import Any

import psutil
import pytest
from flask import Flask
from PIL import Image, ImageChops
from real_server import Client, Served, host_client, serving
from test_board_photo import SMALL_LEGEND, SMALL_MAP, grid_in_photo, map_rows, photograph, same_map, small_board
from web_fixtures import Browser, error_of, host_browser, make_app, running

from companion.rules.drawing import board_drawing, to_png_bytes
from web import photo

URL = "/api/host/editor/photo/trace"
SIDE = 4000  # the largest photo allowed (web.photo.MAX_SIDE)
MB = 2 ** 20
PEAK_MB, AFTER_MB = 150, 20  # the targets: above the RSS before the traces
BLUE, RED, GREEN, YELLOW = (40, 60, 200), (200, 40, 40), (40, 170, 60), (230, 200, 40)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    with running(Path(tmp_path_factory.mktemp("photo_memory"))) as session:
        yield make_app(session)


@pytest.fixture(scope="module")
def host(app: Flask) -> Browser:
    return host_browser(app)


def jpeg(image: Image.Image, quality: int = 80, exif: Image.Exif | None = None) -> str:
    out = BytesIO()
    image.save(out, format="JPEG", quality=quality, **({"exif": exif} if exif is not None else {}))
    return "data:image/jpeg;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def whole(width: int, height: int) -> list[list[int]]:
    return [[0, 0], [width, 0], [width, height], [0, height]]


def request_for(image: str, corners: list[list[int]], width: int, height: int) -> dict[str, Any]:
    return {"image": image, "corners": corners, "width": width, "height": height}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The companion served by waitress on a free loopback port."""
    with serving(Path(tmp_path_factory.mktemp("photo_served"))) as server:
        yield server


@pytest.fixture(scope="module")
def large_photo() -> bytes:
    """A trace's JSON body: a noisy 4000 x 4000 JPEG of a few MiB, corners round it, a 12 x 10 grid."""
    cream = Image.new("RGB", (SIDE, SIDE), "#fbf3d5")
    grain = [Image.effect_noise((SIDE // 2, SIDE // 2), 24).resize((SIDE, SIDE)) for _ in range(3)]
    image = jpeg(ImageChops.add(cream, Image.merge("RGB", grain), 1.0, -128), quality=75)
    return json.dumps(request_for(image, whole(SIDE, SIDE), 12, 10)).encode("ascii")


# ---- decoded at the size tracing needs -----------------------------------------------------------

@pytest.fixture()
def decoded_sizes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The size of every photo the route hands to dewarp, as decoded."""
    sizes: list[tuple[int, int]] = []
    real = photo.dewarp

    def recording(image: Image.Image, *args: Any) -> Image.Image:
        sizes.append(image.size)
        return real(image, *args)
    monkeypatch.setattr(photo, "dewarp", recording)
    return sizes


def declaring(width: int, height: int) -> str:
    """A JPEG of 16 x 16 pixels whose head says ``width`` x ``height``: the rest decodes as grey, in full."""
    out = BytesIO()
    Image.new("RGB", (16, 16), "#fbf3d5").save(out, format="JPEG", quality=10)
    data = bytearray(out.getvalue())
    frame = data.index(b"\xff\xc0")  # the baseline frame header: length, precision, height, width
    data[frame + 5:frame + 9] = struct.pack(">HH", height, width)
    return "data:image/jpeg;base64," + base64.b64encode(bytes(data)).decode("ascii")


@pytest.mark.parametrize("corners, grid, most", [
    (whole(SIDE, SIDE), (12, 10), 1000),  # the board fills the photo: 4x smaller still samples every pixel
    (whole(SIDE, SIDE), (40, 40), 1000),
    ([[1000, 1000], [1200, 1000], [1200, 1200], [1000, 1200]], (40, 40), 2000),  # a small board: at most 2000
])
def test_a_tiny_file_declaring_4000_x_4000_is_decoded_no_larger_than_tracing_needs(
        host: Browser, decoded_sizes: list[tuple[int, int]], corners: list[list[int]], grid: tuple[int, int],
        most: int) -> None:
    image = declaring(SIDE, SIDE)
    assert len(image) < 1000  # a few hundred bytes of file, 64 MB of pixels in full
    answer = host.post(URL, request_for(image, corners, *grid))
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    assert decoded_sizes == [(most, most)]


@pytest.mark.parametrize("kind, options", [("PNG", {}), ("WEBP", {"quality": 10}),
                                            ("JPEG", {"progressive": True, "quality": 10})])
def test_a_photo_decoded_whole_with_more_pixels_than_tracing_needs_is_refused_before_it_is_decoded(
        host: Browser, decoded_sizes: list[tuple[int, int]], kind: str, options: dict[str, Any]) -> None:
    out = BytesIO()
    Image.new("RGB", (3000, 3000), "#fbf3d5").save(out, format=kind, **options)
    image = f"data:image/{kind.lower()};base64," + base64.b64encode(out.getvalue()).decode("ascii")
    answer = host.post(URL, request_for(image, whole(3000, 3000), 12, 10))
    assert answer.status_code == 400 and error_of(answer) == "bad_photo"
    assert "3000 x 3000" in answer.get_json()["error"]["message"]
    assert decoded_sizes == []


def test_a_large_photo_decoded_smaller_still_traces_back_to_its_map(
        host: Browser, decoded_sizes: list[tuple[int, int]]) -> None:
    """The small board photographed at an angle, sent at 2.5 times the size: the corners are scaled with it."""
    board = small_board()
    shot, drawing = photograph(to_png_bytes(board_drawing("Memory test", board)), seed=5)
    large = shot.convert("RGB").resize((shot.width * 5 // 2, shot.height * 5 // 2), Image.Resampling.BICUBIC)
    corners = [[round(x * 2.5), round(y * 2.5)] for x, y in grid_in_photo(board, drawing.size)]
    answer = host.post(URL, request_for(jpeg(large, 90), corners, board.width, board.height))
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    assert same_map(answer.get_json()["rows"], map_rows(SMALL_MAP), SMALL_LEGEND), answer.get_json()["rows"]
    assert decoded_sizes == [((large.width + 1) // 2, (large.height + 1) // 2)]


def test_a_photo_turned_by_its_exif_is_decoded_smaller_and_still_read_the_way_the_browser_shows_it(
        host: Browser, decoded_sizes: list[tuple[int, int]]) -> None:
    upright = Image.new("RGB", (SIDE, SIDE // 2))
    for n, colour in enumerate((BLUE, RED, GREEN, YELLOW)):  # quarters: top-left, top-right, bottom-left, bottom-right
        upright.paste(colour, (n % 2 * SIDE // 2, n // 2 * SIDE // 4, (n % 2 + 1) * SIDE // 2, (n // 2 + 1) * SIDE // 4))
    exif = Image.Exif()
    exif[0x0112] = 6  # stored turned a quarter; the browser turns it back
    stored = upright.rotate(90, expand=True)
    answer = host.post(URL, request_for(jpeg(stored, 90, exif), whole(SIDE, SIDE // 2), 2, 2))
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    assert decoded_sizes and max(decoded_sizes[0]) <= SIDE // 8
    warped = Image.open(BytesIO(base64.b64decode(answer.get_json()["warped"].split(",", 1)[1]))).convert("RGB")
    half = warped.width // 2, warped.height // 2
    for (col, row), colour in zip(((0, 0), (1, 0), (0, 1), (1, 1)), (BLUE, RED, GREEN, YELLOW)):
        pixel = warped.getpixel((col * half[0] + half[0] // 2, row * half[1] + half[1] // 2))
        assert isinstance(pixel, tuple) and max(abs(a - b) for a, b in zip(pixel, colour)) < 20, (col, row, pixel)


# ---- one at a time -------------------------------------------------------------------------------

def small_trace() -> dict[str, Any]:
    return request_for(jpeg(Image.new("RGB", (100, 100), "#fbf3d5")), whole(100, 100), 3, 2)


def test_a_trace_while_another_runs_waits_a_bounded_time_then_is_told_busy(app: Flask, host: Browser) -> None:
    slot: photo.TraceSlot = app.extensions[photo.EXTENSION]
    wait = slot.wait
    slot.wait = 0.3
    try:
        with slot.lock:  # a trace under way
            started = time.monotonic()
            answer = host.post(URL, small_trace())
            waited = time.monotonic() - started
        assert answer.status_code == 503 and error_of(answer) == "busy"
        assert answer.headers["Retry-After"] == str(photo.BUSY_RETRY)
        assert 0.3 <= waited < 5
        assert host.post(URL, small_trace()).status_code == 200  # the slot is free again
    finally:
        slot.wait = wait


def test_a_trace_that_waits_for_the_one_before_it_runs_when_that_one_ends(app: Flask, host: Browser) -> None:
    slot: photo.TraceSlot = app.extensions[photo.EXTENSION]
    slot.lock.acquire()
    started = time.monotonic()  # before the timer starts, so the wait measured is never short of it
    threading.Timer(0.3, slot.lock.release).start()  # the trace under way ends in 0.3 s
    answer = host.post(URL, small_trace())
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    assert time.monotonic() - started >= 0.3


# ---- memory handed back ----------------------------------------------------------------------------

class Rss:
    """This process's RSS before, at its highest (sampled every 10 ms on a thread) and after some work."""

    def __init__(self) -> None:
        self.process = psutil.Process()
        gc.collect()
        self.before = self.process.memory_info().rss
        self.peak = self.before
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, self.process.memory_info().rss)

    def after(self) -> tuple[float, float]:
        """(peak above before, after above before), in MB."""
        self._stop.set()
        self._thread.join()
        gc.collect()
        return (self.peak - self.before) / MB, (self.process.memory_info().rss - self.before) / MB


def test_ten_traces_through_the_real_server_hand_their_memory_back(served: Served, large_photo: bytes) -> None:
    hosts = [host_client(served) for _ in range(2)]
    for number, client in enumerate(hosts):  # two phones: the server takes one photo per address at a time
        client.source = f"127.0.0.{2 + number}"
    rss = Rss()
    with ThreadPoolExecutor(2) as pool:
        statuses = list(pool.map(lambda n: _trace_until_done(hosts[n % 2], large_photo), range(10)))
    peak, after = rss.after()
    assert statuses == [200] * 10
    assert peak <= PEAK_MB and after <= AFTER_MB, f"peak {peak:.0f} MB, after {after:.0f} MB above before"


def _trace_until_done(client: Client, body: bytes) -> int:
    """POST the photo; sent again while the server is busy with the other phone's (bounded)."""
    deadline = time.monotonic() + 60
    status = 0
    while time.monotonic() < deadline:
        try:
            status, _, _ = client.post(URL, body, timeout=30)
        except ConnectionError:  # refused (busy) while the body was still being sent
            status = 503
        if status != 503:
            return status
        time.sleep(0.1)
    return status


def test_traces_from_many_threads_leave_no_memory_in_them(app: Flask, large_photo: bytes) -> None:
    """Each waitress thread had its own malloc arena and kept what a trace freed there."""
    browsers = [host_browser(app) for _ in range(4)]
    body = json.loads(large_photo)
    rss = Rss()
    threads_done = threading.Barrier(len(browsers) + 1)

    def traces(browser: Browser, count: int = 2) -> Callable[[], None]:
        def run() -> None:
            try:
                for _ in range(count):
                    statuses.append(browser.post(URL, body).status_code)
            finally:
                threads_done.wait(timeout=60)  # the threads live on, as waitress's do, until RSS is read
                kept.wait(timeout=60)
        return run
    statuses: list[int] = []
    kept = threading.Event()
    workers = [threading.Thread(target=traces(browser)) for browser in browsers]
    for worker in workers:
        worker.start()
    threads_done.wait(timeout=60)
    peak, after = rss.after()
    kept.set()
    for worker in workers:
        worker.join()
    assert statuses == [200] * 8
    assert peak <= PEAK_MB and after <= AFTER_MB, f"peak {peak:.0f} MB, after {after:.0f} MB above before"


# ---- a body nested too deep (finding 5) --------------------------------------------------------------

@pytest.mark.parametrize("body", [b"[" * 60_000, b'{"a": ' * 20_000, b"[" * 1_000_000])
def test_a_body_nested_too_deep_is_a_400_through_the_real_server(served: Served, body: bytes) -> None:
    status, _, answer = host_client(served).post(URL, body)
    assert status == 400, answer[:300]
    error = json.loads(answer)["error"]
    assert error["code"] == "bad_json" and error["message"]

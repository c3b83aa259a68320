"""The photo underlay's API: a host sends a photo and its grid corners, gets the traced rows and the rectified photo.

Bad photos, bad corners and bad grid sizes are refused with a 400 and one
plain sentence, a body over 8 MiB with a 413; nothing reaches a 500.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from PIL import Image
from test_board_photo import SMALL_LEGEND, SMALL_MAP, grid_in_photo, map_rows, photograph, same_map, small_board
from web_fixtures import Browser, error_of, host_browser, make_app, refused, running

from companion.rules.drawing import board_drawing, to_png_bytes
from web import photo
from web.photo import MAX_PHOTO_BODY, MAX_SIDE, underlay_cell

URL = "/api/host/editor/photo/trace"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    with running(Path(tmp_path_factory.mktemp("photo"))) as session:
        made = make_app(session)
        if "photo" not in made.blueprints:  # until web/__init__.py registers it
            made.register_blueprint(photo.blueprint)
        yield made


@pytest.fixture(scope="module")
def host(app: Flask) -> Browser:
    return host_browser(app)


@pytest.fixture(scope="module")
def board_photo() -> tuple[str, list[list[float]]]:
    """A JPEG data URL of the small board photographed at an angle, and its grid corners in the photo."""
    board = small_board()
    shot, drawing = photograph(to_png_bytes(board_drawing("API test", board)), seed=5)
    out = BytesIO()
    shot.save(out, format="JPEG", quality=90)
    corners = [[x, y] for x, y in grid_in_photo(board, drawing.size)]
    return data_url(out.getvalue(), "jpeg"), corners


def data_url(data: bytes, kind: str = "png") -> str:
    return f"data:image/{kind};base64," + base64.b64encode(data).decode("ascii")


def png(size: tuple[int, int], colour: str = "#fbf3d5") -> bytes:
    out = BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


def request_for(image: str, corners: Any, width: Any = 12, height: Any = 10) -> dict[str, Any]:
    return {"image": image, "corners": corners, "width": width, "height": height}


SQUARE = [[0, 0], [100, 0], [100, 100], [0, 100]]


def test_a_host_gets_the_traced_rows_and_the_rectified_photo(host: Browser, board_photo: tuple[str, Any]) -> None:
    image, corners = board_photo
    answer = host.post(URL, request_for(image, corners))
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    body = answer.get_json()
    assert set(body) == {"rows", "warped"}
    assert same_map(body["rows"], map_rows(SMALL_MAP), SMALL_LEGEND), body["rows"]
    prefix = "data:image/png;base64,"
    assert body["warped"].startswith(prefix)
    warped = Image.open(BytesIO(base64.b64decode(body["warped"][len(prefix):])))
    cell = underlay_cell(12, 10)
    assert (warped.format, warped.size) == ("PNG", (12 * cell, 10 * cell))


def test_a_photo_turned_by_its_exif_is_traced_as_the_browser_shows_it(host: Browser) -> None:
    upright = Image.new("RGB", (40, 20), "#fbf3d5")
    upright.paste((207, 207, 207), (0, 0, 20, 20))  # the left half grey
    stored = upright.rotate(90, expand=True)  # the camera stored it turned; EXIF orientation 6 turns it back
    exif = Image.Exif()
    exif[0x0112] = 6
    out = BytesIO()
    stored.save(out, format="JPEG", exif=exif, quality=95)
    answer = host.post(URL, request_for(data_url(out.getvalue(), "jpeg"), [[0, 0], [40, 0], [40, 20], [0, 20]], 2, 1))
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    warped = answer.get_json()["warped"]
    picture = Image.open(BytesIO(base64.b64decode(warped.split(",", 1)[1]))).convert("RGB")
    middle = picture.height // 2
    left, right = picture.getpixel((picture.width // 4, middle)), picture.getpixel((picture.width * 3 // 4, middle))
    assert isinstance(left, tuple) and isinstance(right, tuple)
    assert max(abs(a - b) for a, b in zip(left, (207, 207, 207))) < 12 and right[2] < 225


def test_only_a_logged_in_host_may_trace(app: Flask) -> None:
    stranger = Browser(app, "/host")
    refused(stranger.post(URL, request_for(data_url(png((100, 100))), SQUARE)), 401, "host_login")


def test_a_trace_without_the_csrf_token_is_refused(host: Browser) -> None:
    refused(host.post(URL, request_for(data_url(png((100, 100))), SQUARE), csrf="wrong"), 403, "csrf")


BAD_IMAGES = {
    "not a data URL": "https://example.com/board.jpg",
    "bad base64": "data:image/jpeg;base64,@@not*base64@@",
    "not an image": data_url(b"hello, this is a text file, not a photo"),
    "cut short": data_url(png((100, 100))[:60]),
    "too many pixels": data_url(png((MAX_SIDE + 1, 8))),
    "a GIF": data_url(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "gif"),
}


@pytest.mark.parametrize("name", BAD_IMAGES)
def test_a_bad_image_is_refused_with_a_plain_sentence(host: Browser, name: str) -> None:
    answer = host.post(URL, request_for(BAD_IMAGES[name], SQUARE))
    refused(answer, 400, "bad_photo")
    message = answer.get_json()["error"]["message"]
    assert "\n" not in message and "Traceback" not in message and len(message) < 120


def test_a_photo_with_too_many_pixels_is_refused_before_it_is_decoded(host: Browser) -> None:
    answer = host.post(URL, request_for(data_url(png((MAX_SIDE + 1, 8))), SQUARE))
    refused(answer, 400, "bad_photo")
    expected = f"The photo is {MAX_SIDE + 1} x 8 pixels; at most {MAX_SIDE} x {MAX_SIDE}."
    assert answer.get_json()["error"]["message"] == expected


def test_a_damaged_photo_is_never_a_500(host: Browser, board_photo: tuple[str, Any]) -> None:
    data = bytearray(base64.b64decode(board_photo[0].split(",", 1)[1]))
    for start in range(200, len(data) - 64, len(data) // 15):  # scramble a stretch of the JPEG's data
        damaged = data[:start] + bytes(reversed(data[start:start + 64])) + data[start + 64:]
        answer = host.post(URL, request_for(data_url(bytes(damaged), "jpeg"), board_photo[1]))
        assert answer.status_code in (200, 400), (start, answer.status_code)
        if answer.status_code == 400:
            assert error_of(answer) == "bad_photo"


def test_a_body_over_8_mib_is_refused_as_too_large(host: Browser) -> None:
    oversized = "data:image/png;base64," + "A" * MAX_PHOTO_BODY
    refused(host.post(URL, request_for(oversized, SQUARE)), 413, "too_large")


BAD_CORNERS: dict[str, Any] = {
    "outside the photo": [[0, 0], [101, 0], [100, 100], [0, 100]],
    "negative": [[-1, 0], [100, 0], [100, 100], [0, 100]],
    "three corners": [[0, 0], [100, 0], [100, 100]],
    "crossed": [[0, 0], [100, 0], [0, 100], [100, 100]],
    "anticlockwise": [[0, 0], [0, 100], [100, 100], [100, 0]],
    "three on a line": [[0, 0], [50, 0], [100, 0], [0, 100]],
    "not numbers": [["0", 0], [100, 0], [100, 100], [0, 100]],
    "booleans": [[True, 0], [100, 0], [100, 100], [0, 100]],
    "not a list": "top-left",
}


@pytest.mark.parametrize("name", BAD_CORNERS)
def test_corners_that_cannot_frame_the_board_are_refused(host: Browser, name: str) -> None:
    refused(host.post(URL, request_for(data_url(png((100, 100))), BAD_CORNERS[name])), 400, "bad_photo")


def test_the_corner_outside_the_photo_is_named(host: Browser) -> None:
    answer = host.post(URL, request_for(data_url(png((100, 80))), [[0, 0], [100, 0], [100, 90], [0, 80]]))
    refused(answer, 400, "bad_photo")
    assert "bottom-right" in answer.get_json()["error"]["message"]


@pytest.mark.parametrize("width, height", [(0, 10), (41, 10), (12, -1), (True, 10), (12.5, 10), ("12", 10)])
def test_a_grid_size_outside_1_to_40_is_refused(host: Browser, width: Any, height: Any) -> None:
    refused(host.post(URL, request_for(data_url(png((100, 100))), SQUARE, width, height)), 400, "bad_field")


@pytest.mark.parametrize("body", [{"image": "data:image/png;base64,", "corners": SQUARE, "width": 3},
                                  {**request_for("x", SQUARE), "extra": 1}, ["not", "an", "object"]])
def test_a_body_without_exactly_the_four_fields_is_refused(host: Browser, body: Any) -> None:
    refused(host.post(URL, body), 400, "bad_field" if isinstance(body, dict) else "bad_json")


def test_a_plain_grid_photo_traces_as_all_hallway(host: Browser) -> None:
    answer = host.post(URL, request_for(data_url(png((100, 100))), SQUARE, 3, 2))
    assert answer.status_code == 200
    assert answer.get_json()["rows"] == ["...", "..."]

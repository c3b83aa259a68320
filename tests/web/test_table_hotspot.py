"""On the Pi's own hotspot the table screen shows how to join it (name, password, Wi-Fi QR code); phones never see it.

Through the real server (waitress on a loopback port), the reach file in tmp_path standing for
/run/clue-companion/reach.json, which the card image's network script writes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import segno
from pages import wait_until
from real_server import Client, seat_client, serving

HOTSPOT = {"mode": "hotspot", "ssid": "CLUE-3F2A", "password": "k7mp;q9xz2wvb", "addresses": ["10.42.0.1"]}


def reach_file(tmp_path: Path, content: object) -> Path:
    path = tmp_path / "reach.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def test_on_the_hotspot_the_table_page_shows_its_name_password_and_wifi_code(tmp_path: Path) -> None:
    with serving(tmp_path, REACH_FILE=reach_file(tmp_path, HOTSPOT)) as served:
        page = Client(served.port).load("/").decode()
    assert 'id="hotspot-ssid">CLUE-3F2A<' in page and 'id="hotspot-password">k7mp;q9xz2wvb<' in page
    # The QR code is the Wi-Fi code of this hotspot, ";" in its password escaped as the format wants.
    expected = segno.make("WIFI:T:WPA;S:CLUE-3F2A;P:k7mp\\;q9xz2wvb;;", error="m")
    assert expected.svg_inline(scale=1, omitsize=True, light="#ffffff", border=4) in page


def test_a_phone_at_its_seat_never_sees_the_hotspot_password(tmp_path: Path) -> None:
    with serving(tmp_path, REACH_FILE=reach_file(tmp_path, HOTSPOT)) as served:
        phone = seat_client(served)
        pages = [phone.load("/seat"), phone.request("GET", "/api/seat")[2], phone.request("GET", "/api/table")[2]]
    assert not any(b"k7mp" in page or b"CLUE-3F2A" in page for page in pages)


@pytest.mark.parametrize("content", [
    None,  # no file: not the card image, or the network not up yet
    "", "{half", "[1, 2]", json.dumps({**HOTSPOT, "mode": "carrier pigeon"}), json.dumps({**HOTSPOT, "password": 7}),
    json.dumps({**HOTSPOT, "pad": "x" * 20_000}),  # past the size cap: not read
    json.dumps({"mode": "wifi", "ssid": "Home", "password": "our secret", "addresses": ["192.168.1.7"]}),
])
def test_without_a_hotspot_the_table_page_is_as_before(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "reach.json" if content is None else reach_file(tmp_path, content)
    with serving(tmp_path, REACH_FILE=path) as served:
        page = Client(served.port).load("/")
    assert b'id="hotspot"' not in page and b"our secret" not in page


def test_a_name_with_markup_is_shown_as_text(tmp_path: Path) -> None:
    with serving(tmp_path, REACH_FILE=reach_file(tmp_path, {**HOTSPOT, "ssid": "<b>x</b>"})) as served:
        page = Client(served.port).load("/")
    assert b"&lt;b&gt;x&lt;/b&gt;" in page and b"<b>x</b>" not in page


def test_in_chromium_the_hotspot_card_stays_beside_the_board(browser: Any, tmp_path: Path) -> None:
    with serving(tmp_path, REACH_FILE=reach_file(tmp_path, HOTSPOT)) as served:
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        problems: list[str] = []
        page.on("pageerror", lambda err: problems.append(str(err)))
        page.goto(f"http://127.0.0.1:{served.port}/")
        wait_until(page, "document.querySelectorAll('#board .cb-mover').length === 6")
        card, board = page.locator("#hotspot").bounding_box(), page.locator("#board").bounding_box()
        qr = page.locator("#hotspot svg").bounding_box()
        page.close()
    assert problems == []
    assert card is not None and board is not None and qr is not None
    assert card["x"] >= board["x"] + board["width"]  # never over the board
    assert card["y"] + card["height"] <= 1080 and card["x"] + card["width"] <= 1920  # all of it on the screen
    assert qr["width"] >= 100  # large enough for a phone's camera across the table

"""The host's camera panel: the frame and what to do, for a host login only, bounded, never stored."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from PIL import Image
from web_fixtures import Browser, error_of, host_browser, make_app, open_game, running, seat_browser

from companion.cli.mock_table import MockTable
from companion.table.store import Store
from web import create_app
from web.camera import FRAME_LIMIT

JPEG = b"\xff\xd8\xff\xe0fake-jpeg"
UP = {"state": "up", "name": "mock camera", "reason": None, "since": 1.0, "fps": 8.0}


class FakeCamera:
    """What the rig's camera table answers: a frame and its facts."""

    def __init__(self, facts: dict[str, Any] | None = None) -> None:
        self.facts = facts or {"status": UP, "board_found": True, "corners": [], "unseen": []}
        self.asked = 0

    def panel(self) -> tuple[bytes, dict[str, Any]] | None:
        self.asked += 1
        return JPEG, self.facts

    def status(self) -> dict[str, Any]:
        return dict(self.facts["status"])


class FakeRig:
    def __init__(self, camera: FakeCamera | None) -> None:
        self.camera = camera


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Any]:
    with running(tmp_path) as found:
        open_game(found)
        yield found


def app_with(session: Any, camera: FakeCamera | None) -> Flask:
    return make_app(session, RIG=FakeRig(camera))


def test_only_a_host_login_gets_the_frame_and_the_panel(session: Any) -> None:
    app = app_with(session, FakeCamera())
    for stranger in (Browser(app), seat_browser(app, "Miss Scarlet")):
        for url in ("/api/host/camera", "/api/host/camera/frame"):
            answer = stranger.get(url)
            assert answer.status_code == 401 and error_of(answer) == "host_login"
    host = host_browser(app)
    frame = host.get("/api/host/camera/frame")
    assert frame.status_code == 200 and frame.mimetype == "image/jpeg" and frame.data == JPEG
    assert "no-store" in frame.headers["Cache-Control"]
    panel = host.json("/api/host/camera")
    assert panel["status"]["state"] == "up" and panel["frame"] is True and panel["advice"] == []
    # The table screen and a phone's page never carry the panel or its frame
    for page in (Browser(app).get("/").get_data(as_text=True), seat_browser(app, "Mrs. White").get("/seat").get_data(as_text=True)):
        assert "camera-panel" not in page and "/api/host/camera" not in page
    assert "camera-panel" in host.get("/host").get_data(as_text=True)


def test_a_table_without_a_camera_has_no_panel(session: Any) -> None:
    host = host_browser(app_with(session, None))
    answer = host.get("/api/host/camera")
    assert answer.status_code == 404 and error_of(answer) == "no_camera"


def test_the_panel_says_which_corner_is_covered_and_which_way_to_move_the_camera(session: Any) -> None:
    facts = {"status": UP, "board_found": True, "unseen": ["Rope"], "corners": [
        {"corner": 2, "position": "bottom right", "room": "Study", "problem": "covered", "ways": []},
        {"corner": 0, "position": "top left", "room": None, "problem": "outside", "ways": ["up", "left"]},
        {"corner": 1, "position": "top right", "room": "Lounge", "problem": "outside", "ways": ["right"]}]}
    panel = host_browser(app_with(session, FakeCamera(facts))).json("/api/host/camera")
    assert panel["advice"] == [
        "The Study corner marker is covered: clear it.",
        "The top left corner is out of the picture: move the camera up and left, or raise it.",
        "The Lounge corner is out of the picture: move the camera right, or raise it."]
    assert panel["unseen"] == ["Rope"]
    lost = {"status": UP, "board_found": False, "corners": [], "unseen": []}
    assert host_browser(app_with(session, FakeCamera(lost))).json("/api/host/camera")["advice"] == [
        "The board is not in view: at least three of its four corner markers must be seen."]


def test_frames_are_rate_limited_per_address(session: Any) -> None:
    camera = FakeCamera()
    host = host_browser(app_with(session, camera))
    for _ in range(FRAME_LIMIT):
        assert host.get("/api/host/camera/frame").status_code == 200
    answer = host.get("/api/host/camera/frame")
    assert answer.status_code == 429 and error_of(answer) == "rate_limited"
    assert camera.asked == FRAME_LIMIT  # a refused request costs the camera nothing


def test_a_mock_camera_table_serves_a_small_jpeg_drawn_over_and_keeps_no_file(tmp_path: Path) -> None:
    with Store(tmp_path / "games.db").open() as store, MockTable(store, camera=True) as rig:
        assert rig.new_game("classic", ("Miss Scarlet", "Colonel Mustard", "Mrs. White"), seed=7).ok
        app = create_app(rig.session, {"HOST_PIN": "246813", "TESTING": True, "RIG": rig})
        before = sorted(p.name for p in tmp_path.rglob("*")), rows(rig)
        host = host_browser(app)
        panel = host.json("/api/host/camera")
        assert panel["status"]["state"] == "up" and panel["frame"] and panel["advice"] == []
        frame = host.get("/api/host/camera/frame")
        image = Image.open(io.BytesIO(frame.data))
        assert image.format == "JPEG" and image.width <= 960 and image.height <= 540
        again = host.get("/api/host/camera/frame")
        assert again.data == frame.data  # drawn and encoded at most twice a second, whoever asks
        assert (sorted(p.name for p in tmp_path.rglob("*")), rows(rig)) == before  # no file, no store row


def rows(rig: MockTable) -> dict[str, int]:
    """Each store table's row count (read on the session thread, which owns the store)."""
    def count(table: Any) -> dict[str, int]:
        db = table.store._db
        names = [row[0] for row in db.execute("select name from sqlite_master where type = 'table'")]
        return {name: db.execute(f'select count(*) from "{name}"').fetchone()[0] for name in names}

    found: dict[str, int] = rig.session.inspect(count)
    assert found, "the store has tables"
    return found


def test_the_host_page_of_a_table_without_a_camera_has_no_panel_nor_its_script(session: Any) -> None:
    page = host_browser(app_with(session, None)).get("/host").get_data(as_text=True)
    assert "camera-panel" not in page and "camera.js" not in page

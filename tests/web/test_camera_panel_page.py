"""The camera panel on the host page, in a real browser over a real server, on a mock camera table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pages import wait_until

from companion.cli.mock_table import MockTable
from companion.table.store import Store
from web import create_app
from web.serve import WebServer

PIN = "246813"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[MockTable, str]]:
    with Store(tmp_path / "games.db").open() as store, MockTable(store, camera=True) as rig:
        assert rig.new_game("classic", ("Miss Scarlet", "Colonel Mustard", "Mrs. White"), seed=7).ok
        app = create_app(rig.session, {"HOST_PIN": PIN, "RIG": rig, "SIM": True, "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield rig, f"http://127.0.0.1:{server.port}"


def test_the_host_sees_the_live_frame_and_the_table_screen_does_not(browser: Any,
                                                                     served: tuple[MockTable, str]) -> None:
    rig, url = served
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(str(err)))
    page.goto(url + "/host")
    page.fill("#pin", PIN)
    page.click("#login-button")
    page.wait_for_selector("#host")
    wait_until(page, "!document.getElementById('camera-panel').classList.contains('hidden')")
    wait_until(page, "document.getElementById('camera-frame').naturalWidth > 0")
    assert page.inner_text("#camera-state").startswith("Camera connected")
    assert page.eval_on_selector("#camera-frame", "img => img.naturalWidth") <= 960
    rig.camera.camera.unplug()
    wait_until(page, "document.getElementById('camera-state').textContent.includes('disconnected')")
    assert page.eval_on_selector("#camera-frame", "img => img.classList.contains('hidden')")
    table = browser.new_page()
    table.goto(url + "/")
    assert table.query_selector("#camera-panel") is None and table.query_selector("#camera-frame") is None
    assert problems == []

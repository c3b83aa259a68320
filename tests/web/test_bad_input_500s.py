"""Bad input is a 400 with a code, never a 500 (issue 27, findings 5 and 6), through the real server on a real port.

Deeply nested JSON made ``request.get_json(silent=True)`` raise RecursionError
on the editor's import; ``str.isdigit()`` let "²" and "①" (and a number too
long for ``int()``) through to ``int()`` on the editor's blank board; resuming
a game id that does not exist logged a whole ERROR traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from real_browser import RealBrowser, serving
from web_fixtures import PIN, make_app

from companion.cli.mock_table import MockTable
from companion.table.store import Store
from web.serve import WebServer

NESTED = (b"[" * 20000 + b"]" * 20000, b'{"text":' * 6000 + b'"x"' + b"}" * 6000)


@pytest.fixture
def host(tmp_path: Path) -> Iterator[RealBrowser]:
    with serving(tmp_path, EDITIONS_DIR=str(tmp_path / "editions")) as (_, port):
        browser = RealBrowser(port)
        assert browser.login(PIN).status == 200
        yield browser


@pytest.mark.parametrize("body", NESTED, ids=("array", "object"))
def test_deeply_nested_json_to_the_editor_is_a_400(host: RealBrowser, body: bytes) -> None:
    for route, code in (("/api/host/editor/import", "bad_file"), ("/api/host/editor/check", "bad_json"),
                        ("/api/host/editor/save", "bad_json")):
        answer = host.request("POST", route, body, {"Content-Type": "application/json", "X-CSRF-Token": host.csrf})
        assert (answer.status, answer.code()) == (400, code), (route, answer.status, answer.text()[:200])


@pytest.mark.parametrize("width", ["²", "①", "٣", "9" * 5000, "", "0", "41", "-1", "+3", " 3", "3.0"])
def test_a_blank_boards_size_that_is_not_plain_digits_is_a_400(host: RealBrowser, width: str) -> None:
    answer = host.get(f"/api/host/editor/blank?width={quote(width)}&height=5")
    assert (answer.status, answer.code()) == (400, "bad_field"), (answer.status, answer.text()[:200])
    answer = host.get(f"/api/host/editor/blank?width=5&height={quote(width)}")
    assert (answer.status, answer.code()) == (400, "bad_field"), (answer.status, answer.text()[:200])


def test_a_blank_board_of_plain_digits_is_made(host: RealBrowser) -> None:
    answer = host.get("/api/host/editor/blank?width=07&height=40")
    assert answer.status == 200, answer.text()[:200]
    rows = answer.json()["map"]["rows"]
    assert (len(rows), len(rows[0])) == (40, 7)


def test_resuming_a_game_that_does_not_exist_is_one_log_line_and_a_404(tmp_path: Path,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    """On the rig (as ``run`` serves the page), where the replay's failure was logged with its traceback."""
    with Store(tmp_path / "rig.db").open() as store, MockTable(store) as rig:
        with WebServer(make_app(rig.session, RIG=rig, SIM=True), "127.0.0.1", 0) as server:
            host = RealBrowser(server.port)
            assert host.login(PIN).status == 200
            caplog.clear()
            with caplog.at_level(logging.DEBUG):
                answer = host.post("/api/host/resume", {"game_id": 99})
            assert (answer.status, answer.code()) == (404, "no_game"), answer.text()
            assert "99" in answer.json()["error"]["message"]
    said = [record for record in caplog.records if record.levelno >= logging.INFO]
    assert len(said) == 1, [record.getMessage() for record in said]
    assert said[0].levelno == logging.WARNING and said[0].exc_info is None and "99" in said[0].getMessage()

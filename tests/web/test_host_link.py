"""The host page says why the board is missing and what it last logged; the table page only that it is."""

from __future__ import annotations

import json
import os
import time
import tty
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from web_fixtures import host_browser, make_app, running

from companion.table.commands import BoardDown
from companion.table.session import Session
from hardware.board_link import BoardLink
from hardware.link_core import LinkTiming
from hardware.protocol import Log, encode
from hardware.table_link import to_commands
from web.context import WebContext

QUICK = LinkTiming(hello_retry=0.1, heartbeat=0.1, timeout=0.4, settle=0.03, backoff_min=0.01, backoff_max=0.05,
                   handshake=0.5)
NO_BOARD = "no board found (no USB serial device with vendor ID 0x2E8A)"


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with running(tmp_path) as session:
        yield session


def linked(session: Session, link: BoardLink) -> Any:
    """The app with ``link`` as its rig's board link, the way ``run`` wires it."""
    return make_app(session, RIG=SimpleNamespace(link=link))


def wait_until(test: Any, timeout: float = 5.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := test()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)
    return found


def test_the_host_sees_why_the_board_is_missing_and_since_when_the_table_only_that_it_is(session: Session) -> None:
    link = BoardLink(None, to_commands(session.submit, lambda: frozenset()), timing=QUICK, find_port=lambda: None)
    with link:
        app = linked(session, link)
        host = host_browser(app)
        board = wait_until(lambda: (b := host.json("/api/host")["board"])["reason"] and b)
        public = host.json("/api/table")
    assert board["state"] == "down" and board["reason"].startswith(NO_BOARD)
    assert isinstance(board["since"], float) and abs(board["since"] - time.time()) < 30
    assert public["link"] == "down"
    assert "0x2E8A" not in json.dumps(public) and "no board found" not in json.dumps(public)
    assert public["notice"]["text"].startswith("No board yet: searching for it.")
    assert 'id="board-status"' in host.load("/host").get_data(as_text=True)


def test_the_boards_log_lines_before_its_handshake_are_on_the_host_page(session: Session) -> None:
    master, slave = os.openpty()
    tty.setraw(slave)
    try:
        link = BoardLink(os.ttyname(slave), to_commands(session.submit, lambda: frozenset()), timing=QUICK)
        with link:
            time.sleep(0.1)  # the port is open: what the device writes now reaches the link
            os.write(master, encode(Log("info", "clue-board firmware 1.0.0 starting", 0)))
            os.write(master, encode(Log("error", "crashed, resetting: MemoryError (scanner.py line 40)", 1)))
            host = host_browser(linked(session, link))
            board = wait_until(lambda: (b := host.json("/api/host")["board"])["reason"] and b)
            public = json.dumps(host.json("/api/table"))
    finally:
        os.close(master)
        os.close(slave)
    assert [(line["level"], line["text"]) for line in board["log"]] == [
        ("info", "clue-board firmware 1.0.0 starting"),
        ("error", "crashed, resetting: MemoryError (scanner.py line 40)")]
    assert all(isinstance(line["t"], float) for line in board["log"])
    assert "sent log lines but no HELLO" in board["reason"] and "MemoryError" in board["reason"]
    assert "MemoryError" not in public


def test_without_a_rig_the_host_still_gets_the_reason_the_table_was_given(session: Session) -> None:
    app = make_app(session)
    host = host_browser(app)
    assert session.call(BoardDown("/dev/ttyACM0 is not there: is the board plugged in?")).ok
    board = host.json("/api/host")["board"]
    assert board["state"] == "down" and board["reason"] == "/dev/ttyACM0 is not there: is the board plugged in?"
    assert "ttyACM0" not in json.dumps(host.json("/api/table"))
    web: WebContext = app.extensions["clue"]
    assert web.rig is None


def test_the_board_status_needs_the_host_pin(session: Session) -> None:
    app = make_app(session)
    answer = app.test_client().get("/api/host")
    assert answer.status_code == 401

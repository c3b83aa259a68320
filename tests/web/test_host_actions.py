"""Two host pages press the host buttons in any order: the table is never wedged, no page shows a stale stage.

Found by attack: ending a game, then resuming it from a second host page,
answered 200 and left a table whose every action failed with ``store``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_fixtures import PIN, Browser, host_browser, make_app, running

from companion.rules.actions import Roll
from companion.table.commands import Play

SEATS = ["Miss Scarlet", "Colonel Mustard", "Mrs. White"]
PINS = (PIN, "135790", "864213")
# Each example's store in memory where Linux has a tmpfs: the store commits with synchronous=FULL, and on
# a busy disk its fsyncs (a dozen enrolments, then every action) cost more than the rest of the example;
# what is tested is the table's stages, not the disk (the store's crash tests use a real folder).
RAM = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
STEP = st.tuples(st.sampled_from((0, 1)),  # which host page
                 st.sampled_from(("new", "start", "end", "resume", "revoke", "settings")),
                 st.integers(0, 3))  # which game, seat or PIN


class HostPage:
    """A host's browser that logs in again (with the PIN the host knows) when another page changed it."""

    def __init__(self, app: Any, pins: list[str]) -> None:
        self.browser, self.pins = host_browser(app), pins

    def post(self, url: str, body: dict[str, Any]) -> Any:
        answer = self.browser.post(url, body)
        if answer.status_code == 401:
            assert self.browser.login(self.pins[-1]).status_code == 200
            answer = self.browser.post(url, body)
        return answer

    def overview(self) -> dict[str, Any]:
        answer = self.browser.get("/api/host")
        if answer.status_code == 401:
            assert self.browser.login(self.pins[-1]).status_code == 200
            answer = self.browser.get("/api/host")
        assert answer.status_code == 200
        found: dict[str, Any] = answer.get_json()
        return found


def press(page: HostPage, button: str, pick: int, pins: list[str]) -> Any:
    if button == "new":
        edition = "doctor_who" if pick == 3 else "classic"
        seats = ["Clara Oswald", "Strax", "River Song"] if edition == "doctor_who" else SEATS
        return page.post("/api/host/new", {"edition": edition, "seats": seats, "seed": pick})
    if button == "resume":
        return page.post("/api/host/resume", {"game_id": pick + 1})
    if button == "revoke":
        return page.post("/api/host/revoke", {"seat": (SEATS + ["Strax"])[pick]})
    if button == "settings":
        pins.append(PINS[pick % len(PINS)])
        return page.post("/api/host/settings", {"pin": pins[-1]})
    return page.post(f"/api/host/{button}", {})


def table_now(session: Any) -> tuple[str, int | None]:
    return session.inspect(lambda table: (table.stage, table.game_id))  # type: ignore[no-any-return]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(STEP, max_size=10))
def test_no_order_of_host_actions_wedges_the_table(steps: list[tuple[int, str, int]]) -> None:
    with tempfile.TemporaryDirectory(dir=RAM) as folder, running(Path(folder)) as session:
        app, pins = make_app(session), [PIN]
        pages = (HostPage(app, pins), HostPage(app, pins))
        for button in ("new", "start"):  # a game 1 to resume, end and fight over
            assert press(pages[0], button, 0, pins).status_code == 200
        for which, button, pick in steps:
            answer = press(pages[which], button, pick, pins)
            body = answer.get_json()
            assert answer.status_code < 500, body
            assert answer.status_code == 200 or body["error"]["code"] != "store", (button, body)
            stage, game_id = table_now(session)
            for page in pages:  # neither page shows a table that is no longer there
                overview = page.overview()
                assert (overview["stage"], overview["game_id"]) == (stage, game_id), (button, overview)
        for button in ("end", "new", "start"):  # whatever happened, the host can always play again
            answer = press(pages[1], button, 0, pins)
            assert answer.status_code == 200, (button, answer.get_json())
        state = session.inspect(lambda table: table.state)
        assert session.call(Play(state.turn.seat, Roll(state.turn.seat))).ok


def test_an_ended_game_is_not_resumed(tmp_path: Path) -> None:
    with running(tmp_path) as session:
        app, pins = make_app(session), [PIN]
        laptop, tablet = HostPage(app, pins), HostPage(app, pins)
        for button in ("new", "start", "end"):
            assert press(laptop, button, 0, pins).status_code == 200
        refused = press(tablet, "resume", 0, pins)
        assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "game_ended"
        assert table_now(session) == ("idle", None)
        assert Browser(app).get("/api/table").get_json()["stage"] == "idle"

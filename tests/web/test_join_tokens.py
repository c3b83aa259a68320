"""Join tokens belong to a game; the host sees every phone holding a seat and can turn one away."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_fixtures import SEATS, Browser, host_browser, make_app, refused, running, seat_browser

SCARLET, MUSTARD = SEATS[0], SEATS[1]


def ok(response: Any) -> Any:
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def phones_of(host: Browser, seat: str) -> list[dict[str, Any]]:
    seats = {entry["seat"]: entry for entry in host.json("/api/host")["seats"]}
    return list(seats[seat]["phones"])


def start_game(app: Any, seed: int) -> Browser:
    host = host_browser(app)
    ok(host.post("/api/host/new", {"edition": "classic", "seats": list(SEATS), "seed": seed}))
    ok(host.post("/api/host/start", {}))
    return host


def test_one_join_url_on_two_phones_is_shown_and_one_can_be_turned_away(tmp_path: Path) -> None:
    with running(tmp_path) as session:
        app = make_app(session)
        host = start_game(app, 7)
        mine, borrowed = seat_browser(app, SCARLET), seat_browser(app, SCARLET)  # the same QR code, scanned twice
        phones = phones_of(host, SCARLET)
        assert len(phones) == 2 and phones_of(host, MUSTARD) == []
        assert host.json("/api/host")["seats"][0]["joined"] is True
        key = borrowed.client.get_cookie("clue_session")
        assert key is not None
        ok(host.post("/api/host/kick", {"seat": SCARLET, "phone": phones[1]["phone"]}))  # the newer one
        refused(borrowed.get("/api/seat"), 401, "not_joined")
        refused(borrowed.act("roll"), 401, "not_joined")
        assert mine.json("/api/seat")["seat"] == SCARLET  # the seat's other phone plays on
        assert len(phones_of(host, SCARLET)) == 1
        refused(host.post("/api/host/kick", {"seat": SCARLET, "phone": phones[1]["phone"]}), 409, "unknown_phone")
        refused(host.post("/api/host/kick", {"seat": SCARLET, "phone": ""}), 400, "bad_field")
        assert mine.json("/api/seat")["seat"] == SCARLET


def test_resuming_another_game_turns_the_last_games_phones_away(tmp_path: Path) -> None:
    with running(tmp_path) as first:  # game 1, left unfinished when the companion stopped
        app = make_app(first)
        start_game(app, 7)
        first_phone = seat_browser(app, SCARLET)
        first_cookie = first_phone.client.get_cookie("clue_session")
    with running(tmp_path) as second:  # game 2, the same seat names, other people; left unfinished too
        app = make_app(second)
        start_game(app, 8)
        refused(_with_cookie(app, first_cookie).get("/api/seat"), 401, "not_joined")  # a new game's new tokens
        second_cookie = seat_browser(app, SCARLET).client.get_cookie("clue_session")
    with running(tmp_path) as third:
        app = make_app(third)
        host = host_browser(app)
        ok(host.post("/api/host/resume", {"game_id": 1}))
        for cookie in (first_cookie, second_cookie):  # game 2's phone does not hold game 1's seat
            refused(_with_cookie(app, cookie).get("/api/seat"), 401, "not_joined")
        assert phones_of(host, SCARLET) == []
        assert seat_browser(app, SCARLET).json("/api/seat")["seat"] == SCARLET  # a fresh scan joins


def test_the_host_may_keep_the_phones_when_resuming(tmp_path: Path) -> None:
    with running(tmp_path) as first:
        start_game(make_app(first), 7)
    cookie = _game_with_a_phone(tmp_path, 8)
    with running(tmp_path) as third:
        app = make_app(third)
        ok(host_browser(app).post("/api/host/resume", {"game_id": 1, "keep_phones": True}))
        assert _with_cookie(app, cookie).json("/api/seat")["seat"] == SCARLET


def test_resuming_the_same_game_after_a_restart_keeps_its_phones(tmp_path: Path) -> None:
    cookie = _game_with_a_phone(tmp_path, 7)
    with running(tmp_path) as second:
        app = make_app(second)
        ok(host_browser(app).post("/api/host/resume", {"game_id": 1}))
        assert _with_cookie(app, cookie).json("/api/seat")["seat"] == SCARLET


def _game_with_a_phone(tmp_path: Path, seed: int) -> Any:
    """A game started and left unfinished (the companion stopped); the cookie of a phone joined as Scarlet."""
    with running(tmp_path) as session:
        app = make_app(session)
        start_game(app, seed)
        return seat_browser(app, SCARLET).client.get_cookie("clue_session")


def _with_cookie(app: Any, cookie: Any) -> Browser:
    assert cookie is not None
    browser = Browser(app)
    browser.client.set_cookie("clue_session", cookie.value)
    return browser

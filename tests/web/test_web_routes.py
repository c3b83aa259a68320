"""Every route of docs/web.md answers as documented: status, JSON shape, content type.

A Classic game (seed 7, real dice) is played through ``POST /api/seat/action``:
Miss Scarlet rolls a 6 and walks into the Lounge, suggests Colonel Mustard with
the Revolver (the Colonel holds none of the three, Mrs. White holds the
Revolver and shows it), the Colonel accuses wrongly and is out, and Mrs. White
names the envelope (Colonel Mustard, Candlestick, Dining Room) and wins.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from PIL import Image
from web_fixtures import (CLASSIC, PIN, SEATS, Browser, Stream, error_of, host_browser, make_app, open_game, refused,
                          running, seat_browser, state_of, subscribers, tap, token_of, web_of)

from companion.cli.mock_table import MockTable
from companion.table.session import Session
from companion.table.store import Store

SCARLET, MUSTARD, WHITE = SEATS
ENVELOPE = ("Colonel Mustard", "Candlestick", "Dining Room")  # seed 7, these three seats
VIEW_KEYS = {"stage", "phase", "seats", "turn", "dice", "position", "weapons", "legal_destinations", "suggestion",
             "hand", "may_show", "shown_to_me", "record", "notice", "board", "link", "log", "solution", "winner",
             "eliminated", "edition_cards", "game_id", "settings", "actions"}


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with running(tmp_path) as started:
        yield started


@pytest.fixture
def app(session: Session) -> Flask:
    return make_app(session)


@pytest.fixture
def playing(session: Session, app: Flask) -> Flask:
    """The seed-7 Classic game, started, with real dice."""
    open_game(session, dice="physical")
    return app


def ok(response: object) -> dict[str, object]:
    status = getattr(response, "status_code")
    text = getattr(response, "get_data")(as_text=True)
    assert status == 200, (status, text[:300])
    assert getattr(response, "mimetype") == "application/json"
    body: dict[str, object] = json.loads(text)
    assert body["ok"] is True and isinstance(body["events"], list)
    return body


def types(body: dict[str, object]) -> list[str]:
    return [event["type"] for event in body["events"]]  # type: ignore[attr-defined]


# ---- the table ------------------------------------------------------------------------------------

def test_the_table_page_is_html_with_a_csrf_token_and_strict_headers(app: Flask) -> None:
    response = app.test_client().get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert '<meta name="csrf-token" content="' in page
    headers = response.headers
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert "script-src 'self'" in headers["Content-Security-Policy"]


def test_the_public_view_when_idle_and_while_playing(session: Session, app: Flask) -> None:
    browser = Browser(app)
    idle = browser.json("/api/table")
    assert idle["stage"] == "idle" and idle["phase"] == "idle" and idle["hand"] == [] and idle["log"] == []
    open_game(session, dice="physical")
    view = browser.json("/api/table")
    assert VIEW_KEYS <= set(view), VIEW_KEYS - set(view)
    assert view["stage"] == "playing" and view["phase"] == "start" and view["turn"] == SCARLET
    assert view["seats"] == list(SEATS) and view["seat"] is None and view["hand"] == []
    assert len(view["log"]) == len(view["record"]) and view["log"][0].startswith("A game of Classic CLUE")
    assert all(isinstance(line, str) for line in view["log"])
    assert view["edition_cards"]["rooms"] == list(CLASSIC.deck.rooms)
    assert response_is_no_store(browser, "/api/table")


def response_is_no_store(browser: Browser, url: str) -> bool:
    return browser.get(url).headers.get("Cache-Control") == "no-store"


def test_the_board_of_the_game_and_of_another_edition(session: Session, app: Flask) -> None:
    browser = Browser(app)
    board = browser.json("/api/board")
    assert board["edition"] == "classic"
    assert {"edition", "width", "height", "svg", "places", "squares", "rooms"} <= set(board)
    assert board["svg"].lstrip().startswith("<svg") and board["width"] > 0 and board["height"] > 0
    assert set(board["rooms"]) == set(CLASSIC.deck.rooms) and set(board["rooms"]) <= set(board["places"])
    assert all(len(xy) == 2 for xy in board["places"].values())
    assert board["squares"] and all(len(box) == 4 for box in board["squares"].values())
    # Every square and room in plain words, for the pages to say where a mover is.
    assert set(board["words"]) == set(board["squares"]) | set(board["rooms"])
    assert board["words"]["h25"] == "on Miss Scarlet's start square" and board["words"]["Hall"] == "in the Hall"
    other = browser.json("/api/board?edition=master_detective")
    assert other["edition"] == "master_detective" and "Carriage House" in other["rooms"]
    assert other["words"]["f3"] == "on the Basement Stairs"
    open_game(session, edition="master_detective", seats=SEATS)
    assert browser.json("/api/board")["edition"] == "master_detective"
    refused(browser.get("/api/board?edition=monopoly"), 404, "not_found")


def test_the_table_stream_sends_the_view_at_once_then_each_change_and_keepalives(
        session: Session, playing: Flask) -> None:
    before = subscribers(session)
    with Stream(playing.test_client(), "/events/table") as stream:
        assert stream.status == 200 and stream.mimetype == "text/event-stream"
        assert stream.response.headers["Cache-Control"] == "no-store"
        assert stream.chunk() == "retry: 2000\n\n"  # EventSource reconnects after 2 s
        first = stream.view()
        assert first["phase"] == "start" and first["seat"] is None and first["hand"] == [] and first["log"]
        assert subscribers(session) == before + 1
        seat_browser(playing, SCARLET).act("roll", dice=[6])
        after = stream.view()
        assert after["phase"] == "moving" and after["dice"] == [6] and "Miss Scarlet rolls 6." in after["log"]
        assert after["actions"] == first["actions"] + 1
    assert subscribers(session) == before  # closing the answer unsubscribes its mailbox


def test_keepalive_comments_flow_while_nothing_changes(playing: Flask) -> None:
    with Stream(playing.test_client(), "/events/table") as stream:
        stream.view()
        chunks = [stream.chunk() for _ in range(3)]
    assert chunks == [": keepalive\n\n"] * 3, chunks


# ---- joining and the seat -------------------------------------------------------------------------

def test_joining_a_seat_sets_the_cookie_and_opens_its_page_and_view(playing: Flask) -> None:
    browser = Browser(playing)
    not_joined = browser.get("/seat")
    assert not_joined.status_code == 200 and "Join your seat" in not_joined.get_data(as_text=True)
    refused(browser.get("/api/seat"), 401, "not_joined")
    refused(browser.get("/events/seat"), 401, "not_joined")
    joined = browser.get(f"/j/{token_of(playing, MUSTARD)}")
    assert joined.status_code == 200 and joined.mimetype == "text/html"
    assert "You are Colonel Mustard" in joined.get_data(as_text=True)
    assert "clue_session=" in joined.headers["Set-Cookie"]
    page = browser.get("/seat")
    assert page.status_code == 200 and 'data-seat="Colonel Mustard"' in page.get_data(as_text=True)
    view = browser.json("/api/seat")
    assert view["seat"] == MUSTARD and len(view["hand"]) == 6 and view["stage"] == "playing"
    assert view["log"] and len(view["log"]) == len(view["record"])
    with Stream(browser.client, "/events/seat") as stream:
        assert stream.status == 200 and stream.mimetype == "text/event-stream"
        streamed = stream.view()
    assert streamed["seat"] == MUSTARD and streamed["hand"] == view["hand"]


def test_a_whole_game_played_through_seat_actions(session: Session, playing: Flask) -> None:
    scarlet, mustard, white = (seat_browser(playing, seat) for seat in SEATS)

    # Out of turn, wrong dice, a move too far: the engine's and the table's refusals, with their codes.
    refused(mustard.act("roll", dice=[3]), 409, "not_your_turn")
    refused(scarlet.act("roll"), 409, "dice_mode")
    rolled = ok(scarlet.act("roll", dice=[6]))
    assert types(rolled) == ["rolled"] and rolled["events"][0]["total"] == 6  # type: ignore[index]
    refused(scarlet.act("roll", dice=[6]), 409, "wrong_phase")
    refused(scarlet.act("move", to="Kitchen"), 409, "illegal_move")
    assert error_of(scarlet.act("move", to="Narnia")) == "unknown_card"
    moved = ok(scarlet.act("move", to="Lounge"))
    assert {"type": "moved", "seat": SCARLET, "to": "Lounge", "via": "roll"} in moved["events"]  # type: ignore[operator]

    # The suggestion: the Colonel holds none of the three, Mrs. White holds the Revolver.
    suggested = ok(scarlet.act("suggest", suspect="Colonel Mustard", weapon="Revolver"))
    assert types(suggested)[:1] == ["suggested"] and "passed" in types(suggested)
    assert white.json("/api/seat")["may_show"] == ["Revolver"]
    assert scarlet.json("/api/seat")["may_show"] == []
    refused(white.act("pass"), 409, "must_show")
    assert ok(mustard.act("pass"))["events"] == []  # he holds none: it was already said for him
    refused(mustard.act("show", card="Revolver"), 409, "not_your_turn")
    refused(white.act("show", card="Lounge"), 409, "cannot_show")
    shown = ok(white.act("show", card="Revolver"))
    assert {"type": "card_shown", "by": WHITE, "to": SCARLET, "card": "Revolver"} in shown["events"]  # type: ignore[operator]
    assert scarlet.json("/api/seat")["shown_to_me"] == [{"by": WHITE, "card": "Revolver"}]
    ok(scarlet.act("end_turn"))

    # The Colonel accuses wrongly: out, but the game goes on.
    assert mustard.json("/api/table")["turn"] == MUSTARD
    wrong = ok(mustard.act("accuse", suspect="Professor Plum", weapon="Rope", room="Kitchen"))
    assert {"type": "accused", "seat": MUSTARD, "suspect": "Professor Plum", "weapon": "Rope", "room": "Kitchen",
            "correct": False} in wrong["events"]  # type: ignore[operator]
    assert "eliminated" in types(wrong) and "game_over" not in types(wrong)
    assert mustard.json("/api/table")["eliminated"] == [MUSTARD]
    ok(mustard.act("end_turn"))

    # Mrs. White names the envelope and wins.
    right = ok(white.act("accuse", suspect=ENVELOPE[0], weapon=ENVELOPE[1], room=ENVELOPE[2]))
    over = [event for event in right["events"] if event["type"] == "game_over"]  # type: ignore[attr-defined]
    assert over == [{"type": "game_over", "winner": WHITE,
                     "solution": {"suspect": ENVELOPE[0], "weapon": ENVELOPE[1], "room": ENVELOPE[2]}}]
    table = scarlet.json("/api/table")
    assert table["stage"] == "over" and table["winner"] == WHITE and table["turn"] is None
    assert table["solution"] == {"suspect": ENVELOPE[0], "weapon": ENVELOPE[1], "room": ENVELOPE[2]}
    assert table["log"][-1] == "Mrs. White wins! It was Colonel Mustard with the Candlestick in the Dining Room."
    refused(scarlet.act("end_turn"), 409, "game_over")


def test_bad_action_bodies_are_400_with_the_documented_codes(playing: Flask) -> None:
    scarlet = seat_browser(playing, SCARLET)
    refused(scarlet.post("/api/seat/action", data="roll", content_type="text/plain"), 400, "bad_json")
    refused(scarlet.post("/api/seat/action", data="{not json", content_type="application/json"), 400, "bad_json")
    refused(scarlet.post("/api/seat/action", ["roll"]), 400, "bad_json")
    refused(scarlet.post("/api/seat/action", {}), 400, "bad_field")
    refused(scarlet.act("dance"), 400, "unknown_action")
    refused(scarlet.act("roll", dice=[6], colour="red"), 400, "bad_field")
    refused(scarlet.act("move"), 400, "bad_field")
    refused(scarlet.act("move", to=7), 400, "bad_field")
    refused(scarlet.act("move", to="x" * 65), 400, "bad_field")
    refused(scarlet.act("move", to="   "), 400, "bad_field")
    refused(scarlet.act("roll", dice="6"), 400, "bad_field")
    refused(scarlet.act("roll", dice=[1, 2, 3, 4]), 400, "bad_field")
    refused(scarlet.act("roll", dice=[True]), 400, "bad_field")
    refused(scarlet.act("start", to="Lounge"), 400, "bad_field")
    message = scarlet.act("roll", dice=[6], colour="red").get_json()["error"]["message"]
    assert "colour" in message  # the message names the field


def test_the_seats_start_a_physical_deal_once_every_card_is_scanned(session: Session, app: Flask) -> None:
    open_game(session, deal="physical", start=False)
    scarlet = seat_browser(app, SCARLET)
    assert scarlet.json("/api/seat")["stage"] == "setup"
    refused(scarlet.act("roll"), 409, "not_started")
    assert error_of(scarlet.act("start")) == "bad_deal"
    hands = {SCARLET: ("Miss Scarlet", "Rope", "Kitchen", "Mr. Green", "Knife", "Ballroom"),
             MUSTARD: ("Colonel Mustard", "Wrench", "Study", "Mrs. Peacock", "Lead Pipe", "Hall"),
             WHITE: ("Mrs. White", "Revolver", "Lounge", "Library", "Billiard Room", "Conservatory")}
    for number, seat in enumerate(SEATS, start=1):
        for card in hands[seat]:
            tap(session, number, card)
    assert sorted(scarlet.json("/api/seat")["hand"]) == sorted(hands[SCARLET])
    started = ok(scarlet.act("start"))
    assert types(started)[0] == "game_started"
    assert scarlet.json("/api/table")["stage"] == "playing"
    state = state_of(session)
    assert set(state.envelope.cards()) == {"Professor Plum", "Candlestick", "Dining Room"}


def test_methods_and_unknown_routes_answer_json(app: Flask) -> None:
    browser = Browser(app)
    refused(browser.get("/api/seat/action"), 405, "method_not_allowed")
    refused(browser.post("/api/table", {}), 405, "method_not_allowed")
    refused(browser.get("/api/nothing-here"), 404, "not_found")
    refused(browser.get("/host/login"), 405, "method_not_allowed")


# ---- the host -------------------------------------------------------------------------------------

def test_the_host_pages_and_overview(session: Session, app: Flask) -> None:
    browser = Browser(app, "/host")
    login_page = browser.get("/host")
    assert login_page.status_code == 200 and login_page.mimetype == "text/html"
    refused(browser.get("/api/host"), 401, "host_login")
    ok_login = browser.login()
    assert ok_login.status_code == 200 and ok_login.get_json() == {"ok": True}
    index = browser.get("/host")
    assert index.status_code == 200 and index.get_data(as_text=True) != login_page.get_data(as_text=True)
    overview = browser.json("/api/host")
    assert {"stage", "game_id", "edition", "seats", "games", "enrolment", "settings", "editions"} <= set(overview)
    assert overview["stage"] == "idle" and overview["seats"] == [] and overview["games"] == []
    assert {edition["id"] for edition in overview["editions"]} == {"classic", "master_detective", "doctor_who",
                                                                   "big_bang_theory"}
    assert overview["enrolment"]["edition"] == "classic" and overview["enrolment"]["missing"] == []

    opened = ok(browser.post("/api/host/new", {"edition": "classic", "seats": list(SEATS), "deal": "virtual",
                                               "dice": "companion", "seed": 7}))
    assert opened["events"] == []
    overview = browser.json("/api/host")
    assert overview["stage"] == "setup" and [seat["seat"] for seat in overview["seats"]] == list(SEATS)
    for seat in overview["seats"]:
        assert seat["join_url"].startswith("http://localhost/j/") and len(seat["join_url"]) <= 53
        assert seat["qr_svg"].startswith("<svg") and seat["joined"] is False
    phone = Browser(app)
    phone.get(overview["seats"][1]["join_url"].removeprefix("http://localhost"))
    assert phone.json("/api/seat")["seat"] == MUSTARD
    assert [seat["joined"] for seat in browser.json("/api/host")["seats"]] == [False, True, False]

    started = ok(browser.post("/api/host/start", {}))
    assert types(started)[0] == "game_started"
    overview = browser.json("/api/host")
    assert overview["stage"] == "playing" and overview["turn"] == SCARLET and overview["game_id"] == 1
    assert [game["id"] for game in overview["games"]] == [1]
    refused(browser.post("/api/host/new", {"edition": "classic", "seats": list(SEATS)}), 409, "game_in_progress")
    refused(browser.post("/api/host/start", {}), 409, "no_table")
    ok(browser.post("/api/host/end", {}))
    assert browser.json("/api/host")["stage"] == "idle" and browser.json("/api/table")["stage"] == "idle"
    refused(phone.get("/api/seat"), 401, "not_joined")  # nobody plays now

    assert browser.post("/host/logout", {}).get_json() == {"ok": True}
    refused(browser.get("/api/host"), 401, "host_login")


def test_new_game_bodies_are_checked(app: Flask) -> None:
    host = host_browser(app)
    base = {"edition": "classic", "seats": list(SEATS)}
    refused(host.post("/api/host/new", {"seats": list(SEATS)}), 400, "bad_field")
    refused(host.post("/api/host/new", {**base, "seats": []}), 400, "bad_field")
    refused(host.post("/api/host/new", {**base, "seats": [SCARLET, SCARLET]}), 400, "bad_field")
    refused(host.post("/api/host/new", {**base, "seats": [SCARLET, 3]}), 400, "bad_field")
    refused(host.post("/api/host/new", {**base, "deal": "shuffled"}), 400, "bad_field")
    refused(host.post("/api/host/new", {**base, "dice": "loaded"}), 400, "bad_field")
    refused(host.post("/api/host/new", {**base, "seed": -1}), 400, "bad_field")
    refused(host.post("/api/host/new", {**base, "seed": "7"}), 400, "bad_field")
    refused(host.post("/api/host/new", {**base, "players": 3}), 400, "bad_field")
    assert host.post("/api/host/new", {**base, "edition": "monopoly"}).status_code == 400
    assert error_of(host.post("/api/host/new", {**base, "seats": ["Batman", WHITE, MUSTARD]})) == "unknown_card"
    assert host.post("/api/host/new", {**base, "variant": "two_player"}).status_code == 400
    assert host.json("/api/host")["stage"] == "idle"


def test_the_host_may_leave_the_bonus_cards_in_the_box(app: Flask) -> None:
    """Both rulebooks: "if you want to play original CLUE, return them to the box"."""
    host = host_browser(app)
    editions = {edition["id"]: edition for edition in host.json("/api/host")["editions"]}
    assert editions["big_bang_theory"]["bonus_cards"] == "Sheldon Card" and editions["classic"]["bonus_cards"] is None
    base = {"edition": "big_bang_theory", "seats": ["Penny", "Raj", "Leonard"], "seed": 7}
    refused(host.post("/api/host/new", {**base, "bonus_cards": "no"}), 400, "bad_field")
    assert error_of(host.post("/api/host/new", {"edition": "classic", "seats": list(SEATS),
                                                "bonus_cards": False})) == "bad_input"
    ok(host.post("/api/host/new", {**base, "bonus_cards": False}))
    ok(host.post("/api/host/start", {}))
    assert host.json("/api/table")["bonus"] is None
    ok(host.post("/api/host/end", {}))
    ok(host.post("/api/host/new", base))
    ok(host.post("/api/host/start", {}))
    assert host.json("/api/table")["bonus"]["name"] == "Sheldon Card"


def test_the_assistant_and_computer_players_are_chosen_by_the_host(app: Flask) -> None:
    host = host_browser(app)
    base = {"edition": "classic", "seats": list(SEATS), "seed": 7}
    refused(host.post("/api/host/new", {**base, "assistant": "psychic"}), 400, "bad_field")
    refused(host.post("/api/host/new", {**base, "bots": {"Mr. Green": "expert"}}), 400, "bad_field")
    refused(host.post("/api/host/new", {**base, "bots": [WHITE]}), 400, "bad_field")
    assert host.post("/api/host/new", {**base, "bots": {WHITE: "genius"}}).status_code == 400
    ok(host.post("/api/host/new", {**base, "assistant": "With probabilities"}))  # the host's own words do
    assert host.json("/api/host")["settings"]["assistant"] == "probabilities"
    ok(host.post("/api/host/new", {**base, "assistant": "certain", "bots": {WHITE: "expert"}}))
    seats = host.json("/api/host")["seats"]
    ok(host.post("/api/host/start", {}))
    phone = Browser(app)
    phone.get(seats[0]["join_url"].removeprefix("http://localhost"))
    view = phone.json("/api/seat")
    deadline = time.monotonic() + 10
    while view["assistant"].get("pending") and time.monotonic() < deadline:  # worked out off the table's thread
        time.sleep(0.02)
        view = phone.json("/api/seat")
    assert view["seat"] == SCARLET and view["settings"]["assistant"] == "certain"
    assert view["assistant"]["mode"] == "certain" and "cards" not in view["assistant"]
    assert set(view["hand"]) <= set(view["assistant"]["certain"])
    table = host.json("/api/table")
    assert "assistant" not in table and table["settings"]["bots"] == f"{WHITE}=expert"


def test_resume_after_a_restart_keeps_phones_joined(tmp_path: Path) -> None:
    with running(tmp_path) as first:
        app = make_app(first)
        host = host_browser(app)
        ok(host.post("/api/host/new", {"edition": "classic", "seats": list(SEATS), "seed": 7}))
        ok(host.post("/api/host/start", {}))
        phone = seat_browser(app, SCARLET)
        ok(phone.act("roll"))
        cookie = phone.client.get_cookie("clue_session")
        assert cookie is not None
        actions = phone.json("/api/table")["actions"]
    with running(tmp_path) as second:  # the companion restarts on the same store
        app = make_app(second)
        host = host_browser(app)
        games = host.json("/api/host")["games"]
        assert [game["id"] for game in games] == [1] and games[0]["seats"] == list(SEATS)
        refused(host.post("/api/host/resume", {"game_id": "1"}), 400, "bad_field")
        refused(host.post("/api/host/resume", {}), 400, "bad_field")
        refused(host.post("/api/host/resume", {"game_id": 99}), 404, "no_game")
        ok(host.post("/api/host/resume", {"game_id": 1}))
        table = host.json("/api/table")
        assert table["stage"] == "playing" and table["actions"] == actions and table["phase"] == "moving"
        refused(host.post("/api/host/resume", {"game_id": 1}), 409, "game_in_progress")
        again = Browser(app)
        again.client.set_cookie("clue_session", cookie.value)
        assert again.json("/api/seat")["seat"] == SCARLET  # the signing key and the tokens were in the store


def test_revoke_and_settings(session: Session, playing: Flask) -> None:
    host = host_browser(playing)
    old = token_of(playing, WHITE)
    assert ok_plain(host.post("/api/host/revoke", {"seat": WHITE}))
    assert token_of(playing, WHITE) != old
    refused(host.post("/api/host/revoke", {"seat": "Professor Plum"}), 409, "unknown_seat")
    refused(host.post("/api/host/revoke", {}), 400, "bad_field")
    refused(host.post("/api/host/settings", {"pin": "12"}), 400, "bad_field")
    refused(host.post("/api/host/settings", {"pin": "12ab"}), 400, "bad_field")
    refused(host.post("/api/host/settings", {"pin": 1234}), 400, "bad_field")
    refused(host.post("/api/host/settings", {"colour": "red"}), 400, "bad_field")
    assert ok_plain(host.post("/api/host/settings", {}))
    assert ok_plain(host.post("/api/host/settings", {"pin": "975313"}))
    assert web_of(playing).pin == "975313"
    assert host.json("/api/host")["stage"] == "playing"  # still logged in with the new PIN
    newcomer = Browser(playing, "/host")
    refused(newcomer.login(PIN), 403, "bad_pin")
    assert newcomer.login("975313").status_code == 200


def ok_plain(response: object) -> bool:
    return bool(getattr(response, "status_code") == 200 and getattr(response, "get_json")() == {"ok": True})


# ---- the simulator --------------------------------------------------------------------------------

SIM_GETS = ("/sim", "/api/sim", "/sim/oled/1.png")
SIM_POSTS = {"/api/sim/move": {"piece": "Rope", "place": "Lounge"}, "/api/sim/tap": {"card": "Rope", "seat": 1},
             "/api/sim/press": {"seat": SCARLET, "button": "ok"}}


def test_without_a_rig_every_sim_route_is_404_no_sim(playing: Flask) -> None:
    host = host_browser(playing)
    for url in SIM_GETS:
        refused(host.get(url), 404, "no_sim")
    for url, body in SIM_POSTS.items():
        refused(host.post(url, body), 404, "no_sim")


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[MockTable]:
    with Store(tmp_path / "rig.db").open() as store, MockTable(store) as table:
        yield table


def test_the_simulator_drives_the_mock_rig(rig: MockTable) -> None:
    app = make_app(rig.session, RIG=rig, SIM=True)
    visitor = Browser(app)
    refused(visitor.get("/api/sim"), 401, "host_login")
    assert "csrf-token" in visitor.get("/sim").get_data(as_text=True)  # the login page
    host = host_browser(app)
    ok(host.post("/api/host/new", {"edition": "classic", "seats": list(SEATS), "deal": "physical", "seed": 21}))
    page = host.get("/sim")
    assert page.status_code == 200 and page.mimetype == "text/html"
    overview = host.json("/api/sim")
    assert overview["seats"] == list(SEATS)
    assert overview["pads"] == {SCARLET: 1, MUSTARD: 2, WHITE: 3}
    assert [unit["seat"] for unit in overview["handhelds"]] == list(SEATS)
    assert all(isinstance(unit["text"], str) for unit in overview["handhelds"])

    oled = host.get("/sim/oled/1.png")
    assert oled.status_code == 200 and oled.mimetype == "image/png"
    assert Image.open(io.BytesIO(oled.get_data())).size == (128 * 3, 64 * 3)
    refused(host.get("/sim/oled/9.png"), 404, "not_found")
    refused(host.get("/sim/oled/0.png"), 404, "not_found")

    assert ok_plain(host.post("/api/sim/tap", {"card": "Rope", "seat": MUSTARD}))
    rig.wait_for(lambda view: view["hand"] == ["Rope"], seat=MUSTARD)
    assert ok_plain(host.post("/api/sim/tap", {"card": "Knife", "seat": 1}))
    rig.wait_for(lambda view: view["hand"] == ["Knife"], seat=SCARLET)
    assert ok_plain(host.post("/api/sim/tap", {"card": "Knife", "seat": SCARLET}))  # tapped again: taken back
    rig.wait_for(lambda view: view["hand"] == [], seat=SCARLET)
    refused(host.post("/api/sim/tap", {"card": "Rope", "seat": 7}), 400, "bad_field")
    assert error_of(host.post("/api/sim/tap", {"card": "Rope", "seat": "Professor Plum"})) == "mock"
    assert host.post("/api/sim/tap", {"card": "Batman", "seat": 1}).status_code == 409

    assert host.post("/api/sim/move", {"piece": "Rope", "place": "Lounge"}).get_json() == {"ok": True, "sensed": True}
    lifted = host.post("/api/sim/move", {"piece": "Rope", "place": "h7"}).get_json()  # a square with no reader
    assert lifted["ok"] is True and lifted["sensed"] is False and "No reader lies under h7" in lifted["message"]
    assert host.post("/api/sim/move", {"piece": "Batmobile", "place": "Lounge"}).status_code == 409
    refused(host.post("/api/sim/move", {"piece": "Rope", "place": "Batcave"}), 409, "mock")
    refused(host.post("/api/sim/move", {"piece": "Rope"}), 400, "bad_field")

    assert ok_plain(host.post("/api/sim/press", {"seat": SCARLET, "button": "down"}))
    refused(host.post("/api/sim/press", {"seat": SCARLET, "button": "select"}), 400, "bad_field")
    refused(host.post("/api/sim/press", {"seat": "Professor Plum", "button": "ok"}), 409, "mock")
    refused(host.get("/api/sim/press"), 405, "method_not_allowed")

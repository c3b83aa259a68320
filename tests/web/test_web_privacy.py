"""Privacy: whatever a requester gets over the web carries no card it must not see.

Card names are also public (the edition's cards, where the weapons are, what
was suggested, what was accused), so the checks are structural: every view is
compared with the game state it was made from. The public routes (/api/table,
/events/table, /api/board, /) carry no hand, no card shown between two seats,
no envelope before game over; a seat's routes (/api/seat, /events/seat) carry
its own hand and the cards shown to it, nothing more; /api/host carries no
hand and no envelope. Any key that could hold a secret (``hand``, ``card``,
``cards``, ``envelope``...) found anywhere else in a view fails the check.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from itsdangerous import URLSafeTimedSerializer
from web_fixtures import (CLASSIC, SEATS, Browser, Stream, host_browser, make_app, open_game, refused, running,
                          seat_browser, state_of, tap)

from companion.deduction.playout import choose, random_setup
from companion.record.narrate import describe
from companion.rules.edition import load_edition
from companion.table.session import Session

SCARLET, MUSTARD, WHITE = SEATS
ENVELOPE = {"suspect": "Colonel Mustard", "weapon": "Candlestick", "room": "Dining Room"}  # seed 7
# Keys that may carry a card no other seat should see; where each may appear is checked one by one.
SECRET_KEYS = {"hand", "card", "cards", "shown_to_me", "may_show", "seen", "solution", "envelope", "aside",
               "scanned", "revealed", "hands"}
TOP_LEVEL_CHECKED = {"hand", "shown_to_me", "may_show", "seen", "solution", "revealed", "scanned"}


# ---- the checks ----------------------------------------------------------------------------------

def expected_event(raw: Any, viewer: str | None) -> dict[str, Any]:
    """An engine event as ``viewer`` may see it: the rules of docs/web.md, written out again here."""
    data: dict[str, Any] = raw.to_dict()
    kind = data["type"]
    if kind == "card_shown" and viewer not in (data["by"], data["to"]):
        del data["card"]
    elif kind == "cards_dealt" and viewer != data["seat"]:
        del data["cards"]
    elif kind in ("snooped", "side_card_seen") and viewer != data["seat"]:
        del data["card"]
    return data


def check_event(event: dict[str, Any], viewer: str | None, over: bool) -> None:
    """One event from an action's answer or a record: it names a card only to those who may see it."""
    kind = event.get("type")
    if "card" in event:
        if kind == "card_shown":
            assert viewer in (event["by"], event["to"]), (viewer, event)
        else:
            assert kind in ("snooped", "side_card_seen") and viewer == event["seat"], (viewer, event)
    if "cards" in event:
        assert (kind == "cards_dealt" and viewer == event["seat"]) or kind == "hand_revealed", (viewer, event)
    if "solution" in event:
        assert kind == "game_over" and over, event
    for key in ("envelope", "aside", "hand", "hands"):
        assert key not in event, event


def secret_paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every (path, key) where a secret-bearing key sits in a JSON value."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in SECRET_KEYS:
                yield path, key
            yield from secret_paths(value, (*path, key))
    elif isinstance(data, list):
        for at, value in enumerate(data):
            yield from secret_paths(value, (*path, at))


def check_structure(view: dict[str, Any], viewer: str | None) -> None:
    """Secret-bearing keys appear only where the checks below look at them."""
    for path, key in secret_paths(view):
        if not path:
            assert key in TOP_LEVEL_CHECKED, f"{key!r} at the top of {viewer}'s view"
        elif path[0] == "record" and len(path) == 2:
            assert key in ("card", "cards", "solution"), (path, key)
        elif path[0] in ("shown_to_me", "seen") and len(path) == 2:
            assert key == "card", (path, key)
        elif path == ("notice", "args") and viewer is not None:
            # A seat's own refusal may name the card it tried to show (the words to translate it with);
            # a notice is left for one seat only, and the table's screen never gets one of these.
            assert key == "card", (path, key)
        else:
            raise AssertionError(f"{key!r} at {'/'.join(map(str, path))} of {viewer}'s view")


def check_game_view(view: dict[str, Any], viewer: str | None, state: Any) -> None:
    """A view served while a game is under way (or over), against the state it was made from."""
    assert view["seat"] == viewer
    own = list(state.hand(viewer)) if viewer else []
    assert view["hand"] == own
    assert view["shown_to_me"] == [{"by": s.by, "card": s.card} for s in state.shown if viewer and s.to == viewer]
    assert set(view["may_show"]) <= set(own)
    assert len(view["seen"]) == len([item for item in state.seen if viewer and item.seat == viewer])
    assert all(item["card"] in [s.card for s in state.seen if s.seat == viewer] for item in view["seen"])
    if state.over:
        env = state.envelope
        assert view["solution"] == {"suspect": env.suspect, "weapon": env.weapon, "room": env.room}
    else:
        assert view["solution"] is None
    assert set(view["revealed"]) <= set(state.revealed)  # a hand laid face up by the rules is public
    record = view["record"]
    assert record == [expected_event(raw, viewer) for raw in state.log]
    for event in record:
        check_event(event, viewer, state.over)
    assert view["log"] == [describe(event) for event in record]
    for event, line in zip(record, view["log"]):
        if event["type"] == "card_shown" and "card" not in event:
            # "Amy & Rory show ...": a seat of two people takes the plural verb
            assert line in (f"{event['by']} shows {event['to']} a card.", f"{event['by']} show {event['to']} a card."), line
    check_structure(view, viewer)


def named_cards(texts: list[str], deck: Any, allowed: set[str]) -> set[str]:
    """The cards a list of sentences names (seats' names are people there, not cards)."""
    text = " ".join(texts)
    return {card for card in deck.all if card not in allowed and card in text}


def check_setup_view(view: dict[str, Any], viewer: str | None, lobby: Any) -> None:
    """A view served while a physical deal is being scanned."""
    assert view["stage"] == "setup" and view["seat"] == viewer
    assert view["hand"] == (list(lobby.scanned[viewer]) if viewer else [])
    assert all(isinstance(count, int) for count in view["scanned"].values())
    assert view["face_up"] == list(lobby.face_up)
    public = set(lobby.face_up) | set(lobby.seats)
    own = set(lobby.scanned[viewer]) if viewer else set()
    assert not named_cards(view["problems"], lobby.edition.deck, public | own), view["problems"]
    if view.get("notice"):
        assert not named_cards([view["notice"]["text"]], lobby.edition.deck, public | own), view["notice"]
    check_structure(view, viewer)


def check_host_view(overview: dict[str, Any], session: Session) -> None:
    """/api/host: no hand, no envelope, no card named in the setup's problems."""
    assert not list(secret_paths(overview)), list(secret_paths(overview))
    lobby = session.inspect(lambda table: table.lobby)
    if lobby is not None:
        public = set(lobby.face_up) | set(lobby.seats)
        assert not named_cards(overview["problems"], lobby.edition.deck, public), overview["problems"]


class Everyone:
    """Everyone at one table: the shared screen, each seat's phone (with their streams), the host."""

    def __init__(self, session: Session, app: Flask, seats: tuple[str, ...], streams: bool = True) -> None:
        self.session, self.app = session, app
        self.screen = Browser(app)
        self.host = host_browser(app)
        self.phones = {seat: seat_browser(app, seat) for seat in seats}
        self.streams: dict[str | None, Stream] = {}
        if streams:
            self.streams[None] = Stream(self.screen.client, "/events/table")
            for seat, phone in self.phones.items():
                self.streams[seat] = Stream(phone.client, "/events/seat")
        self.pages: dict[str | None, str] = {None: self._page(self.screen, "/")}
        self.pages.update({seat: self._page(phone, "/seat") for seat, phone in self.phones.items()})

    @staticmethod
    def _page(browser: Browser, url: str) -> str:
        response = browser.get(url)
        assert response.status_code == 200
        return response.get_data(as_text=True).replace(browser.csrf, "CSRF")

    def close(self) -> None:
        for stream in self.streams.values():
            stream.close()

    def check_all(self, fresh_streams: bool = False, changed: bool = True) -> None:
        """Every route and stream as every requester gets it now, checked against the state.

        ``changed``: something happened since the last check, so each open stream has a new view.
        """
        state = state_of(self.session)
        views: list[tuple[str | None, dict[str, Any]]] = [(None, self.screen.json("/api/table"))]
        views += [(seat, phone.json("/api/seat")) for seat, phone in self.phones.items()]
        for viewer, stream in self.streams.items():
            if changed:
                views.append((viewer, stream.view()))
        if fresh_streams:  # a page that (re)connects gets the current view first
            with Stream(self.screen.client, "/events/table") as stream:
                views.append((None, stream.view()))
            for seat, phone in self.phones.items():
                with Stream(phone.client, "/events/seat") as stream:
                    views.append((seat, stream.view()))
            board = self.screen.json("/api/board")
            assert set(board) == {"edition", "name", "width", "height", "svg", "places", "squares", "rooms", "room_names", "spots", "words", "suspects"}
            assert self._page(self.screen, "/") == self.pages[None]  # the page itself carries no game data
            for seat, phone in self.phones.items():
                assert self._page(phone, "/seat") == self.pages[seat]
        for viewer, view in views:
            if state is None:
                lobby = self.session.inspect(lambda table: table.lobby)
                check_setup_view(view, viewer, lobby)
            else:
                check_game_view(view, viewer, state)
        check_host_view(self.host.json("/api/host"), self.session)

    def act(self, seat: str, kind: str, **fields: Any) -> list[dict[str, Any]]:
        """Play an action from the seat's phone; its answer's events are checked too."""
        response = self.phones[seat].act(kind, **fields)
        body = response.get_json()
        assert response.status_code == 200, (seat, kind, fields, body)
        state = state_of(self.session)
        over = state is not None and state.over
        for event in body["events"]:
            check_event(event, seat, over)
        events: list[dict[str, Any]] = body["events"]
        return events


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with running(tmp_path) as started:
        yield started


@pytest.fixture
def app(session: Session) -> Flask:
    return make_app(session)


# ---- every phase of a scripted game --------------------------------------------------------------

def test_idle_the_table_and_host_show_nothing_and_no_seat_can_join(session: Session, app: Flask) -> None:
    screen = Browser(app)
    view = screen.json("/api/table")
    assert view["stage"] == "idle" and view["hand"] == [] and view["log"] == []
    check_structure(view, None)
    with Stream(screen.client, "/events/table") as stream:
        assert stream.view()["stage"] == "idle"
    check_host_view(host_browser(app).json("/api/host"), session)
    refused(screen.get("/api/seat"), 401, "not_joined")


def test_every_phase_of_a_game_as_every_requester_sees_it(session: Session, app: Flask) -> None:
    open_game(session, dice="physical")
    table = Everyone(session, app, SEATS)
    try:
        table.check_all(fresh_streams=True)                                 # start
        assert table.act(SCARLET, "roll", dice=[6])[0]["type"] == "rolled"
        table.check_all()                                                   # moving
        table.act(SCARLET, "move", to="Lounge")
        table.check_all(fresh_streams=True)                                 # moved, in a room
        events = table.act(SCARLET, "suggest", suspect="Colonel Mustard", weapon="Revolver")
        assert [e["type"] for e in events][-1] == "refute_requested"
        table.check_all(fresh_streams=True)                                 # refuting: White must show
        assert table.phones[WHITE].json("/api/seat")["may_show"] == ["Revolver"]
        assert table.phones[MUSTARD].json("/api/seat")["may_show"] == []
        events = table.act(WHITE, "show", card="Revolver")
        assert {"type": "card_shown", "by": WHITE, "to": SCARLET, "card": "Revolver"} in events
        table.check_all(fresh_streams=True)                                 # a card was shown
        mustard = table.phones[MUSTARD].json("/api/seat")
        assert {"type": "card_shown", "by": WHITE, "to": SCARLET} in mustard["record"]
        assert "Mrs. White shows Miss Scarlet a card." in mustard["log"]
        assert "Mrs. White shows Miss Scarlet: Revolver." in table.phones[SCARLET].json("/api/seat")["log"]
        table.act(SCARLET, "end_turn")
        table.check_all()
        events = table.act(MUSTARD, "accuse", suspect="Professor Plum", weapon="Rope", room="Kitchen")
        assert all("solution" not in event for event in events)             # a wrong accusation tells nothing
        table.check_all(fresh_streams=True)                                 # one seat out
        table.act(MUSTARD, "end_turn")
        table.check_all()
        events = table.act(WHITE, "accuse", **ENVELOPE)
        assert events[-1]["solution"] == ENVELOPE
        table.check_all(fresh_streams=True)                                 # game over: the envelope is open
        assert table.screen.json("/api/table")["solution"] == ENVELOPE
    finally:
        table.close()


def test_refused_actions_and_their_notices_leak_nothing(session: Session, app: Flask) -> None:
    """A seat probing with actions learns nothing of another's hand; the refusal goes to the prober only."""
    open_game(session, dice="physical")
    table = Everyone(session, app, SEATS, streams=False)
    table.act(SCARLET, "roll", dice=[6])
    table.act(SCARLET, "move", to="Lounge")
    table.act(SCARLET, "suggest", suspect="Colonel Mustard", weapon="Revolver")
    for seat, card in ((MUSTARD, "Revolver"), (SCARLET, "Revolver"), (MUSTARD, "Lounge")):
        answer = table.phones[seat].act("show", card=card)
        assert answer.status_code == 409, answer.get_json()
        assert not named_cards([answer.get_json()["error"]["message"]], CLASSIC.deck, set(SEATS))
    probe = table.phones[MUSTARD].act("pass")
    assert probe.status_code == 200 and probe.get_json()["events"] == []
    table.check_all(fresh_streams=True)
    refused_show = table.phones[WHITE].act("show", card="Lounge")  # White does not hold it: told to White alone
    assert refused_show.status_code == 409
    for viewer in (None, SCARLET, MUSTARD):
        view = table.screen.json("/api/table") if viewer is None else table.phones[viewer].json("/api/seat")
        assert view["notice"] is None or "Lounge" not in view["notice"]["text"]
    table.check_all()


def test_a_physical_deal_being_scanned(session: Session, app: Flask) -> None:
    open_game(session, deal="physical", start=False)
    table = Everyone(session, app, SEATS)
    try:
        table.check_all(fresh_streams=True)
        for number, cards in ((1, ("Rope", "Kitchen", "Mr. Green")), (2, ("Wrench", "Study")), (3, ("Lounge",))):
            for card in cards:
                tap(session, number, card)
                table.check_all()
        tap(session, 1, "Kitchen")  # tapped again: taken back
        table.check_all(fresh_streams=True)
        assert table.phones[SCARLET].json("/api/seat")["hand"] == ["Rope", "Mr. Green"]
        assert table.screen.json("/api/table")["scanned"] == {SCARLET: 2, MUSTARD: 2, WHITE: 1}
        start = table.host.post("/api/host/start", {})  # refused: its sentence goes on the table's screen
        assert start.status_code == 400
        table.check_all(fresh_streams=True)
    finally:
        table.close()


def test_a_card_scanned_on_two_pads_is_not_named_on_the_table_screen(session: Session, app: Flask) -> None:
    """The deal's problems are public: they may say that a card is on two pads, not which card."""
    open_game(session, deal="physical", start=False)
    tap(session, 2, "Rope")
    tap(session, 3, "Rope")
    table = Everyone(session, app, SEATS, streams=False)
    problems = table.screen.json("/api/table")["problems"]
    assert problems and not named_cards(problems, CLASSIC.deck, set(SEATS)), problems
    check_host_view(table.host.json("/api/host"), session)
    table.host.post("/api/host/start", {})
    notice = table.screen.json("/api/table")["notice"]
    assert notice is None or not named_cards([notice["text"]], CLASSIC.deck, set(SEATS)), notice


def test_the_start_answers_carry_no_hand(session: Session, app: Flask) -> None:
    host = host_browser(app)
    assert host.post("/api/host/new", {"edition": "classic", "seats": list(SEATS), "seed": 7}).status_code == 200
    started = host.post("/api/host/start", {}).get_json()
    dealt = [event for event in started["events"] if event["type"] == "cards_dealt"]
    assert len(dealt) == 3 and all(set(event) == {"type", "seat", "count"} for event in dealt)
    for event in started["events"]:
        check_event(event, None, False)


# ---- one seat cannot get another's view ----------------------------------------------------------

def test_query_strings_and_body_fields_never_change_whose_view_it_is(session: Session, app: Flask) -> None:
    open_game(session)
    mustard = seat_browser(app, MUSTARD)
    white_hand = list(state_of(session).hand(WHITE))
    for url in ("/api/seat?seat=Mrs.%20White", "/api/seat?seat=Mrs. White&viewer=Mrs. White"):
        view = mustard.json(url)
        assert view["seat"] == MUSTARD and view["hand"] != white_hand
    with Stream(mustard.client, "/events/seat?seat=Mrs.%20White") as stream:
        assert stream.view()["seat"] == MUSTARD
    public = mustard.json("/api/table?seat=Mrs.%20White")
    assert public["seat"] is None and public["hand"] == []
    refused(mustard.act("roll", seat=SCARLET), 403, "not_your_seat")
    refused(mustard.act("end_turn", seat=WHITE), 403, "not_your_seat")
    refused(mustard.post("/api/seat/action?seat=Miss%20Scarlet", {"type": "roll", "seat": SCARLET}), 403,
            "not_your_seat")
    assert mustard.act("roll", seat=MUSTARD).get_json()["error"]["code"] == "not_your_turn"
    assert state_of(session).actions == 0


def cookie_for(app: Flask, data: dict[str, Any], secret: str | None = None) -> str:
    """A session cookie as Flask would sign it (with the app's key, or another)."""
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    if secret is not None:
        serializer = URLSafeTimedSerializer(secret, salt="cookie-session", serializer=serializer.serializer,
                                            signer_kwargs={"key_derivation": "hmac", "digest_method": "sha1"})
    return str(serializer.dumps(data))


def test_a_tampered_cookie_is_401(session: Session, app: Flask) -> None:
    open_game(session)
    mustard = seat_browser(app, MUSTARD)
    cookie = mustard.client.get_cookie("clue_session")
    assert cookie is not None
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    white_cookie = seat_browser(app, WHITE).client.get_cookie("clue_session")
    assert white_cookie is not None
    white_key = serializer.loads(white_cookie.value)["seat_key"]  # a real phone's key, in a forged cookie
    mustard_key = serializer.loads(cookie.value)["seat_key"]
    forged = {
        "signature changed": cookie.value[:-2] + ("AA" if not cookie.value.endswith("AA") else "BB"),
        "payload changed": cookie.value[:5] + ("x" if cookie.value[5] != "x" else "y") + cookie.value[6:],
        "another key": cookie_for(app, {"seat": WHITE, "seat_key": white_key}, secret="not the key"),
        "another seat's name": cookie_for(app, {"seat": WHITE, "seat_key": mustard_key}),
        "no fingerprint": cookie_for(app, {"seat": WHITE}),
        "a guessed fingerprint": cookie_for(app, {"seat": WHITE, "seat_key": "0" * 32}),
        "not a string": cookie_for(app, {"seat": [WHITE], "seat_key": white_key}),
        "garbage": "%%%not-a-cookie%%%",
    }
    for name, value in forged.items():
        thief = Browser(app)
        thief.client.set_cookie("clue_session", value)
        for url in ("/api/seat", "/events/seat"):
            response = thief.get(url)
            assert response.status_code == 401, (name, url, response.get_data(as_text=True)[:200])
            refused(response, 401, "not_joined")
            assert WHITE not in response.get_data(as_text=True) or name == "another seat's name"
    assert mustard.json("/api/seat")["seat"] == MUSTARD  # the real phone is still fine


# ---- property: random games, every view after every action ---------------------------------------

GAMES = (("classic", 4), ("master_detective", 74), ("doctor_who", 2), ("big_bang_theory", 1))


def http_action(action: Any, dice: str) -> tuple[str, dict[str, Any]]:
    """An engine action as the seat's phone sends it: the record line without ``seat``."""
    body = action.to_record()
    seat = body.pop("seat")
    if body["type"] == "roll" and dice == "companion":
        body.pop("dice", None)
    return seat, body


@pytest.mark.parametrize(("edition", "seed"), GAMES)
def test_random_games_never_show_anyone_a_secret(tmp_path: Path, edition: str, seed: int) -> None:
    rand = random.Random(seed)
    setup = random_setup(rand, load_edition(edition))
    with running(tmp_path) as session:
        app = make_app(session)
        host = host_browser(app)
        body = {"edition": edition, "seats": list(setup.seats), "seed": setup.seed, "variant": setup.variant}
        assert host.post("/api/host/new", body).status_code == 200
        assert host.post("/api/host/start", {}).status_code == 200
        table = Everyone(session, app, setup.seats)
        seen_types: set[str] = set()
        try:
            table.check_all(fresh_streams=True)
            for number in range(1000):
                state = state_of(session)
                if state.over:
                    break
                seat, line = http_action(choose(rand, state), "companion")
                events = table.act(seat, line.pop("type"), **line)
                seen_types |= {event["type"] for event in events}
                table.check_all(fresh_streams=number % 25 == 0)
            assert state_of(session).over
            table.check_all(fresh_streams=True, changed=False)
        finally:
            table.close()
    assert "card_shown" in seen_types
    wanted = {"master_detective": "snooped", "doctor_who": "side_card_seen", "big_bang_theory": "snooped"}
    if edition in wanted:
        assert wanted[edition] in seen_types, sorted(seen_types)


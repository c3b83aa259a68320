"""Security: CSRF, cookies, join tokens and their rate limit, revocation, the host PIN, escaping, bad input.

Bad input never gets a 500: every junk body, path and query answers 4xx with
``{"ok": false, "error": {"code", "message"}}`` (the join URL answers a page,
since a phone's browser opens it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from web_fixtures import (PIN, SEATS, Browser, Stream, error_of, host_browser, make_app, open_game, refused, running,
                          seat_browser, state_of, subscribers, token_of, web_of)

from companion.cli.mock_table import MockTable
from companion.table.pairing import Pairing
from companion.table.session import Session
from companion.table.store import Store

SCARLET, MUSTARD, WHITE = SEATS
POST_ROUTES: dict[str, dict[str, Any]] = {
    "/host/login": {"pin": PIN},
    "/host/logout": {},
    "/api/seat/action": {"type": "roll"},
    "/api/host/new": {"edition": "classic", "seats": list(SEATS)},
    "/api/host/start": {},
    "/api/host/resume": {"game_id": 1},
    "/api/host/end": {},
    "/api/host/revoke": {"seat": WHITE},
    "/api/host/settings": {"pin": "13579"},
    "/api/sim/move": {"piece": "Rope", "place": "Lounge"},
    "/api/sim/tap": {"card": "Rope", "seat": 1},
    "/api/sim/press": {"seat": SCARLET, "button": "ok"},
}
HOST_ONLY = [route for route in POST_ROUTES if route.startswith("/api/host/")]
SIM_ROUTES = [route for route in POST_ROUTES if route.startswith("/api/sim/")]
GET_ROUTES = ("/", "/seat", "/host", "/sim", "/api/table", "/api/seat", "/api/host", "/api/board", "/api/sim",
              "/sim/oled/1.png")


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with running(tmp_path) as started:
        yield started


@pytest.fixture
def app(session: Session) -> Flask:
    return make_app(session)


@pytest.fixture
def playing(session: Session, app: Flask) -> Flask:
    open_game(session)
    return app


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[MockTable]:
    with Store(tmp_path / "rig.db").open() as store, MockTable(store) as table:
        yield table


def host_and_seat(app: Flask, seat: str = SCARLET) -> Browser:
    """One browser joined as ``seat`` and logged in as host: every POST reaches its body checks."""
    browser = seat_browser(app, seat)
    assert browser.login().status_code == 200
    return browser


def set_cookie_headers(response: Any) -> list[str]:
    return list(response.headers.getlist("Set-Cookie"))


# ---- CSRF ----------------------------------------------------------------------------------------

def test_every_post_without_or_with_a_wrong_csrf_token_is_403(session: Session, playing: Flask) -> None:
    browser = host_and_seat(playing)
    stranger = Browser(playing)  # another browser's real token is a wrong token here
    wrong_tokens: dict[str, dict[str, str]] = {
        "none": {}, "empty": {"X-CSRF-Token": ""}, "wrong": {"X-CSRF-Token": "x" * 43},
        "another browser's": {"X-CSRF-Token": stranger.csrf}, "non-ascii": {"X-CSRF-Token": "é" * 10},
        "huge": {"X-CSRF-Token": "a" * 5000},
    }
    for route, body in POST_ROUTES.items():
        for name, headers in wrong_tokens.items():
            response = browser.client.post(route, json=body, headers=headers)
            assert response.status_code == 403, (route, name, response.status_code)
            assert error_of(response) == "csrf", (route, name)
    no_cookie = playing.test_client()
    for route, body in POST_ROUTES.items():
        refused(no_cookie.post(route, json=body, headers={"X-CSRF-Token": browser.csrf}), 403, "csrf")
    assert state_of(session).actions == 0 and web_of(playing).pin == PIN  # nothing was done
    assert browser.act("roll").status_code == 200  # with its own token the same request works


def test_a_csrf_token_is_per_browser_and_a_new_join_gets_a_new_one(playing: Flask) -> None:
    first, second = Browser(playing), Browser(playing)
    assert first.csrf != second.csrf
    old = first.csrf
    first.join(SCARLET)
    assert first.csrf != old
    refused(first.post("/api/seat/action", {"type": "roll"}, csrf=old), 403, "csrf")


# ---- cookies -------------------------------------------------------------------------------------

def test_cookies_are_httponly_and_samesite_strict(playing: Flask) -> None:
    client = playing.test_client()
    page = client.get("/")
    joined = client.get(f"/j/{token_of(playing, SCARLET)}")
    token = re.search(r'name="csrf-token" content="([^"]+)"', joined.get_data(as_text=True))
    assert token is not None
    login = client.post("/host/login", json={"pin": PIN}, headers={"X-CSRF-Token": token.group(1)})
    headers = set_cookie_headers(page) + set_cookie_headers(joined) + set_cookie_headers(login)
    assert len(headers) == 3, headers
    for header in headers:
        parts = [part.strip() for part in header.split(";")]
        assert parts[0].startswith("clue_session=")
        assert "HttpOnly" in parts and "SameSite=Strict" in parts and "Path=/" in parts, header


def test_the_cookie_keeps_neither_the_join_token_nor_the_pin(playing: Flask) -> None:
    browser = host_and_seat(playing, WHITE)
    cookie = browser.client.get_cookie("clue_session")
    assert cookie is not None
    data = playing.session_interface.get_signing_serializer(playing).loads(cookie.value)  # type: ignore[attr-defined]
    assert set(data) <= {"_permanent", "csrf", "seat", "seat_key", "host"}
    assert data["seat"] == WHITE
    text = json.dumps(data)
    assert token_of(playing, WHITE) not in text and PIN not in text


# ---- joining -------------------------------------------------------------------------------------

def test_a_bad_join_token_is_404_and_sets_no_seat(playing: Flask) -> None:
    browser = Browser(playing)
    good = token_of(playing, SCARLET)
    for token in ("nope", good[:-1], good + "x", good.upper() if good.upper() != good else good.lower(), "x" * 200):
        response = browser.get(f"/j/{token}")
        assert response.status_code == 404 and response.mimetype == "text/html", token
        assert "Scan your seat again" in response.get_data(as_text=True)
        refused(browser.get("/api/seat"), 401, "not_joined")


def test_ten_bad_join_tokens_then_429_with_retry_after(playing: Flask) -> None:
    browser = Browser(playing)
    for attempt in range(10):
        assert browser.get(f"/j/bad-token-{attempt}").status_code == 404
    limited = browser.get("/j/bad-token-10")
    refused(limited, 429, "rate_limited")
    assert int(limited.headers["Retry-After"]) > 0
    refused(browser.get(f"/j/{token_of(playing, SCARLET)}"), 429, "rate_limited")  # even the right one, for now
    elsewhere = playing.test_client()  # another address is not held up
    joined = elsewhere.get(f"/j/{token_of(playing, SCARLET)}", environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert joined.status_code == 200


def test_a_revoked_seat_is_out_at_once(session: Session, playing: Flask) -> None:
    host = host_browser(playing)
    white, mustard = seat_browser(playing, WHITE), seat_browser(playing, MUSTARD)
    old_token = token_of(playing, WHITE)
    before = subscribers(session)
    with Stream(white.client, "/events/seat") as stream:
        assert stream.view()["seat"] == WHITE
        assert subscribers(session) == before + 1
        assert host.post("/api/host/revoke", {"seat": WHITE}).get_json() == {"ok": True}
        assert stream.message() == ("revoked", "{}")
        assert stream.message() == ("end", "")
    assert subscribers(session) == before
    refused(white.get("/api/seat"), 401, "not_joined")
    refused(white.get("/events/seat"), 401, "not_joined")
    refused(white.act("roll"), 401, "not_joined")
    assert "Join your seat" in white.get("/seat").get_data(as_text=True)
    assert white.get(f"/j/{old_token}").status_code == 404  # the old URL is dead
    assert mustard.json("/api/seat")["seat"] == MUSTARD  # other seats are not touched
    again = Browser(playing)
    again.join(WHITE)  # the new URL works
    assert again.json("/api/seat")["seat"] == WHITE


def test_a_new_game_issues_new_tokens(session: Session, playing: Flask) -> None:
    host = host_browser(playing)
    phone = seat_browser(playing, SCARLET)
    old = {seat: token_of(playing, seat) for seat in SEATS}
    assert host.post("/api/host/end", {}).status_code == 200
    assert host.post("/api/host/new", {"edition": "classic", "seats": list(SEATS)}).status_code == 200
    new = {seat: token_of(playing, seat) for seat in SEATS}
    assert not set(old.values()) & set(new.values()) and len(set(new.values())) == 3
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", token) for token in new.values())
    refused(phone.get("/api/seat"), 401, "not_joined")
    assert phone.get(f"/j/{old[SCARLET]}").status_code == 404
    assert seat_browser(playing, SCARLET).json("/api/seat")["stage"] == "setup"


# ---- the host PIN --------------------------------------------------------------------------------

def test_host_routes_need_the_host_login(tmp_path: Path, playing: Flask, rig: MockTable) -> None:
    phone = seat_browser(playing, SCARLET)  # a joined seat is not the host
    for browser in (Browser(playing), phone):
        refused(browser.get("/api/host"), 401, "host_login")
        for route in HOST_ONLY:
            refused(browser.post(route, POST_ROUTES[route]), 401, "host_login")
        login_page = browser.get("/host")
        assert login_page.status_code == 200 and 'id="pin"' in login_page.get_data(as_text=True)
    sim = make_app(rig.session, RIG=rig, SIM=True)
    visitor = Browser(sim)
    for url in ("/api/sim", "/sim/oled/1.png"):
        refused(visitor.get(url), 401, "host_login")
    for route in SIM_ROUTES:
        refused(visitor.post(route, POST_ROUTES[route]), 401, "host_login")


def test_wrong_pins_are_403_and_five_lock_the_address_out(playing: Flask) -> None:
    browser = Browser(playing, "/host")
    for _ in range(5):
        refused(browser.login("0000"), 403, "bad_pin")
    limited = browser.login(PIN)
    refused(limited, 429, "rate_limited")
    assert int(limited.headers["Retry-After"]) > 0
    refused(browser.get("/api/host"), 401, "host_login")
    other = Browser(playing, "/host")
    answer = other.client.post("/host/login", json={"pin": PIN}, headers={"X-CSRF-Token": other.csrf},
                               environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert answer.status_code == 200


def test_a_pin_change_logs_the_other_host_browsers_out(playing: Flask) -> None:
    laptop, tablet = host_browser(playing), host_browser(playing)
    assert laptop.post("/api/host/settings", {"pin": "864213"}).status_code == 200
    assert laptop.json("/api/host")["stage"] == "playing"
    refused(tablet.get("/api/host"), 401, "host_login")
    refused(tablet.login(PIN), 403, "bad_pin")
    assert tablet.login("864213").status_code == 200 and tablet.json("/api/host")
    assert laptop.post("/host/logout", {}).status_code == 200
    refused(laptop.get("/api/host"), 401, "host_login")
    assert tablet.json("/api/host")  # logging out one browser leaves the others


def test_the_host_cookie_names_a_login_not_anything_derived_from_the_pin(playing: Flask) -> None:
    """The cookie is signed, not encrypted: its host value must not let anyone work out the PIN."""
    serializer = playing.session_interface.get_signing_serializer(playing)  # type: ignore[attr-defined]
    logins = []
    for _ in range(2):
        cookie = host_browser(playing).client.get_cookie("clue_session")
        assert cookie is not None
        logins.append(serializer.loads(cookie.value)["host"])
    assert logins[0] != logins[1]  # the same PIN, two random ids
    assert all(len(login) >= 40 and PIN not in login for login in logins)


def test_a_copied_host_cookie_stops_working_at_logout(playing: Flask) -> None:
    host = host_browser(playing)
    cookie = host.client.get_cookie("clue_session")
    assert cookie is not None
    thief = Browser(playing)
    thief.client.set_cookie("clue_session", cookie.value)
    assert thief.get("/api/host").status_code == 200
    assert host.post("/host/logout", {}).status_code == 200
    refused(thief.get("/api/host"), 401, "host_login")


def test_pin_tries_are_limited_for_every_address_together(playing: Flask) -> None:
    """A phone can take a new address at will: 4 tries from each of 10 addresses still hit a limit."""
    browser = Browser(playing, "/host")
    answers = [browser.client.post("/host/login", json={"pin": "000000"}, headers={"X-CSRF-Token": browser.csrf},
                                   environ_base={"REMOTE_ADDR": f"10.0.0.{n}"}).status_code
               for n in range(10) for _ in range(4)]
    assert answers.count(403) == 20 and answers.count(429) == 20
    late = browser.client.post("/host/login", json={"pin": PIN}, headers={"X-CSRF-Token": browser.csrf},
                               environ_base={"REMOTE_ADDR": "10.0.1.1"})
    refused(late, 429, "rate_limited")  # the host too waits out the minute: the price of a global limit


@pytest.mark.parametrize("pin", ["2468", "12345", "abcdef", "1234567890123", "12 456"])
def test_a_pin_of_fewer_than_six_digits_is_refused_on_the_page(playing: Flask, pin: str) -> None:
    host = host_browser(playing)
    refused(host.post("/api/host/settings", {"pin": pin}), 400, "bad_field")
    assert host.json("/api/host")  # still logged in, the PIN unchanged
    assert Browser(playing, "/host").login(PIN).status_code == 200


def test_a_short_pin_is_refused_by_the_app_and_a_short_stored_one_replaced(tmp_path: Path) -> None:
    with running(tmp_path) as session:
        with pytest.raises(ValueError, match="6 to 12 digits"):
            make_app(session, HOST_PIN="2468")
        session.inspect(lambda table: table.store.set_setting("host_pin", "2468"))
        web = web_of(make_app(session, HOST_PIN=None))
        assert len(web.pin) == 6 and web.pin != "2468"
        assert session.inspect(lambda table: table.store.setting("host_pin")) == web.pin


def test_nothing_served_shows_the_pin(playing: Flask) -> None:
    host = host_and_seat(playing)
    for url in GET_ROUTES:
        response = host.get(url)
        assert response.status_code < 500
        assert PIN not in response.get_data(as_text=True), url


# ---- escaping ------------------------------------------------------------------------------------

HOSTILE = "<img src=x onerror=alert(1)> Mrs. \"O'Neil\" & <script>alert(2)</script>"


def test_a_seat_name_is_escaped_on_every_page(session: Session) -> None:
    pairing = Pairing(tokens={HOSTILE: "hostile-token-0000000000", SCARLET: "scarlet-token-0000000000"})
    app = make_app(session, PAIRING=pairing)
    browser = Browser(app)
    for url in ("/j/hostile-token-0000000000", "/seat"):
        response = browser.get(url)
        assert response.status_code == 200 and response.mimetype == "text/html", url
        page = response.get_data(as_text=True)
        assert "<img src=x" not in page and "<script>alert" not in page, url
        assert "&lt;img src=x onerror=alert(1)&gt;" in page and "&lt;script&gt;" in page, url
    refused(browser.get("/api/seat"), 401, "not_joined")  # a name that is not seated plays nothing


def test_json_answers_that_echo_input_are_json_and_nosniff(playing: Flask) -> None:
    browser = host_and_seat(playing)
    response = browser.post("/api/seat/action", {"type": "roll", "<script>x</script>": 1})
    assert response.status_code == 400 and response.mimetype == "application/json"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    response = browser.get("/api/board?edition=<script>alert(1)</script>")
    assert response.status_code == 404 and response.mimetype == "application/json"


# ---- bad input never 500 -------------------------------------------------------------------------

def check_answer(response: Any, where: str, allow_ok: bool = False) -> None:
    """A 4xx JSON refusal of the documented shape (or, for a body that happens to be valid, a 200)."""
    status = response.status_code
    assert status < 500, (where, status, response.get_data(as_text=True)[:300])
    if allow_ok and status == 200:
        return
    assert 400 <= status < 500, (where, status, response.get_data(as_text=True)[:300])
    error_of(response)


RAW_BODIES: list[tuple[bytes, str | None]] = [
    (b"", None), (b"", "application/json"), (b"roll", "text/plain"), (b'{"type": "roll"}', "text/plain"),
    (b"type=roll", "application/x-www-form-urlencoded"), (b"not json", "application/json"),
    (b"{", "application/json"), (b'{"type": "roll"', "application/json"), (b"\xff\xfe\x00", "application/json"),
    (b"null", "application/json"), (b"[]", "application/json"), (b'"roll"', "application/json"),
    (b"42", "application/json"), (b"true", "application/json"), (b"NaN", "application/json"),
    (b'{"type": NaN}', "application/json"), (b'{"type": "roll", "type": 3}', "application/json"),
    (b'{"game_id": 1e999, "pin": Infinity}', "application/json"), (b'{"seed": ' + b"9" * 5000 + b"}", "application/json"),
    ('{"type": "r\u00f6ll \U0001f600", "to": "\u202e"}'.encode(), "application/json"),
    (b"\xef\xbb\xbf{\"type\": \"dance\"}", "application/json"),
    (b"[" * 40 + b"]" * 40, "application/json"),
    (b'{"a": ' * 30 + b"1" + b"}" * 30, "application/json"),
    (b"--x\r\nContent-Disposition: form-data; name=\"type\"\r\n\r\nroll\r\n--x--\r\n", "multipart/form-data; boundary=x"),
]


def test_junk_bodies_on_every_post_route_are_4xx_json(rig: MockTable) -> None:
    app = make_app(rig.session, RIG=rig, SIM=True)
    host = host_browser(app)
    assert host.post("/api/host/new", {"edition": "classic", "seats": list(SEATS), "seed": 7}).status_code == 200
    assert host.post("/api/host/start", {}).status_code == 200
    browser = host_and_seat(app)
    for route in POST_ROUTES:
        if route == "/host/logout":
            continue  # it takes no body: any body logs out
        for body, content_type in RAW_BODIES:
            kw = {"content_type": content_type} if content_type else {}
            check_answer(browser.post(route, data=body, **kw), f"{route} {body[:40]!r} {content_type}")
        huge = json.dumps({"type": "move", "to": "x" * (17 * 1024)})
        refused(browser.post(route, data=huge, content_type="application/json"), 413, "too_large")
        for junk in ([], [1, 2], "text", 3, None, True, {"type": None}, {"pin": None}, {"seat": {"a": 1}},
                     {"card": ["Rope"], "seat": 1.5}, {"game_id": True}, {"edition": "classic", "seats": "abc"},
                     {"piece": "", "place": " "}, {"button": "ok" * 100, "seat": SCARLET}, {"x" * 1000: 1}):
            check_answer(browser.post(route, junk), f"{route} {junk!r}", allow_ok=isinstance(junk, dict))
    assert browser.post("/host/logout", data=b"\xff" * 100, content_type="application/json").status_code == 200


def test_deeply_nested_json_is_a_400_not_a_500(playing: Flask) -> None:
    """Under 16 KiB, but deeper than the JSON decoder's recursion limit."""
    browser = host_and_seat(playing)
    for body in (b"[" * 5000 + b"]" * 5000, b'{"a":' * 2500 + b"1" + b"}" * 2500):
        assert len(body) < 16 * 1024
        for route in ("/api/seat/action", "/host/login", "/api/host/new"):
            refused(browser.post(route, data=body, content_type="application/json"), 400, "bad_json")


def test_a_game_id_out_of_range_is_refused_not_a_500(playing: Flask) -> None:
    host = host_browser(playing)
    host.post("/api/host/end", {})
    for game_id in (2 ** 63, 2 ** 70, -(2 ** 70)):
        response = host.post("/api/host/resume", {"game_id": game_id})
        check_answer(response, f"resume {game_id}")


JSON_LEAVES = (st.none() | st.booleans() | st.integers(min_value=-(2 ** 63), max_value=2 ** 63 - 1)
               | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=80))
JSON_VALUES = st.recursive(JSON_LEAVES, lambda children: st.lists(children, max_size=4)
                           | st.dictionaries(st.text(max_size=12), children, max_size=4), max_leaves=10)
FIELDS = ("type", "to", "suspect", "weapon", "room", "card", "target", "card_id", "dice", "seat", "pin", "edition",
          "seats", "deal", "variant", "seed", "game_id", "piece", "place", "button")
ACTION_TYPES = ("roll", "move", "suggest", "show", "pass", "accuse", "end_turn", "snoop", "draw", "play_card",
                "use_power", "start")
BODIES = st.one_of(
    JSON_VALUES,
    st.dictionaries(st.sampled_from(FIELDS), JSON_VALUES, max_size=5),
    st.fixed_dictionaries({"type": st.sampled_from(ACTION_TYPES)},
                          optional={name: JSON_VALUES | st.text(max_size=70) for name in FIELDS[1:]}),
)


def test_fuzzed_json_bodies_never_get_a_500(rig: MockTable) -> None:
    app = make_app(rig.session, RIG=rig, SIM=True)
    host = host_browser(app)
    assert host.post("/api/host/new", {"edition": "classic", "seats": list(SEATS), "seed": 7}).status_code == 200
    assert host.post("/api/host/start", {}).status_code == 200
    browser = host_and_seat(app)
    routes = [route for route in POST_ROUTES if route != "/host/logout"]

    @settings(max_examples=150, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(route=st.sampled_from(routes), body=BODIES)
    def post(route: str, body: Any) -> None:
        response = browser.post(route, body)
        check_answer(response, f"{route} {body!r}"[:300], allow_ok=isinstance(body, dict))
        if route == "/api/host/settings" and response.status_code == 200 and isinstance(body, dict):
            assert browser.json("/api/host")  # a valid new PIN keeps this browser logged in

    post()


JUNK_PATHS = (
    "/api/nothing", "/api/table/", "/api/../api/host", "/static/../web/__init__.py", "/static/%2e%2e/web/context.py",
    "/static/..%2fweb%2fcontext.py", "/static/nope.js", "/%ff", "/api/seat%00", "/events/nope", "/events/table/x",
    "/sim/oled/-1.png", "/sim/oled/99999999999999999999999.png", "/sim/oled/x.png", "/api/board?edition=",
    "/api/board?edition=" + "x" * 3000, "/api/board?edition=%00%ff", "/api/board?edition=classic&edition=x",
    "/api/table?" + "a=1&" * 500, "/api/host?pin=246813", "/host/login", "/api/seat/action?type=roll",
    "/" + "a" * 8000, "/api/" + "é" * 100, "/seat?seat=<script>", "/?x=%zz",
)


def test_junk_paths_and_query_strings_are_4xx_json(playing: Flask) -> None:
    browser = host_and_seat(playing)
    pages = {"/", "/seat", "/host"}
    for path in JUNK_PATHS:
        response = browser.get(path)
        assert response.status_code < 500, (path, response.status_code)
        if response.status_code >= 400:
            error_of(response)
        else:
            assert path.split("?")[0] in pages or path.startswith("/api/"), (path, response.status_code)
    for method in ("PUT", "DELETE", "PATCH"):
        for path in ("/api/table", "/api/seat/action", "/api/host/new", "/j/abc", "/"):
            refused(browser.client.open(path, method=method, headers={"X-CSRF-Token": browser.csrf}), 405,
                    "method_not_allowed")
    long_token = browser.get("/j/" + "a" * 3000)  # a join URL answers a page (or 429 once rate limited)
    assert long_token.status_code in (404, 429)

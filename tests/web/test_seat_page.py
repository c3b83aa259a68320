"""The player's phone page (/seat) and the join page, in a real browser.

Runs Debian's chromium through playwright (never a downloaded browser); skipped where either is missing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from pages import wait_until

from companion.rules.actions import EndTurn, Move, Roll, Show, Suggest
from companion.table.commands import NewGame, Notify, Play, StartGame
from companion.table.session import Session, Table
from web import create_app
from web.serve import WebServer

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")


@pytest.fixture
def served() -> Iterator[tuple[Session, str, Any]]:
    """A started classic game with real dice (so a test chooses the rolls) and its web page."""
    with Session(Table(seed_source=lambda: 7)) as session:
        session.call(NewGame("classic", SEATS, dice="physical"))
        session.call(StartGame())
        app = create_app(session, {"HOST_PIN": "246813", "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield session, f"http://127.0.0.1:{server.port}", app.extensions["clue"].pairing



def dock_title(page: Any) -> str:
    return str(page.text_content("#dock .dock-title") or "")


def join(browser: Any, url: str, pairing: Any, seat: str) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}")
            if msg.type == "error" and "409" not in msg.text and "400" not in msg.text else None)
    page.goto(f"{url}/j/{pairing.token(seat)}")
    page.wait_for_url("**/seat")
    wait_until(page, "!!document.querySelector('#dock .dock-title')")
    return page, problems


def into_the_lounge(session: Session) -> None:
    """Miss Scarlet rolls a real 6 from h25 and walks into the Lounge."""
    assert session.call(Play("Miss Scarlet", Roll("Miss Scarlet", (6,)))).ok
    assert session.call(Play("Miss Scarlet", Move("Miss Scarlet", "Lounge"))).ok


def test_joining_shows_the_hand_and_the_roll_prompt(browser: Any, served: tuple[Session, str, Any]) -> None:
    session, url, pairing = served
    page, problems = join(browser, url, pairing, "Miss Scarlet")
    view = session.table.view("Miss Scarlet")
    assert page.text_content("#me-name") == "Miss Scarlet"
    assert page.text_content("#turn-line") == "Your turn"
    assert dock_title(page) == "Your turn"
    names = page.eval_on_selector_all("#hand .card .card-name", "nodes => nodes.map(n => n.textContent)")
    assert names == view["hand"]
    assert page.locator("#dock .die-input").count() == view["dice_count"]  # real dice: one box per die
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    page.context.close()
    assert problems == []


def test_a_roll_and_a_move_go_through_the_page(browser: Any, served: tuple[Session, str, Any]) -> None:
    session, url, pairing = served
    page, problems = join(browser, url, pairing, "Miss Scarlet")
    page.fill("#dock .die-input", "6")
    page.click("#dock button.primary")
    wait_until(page, "document.querySelector('#dock .dock-title').textContent === 'Move'")
    view = session.table.view("Miss Scarlet")
    assert view["dice"] == [6]
    wait_until(page, "document.querySelectorAll('#board .cb-highlight.cb-pickable').length > 0")  # the board opened
    places = page.eval_on_selector_all("#board .cb-highlight", "nodes => nodes.map(n => n.dataset.place)")
    assert sorted(places) == sorted(view["legal_destinations"])
    page.click("#dock button:has-text('Go to the Lounge')")
    wait_until(page, "document.querySelector('#dock .dock-title').textContent === 'In the Lounge'")
    assert session.table.view("Miss Scarlet")["position"]["Miss Scarlet"] == "Lounge"
    page.context.close()
    assert problems == []


def test_a_refusal_is_shown_in_words(browser: Any, served: tuple[Session, str, Any]) -> None:
    session, url, pairing = served
    page, problems = join(browser, url, pairing, "Miss Scarlet")
    # Behind the page's back, the roll goes out as a companion roll: the table refuses it (dice_mode).
    page.route("**/api/seat/action", lambda route: route.continue_(post_data=json.dumps({"type": "roll"})))
    page.fill("#dock .die-input", "4")
    page.click("#dock button.primary")
    wait_until(page, "document.getElementById('toast') && document.getElementById('toast').classList.contains('show')")
    assert page.text_content("#toast") == "This game uses real dice: enter what you rolled."
    assert "error" in str(page.get_attribute("#toast", "class"))
    assert session.table.view("Miss Scarlet")["phase"] == "start"
    page.context.close()
    assert problems == []


def test_the_asked_seat_may_show_only_the_named_cards_it_holds(browser: Any, served: tuple[Session, str, Any]) -> None:
    session, url, pairing = served
    into_the_lounge(session)
    state = session.table.state
    assert state is not None
    asked = next(s for s in state.clockwise_from("Miss Scarlet")
                 if {"Professor Plum", "Rope"} & set(state.hand(s)) or "Lounge" in state.hand(s))
    assert session.call(Play("Miss Scarlet", Suggest("Miss Scarlet", "Professor Plum", "Rope"))).ok
    view = session.table.view(asked)
    assert view["suggestion"]["asked"] == asked
    page, problems = join(browser, url, pairing, asked)
    assert dock_title(page) == "Show Miss Scarlet a card"
    offered = page.eval_on_selector_all("#dock .pick-cards .card-name", "nodes => nodes.map(n => n.textContent)")
    assert offered == view["may_show"]
    suggester, _ = join(browser, url, pairing, "Miss Scarlet")
    assert dock_title(suggester) == "Waiting for a card"
    page.click("#dock .pick-cards .card >> nth=0")
    wait_until(suggester, "document.querySelector('#dock .dock-title').textContent === 'Suggestion answered'")
    assert f"{asked} showed you {view['may_show'][0]}" in str(suggester.text_content("#shown"))
    # The notebook knows it now (kept on the phone, marked as the game's own knowledge).
    suggester.click("#notebook-toggle")
    mark = suggester.locator(f".nb-mark[aria-label^='{view['may_show'][0]}:']")
    assert mark.text_content() == "✓"
    row_class = mark.evaluate("node => node.parentElement.className")
    assert "auto" in row_class
    for each in (page, suggester):
        each.context.close()
    assert problems == []


def test_a_summoned_seat_may_suggest_at_once_or_take_the_passage(browser: Any, served: tuple[Session, str, Any]) -> None:
    session, url, pairing = served
    into_the_lounge(session)
    assert session.call(Play("Miss Scarlet", Suggest("Miss Scarlet", "Colonel Mustard", "Knife"))).ok
    asked = session.table.view(None)["suggestion"]["asked"]
    if asked is not None:
        card = session.table.view(asked)["may_show"][0]
        assert session.call(Play(asked, Show(asked, card))).ok
    assert session.call(Play("Miss Scarlet", EndTurn("Miss Scarlet"))).ok
    page, problems = join(browser, url, pairing, "Colonel Mustard")
    assert dock_title(page) == "Your turn"
    buttons = page.eval_on_selector_all("#dock .dock-body button", "nodes => nodes.map(n => n.textContent)")
    assert buttons == ["Secret passage to the Conservatory", "Suggest here, in the Lounge"]
    page.click("#dock button:has-text('Suggest here')")
    assert dock_title(page) == "Suggest in the Lounge"
    page.click(".pick:has-text('Mrs. White')")
    page.click(".pick:has-text('Wrench')")
    page.click("#dock .dock-actions button.primary")
    wait_until(page, "document.querySelector('#dock .dock-title').textContent !== 'Suggest in the Lounge'")
    suggestion = session.table.view(None)["suggestion"]
    assert (suggestion["suggester"], suggestion["suspect"], suggestion["weapon"]) == ("Colonel Mustard", "Mrs. White", "Wrench")
    page.context.close()
    assert problems == []


def test_the_notebook_is_kept_on_the_phone(browser: Any, served: tuple[Session, str, Any]) -> None:
    session, url, pairing = served
    page, problems = join(browser, url, pairing, "Mrs. White")
    page.click("#notebook-toggle")
    hand = session.table.view("Mrs. White")["hand"]
    unknown = next(card for card in ("Knife", "Lead Pipe", "Wrench", "Revolver", "Rope", "Candlestick") if card not in hand)
    page.click(f".nb-mark[aria-label^='{unknown}:']")
    assert page.text_content(f".nb-mark[aria-label^='{unknown}:']") == "✗"
    page.reload()
    wait_until(page, "!!document.querySelector('.nb-row')")
    assert page.text_content(f".nb-mark[aria-label^='{unknown}:']") == "✗"
    stored = page.evaluate("JSON.stringify(Object.keys(localStorage))")
    assert "Mrs. White" in stored
    page.context.close()
    assert problems == []


def test_names_and_notices_are_text_never_markup(browser: Any, served: tuple[Session, str, Any]) -> None:
    session, url, pairing = served
    page, problems = join(browser, url, pairing, "Colonel Mustard")
    evil = '<img src=x onerror="window.pwned=1"><b>bold</b>'
    session.call(Notify("Colonel Mustard", evil))
    wait_until(page, "document.querySelectorAll('#alerts .alert').length === 1")
    assert evil in str(page.text_content("#alerts"))
    assert page.locator("#alerts img, #alerts b").count() == 0
    assert page.evaluate("window.pwned === undefined")
    page.context.close()
    assert problems == []


def test_a_phone_not_joined_is_told_how_to_join(browser: Any, served: tuple[Session, str, Any]) -> None:
    _, url, _ = served
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(url + "/seat")
    assert page.text_content("h1") == "Join your seat"
    assert "QR code" in str(page.text_content("main"))
    assert "/host" in str(page.text_content("main"))
    response = page.goto(url + "/j/not-a-token")
    assert response is not None and response.status == 404
    assert page.text_content("h1") == "Scan your seat again"
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    page.close()


def test_the_doctor_who_question_die_can_be_entered(browser: Any) -> None:
    seats = ("Clara Oswald", "Strax", "Jenny")
    with Session(Table(seed_source=lambda: 3)) as session:
        assert session.call(NewGame("doctor_who", seats, dice="physical")).ok
        assert session.call(StartGame()).ok
        first = session.table.view(None)["turn"]
        app = create_app(session, {"HOST_PIN": "246813", "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            page, problems = join(browser, f"http://127.0.0.1:{server.port}", app.extensions["clue"].pairing, first)
            assert page.locator("#dock input.die-input").count() == 1
            page.fill("#dock input.die-input", "4")
            page.select_option("#dock select.die-input", "?")
            page.click("#dock button.primary")
            wait_until(page, "document.querySelector('#dock .dock-title').textContent !== 'Your turn'")
            assert session.table.view(first)["dice"] == [4, "?"]
            page.context.close()
            assert problems == []


def test_the_assistant_shows_on_the_phone_notebook_when_the_host_turned_it_on(browser: Any) -> None:
    with Session(Table(seed_source=lambda: 7)) as session:
        assert session.call(NewGame("classic", SEATS, dice="physical", assistant="probabilities")).ok
        assert session.call(StartGame()).ok
        app = create_app(session, {"HOST_PIN": "246813", "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            url = f"http://127.0.0.1:{server.port}"
            page, problems = join(browser, url, app.extensions["clue"].pairing, "Mrs. White")
            page.click("#notebook-toggle")
            wait_until(page, "!!document.querySelector('.nb-assist')")
            assert page.text_content(".nb-assist").startswith("Assistant: likeliest envelope")
            hand = session.table.view("Mrs. White")["hand"]
            other = next(card for card in ("Knife", "Lead Pipe", "Wrench", "Revolver", "Rope") if card not in hand)
            row = page.locator(".nb-row", has_text=other).first.text_content() or ""
            assert "assistant: " in row and "envelope " in row and "%" in row  # its chances, place by place
            page.context.close()
            assert problems == []


def test_after_entering_a_room_in_the_big_bang_theory_the_phone_offers_only_the_suggestion(browser: Any) -> None:
    """"If you entered a room, you must stop and ask a CLUE question": no End turn, no Accuse until then."""
    with Session(Table(seed_source=lambda: 3)) as session:
        assert session.call(NewGame("big_bang_theory", ("Penny", "Raj", "Leonard"), dice="physical")).ok
        assert session.call(StartGame()).ok
        first = session.table.view(None)["turn"]
        assert session.call(Play(first, Roll(first, (6, 6)))).ok
        rooms = set(session.table.view(None)["legal_destinations"]) & {"Kitchen", "Roof", "Stairwell", "Bathroom",
                                                                       "Laundry Room", "Living Room (Penny)"}
        assert session.call(Play(first, Move(first, sorted(rooms)[0]))).ok
        assert session.table.view(first)["must_suggest"] == sorted(rooms)[0]
        app = create_app(session, {"HOST_PIN": "246813", "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            page, problems = join(browser, f"http://127.0.0.1:{server.port}", app.extensions["clue"].pairing, first)
            labels = page.eval_on_selector_all("#dock button.act", "nodes => nodes.map(n => n.textContent)")
            assert "Suggest" in labels and not {"End turn", "Accuse…"} & set(labels), labels  # (a power may be offered too)
            assert "must make a suggestion here" in str(page.text_content("#dock"))
            page.context.close()
            assert problems == []

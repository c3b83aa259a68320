"""A whole Classic game in real browsers: three phones and the table's screen, on mock hardware.

The companion runs as ``clue-companion run --mock`` composes it (a virtual board
over a pty, the session, emulated handhelds, the web app under waitress); Debian's
chromium plays it through Playwright. Every action is a tap on a phone.

Seed 4 deals Miss Scarlet, Colonel Mustard and Mrs. White; the envelope holds
Mrs. White, the Candlestick and the Dining Room. Miss Scarlet rolls a 6 and walks
into the Lounge, suggests Mr. Green with the Revolver, and Colonel Mustard (next
clockwise, holding both) is offered exactly those two cards. Then she accuses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pages import wait_until

from companion.cli.mock_table import MockTable
from companion.table.store import Store
from web import create_app
from web.serve import WebServer

SCARLET, MUSTARD, WHITE = SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
MUSTARDS_HAND = ["Revolver", "Wrench", "Study", "Library", "Mr. Green", "Conservatory"]


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[tuple[MockTable, str, Any]]:
    with Store(tmp_path / "games.db").open() as store, MockTable(store) as rig:
        assert rig.new_game("classic", SEATS, seed=4).ok
        assert rig.start().ok
        app = create_app(rig.session, {"HOST_PIN": "246813", "RIG": rig, "SIM": True})
        pairing = app.extensions["clue"].pairing
        with WebServer(app, "127.0.0.1", 0) as server:
            pairing.base_url = f"http://127.0.0.1:{server.port}"
            yield rig, pairing.base_url, pairing



def title_is(page: Any, title: str) -> None:
    wait_until(page, f"(document.querySelector('#dock .dock-title') || {{}}).textContent === {title!r}")


def texts(page: Any, selector: str) -> list[str]:
    return [str(text).strip() for text in page.eval_on_selector_all(selector, "nodes => nodes.map(n => n.textContent)")]


class Watched:
    """A page whose script errors are collected (a failing page must fail the test)."""

    def __init__(self, browser: Any, phone: bool) -> None:
        size = {"width": 390, "height": 844} if phone else {"width": 1920, "height": 1080}
        self.context = browser.new_context(viewport=size, has_touch=phone, is_mobile=phone)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.page.on("pageerror", lambda err: self.problems.append(f"page error: {err}"))


def phone(browser: Any, url: str, pairing: Any, seat: str) -> Watched:
    watched = Watched(browser, phone=True)
    watched.page.goto(f"{url}/j/{pairing.token(seat)}")
    watched.page.wait_for_url("**/seat")
    wait_until(watched.page, "!!document.querySelector('#dock .dock-title')")
    return watched


def test_three_phones_and_the_table_play_a_classic_game(browser: Any, companion: tuple[MockTable, str, Any]) -> None:
    rig, url, pairing = companion
    table = Watched(browser, phone=False)
    table.page.goto(url + "/")
    wait_until(table.page, "document.querySelectorAll('#board .cb-mover').length === 6")
    phones = {seat: phone(browser, url, pairing, seat) for seat in SEATS}
    scarlet, mustard, white = (phones[seat].page for seat in SEATS)

    # Each phone sees its own hand, and nothing of the others'.
    hands = {seat: rig.session.table.view(seat)["hand"] for seat in SEATS}
    assert hands[MUSTARD] == MUSTARDS_HAND
    for seat, watched in phones.items():
        assert texts(watched.page, "#hand .card .card-name") == hands[seat]
        page_text = str(watched.page.text_content("body"))
        for other in SEATS:
            for card in set(hands[other]) - set(hands[seat]) - set(SEATS):  # suspects' names appear as seats
                assert card not in page_text, f"{seat}'s phone shows {card}, held by {other}"

    # Miss Scarlet rolls the companion's dice (a 6 on seed 4) and taps the Lounge.
    title_is(scarlet, "Your turn")
    scarlet.click("#dock button:has-text('Roll')")
    title_is(scarlet, "Move")
    wait_until(table.page, "document.querySelectorAll('#board .cb-highlight').length > 0")  # the table highlights too
    scarlet.click("#dock button:has-text('Go to the Lounge')")
    title_is(scarlet, "In the Lounge")
    rig.move(SCARLET, "Lounge")  # she sets her mover down where the phone moved her

    # She suggests Mr. Green with the Revolver; Colonel Mustard may show only those two.
    scarlet.click("#dock button:has-text('Suggest')")
    scarlet.click(".pick:has-text('Mr. Green')")
    scarlet.click(".pick:has-text('Revolver')")
    scarlet.click("#dock .dock-actions button.primary")
    title_is(scarlet, "Waiting for a card")
    title_is(mustard, f"Show {SCARLET} a card")
    assert sorted(texts(mustard, "#dock .pick-cards .card-name")) == ["Mr. Green", "Revolver"]
    wait_until(table.page, f"document.getElementById('asking').textContent.includes({MUSTARD!r})")
    mustard.click("#dock .pick-cards .card:has-text('Revolver')")

    # Only Miss Scarlet's phone names the card; the table and Mrs. White learn only that one was shown.
    title_is(scarlet, "Suggestion answered")
    assert f"{MUSTARD} showed you Revolver" in str(scarlet.text_content("#shown"))
    wait_until(table.page, "[...document.querySelectorAll('#log li')].some("
                           "li => li.textContent.includes('Colonel Mustard shows Miss Scarlet a card.'))")
    for page in (table.page, white):  # "... with the Revolver" is the public suggestion; the shown card is not
        wait_until(page, "document.body.textContent.includes('shows Miss Scarlet a card')")
        assert not re.search(r"show(s|ed)[^.]*Revolver", str(page.text_content("body")))
    assert "Revolver" not in str(white.text_content("#shown") or "")

    # She accuses, confirms, and wins: every page says the game is over.
    scarlet.click("#dock button:has-text('Accuse')")
    for card in (WHITE, "Candlestick", "Dining Room"):
        scarlet.click(f"fieldset.picker .pick:has-text({card!r})")
    scarlet.click("#dock .dock-actions button:has-text('Accuse')")
    title_is(scarlet, "Are you sure?")
    scarlet.click("#dock .dock-actions button:has-text('Accuse')")
    title_is(scarlet, "You solved it!")
    title_is(mustard, f"{SCARLET} wins")
    title_is(white, f"{SCARLET} wins")
    wait_until(table.page, "!document.getElementById('over-panel').classList.contains('hidden')")
    assert table.page.text_content("#winner") == f"{SCARLET} wins!"
    solution = str(table.page.text_content("#solution"))
    assert all(card in solution for card in (WHITE, "Candlestick", "Dining Room"))

    record = rig.session.table.state
    assert record is not None and record.over and record.winner == SCARLET
    for watched in (table, *phones.values()):
        assert watched.problems == []
        watched.context.close()

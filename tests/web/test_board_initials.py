"""Movers told apart by two letters as well as colour (board.js), on the table page and a phone (Chromium)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pages import wait_until

from companion.language import LOCALES
from companion.rules.edition import load_edition
from companion.rules.spelling import spelled
from companion.table.commands import Configure, NewGame, StartGame
from companion.table.session import Session, Table
from web import create_app
from web.board_data import editions
from web.serve import WebServer

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
MOVERS = "document.querySelectorAll('#board .cb-mover').length === 6"


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[Session, str, Any]]:
    with Session(Table(seed_source=lambda: 7)) as session:
        session.call(NewGame("classic", SEATS))
        session.call(StartGame())
        app = create_app(session, {"HOST_PIN": "246813", "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield session, f"http://127.0.0.1:{server.port}", app.extensions["clue"].pairing


def movers(page: Any) -> list[dict[str, Any]]:
    """Each mover on the page's board: its name, letters, accessible name, and the contrast of its letters."""
    found: list[dict[str, Any]] = page.evaluate("""() => {
      const ratio = (a, b) => { const [x, y] = [ClueBoard.luminance(a), ClueBoard.luminance(b)].sort((p, q) => q - p);
                                return (x + 0.05) / (y + 0.05); };
      return Array.from(document.querySelectorAll('#board .cb-mover')).map((node) => ({
        name: node.dataset.name, letters: node.querySelector('.cb-initials').textContent,
        label: node.getAttribute('aria-label'), title: node.querySelector('title').textContent,
        role: node.getAttribute('role'),
        contrast: ratio(node.querySelector('.cb-disc').getAttribute('fill'), node.querySelector('.cb-initials').getAttribute('fill')),
      }));
    }""")
    return found


def test_every_mover_has_its_own_two_letters_a_name_and_readable_ink(browser: Any, served: tuple[Session, str, Any]) -> None:
    session, url, _ = served
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(url + "/")
    wait_until(page, MOVERS)
    shown = movers(page)
    letters = {mover["name"]: mover["letters"] for mover in shown}
    assert letters == {"Miss Scarlet": "MS", "Colonel Mustard": "CM", "Mrs. White": "MW", "Mr. Green": "MG",
                       "Mrs. Peacock": "MP", "Professor Plum": "PP"}
    position = session.table.view(None)["position"]
    for mover in shown:
        assert mover["role"] == "img"
        assert mover["label"].startswith(f"{mover['letters']}: {mover['name']}, ")
        assert mover["label"] == mover["title"]
        assert position[mover["name"]] in mover["label"]  # the start squares: "... start square (h25)"
        assert mover["contrast"] >= 4.5, mover
    # The seat list's discs carry the same letters as the movers.
    discs = page.eval_on_selector_all("#seats .tp-disc", "nodes => nodes.map(n => n.textContent)")
    assert discs == [letters[seat] for seat in SEATS]
    page.close()


def test_house_names_that_share_initials_are_told_apart_and_the_phone_shows_the_same(
        browser: Any, served: tuple[Session, str, Any]) -> None:
    session, url, pairing = served
    house = {"Miss Scarlet": "Mary Smith", "Mrs. White": "Mark Smith", "Mr. Green": "Max Smith"}
    assert session.call(Configure(house_names=house)).ok
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(url + "/")
        wait_until(page, MOVERS)
        wait_until(page, "document.querySelector('#board .cb-mover[data-name=\"Miss Scarlet\"] title')"
                         ".textContent.includes(': Mary Smith, ')")
        letters = {mover["name"]: mover["letters"] for mover in movers(page)}
        assert letters["Miss Scarlet"] == "MS"
        assert letters["Mrs. White"] == "Sm" and letters["Mr. Green"] == "Si"  # the edition's order decides
        assert len(set(letters.values())) == 6
        page.close()
        context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
        phone = context.new_page()
        phone.goto(f"{url}/j/{pairing.token('Colonel Mustard')}")
        phone.wait_for_url("**/seat")
        wait_until(phone, "!!document.querySelector('#dock .dock-title')")
        phone.click("#board-toggle")
        wait_until(phone, MOVERS)
        assert {mover["name"]: mover["letters"] for mover in movers(phone)} == letters
        context.close()
    finally:
        assert session.call(Configure(house_names={})).ok


def test_the_letters_are_unique_in_every_edition_and_language(browser: Any, served: tuple[Session, str, Any]) -> None:
    _, url, _ = served
    page = browser.new_page()
    page.goto(url + "/")
    wait_until(page, "typeof ClueBoard !== 'undefined'")
    cases = [{"edition": edition, "locale": locale, "suspects": list(load_edition(edition).deck.suspects),
              "names": spelled(edition, locale)} for edition in editions() for locale in LOCALES]
    results = page.evaluate("cases => cases.map(c => ClueBoard.initialsOf(c.suspects, c.names))", cases)
    for case, letters in zip(cases, results):
        codes = [letters[suspect] for suspect in case["suspects"]]
        assert all(len(code) == 2 for code in codes), (case["edition"], case["locale"], codes)
        assert len({code.upper() for code in codes}) == len(codes), (case["edition"], case["locale"], codes)
    page.close()

"""The phone's board in a real browser: thumb-sized squares, "find me", places in words, and the
put-back warning on the phone of the seat whose mover is in the wrong place.

Runs on mock hardware (the virtual board, as ``clue-companion run --mock`` composes it) and
Debian's chromium through playwright (never a downloaded browser), on a 360 × 740 phone.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pages import wait_until

from companion.cli.mock_table import MockTable
from companion.rules.actions import Move, Roll
from companion.table.commands import Play
from companion.table.store import Store
from web import create_app
from web.serve import WebServer

SCARLET, MUSTARD, WHITE = SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
PHONE = {"width": 360, "height": 740}
TAP = 44  # CSS px: the smallest tap target (WCAG 2.5.5, Apple's HIG)


@pytest.fixture
def companion(tmp_path: Path) -> Iterator[tuple[MockTable, str, Any]]:
    """A started classic game with real dice (the test chooses the rolls) on the virtual board."""
    with Store(tmp_path / "games.db").open() as store, MockTable(store) as rig:
        assert rig.new_game("classic", SEATS, seed=4, dice="physical").ok
        assert rig.start().ok
        app = create_app(rig.session, {"HOST_PIN": "246813", "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield rig, f"http://127.0.0.1:{server.port}", app.extensions["clue"].pairing



def phone(browser: Any, url: str, pairing: Any, seat: str) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.goto(f"{url}/j/{pairing.token(seat)}")
    page.wait_for_url("**/seat")
    wait_until(page, "!!document.querySelector('#dock .dock-title')")
    return page, problems


def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.eval_on_selector(
        selector, "n => { const r = n.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }")
    return found


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (inner["x"] >= outer["x"] - 1 and inner["y"] >= outer["y"] - 1 and
            inner["x"] + inner["w"] <= outer["x"] + outer["w"] + 1 and inner["y"] + inner["h"] <= outer["y"] + outer["h"] + 1)


def visible_area(page: Any) -> dict[str, float]:
    """What the fixed header and dock leave of the screen."""
    top = page.evaluate("document.getElementById('head').getBoundingClientRect().bottom")
    bottom = page.evaluate("document.getElementById('dock').getBoundingClientRect().top")
    return {"x": 0, "y": top, "w": PHONE["width"], "h": bottom - top}


# ---- the put-back warning ------------------------------------------------------------------------

def test_the_movers_own_phone_warns_to_put_it_back_and_the_others_see_only_the_public_correction(
        browser: Any, companion: tuple[MockTable, str, Any]) -> None:
    rig, url, pairing = companion
    mustard, problems = phone(browser, url, pairing, MUSTARD)
    white, white_problems = phone(browser, url, pairing, WHITE)
    mustard.click("#board-toggle")  # scrolled down to the board: the top of the page is out of sight
    mustard.evaluate("window.scrollTo(0, document.body.scrollHeight)")

    assert rig.move(MUSTARD, "Hall")  # not his turn: the virtual board's Hall reader sees his mover
    correction = rig.wait_for(lambda view: bool(view["board"]["corrections"]), MUSTARD)["board"]["corrections"][0]
    assert correction.startswith("Put Colonel Mustard back on a18")
    wait_until(mustard, "!!document.querySelector('#dock .put-back')")
    warning = str(mustard.text_content("#dock .put-back"))
    assert "Your mover is in the wrong place" in warning
    assert "Put Colonel Mustard back on Colonel Mustard's start square (a18)." in warning  # in words, code after
    assert inside(box(mustard, "#dock .put-back"), {"x": 0, "y": 0, "w": PHONE["width"], "h": PHONE["height"]})
    assert "Your mover:" in str(mustard.text_content("#alerts"))

    # Another seat sees what the table shows everyone (the board is in plain sight), not "your mover".
    wait_until(white, "document.querySelector('#alerts').textContent.includes('Put the board right')")
    assert "Colonel Mustard's start square" in str(white.text_content("#alerts"))
    assert white.locator("#dock .put-back").count() == 0
    assert "Your mover" not in str(white.text_content("body"))
    for card in set(rig.view(MUSTARD)["hand"]) - set(rig.view(WHITE)["hand"]) - set(SEATS):
        assert card not in str(white.text_content("body"))  # nothing of his hand comes with it

    # Set back on its square (no reader there): the board matches, and the warning goes.
    rig.move(MUSTARD, "a18")
    wait_until(mustard, "!document.querySelector('#dock .put-back')")
    wait_until(white, "!document.querySelector('#alerts').textContent.includes('Put the board right')")
    for page in (mustard, white):
        page.context.close()
    assert problems == [] and white_problems == []


def test_the_player_on_turn_who_moves_before_rolling_is_told_on_the_phone(
        browser: Any, companion: tuple[MockTable, str, Any]) -> None:
    rig, url, pairing = companion
    scarlet, problems = phone(browser, url, pairing, SCARLET)
    assert rig.move(SCARLET, "Lounge")
    wait_until(scarlet, "!!document.querySelector('#dock .put-back')")
    assert "roll first" in str(scarlet.text_content("#dock .put-back"))
    scarlet.context.close()
    assert problems == []


# ---- the board: tap targets, find me, words -----------------------------------------------------

def test_squares_on_the_phone_board_are_thumb_sized_when_moving(browser: Any, companion: tuple[MockTable, str, Any]) -> None:
    rig, url, pairing = companion
    scarlet, problems = phone(browser, url, pairing, SCARLET)
    assert rig.session.call(Play(SCARLET, Roll(SCARLET, (4,)))).ok
    wait_until(scarlet, "document.querySelectorAll('#board .cb-hl-square.cb-pickable').length > 0")
    assert scarlet.get_attribute("#board-zoom", "aria-pressed") == "true"  # a move opens the board zoomed in
    squares = scarlet.eval_on_selector_all(
        "#board .cb-hl-square", "ns => ns.map(n => { const r = n.getBoundingClientRect(); return [r.width, r.height]; })")
    assert squares and all(w >= TAP and h >= TAP for w, h in squares), squares
    assert scarlet.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]  # the board pans inside itself
    overflow = scarlet.evaluate("getComputedStyle(document.getElementById('board-scroll')).overflow")
    assert overflow == "auto"
    # Pinch-zoom and panning stay the browser's: nothing turns them off.
    assert "user-scalable" not in str(scarlet.get_attribute("meta[name=viewport]", "content"))
    assert scarlet.eval_on_selector("#board svg", "n => getComputedStyle(n).touchAction") in ("manipulation", "auto")
    # Zoomed out, the whole board fits the phone (and its squares are too small to tap).
    scarlet.click("#board-zoom")
    small = box(scarlet, "#board .cb-hl-square")
    assert small["w"] < TAP and box(scarlet, "#board svg")["w"] <= PHONE["width"]
    scarlet.context.close()
    assert problems == []


def test_find_me_zooms_in_and_brings_my_mover_into_view(browser: Any, companion: tuple[MockTable, str, Any]) -> None:
    _, url, pairing = companion
    white, problems = phone(browser, url, pairing, WHITE)  # Mrs. White starts at j1, the top of the board
    white.click("#board-toggle")
    wait_until(white, "!!document.querySelector('#board .cb-mover[data-name=\"Mrs. White\"]')")
    white.evaluate("window.scrollTo(0, 0)")
    white.click("#board-find")
    assert white.get_attribute("#board-zoom", "aria-pressed") == "true"
    mover = "#board .cb-mover[data-name='Mrs. White']"
    wait_until(white, f"(() => {{ const r = document.querySelector(\"{mover}\").getBoundingClientRect();"
               " const d = document.getElementById('dock').getBoundingClientRect().top;"
               " const h = document.getElementById('head').getBoundingClientRect().bottom;"
               " return r.top >= h && r.bottom <= d && r.left >= 0 && r.right <= innerWidth; })()")
    assert inside(box(white, mover), box(white, "#board-scroll"))
    assert inside(box(white, mover), visible_area(white))
    disc = white.eval_on_selector("#board .cb-hl-square, #board svg", "n => n.getBoundingClientRect().width")
    assert disc > PHONE["width"]  # zoomed: the board is wider than the phone
    white.context.close()
    assert problems == []


def test_the_phone_and_the_table_say_where_a_mover_is_in_words(browser: Any, companion: tuple[MockTable, str, Any]) -> None:
    rig, url, pairing = companion
    scarlet, problems = phone(browser, url, pairing, SCARLET)
    wait_until(scarlet, "document.getElementById('dock').textContent.includes('start square')")
    assert "You are on Miss Scarlet's start square (h25)." in str(scarlet.text_content("#dock"))
    assert scarlet.text_content("#dock .grid-code") == "(h25)"  # the code follows, in small type
    assert rig.session.call(Play(SCARLET, Roll(SCARLET, (3,)))).ok
    assert rig.session.call(Play(SCARLET, Move(SCARLET, "h22"))).ok
    wait_until(scarlet, "document.getElementById('dock').textContent.includes('by the Lounge door')")
    assert "You are in the corridor by the Lounge door (h22)." in str(scarlet.text_content("#dock"))
    assert "you are in the corridor by the Lounge door" in str(scarlet.text_content("#board-hint"))

    table = scarlet.context.browser.new_page(viewport={"width": 1920, "height": 1080})
    table.goto(url + "/")
    wait_until(table, "document.getElementById('phase').textContent.includes('Lounge door')")
    assert table.text_content("#phase") == "Now in the corridor by the Lounge door (h22): may accuse or end the turn."
    table.close()
    scarlet.context.close()
    assert problems == []

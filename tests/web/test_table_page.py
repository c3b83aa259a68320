"""The public table page (/) and the shared board drawing (board.js), in a real browser.

Runs Debian's chromium through playwright (never a downloaded browser); skipped where either is missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pages import wait_until

from companion.rules.actions import Roll
from companion.table.commands import EndGame, NewGame, Notify, Play, StartGame
from companion.table.session import Session, Table
from web import create_app
from web.serve import WebServer

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")


@pytest.fixture
def served() -> Iterator[tuple[Session, str]]:
    with Session(Table(seed_source=lambda: 7)) as session:
        session.call(NewGame("classic", SEATS))
        session.call(StartGame())
        app = create_app(session, {"HOST_PIN": "246813", "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield session, f"http://127.0.0.1:{server.port}"



def open_page(browser: Any, url: str, width: int = 1920, height: int = 1080) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": width, "height": height})
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
    page.goto(url + "/")
    wait_until(page, "document.querySelectorAll('#board .cb-mover').length === 6")
    return page, problems


def test_the_table_shows_the_turn_the_pieces_and_the_log(browser: Any, served: tuple[Session, str]) -> None:
    _, url = served
    page, problems = open_page(browser, url)
    assert page.text_content("#turn-name") == "Miss Scarlet"
    assert page.text_content("#phase") == "About to roll the dice."
    assert page.locator("#board .cb-weapon").count() == 6
    assert page.locator("#board .cb-mover.cb-on-turn").get_attribute("data-name") == "Miss Scarlet"
    assert page.locator("#seats li").count() == 3
    assert "Board" in page.text_content("#link-status") or "board" in page.text_content("#link-status")
    assert page.locator("#log li").count() >= 1
    page.close()
    assert problems == []


def test_a_roll_shows_the_dice_and_highlights_the_legal_destinations(browser: Any, served: tuple[Session, str]) -> None:
    session, url = served
    page, problems = open_page(browser, url)
    assert session.call(Play("Miss Scarlet", Roll("Miss Scarlet"))).ok
    view = session.table.view(None)
    wait_until(page, "document.querySelectorAll('#dice .tp-die:not(.blank)').length === 1")
    highlighted = page.eval_on_selector_all("#board .cb-highlight", "nodes => nodes.map(n => n.dataset.place)")
    assert sorted(highlighted) == sorted(view["legal_destinations"])
    assert page.locator("#board .cb-pickable").count() == 0  # the table only shows them
    assert page.text_content("#phase").startswith(f"Rolled {sum(view['dice'])}")
    page.close()
    assert problems == []


def test_names_and_messages_are_text_never_markup(browser: Any, served: tuple[Session, str]) -> None:
    session, url = served
    page, problems = open_page(browser, url)
    page.wait_for_timeout(300)
    evil = '<img src=x onerror="window.pwned=1"><b>bold</b>'
    session.call(Notify(None, evil))
    wait_until(page, "document.getElementById('notice').classList.contains('show')")
    assert page.text_content("#notice") == evil
    assert page.locator("#notice img, #notice b").count() == 0
    assert page.evaluate("window.pwned === undefined")
    page.close()
    assert problems == []


def test_the_board_picks_the_nearest_highlighted_place(browser: Any, served: tuple[Session, str]) -> None:
    _, url = served
    page, problems = open_page(browser, url)
    picked = page.evaluate("""async () => {
      const host = document.createElement("div");
      host.style.cssText = "position:fixed;left:0;top:0;width:408px;height:433px;z-index:999";
      document.body.append(host);
      const data = await Clue.getJSON("/api/board");
      const picks = [];
      const board = ClueBoard.create(host, data, {onPick: (place) => picks.push(place)});
      board.update({position: {"Miss Scarlet": "h25"}, weapons: {"Rope": "Lounge"}, turn: "Miss Scarlet"},
                   {highlight: ["h22", "Lounge"], pickable: true});
      const svg = host.querySelector("svg");
      const at = (x, y) => {
        const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
        svg.dispatchEvent(new MouseEvent("click", {clientX: p.x, clientY: p.y, bubbles: true}));
      };
      const [sx, sy, sw] = data.squares["h22"];
      at(sx + sw + 6, sy + 4);                 // just beside h22: still h22
      const lounge = data.places["Lounge"];
      at(lounge[0], lounge[1] + 40);           // anywhere in the room
      at(data.places["x7"][0], data.places["x7"][1]);  // far from both: nothing
      return {picks, edition: board.edition, tabbable: host.querySelectorAll(".cb-pickable[tabindex]").length};
    }""")
    assert picked == {"picks": ["h22", "Lounge"], "edition": "classic", "tabbable": 2}
    page.close()
    assert problems == []


def test_the_phone_layout_fits_and_idle_says_where_to_start(browser: Any, served: tuple[Session, str]) -> None:
    session, url = served
    page, problems = open_page(browser, url, 360, 740)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    session.call(EndGame())
    wait_until(page, "!document.getElementById('idle').classList.contains('hidden')")
    assert "/host" in page.text_content("#idle")
    assert page.locator("#board").is_hidden()
    page.close()
    assert problems == []

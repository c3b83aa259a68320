"""The table page (/) in every language, accessible, and following the table's locale (Chromium, axe-core)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from pages import assert_accessible, wait_until
from web_fixtures import scarlet_suggests_in_the_lounge
from playwright.sync_api import Error as PlaywrightError

from companion.language import parse_locale, say
from companion.table.commands import Configure, NewGame, Notify, StartGame
from companion.table.session import Session, Table
from web import create_app
from web.context import with_log
from web.serve import WebServer

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
MOVERS = "document.querySelectorAll('#board .cb-mover').length === 6"


@pytest.fixture(scope="module")
def suggesting() -> Iterator[tuple[Session, str]]:
    """A game under way: Miss Scarlet has suggested in the Lounge and the table is being asked."""
    with Session(Table(seed_source=lambda: 7)) as session:
        scarlet_suggests_in_the_lounge(session)
        app = create_app(session, {"HOST_PIN": "246813", "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield session, f"http://127.0.0.1:{server.port}"


def open_table(browser: Any, address: str) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
    page.goto(address)
    wait_until(page, MOVERS)
    wait_until(page, "!document.getElementById('suggestion-panel').classList.contains('hidden')")
    return page, problems


def across_reloads(page: Any, script: str, timeout: float = 15.0) -> None:
    """Poll ``script`` while the page may be loading itself again (an evaluate then fails: try later)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if page.evaluate(script):
                return
        except PlaywrightError:
            pass  # the page was navigating
        assert time.monotonic() < deadline, f"timed out waiting for {script}"
        page.wait_for_timeout(100)


@pytest.mark.parametrize("tag", ["en-US", "de-DE", "fr-FR", "es-ES"])
def test_the_table_page_speaks_the_language_asked_and_passes_axe(
        browser: Any, suggesting: tuple[Session, str], tag: str) -> None:
    session, url = suggesting
    language = parse_locale(tag).language
    page, problems = open_table(browser, f"{url}/?lang={tag}")
    assert page.get_attribute("html", "lang") == tag
    assert page.text_content("#turn-panel h2") == say(language, "On turn")
    names = with_log(session.table.view(None), tag)["names"]
    assert page.text_content("#suggestion-text") == say(language, "Suggestion by {name}", name=names["Miss Scarlet"])
    session.call(Notify(None, "Look at the board."))
    wait_until(page, "document.getElementById('notice').classList.contains('show')")
    assert_accessible(page, f"the table page in {tag}")
    page.close()
    assert problems == []


def test_the_shared_screen_follows_the_tables_locale(browser: Any) -> None:
    with Session(Table(seed_source=lambda: 7)) as session:
        session.call(NewGame("classic", SEATS))
        session.call(StartGame())
        app = create_app(session, {"HOST_PIN": "246813", "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"http://127.0.0.1:{server.port}/")
            wait_until(page, MOVERS)
            assert page.get_attribute("html", "lang") == "en-US"
            assert page.text_content("#turn-panel h2") == "On turn"
            assert session.call(Configure(locale="de-DE")).ok
            app.extensions["clue"].forget_house()  # as the host page does after its Configure
            # No reload by hand: the page sees the table's new locale in its stream and loads itself again.
            across_reloads(page, "document.documentElement.lang === 'de-DE' && " + MOVERS)
            assert page.text_content("#turn-panel h2") == say("de", "On turn")
            assert page.text_content("#phase") == say("de", "About to roll the dice.")
            page.close()

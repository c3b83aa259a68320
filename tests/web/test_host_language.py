"""The host page picks the table's language, house names and speech; host, editor and sim pages in en/de/fr/es.

Chromium through Playwright on a mock table (like test_host_sim_pages.py); axe-core checks every page in
every language (tests/web/pages.py).
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pages import assert_accessible, wait_until
from web_fixtures import host_browser, make_app, open_game, refused, running

from companion.cli.mock_table import MockTable
from companion.language import parse_locale, say
from companion.rules.spelling import spelled
from companion.table.store import Store
from web import create_app
from web.serve import WebServer

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
PIN = "246813"
TAGS = ("en-US", "de-DE", "fr-FR", "es-ES")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[MockTable, str]]:
    with Store(tmp_path / "games.db").open() as store, MockTable(store) as rig:
        assert rig.new_game("classic", SEATS, seed=7).ok
        assert rig.start().ok
        app = create_app(rig.session, {"HOST_PIN": PIN, "RIG": rig, "SIM": True, "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield rig, f"http://127.0.0.1:{server.port}"


def table_view(url: str) -> dict[str, Any]:
    """The table's public view, as the shared screen gets it."""
    with urllib.request.urlopen(url + "/api/table", timeout=5) as answer:
        found: dict[str, Any] = json.load(answer)
    return found


def eventually(check: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait until ``check()`` holds (the page posts in the background)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def logged_in(browser: Any, url: str) -> tuple[Any, Any, list[str]]:
    """A host browser of its own (cookies apart from other tests' pages), logged in on /host."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.goto(url + "/host")
    page.fill("#pin", PIN)
    page.click("#login-button")
    page.wait_for_selector("#host")
    return context, page, problems


def check_language(page: Any, tag: str, selector: str, english: str) -> None:
    """The page speaks ``tag``: its <html lang>, and one text as the catalogue translates it."""
    language = parse_locale(tag).language
    assert page.get_attribute("html", "lang") == tag
    wait_until(page, f"(document.querySelector({selector!r}).textContent || '').trim() === {say(language, english)!r}")


# ---- the API ---------------------------------------------------------------------------------------

def test_the_house_route_changes_the_tables_choices_and_refuses_in_words(tmp_path: Path) -> None:
    with running(tmp_path) as session:
        open_game(session)
        app = make_app(session)
        host = host_browser(app)
        assert host.json("/api/host")["house"] == {"locale": "en-US", "house_names": {}, "speech": False,
                                                 "names_variant": None}
        answer = host.post("/api/host/house", {"locale": "fr", "house_names": {"Mr. Green": "Tonton"}, "speech": True})
        assert answer.status_code == 200, answer.get_json()
        overview = host.json("/api/host")
        assert overview["house"] == {"locale": "fr-FR", "house_names": {"Mr. Green": "Tonton"}, "speech": True,
                                     "names_variant": None}
        # the placeholder is the locale's own spelling, not the house name
        assert {"identity": "Mr. Green", "spelled": spelled("classic", "fr-FR")["Mr. Green"]} in overview["deck"]["suspects"]
        refused(host.post("/api/host/house", {"locale": "xx"}), 400, "bad_input")
        refused(host.post("/api/host/house", {"house_names": {"Mr. Blue": "x"}}), 400, "bad_input")
        refused(host.post("/api/host/house", {"house_names": {"Mr. Green": "x" * 41}}), 400, "bad_input")
        refused(host.post("/api/host/house", {"speech": "yes"}), 400, "bad_field")
        refused(host.post("/api/host/house", {}), 400, "bad_field")
        refused(host.post("/api/host/house", {"locale": "de"}, csrf="forged"), 403, "csrf")
        assert host.json("/api/host")["house"]["locale"] == "fr-FR"  # nothing refused was kept
        outsider = app.test_client()
        assert outsider.post("/api/host/house", json={"locale": "de"}).status_code in (401, 403)


def test_a_new_game_may_speak_its_announcements(tmp_path: Path) -> None:
    with running(tmp_path) as session:
        app = make_app(session)
        host = host_browser(app)
        answer = host.post("/api/host/new", {"edition": "classic", "seats": list(SEATS), "speech": True})
        assert answer.status_code == 200, answer.get_json()
        assert host.json("/api/host")["house"]["speech"] is True
        assert host.post("/api/host/new", {"edition": "classic", "seats": list(SEATS)}).status_code == 200
        assert host.json("/api/host")["house"]["speech"] is False  # speech is chosen per game


# ---- the pages in every language ----------------------------------------------------------------------

def test_the_login_page_in_every_language(browser: Any, served: tuple[MockTable, str]) -> None:
    _, url = served
    context = browser.new_context()
    page = context.new_page()
    for tag in TAGS:
        page.goto(f"{url}/host?lang={tag}")
        check_language(page, tag, "#login-button", "Log in")
        assert_accessible(page, f"the host login page in {tag}")
    context.close()


def test_the_host_page_in_every_language(browser: Any, served: tuple[MockTable, str]) -> None:
    _, url = served
    context, page, problems = logged_in(browser, url)
    for tag in TAGS:
        page.goto(f"{url}/host?lang={tag}")
        wait_until(page, "document.querySelectorAll('.seat-card').length === 3"
                         " && document.querySelectorAll('#house-names input').length > 0")
        check_language(page, tag, "#new-submit", "Open new game")
        check_language(page, tag, "#house-title", "Table language")
        page.click("#new-toggle")  # the new-game form unfolded too
        assert_accessible(page, f"the host page in {tag}")
    context.close()
    assert problems == []


def test_the_editor_page_in_every_language(browser: Any, served: tuple[MockTable, str]) -> None:
    _, url = served
    context, page, problems = logged_in(browser, url)
    for tag in TAGS:
        page.goto(f"{url}/host/editor?lang={tag}")
        wait_until(page, "document.querySelectorAll('#open-edition option').length > 0")
        page.click("#open-button")
        wait_until(page, "document.querySelectorAll('#grid rect').length > 100 && document.querySelector('#tools button')")
        check_language(page, tag, "#save-button", "Save edition")
        check_language(page, tag, "#tools [data-tool=hallway]", "Hallway")
        assert_accessible(page, f"the editor in {tag}")
    context.close()
    assert problems == []


def test_the_simulator_page_in_every_language(browser: Any, served: tuple[MockTable, str]) -> None:
    _, url = served
    context, page, problems = logged_in(browser, url)
    for tag in TAGS:
        page.goto(f"{url}/sim?lang={tag}")
        wait_until(page, "document.querySelectorAll('.handheld').length === 3 && document.querySelector('#board svg')")
        check_language(page, tag, "#pads-title", "Card pads")
        check_language(page, tag, ".pad.centre button", "Tap")
        assert_accessible(page, f"the simulator in {tag}")
    context.close()
    assert problems == []


# ---- the table's language, house names and speech from the host page -------------------------------------

def test_choosing_german_on_the_host_page_turns_the_table_and_the_phones_german(
        browser: Any, served: tuple[MockTable, str]) -> None:
    _, url = served
    context, page, problems = logged_in(browser, url)  # no language of its own: the page follows the table
    wait_until(page, "document.querySelectorAll('#house-locale option').length > 0")
    assert page.text_content("#house-locale option[value='de-DE']") == "Deutsch (Deutschland)"
    with page.expect_navigation():  # the host page reloads in the table's new language
        page.select_option("#house-locale", "de-DE")
    page.wait_for_selector("#host")
    check_language(page, "de-DE", "#house-title", "Table language")
    assert table_view(url)["house"]["locale"] == "de-DE"
    wait_until(page, "document.querySelectorAll('.join-url').length === 3")
    join_url = page.locator(".join-url").nth(0).text_content() or ""
    phone = browser.new_context()
    tab = phone.new_page()
    tab.goto(url + join_url[join_url.index("/j/"):])
    assert tab.get_attribute("html", "lang") == "de-DE"
    assert tab.evaluate("window.CLUE_I18N.locale") == "de-DE"
    phone.close()
    context.close()
    assert problems == []


def test_house_names_saved_on_the_host_page_show_on_the_table(browser: Any, served: tuple[MockTable, str]) -> None:
    _, url = served
    context, page, problems = logged_in(browser, url)
    wait_until(page, "document.querySelectorAll('#house-names input').length > 0")
    page.click("#house-names-box summary")
    field = page.locator("#house-names input[data-card='Miss Scarlet']")
    assert field.get_attribute("placeholder") == "Miss Scarlet"
    assert field.get_attribute("maxlength") == "40"
    field.fill("Tante Scharlach")
    page.click("#house-names-save")
    wait_until(page, "document.querySelector('.seat-name').textContent === 'Tante Scharlach'")
    view = table_view(url)
    assert view["house"]["house_names"] == {"Miss Scarlet": "Tante Scharlach"}
    assert view["names"]["Miss Scarlet"] == "Tante Scharlach"
    context.close()
    assert problems == []


def test_the_speech_checkbox_turns_the_tables_speech_on(browser: Any, served: tuple[MockTable, str]) -> None:
    _, url = served
    context, page, problems = logged_in(browser, url)
    page.wait_for_selector(".seat-card")
    page.click("#new-toggle")  # folded while a game is on
    page.check("#new-speech")
    page.click("#new-submit")
    page.wait_for_selector(".confirm-box")
    page.click(".confirm-box .actions button:last-child")  # ends the game under way first
    wait_until(page, "!document.getElementById('start-game').classList.contains('hidden')")
    assert table_view(url)["house"]["speech"] is True
    wait_until(page, "document.getElementById('house-speech').checked")
    page.uncheck("#house-speech")  # and off again during the game
    wait_until(page, "document.getElementById('house-speech').checked === false")
    eventually(lambda: table_view(url)["house"]["speech"] is False)
    context.close()
    assert problems == []

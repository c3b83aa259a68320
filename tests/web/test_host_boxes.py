"""The host page picks the table's box of names ("German box, from the 1990s on"): the API and, in Chromium over
a real server, the table page that then writes the cards as that box does."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pages import assert_accessible, wait_until
from web_fixtures import host_browser, make_app, open_game, refused, running

from companion.cli.mock_table import MockTable
from companion.language import say
from companion.table.commands import Configure
from companion.table.store import Store
from web import create_app
from web.serve import WebServer

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
PIN = "246813"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[MockTable, str]]:
    with Store(tmp_path / "games.db").open() as store, MockTable(store) as rig:
        assert rig.new_game("classic", SEATS, seed=7).ok
        assert rig.start().ok
        assert rig.session.call(Configure(locale="de-DE")).ok
        app = create_app(rig.session, {"HOST_PIN": PIN, "RIG": rig, "SIM": True, "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield rig, f"http://127.0.0.1:{server.port}"


def test_the_host_api_lists_the_locales_boxes_and_keeps_the_one_chosen(tmp_path: Path) -> None:
    with running(tmp_path) as session:
        open_game(session)
        host = host_browser(make_app(session))
        overview = host.json("/api/host")
        assert overview["boxes"] == [{"id": "box", "label": "Usual names", "default": True}]
        assert overview["names_variant"] is None and overview["house"]["names_variant"] is None
        assert host.post("/api/host/house", {"locale": "de-DE"}).status_code == 200
        german = host.json("/api/host?lang=de-DE")["boxes"]  # labelled in the page's language
        assert german == [{"id": "1986", "label": say("de", "German box, 1986"), "default": True},
                          {"id": "1990s", "label": say("de", "German box, from the 1990s on"), "default": False}]
        answer = host.post("/api/host/house", {"names_variant": "1990s"})
        assert answer.status_code == 200, answer.get_json()
        overview = host.json("/api/host")
        assert overview["names_variant"] == "1990s"
        assert {"identity": "Miss Scarlet", "spelled": "Fräulein Gloria"} in overview["deck"]["suspects"]
        assert host.post("/api/host/house", {"names_variant": "1986"}).status_code == 200  # the usual box again
        assert host.json("/api/host")["names_variant"] is None


@pytest.mark.parametrize(("body", "code"), [
    ({"names_variant": "current"}, "bad_input"),  # a Spanish box, at a German table
    ({"names_variant": "x" * 41}, "bad_input"),
    ({"names_variant": "x" * 500}, "bad_field"),
    ({"names_variant": ""}, "bad_field"),
    ({"names_variant": 1990}, "bad_field"),
    ({"names_variant": ["1990s"]}, "bad_field"),
    ({"locale": "es-ES", "names_variant": "1990s"}, "bad_input"),
])
def test_a_bad_box_is_a_400_that_changes_nothing(tmp_path: Path, body: dict[str, Any], code: str) -> None:
    with running(tmp_path) as session:
        open_game(session)
        host = host_browser(make_app(session))
        assert host.post("/api/host/house", {"locale": "de-DE", "names_variant": "1990s"}).status_code == 200
        refused(host.post("/api/host/house", body), 400, code)
        house = host.json("/api/host")["house"]
        assert (house["locale"], house["names_variant"]) == ("de-DE", "1990s")


def test_a_german_host_picks_the_1990s_box_and_the_table_shows_fraulein_gloria(
        browser: Any, served: tuple[MockTable, str]) -> None:
    _, url = served
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.goto(url + "/host?lang=en-US")  # a page in English of its own: the labels read as written here
    page.fill("#pin", PIN)
    page.click("#login-button")
    page.wait_for_selector("#host")
    wait_until(page, "!document.getElementById('house-boxes-field').classList.contains('hidden')")
    assert page.locator("#house-boxes option").all_text_contents() == ["German box, 1986",
                                                                        "German box, from the 1990s on"]
    assert page.input_value("#house-boxes") == "1986"
    assert_accessible(page, "the host page with its boxes of names")
    page.select_option("#house-boxes", label="German box, from the 1990s on")
    wait_until(page, "document.querySelector(\"#house-names input[data-card='Miss Scarlet']\")"
                     ".placeholder === 'Fräulein Gloria'")  # the host page's card names follow the box
    screen = browser.new_context()  # the shared screen, no language of its own: the table's German
    table = screen.new_page()
    table.on("pageerror", lambda err: problems.append(f"table page error: {err}"))
    table.goto(url + "/")
    wait_until(table, "[...document.querySelectorAll('.tp-seat-name')].some((e) => e.textContent === 'Fräulein Gloria')")
    page.reload()
    page.wait_for_selector("#host")
    wait_until(page, "document.getElementById('house-boxes').value === '1990s'")
    screen.close()
    context.close()
    assert problems == []

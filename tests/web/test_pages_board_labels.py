"""The board drawing in the table's language: a German table's board says Küche, Salon, Arbeitszimmer on the
shared screen, the phones and the editor, with the table's house names; a page in another language draws its
own. Chromium through Playwright on the real server, axe-core on top."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pages import assert_accessible, wait_until

from companion.table.commands import Configure, NewGame, StartGame
from companion.table.session import Session, Table
from web import create_app
from web.serve import WebServer

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
PIN = "246813"
GERMAN = {"Kitchen": "Küche", "Lounge": "Salon", "Study": "Arbeitszimmer"}
ROOM_TEXTS = "Array.from(document.querySelectorAll('{svg} text.room-name')).map((t) => t.textContent)"


class Served:
    def __init__(self, session: Session, url: str, app: Any) -> None:
        self.session, self.url, self.app = session, url, app


@pytest.fixture(scope="module")
def german() -> Iterator[Served]:
    """A started classic game at a table that speaks German; the Billiard Room has a house name."""
    with Session(Table(seed_source=lambda: 7)) as session:
        assert session.call(NewGame("classic", SEATS)).ok
        assert session.call(StartGame()).ok
        assert session.call(Configure(locale="de-DE", house_names={"Billiard Room": "Opas Keller"})).ok
        app = create_app(session, {"HOST_PIN": PIN, "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield Served(session, f"http://127.0.0.1:{server.port}", app)


def test_the_boards_svg_names_the_rooms_in_the_readers_locale(german: Served) -> None:
    client = german.app.test_client()
    svg = client.get("/api/board").get_json()["svg"]
    for english, name in GERMAN.items():
        assert f">{name}<" in svg and f">{english}<" not in svg
    assert ">Opas Keller<" in svg  # the house name, on the board as on the cards
    assert 'data-name="Kitchen"' in svg  # the places keep their identities, which the pages look up
    english = client.get("/api/board?lang=en-GB").get_json()["svg"]
    assert ">Kitchen<" in english and ">Küche<" not in english


def test_the_shared_screen_and_a_phone_draw_the_german_board(browser: Any, german: Served) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(german.url + "/")
    wait_until(page, "document.querySelectorAll('.cb-mover').length > 0")
    assert page.get_attribute("html", "lang") == "de-DE"
    rooms = page.evaluate(ROOM_TEXTS.format(svg=".cb-svg"))
    assert set(GERMAN.values()) <= set(rooms) and not set(GERMAN) & set(rooms), rooms
    assert "Opas Keller" in rooms
    assert_accessible(page, "the German table page")
    page.close()

    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone = context.new_page()
    pairing = german.app.extensions["clue"].pairing
    phone.goto(f"{german.url}/j/{pairing.token('Colonel Mustard')}")
    phone.wait_for_url("**/seat")
    wait_until(phone, "!!document.querySelector('#dock .dock-title')")
    phone.click("#board-toggle")
    wait_until(phone, "document.querySelectorAll('#board text.room-name').length > 0")
    rooms = phone.evaluate(ROOM_TEXTS.format(svg="#board"))
    assert set(GERMAN.values()) <= set(rooms), rooms
    phone.goto(german.url + "/seat?lang=fr-FR")  # a phone of its own language draws the board in it
    wait_until(phone, "!!document.querySelector('#dock .dock-title')")
    if phone.get_attribute("#board-toggle", "aria-expanded") != "true":
        phone.click("#board-toggle")
    wait_until(phone, "document.querySelectorAll('#board text.room-name').length > 0")
    assert "Cuisine" in phone.evaluate(ROOM_TEXTS.format(svg="#board"))
    context.close()


def test_an_austrian_page_says_de_at_and_reads_the_german_board(browser: Any, german: Served) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(german.url + "/?lang=de-AT")
    wait_until(page, "document.querySelectorAll('.cb-mover').length > 0")
    assert page.get_attribute("html", "lang") == "de-AT"  # the exact tag; the words are de-DE's
    assert set(GERMAN.values()) <= set(page.evaluate(ROOM_TEXTS.format(svg=".cb-svg")))
    page.close()


def test_the_editor_labels_the_rooms_in_the_pages_locale(browser: Any, german: Served) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(german.url + "/host")
    page.fill("#pin", PIN)
    page.click("#login-button")
    page.wait_for_selector("#host")
    page.goto(german.url + "/host/editor")
    wait_until(page, "document.querySelectorAll('#open-edition option').length > 0")
    page.select_option("#open-edition", "classic")
    page.click("#open-button")
    wait_until(page, "document.querySelectorAll('#grid text.room-label').length > 0")
    labels = page.eval_on_selector_all("#grid text.room-label", "nodes => nodes.map((n) => n.textContent)")
    assert set(GERMAN.values()) <= set(labels) and not set(GERMAN) & set(labels), labels
    context.close()

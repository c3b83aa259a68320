"""Which language a page, a stream and an answer speak: the page's choice, the phone's cookie, the table's locale."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from web_fixtures import Browser, make_app, open_game, running, seat_browser, web_of

from companion.language import say
from companion.table.commands import Configure
from companion.table.session import Session

JSON = {"Accept": "application/json"}


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with running(tmp_path) as session:
        yield session


@pytest.fixture
def app(session: Session) -> Flask:
    return make_app(session)


def html_lang(page: str) -> str:
    return page.split('<html lang="', 1)[1].split('"', 1)[0]


def test_pages_follow_the_table_until_a_phone_chooses(app: Flask, session: Session) -> None:
    assert html_lang(Browser(app).get("/").get_data(as_text=True)) == "en-US"
    assert session.call(Configure(locale="fr-FR")).ok
    web_of(app).forget_house()
    phone = Browser(app)
    assert html_lang(phone.get("/host").get_data(as_text=True)) == "fr-FR"
    chosen = phone.get("/host?lang=de-DE")
    assert html_lang(chosen.get_data(as_text=True)) == "de-DE"
    assert "clue_locale=de-DE" in chosen.headers.get("Set-Cookie", "")
    assert html_lang(phone.get("/host").get_data(as_text=True)) == "de-DE"  # the phone's choice is kept
    assert html_lang(phone.get("/").get_data(as_text=True)) == "fr-FR"  # the shared screen follows the table


def test_a_phone_that_chose_austrian_german_stays_de_at(app: Flask) -> None:
    phone = Browser(app)
    chosen = phone.get("/host?lang=de-at")
    assert "clue_locale=de-AT" in chosen.headers.get("Set-Cookie", "")  # the tag as asked, written as tags are
    later = phone.get("/host").get_data(as_text=True)
    assert html_lang(later) == "de-AT" and "Anmelden" in later  # de-DE's words under the tag asked for


def test_an_unknown_locale_is_ignored_not_an_error(app: Flask) -> None:
    browser = Browser(app)
    page = browser.get("/host?lang=xx-YY")
    assert page.status_code == 200 and html_lang(page.get_data(as_text=True)) == "en-US"
    assert "clue_locale" not in page.headers.get("Set-Cookie", "")
    assert browser.get("/i18n/xx.js").status_code == 404


def test_the_page_script_carries_the_translated_messages(app: Flask) -> None:
    script = Browser(app).get("/i18n/de-DE.js").get_data(as_text=True)
    assert script.startswith("window.CLUE_I18N = ")
    data = json.loads(script[len("window.CLUE_I18N = "):].rstrip().rstrip(";"))
    assert data["locale"] == "de-DE" and data["language"] == "de" and "en-GB" in data["locales"]
    message = "The companion cannot be reached. Check the Wi-Fi."
    assert data["messages"][message] == say("de", message) != message
    english = Browser(app).get("/i18n/en-GB.js").get_data(as_text=True)
    assert '"messages":{}' in english


def test_the_tables_notices_reach_the_pages_in_their_language(app: Flask) -> None:
    """A notice comes as {template, args} from the table (companion/table): the page words it itself."""
    script = Browser(app).get("/i18n/de-DE.js").get_data(as_text=True)
    data = json.loads(script[len("window.CLUE_I18N = "):].rstrip().rstrip(";"))
    for notice in ("{opening} The board matches the game.", "The board matches the game again."):
        assert data["messages"][notice] == say("de", notice) != notice


def test_a_refusal_is_said_in_the_readers_language(app: Flask, session: Session) -> None:
    open_game(session)
    phone = seat_browser(app, "Mrs. White")  # not her turn: the engine refuses (a ClueError template)
    english = phone.act("roll")
    assert english.status_code == 409 and english.get_json()["error"]["code"] == "not_your_turn"
    message = english.get_json()["error"]["message"]
    german = phone.post("/api/seat/action", {"type": "roll"}, headers={"X-Clue-Locale": "de-DE"}).get_json()
    assert german["error"]["code"] == "not_your_turn"
    assert german["error"]["message"] != message
    bad = phone.post("/api/seat/action", {"type": "roll", "x": 1}, headers={"X-Clue-Locale": "es-ES"}).get_json()
    plain = phone.post("/api/seat/action", {"type": "roll", "x": 1}).get_json()["error"]["message"]
    expected = plain.split("; expected ", 1)[1].rstrip(".")
    assert bad["error"]["message"] == say("es", "Unknown field {name}; expected {expected}.", name="'x'",
                                          expected=expected) != plain


def test_the_view_names_every_card_as_the_reader_writes_it(app: Flask, session: Session) -> None:
    open_game(session)
    assert session.call(Configure(house_names={"Rope": "Washing line"})).ok
    answer = app.test_client().get("/api/table?lang=en-GB", headers=JSON).get_json()
    assert answer["names"]["Rope"] == "Washing line"
    assert set(answer["names"]) >= {"Miss Scarlet", "Wrench", "Lounge"}
    assert answer["house"]["house_names"] == {"Rope": "Washing line"}


def test_a_views_log_is_in_the_streams_locale(app: Flask, session: Session) -> None:
    open_game(session)
    web = web_of(app)
    view = session.table.view(None)
    english = web.view_message(None, view, "en-US")
    german = web.view_message(None, view, "de-DE")
    assert english.startswith("event: view") and german.startswith("event: view")
    assert web.view_message(None, view, "de-DE") is german  # made once per locale, shared by its streams


def test_places_in_words_speak_the_readers_language(app: Flask, session: Session) -> None:
    open_game(session)
    client = app.test_client()
    english = client.get("/api/board?edition=classic", headers=JSON).get_json()["words"]
    assert english["Kitchen"] == "in the Kitchen" and english["h25"] == "on Miss Scarlet's start square"
    british = client.get("/api/board?edition=classic", headers={**JSON, "X-Clue-Locale": "en-GB"}).get_json()["words"]
    assert british["h25"] == "on Miss Scarlett's start square"  # the locale's spelling in the English words
    german = client.get("/api/board?edition=classic", headers={**JSON, "X-Clue-Locale": "de-DE"}).get_json()["words"]
    assert german["Kitchen"] == say("de", "in {room}", room="Küche")
    assert german["h25"] == say("de", "on the start square of {suspect}", suspect="Fräulein Ming")
    assert german["h22"] == say("de", "{on}, by the door of {room}", on=say("de", "in the corridor"), room="Salon")

"""Names in the page scripts' sentences take their articles, prepositions and genders (Chromium, real server).

The forms come worded from companion/language/grammar.py (page_forms, in /i18n/TAG.js), so a Spanish phone
says "Turno de la señorita Amapola", never "Turno de Señorita Amapola", and a French one "Madame Leblanc
sera seule à la voir"; a house name stands as it is written, after its preposition."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from pages import assert_accessible, wait_until


from companion.language.areas import PAGE_AREAS
from companion.language.catalogues import messages
from companion.language.grammar import FORMS, PEOPLE, SPEC, name, page_forms
from companion.table.commands import Configure, NewGame, StartGame
from companion.table.session import Session, Table
from web import create_app
from web.serve import WebServer

SEATS = ("Miss Scarlet", "Colonel Mustard", "Mrs. White")
BODY = "document.body.innerText"


class Served:
    def __init__(self, session: Session, url: str, pairing: Any) -> None:
        self.session, self.url, self.pairing = session, url, pairing


@pytest.fixture(scope="module")
def spanish() -> Iterator[Served]:
    """A started classic game at a Spanish table: Miss Scarlet (la señorita Amapola) is about to roll."""
    with Session(Table(seed_source=lambda: 7)) as session:
        assert session.call(NewGame("classic", SEATS, dice="physical")).ok
        assert session.call(StartGame()).ok
        assert session.call(Configure(locale="es-ES")).ok
        app = create_app(session, {"HOST_PIN": "246813", "KEEPALIVE": 0.5})
        with WebServer(app, "127.0.0.1", 0) as server:
            yield Served(session, f"http://127.0.0.1:{server.port}", app.extensions["clue"].pairing)


def phone(browser: Any, served: Served, seat: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
    page.goto(f"{served.url}/j/{served.pairing.token(seat)}")
    page.wait_for_url("**/seat")
    return context, page, problems


def said(page: Any, message: str, **args: str) -> str:
    return str(page.evaluate(f"Clue._({json.dumps(message)}, {json.dumps(args)})"))


def test_a_spanish_phone_names_the_player_to_roll_with_her_article(browser: Any, spanish: Served) -> None:
    context, page, problems = phone(browser, spanish, "Colonel Mustard")
    wait_until(page, f"{BODY}.includes('va a tirar los dados')")
    text = page.evaluate(BODY)
    assert "La señorita Amapola va a tirar los dados." in text and "Turno de la señorita Amapola" in text, text
    assert "Señorita Amapola va" not in text and "{" not in text
    assert page.evaluate("document.querySelector('#dock strong, main strong') !== null")  # the name is still bold
    assert said(page, "{seat}'s turn", seat="Coronel Rubio") == "Turno del coronel Rubio"  # de + el: del
    assert said(page, "Accuse {suspect} with {weapon} in {room}?", suspect="Coronel Rubio", weapon="Soga",
                room="Sala") == "¿Acusar al coronel Rubio con la soga en la sala?"
    assert said(page, "{seat}'s turn", seat="Opas Keller") == "Turno de Opas Keller"  # a house name: no article
    assert said(page, "{seat} is about to roll.", seat="Amy & Rory") == "Amy & Rory van a tirar los dados."  # plural
    assert problems == []
    assert_accessible(page, "the Spanish phone")
    context.close()


def test_french_and_german_phones_word_names_as_the_narration_does(browser: Any, spanish: Served) -> None:
    context, page, problems = phone(browser, spanish, "Colonel Mustard")
    page.goto(spanish.url + "/seat?lang=fr-FR")
    wait_until(page, f"{BODY}.includes('va lancer les dés')")
    assert "Mademoiselle Rose va lancer les dés." in page.evaluate(BODY)
    pick = "{suspect} with {weapon} in {room}. Pick one card to show: only {seat} sees it."
    assert said(page, pick, suspect="Colonel Moutarde", weapon="Corde", room="Cuisine", seat="Madame Leblanc") == \
        "Le colonel Moutarde avec la corde dans la cuisine. Choisis une carte à montrer : Madame Leblanc sera seule à la voir."
    assert said(page, pick, suspect="Evelyn Rose", weapon="Revolver", room="Salon", seat="Docteur Olive").endswith(
        "le docteur Olive sera seul à la voir.")
    assert said(page, "{seat}'s turn", seat="Colonel Moutarde") == "Au tour du colonel Moutarde"
    page.goto(spanish.url + "/seat?lang=de-DE")
    wait_until(page, f"{BODY}.includes('Fräulein Ming')")
    assert said(page, "It was {suspect} with {weapon} in {room}.", suspect="Oberst Gatow", weapon="Seil",
                room="Veranda") == "Es war Oberst Gatow mit dem Seil auf der Veranda."
    assert said(page, "Go to {room}", room="Speisezimmer") == "Gehe ins Speisezimmer"
    assert problems == []
    context.close()


@pytest.mark.parametrize("language", sorted(FORMS))
def test_the_pages_forms_are_the_narrations(language: str) -> None:
    """Every form a page message asks for, for every name, is what the Python side says."""
    texts = messages(language, PAGE_AREAS).values()
    specs = {spec for text in texts for spec in SPEC.findall(text)}
    forms = page_forms(language, texts)
    assert specs and set(forms["unknown"]) == specs - {"s"} and any("|" in spec for spec in specs)
    for text in set(FORMS[language]) | set(PEOPLE):
        assert forms["forms"][text] == {spec: format(name(language, text), spec) for spec in specs - {"s"}}
    assert page_forms("en", ["{seat}"]) == {"forms": {}, "unknown": {}}

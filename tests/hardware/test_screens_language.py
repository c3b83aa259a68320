"""Handheld screens in German, French and Spanish: accents drawn by the 6x11 Latin-1 font, and everything fits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
import test_screens
from handheld_views import choose
from PIL import ImageChops
from test_screens import CATALOGUE

from companion.table.commands import Command
from companion.table.prompts import Menu, Screen, screen_for
from companion.table.wording import Wording
from hardware.screens import CELL_H, CELL_W, HEIGHT, WIDTH, font, layout, printable, render_image, wrap

LOCALES = ("de-DE", "fr-FR", "es-ES")


def screen_in(locale: str, name: str, monkeypatch: pytest.MonkeyPatch) -> Screen:
    """The catalogue's screen, drawn as a table set to ``locale`` would word it."""
    def wording(cls: type[Wording], view: Mapping[str, Any]) -> Wording:
        edition = view.get("edition")
        return Wording.for_table(locale, str(edition) if edition else None, {})
    def chosen(view: dict[str, Any], label: str, menu: Menu | None = None) -> tuple[Menu, Command | None]:
        items = screen_for(view, menu or Menu()).items  # the catalogue picks items by their English labels
        table = Wording.for_view(view)
        said = next((text for text in (table.say(label), table.name(label)) if text in items), label)
        return choose(view, said, menu)
    with monkeypatch.context() as patch:
        patch.setattr(Wording, "for_view", classmethod(wording))
        patch.setattr(test_screens, "choose", chosen)
        return CATALOGUE[name]()


def words_of(screen: Screen) -> list[str]:
    return [screen.title, *screen.lines, *screen.items, screen.footer]


@pytest.mark.parametrize("locale", LOCALES)
def test_every_screen_is_translated_and_fits_the_frame(locale: str, monkeypatch: pytest.MonkeyPatch) -> None:
    changed = 0
    for name in sorted(CATALOGUE):
        english, screen = CATALOGUE[name](), screen_in(locale, name, monkeypatch)
        changed += screen.title != english.title or screen.footer != english.footer
        for text in words_of(screen):
            assert printable(text) == text, f"{name}: {text!r} has characters the font lacks"
        for label in layout(screen).labels:
            width = font().getbbox(label.text)[2] + (CELL_W if label.cut else 0)
            assert label.x >= 0 and label.x + width <= WIDTH and label.y + CELL_H <= HEIGHT, (name, label)
        if screen.items and not screen.qr:  # the chosen item is read whole, as in English
            chosen = [label.text for label in layout(screen).labels if label.inverted and label.y > 0]
            assert chosen == wrap(screen.items[screen.cursor]), name
        render_image(screen)
    assert changed >= len(CATALOGUE) - 3  # idle has no footer; a few titles (Notes, QR) read alike


def glyph(char: str) -> Any:
    return render_image(Screen("x", char)).crop((0, 0, CELL_W + 2, CELL_H))


@pytest.mark.parametrize(("accented", "plain"), [("ä", "a"), ("ö", "o"), ("ü", "u"), ("ß", "s"), ("é", "e"),
                                                 ("è", "e"), ("à", "a"), ("ç", "c"), ("ñ", "n"), ("í", "i"),
                                                 ("ó", "o"), ("¿", "?"), ("À", "A"), ("É", "E")])
def test_the_font_draws_each_accent_not_a_question_mark(accented: str, plain: str) -> None:
    drawn = glyph(accented)
    assert ImageChops.difference(drawn, glyph("?")).getbbox() is not None
    assert ImageChops.difference(drawn, glyph(plain)).getbbox() is not None
    assert drawn.getbbox() is not None


def test_a_german_turn_screen_keeps_its_umlauts(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = screen_in("de-DE", "roll", monkeypatch)
    assert screen.items[0] == "Würfeln"
    texts = [label.text for label in layout(screen).labels]
    assert "Würfeln" in " ".join(texts) and "?" not in " ".join(texts)

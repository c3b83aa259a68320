"""Every message the code can show is translated in every language, with the same placeholders."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from companion.language import parse_locale, say, translations
from companion.language.areas import AREAS, Area, placeholders, problems, template
from companion.language.catalogues import LANGUAGES

TRANSLATED = [language for language in LANGUAGES if language != "en"]


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("area", AREAS, ids=lambda area: area.name)
def test_the_catalogue_has_every_message(area: Area, language: str) -> None:
    found = list(problems(area, language))
    assert not found, f"{len(found)} problems (fill them in companion/locales/; " \
                      f"`python -m companion.language update` adds new messages):\n" + "\n".join(found[:40])


def test_a_missing_or_wrong_translation_is_caught() -> None:
    area = next(a for a in AREAS if a.name == "web")
    wanted = template(area)
    some = next(message for message in wanted if message.id and placeholders(str(message.id)))
    broken = Catalog(locale="de")
    for message in wanted:
        if message.id and message.id != some.id:
            broken.add(message.id, "x " + " ".join("{%s}" % name for name in placeholders(str(message.id))))
    assert any("untranslated" in line for line in problems(area, "de", broken))
    broken.add(some.id, "ohne Platzhalter")
    assert any("placeholders" in line for line in problems(area, "de", broken))


def test_every_area_finds_messages_in_its_files() -> None:
    for area in AREAS:
        for pattern in area.python + area.templates + area.scripts:
            assert list(Path(__file__).resolve().parents[3].glob(pattern)), f"{area.name}: {pattern} matches no file"


def test_english_is_the_message_itself_and_locales_fall_back() -> None:
    assert say("en", "{seat} rolls {roll}.", seat="Mr. Green", roll=4) == "Mr. Green rolls 4."
    assert parse_locale("nb-NO").language == "en"  # Norwegian card names, English sentences
    assert translations("de").gettext("There is no such page.") != "There is no such page."


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_message_in_two_areas_reads_the_same_in_both(language: str) -> None:
    """A page mixes areas (its template, common.js, its script): one message, one translation.

    The handhelds are left out: their 21-character lines may say a thing shorter than a page does."""
    from babel.messages.pofile import read_po

    from companion.language.areas import WEB_AREAS, area, po_path

    seen: dict[str, tuple[str, str]] = {}
    clashes = []
    for name in WEB_AREAS:
        with po_path(area(name), language).open("rb") as handle:
            for message in read_po(handle, locale=language):
                if not message.id or not isinstance(message.id, str) or not message.string:
                    continue
                first = seen.setdefault(message.id, (name, str(message.string)))
                if first[1] != message.string:
                    clashes.append(f"{message.id!r}: {first[0]} {first[1]!r} but {name} {message.string!r}")
    assert not clashes, "\n".join(clashes)

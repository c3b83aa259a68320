"""The gettext catalogues: one ``.po`` file per area and language, read with Babel.

The ``.po`` files (``companion/locales/LANG/LC_MESSAGES/AREA.po``) are the
source; they are compiled in memory when first needed, so no binary ``.mo``
file is kept beside them to fall out of step. English is the source language:
its "translation" is the message itself.

>>> say("en", "{seat} rolls {roll}.", seat="Mr. Green", roll=7)
'Mr. Green rolls 7.'
"""

from __future__ import annotations

import gettext
from functools import cache
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from .grammar import named

LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es")
ROOT = Path(__file__).resolve().parent.parent / "locales"


def po_files(language: str) -> list[Path]:
    """The catalogues of ``language``, one per area."""
    return sorted((ROOT / language / "LC_MESSAGES").glob("*.po"))


@cache
def _strings(path: Path, language: str) -> dict[str, str]:
    """The translated messages of one ``.po`` file (id -> text; untranslated and fuzzy ones left out)."""
    with path.open("rb") as handle:
        return {message.id: str(message.string) for message in read_po(handle, locale=language)
                if isinstance(message.id, str) and message.id and message.string and not message.fuzzy}


@cache
def translations(language: str) -> gettext.NullTranslations:
    """Every area's catalogue for ``language`` as one; English and unknown languages translate to themselves."""
    if language == "en" or language not in LANGUAGES:
        return gettext.NullTranslations()
    merged = Catalog(locale=language)
    for path in po_files(language):
        for message_id, text in _strings(path, language).items():
            merged.add(message_id, text)
    compiled = BytesIO()
    write_mo(compiled, merged)
    compiled.seek(0)
    return Translations(compiled)


def say(language: str, message: str, **args: object) -> str:
    """``message`` translated into ``language``, its ``{placeholders}`` filled from ``args``; a name may be
    asked for in a form (``{seat:the}``, ``{room:de}``: grammar.py), as the page scripts do."""
    text = translations(language).gettext(message)
    return text.format(**named(language, args)) if args else text


@cache
def messages(language: str, areas: tuple[str, ...]) -> dict[str, str]:
    """The translated messages of ``areas`` (id -> text), for a page's scripts."""
    if language == "en" or language not in LANGUAGES:
        return {}
    found: dict[str, str] = {}
    for area in areas:
        path = ROOT / language / "LC_MESSAGES" / f"{area}.po"
        if path.exists():
            found.update(_strings(path, language))
    return found

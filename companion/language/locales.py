"""Locale tags: a language for the sentences and a country for the card names.

A tag that is not listed falls back to its language's main locale (``de-AT``
reads as ``de-DE``), but keeps the exact tag the reader asked for, for
``<html lang>`` (:attr:`Locale.exact`).

>>> parse_locale("en_gb")
Locale(tag='en-GB', language='en')
>>> parse_locale("de").tag
'de-DE'
>>> austria = parse_locale("de-at")
>>> austria.tag, austria.language, austria.exact
('de-DE', 'de', 'de-AT')
>>> parse_locale("es-419").tag, parse_locale("fr-BE").exact
('es-ES', 'fr-BE')
>>> parse_locale("xx")
Traceback (most recent call last):
...
companion.rules.errors.BadInput: unknown locale 'xx'; known: en-US, en-GB, de-DE, de-CH, fr-FR, fr-CH, es-ES, nb-NO
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from companion.rules.errors import BadInput

DEFAULT = "en-US"
# Every locale a table, a phone or the CLI may choose. Norwegian has no catalogue: nb-NO is English
# sentences with the Norwegian box's card names (docs/languages.md, "Locales").
LOCALES: tuple[str, ...] = ("en-US", "en-GB", "de-DE", "de-CH", "fr-FR", "fr-CH", "es-ES", "nb-NO")
# A bare language, or a country not listed, means the language's main locale.
_BY_LANGUAGE = {"en": "en-US", "de": "de-DE", "fr": "fr-FR", "es": "es-ES", "nb": "nb-NO", "no": "nb-NO"}
# language[-Script][-REGION]: "de-AT", "es-419", "zh-Hant-TW"; anything after the region is ignored.
_TAG = re.compile(r"([a-z]{2,3})(?:-([a-z]{4}))?(?:-([a-z]{2}|[0-9]{3}))?(?:-[a-z0-9]{1,8})*")


@dataclass(frozen=True)
class Locale:
    """A locale tag and the language of its sentences; ``exact`` is the tag as asked ("de-AT" for de-DE)."""

    tag: str
    language: str
    exact: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.exact:
            object.__setattr__(self, "exact", self.tag)


def parse_locale(text: object) -> Locale:
    """The :class:`Locale` for ``text`` ("en-GB", "en_gb", "de", "de-AT"); :class:`BadInput` lists the known ones."""
    from .catalogues import LANGUAGES

    if not isinstance(text, str) or not text.strip():
        raise BadInput(f"unknown locale {text!r}; known: {', '.join(LOCALES)}")
    wanted = text.strip().replace("_", "-").casefold()
    tag = _BY_LANGUAGE.get(wanted) or next((known for known in LOCALES if known.casefold() == wanted), None)
    exact = tag
    if tag is None:
        found = _TAG.fullmatch(wanted)
        tag = _BY_LANGUAGE.get(found.group(1)) if found else None
        if found is None or tag is None:
            raise BadInput(f"unknown locale {text!r}; known: {', '.join(LOCALES)}")
        exact = "-".join(part for part in (found.group(1), (found.group(2) or "").title(),
                                           (found.group(3) or "").upper()) if part)
    language = tag.split("-")[0]
    return Locale(tag, language if language in LANGUAGES else "en", exact or tag)

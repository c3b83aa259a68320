"""Locale tags: a language for the sentences and a country for the card names.

>>> parse_locale("en_gb")
Locale(tag='en-GB', language='en')
>>> parse_locale("de").tag
'de-DE'
>>> parse_locale("xx")
Traceback (most recent call last):
...
companion.rules.errors.BadInput: unknown locale 'xx'; known: en-US, en-GB, de-DE, de-CH, fr-FR, fr-CH, es-ES, nb-NO
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.errors import BadInput

DEFAULT = "en-US"
# Every locale a table, a phone or the CLI may choose. Its language falls back to English when the
# catalogues have none (nb-NO: Norwegian card names, English sentences).
LOCALES: tuple[str, ...] = ("en-US", "en-GB", "de-DE", "de-CH", "fr-FR", "fr-CH", "es-ES", "nb-NO")
# A bare language means its main country.
_BY_LANGUAGE = {"en": "en-US", "de": "de-DE", "fr": "fr-FR", "es": "es-ES", "nb": "nb-NO", "no": "nb-NO"}


@dataclass(frozen=True)
class Locale:
    """A locale tag and the language of its sentences."""

    tag: str
    language: str


def parse_locale(text: object) -> Locale:
    """The :class:`Locale` for ``text`` ("en-GB", "en_gb", "de"); :class:`BadInput` lists the known ones."""
    from .catalogues import LANGUAGES

    if not isinstance(text, str) or not text.strip():
        raise BadInput(f"unknown locale {text!r}; known: {', '.join(LOCALES)}")
    wanted = text.strip().replace("_", "-").casefold()
    tag = _BY_LANGUAGE.get(wanted) or next((known for known in LOCALES if known.casefold() == wanted), None)
    if tag is None:
        raise BadInput(f"unknown locale {text!r}; known: {', '.join(LOCALES)}")
    language = tag.split("-")[0]
    return Locale(tag, language if language in LANGUAGES else "en")

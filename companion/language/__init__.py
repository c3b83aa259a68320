"""Languages and locales: which words a page, a handheld or the narration uses.

A *locale* tag (``en-US``, ``en-GB``, ``de-DE``...) chooses two things: the
language of every sentence (gettext catalogues, :mod:`.catalogues`) and how the
cards are spelled (an edition's names tables, :mod:`companion.rules.spelling`).
Messages are written in English in the code, marked with :func:`N_` where they
are only named and translated later, where the reader's locale is known.
"""

from __future__ import annotations

from .catalogues import LANGUAGES, say, translations
from .locales import DEFAULT, LOCALES, Locale, parse_locale


def N_(message: str) -> str:
    """Mark ``message`` for the catalogues without translating it (it is translated where it is shown)."""
    return message


__all__ = ["DEFAULT", "LANGUAGES", "LOCALES", "Locale", "N_", "parse_locale", "say", "translations"]

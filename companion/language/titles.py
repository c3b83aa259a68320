"""The game's title and each edition's, as the box says it where the reader lives.

North America's box says CLUE; everywhere else (the UK, Germany, France,
Spain, Switzerland, Norway...) it says Cluedo. The titles are messages, so a
language may write them its own way.

>>> game_title("en-US"), game_title("en-GB"), game_title("de-AT")
('CLUE', 'Cluedo', 'Cluedo')
>>> edition_title("classic", "Classic CLUE", "en-US"), edition_title("classic", "Classic CLUE", "en-GB")
('Classic CLUE', 'Cluedo')
>>> edition_title("doctor_who", "CLUE Doctor Who", "fr-FR"), edition_title("mine", "CLUE at Home", "es-ES")
('Cluedo Doctor Who', 'Cluedo at Home')
>>> companion_title("de-DE")
'Cluedo-Begleiter'
"""

from __future__ import annotations

import re

from companion.rules.errors import ClueError

from . import N_, parse_locale, say

NORTH_AMERICA = ("en-US",)  # the locales whose box says CLUE (en-CA falls back to en-US)
# Each bundled edition's title outside North America (the US title is the edition's own "name").
CLUEDO_TITLES = {
    "classic": N_("Cluedo"),
    "master_detective": N_("Cluedo Master Detective"),
    "big_bang_theory": N_("Cluedo The Big Bang Theory"),
    "doctor_who": N_("Cluedo Doctor Who"),
}
CLUE = re.compile(r"\bCLUE\b")


def _locale(locale: str) -> tuple[str, str]:
    try:
        found = parse_locale(locale)
    except ClueError:
        return "en-US", "en"
    return found.tag, found.language


def game_title(locale: str) -> str:
    """"CLUE" in North America, "Cluedo" (as the language writes it) elsewhere."""
    tag, language = _locale(locale)
    return "CLUE" if tag in NORTH_AMERICA else say(language, N_("Cluedo"))


def edition_title(edition_id: str, name: str | None, locale: str) -> str:
    """An edition's title in ``locale``: its own ``name`` in North America; elsewhere its Cluedo title
    (a user edition's "CLUE" becomes "Cluedo")."""
    tag, language = _locale(locale)
    own = name or edition_id
    if tag in NORTH_AMERICA:
        return own
    if edition_id in CLUEDO_TITLES:
        return say(language, CLUEDO_TITLES[edition_id])
    return CLUE.sub(game_title(locale), own)


def companion_title(locale: str) -> str:
    """The pages' title: "CLUE companion", "Cluedo companion", "Cluedo-Begleiter"..."""
    _, language = _locale(locale)
    return say(language, N_("{game} companion"), game=game_title(locale))

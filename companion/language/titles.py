"""The game's title and each edition's, as the box says it where the reader lives.

The Americas' boxes say CLUE (Wikipedia: "Cluedo (Clue en América)",
"Clue en Amérique du Nord"); everywhere else (the UK, Germany, France, Spain,
Switzerland, Norway, Australia...) they say Cluedo. The country is the exact
tag's ("fr-CA", "es-MX"), so a locale that falls back to another keeps its
own box. The titles are messages, so a language may write them its own way.

>>> game_title("en-US"), game_title("en-GB"), game_title("de-AT"), game_title("en-AU"), game_title("es-MX")
('CLUE', 'Cluedo', 'Cluedo', 'Cluedo', 'CLUE')
>>> edition_title("classic", "Classic CLUE", "en-US"), edition_title("classic", "Classic CLUE", "en-GB")
('Classic CLUE', 'Cluedo')
>>> edition_title("doctor_who", "CLUE Doctor Who", "fr-FR"), edition_title("mine", "CLUE at Home", "es-ES")
('Cluedo Doctor Who', 'Cluedo at Home')
>>> edition_title("classic", "Classic CLUE", "es-MX"), edition_title("doctor_who", "CLUE Doctor Who", "fr-CA")
('CLUE', 'CLUE Doctor Who')
>>> companion_title("de-DE")
'Cluedo-Begleiter'
"""

from __future__ import annotations

import re

from companion.rules.errors import ClueError

from . import N_, parse_locale, say

# The countries whose box says CLUE: North America, and Latin America ("419" is its region code).
CLUE_COUNTRIES = frozenset(("US", "CA", "MX", "419", "AR", "BO", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN",
                            "NI", "PA", "PE", "PR", "PY", "SV", "UY", "VE"))
# Each bundled edition's title outside North America (the US title is the edition's own "name").
CLUEDO_TITLES = {
    "classic": N_("Cluedo"),
    "master_detective": N_("Cluedo Master Detective"),
    "big_bang_theory": N_("Cluedo The Big Bang Theory"),
    "doctor_who": N_("Cluedo Doctor Who"),
}
CLUE = re.compile(r"\bCLUE\b")


def _locale(locale: str) -> tuple[bool, str]:
    """Whether the box says CLUE where ``locale`` is, and the language of the sentences."""
    try:
        found = parse_locale(locale)
    except ClueError:
        return True, "en"
    country = found.exact.rpartition("-")[2] if "-" in found.exact else ""
    return country in CLUE_COUNTRIES, found.language


def game_title(locale: str) -> str:
    """"CLUE" in the Americas, "Cluedo" (as the language writes it) elsewhere."""
    clue, language = _locale(locale)
    return "CLUE" if clue else say(language, N_("Cluedo"))


def edition_title(edition_id: str, name: str | None, locale: str) -> str:
    """An edition's title in ``locale``: its own ``name`` (the US box's) in the Americas, but for Classic;
    elsewhere its Cluedo title (a user edition's "CLUE" becomes "Cluedo")."""
    clue, language = _locale(locale)
    own = name or edition_id
    if clue:
        return "CLUE" if edition_id == "classic" and language != "en" else own
    if edition_id in CLUEDO_TITLES:
        return say(language, CLUEDO_TITLES[edition_id])
    return CLUE.sub(game_title(locale), own)


def companion_title(locale: str) -> str:
    """The pages' title: "CLUE companion", "Cluedo companion", "Cluedo-Begleiter"..."""
    _, language = _locale(locale)
    return say(language, N_("{game} companion"), game=game_title(locale))

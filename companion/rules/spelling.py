"""How a locale writes an edition's cards: every card keeps its identity (its US printed name).

A locale's name of a card comes from, first found: the table's house names,
the box variant's table when one is chosen (``[names.de-DE-1990s]``), the
edition's ``[names.TAG]`` table for the locale, the table of its language's
main locale (de-CH falls back to de-DE, fr-CH to fr-FR), and last the
identity itself. Swiss German writes no "ß" (Frau Weiss). The rules engine
only ever sees identities: a name is how a page, a handheld or the narration
writes it.

>>> spelled("classic", "en-GB")["Mr. Green"]
'Reverend Green'
>>> spelled("classic", "de-CH")["Miss Scarlet"], spelled("classic", "de-CH")["Mr. Green"]
('Evelyn Rose', 'Direktor Grün')
>>> spelled("classic", "de-CH")["Mrs. White"], spelled("classic", "de-DE")["Mrs. White"]
('Frau Weiss', 'Frau Weiß')
>>> spelled("classic", "de-DE", variant="1990s")["Mr. Green"], spelled("classic", "de-AT")["Mr. Green"]
('Reverend Grün', 'Direktor Grün')
>>> spelled("classic", "en-US", {"Mr. Green": "Uncle Fred"})["Mr. Green"]
'Uncle Fred'
"""

from __future__ import annotations

from collections.abc import Mapping

from .edition import Edition, load_edition


def spelled(edition_id: str, locale: str, house_names: Mapping[str, str] | None = None,
            variant: str | None = None) -> dict[str, str]:
    """Every card of the edition (identity -> name in ``locale``), the table's house names first."""
    return spelling(load_edition(edition_id), locale, house_names, variant)


def spelling(edition: Edition, locale: str, house_names: Mapping[str, str] | None = None,
             variant: str | None = None) -> dict[str, str]:
    """:func:`spelled` for an edition already loaded; ``variant`` is a box's suffix ("1990s") or None."""
    house = house_names or {}
    tags = fallbacks(locale)
    chosen = tuple(f"{tag}-{variant}" for tag in tags) if variant else ()
    tables = [edition.names.get(tag, {}) for tag in chosen + tags]
    swiss = _swiss_german(locale)
    found = {}
    for card in edition.deck.all:
        name = next((t[card] for t in tables if card in t), card)
        found[card] = house.get(card) or (name.replace("ß", "ss") if swiss else name)
    return found


def fallbacks(locale: str) -> tuple[str, ...]:
    """The tags whose names tables ``locale`` reads, first first: "de-CH" -> ("de-CH", "de-DE"); "de" -> ("de-DE",).

    >>> fallbacks("fr_ch"), fallbacks("es"), fallbacks("nb-NO")
    (('fr-CH', 'fr-FR'), ('es-ES',), ('nb-NO', 'nb-NB'))
    """
    language, _, country = locale.strip().replace("_", "-").partition("-")
    language = language.casefold()
    main = f"{language}-{language.upper()}"
    tag = f"{language}-{country.upper()}" if country else main
    return (tag,) if tag == main else (tag, main)


def _swiss_german(locale: str) -> bool:
    """Swiss Standard German has no "ß" (de-CH, and de-LI beside it)."""
    return fallbacks(locale)[0] in ("de-CH", "de-LI")

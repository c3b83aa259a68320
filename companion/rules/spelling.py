"""How a locale writes an edition's cards: every card keeps its identity (its US printed name).

>>> spelled("classic", "en-US", {"Mr. Green": "Uncle Fred"})["Mr. Green"]
'Uncle Fred'
"""

from __future__ import annotations

from collections.abc import Mapping

from .edition import load_edition


def spelled(edition_id: str, locale: str, house_names: Mapping[str, str] | None = None) -> dict[str, str]:
    """Every card of the edition (identity -> name in ``locale``), the table's house names first."""
    deck = load_edition(edition_id).deck
    house = house_names or {}
    return {card: house.get(card, card) for card in deck.all}

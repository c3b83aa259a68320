"""The plain cards: those the facts say nothing about, dealt in closed form.

A card is plain when any hand that still takes cards may hold it, the envelope
too while its category's card is unknown, and no "one of" fact names it. Such
cards are interchangeable with each other and every way of dealing them fits
the facts, so once the other (marked) cards are placed, the ways to deal the
plain ones are a product: which plain card of each category the envelope still
needs, times the multinomial ``(plain cards left)! / prod(cards each hand
still takes)!``. At a 10-player table most cards are plain for most of the
game; dealing them by formula is what spares the count their states.

>>> plain = PlainCards(candidates=(2, 0, 3), total=7)
>>> plain.ways(missing=(0, 2), needs=[2, 3])  # 2 * 3 envelope choices, then 5! / (2! 3!) hands
60
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class PlainCards:
    """How many plain cards there are, and how many of each category may go to the envelope.

    ``candidates`` is 0 for a category whose envelope card is already known:
    its plain cards all go to hands.
    """

    candidates: tuple[int, int, int]
    total: int

    def choices(self, missing: Sequence[int], without: int | None = None) -> int:
        """Ways to fill the envelope's ``missing`` categories with plain cards (one card of ``without`` set apart)."""
        return math.prod(self.candidates[at] - (at == without) for at in missing)

    def hands(self, needs: Sequence[int]) -> int:
        """Ways to deal the plain cards the envelope leaves to hands still taking ``needs`` cards: a multinomial."""
        return math.factorial(sum(needs)) // math.prod(math.factorial(need) for need in needs)

    def ways(self, missing: Sequence[int], needs: Sequence[int]) -> int:
        """Ways to deal every plain card: the envelope's ``missing`` categories, then hands needing ``needs``."""
        choices = self.choices(missing)
        return choices * self.hands(needs) if choices else 0

    def one_card(self, category: int, missing: Sequence[int], dealt: int,
                 held: Sequence[int]) -> tuple[int, list[int]]:
        """Deals with one given plain card of ``category`` in the envelope, and in each holder's hands.

        Summed over the states the programme ends in with the envelope missing
        ``missing``: ``dealt`` is the sum of (ways to reach the state) times
        :meth:`hands`, ``held[h]`` the same weighted by the cards holder h still
        takes. The card is in the envelope in one of the ``choices`` envelope
        fillings when its category is missing; it is in a hand as often as a
        random plain card of the hands is in that hand: weight ``need /
        hands``, which divides exactly (``hands(needs) * need / sum(needs)``
        is the multinomial with that hand taking one card fewer).
        """
        envelope = self.choices([at for at in missing if at != category]) * dealt if category in missing else 0
        choices, hands = self.choices(missing, without=category), self.total - len(missing)
        if not choices or hands <= 0:
            return envelope, [0] * len(held)
        return envelope, [choices * (weight // hands) for weight in held]

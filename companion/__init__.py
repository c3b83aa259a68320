"""clue-companion: a referee for the physical CLUE board game.

The rules engine is pure: ``apply(state, action) -> (state, events)``. Views
are the only way state leaves it.

>>> from companion import Setup, Roll, new_game, apply, public_view
>>> state, _ = new_game(Setup("classic", ("Miss Scarlet", "Mr. Green", "Mrs. Peacock"), seed=1))
>>> state, events = apply(state, Roll("Miss Scarlet", (4,)))
>>> public_view(state)["legal_destinations"]
['h21', 'h23', 'i22', 'i24']
"""

from companion.rules.actions import Accuse, Action, DealSpec, EndTurn, Move, Pass, Roll, Setup, Show, Suggest
from companion.rules.edition import Edition, load_edition
from companion.rules.engine import apply, legal_destinations, new_game
from companion.rules.errors import ClueError
from companion.rules.state import GameState
from companion.rules.views import public_view, seat_view

__all__ = [
    "Accuse",
    "Action",
    "ClueError",
    "DealSpec",
    "Edition",
    "EndTurn",
    "GameState",
    "Move",
    "Pass",
    "Roll",
    "Setup",
    "Show",
    "Suggest",
    "apply",
    "legal_destinations",
    "load_edition",
    "new_game",
    "public_view",
    "seat_view",
]

"""Master Detective's snoop spaces: a mover landing on one looks at a card of an opponent's.

"Announce which player you want to Snoop, then draw one of his or her cards,
sight unseen, look at it ... and give the card back. If you have not used up
your dice roll, continue your move." The card is picked by the seeded
generator, and only the snooper learns it.
"""

from __future__ import annotations

from .actions import Snoop
from .effects import peek
from .errors import BadInput, WrongPhase
from .events import Event
from .state import GameState

Result = tuple[GameState, tuple[Event, ...]]


def snoop(state: GameState, action: Snoop, seat: str) -> Result:
    turn = state.turn
    here = state.position(seat)
    if turn.snoop_at is None or turn.snoop_at != here:
        raise WrongPhase("{seat} is not on a snoop space reached this turn (or has already snooped there)", seat=seat)
    target = state.seat_named(action.target)
    if target == seat:
        raise BadInput("{seat} snoops on an opponent, not on themself", seat=seat)
    state, events = peek(state, seat, target)
    return state.evolve(turn=state.turn.evolve(snoop_at=None)), events

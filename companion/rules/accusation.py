"""Accusations: checked privately against the envelope; right wins, wrong is out."""

from __future__ import annotations

from .actions import Accuse
from .errors import AccusationLocation
from .events import Accused, EliminatedSeat, Event, GameEnded, Moved
from .state import GameState, Phase
from .suggestion import check_suggested

Result = tuple[GameState, tuple[Event, ...]]


def accuse(state: GameState, action: Accuse, seat: str) -> Result:
    # Of several refusals, the one the player cannot put right this turn comes first: accusing from the
    # wrong place (she has moved) before a suggestion still owed, before a misspelt card.
    check_place(state, seat)
    check_suggested(state, seat, "accusing")
    deck = state.edition.deck
    guess = (deck.resolve(action.suspect, "suspect"), deck.resolve(action.weapon, "weapon"),
             deck.resolve(action.room, "room"))
    correct = guess == state.envelope.cards()
    events: list[Event] = [Accused(seat, *guess, correct)]
    if correct:
        return _game_over(state, seat, events)
    state, out = eliminate(state, seat)
    return state, (*events, *out)


def eliminate(state: GameState, seat: str) -> Result:
    """``seat`` is out: no more turns, but it still answers suggestions.

    If it was that seat's turn, only ending it remains; if nobody is left in,
    the game is over without a winner.
    """
    state = state.evolve(eliminated=state.eliminated + (seat,))
    events: list[Event] = [EliminatedSeat(seat)]
    state, cleared = _clear_doorway(state, seat)
    events.extend(cleared)
    if len(state.eliminated) == len(state.seats):
        return _game_over(state, None, events)
    if seat == state.turn.seat:
        state = state.evolve(turn=state.turn.evolve(phase=Phase.OUT))
    return state, tuple(events)


def _game_over(state: GameState, winner: str | None, events: list[Event]) -> Result:
    events.append(GameEnded(winner, *state.envelope.cards()))
    return state.evolve(winner=winner, turn=state.turn.evolve(phase=Phase.OVER)), tuple(events)


def check_place(state: GameState, seat: str) -> None:
    """Editions that name one place for accusations (the centre space) enforce it."""
    place = state.edition.accuse
    if place == "anywhere":
        return
    board = state.edition.require_board()
    here = state.position(seat)
    mark = board.marks.get(board.index[here]) if here in board.index else None
    if place not in (here, mark):
        raise AccusationLocation("accusations are made only from the {place}; {seat} is on {here}",
                                 place=place, seat=seat, here=here)


def _clear_doorway(state: GameState, seat: str) -> Result:
    """A wrong accuser's mover standing in front of a door goes into the room, so it blocks nobody."""
    board = state.edition.require_board()
    here = state.position(seat)
    rooms = board.doors[board.index[here]] if here in board.index else ()
    if not rooms:
        return state, ()
    return state.with_position(seat, rooms[0]), (Moved(seat, rooms[0], "cleared"),)

"""The rules engine: ``apply(state, action) -> (state, events)``, pure and deterministic.

``apply`` checks whose turn it is, hands the action to the module for its part
of the turn, and returns the new state with the events it caused. A rejected
action raises a :class:`~companion.rules.errors.ClueError` subclass with a code and
changes nothing (states are immutable).

>>> from companion.rules.actions import Roll, Move, Setup
>>> state, _ = new_game(Setup("classic", ("Miss Scarlet", "Colonel Mustard", "Mrs. White"), seed=7))
>>> state, events = apply(state, Roll("Miss Scarlet", (6,)))
>>> "Lounge" in legal_destinations(state)
True
>>> state, events = apply(state, Move("Miss Scarlet", "lounge"))
>>> [event.to_dict() for event in events]
[{'type': 'moved', 'seat': 'Miss Scarlet', 'to': 'Lounge', 'via': 'roll'}]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import turn
from .accusation import accuse, check_place
from .actions import Accuse, Action, Draw, EndTurn, Move, Pass, PlayCard, Roll, Show, Snoop, Suggest, UsePower
from .bonus_cards import draw, play_card
from .errors import BadInput, Eliminated, GameOver, NotYourTurn, WrongPhase
from .events import Event
from .powers import use_power
from .setup import new_game
from .snoop import snoop
from .state import GameState, Phase
from .suggestion import pass_, show, suggest

__all__ = ["apply", "legal_destinations", "new_game"]

Handler = Callable[[GameState, Any, str], tuple[GameState, tuple[Event, ...]]]


def _handler(action: Action) -> Handler:
    """The function for an action's part of the turn (a match, not a table: no globals)."""
    match action:
        case Roll():
            return turn.roll
        case Move():
            return turn.move
        case Suggest():
            return suggest
        case Accuse():
            return accuse
        case EndTurn():
            return turn.end_turn
        case Show():
            return show
        case Pass():
            return pass_
        case Snoop():
            return snoop
        case Draw():
            return draw
        case PlayCard():
            return play_card
        case UsePower():
            return use_power
    raise BadInput("unknown action {action!r}", action=action)


def apply(state: GameState, action: Action) -> tuple[GameState, tuple[Event, ...]]:
    """Apply one action; raise a typed :class:`ClueError` if the rules refuse it."""
    handler = _handler(action)
    if state.over:
        raise GameOver("the game is over")
    seat = state.seat_named(action.seat)
    before: tuple[Event, ...] = ()
    if not isinstance(action, (Show, Pass)):
        state, before = _take_turn(state, seat, isinstance(action, EndTurn))
        if isinstance(action, Accuse):  # not from here this turn, answer or not: said before "waiting for..."
            check_place(state, seat)
        _check_not_waiting(state)
    state, events = handler(state, action, seat)
    events = before + events
    return state.evolve(log=state.log + events, actions=state.actions + 1), events


def legal_destinations(state: GameState) -> tuple[str, ...]:
    """Every room and square the player on turn may move to now, sorted.

    After a roll: what the roll reaches. Before one: the secret passages out
    of the mover's room. Otherwise nothing.
    """
    if state.over:
        return ()
    return tuple(sorted(turn.destinations(state)))


def _take_turn(state: GameState, seat: str, ending: bool) -> tuple[GameState, tuple[Event, ...]]:
    """Check that ``seat`` may act on the turn now.

    After a wrong accusation the turn is over but for ``end_turn``; if the next
    player acts first, the turn passes to them without one.
    """
    now = state.turn
    if seat in state.eliminated:
        if seat == now.seat and now.phase is Phase.OUT and ending:
            return state, ()
        raise Eliminated("{seat} made a wrong accusation and only answers suggestions now", seat=seat)
    if now.phase is Phase.OUT and seat == turn.next_seat(state):
        return turn.pass_turn(state)
    if seat != now.seat:
        raise NotYourTurn("it is {current}'s turn, not {seat}'s", current=now.seat, seat=seat)
    return state, ()


def _check_not_waiting(state: GameState) -> None:
    """The player on turn waits while a suggestion is being answered."""
    now = state.turn
    if now.phase is Phase.REFUTING and now.refutation is not None:
        raise WrongPhase("waiting for {asked} to answer the suggestion", asked=now.refutation.asked)

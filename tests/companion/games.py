"""Helpers for the scenario tests: a fixed Classic deal and short ways to play.

The standard table is three detectives, clockwise Miss Scarlet, Colonel
Mustard, Mrs. White, with every card placed by hand so that each scenario
knows exactly who can answer what:

=============== ===================================================================
envelope        Professor Plum, Wrench, Kitchen
Miss Scarlet    Miss Scarlet, Candlestick, Ballroom, Conservatory, Dining Room, Lounge
Colonel Mustard Colonel Mustard, Mr. Green, Knife, Lead Pipe, Billiard Room, Library
Mrs. White      Mrs. White, Mrs. Peacock, Revolver, Rope, Hall, Study
=============== ===================================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from companion import (
    Action,
    ClueError,
    DealSpec,
    EndTurn,
    GameState,
    Move,
    Roll,
    Setup,
    Show,
    Suggest,
    apply,
    new_game,
    public_view,
    seat_view,
)

SCARLET = "Miss Scarlet"
MUSTARD = "Colonel Mustard"
WHITE = "Mrs. White"
GREEN = "Mr. Green"
PEACOCK = "Mrs. Peacock"
PLUM = "Professor Plum"

SEATS = (SCARLET, MUSTARD, WHITE)
ENVELOPE = (PLUM, "Wrench", "Kitchen")
SOLUTION = {"suspect": PLUM, "weapon": "Wrench", "room": "Kitchen"}
HANDS: Mapping[str, tuple[str, ...]] = {
    SCARLET: (SCARLET, "Candlestick", "Ballroom", "Conservatory", "Dining Room", "Lounge"),
    MUSTARD: (MUSTARD, GREEN, "Knife", "Lead Pipe", "Billiard Room", "Library"),
    WHITE: (WHITE, PEACOCK, "Revolver", "Rope", "Hall", "Study"),
}
DEAL = DealSpec(ENVELOPE, HANDS)

Events = list[dict[str, Any]]


def start(
    seats: tuple[str, ...] = SEATS,
    deal: DealSpec | None = DEAL,
    seed: int = 7,
    first: str | None = None,
) -> tuple[GameState, Events]:
    """A new Classic game and its setup events as dicts."""
    state, events = new_game(Setup("classic", seats, seed, deal, first))
    return state, [event.to_dict() for event in events]


def game(
    seats: tuple[str, ...] = SEATS,
    deal: DealSpec | None = DEAL,
    seed: int = 7,
    first: str | None = None,
) -> GameState:
    """A new Classic game, ready for the first action (the standard table by default)."""
    return start(seats, deal, seed, first)[0]


def deal_for(seats: tuple[str, str, str]) -> DealSpec:
    """The standard deal, with Scarlet's, Mustard's and White's hands given to ``seats``."""
    return DealSpec(ENVELOPE, {seat: HANDS[old] for seat, old in zip(seats, SEATS)})


def play(state: GameState, *actions: Action | tuple[Action, ...]) -> tuple[GameState, Events]:
    """Apply actions in order (a tuple from :func:`turn` counts as its actions).

    Returns the final state and every event, as dicts, in order.
    """
    events: Events = []
    for action in _flatten(actions):
        state, happened = apply(state, action)
        events.extend(event.to_dict() for event in happened)
    return state, events


def rejected(state: GameState, action: Action) -> str:
    """The error code ``action`` is refused with; fails if it is accepted.

    Also checks that the refusal changed nothing anyone can see.
    """
    before = _snapshot(state)
    with pytest.raises(ClueError) as refusal:
        apply(state, action)
    assert _snapshot(state) == before
    return refusal.value.code


def scarlet_brings_mustard_into_the_lounge() -> tuple[Action, ...]:
    """Scarlet rolls 6 into the Lounge and suggests Mustard with the Knife; he shows her the Knife."""
    return (
        Roll(SCARLET, (6,)),
        Move(SCARLET, "Lounge"),
        Suggest(SCARLET, MUSTARD, "Knife"),
        Show(MUSTARD, "Knife"),
    )


def turn(seat: str, roll: int, to: str) -> tuple[Action, ...]:
    """A plain turn: roll the given number, move, end the turn."""
    return (Roll(seat, (roll,)), Move(seat, to), EndTurn(seat))


def types(events: Events) -> list[str]:
    """The event types, in order."""
    return [event["type"] for event in events]


def of_type(events: Events, kind: str) -> Events:
    """The events of one type, in order."""
    return [event for event in events if event["type"] == kind]


def where(state: GameState, suspect: str) -> str:
    """The square or room of a suspect's mover, as the table sees it."""
    place: str = public_view(state)["position"][suspect]
    return place


def _flatten(actions: Iterable[Action | tuple[Action, ...]]) -> list[Action]:
    flat: list[Action] = []
    for item in actions:
        if isinstance(item, tuple):
            flat.extend(item)
        else:
            flat.append(item)
    return flat


def _snapshot(state: GameState) -> list[dict[str, Any]]:
    return [public_view(state)] + [seat_view(state, seat) for seat in state.seats]

"""Personality powers (Big Bang Theory, Doctor Who): one use per game per seat.

Each suspect's power is an effect from the edition data (``[powers]``), played
on the seat's own turn like a bonus card.
"""

from __future__ import annotations

from .actions import UsePower
from .effects import apply_effect
from .errors import WrongPhase
from .events import Event, PowerUsed
from .state import GameState

Result = tuple[GameState, tuple[Event, ...]]


def use_power(state: GameState, action: UsePower, seat: str) -> Result:
    power = state.edition.powers.get(seat)
    if power is None:
        raise WrongPhase("{seat} has no personality power in {edition}", seat=seat, edition=state.edition.name)
    if seat in state.powers_used:
        raise WrongPhase("{seat} has already used {power} this game", seat=seat, power=power.name)
    state, events = apply_effect(state, seat, power.effect, action.room, action.target, "power")
    state = state.evolve(powers_used=state.powers_used | {seat})
    return state, (PowerUsed(seat, power.name), *events)

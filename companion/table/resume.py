"""Resuming a stored game: replay its committed record to the identical state.

The engine is deterministic (dice and shuffles come from the seed in the
state), so applying the same actions to the same setup gives the same state.
The record was accepted once, action by action; an action the engine refuses
now means the stored record is damaged, never that a player erred.

>>> from companion.rules.actions import Roll, Setup
>>> setup = Setup("classic", ("Miss Scarlet", "Mr. Green", "Mrs. White"), seed=7)
>>> replay_game(setup, [Roll("Miss Scarlet", (6,))]).turn.roll
6
>>> replay_game(setup, [Roll("Mr. Green", (6,))])
Traceback (most recent call last):
...
companion.table.resume.ResumeError: stored action 1 ({"type": "roll", "seat": "Mr. Green", "dice": [6]}) is refused (not_your_turn): it is Miss Scarlet's turn, not Mr. Green's
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from companion.rules.actions import Action, Setup
from companion.rules.engine import apply, new_game
from companion.rules.errors import ClueError
from companion.rules.state import GameState

from .store import Store, StoreError


class ResumeError(StoreError):
    """A stored record that does not replay: the store is damaged."""

    code = "resume"


def replay_game(setup: Setup, actions: Sequence[Action]) -> GameState:
    """The state after ``setup`` and then every action in order."""
    try:
        state, _ = new_game(setup)
    except ClueError as err:
        raise ResumeError(f"the stored setup is refused ({err.code}): {err}") from None
    for number, action in enumerate(actions, start=1):
        try:
            state, _ = apply(state, action)
        except ClueError as err:
            line = json.dumps(action.to_record())
            raise ResumeError(f"stored action {number} ({line}) is refused ({err.code}): {err}") from None
    return state


def resume(store: Store, game_id: int) -> GameState:
    """The state game ``game_id`` had reached when its last action was committed."""
    setup, actions, _ = store.load(game_id)
    try:
        return replay_game(setup, actions)
    except ResumeError as err:
        raise ResumeError(f"game {game_id} in {store.path}: {err}") from None

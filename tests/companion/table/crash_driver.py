"""A game that may be killed at any moment: the child process of the store's crash test.

``python crash_driver.py DB EDITION SEED`` opens the store at DB, plays the
seeded random game and, after each action is committed, prints
``committed N`` (flushed), so the test knows what must have survived.
:func:`seeded_game` is the same game without a store, for comparison.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator

from companion.deduction.playout import choose, random_setup
from companion.rules.actions import Action, Setup
from companion.rules.edition import load_edition
from companion.rules.engine import apply, new_game
from companion.table.store import Store

LIMIT = 5000  # actions; a random game ends long before


def seeded_game(edition: str, seed: int) -> tuple[Setup, Iterator[Action]]:
    """The seeded random game: its setup, and each action as it is accepted."""
    rand = random.Random(seed)
    setup = random_setup(rand, load_edition(edition))

    def actions() -> Iterator[Action]:
        state, _ = new_game(setup)
        for _ in range(LIMIT):
            if state.over:
                return
            action = choose(rand, state)
            state, _ = apply(state, action)
            yield action
        raise RuntimeError(f"the {edition} game of seed {seed} did not end within {LIMIT} actions")

    return setup, actions()


def play(path: str, edition: str, seed: int) -> None:
    """Play the seeded game into the store at ``path``, reporting each commit."""
    setup, actions = seeded_game(edition, seed)
    with Store(path) as store:
        game = store.new_game(setup, {"edition": edition, "seed": str(seed)})
        print(f"game {game}", flush=True)
        for number, action in enumerate(actions, start=1):
            store.append(game, number, action)
            print(f"committed {number}", flush=True)
        store.finish(game)
        print("finished", flush=True)


if __name__ == "__main__":
    play(sys.argv[1], sys.argv[2], int(sys.argv[3]))

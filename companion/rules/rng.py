"""Seeded randomness kept in the game state: splitmix64, as a pure function.

The engine never touches the global ``random`` module: each draw takes the
generator's state and returns the value with the next state, so a game log
replays exactly, on any Python version.

>>> value, state = below(7, 6)
>>> value, below(7, 6) == (value, state)
(3, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
MASK = (1 << 64) - 1


def seeded(seed: int) -> int:
    """The generator state for a game's seed (any integer)."""
    return seed & MASK


def next_u64(state: int) -> tuple[int, int]:
    """One 64-bit draw and the following state."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31), state


def below(state: int, bound: int) -> tuple[int, int]:
    """A uniform integer in ``range(bound)``, by rejection so no value is favoured."""
    limit = (1 << 64) - (1 << 64) % bound
    while True:
        value, state = next_u64(state)
        if value < limit:
            return value % bound, state


def shuffled(state: int, items: Sequence[T]) -> tuple[tuple[T, ...], int]:
    """A Fisher-Yates shuffle of ``items``."""
    result = list(items)
    for top in range(len(result) - 1, 0, -1):
        pick, state = below(state, top + 1)
        result[top], result[pick] = result[pick], result[top]
    return tuple(result), state


def dice(state: int, count: int) -> tuple[tuple[int, ...], int]:
    """``count`` six-sided dice."""
    faces = []
    for _ in range(count):
        face, state = below(state, 6)
        faces.append(face + 1)
    return tuple(faces), state

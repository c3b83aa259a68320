"""Helpers for the Master Detective scenario tests: a fixed deal, scenes, and a naive mover.

The standard table is four detectives, clockwise Miss Scarlet, Colonel
Mustard, Mrs. White, Mr. Green; the 27 cards left after the envelope are
placed by hand (hands of 7, 7, 7 and 6: "some players may receive more cards
than others"), so each scenario knows who can answer what:

=============== ===========================================================================
envelope        Madame Rose, Horseshoe, Library
Miss Scarlet    Miss Scarlet, Candlestick, Knife, Carriage House, Conservatory, Kitchen, Trophy Room
Colonel Mustard Colonel Mustard, Mr. Green, Lead Pipe, Revolver, Dining Room, Drawing Room, Fountain
Mrs. White      Mrs. White, Mrs. Peacock, Professor Plum, Rope, Billiard Room, Studio, Courtyard
Mr. Green       Sergeant Gray, Monsieur Brunette, Miss Peach, Wrench, Poison, Gazebo
=============== ===========================================================================

:func:`naive_destinations` is a deliberately plain re-statement of the
movement rules (rulebook, seed 003), written from the map text alone and
sharing no code with :mod:`companion.rules.movement`: it walks every path, prunes
nothing, and collects where each walk may end.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import Any

from companion import DealSpec, GameState, Setup, new_game
from companion.rules.state import Turn

EDITION = "master_detective"

SCARLET = "Miss Scarlet"
MUSTARD = "Colonel Mustard"
WHITE = "Mrs. White"
GREEN = "Mr. Green"
PEACOCK = "Mrs. Peacock"
PLUM = "Professor Plum"
GRAY = "Sergeant Gray"
ROSE = "Madame Rose"
BRUNETTE = "Monsieur Brunette"
PEACH = "Miss Peach"
SUSPECTS = (SCARLET, MUSTARD, WHITE, GREEN, PEACOCK, PLUM, GRAY, ROSE, BRUNETTE, PEACH)

SEATS = (SCARLET, MUSTARD, WHITE, GREEN)
ENVELOPE = (ROSE, "Horseshoe", "Library")
SOLUTION = {"suspect": ROSE, "weapon": "Horseshoe", "room": "Library"}
HANDS: Mapping[str, tuple[str, ...]] = {
    SCARLET: (SCARLET, "Candlestick", "Knife", "Carriage House", "Conservatory", "Kitchen", "Trophy Room"),
    MUSTARD: (MUSTARD, GREEN, "Lead Pipe", "Revolver", "Dining Room", "Drawing Room", "Fountain"),
    WHITE: (WHITE, PEACOCK, PLUM, "Rope", "Billiard Room", "Studio", "Courtyard"),
    GREEN: (GRAY, BRUNETTE, PEACH, "Wrench", "Poison", "Gazebo"),
}
DEAL = DealSpec(ENVELOPE, HANDS)

Events = list[dict[str, Any]]


def start(
    seats: tuple[str, ...] = SEATS,
    deal: DealSpec | None = DEAL,
    seed: int = 7,
    first: str | None = SCARLET,
) -> tuple[GameState, Events]:
    """A new Master Detective game and its setup events as dicts (Scarlet starts unless told)."""
    state, events = new_game(Setup(EDITION, seats, seed, deal, first))
    return state, [event.to_dict() for event in events]


def game(seed: int = 7, first: str | None = SCARLET) -> GameState:
    """The standard table, ready for the first action."""
    return start(seed=seed, first=first)[0]


def scene(on_turn: str = SCARLET, seed: int = 7, **places: str) -> GameState:
    """The standard table with movers placed by hand and ``on_turn`` about to start a turn.

    ``places`` maps a suspect's first or last name (``scarlet=``, ``mustard=``...)
    to a square or room.
    """
    state = game(seed)
    for key, place in places.items():
        state = state.with_position(_suspect(key), place)
    return state.evolve(turn=Turn(on_turn))


def _suspect(key: str) -> str:
    matches = [suspect for suspect in SUSPECTS if key.lower() in suspect.lower().split()]
    assert len(matches) == 1, key
    return matches[0]


# -- the naive mover -------------------------------------------------------------

ROOM_LETTERS = {
    "K": "Kitchen", "T": "Trophy Room", "A": "Carriage House", "C": "Conservatory", "N": "Dining Room",
    "B": "Billiard Room", "G": "Gazebo", "Y": "Courtyard", "R": "Drawing Room", "S": "Studio",
    "F": "Fountain", "L": "Library", "W": "Cloakroom",
}
WALKABLE = ".*<>"  # hallway, snoop space, Basement Stairs, Garden Walk
COLUMNS = "abcdefghijklmnopqrstuvwxyz"


def _read_map() -> tuple[frozenset[str], frozenset[str], dict[str, frozenset[str]]]:
    """Hallway squares, snoop spaces and the neighbours of every square and room, from the map text."""
    text = resources.files("companion.rules.editions").joinpath("master_detective.txt").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.strip() and line != "#" and not line.startswith("# ")]
    grid = {(r, c): char for r, line in enumerate(rows) for c, char in enumerate(line)}

    def name(r: int, c: int) -> str:
        return f"{COLUMNS[c]}{r + 1}"

    links: dict[str, set[str]] = {}

    def link(one: str, other: str) -> None:
        links.setdefault(one, set()).add(other)
        links.setdefault(other, set()).add(one)

    for (r, c), char in grid.items():
        for dr, dc in ((0, 1), (1, 0), (-1, 0), (0, -1)):
            other = grid.get((r + dr, c + dc))
            if other is None or other not in WALKABLE:
                continue
            if char in WALKABLE:  # hallway step
                link(name(r, c), name(r + dr, c + dc))
            elif char.islower() and char.upper() in ROOM_LETTERS:  # through a door: one step
                link(ROOM_LETTERS[char.upper()], name(r + dr, c + dc))
    spot = {char: name(r, c) for (r, c), char in grid.items() if char in "<>"}
    # "Drawing Room and Conservatory; Library and Kitchen; and Basement Stairs and Garden Walk."
    for one, other in (("Drawing Room", "Conservatory"), ("Library", "Kitchen"), (spot["<"], spot[">"])):
        link(one, other)
    squares = frozenset(name(r, c) for (r, c), char in grid.items() if char in WALKABLE)
    snoops = frozenset(name(r, c) for (r, c), char in grid.items() if char == "*")
    return squares, snoops, {place: frozenset(near) for place, near in links.items()}


SQUARES, SNOOP_SPACES, NEIGHBOURS = _read_map()
PLACES = tuple(sorted(SQUARES)) + tuple(ROOM_LETTERS.values())


def naive_destinations(
    start: str, steps: int, occupied: frozenset[str] = frozenset(), avoid: frozenset[str] = frozenset()
) -> frozenset[str]:
    """Where a mover at ``start`` may end a move of ``steps``, by trying every walk.

    A walk never enters a place twice (its start included) nor one in ``avoid``.
    It may cross occupied squares, rooms and secret passages, each one step.
    It ends: on any room it enters (no exact roll), on any free snoop space it
    reaches (stop there with steps to spare), on a free square after exactly
    ``steps``, or one square short of a mover its exact count would land on.
    """
    found: set[str] = set()

    def walk(here: str, left: int, seen: frozenset[str]) -> None:
        if here != start and (here not in SQUARES or (here in SNOOP_SPACES and here not in occupied)):
            found.add(here)
        if left == 0:
            if here != start and here in SQUARES and here not in occupied:
                found.add(here)
            return
        for there in NEIGHBOURS.get(here, ()):
            if there in seen or there in avoid:
                continue
            short = here != start and here in SQUARES and here not in occupied
            if left == 1 and there in occupied and short:
                found.add(here)  # "you must stop one space behind the other player's token"
            walk(there, left - 1, seen | {there})

    walk(start, steps, frozenset({start}))
    return frozenset(found)

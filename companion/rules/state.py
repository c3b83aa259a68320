"""The game state: immutable records, replaced (never changed) by each action.

Only :mod:`companion.rules.views` lets state out of the engine, so nothing here is
shaped for display.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Self

from .cards import CardList
from .edition import Edition
from .errors import UnknownCard, UnknownSeat
from .events import Event


class Evolving:
    """``evolve(**changes)``: a copy with some fields changed, like ``dataclasses.replace``.

    ``replace`` re-runs ``__init__`` over every field and was the largest cost
    of ``apply``; copying the instance dict is several times faster. There is
    no ``__post_init__`` to skip, and unknown field names are still refused.
    """

    def evolve(self, **changes: Any) -> Self:
        unknown = changes.keys() - getattr(self, "__dataclass_fields__").keys()
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field(s) {', '.join(sorted(unknown))}")
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        return copy


class Phase(StrEnum):
    """Where the player on turn is within the turn."""

    START = "start"  # nothing done yet: roll, take a passage, or (if summoned) suggest
    MOVING = "moving"  # rolled: choose where to go
    MOVED = "moved"  # moved, or blocked in: suggest if a room was entered, accuse, end
    REFUTING = "refuting"  # waiting for a seat to show a card
    SUGGESTED = "suggested"  # suggestion settled: accuse or end
    OUT = "out"  # just accused wrongly: the turn can only end
    OVER = "over"


@dataclass(frozen=True)
class Solution:
    suspect: str
    weapon: str
    room: str

    def cards(self) -> tuple[str, str, str]:
        return (self.suspect, self.weapon, self.room)


@dataclass(frozen=True)
class Suggestion:
    suggester: str
    suspect: str
    weapon: str
    room: str

    def cards(self) -> tuple[str, str, str]:
        return (self.suspect, self.weapon, self.room)


@dataclass(frozen=True)
class Refutation(Evolving):
    """A suggestion being answered: who must show now, who is still to be asked."""

    suggestion: Suggestion
    asked: str | None
    queue: tuple[str, ...]
    shown: bool = False


Face = int | str  # a die face: 1 to 6, or "?" on Doctor Who's question die
QUESTION = "?"


@dataclass(frozen=True)
class Turn(Evolving):
    seat: str
    phase: Phase = Phase.START
    dice: tuple[Face, ...] | None = None
    left_room: str | None = None  # may not be re-entered this turn
    entered: str | None = None  # the room entered this turn, where a suggestion may be made
    refutation: Refutation | None = None  # this turn's suggestion, answered or not
    moves_left: int | None = None  # steps still to move (a roll, less a stop part-way)
    used: frozenset[str] = frozenset()  # places the mover may not enter again this turn
    snoop_at: str | None = None  # the snoop space the mover stands on, not yet used
    may_stop: bool = False  # stopped part-way where the whole roll could also have ended

    @property
    def roll(self) -> int | None:
        """Steps to move now: the dice's numbers (a "?" moves nothing), less any used."""
        if self.moves_left is not None:
            return self.moves_left
        return sum(face for face in self.dice if isinstance(face, int)) if self.dice is not None else None


@dataclass(frozen=True)
class Shown:
    by: str
    to: str
    card: str


@dataclass(frozen=True)
class Seen:
    """A card one seat saw by itself: snooped from another's hand, or a side card."""

    seat: str
    card: str
    source: str  # the seat it was taken from, or "aside"
    index: int | None = None  # the side card's place in the row


@dataclass(frozen=True)
class Bonus(Evolving):
    """The bonus deck in play: Sheldon Cards, Intrigue Cards (physical card ids)."""

    pile: tuple[str, ...]  # top first
    discard: tuple[str, ...] = ()
    held: tuple[tuple[str, str], ...] = ()  # (seat, card id) kept to play later
    watches: tuple[str, ...] = ()  # Pocketwatches lying face up

    def held_by(self, seat: str) -> tuple[str, ...]:
        return tuple(card for holder, card in self.held if holder == seat)


@dataclass(frozen=True)
class GameState(Evolving):
    """Everything about one game. Tuples of places line up with the edition's cards."""

    edition: Edition
    seats: tuple[str, ...]
    envelope: Solution
    hands: tuple[tuple[str, ...], ...]  # in seat order
    face_up: tuple[str, ...]
    positions: tuple[str, ...]  # each suspect's mover: a square or a room name
    weapons: tuple[str, ...]  # each weapon token: a room, or where it waits off the board
    turn: Turn
    rng: int
    eliminated: tuple[str, ...] = ()
    summoned: frozenset[str] = frozenset()  # moved into a room by another's suggestion
    shown: tuple[Shown, ...] = ()
    log: tuple[Event, ...] = ()
    winner: str | None = None
    actions: int = 0  # accepted actions so far: the state's id in the game's log
    variant: str | None = None  # "two_player"
    aside: tuple[str, ...] = ()  # the two-player variant's four face-down side cards
    seen: tuple[Seen, ...] = ()  # snooped and side cards, each private to its seat
    bonus: Bonus | None = None  # None: no bonus deck in this game
    may_draw: frozenset[str] = frozenset()  # seats owed an optional draw (brought in by a rumour)
    powers_used: frozenset[str] = frozenset()
    revealed: tuple[str, ...] = ()  # seats whose hands lie face up for everyone

    @property
    def over(self) -> bool:
        return self.turn.phase is Phase.OVER

    def seat_named(self, name: object) -> str:
        """The seat ``name`` means (any spelling the deck accepts), or :class:`UnknownSeat`."""
        try:
            seat = self.edition.deck.resolve(name, "suspect")
        except UnknownCard:
            seat = ""
        if seat not in self.seats:
            raise UnknownSeat("{name!r} is not seated; seats: {seats}", name=name, seats=CardList(self.seats))
        return seat

    def hand(self, seat: str) -> tuple[str, ...]:
        return self.hands[self.seats.index(seat)]

    def position(self, suspect: str) -> str:
        return self.positions[self.edition.deck.suspects.index(suspect)]

    def with_position(self, suspect: str, place: str) -> GameState:
        index = self.edition.deck.suspects.index(suspect)
        return self.evolve(positions=self.positions[:index] + (place,) + self.positions[index + 1 :])

    def with_weapon(self, weapon: str, place: str) -> GameState:
        index = self.edition.deck.weapons.index(weapon)
        return self.evolve(weapons=self.weapons[:index] + (place,) + self.weapons[index + 1 :])

    def occupied(self, but: str) -> frozenset[str]:
        """Hallway squares holding a mover other than ``but``'s."""
        board = self.edition.require_board()
        return frozenset(
            place
            for suspect, place in zip(self.edition.deck.suspects, self.positions)
            if suspect != but and place in board.index
        )

    def clockwise_from(self, seat: str) -> tuple[str, ...]:
        """The other seats in order, starting on ``seat``'s left."""
        at = self.seats.index(seat)
        return self.seats[at + 1 :] + self.seats[:at]

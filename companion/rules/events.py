"""What happened: the events ``apply`` returns, as small typed records.

Events carry everything, secrets included; :mod:`companion.rules.views` decides what
each viewer may see of them.

>>> CardShown(by="Mrs. White", to="Miss Scarlet", card="Rope").to_dict()
{'type': 'card_shown', 'by': 'Mrs. White', 'to': 'Miss Scarlet', 'card': 'Rope'}
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    type: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data, ``type`` first."""
        data: dict[str, Any] = {"type": self.type}
        for item in fields(self):
            value = getattr(self, item.name)
            data[item.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True)
class GameStarted(Event):
    type: ClassVar[str] = "game_started"
    edition: str
    name: str
    seats: tuple[str, ...]
    face_up: tuple[str, ...]


@dataclass(frozen=True)
class CardsDealt(Event):
    """A seat's hand; secret to everyone but that seat."""

    type: ClassVar[str] = "cards_dealt"
    seat: str
    cards: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "count": len(self.cards), "cards": list(self.cards)}


@dataclass(frozen=True)
class TurnStarted(Event):
    type: ClassVar[str] = "turn_started"
    seat: str


@dataclass(frozen=True)
class Rolled(Event):
    type: ClassVar[str] = "rolled"
    seat: str
    dice: tuple[int | str, ...]
    total: int  # the steps to move: a "?" face counts nothing


@dataclass(frozen=True)
class Blocked(Event):
    """The roll leaves the mover nowhere to go: it stays where it is."""

    type: ClassVar[str] = "blocked"
    seat: str


@dataclass(frozen=True)
class Moved(Event):
    """A mover changed place; ``via`` is roll, passage, suggestion or cleared."""

    type: ClassVar[str] = "moved"
    seat: str
    to: str
    via: str


@dataclass(frozen=True)
class WeaponMoved(Event):
    type: ClassVar[str] = "weapon_moved"
    weapon: str
    to: str


@dataclass(frozen=True)
class Suggested(Event):
    type: ClassVar[str] = "suggested"
    seat: str
    suspect: str
    weapon: str
    room: str


@dataclass(frozen=True)
class Passed(Event):
    type: ClassVar[str] = "passed"
    seat: str


@dataclass(frozen=True)
class RefuteRequested(Event):
    type: ClassVar[str] = "refute_requested"
    seat: str
    suggester: str


@dataclass(frozen=True)
class CardShown(Event):
    """A card shown to the suggester alone; others learn only that one was shown."""

    type: ClassVar[str] = "card_shown"
    by: str
    to: str
    card: str


@dataclass(frozen=True)
class NoRefutation(Event):
    type: ClassVar[str] = "no_refutation"
    suggester: str


@dataclass(frozen=True)
class Accused(Event):
    type: ClassVar[str] = "accused"
    seat: str
    suspect: str
    weapon: str
    room: str
    correct: bool


@dataclass(frozen=True)
class EliminatedSeat(Event):
    type: ClassVar[str] = "eliminated"
    seat: str


@dataclass(frozen=True)
class GameEnded(Event):
    """The game is over; the solution is revealed to everyone."""

    type: ClassVar[str] = "game_over"
    winner: str | None
    suspect: str
    weapon: str
    room: str

    def to_dict(self) -> dict[str, Any]:
        solution = {"suspect": self.suspect, "weapon": self.weapon, "room": self.room}
        return {"type": self.type, "winner": self.winner, "solution": solution}


@dataclass(frozen=True)
class Snooped(Event):
    """A card seen blind from ``target``'s hand; the card is secret to ``seat``."""

    type: ClassVar[str] = "snooped"
    seat: str
    target: str
    card: str


@dataclass(frozen=True)
class SideCardSeen(Event):
    """Two-player variant: a side card looked at; the card is secret to ``seat``."""

    type: ClassVar[str] = "side_card_seen"
    seat: str
    index: int
    card: str


@dataclass(frozen=True)
class Drew(Event):
    type: ClassVar[str] = "drew"
    seat: str
    deck: str
    card_id: str


@dataclass(frozen=True)
class CardPlayed(Event):
    type: ClassVar[str] = "card_played"
    seat: str
    card_id: str


@dataclass(frozen=True)
class PowerUsed(Event):
    type: ClassVar[str] = "power_used"
    seat: str
    power: str


@dataclass(frozen=True)
class HandRevealed(Event):
    """A seat's hand laid face up for everyone (Doctor Who: the 8th Pocketwatch)."""

    type: ClassVar[str] = "hand_revealed"
    seat: str
    cards: tuple[str, ...]

"""The actions a game is made of: small typed records, one per line of a game record.

Names inside an action are as the player typed them; the engine resolves them
against the edition (case-insensitively) when it applies the action.

>>> Suggest("Miss Scarlet", "Mrs. White", "Rope").to_record()
{'type': 'suggest', 'seat': 'Miss Scarlet', 'suspect': 'Mrs. White', 'weapon': 'Rope'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class _Record:
    type: ClassVar[str]

    def to_record(self) -> dict[str, Any]:
        """The action as a game-record line (a JSON-ready dict)."""
        record: dict[str, Any] = {"type": self.type}
        for item in fields(self):
            value = getattr(self, item.name)
            if value is not None:
                record[item.name] = list(value) if isinstance(value, tuple) else value
        return record


@dataclass(frozen=True)
class Roll(_Record):
    """Roll the dice; ``dice`` gives the faces a physical roll showed."""

    type: ClassVar[str] = "roll"
    seat: str
    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Move(_Record):
    """Move to a room or square; before any roll, through a secret passage."""

    type: ClassVar[str] = "move"
    seat: str
    to: str


@dataclass(frozen=True)
class Suggest(_Record):
    """Suggest a suspect and weapon in the room the suggester is in."""

    type: ClassVar[str] = "suggest"
    seat: str
    suspect: str
    weapon: str


@dataclass(frozen=True)
class Show(_Record):
    """Show the suggester one named card."""

    type: ClassVar[str] = "show"
    seat: str
    card: str


@dataclass(frozen=True)
class Pass(_Record):
    """Say "I cannot answer"."""

    type: ClassVar[str] = "pass"
    seat: str


@dataclass(frozen=True)
class Accuse(_Record):
    """Name suspect, weapon and room; right wins, wrong is out."""

    type: ClassVar[str] = "accuse"
    seat: str
    suspect: str
    weapon: str
    room: str


@dataclass(frozen=True)
class EndTurn(_Record):
    """Hand the turn to the next player clockwise."""

    type: ClassVar[str] = "end_turn"
    seat: str


Action = Roll | Move | Suggest | Show | Pass | Accuse | EndTurn
ACTIONS: tuple[type[Action], ...] = (Roll, Move, Suggest, Show, Pass, Accuse, EndTurn)


@dataclass(frozen=True)
class DealSpec:
    """A deal fixed in advance (from a physical shuffle, or a test)."""

    envelope: tuple[str, ...]
    hands: Mapping[str, tuple[str, ...]]
    face_up: tuple[str, ...] = ()

    def to_record(self) -> dict[str, Any]:
        return {
            "envelope": list(self.envelope),
            "hands": {seat: list(cards) for seat, cards in self.hands.items()},
            "face_up": list(self.face_up),
        }


@dataclass(frozen=True)
class Setup:
    """The first line of a game record: edition, seats clockwise, seed, optional deal."""

    edition: str
    seats: tuple[str, ...]
    seed: int = 0
    deal: DealSpec | None = None
    first: str | None = None

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"type": "setup", "edition": self.edition, "seats": list(self.seats)}
        record["seed"] = self.seed
        if self.deal is not None:
            record["deal"] = self.deal.to_record()
        if self.first is not None:
            record["first"] = self.first
        return record

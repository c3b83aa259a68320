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
    dice: tuple[int | str, ...] | None = None  # "?" is Doctor Who's question face


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


@dataclass(frozen=True)
class Snoop(_Record):
    """On a snoop space: look at one card of ``target``'s, drawn blind (Master Detective)."""

    type: ClassVar[str] = "snoop"
    seat: str
    target: str


@dataclass(frozen=True)
class Draw(_Record):
    """Take the draw one is owed from the bonus deck (Doctor Who: brought in by a rumour)."""

    type: ClassVar[str] = "draw"
    seat: str


@dataclass(frozen=True)
class PlayCard(_Record):
    """Play a kept bonus card; ``room`` or ``target`` when its effect needs a choice."""

    type: ClassVar[str] = "play_card"
    seat: str
    card_id: str
    room: str | None = None
    target: str | None = None


@dataclass(frozen=True)
class UsePower(_Record):
    """Use the seat's once-per-game personality power."""

    type: ClassVar[str] = "use_power"
    seat: str
    room: str | None = None
    target: str | None = None


Action = Roll | Move | Suggest | Show | Pass | Accuse | EndTurn | Snoop | Draw | PlayCard | UsePower
ACTIONS: tuple[type[Action], ...] = (Roll, Move, Suggest, Show, Pass, Accuse, EndTurn, Snoop, Draw, PlayCard, UsePower)


@dataclass(frozen=True)
class DealSpec:
    """A deal fixed in advance (from a physical shuffle, or a test)."""

    envelope: tuple[str, ...]
    hands: Mapping[str, tuple[str, ...]]
    face_up: tuple[str, ...] = ()
    aside: tuple[str, ...] = ()  # the two-player variant's side cards, in their row's order

    def to_record(self) -> dict[str, Any]:
        record = {
            "envelope": list(self.envelope),
            "hands": {seat: list(cards) for seat, cards in self.hands.items()},
            "face_up": list(self.face_up),
        }
        if self.aside:
            record["aside"] = list(self.aside)
        return record


@dataclass(frozen=True)
class Setup:
    """The first line of a game record: edition, seats clockwise, seed, optional deal."""

    edition: str
    seats: tuple[str, ...]
    seed: int = 0
    deal: DealSpec | None = None
    first: str | None = None
    variant: str | None = None  # "two_player": side cards, no bonus deck
    bonus_cards: bool = True  # False: the bonus deck stays in the box ("original CLUE")

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"type": "setup", "edition": self.edition, "seats": list(self.seats)}
        record["seed"] = self.seed
        if self.deal is not None:
            record["deal"] = self.deal.to_record()
        if self.first is not None:
            record["first"] = self.first
        if self.variant is not None:
            record["variant"] = self.variant
        if not self.bonus_cards:
            record["bonus_cards"] = False
        return record

"""Tags: which tagged card, mover or weapon token a tag UID stands for.

Every physical piece carries an NFC tag. Enrolment (``clue-companion enroll``)
builds a :class:`TagMap` per edition, kept in the store; the session uses it to
turn "reader 3 sees 04:A2:1B:3C" into "the Rope card" or "Miss Scarlet's mover".
A piece may have several tags (spares), a tag only one piece.

>>> tags = TagMap({"04:A2:1B:3C": Piece("card", "Rope")})
>>> tags.piece("04:a2:1b:3c")
Piece(kind='card', name='Rope')
>>> tags.piece("04:00:00:01") is None
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

from companion.rules.errors import ClueError

Kind = Literal["card", "mover", "weapon"]
KINDS: tuple[Kind, ...] = ("card", "mover", "weapon")


class TagError(ClueError, ValueError):
    """A tag that cannot be used: unknown, already enrolled to another piece, unreadable."""

    code = "tag"


@dataclass(frozen=True, order=True)
class Piece:
    """One physical piece: a playing card, a suspect's mover, or a weapon token."""

    kind: Kind
    name: str  # the edition's card name: "Rope", "Miss Scarlet", "Kitchen"

    def describe(self) -> str:
        """How players call it: "the Rope card", "Miss Scarlet's mover", "the Rope token"."""
        if self.kind == "card":
            return f"the {self.name} card"
        if self.kind == "mover":
            return f"{self.name}'s mover"
        return f"the {self.name} token"


def normal_uid(uid: str) -> str:
    """A UID as the link writes it: upper-case hex pairs joined by colons."""
    return uid.strip().upper()


class TagMap:
    """UID -> piece, read-only once built."""

    def __init__(self, pieces: Mapping[str, Piece] | None = None) -> None:
        self._pieces = {normal_uid(uid): piece for uid, piece in (pieces or {}).items()}

    def piece(self, uid: str) -> Piece | None:
        return self._pieces.get(normal_uid(uid))

    def uids(self, piece: Piece) -> tuple[str, ...]:
        """Every tag enrolled for ``piece`` (the first enrolled first, then spares)."""
        return tuple(uid for uid, held in self._pieces.items() if held == piece)

    def pieces(self) -> frozenset[Piece]:
        return frozenset(self._pieces.values())

    def items(self) -> Iterator[tuple[str, Piece]]:
        return iter(self._pieces.items())

    def __len__(self) -> int:
        return len(self._pieces)

    def __contains__(self, uid: object) -> bool:
        return isinstance(uid, str) and normal_uid(uid) in self._pieces

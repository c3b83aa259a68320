"""Tag enrolment: the guided flow that learns which tag is on which piece.

Pure: it is told what the readers see (:meth:`Enrolment.tag_placed`,
:meth:`Enrolment.tag_removed`) and answers with :class:`Message` s to show.
The command (``companion/cli/enroll.py``) brings the board's events in and
saves each piece in the store as soon as its vote is decided.

Each piece is tapped ``reads`` times, lifted off between taps; the UID read
more than half of the time wins. A tag that is already another piece's, or
two tags on the readers at once, is refused and that read does not count.

>>> flow = Enrolment("classic", TagMap(), [Piece("card", "Rope")], reads=2)
>>> flow.prompt()
'Tap the Rope card on any reader (read 1 of 2)'
>>> [m.text for m in flow.tag_placed(3, "04:a2:1b:3c")]
['Read 1 of 2: 04:A2:1B:3C', 'Lift it off the reader']
>>> [m.text for m in flow.tag_removed(3, "04:A2:1B:3C") + flow.tag_placed(0, "04:A2:1B:3C")]
['Tap the Rope card on any reader (read 2 of 2)', 'The Rope card is 04:A2:1B:3C (2 of 2 reads)']
>>> flow.done, flow.results
(True, {Piece(kind='card', name='Rope'): '04:A2:1B:3C'})
"""

from __future__ import annotations

import difflib
import shlex
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from companion.rules.cards import normalise
from companion.rules.edition import Edition, load_edition
from companion.rules.errors import BadInput

from .tags import KINDS, Kind, Piece, TagError, TagMap, normal_uid

Mode = Literal["enrol", "spare", "redo"]
MODES: tuple[Mode, ...] = ("enrol", "spare", "redo")
# What people type before a piece's name to say which kind of piece they mean.
PREFIXES: dict[str, Kind] = {"card": "card", "mover": "mover", "token": "weapon", "weapon": "weapon"}


@dataclass(frozen=True)
class Message:
    """One line to show: a prompt, a read or decision ("ok"), or a refusal ("error")."""

    text: str
    kind: Literal["prompt", "ok", "error"]
    piece: Piece | None = None
    uid: str | None = None

    def __str__(self) -> str:
        return self.text


def pieces_of(edition: Edition, kinds: Iterable[str] = KINDS) -> tuple[Piece, ...]:
    """Every tagged piece of ``edition`` of the given kinds: the cards (suspects,
    weapons, rooms), then the movers, then the weapon tokens.

    >>> classic = load_edition("classic")
    >>> len(pieces_of(classic)), pieces_of(classic, ["mover"])[0]
    (33, Piece(kind='mover', name='Miss Scarlet'))
    """
    wanted = set(kinds)
    unknown = sorted(wanted - set(KINDS))
    if unknown:
        raise TagError(f"unknown kind of piece {unknown[0]!r}; expected one of: {', '.join(KINDS)}")
    deck = edition.deck
    names = {"card": deck.all, "mover": deck.suspects, "weapon": deck.weapons}
    return tuple(Piece(kind, name) for kind in KINDS if kind in wanted for name in names[kind])


def find_piece(edition: Edition, name: str, kind: str | None = None) -> Piece:
    """The piece a person names: "Rope" (a card), "mover:Miss Scarlet", "token:Rope",
    or a bare name with ``kind`` ("card", "mover", "token").

    >>> find_piece(load_edition("classic"), "mover:miss scarlet")
    Piece(kind='mover', name='Miss Scarlet')
    >>> find_piece(load_edition("classic"), "Ropee")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    companion.table.tags.TagError: no card 'Ropee' in Classic CLUE (did you mean Rope?); cards are: Miss Scarlet, ...
    """
    prefix, colon, rest = name.partition(":")
    if colon and prefix.strip().casefold() in PREFIXES:
        kind, name = prefix.strip().casefold(), rest
    kind = kind or "card"
    if kind not in PREFIXES:
        raise TagError(f"unknown kind of piece {kind!r} for {name!r}; expected card, mover or token")
    piece_kind = PREFIXES[kind]
    candidates = [piece.name for piece in pieces_of(edition, [piece_kind])]
    aliases = {normalise(alias): printed for alias, printed in edition.deck.aliases.items()}
    key = normalise(aliases.get(normalise(name), name))
    for candidate in candidates:
        if normalise(candidate) == key:
            return Piece(piece_kind, candidate)
    raise TagError(_unknown_name(edition, name, piece_kind, candidates))


def _unknown_name(edition: Edition, name: str, kind: Kind, candidates: Sequence[str]) -> str:
    label = {"card": "card", "mover": "mover", "weapon": "weapon token"}[kind]
    by_key = {normalise(candidate): candidate for candidate in candidates}
    close = [by_key[key] for key in difflib.get_close_matches(normalise(name), list(by_key), n=3)]
    # The right name for another kind of piece: "mover:Rope" is most likely the Rope token.
    close += [piece_argument(piece) for piece in pieces_of(edition)
              if piece.kind != kind and normalise(piece.name) == normalise(name)]
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return f"no {label} {name.strip()!r} in {edition.name}{hint}; {label}s are: {', '.join(candidates)}"


def piece_argument(piece: Piece) -> str:
    """How to name ``piece`` on the command line (``--redo``, ``--spare``).

    >>> piece_argument(Piece("mover", "Miss Scarlet")), piece_argument(Piece("card", "Rope"))
    ("'mover:Miss Scarlet'", 'Rope')
    """
    prefix = {"card": "", "mover": "mover:", "weapon": "token:"}[piece.kind]
    return shlex.quote(prefix + piece.name)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


class Enrolment:
    """The guided flow for a list of pieces, one at a time.

    ``tags`` is what is enrolled already; ``pieces`` defaults to every piece of
    the edition without a tag in mode "enrol", and to every piece in modes
    "spare" (add one more tag to each) and "redo" (replace each one's tags).
    """

    def __init__(self, edition: str, tags: TagMap, pieces: Iterable[Piece] | None = None, *,
                 reads: int = 3, mode: str = "enrol") -> None:
        self.edition = load_edition(edition)
        if mode not in MODES:
            raise BadInput(f"unknown enrolment mode {mode!r}; expected one of: {', '.join(MODES)}")
        if isinstance(reads, bool) or not isinstance(reads, int) or reads < 1:
            raise BadInput(f"reads must be a whole number of at least 1, not {reads!r}")
        self.mode: Mode = next(known for known in MODES if known == mode)
        self.reads = reads
        self._owners = dict(tags.items())
        everything = pieces_of(self.edition)
        if pieces is None:
            have = tags.pieces()
            pieces = [p for p in everything if p not in have] if mode == "enrol" else everything
        self.pieces = tuple(pieces)
        self._check_pieces(everything, tags)
        self.results: dict[Piece, str] = {}
        self.skipped: list[Piece] = []
        self._index = 0
        self._reads: list[str] = []
        self._on: set[tuple[int, str]] = set()
        self._counted: tuple[int, str] | None = None  # the tag whose read is the latest, while it lies there
        self._said = self.prompt()

    def _check_pieces(self, everything: Sequence[Piece], tags: TagMap) -> None:
        for piece in self.pieces:
            if piece not in everything:
                raise TagError(f"{piece.describe()} is not a piece of {self.edition.name}")
            if self.mode == "enrol" and tags.uids(piece):
                argument = piece_argument(piece)
                raise TagError(f"{piece.describe()} already has a tag ({', '.join(tags.uids(piece))}); "
                               f"add another with --spare {argument} or replace it with --redo {argument}")
        if len(set(self.pieces)) != len(self.pieces):
            raise TagError("a piece is listed twice; list each piece once")

    # ---- what the command asks ------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self._index >= len(self.pieces)

    @property
    def piece(self) -> Piece | None:
        """The piece being enrolled now (None once done)."""
        return None if self.done else self.pieces[self._index]

    def progress(self) -> tuple[int, int]:
        """(pieces dealt with, pieces in all); a skipped piece counts as dealt with."""
        return self._index, len(self.pieces)

    def prompt(self) -> str:
        """What the player should do now."""
        piece = self.piece
        if piece is None:
            return "All done"
        if len(self._on) > 1:
            return f"Lift all {len(self._on)} tags off the readers"
        if self._on:
            return "Lift it off the reader"
        what = {"enrol": piece.describe(), "redo": piece.describe(),
                "spare": f"a spare tag for {piece.describe()}"}[self.mode]
        return f"Tap {what} on any reader (read {len(self._reads) + 1} of {self.reads})"

    # ---- what the readers see ------------------------------------------------------------

    def tag_placed(self, reader: int, uid: str) -> list[Message]:
        """A tag landed on ``reader``: one read, if it is the only tag there is."""
        key = (reader, normal_uid(uid))
        alone = not self._on
        self._on.add(key)
        if self.done:
            return []
        out = self._read(key) if alone else [self._crowded()]
        return out + self._prompt_change()

    def tag_removed(self, reader: int, uid: str) -> list[Message]:
        key = (reader, normal_uid(uid))
        self._on.discard(key)
        if key == self._counted:
            self._counted = None
        return self._prompt_change()

    def skip(self) -> list[Message]:
        """Leave the current piece without a new tag and go on to the next."""
        piece = self.piece
        if piece is None:
            return []
        self.skipped.append(piece)
        self._next_piece()
        return [Message(f"Skipped {piece.describe()}", "ok", piece)] + self._prompt_change()

    # ---- the vote -------------------------------------------------------------------------

    def _read(self, key: tuple[int, str]) -> list[Message]:
        piece, uid = self.pieces[self._index], key[1]
        owner = self._owners.get(uid)
        if owner is not None and owner != piece:
            redo = f"clue-companion enroll{self._edition_option()} --redo {piece_argument(owner)}"
            return [Message(f"{uid} is already {owner.describe()}. Use another tag, or re-enrol "
                            f"{owner.describe()} first ({redo}).", "error", owner, uid)]
        if owner == piece and self.mode == "spare":
            return [Message(f"{uid} is already a tag of {piece.describe()}: tap a new tag for the spare.",
                            "error", piece, uid)]
        self._reads.append(uid)
        self._counted = key
        if len(self._reads) < self.reads:
            return [Message(f"Read {len(self._reads)} of {self.reads}: {uid}", "ok", piece, uid)]
        return [self._vote(piece)]

    def _vote(self, piece: Piece) -> Message:
        uid, count = Counter(self._reads).most_common(1)[0]
        if count * 2 <= len(self._reads):
            seen = ", ".join(f"{read} ({n}x)" for read, n in Counter(self._reads).items())
            self._reads, self._counted = [], None
            return Message(f"The reads of {piece.describe()} disagree: {seen}. Starting again from read 1.",
                           "error", piece)
        old = [held for held, owner in self._owners.items() if owner == piece and held != uid]
        if self.mode == "redo":
            for held in old:
                del self._owners[held]
        self._owners[uid] = piece
        self.results[piece] = uid
        self._next_piece()
        votes = f"({count} of {self.reads} reads)"
        if self.mode == "spare":
            return Message(f"{uid} is a spare tag of {piece.describe()} {votes}", "ok", piece, uid)
        if self.mode == "redo" and old:
            return Message(f"{_sentence(piece.describe())} is now {uid} {votes}; it replaces {', '.join(old)}",
                           "ok", piece, uid)
        return Message(f"{_sentence(piece.describe())} is {uid} {votes}", "ok", piece, uid)

    def _crowded(self) -> Message:
        # A second tag makes the read of the first one doubtful too: neither counts.
        if self._counted in self._on and self._reads:
            self._reads.pop()
        self._counted = None
        piece = self.pieces[self._index]
        seen = ", ".join(sorted(uid for _, uid in self._on))
        return Message(f"One tag at a time: {len(self._on)} tags are on the readers ({seen}). "
                       f"Lift them all, then tap {piece.describe()} again.", "error", piece)

    def _next_piece(self) -> None:
        self._index += 1
        self._reads, self._counted = [], None

    def _prompt_change(self) -> list[Message]:
        text = self.prompt()
        if text == self._said or self.done:
            return []
        self._said = text
        return [Message(text, "prompt", self.piece)]

    def _edition_option(self) -> str:
        return "" if self.edition.id == "classic" else f" --edition {self.edition.id}"

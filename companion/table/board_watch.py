"""The board watch: comparing what the readers see with where the game has each piece.

Pure functions for the session. :func:`judge` decides what one settled
sighting means (a move, nothing, or "put it back"); :func:`differences` lists
what to fix when the sensed board is reconciled with the game at start, after
a reconnect and after resume.

A piece is judged by the zones it is seen in, not by the readers: a room with
several antennas is one zone, so a piece seen by two antennas of one room is
one piece in that room, and a piece slid from one to the other has not moved.
Seen in two different places, it is in neither until one is cleared.

>>> from companion import Setup, new_game
>>> from companion.rules.edition import load_edition
>>> from companion.table.tags import Piece, TagMap
>>> state, _ = new_game(Setup("classic", ("Miss Scarlet", "Colonel Mustard", "Mrs. White"), seed=7))
>>> zones = ZoneMap.default(load_edition("classic"))
>>> tags = TagMap({"04:00:00:01": Piece("mover", "Colonel Mustard")})
>>> differences(state, zones, tags, {7: frozenset({"04:00:00:01"})})[0]  # reader 7: the Hall
"Colonel Mustard's mover should be on a18 but is in the Hall."
>>> judge(state, zones, Piece("mover", "Colonel Mustard"), zones.zone(7) or Zone("centre")).text
'Put Colonel Mustard back on a18.'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.language import N_
from companion.rules.edition import Edition
from companion.rules.engine import legal_destinations
from companion.rules.errors import UnknownCard
from companion.rules.state import GameState, Phase

from .tags import Piece, TagMap, normal_uid
from .wording import Words, joined, the
from .zones import Zone, ZoneMap

Sensed = Mapping[int, frozenset[str]]  # reader -> UIDs it sees now
Seen = dict[Piece, frozenset[Zone]]

CARD_ZONES = ("room", "centre", "seat")  # where cards lie in play: on a room, the accusation pad, a seat pad
PUBLIC = "*"  # the holder of a face-up card's difference: everyone may read its name


@dataclass(frozen=True)
class MoveTo:
    """The mover of the seat on turn went somewhere it may go now: apply ``Move(seat, place)``."""

    seat: str
    place: str


@dataclass(frozen=True)
class Agrees:
    """The piece is where the game already has it: nothing to do."""


@dataclass(frozen=True)
class PutBack:
    """The piece may not be where it was seen: ``text`` tells the players what to do.

    ``place`` is where the game has it; ``zone`` where it was seen instead;
    ``words`` is ``text`` as a message, to be said in the table's language.
    """

    piece: Piece
    place: str
    text: str
    zone: Zone | None = None
    words: Words | None = field(default=None, compare=False)

    @classmethod
    def told(cls, piece: Piece, place: str, words: Words, zone: Zone | None = None) -> PutBack:
        return cls(piece, place, str(words), zone, words)


Verdict = MoveTo | Agrees | PutBack


def expected_places(state: GameState) -> dict[Piece, str]:
    """Where the game has every mover and weapon token: a room, a square or an off-board place.

    >>> from companion import Setup, new_game
    >>> state, _ = new_game(Setup("classic", ("Miss Scarlet", "Colonel Mustard", "Mrs. White"), seed=7))
    >>> expected_places(state)[Piece("mover", "Miss Scarlet")]
    'h25'
    """
    deck = state.edition.deck
    places = {Piece("mover", suspect): place for suspect, place in zip(deck.suspects, state.positions)}
    places.update({Piece("weapon", weapon): place for weapon, place in zip(deck.weapons, state.weapons)})
    return places


def sightings(sensed: Sensed, zones: ZoneMap, tags: TagMap) -> tuple[Seen, list[tuple[int, str]]]:
    """Where each enrolled piece is seen, and the (reader, UID) pairs of tags nobody enrolled.

    A piece on a reader the map does not use is not counted as seen anywhere.
    """
    seen: dict[Piece, set[Zone]] = {}
    unknown: list[tuple[int, str]] = []
    for reader in sorted(sensed):
        zone = zones.zone(reader)
        for uid in sorted(sensed[reader]):
            piece = tags.piece(uid)
            if piece is None:
                unknown.append((reader, normal_uid(uid)))
            elif zone is not None:
                seen.setdefault(piece, set()).add(zone)
    return {piece: frozenset(found) for piece, found in seen.items()}, unknown


def agrees(state: GameState, zones: ZoneMap, piece: Piece, seen: frozenset[Zone]) -> bool:
    """Does the board agree with the game about this piece?

    A piece the game has in a watched place (a room with a reader, or a door
    reader of it; a square with a space reader) must be seen there and nowhere
    else; anywhere else (an unwatched square or room, off the board) it must be
    seen nowhere. Cards agree unless they lie on a door or space reader.
    """
    if piece.kind == "card":
        return all(zone.kind in CARD_ZONES for zone in seen)
    expected = _expected(state, piece)
    watched = any(zone.covers(expected) for _, zone in zones.items())
    return all(zone.covers(expected) for zone in seen) and bool(seen) == watched


def judge(state: GameState, zones: ZoneMap, piece: Piece, zone: Zone) -> Verdict:
    """What a settled sighting of ``piece`` in ``zone`` means.

    A move if it is the on-turn mover in a place it may move to now
    (:func:`~companion.rules.engine.legal_destinations`); nothing if it is where the
    game has it; otherwise put it back, with the reason for the on-turn mover.
    """
    if piece.kind == "card":
        if zone.kind in CARD_ZONES:
            return Agrees()
        return PutBack.told(piece, "", Words(N_("Take the {card} card off {zone}."),
                                             {"card": piece.name, "zone": zone.words()}), zone)
    expected = _expected(state, piece)
    if zone.covers(expected):
        return Agrees()
    target = _target(zone)
    seat = _moving_seat(state, piece)
    if seat is not None and target is not None and target in legal_destinations(state):
        return MoveTo(seat, target)
    instruction = put_back_words(state.edition, piece, expected)
    if seat is None or target is None:
        words = Words(N_("{instruction}."), {"instruction": instruction})
    elif state.turn.phase is Phase.START:
        words = Words(N_("{instruction}: roll first."), {"instruction": instruction})
    else:
        words = Words(N_("{instruction}: {place} is not reachable with a {roll}."),
                      {"instruction": instruction, "place": _name(state.edition, target), "roll": state.turn.roll})
    return PutBack.told(piece, expected, words, zone)


def put_back(edition: Edition, piece: Piece, place: str) -> str:
    """The instruction to return a piece, without the full stop: "Put the Rope back in the Hall".

    >>> from companion.rules.edition import load_edition
    >>> put_back(load_edition("classic"), Piece("mover", "Colonel Mustard"), "h25")
    'Put Colonel Mustard back on h25'
    """
    return str(put_back_words(edition, piece, place))


def put_back_words(edition: Edition, piece: Piece, place: str) -> Words:
    """:func:`put_back` as a message."""
    name: str | Words = piece.name if piece.kind == "mover" else the(piece.name)
    kind = _kind_of(edition, place)
    if kind == "off":
        return Words(N_("Take {piece} off the board"), {"piece": name})
    if kind == "room":
        return Words(N_("Put {piece} back in {room}"), {"piece": name, "room": the(place)})
    return Words(N_("Put {piece} back on {square}"), {"piece": name, "square": place})


def _expected(state: GameState, piece: Piece) -> str:
    deck = state.edition.deck
    if piece.kind == "mover" and piece.name in deck.suspects:
        return state.position(piece.name)
    if piece.kind == "weapon" and piece.name in deck.weapons:
        return state.weapons[deck.weapons.index(piece.name)]
    raise UnknownCard(f"{piece.describe()} is not a mover or weapon token of {state.edition.name}")


def _target(zone: Zone) -> str | None:
    """The place a mover seen in ``zone`` stands on: a room, or a space's square."""
    return zone.square if zone.kind == "space" else zone.place


def _moving_seat(state: GameState, piece: Piece) -> str | None:
    """The seat if ``piece`` is the mover of the player on turn, at a point of the turn where it may move."""
    turn = state.turn
    if piece.kind != "mover" or piece.name != turn.seat or piece.name in state.eliminated:
        return None
    return turn.seat if turn.phase in (Phase.START, Phase.MOVING) else None


def _kind_of(edition: Edition, place: str) -> str:
    board = edition.board
    if place in edition.deck.rooms or (board is not None and place in board.rooms):
        return "room"
    return "square" if board is not None and place in board.index else "off"


def _name(edition: Edition, place: str) -> str | Words:
    return the(place) if _kind_of(edition, place) == "room" else place


def _at(edition: Edition, place: str) -> Words:
    """ "in the Kitchen", "on h25", "off the board"."""
    kind = _kind_of(edition, place)
    if kind == "room":
        return Words(N_("in {room}"), {"room": the(place)})
    if kind == "square":
        return Words(N_("on {square}"), {"square": place})
    return Words(N_("off the board"))


def _zone_at(zone: Zone) -> Words:
    """Where a piece on this zone is: "in the Hall", "on the Hall doorway (l19)", "on seat pad 2"."""
    inside = zone.kind == "room" or (zone.kind == "centre" and zone.place is not None)
    return Words(N_("in {zone}") if inside else N_("on {zone}"), {"zone": zone.words()})


def _reader_name(zones: ZoneMap, reader: int) -> Words:
    zone = zones.zone(reader)
    if zone is None:
        return Words(N_("reader {number}"), {"number": reader})
    return zone.words() if zone.kind == "seat" else Words(N_("{zone} reader"), {"zone": zone.words()})


def _in_reader_order(zones: ZoneMap, seen: Iterable[Zone]) -> list[Zone]:
    first: dict[Zone, int] = {}
    for reader, zone in zones.items():
        first.setdefault(zone, reader)
    return sorted(seen, key=lambda zone: first.get(zone, -1))


def _sentence(state: GameState, zones: ZoneMap, piece: Piece, expected: str, seen: frozenset[Zone]) -> Words:
    who = _who(piece)
    wrong = [zone for zone in _in_reader_order(zones, seen) if not zone.covers(expected)]
    at = _at(state.edition, expected)
    if not seen:
        return Words(N_("{who} should be {at} but is not on the board."), {"who": who, "at": at})
    where = joined([_zone_at(zone) for zone in wrong])
    if len(wrong) < len(seen):
        return Words(N_("{who} should be {at} but is also {where}."), {"who": who, "at": at, "where": where})
    return Words(N_("{who} should be {at} but is {where}."), {"who": who, "at": at, "where": where})


def _who(piece: Piece) -> Words:
    """The piece at the start of a sentence: "Colonel Mustard's mover", "The Rope"."""
    if piece.kind == "mover":
        return Words(N_("{seat}'s mover"), {"seat": piece.name})
    if piece.name.lower().startswith("the "):
        return Words("{name}", {"name": piece.name[0].upper() + piece.name[1:]})
    return Words(N_("The {name}"), {"name": piece.name})


def differences_data(state: GameState, zones: ZoneMap, tags: TagMap, sensed: Sensed,
                     parts: bool = False) -> list[dict[str, Any]]:
    """:func:`differences` as records: piece, kind, expected, seen, readers, text.

    With ``parts``, each also has its text as a message (``parts``, and
    ``named_parts`` beside ``named``), to be said in the table's language.

    A stray card's record names no card in ``piece`` or ``text``: ``named``
    has the sentence with its name, for ``holder`` only (see :func:`for_viewer`).

    Movers come first in suspect order, then weapons, then stray cards, then
    unknown tags by reader (with their ``uid``).
    """
    seen, unknown = sightings(sensed, zones, tags)
    found: list[dict[str, Any]] = []
    for piece, expected in expected_places(state).items():
        at = seen.get(piece, frozenset())
        if not agrees(state, zones, piece, at):
            words = _sentence(state, zones, piece, expected, at)
            found.append(_record(zones, piece, expected, at, words, _seeing(sensed, zones, tags, piece, at)))
    for piece in sorted(p for p in seen if p.kind == "card"):
        stray = frozenset(zone for zone in seen[piece] if zone.kind not in CARD_ZONES)
        if stray:
            found.append(_stray_card(state, zones, piece, stray, _seeing(sensed, zones, tags, piece, stray)))
    for reader, uid in unknown:
        words = Words(N_("Unknown tag {uid} on {reader}: enrol it with clue-companion enroll."),
                      {"uid": uid, "reader": _reader_name(zones, reader)})
        zone = zones.zone(reader)
        found.append({"piece": None, "kind": "unknown", "expected": None, "uid": uid,
                      "seen": [zone.describe()] if zone else [], "readers": [reader], "text": str(words),
                      "parts": words.as_dict()})
    if not parts:
        for entry in found:
            entry.pop("parts", None)
            entry.pop("named_parts", None)
    return found


def differences(state: GameState, zones: ZoneMap, tags: TagMap, sensed: Sensed, viewer: str | None = None) -> list[str]:
    """What to fix so the board matches the game, one sentence per piece or unknown tag, as ``viewer`` may read it.

    Cards on room, centre and seat readers are left alone (players lay them there).
    A stray card is named only to the seat holding it (or to all when face up).
    """
    return [for_viewer(entry, viewer) for entry in differences_data(state, zones, tags, sensed)]


def for_viewer(entry: Mapping[str, Any], viewer: str | None) -> str:
    """A difference's sentence for ``viewer`` (None: the table): a card's name only for its holder."""
    holder = entry.get("holder")
    return str(entry["named"] if holder is not None and holder in (viewer, PUBLIC) else entry["text"])


def words_for_viewer(entry: Mapping[str, Any], viewer: str | None) -> Words:
    """:func:`for_viewer` as a message (``parts``; ``named_parts`` for the card's holder)."""
    holder = entry.get("holder")
    named = holder is not None and holder in (viewer, PUBLIC)
    parts = entry.get("named_parts" if named else "parts")
    if isinstance(parts, Mapping):
        return Words.from_dict(parts)
    return Words("{text}", {"text": for_viewer(entry, viewer)})


def _stray_card(state: GameState, zones: ZoneMap, piece: Piece, stray: frozenset[Zone],
                readers: list[int]) -> dict[str, Any]:
    """A card off its pads: the table reads "a card", its holder reads which (a hand's card is a secret).

    A card in the envelope or aside is named to no one.
    """
    where = joined([_zone_at(zone) for zone in _in_reader_order(zones, stray)])
    holders = [seat for seat, hand in zip(state.seats, state.hands) if piece.name in hand]
    holder = PUBLIC if piece.name in state.face_up else holders[0] if holders else None
    entry = _record(zones, Piece("card", ""), None, stray, Words(N_("A card is {where}: take it off."),
                                                                 {"where": where}), readers)
    named = Words(N_("The {card} card is {where}: take it off."), {"card": piece.name, "where": where})
    entry.update(piece=None, holder=holder, named=str(named), named_parts=named.as_dict())
    return entry


def _seeing(sensed: Sensed, zones: ZoneMap, tags: TagMap, piece: Piece, where: frozenset[Zone]) -> list[int]:
    """The readers (antennas) that see ``piece`` in one of the zones ``where``, in reader order."""
    return sorted(reader for reader, uids in sensed.items()
                  if zones.zone(reader) in where and any(tags.piece(uid) == piece for uid in uids))


def _record(zones: ZoneMap, piece: Piece, expected: str | None, seen: frozenset[Zone], words: Words,
            readers: list[int]) -> dict[str, Any]:
    ordered = _in_reader_order(zones, seen)
    return {"piece": piece.name, "kind": piece.kind, "expected": expected,
            "seen": [zone.describe() for zone in ordered], "readers": readers, "text": str(words),
            "parts": words.as_dict()}


def signal_for(zones: ZoneMap, verdict: Verdict) -> tuple[int, ...]:
    """The readers to light for a :class:`PutBack`: where the piece belongs, and where it was seen.

    Where it belongs is the room's own readers (all its antennas), else its
    door readers, or a space's reader; nothing for an off-board place. Where it
    was seen is every reader of that zone: the whole wrong room lights.
    """
    if not isinstance(verdict, PutBack):
        return ()
    home = zones.readers_for(verdict.place) if verdict.place else ()
    inside = tuple(reader for reader in home if (zones.zone(reader) or Zone("centre")).kind != "door")
    wrong = tuple(reader for reader, zone in zones.items() if zone == verdict.zone)
    return tuple(sorted(set((inside or home) + wrong)))

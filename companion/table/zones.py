"""The zone map: which reader under the board watches which place.

Each reader of the board link watches one :class:`Zone`: a room, a door square
(which belongs to its room on our maps), a special hallway space, the centre,
or a seat pad at the table edge where players lay cards. A room may have
several readers (antennas): they watch the same zone, so a piece seen by two
of them is one piece in that room. A :class:`ZoneMap` holds one board layout;
:meth:`ZoneMap.default` gives the numbering of ``docs/hardware.md`` and
:meth:`ZoneMap.with_specs` applies a hardware config's overrides such as
``{29: "door:l19"}``.

>>> from companion.rules.edition import load_edition
>>> zones = ZoneMap.with_specs(load_edition("classic"), {29: "door:L19"})
>>> zones.zone(0).describe(), zones.zone(9).describe(), zones.zone(29).describe()
('the Kitchen', 'the centre', 'the Hall doorway (l19)')
>>> zones.room_reader("Hall"), zones.room_readers("Hall"), zones.pad(2), len(zones)
(7, (7, 26, 27), 11, 30)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

from companion.language import N_
from companion.rules.board import Board
from companion.rules.cards import normalise
from companion.rules.edition import Edition
from companion.rules.errors import ClueError, UnknownCard

from .wording import Words, the

ZoneKind = Literal["room", "door", "space", "centre", "seat"]
ZONE_KINDS: tuple[ZoneKind, ...] = ("room", "door", "space", "centre", "seat")
SPEC_FORMS = "room:NAME, door:SQUARE, space:SQUARE, centre or seat:N"

# Antennas per room (docs/hardware.md, "Sensing"): an RC522 module's antenna
# (about 40 x 60 mm) holds about 6 pieces on 2 x 3 squares of ~21 mm, and a
# room may hold 12 (six movers, six weapons), so at least 2; then one per
# 18 squares, so about a third of a big room is under antennas; at most 3, to
# keep the reader count (and a full scan) within two or three 74HC154s.
ROOM_PIECES = 12
PIECES_PER_ANTENNA = 6
SQUARES_PER_ANTENNA = 18
MOST_ANTENNAS = 3


class ZoneError(ClueError, ValueError):
    """A reader spec (or zone) that names no place of the edition's board."""

    code = "zone"


def with_article(name: str) -> str:
    """A place's name as it reads in a sentence: "the Kitchen", "The Moon".

    >>> with_article("Kitchen"), with_article("The Moon")
    ('the Kitchen', 'The Moon')
    """
    return name if name.lower().startswith("the ") else f"the {name}"


@dataclass(frozen=True)
class Zone:
    """What one reader watches.

    ``place`` is the room for a "room" or "door" zone (a mover on a door
    reader is in that room, at that door), the square for a "space", and for
    the "centre" the room the centre is on boards where it is one (Big Bang
    Theory's Centre, Master Detective's Cloakroom), else None. ``mark`` says
    what kind of space a "space" zone is ("snoop", "bonus", a spot's name).

    >>> Zone("space", "f5", square="f5", mark="snoop").describe()
    'the snoop space f5'
    >>> Zone("seat", seat=2).describe()
    'seat pad 2'
    """

    kind: ZoneKind
    place: str | None = None
    square: str | None = None
    seat: int | None = None
    mark: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ZONE_KINDS:
            raise ZoneError(f"zone kind {self.kind!r}; expected one of {', '.join(ZONE_KINDS)}")
        needs = {"room": self.place, "door": self.place and self.square,
                 "space": self.square, "seat": self.seat}
        if self.kind in needs and not needs[self.kind]:
            raise ZoneError(f"a {self.kind!r} zone needs its place: {self!r}")

    def describe(self) -> str:
        """The zone as players call it: "the Kitchen", "the Hall doorway (l19)", "seat pad 2"."""
        return str(self.words())

    def words(self) -> Words:
        """:meth:`describe` as a message, to be said in the table's language."""
        if self.kind == "door":
            return Words(N_("{room} doorway ({square})"), {"room": the(self.place or ""), "square": self.square})
        if self.kind == "space":
            if self.mark == "snoop":
                return Words(N_("the snoop space {square}"), {"square": self.square})
            if self.mark == "bonus":
                return Words(N_("the bonus space {square}"), {"square": self.square})
            if self.mark:
                return Words(N_("{space} ({square})"), {"space": the(self.mark), "square": self.square})
            return Words(N_("the square {square}"), {"square": self.square})
        if self.kind == "seat":
            return Words(N_("seat pad {number}"), {"number": self.seat})
        if self.kind == "centre" and self.place is None:
            return Words(N_("the centre"))
        return the(self.place or "")

    def spec(self) -> str:
        """The zone as a hardware-config spec: "room:Kitchen", "door:e7", "centre", "seat:3"."""
        if self.kind == "centre":
            return "centre"
        if self.kind == "seat":
            return f"seat:{self.seat}"
        return f"{self.kind}:{self.place if self.kind == 'room' else self.square}"

    def covers(self, place: str) -> bool:
        """True if a piece at ``place`` (a room or a hallway square) stands on this reader."""
        if self.kind == "space":
            return self.square == place
        return self.kind in ("room", "door", "centre") and self.place == place


class ZoneMap:
    """Reader number -> :class:`Zone` for one board layout (read-only)."""

    def __init__(self, zones: Mapping[int, Zone]) -> None:
        for reader in zones:
            _check_reader(reader, "")
        self._zones = dict(sorted(zones.items()))

    @classmethod
    def default(cls, edition: Edition, pads: int | None = None, antennas: int | None = None) -> ZoneMap:
        """A reader per room, then the centre, then seat pads 1..``pads``, then the rooms' other antennas.

        Rooms come in the deck's card order, then board rooms that are not
        cards. Where the centre is itself a room (the start room, or the room
        accusations are made from), that room's readers are the centre's.
        ``pads`` defaults to the edition's most players. Each room has
        ``antennas`` readers, by default :func:`room_antennas` (2 or 3 by its
        size); the first ones keep the numbers of a one-reader-per-room board,
        so the others come last, room by room.

        >>> from companion.rules.edition import load_edition
        >>> ZoneMap.default(load_edition("big_bang_theory")).zone(9)
        Zone(kind='centre', place='Centre', square=None, seat=None, mark=None)
        >>> len(ZoneMap.default(load_edition("classic"), antennas=1))
        16
        """
        centre = centre_zone(edition)
        rooms = [Zone("room", room) for room in _rooms(edition) if room != centre.place]
        count = edition.max_players if pads is None else pads
        if count < 0:
            raise ZoneError(f"pads is {count}; expected 0 or more seat pads")
        if antennas is not None and antennas < 1:
            raise ZoneError(f"antennas is {antennas}; expected 1 or more readers per room")
        zones = rooms + [centre] + [Zone("seat", seat=number) for number in range(1, count + 1)]
        for zone in rooms + [centre]:
            if zone.place is not None:  # the cellar centre is a card pad: one reader
                more = (antennas or room_antennas(edition, zone.place)) - 1
                zones += [zone] * more
        return cls(dict(enumerate(zones)))

    @classmethod
    def with_specs(cls, edition: Edition, specs: Mapping[int, str], pads: int | None = None) -> ZoneMap:
        """The default map with the hardware config's readers replaced or added.

        >>> from companion.rules.edition import load_edition
        >>> ZoneMap.with_specs(load_edition("classic"), {9: "space:h25"}).zone(9).describe()
        'the square h25'
        """
        zones = dict(cls.default(edition, pads)._zones)
        for reader, spec in specs.items():
            _check_reader(reader, spec)
            zones[reader] = parse_spec(edition, reader, spec)
        return cls(zones)

    def zone(self, reader: int) -> Zone | None:
        """The zone ``reader`` watches, or None for a reader the map does not use."""
        return self._zones.get(reader)

    def room_reader(self, room: str) -> int | None:
        """The first reader under ``room`` itself, not at one of its doors."""
        return next(iter(self.room_readers(room)), None)

    def room_readers(self, room: str) -> tuple[int, ...]:
        """Every reader (antenna) under ``room`` itself, in reader order; its doors' are not."""
        return tuple(r for r, z in self._zones.items() if z.kind in ("room", "centre") and z.place == room)

    def readers_for(self, place: str) -> tuple[int, ...]:
        """Every reader a piece at ``place`` may stand on: the room's and its doors', or the space's."""
        return tuple(reader for reader, zone in self._zones.items() if zone.covers(place))

    def pad(self, seat_number: int) -> int | None:
        """The reader of seat pad ``seat_number`` (1-based, in seat order)."""
        return next((r for r, z in self._zones.items() if z.kind == "seat" and z.seat == seat_number), None)

    def readers(self) -> tuple[int, ...]:
        return tuple(self._zones)

    def items(self) -> Iterator[tuple[int, Zone]]:
        return iter(self._zones.items())

    def as_specs(self) -> dict[int, str]:
        """The map as hardware-config specs (for docs and the CLI)."""
        return {reader: zone.spec() for reader, zone in self._zones.items()}

    def __len__(self) -> int:
        return len(self._zones)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ZoneMap) and self._zones == other._zones

    def __hash__(self) -> int:
        return hash(tuple(self._zones.items()))

    def __repr__(self) -> str:
        return f"ZoneMap({self.as_specs()!r})"


def centre_zone(edition: Edition) -> Zone:
    """The centre: the board's own start or accusation room if it is not a card, else the cellar pad."""
    board = edition.board
    if board is not None:
        for room in (board.start_room, edition.accuse):
            if room in board.rooms and room not in edition.deck.rooms:
                return Zone("centre", room)
    return Zone("centre")


def room_antennas(edition: Edition, room: str) -> int:
    """How many readers the default layout puts under ``room``: 2, or 3 in a room of 37 squares or more.

    Without a board map a room's size is unknown: it gets the least, 2.

    >>> from companion.rules.edition import load_edition
    >>> classic = load_edition("classic")
    >>> room_antennas(classic, "Study"), room_antennas(classic, "Ballroom")
    (2, 3)
    """
    least = math.ceil(ROOM_PIECES / PIECES_PER_ANTENNA)
    board = edition.board
    squares = sum(1 for owner in board.cells.values() if owner == room) if board is not None else 0
    return max(least, min(MOST_ANTENNAS, math.ceil(squares / SQUARES_PER_ANTENNA)))


def _rooms(edition: Edition) -> list[str]:
    """Card rooms in card order, then rooms on the board that are not cards."""
    board_rooms = edition.board.rooms if edition.board is not None else ()
    return list(edition.deck.rooms) + [room for room in board_rooms if room not in edition.deck.rooms]


def _check_reader(reader: object, spec: str) -> None:
    if not isinstance(reader, int) or isinstance(reader, bool) or reader < 0:
        shown = f": {spec!r}" if spec else ""
        raise ZoneError(f"reader {reader!r}{shown}: reader numbers are whole numbers from 0")


def parse_spec(edition: Edition, reader: int, spec: str) -> Zone:
    """One hardware-config spec ("room:Kitchen", "door:e7", "space:f5", "centre", "seat:3").

    Names match case-insensitively; a bad spec raises :class:`ZoneError`
    naming the reader, the spec and what was expected.

    >>> from companion.rules.edition import load_edition
    >>> parse_spec(load_edition("classic"), 16, "door:E7")
    Zone(kind='door', place='Kitchen', square='e7', seat=None, mark=None)
    """
    kind, _, value = (part.strip() for part in spec.partition(":"))
    kind = kind.lower()
    where = f"reader {reader}: {spec!r}"
    if kind in ("centre", "center") and not value:
        return centre_zone(edition)
    if kind == "seat":
        return _seat(edition, where, value)
    if kind == "room" and value:
        return Zone("room", _room(edition, where, value))
    if kind in ("door", "space") and value:
        board = edition.board
        if board is None:
            raise ZoneError(f"{where} needs a board map, and {edition.name} has none")
        return _door(edition, board, where, value) if kind == "door" else _space(board, where, value)
    raise ZoneError(f"{where} is not a reader spec; expected {SPEC_FORMS}")


def _seat(edition: Edition, where: str, value: str) -> Zone:
    # Spare pads beyond the most players are allowed: a table may have more.
    if not value.isdigit() or int(value) < 1:
        raise ZoneError(f"{where} is not a seat pad; expected seat:1 to seat:{edition.max_players}")
    return Zone("seat", seat=int(value))


def _room(edition: Edition, where: str, value: str) -> str:
    """A room of the deck (any spelling it accepts) or of the board, or one of the board's aliases."""
    board = edition.board
    for name in (value, value[4:] if normalise(value).startswith("the ") else value):
        try:
            return edition.deck.resolve(name, "room")
        except UnknownCard:
            pass
        if board is not None:
            aliases = {normalise(alias): place for alias, place in board.aliases.items()}
            found = aliases.get(normalise(name), name)
            for room in board.rooms:
                if normalise(room) == normalise(found):
                    return room
    raise ZoneError(f"{where} is not a room; rooms: {', '.join(_rooms(edition))}")


def _door(edition: Edition, board: Board, where: str, value: str) -> Zone:
    square = value.lower()
    if square not in board.door_cells:
        raise ZoneError(f"{where} is not a door square; doors: {', '.join(doors_in_order(edition, board))}")
    return Zone("door", board.room_at(square), square=square)


def doors_in_order(edition: Edition, board: Board) -> list[str]:
    """Door squares grouped by room in reader order (rows top to bottom within a room)."""
    order = {room: at for at, room in enumerate(_rooms(edition))}
    by_row = sorted(board.door_cells, key=lambda sq: (int(sq[1:]), sq[0]))
    return sorted(by_row, key=lambda sq: order.get(board.room_at(sq) or "", len(order)))


def _space(board: Board, where: str, value: str) -> Zone:
    square = value.lower()
    if square not in board.index:
        special = sorted({*(board.squares[i] for i in board.marks), *(board.squares[i] for i in board.spots.values())},
                         key=lambda sq: (int(sq[1:]), sq[0]))
        listed = f"special spaces: {', '.join(special)}" if special else f"expected a hallway square such as {board.squares[0]}"
        raise ZoneError(f"{where} is not a hallway square; {listed}")
    number = board.index[square]
    spot = next((name for name, at in board.spots.items() if at == number), None)
    return Zone("space", square, square=square, mark=board.marks.get(number, spot))

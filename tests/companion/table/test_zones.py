"""The zone map: which reader watches which room, door, space, the centre or a seat pad.

The Classic default must be the table in docs/hardware.md ("Reader placement
(Classic)"), which makers wire their boards by; the hardware config may then
move or add readers with specs such as ``29: "door:l19"``. A room has 2 or 3
readers (antennas) by its size; they all watch the one room.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from companion.rules.edition import Edition, bundled_ids, load_edition
from companion.rules.errors import ClueError
from companion.table.zones import Zone, ZoneError, ZoneMap, doors_in_order, parse_spec

HARDWARE_DOC = Path(__file__).resolve().parents[3] / "docs" / "hardware.md"
CLASSIC = load_edition("classic")
# docs/hardware.md, "Other editions": readers per edition with every seat pad fitted.
READERS = {"classic": 29, "big_bang_theory": 31, "doctor_who": 31, "master_detective": 37}


def placement_table() -> list[list[str]]:
    """The cells of the rows of the Classic reader table in docs/hardware.md."""
    text = HARDWARE_DOC.read_text(encoding="utf-8")
    section = text.split("## Reader placement (Classic)", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"^\| \d", line)]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


def without_board(edition: Edition) -> Edition:
    return dataclasses.replace(edition, board=None)


def squares(edition: Edition, room: str) -> int:
    return sum(1 for owner in edition.require_board().cells.values() if owner == room)


# --- the default maps ----------------------------------------------------------------------------


def test_the_classic_default_is_the_table_in_the_hardware_docs() -> None:
    zones = ZoneMap.default(CLASSIC)
    board = CLASSIC.require_board()
    rows = placement_table()
    assert len(rows) == 11  # nine rooms, the centre, one row for the seat pads
    for readers, place, antennas, doors in rows[:9]:
        assert zones.room_readers(place) == tuple(int(n) for n in readers.split(", ")), place
        assert int(antennas) == len(zones.room_readers(place))
        on_map = [door for door in doors_in_order(CLASSIC, board) if board.room_at(door) == place]
        assert ", ".join(on_map) == doors
    assert rows[9][0] == "9" and rows[9][1].startswith("Centre")
    assert zones.zone(9) == Zone("centre")
    first, last = (int(n) for n in rows[10][0].split("–"))
    assert rows[10][1].startswith(f"Seat pads 1–{last - first + 1}")
    assert [zones.zone(r) for r in range(first, last + 1)] == [Zone("seat", seat=n) for n in range(1, 7)]
    assert zones.readers() == tuple(range(29))


def test_a_one_reader_per_room_board_keeps_its_numbers_as_the_first_readers() -> None:
    """Readers 0-15 of a board built with one reader per room mean what they meant; the others come after."""
    old, new = ZoneMap.default(CLASSIC, antennas=1), ZoneMap.default(CLASSIC)
    assert len(old) == 16
    assert all(new.zone(reader) == zone for reader, zone in old.items())
    assert all(zone.kind == "room" for reader, zone in new.items() if reader >= 16)


@pytest.mark.parametrize("edition_id", bundled_ids())
def test_every_bundled_edition_has_a_default_map(edition_id: str) -> None:
    edition = load_edition(edition_id)
    zones = ZoneMap.default(edition)
    assert len(zones) == READERS[edition_id]
    assert zones.readers() == tuple(range(len(zones)))
    for room in edition.require_board().rooms:
        readers = zones.room_readers(room)
        # 12 pieces on antennas of ~6 squares: at least 2; a third of a big room under antennas: up to 3.
        assert len(readers) == (3 if squares(edition, room) > 36 else 2), room
        assert zones.room_reader(room) == readers[0]
    pads = [zones.pad(n) for n in range(1, edition.max_players + 1)]
    assert pads == list(range(pads[0] or 0, (pads[0] or 0) + edition.max_players))
    assert sum(1 for _, zone in zones.items() if zone.kind == "centre" and zone.place is None) <= 1
    assert ZoneMap.with_specs(edition, zones.as_specs()) == zones


def test_the_centre_is_a_room_where_the_board_has_one() -> None:
    assert ZoneMap.default(load_edition("doctor_who")).zone(9) == Zone("centre", "Centre")
    assert ZoneMap.default(load_edition("big_bang_theory")).room_reader("Centre") == 9
    # Master Detective: every mover starts in the Cloakroom, in the middle of the board (64 squares: 3 antennas).
    detective = ZoneMap.default(load_edition("master_detective"))
    assert detective.zone(12) == Zone("centre", "Cloakroom")
    assert detective.zone(12).describe() == "the Cloakroom"  # type: ignore[union-attr]
    assert [detective.zone(r) for r in detective.room_readers("Cloakroom")] == [Zone("centre", "Cloakroom")] * 3


def test_fewer_seat_pads_when_asked() -> None:
    zones = ZoneMap.default(CLASSIC, pads=3)
    assert len(zones) == 26 and zones.pad(3) == 12 and zones.pad(4) is None
    assert zones.room_readers("Kitchen") == (0, 13)


def test_an_edition_without_a_board_gives_every_room_the_least_antennas() -> None:
    zones = ZoneMap.default(without_board(CLASSIC))
    assert [len(zones.room_readers(room)) for room in CLASSIC.deck.rooms] == [2] * 9
    assert zones.zone(9) == Zone("centre") and zones.pad(1) == 10


def test_antennas_per_room_can_be_fixed_but_not_below_one() -> None:
    assert len(ZoneMap.default(CLASSIC, antennas=2).room_readers("Ballroom")) == 2
    with pytest.raises(ZoneError, match="antennas is 0"):
        ZoneMap.default(CLASSIC, antennas=0)


def test_several_readers_may_watch_one_room_and_only_the_room_not_its_doors() -> None:
    zones = ZoneMap.with_specs(CLASSIC, {29: "door:l19", 30: "room:Hall"})
    assert zones.room_readers("Hall") == (7, 26, 27, 30)
    assert zones.readers_for("Hall") == (7, 26, 27, 29, 30)
    assert zones.room_readers("Cellar") == () and zones.room_reader("Cellar") is None


# --- describing zones ----------------------------------------------------------------------------


@pytest.mark.parametrize(("zone", "text"), [
    (Zone("room", "Kitchen"), "the Kitchen"),
    (Zone("door", "Hall", square="l19"), "the Hall doorway (l19)"),
    (Zone("space", "f5", square="f5", mark="snoop"), "the snoop space f5"),
    (Zone("space", "f3", square="f3", mark="Basement Stairs"), "the Basement Stairs (f3)"),
    (Zone("space", "h25", square="h25"), "the square h25"),
    (Zone("centre"), "the centre"),
    (Zone("seat", seat=2), "seat pad 2"),
    (Zone("room", "The Moon"), "The Moon"),
])
def test_zones_describe_themselves_as_players_say_it(zone: Zone, text: str) -> None:
    assert zone.describe() == text


def test_a_zone_without_its_place_is_refused() -> None:
    with pytest.raises(ZoneError, match="'door' zone needs its place"):
        Zone("door", "Hall")


# --- specs ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "zone"), [
    ("room:Kitchen", Zone("room", "Kitchen")),
    ("ROOM: the billiard room", Zone("room", "Billiard Room")),
    ("door:L19", Zone("door", "Hall", square="l19")),
    ("door:e7", Zone("door", "Kitchen", square="e7")),
    ("space:h25", Zone("space", "h25", square="h25")),
    ("centre", Zone("centre")),
    ("Center", Zone("centre")),
    ("seat:3", Zone("seat", seat=3)),
])
def test_classic_specs(spec: str, zone: Zone) -> None:
    assert parse_spec(CLASSIC, 16, spec) == zone


def test_specs_of_the_other_editions_resolve_through_their_boards() -> None:
    detective = load_edition("master_detective")
    assert parse_spec(detective, 23, "space:N2") == Zone("space", "n2", square="n2", mark="snoop")
    assert parse_spec(detective, 23, "space:f3").describe() == "the Basement Stairs (f3)"
    assert parse_spec(detective, 23, "room:cloakroom") == Zone("room", "Cloakroom")
    assert parse_spec(detective, 23, "centre") == Zone("centre", "Cloakroom")
    assert parse_spec(load_edition("big_bang_theory"), 16, "room:center") == Zone("room", "Centre")
    assert parse_spec(load_edition("doctor_who"), 16, "room:the moon") == Zone("room", "The Moon")


def test_specs_replace_and_add_readers() -> None:
    zones = ZoneMap.with_specs(CLASSIC, {29: "door:l19", 30: "door:o21", 9: "space:h25"})
    assert len(zones) == 31
    assert zones.zone(9) == Zone("space", "h25", square="h25")
    assert zones.readers_for("Hall") == (7, 26, 27, 29, 30)
    assert zones.room_reader("Hall") == 7
    assert zones.readers_for("h25") == (9,)
    assert zones.as_specs()[29] == "door:l19" and zones.as_specs()[0] == "room:Kitchen"


DOORS = "doors: e7, i6, p6, j8, o8, t6, h13, g16, s10, w13, u15, r17, g20, l19, m19, o21, r22"


@pytest.mark.parametrize(("reader", "spec", "message"), [
    (16, "door:e8", f"reader 16: 'door:e8' is not a door square; {DOORS}"),
    (16, "door:h25", f"reader 16: 'door:h25' is not a door square; {DOORS}"),
    (17, "room:Kitchn", "reader 17: 'room:Kitchn' is not a room; rooms: Kitchen, Ballroom, Conservatory, "
                        "Dining Room, Billiard Room, Library, Lounge, Hall, Study"),
    (17, "room:Rope", "reader 17: 'room:Rope' is not a room; rooms: Kitchen,"),
    (18, "space:e7", "reader 18: 'space:e7' is not a hallway square; expected a hallway square such as"),
    (10, "seat:0", "reader 10: 'seat:0' is not a seat pad; expected seat:1 to seat:6"),
    (10, "seat:two", "reader 10: 'seat:two' is not a seat pad; expected seat:1 to seat:6"),
    (19, "dor:e7", "reader 19: 'dor:e7' is not a reader spec; expected room:NAME, door:SQUARE, space:SQUARE, "
                   "centre or seat:N"),
    (19, "centre:Hall", "reader 19: 'centre:Hall' is not a reader spec; expected"),
    (19, "room", "reader 19: 'room' is not a reader spec; expected"),
    (-1, "centre", "reader -1: 'centre': reader numbers are whole numbers from 0"),
])
def test_bad_specs_name_the_reader_the_spec_and_what_was_expected(reader: int, spec: str, message: str) -> None:
    with pytest.raises(ZoneError) as refused:
        ZoneMap.with_specs(CLASSIC, {reader: spec})
    assert str(refused.value).startswith(message)
    assert isinstance(refused.value, ClueError) and isinstance(refused.value, ValueError)
    assert refused.value.code == "zone"


def test_a_bad_space_lists_the_special_spaces_where_the_board_has_them() -> None:
    with pytest.raises(ZoneError, match=r"'space:e3' is not a hallway square; special spaces: n2, f3, u5, e8,"):
        ZoneMap.with_specs(load_edition("master_detective"), {23: "space:e3"})


def test_doors_and_spaces_need_a_board() -> None:
    with pytest.raises(ZoneError, match="reader 16: 'door:e7' needs a board map, and Classic CLUE has none"):
        ZoneMap.with_specs(without_board(CLASSIC), {16: "door:e7"})
    assert ZoneMap.with_specs(without_board(CLASSIC), {16: "room:hall"}).zone(16) == Zone("room", "Hall")

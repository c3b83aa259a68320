"""The antenna placement template: a 1:1 board with every reader's module outline and the squares at risk.

A Classic square is 21 mm by default; an RC522 module is 40 x 60 mm. A door
reader's module reaches the hallway square in front of its door (the review's
cross-read); room antennas sit on whole squares of their own room.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from companion.rules.edition import bundled_ids, load_edition
from companion.table.template import MODULE_MM, TemplateError, place_antennas, template_drawing, template_svg
from companion.table.zones import ZoneMap

NS = {"svg": "http://www.w3.org/2000/svg"}
CLASSIC = load_edition("classic")


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def rects(root: ET.Element, role: str) -> list[ET.Element]:
    return [rect for rect in root.iterfind(".//svg:rect", NS) if rect.get("class") == role]


def size(rect: ET.Element) -> tuple[float, float]:
    return float(rect.get("width", "nan")), float(rect.get("height", "nan"))


@pytest.mark.parametrize("square_mm", [21.0, 18.5])
def test_the_svg_is_sized_in_millimetres_at_one_to_one(square_mm: float) -> None:
    root = parsed(template_svg(CLASSIC, square_mm=square_mm))
    width, height = root.get("width", ""), root.get("height", "")
    assert width.endswith("mm") and height.endswith("mm")
    assert root.get("viewBox") == f"0 0 {width[:-2]} {height[:-2]}"  # one drawing unit is one mm
    assert float(width[:-2]) >= 24 * square_mm
    squares = {size(rect) for rect in rects(root, "hallway")}
    assert squares == {(square_mm, square_mm)}
    modules = {tuple(sorted(size(rect))) for rect in rects(root, "antenna")}
    assert modules == {MODULE_MM}
    [bar] = [line for line in root.iterfind(".//svg:line", NS) if line.get("class") == "scale-bar"]
    assert float(bar.get("x2", "0")) - float(bar.get("x1", "0")) == 100


@pytest.mark.parametrize("edition_id", bundled_ids())
def test_one_outline_per_reader_on_the_board_and_none_for_seat_pads(edition_id: str) -> None:
    edition = load_edition(edition_id)
    door = edition.require_board().door_cells[0]
    zones = ZoneMap.with_specs(edition, {60: f"door:{door}"})
    root = parsed(template_svg(edition, zones))
    on_board = [reader for reader, zone in zones.items() if zone.kind in ("room", "centre")]
    assert sorted(int(rect.get("data-name", "")) for rect in rects(root, "antenna")) == on_board
    assert [rect.get("data-name") for rect in rects(root, "door-antenna")] == ["60"]
    seats = [reader for reader, zone in zones.items() if zone.kind == "seat"]
    legend = " ".join(text.text or "" for text in root.iterfind(".//svg:text", NS) if text.get("class") == "legend")
    assert all(f"R{reader} seat pad" in legend for reader in seats)


@pytest.mark.parametrize("edition_id", bundled_ids())
def test_room_antennas_lie_on_their_own_room_and_do_not_overlap(edition_id: str) -> None:
    edition = load_edition(edition_id)
    board = edition.require_board()
    sq = 21.0
    antennas = [a for a in place_antennas(edition, ZoneMap.default(edition), sq) if a.zone.place is not None]
    for antenna in antennas:
        for corner in ((antenna.x, antenna.y), (antenna.x + antenna.w, antenna.y + antenna.h)):
            col, row = (min(int(v / sq), limit - 1) for v, limit in zip(corner, (board.width, board.height)))
            name = f"{'abcdefghijklmnopqrstuvwxyz'[col]}{row + 1}"
            assert board.cells.get(name) == antenna.zone.place, (antenna, name)
    for n, one in enumerate(antennas):
        for other in antennas[n + 1:]:
            apart = (one.x + one.w <= other.x or other.x + other.w <= one.x
                     or one.y + one.h <= other.y or other.y + other.h <= one.y)
            assert apart, (one, other)


def test_a_door_reader_reaches_the_hallway_square_in_front_of_its_door() -> None:
    zones = ZoneMap.with_specs(CLASSIC, {29: "door:e7", 30: "door:l19"})
    doors = {a.zone.square: a for a in place_antennas(CLASSIC, zones)}
    assert "e8" in doors["e7"].reach and "l18" in doors["l19"].reach
    assert all(CLASSIC.require_board().is_square(square) for square in doors["e7"].reach)
    # Its edge is on the wall, not under the hallway: the module stays on the Kitchen's side of row 7.
    assert doors["e7"].y + doors["e7"].h == pytest.approx(7 * 21.0)
    root = parsed(template_svg(CLASSIC, zones))
    flagged = {rect.get("data-name") for rect in rects(root, "reach")}
    assert {"e8", "l18"} <= flagged


def test_a_room_antenna_near_the_hallway_flags_the_squares_beside_it() -> None:
    antennas = place_antennas(CLASSIC, ZoneMap.default(CLASSIC))
    flagged = {square for antenna in antennas if antenna.zone.kind == "room" for square in antenna.reach}
    board = CLASSIC.require_board()
    assert flagged and all(board.is_square(square) or board.room_at(square) not in (None, "Hall") for square in flagged)
    kitchen = [a for a in antennas if a.zone.place == "Kitchen"]
    assert len(kitchen) == 2 and all(not a.reach for a in kitchen)  # the Kitchen has room to keep clear


def test_a_bigger_tag_reaches_more_squares() -> None:
    zones = ZoneMap.with_specs(CLASSIC, {29: "door:e7"})
    small, big = (next(a for a in place_antennas(CLASSIC, zones, tag_mm=tag) if a.reader == 29) for tag in (10, 40))
    assert set(small.reach) < set(big.reach)


@pytest.mark.parametrize("square_mm", [0, 4.9, 61, -21])
def test_an_unlikely_square_size_is_refused(square_mm: float) -> None:
    with pytest.raises(TemplateError, match="expected 5 to 60 mm"):
        template_drawing(CLASSIC, ZoneMap.default(CLASSIC), square_mm)

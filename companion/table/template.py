"""The antenna placement template: a board drawn at 1:1, with where each reader's antenna goes.

A maker prints it at 100 % (the SVG is sized in millimetres), lays it on the
base sheet and fixes each RC522 module on its outline. Room antennas sit
inside their room, away from the hallway; a door reader sits under its door
square, its edge on the wall. Squares where a tag would lie over another
place's antenna are flagged: a piece there may be read as being in that
place (the cross-reads ``board-monitor --survey`` measures, docs/hardware.md).

The geometry is a first-order model, not a field simulation: an antenna's
reach is its module's outline, and a tag is "over" it when the tag's disc,
centred on a square, touches that outline.

>>> from companion.rules.edition import load_edition
>>> from companion.table.zones import ZoneMap
>>> classic = load_edition("classic")
>>> antennas = place_antennas(classic, ZoneMap.with_specs(classic, {29: "door:e7"}))
>>> [(a.reader, a.zone.describe()) for a in antennas if a.zone.place == "Kitchen"]
[(0, 'the Kitchen'), (16, 'the Kitchen'), (29, 'the Kitchen doorway (e7)')]
>>> next(a for a in antennas if a.reader == 29).reach
('d8', 'e8', 'f8')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from companion.rules.board import Board
from companion.rules.drawing import (
    STEPS,
    Drawing,
    Layout,
    Line,
    Rect,
    Shape,
    Text,
    grid_shapes,
    name_of,
    position,
    to_svg,
)
from companion.rules.edition import Edition
from companion.rules.errors import ClueError

from .zones import Zone, ZoneMap

# An RC522 module's PCB, antenna included (the common blue "RFID-RC522" board): about 40 x 60 mm.
MODULE_MM = (40.0, 60.0)
TAG_MM = 25.0  # the round stickers docs/hardware.md suggests for movers and weapons
# A Classic board is about 50 cm across its 24 columns; the other editions' boards are unmeasured.
DEFAULT_SQUARE_MM = 21.0
MARGIN_MM, TITLE_MM, LEGEND_MM = 15.0, 22.0, 34.0
ANTENNA, DOOR_ANTENNA, REACH = "#1f5f8b", "#b35900", "#d62728"
Box = tuple[float, float, float, float]  # x, y, width, height in mm from the grid's top-left corner


class TemplateError(ClueError, ValueError):
    """A template that cannot be drawn: a square size out of range."""

    code = "template"


@dataclass(frozen=True)
class Antenna:
    """Where one reader's module goes, in mm from the grid's top-left corner, and what it may cross-read.

    ``reach`` lists the squares of other places (hallway squares, other
    rooms) where a tag would lie over this antenna.
    """

    reader: int
    zone: Zone
    x: float
    y: float
    w: float
    h: float
    reach: tuple[str, ...] = ()


def place_antennas(edition: Edition, zones: ZoneMap, square_mm: float = DEFAULT_SQUARE_MM,
                   tag_mm: float = TAG_MM) -> list[Antenna]:
    """An outline for every reader on the board's map: room antennas, door and space readers, the centre pad.

    Seat pads are off the board, so they get none.
    """
    board = edition.require_board()
    if not 5 <= square_mm <= 60:
        raise TemplateError(f"a square of {square_mm:g} mm; expected 5 to 60 mm (measure one on your board)")
    boxes: dict[int, Box] = {}
    taken: dict[str, set[tuple[int, int]]] = {}
    # Door readers first: a door's module reaches into its room, and room antennas go around it.
    for reader, zone in zones.items():
        if zone.kind == "door" and zone.square is not None:
            boxes[reader] = _at_door(board, zone, square_mm)
            taken.setdefault(zone.place or "", set()).update(_under(boxes[reader], square_mm))
    in_rooms: dict[str, list[int]] = {}
    for reader, zone in zones.items():
        if zone.kind in ("room", "centre") and zone.place is not None:
            in_rooms.setdefault(zone.place, []).append(reader)
    for room, readers in in_rooms.items():
        boxes.update(zip(readers, _in_room(board, room, len(readers), square_mm, taken.setdefault(room, set()))))
    for reader, zone in zones.items():
        if zone.kind == "space" and zone.square is not None:
            boxes[reader] = _centred(*_centre(zone.square, square_mm), *MODULE_MM)
        elif zone.kind == "centre" and zone.place is None:  # the cellar's card pad, in the middle of the board
            boxes[reader] = _centred(board.width * square_mm / 2, board.height * square_mm / 2, *MODULE_MM)
    placed = [Antenna(reader, zone, *boxes[reader]) for reader, zone in zones.items() if reader in boxes]
    return [replace(antenna, reach=_reach(board, antenna, square_mm, tag_mm)) for antenna in placed]


def _under(box: Box, sq: float) -> set[tuple[int, int]]:
    """The grid squares (row, column) a module's outline lies over."""
    x, y, w, h = box
    rows = range(max(0, math.floor(y / sq)), math.ceil((y + h) / sq))
    return {(row, col) for row in rows for col in range(max(0, math.floor(x / sq)), math.ceil((x + w) / sq))}


def _centred(cx: float, cy: float, w: float, h: float) -> Box:
    return cx - w / 2, cy - h / 2, w, h


def _centre(square: str, sq: float) -> tuple[float, float]:
    row, col = position(square)
    return (col + 0.5) * sq, (row + 0.5) * sq


def _in_room(board: Board, room: str, count: int, sq: float, taken: set[tuple[int, int]]) -> list[Box]:
    """``count`` blocks of whole room squares, each holding a module, none overlapping; marked as taken.

    Door squares are left for door readers unless the room has no room
    without them (Doctor Who's Centre: a door on each side). Best: the fewest
    squares of other places within a tag's reach, then the nearest to the
    room's middle; the first set of ``count`` that fits, best first. Antennas
    of one room may touch: they watch the same zone.
    """
    cells = {position(name) for name, owner in board.cells.items() if owner == room}
    inner = {cell for cell in cells if name_of(*cell) not in board.door_cells}
    for usable in (inner, cells):
        chosen = _fit(_blocks(board, room, usable - taken, sq), count)
        if chosen is not None:
            break
    else:  # too small: what fits, then the middle of the room, overlapping
        chosen = _fit(_blocks(board, room, cells - taken, sq), 1) or []
    mid_r = sum(r for r, _ in cells) / max(len(cells), 1) + 0.5
    mid_c = sum(c for _, c in cells) / max(len(cells), 1) + 0.5
    for block, _ in chosen:
        taken |= block
    boxes = [box for _, box in chosen]
    return boxes + [_centred(mid_c * sq, mid_r * sq, *MODULE_MM)] * (count - len(boxes))


Block = tuple[set[tuple[int, int]], Box]


def _blocks(board: Board, room: str, cells: set[tuple[int, int]], sq: float) -> list[Block]:
    """Every block of ``cells`` a module fits on, either way round, best first."""
    spans = [(math.ceil(MODULE_MM[0] / sq), math.ceil(MODULE_MM[1] / sq))]
    spans.append(spans[0][::-1])
    mid_r = sum(r for r, _ in cells) / max(len(cells), 1) + 0.5
    mid_c = sum(c for _, c in cells) / max(len(cells), 1) + 0.5
    scored: list[tuple[tuple[int, float], Block]] = []
    for across, down in spans:
        for top, left in sorted(cells):
            block = {(top + r, left + c) for r in range(down) for c in range(across)}
            if not block <= cells:
                continue
            w, h = (MODULE_MM if across * sq >= MODULE_MM[0] and down * sq >= MODULE_MM[1] else MODULE_MM[::-1])
            box = _centred((left + across / 2) * sq, (top + down / 2) * sq, w, h)
            foreign = len(_reach(board, Antenna(-1, Zone("room", room), *box), sq, TAG_MM))
            centrality = (top + down / 2 - mid_r) ** 2 + (left + across / 2 - mid_c) ** 2
            scored.append(((foreign, centrality), (block, box)))
    return [block for _, block in sorted(scored, key=lambda item: item[0])]


def _fit(blocks: list[Block], count: int) -> list[Block] | None:
    """The first ``count`` non-overlapping blocks, best first, backtracking when a choice leaves too little."""
    if count == 0:
        return []
    for n, (cells, box) in enumerate(blocks):
        rest = _fit([block for block in blocks[n + 1:] if not block[0] & cells], count - 1)
        if rest is not None:
            return [(cells, box), *rest]
    return None


def _at_door(board: Board, door: Zone, sq: float) -> Box:
    """Under the door square, its edge on the wall (not under the hallway), turned to reach the fewest squares."""
    square = door.square or ""
    row, col = position(square)
    cx, cy = _centre(square, sq)
    for d_row, d_col in STEPS:
        if 0 <= row + d_row and 0 <= col + d_col and name_of(row + d_row, col + d_col) in board.index:
            boxes = []
            for across, down in (MODULE_MM, MODULE_MM[::-1]):
                inward = ((down if d_row else across) - sq) / 2  # pushed into the room, off the hallway
                boxes.append(_centred(cx - d_col * inward, cy - d_row * inward, across, down))
            return min(boxes, key=lambda box: len(_reach(board, Antenna(-1, door, *box), sq, TAG_MM)))
    return _centred(cx, cy, *MODULE_MM)


def _reach(board: Board, antenna: Antenna, sq: float, tag_mm: float) -> tuple[str, ...]:
    """Squares of other places (hallway, other rooms) whose tag, centred there, would touch the antenna."""
    found = []
    for row in range(board.height):
        for col in range(board.width):
            name = name_of(row, col)
            owner = board.cells.get(name)
            if name not in board.index and (owner is None or owner == antenna.zone.place):
                continue
            if antenna.zone.kind == "space" and name == antenna.zone.square:
                continue
            cx, cy = (col + 0.5) * sq, (row + 0.5) * sq
            dx = max(antenna.x - cx, 0.0, cx - antenna.x - antenna.w)
            dy = max(antenna.y - cy, 0.0, cy - antenna.y - antenna.h)
            if math.hypot(dx, dy) < tag_mm / 2:
                found.append(name)
    return tuple(sorted(found, key=lambda n: (int(n[1:]), n[0])))


# The drawing


def template_drawing(edition: Edition, zones: ZoneMap, square_mm: float = DEFAULT_SQUARE_MM,
                     tag_mm: float = TAG_MM) -> Drawing:
    """The 1:1 template as shapes in millimetres: the board, antenna outlines, flagged squares, a legend."""
    board = edition.require_board()
    antennas = place_antennas(edition, zones, square_mm, tag_mm)
    layout = Layout(cell=square_mm, left=MARGIN_MM, top=TITLE_MM)
    width = math.ceil(2 * MARGIN_MM + board.width * square_mm)
    height = math.ceil(TITLE_MM + board.height * square_mm + LEGEND_MM)
    shapes: list[Shape] = [Rect(0, 0, width, height, "#ffffff", role="background")]
    shapes += _thin(grid_shapes(board, layout), square_mm / 32)
    shapes += _flags(antennas, layout)
    shapes += _outlines(antennas, layout)
    title = f"{edition.name}: antenna template, 1:1 at {square_mm:g} mm a square (print at 100 %)"
    shapes.append(Text(width / 2, TITLE_MM / 2, title, 6.0, bold=True, role="title"))
    shapes += _legend(zones, antennas, square_mm, tag_mm, TITLE_MM + board.height * square_mm)
    return Drawing(width, height, title, tuple(shapes))


def template_svg(edition: Edition, zones: ZoneMap | None = None, square_mm: float = DEFAULT_SQUARE_MM,
                 tag_mm: float = TAG_MM) -> str:
    """The template as an SVG sized in millimetres; ``zones`` defaults to the edition's default layout."""
    chosen = zones if zones is not None else ZoneMap.default(edition)
    return to_svg(template_drawing(edition, chosen, square_mm, tag_mm), unit="mm")


def _thin(shapes: Iterable[Shape], factor: float) -> Iterator[Shape]:
    """The grid's strokes scaled to millimetres, without text halos (sized for pixels)."""
    for shape in shapes:
        if isinstance(shape, Text):
            yield replace(shape, halo=None)
        else:
            yield replace(shape, width=shape.width * factor)


def _flags(antennas: list[Antenna], layout: Layout) -> Iterator[Shape]:
    flagged: dict[str, list[int]] = {}
    for antenna in antennas:
        for square in antenna.reach:
            flagged.setdefault(square, []).append(antenna.reader)
    for square, readers in flagged.items():
        x, y, w, h = layout.box(square)
        yield Rect(x + 1, y + 1, w - 2, h - 2, "none", REACH, 0.8, "reach", square)
        yield Text(x + w / 2, y + h * 0.85, "R" + ",".join(map(str, readers)), 2.2, REACH, role="reach-label",
                   name=square)


def _outlines(antennas: list[Antenna], layout: Layout) -> Iterator[Shape]:
    for antenna in antennas:
        x, y = layout.left + antenna.x, layout.top + antenna.y
        door = antenna.zone.kind in ("door", "space")
        colour = DOOR_ANTENNA if door else ANTENNA
        yield Rect(x, y, antenna.w, antenna.h, "none", colour, 0.7, "door-antenna" if door else "antenna",
                   str(antenna.reader))
        yield Text(x + antenna.w / 2, y + antenna.h / 2, f"R{antenna.reader}", 4.0, colour, bold=True,
                   role="antenna-label", name=str(antenna.reader))


def _legend(zones: ZoneMap, antennas: list[Antenna], sq: float, tag_mm: float, top: float) -> Iterator[Shape]:
    left = MARGIN_MM
    yield Line(left, top + 8, left + 100, top + 8, "#000000", 0.5, role="scale-bar", name="100 mm")
    for tick in (0.0, 50.0, 100.0):
        yield Line(left + tick, top + 6, left + tick, top + 10, "#000000", 0.5, role="scale-tick")
    yield Text(left + 104, top + 8, "100 mm: measure it on the print", 3.5, anchor="start", role="legend")
    module = f"{MODULE_MM[0]:g} x {MODULE_MM[1]:g} mm"
    lines = [
        f"Rn: reader n's RC522 module ({module}), blue in rooms, orange at doors and spaces.",
        (f"Red squares: a {tag_mm:g} mm tag there lies over that reader's antenna (cross-read risk):"
         " check them with board-monitor --survey before gluing."),
    ]
    off = [f"R{r} {z.describe()}" for r, z in zones.items() if r not in {a.reader for a in antennas}]
    if off:
        lines.append("Off the board: " + ", ".join(off) + ".")
    for n, line in enumerate(lines):
        yield Text(left, top + 15 + n * 5.5, line, 3.5, anchor="start", role="legend")

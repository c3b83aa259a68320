"""Where every printed marker is, in millimetres on the board's plane: the ``camera markers --json`` form.

API (for the camera reader, the scene renderer and the live adapter):

- ``layout(edition, square_mm=21.0) -> dict``: exactly the JSON of issue 29,
  ``{"edition", "dictionary", "board": {"width_mm", "height_mm"}, "corners": [...],
  "pieces": [...], "places": {...}}``.
- ``Plan.of(layout_dict)``: the same data typed, with the lookups the reader needs
  (which marker id is which piece, the place nearest a board point).

The board's plane is the drawing of ``board EDITION --png`` scaled so that a
grid square is ``square_mm`` (21 mm: a Classic board is about 50 cm across its
24 columns): x to the right, y down, from the drawing's top-left corner.

Marker ids are global over the bundled editions (corners 0-3, then every
distinct piece name in a fixed order), so one sticker serves every edition that
has that piece (Classic and Master Detective share twelve) and a sticker of
another edition is recognised as foreign. Every id fits ``DICT_4X4_50``:
4 corners + 42 distinct pieces (Classic 12, Master Detective 6 more, Doctor Who
12, Big Bang Theory 12) = 46 of 50. It is OpenCV's smallest predefined
dictionary with that many ids, and the smallest dictionary has the fewest bits
(16): the biggest cells for a marker only 14 mm across, so it still reads from
across a table. A user edition's pieces not in the table take the free ids.

>>> from companion.rules.edition import load_edition
>>> data = layout(load_edition("classic"))
>>> data["dictionary"], [c["id"] for c in data["corners"]]
('DICT_4X4_50', [0, 1, 2, 3])
>>> scarlet = next(p for p in data["pieces"] if p["name"] == "Miss Scarlet")
>>> scarlet["id"], scarlet["kind"]
(4, 'mover')
>>> data["places"]["h25"]
[173.25, 549.938]
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.rules.board import Board, square_name
from companion.rules.drawing import Layout as Drawn
from companion.rules.edition import Edition, load_bundled
from companion.rules.errors import ClueError

DICTIONARY = "DICT_4X4_50"
DICTIONARY_SIZE = 50
SQUARE_MM = 21.0  # companion.table.template.DEFAULT_SQUARE_MM: a Classic square
BUNDLED_ORDER = ("classic", "master_detective", "doctor_who", "big_bang_theory")  # fixes the ids: append only
CORNER_NAMES = ("top left", "top right", "bottom right", "bottom left")  # ids 0-3, clockwise like ArUco corners
# Marker sides (black border included) and the height of each marker's face above the board.
# No rulebook gives sizes (seeds 000-004 say nothing of them): estimated from common pawns
# (about 38 mm tall with a ~14 mm flat top) and weapons lying flat (a sticker on a 16 mm card
# tile laid on the weapon, about 10 mm up). A table whose pieces differ edits the JSON.
MOVER_MM, MOVER_HEIGHT_MM = 14.0, 38.0
WEAPON_MM, WEAPON_HEIGHT_MM = 16.0, 10.0
CORNER_CELLS = 1.5  # a corner marker spans 1.5 squares, its outer edges on the grid's outer corner


class LayoutError(ClueError, ValueError):
    """A layout that cannot be made or read (too many pieces for the dictionary, a malformed JSON)."""

    code = "layout"


def layout(edition: Edition, square_mm: float = SQUARE_MM) -> dict[str, Any]:
    """The edition's markers and places as the ``camera markers --json`` dictionary."""
    board = edition.require_board()
    scale = square_mm / Drawn().cell
    width, height = Drawn().size(board)
    corners = _corners(board, square_mm, scale)
    return {
        "edition": edition.id,
        "dictionary": DICTIONARY,
        "board": {"width_mm": _mm(width * scale), "height_mm": _mm(height * scale)},
        "corners": corners,
        "pieces": _pieces(edition),
        "places": _places(board, scale, corners),
    }


def corner_names(edition: Edition) -> dict[int, str]:
    """Each corner marker's id -> the room it lies in ("Kitchen"), else its position, for telling a player which one
    is covered.

    >>> from companion.rules.edition import load_edition
    >>> corner_names(load_edition("classic"))
    {0: 'Kitchen', 1: 'Conservatory', 2: 'Study', 3: 'Lounge'}
    """
    return {n: room or CORNER_NAMES[n] for n, room in corner_rooms(edition).items()}


def corner_rooms(edition: Edition) -> dict[int, str | None]:
    """Each corner marker's id -> the room in that corner of the board (a void corner: the room one or two squares
    in), or None where no room is near (a drawn board with corridors to its corners)."""
    board = edition.require_board()
    rooms: dict[int, str | None] = {}
    for n, (row, col) in enumerate(((0, 0), (0, board.width - 1), (board.height - 1, board.width - 1),
                                    (board.height - 1, 0))):
        step_row, step_col = (1 if row == 0 else -1), (1 if col == 0 else -1)
        near = sorted((r + c, square_name(row + r * step_row, col + c * step_col)) for r in range(3) for c in range(3))
        found = [board.cells[cell] for _, cell in near if board.cells.get(cell) in board.rooms]
        rooms[n] = found[0] if found else None
    return rooms


def piece_ids(edition: Edition) -> dict[str, int]:
    """Each mover's and weapon's marker id: the global table's, else the lowest free id."""
    table = _global_ids()
    ids = {name: table[name] for name in _piece_names(edition) if name in table}
    free = (n for n in range(len(CORNER_NAMES), DICTIONARY_SIZE) if n not in set(table.values()) | set(ids.values()))
    for name in _piece_names(edition):
        if name not in ids:
            found = next(free, None)
            if found is None:
                raise LayoutError(f"{edition.name} has more pieces than {DICTIONARY} has free marker ids")
            ids[name] = found
    return ids


def _global_ids() -> dict[str, int]:
    return dict(_global_table())


@cache  # parsing four editions takes a while; the table never changes within a run
def _global_table() -> tuple[tuple[str, int], ...]:
    ids: dict[str, int] = {}
    for edition_id in BUNDLED_ORDER:
        for name in _piece_names(load_bundled(edition_id)):
            ids.setdefault(name, len(CORNER_NAMES) + len(ids))
    return tuple(ids.items())


def _piece_names(edition: Edition) -> list[str]:
    return [*edition.deck.suspects, *edition.deck.weapons]


def _pieces(edition: Edition) -> list[dict[str, Any]]:
    ids = piece_ids(edition)
    movers = set(edition.deck.suspects)
    return [{"name": name, "kind": "mover" if name in movers else "weapon", "id": ids[name],
             "size_mm": MOVER_MM if name in movers else WEAPON_MM,
             "height_mm": MOVER_HEIGHT_MM if name in movers else WEAPON_HEIGHT_MM}
            for name in _piece_names(edition)]


def _corners(board: Board, square_mm: float, scale: float) -> list[dict[str, Any]]:
    drawn = Drawn()
    left, top = drawn.left * scale, drawn.top * scale
    right, bottom = left + board.width * square_mm, top + board.height * square_mm
    size = CORNER_CELLS * square_mm
    half = size / 2
    centres = ((left + half, top + half), (right - half, top + half), (right - half, bottom - half),
               (left + half, bottom - half))
    return [{"id": n, "center_mm": [_mm(x), _mm(y)], "size_mm": _mm(size)} for n, (x, y) in enumerate(centres)]


def _places(board: Board, scale: float, corners: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Every hallway square's centre; each room's cell centres, less those under a corner marker."""
    drawn = Drawn()
    places: dict[str, Any] = {}
    for square in board.squares:
        x, y = drawn.centre(square)
        places[square] = [_mm(x * scale), _mm(y * scale)]
    for room in board.rooms:
        spots = []
        for cell, owner in board.cells.items():
            x, y = (value * scale for value in drawn.centre(cell))
            if owner == room and not any(_under(corner, x, y, drawn.cell * scale) for corner in corners):
                spots.append([_mm(x), _mm(y)])
        if spots:
            places[room] = sorted(spots, key=lambda p: (p[1], p[0]))
    return places


def _under(corner: Mapping[str, Any], x: float, y: float, square: float) -> bool:
    """A cell under a corner sticker, or next to it: a tall piece there would lean over the sticker in a photo."""
    cx, cy = corner["center_mm"]
    reach = corner["size_mm"] / 2 + 1.5 * square
    return bool(abs(x - cx) < reach and abs(y - cy) < reach)


def _mm(value: float) -> float:
    return round(value, 3)


# The typed view the reader and the renderer use


@dataclass(frozen=True)
class Marker:
    """One printed marker: its id, the piece (or corner) it stands for, its side and height in mm."""

    id: int
    name: str
    kind: str  # "mover", "weapon" or "corner"
    size_mm: float
    height_mm: float
    center_mm: tuple[float, float] | None = None  # corners only: fixed on the board


@dataclass(frozen=True)
class Plan:
    """A layout dictionary, typed: markers by id, and every place's centres for the nearest-place lookup."""

    edition: str
    dictionary: str
    width_mm: float
    height_mm: float
    corners: tuple[Marker, ...]
    pieces: tuple[Marker, ...]
    centres: tuple[tuple[str, float, float], ...]  # (place, x, y): a square once, a room once per spot
    square_mm: float

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Plan:
        """Read a ``layout()`` dictionary (or its JSON, loaded); LayoutError if a field is missing."""
        try:
            corners = tuple(Marker(int(c["id"]), CORNER_NAMES[n], "corner", float(c["size_mm"]), 0.0,
                                   (float(c["center_mm"][0]), float(c["center_mm"][1])))
                            for n, c in enumerate(data["corners"]))
            pieces = tuple(Marker(int(p["id"]), str(p["name"]), str(p["kind"]), float(p["size_mm"]),
                                  float(p["height_mm"])) for p in data["pieces"])
            centres = tuple(_centres(data["places"]))
            board = data["board"]
            plan = cls(str(data["edition"]), str(data["dictionary"]), float(board["width_mm"]),
                       float(board["height_mm"]), corners, pieces, centres, _spacing(centres))
        except (KeyError, IndexError, TypeError, ValueError) as err:
            raise LayoutError(f"not a camera layout: {err!r}") from None
        if len(corners) != len(CORNER_NAMES):
            raise LayoutError(f"a camera layout has 4 corners, not {len(corners)}")
        return plan

    def marker(self, marker_id: int) -> Marker | None:
        return next((m for m in (*self.corners, *self.pieces) if m.id == marker_id), None)

    def place_at(self, x: float, y: float) -> str | None:
        """The place whose centre is nearest the board point (a square's, or a room's cell), None off the board."""
        name, px, py = min(self.centres, key=lambda c: (c[1] - x) ** 2 + (c[2] - y) ** 2)
        return name if math.hypot(px - x, py - y) <= self.square_mm else None

    def centre_of(self, place: str) -> tuple[float, float]:
        """A place's first centre (a square's centre, a room's first spot)."""
        return next((x, y) for name, x, y in self.centres if name == place)


def _centres(places: Mapping[str, Any]) -> Iterator[tuple[str, float, float]]:
    for name, value in places.items():
        points = value if value and isinstance(value[0], list) else [value]
        for x, y in points:
            yield str(name), float(x), float(y)


def _spacing(centres: Sequence[tuple[str, float, float]]) -> float:
    """A grid square's side: the smallest distance between two place centres (the grid's pitch)."""
    xs = sorted({round(x, 3) for _, x, _ in centres})
    gaps = [b - a for a, b in zip(xs, xs[1:]) if b - a > 1e-6]
    if not gaps:
        raise ValueError("fewer than two place columns")
    return min(gaps)

"""Pictures of a board: an SVG and a PNG drawn from one list of shapes.

The point is checking a map by eye: print or show the drawing beside the real
board and compare square by square. Every grid square is one cell, labelled
with its name; rooms are pale areas with their name, doors a dark bar on the
side they open onto, passages dashed lines and joins thick ones.

The drawing is computed once as plain data (:func:`board_drawing`), then
serialised (:func:`to_svg`) or rasterised (:func:`to_png_bytes`), so the web
page can reuse the same shapes and :class:`Layout` to draw the board:

>>> from companion.rules.edition import load_edition
>>> svg = board_svg(load_edition("classic"))
>>> svg.startswith("<svg") and ">h25<" in svg and ">Kitchen<" in svg
True
>>> Layout().centre("a1")
(40.0, 70.0)
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from io import BytesIO
from typing import TYPE_CHECKING, Literal, TypeAlias
from xml.sax.saxutils import escape, quoteattr

from .board import Board, column_name, square_name, square_position
from .errors import ClueError

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont

    from .edition import Edition

Anchor = Literal["start", "middle", "end"]
HALLWAY, HALLWAY_EDGE, HALLWAY_TEXT = "#fbf3d5", "#b9a77a", "#8a7a55"
VOID, WALL, DOOR, INK, PASSAGE, JOIN = "#cfcfcf", "#4a4a4a", "#8b3a0e", "#222222", "#5b2a86", "#1f5f8b"
MARK_SYMBOLS = {"snoop": "S", "bonus": "?"}  # other kinds show their first letter
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # orthogonal neighbours: (d_row, d_col)


class DrawingError(ClueError):
    """The drawing cannot be made here (Pillow missing for a PNG)."""

    code = "drawing"


# Shapes: plain data, in pixels, drawn in list order (later on top).


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    stroke: str | None = None
    width: float = 0.0
    role: str = ""  # becomes the SVG class: hallway, room, void, start, door...
    name: str = ""  # the square or place it stands for (SVG data-name)


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    width: float
    dashed: bool = False
    role: str = ""
    name: str = ""


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str | None
    stroke: str | None = None
    width: float = 0.0
    role: str = ""
    name: str = ""


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # the vertical centre of the text
    text: str
    size: float
    fill: str = INK
    anchor: Anchor = "middle"
    bold: bool = False
    halo: str | None = None  # an outline colour that keeps text legible over lines
    role: str = ""
    name: str = ""


Shape: TypeAlias = Rect | Line | Circle | Text


@dataclass(frozen=True)
class Drawing:
    width: int
    height: int
    title: str
    shapes: tuple[Shape, ...]


@dataclass(frozen=True)
class Labels:
    """How the drawing writes what a player reads: each card's name in the table's locale (identity -> name;
    a place not named here keeps its identity) and the start room's note. The caller translates them: the
    rules know no language."""

    names: Mapping[str, str] = field(default_factory=dict)
    start: str = "(start)"

    def name(self, identity: str) -> str:
        return self.names.get(identity) or identity


@dataclass(frozen=True)
class Layout:
    """Where grid squares fall in the picture: a cell size and the grid's top-left corner."""

    cell: float = 32.0
    left: float = 24.0  # room for row numbers
    top: float = 54.0  # room for the title and column letters

    def box(self, square: str) -> tuple[float, float, float, float]:
        """``(x, y, w, h)`` of a grid square such as ``"h25"``."""
        row, col = position(square)
        return self.left + col * self.cell, self.top + row * self.cell, self.cell, self.cell

    def centre(self, square: str) -> tuple[float, float]:
        x, y, w, h = self.box(square)
        return x + w / 2, y + h / 2

    def size(self, board: Board) -> tuple[int, int]:
        """The picture's pixel size for a board: the grid plus margins."""
        return math.ceil(self.left * 2 + board.width * self.cell), math.ceil(self.top + 12 + board.height * self.cell)


def position(square: str) -> tuple[int, int]:
    """``(row, column)`` from 0 of a grid square's name."""
    return square_position(square)


def name_of(row: int, col: int) -> str:
    return square_name(row, col)


def place_centre(board: Board, place: str, layout: Layout = Layout()) -> tuple[float, float]:
    """Where to draw something at a place: a room's label point, or a square's (or spot's) centre."""
    if place in board.spots:
        return layout.centre(board.squares[board.spots[place]])
    if place in board.rooms:
        return _room_point(board, place, layout)
    return layout.centre(place)


def room_colours(board: Board) -> dict[str, str]:
    """A distinct pale colour per room: hues spread by the golden ratio, so neighbours differ."""
    colours = {}
    for n, room in enumerate(board.rooms):
        red, green, blue = colorsys.hls_to_rgb((n * 0.618034) % 1.0, 0.86, 0.55)
        colours[room] = f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"
    return colours


def initials(suspect: str) -> str:
    """The first letters of a name's first and last words, as the pages letter the movers
    (web/static/board.js): "Miss Scarlet" -> "MS", "Oberst von Gatow" -> "OG", "Plum" -> "P"."""
    words = [word for word in suspect.replace(".", " ").split() if word[0].isalpha()]
    return "".join(word[0].upper() for word in (words[:1] + words[1:][-1:]))


# Building the shapes


def board_drawing(title: str, board: Board, layout: Layout = Layout(), labels: Labels = Labels()) -> Drawing:
    """Every shape of a board's picture, bottom layer first; rooms and start squares written by ``labels``
    (a shape's ``name`` stays the place's identity, which the pages look up)."""
    width, height = layout.size(board)
    shapes: list[Shape] = [Rect(0, 0, width, height, "#ffffff", role="background")]
    shapes += _cells(board, layout)
    shapes += _walls_and_doors(board, layout)
    shapes += _links(board, layout)
    shapes += _square_labels(board, layout, labels)
    shapes += _room_labels(board, layout, labels)
    shapes += _margins(title, board, layout, width)
    return Drawing(width, height, title, tuple(shapes))


def grid_shapes(board: Board, layout: Layout, labels: Labels = Labels()) -> list[Shape]:
    """The grid alone (squares, rooms, walls, doors, labels), for drawings built on it (the antenna template)."""
    return [*_cells(board, layout), *_walls_and_doors(board, layout), *_square_labels(board, layout, labels),
            *_room_labels(board, layout, labels)]


def _grid(board: Board) -> Iterator[tuple[int, int, str]]:
    for row in range(board.height):
        for col in range(board.width):
            yield row, col, name_of(row, col)


def _cells(board: Board, layout: Layout) -> Iterator[Shape]:
    colours = room_colours(board)
    for _, _, name in _grid(board):
        x, y, w, h = layout.box(name)
        if name in board.index:
            yield Rect(x, y, w, h, HALLWAY, HALLWAY_EDGE, 1, "hallway", name)
        elif name in board.cells:
            # Stroked in its own colour so a room reads as one area, not a grid.
            colour = colours[board.cells[name]]
            yield Rect(x, y, w, h, colour, colour, 1, "room", board.cells[name])
        else:
            yield Rect(x, y, w, h, VOID, VOID, 1, "void", name)


def _edge(layout: Layout, square: str, d_row: int, d_col: int, inset: float = 0.0) -> tuple[float, float, float, float]:
    """The side of a square facing one step ``(d_row, d_col)``, moved ``inset`` pixels inwards."""
    x, y, w, h = layout.box(square)
    if d_row:
        edge_y = (y + h - inset) if d_row > 0 else (y + inset)
        return x, edge_y, x + w, edge_y
    edge_x = (x + w - inset) if d_col > 0 else (x + inset)
    return edge_x, y, edge_x, y + h



def _walls_and_doors(board: Board, layout: Layout) -> Iterator[Shape]:
    """A wall where a room meets anything else; a door bar where a door cell meets the hallway."""
    doors = set(board.door_cells)
    for name, room in board.cells.items():
        row, col = position(name)
        for d_row, d_col in STEPS:
            r, c = row + d_row, col + d_col
            inside = 0 <= r < board.height and 0 <= c < board.width
            other = name_of(r, c) if inside else ""
            if board.cells.get(other) == room:
                continue
            if name in doors and other in board.index:
                yield Line(*_edge(layout, name, d_row, d_col, inset=2.5), DOOR, 5, role="door-edge", name=name)
            else:
                yield Line(*_edge(layout, name, d_row, d_col), WALL, 2, role="wall", name=room)
    for name in board.door_cells:
        x, y = layout.centre(name)
        side = layout.cell * 0.28
        yield Rect(x - side / 2, y - side / 2, side, side, DOOR, "#ffffff", 1, "door", name)


def _links(board: Board, layout: Layout) -> Iterator[Shape]:
    """Secret passages dashed, joining rooms thick, each from one end's centre to the other's."""
    for one, other in board.passage_pairs:
        if _placed(board, one) and _placed(board, other):
            yield Line(*place_centre(board, one, layout), *place_centre(board, other, layout),
                       PASSAGE, 2.5, dashed=True, role="passage", name=f"{one} - {other}")
    for one, other in board.joins:
        if _placed(board, one) and _placed(board, other):
            yield Line(*place_centre(board, one, layout), *place_centre(board, other, layout),
                       JOIN, 6, role="join", name=f"{one} - {other}")


def _placed(board: Board, place: str) -> bool:
    """A passage end the drawing can find (a map being checked may name one it lacks)."""
    return place in board.spots or (place in board.rooms and place in board.cells.values())


def _square_labels(board: Board, layout: Layout, labels: Labels) -> Iterator[Shape]:
    """Each hallway square's name near its top; below it, what stands there."""
    small = layout.cell * 0.25
    starts = {square: suspect for suspect, square in board.starts.items()}
    spots = {square: spot for spot, square in board.spots.items()}
    for number, name in enumerate(board.squares):
        x, y, _, h = layout.box(name)
        cx = x + layout.cell / 2
        yield Text(cx, y + h * 0.24, name, small, HALLWAY_TEXT, role="square-name", name=name)
        low = y + h * 0.66
        if number in starts:
            yield Rect(x + 2, y + 2, h - 4, h - 4, "none", "#c0392b", 1.5, "start", name)
            yield Text(cx, low, initials(labels.name(starts[number])), layout.cell * 0.34, "#c0392b", bold=True,
                       role="start-label", name=starts[number])
        if number in board.marks:
            kind = board.marks[number]
            yield Circle(cx, low, layout.cell * 0.2, "#fff7c2", "#7a6a00", 1.2, "mark", kind)
            yield Text(cx, low, MARK_SYMBOLS.get(kind, kind[:1].upper()), layout.cell * 0.28, "#7a6a00",
                       bold=True, role="mark-label", name=kind)
        if number in spots:
            yield Text(cx, low, spots[number], small, PASSAGE, halo="#ffffff", role="spot-label", name=spots[number])


def _room_labels(board: Board, layout: Layout, labels: Labels) -> Iterator[Shape]:
    """Each room's name once, shrunk to fit its width; the start room says so underneath."""
    for room in board.rooms:
        shown = labels.name(room)
        names = [name for name, owner in board.cells.items() if owner == room]
        if not names:
            continue
        columns = {position(name)[1] for name in names}
        span = (max(columns) - min(columns) + 1) * layout.cell
        size = max(6.0, min(layout.cell * 0.42, span * 0.92 / (0.58 * max(len(shown), 1))))
        x, y = _room_point(board, room, layout)
        yield Text(x, y, shown, round(size, 1), INK, bold=True, halo="#ffffff", role="room-name", name=room)
        if room == board.start_room:
            yield Text(x, y + size * 1.3, labels.start, round(size * 0.85, 1), INK, halo="#ffffff",
                       role="start-room", name=room)


def _room_point(board: Board, room: str, layout: Layout) -> tuple[float, float]:
    """The mean centre of a room's cells, or the nearest of its cells when that falls outside it."""
    centres = [layout.centre(name) for name, owner in board.cells.items() if owner == room]
    if not centres:
        raise KeyError(room)
    mean_x = sum(x for x, _ in centres) / len(centres)
    mean_y = sum(y for _, y in centres) / len(centres)
    half = layout.cell / 2
    if any(abs(x - mean_x) <= half and abs(y - mean_y) <= half for x, y in centres):
        return mean_x, mean_y
    return min(centres, key=lambda c: (c[0] - mean_x) ** 2 + (c[1] - mean_y) ** 2)


def _margins(title: str, board: Board, layout: Layout, width: int) -> Iterator[Shape]:
    """The title, then column letters along the top and row numbers down the left."""
    yield Text(width / 2, 18, title, 16, INK, bold=True, role="title")
    for col in range(board.width):
        x, _ = layout.centre(name_of(0, col))
        yield Text(x, layout.top - 9, column_name(col), 11, INK, role="column")
    for row in range(board.height):
        _, y = layout.centre(name_of(row, 0))
        yield Text(layout.left - 4, y, str(row + 1), 11, INK, anchor="end", role="row")


# SVG


def board_svg(edition: Edition, labels: Labels = Labels(), title: str | None = None) -> str:
    """A standalone SVG picture of an edition's board (EditionError if it has none)."""
    return to_svg(board_drawing(title or edition.name, edition.require_board(), labels=labels))


def to_svg(drawing: Drawing, unit: str = "") -> str:
    """The drawing as SVG text; ``unit`` ("mm") sizes it for print, one drawing unit to one ``unit``."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{drawing.width}{unit}" height="{drawing.height}{unit}" '
            f'viewBox="0 0 {drawing.width} {drawing.height}" font-family="sans-serif">')
    body = [f"<title>{escape(drawing.title)}</title>"] + [_svg_shape(shape) for shape in drawing.shapes]
    return "\n".join([head, *body, "</svg>", ""])


def _svg_attrs(**attrs: str | float | None) -> str:
    parts = []
    for key, value in attrs.items():
        if value is None or value == "":
            continue
        text = f"{value:g}" if isinstance(value, float) else str(value)
        parts.append(f"{key.rstrip('_').replace('_', '-')}={quoteattr(text)}")
    return " ".join(parts)


def _svg_shape(shape: Shape) -> str:
    tags = {"class_": shape.role, "data_name": shape.name}
    if isinstance(shape, Rect):
        attrs = _svg_attrs(x=shape.x, y=shape.y, width=shape.w, height=shape.h, fill=shape.fill,
                           stroke=shape.stroke, stroke_width=shape.width or None, **tags)
        return f"<rect {attrs}/>"
    if isinstance(shape, Line):
        attrs = _svg_attrs(x1=shape.x1, y1=shape.y1, x2=shape.x2, y2=shape.y2, stroke=shape.stroke,
                           stroke_width=shape.width, stroke_dasharray="8 5" if shape.dashed else None,
                           stroke_linecap="round" if not shape.dashed else None, **tags)
        return f"<line {attrs}/>"
    if isinstance(shape, Circle):
        attrs = _svg_attrs(cx=shape.cx, cy=shape.cy, r=shape.r, fill=shape.fill or "none", stroke=shape.stroke,
                           stroke_width=shape.width or None, **tags)
        return f"<circle {attrs}/>"
    halo: dict[str, str | float | None] = (
        {"stroke": shape.halo, "stroke_width": 3.0, "paint_order": "stroke"} if shape.halo else {}
    )
    attrs = _svg_attrs(x=shape.x, y=shape.y, font_size=shape.size, fill=shape.fill, text_anchor=shape.anchor,
                       dominant_baseline="central", font_weight="bold" if shape.bold else None, **halo, **tags)
    return f"<text {attrs}>{escape(shape.text)}</text>"


# PNG


def board_png_bytes(edition: Edition, scale: float = 1.0, labels: Labels = Labels(), title: str | None = None) -> bytes:
    """The board as PNG bytes, ``scale`` times the SVG's pixel size."""
    return to_png_bytes(board_drawing(title or edition.name, edition.require_board(), labels=labels), scale)


def board_png(edition: Edition, path: str, scale: float = 1.0) -> None:
    """Write the board as a PNG file."""
    data = board_png_bytes(edition, scale)
    with open(path, "wb") as handle:
        handle.write(data)


def to_png_bytes(drawing: Drawing, scale: float = 1.0) -> bytes:
    """Rasterise a drawing with Pillow's ImageDraw (no cairo needed)."""
    try:  # imported here so the rest of the package never needs Pillow
        from PIL import Image, ImageDraw
    except ImportError:
        raise DrawingError("drawing a PNG needs Pillow: pip install pillow") from None
    size = (math.ceil(drawing.width * scale), math.ceil(drawing.height * scale))
    image = Image.new("RGB", size, "#ffffff")
    painter = _Painter(ImageDraw.Draw(image), scale)
    for shape in drawing.shapes:
        painter.draw(shape)
    out = BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


class _Painter:
    """Draws shapes on a Pillow image, scaling coordinates and caching fonts by size."""

    def __init__(self, draw: ImageDraw.ImageDraw, scale: float) -> None:
        self.draw_on, self.scale = draw, scale
        self.fonts: dict[int, ImageFont.ImageFont | ImageFont.FreeTypeFont] = {}

    def draw(self, shape: Shape) -> None:
        s = self.scale
        if isinstance(shape, Rect):
            self.draw_on.rectangle((shape.x * s, shape.y * s, (shape.x + shape.w) * s - 1, (shape.y + shape.h) * s - 1),
                                   fill=_colour(shape.fill), outline=_colour(shape.stroke), width=self._px(shape.width))
        elif isinstance(shape, Line):
            ends = (shape.x1 * s, shape.y1 * s, shape.x2 * s, shape.y2 * s)
            for segment in (_dashes(*ends, 8 * s, 5 * s) if shape.dashed else [ends]):
                self.draw_on.line(segment, fill=shape.stroke, width=self._px(shape.width))
        elif isinstance(shape, Circle):
            box = ((shape.cx - shape.r) * s, (shape.cy - shape.r) * s, (shape.cx + shape.r) * s, (shape.cy + shape.r) * s)
            self.draw_on.ellipse(box, fill=_colour(shape.fill), outline=_colour(shape.stroke), width=self._px(shape.width))
        else:
            anchor = {"start": "lm", "middle": "mm", "end": "rm"}[shape.anchor]
            self.draw_on.text((shape.x * s, shape.y * s), shape.text, fill=shape.fill, font=self._font(shape.size),
                              anchor=anchor, stroke_width=self._px(2) if shape.halo else 0, stroke_fill=shape.halo)

    def _px(self, width: float) -> int:
        return max(1, round(width * self.scale)) if width else 0

    def _font(self, size: float) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
        pixels = max(6, round(size * self.scale))
        if pixels not in self.fonts:
            from PIL import ImageFont

            try:
                self.fonts[pixels] = _scalable_font(pixels)
            except ImportError:  # Pillow built without FreeType: one fixed-size bitmap font
                self.fonts[pixels] = ImageFont.load_default()
        return self.fonts[pixels]


# Pillow's own default font has no "ü" or "é" (a German board's "Küche" came out as "K?che"). DejaVu Sans has
# them, and Debian installs it with fontconfig (fontconfig-config depends on fonts-dejavu-core or another
# free font family: https://packages.debian.org/stable/fontconfig-config); Pillow finds it by name in
# /usr/share/fonts. Without it, the default font.
FONT_FILES = ("DejaVuSans.ttf", "LiberationSans-Regular.ttf")


def _scalable_font(pixels: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    for name in FONT_FILES:
        try:
            return ImageFont.truetype(name, pixels)
        except OSError:
            continue
    return ImageFont.load_default(size=pixels)


def _colour(value: str | None) -> str | None:
    return None if value in (None, "none") else value


def _dashes(x1: float, y1: float, x2: float, y2: float, on: float, off: float) -> list[tuple[float, ...]]:
    """A line cut into dashes, since ImageDraw draws only solid lines."""
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return []
    dx, dy = (x2 - x1) / length, (y2 - y1) / length
    segments: list[tuple[float, ...]] = []
    start = 0.0
    while start < length:
        end = min(start + on, length)
        segments.append((x1 + dx * start, y1 + dy * start, x1 + dx * end, y1 + dy * end))
        start = end + off
    return segments

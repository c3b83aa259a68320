"""A photo of a board, rectified to its grid and traced into a first guess of the map (Pillow only).

The host drags the photo's four grid corners; :func:`dewarp` maps that
quadrilateral onto a ``width`` x ``height`` grid of square cells, and
:func:`trace` reads each cell's colour back as a map character: ``#`` void,
``.`` hallway, a capital letter per room (one letter per connected area of
one colour). Doors, start squares and special spaces are not recovered: the
editor paints those over the underlay.

>>> corners = ((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0))
>>> coefficients = homography(corners, tuple((2 * x + 1, 3 * y) for x, y in corners))
>>> project(coefficients, (5.0, 5.0))
(11.0, 15.0)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from PIL import Image

from companion.rules.errors import ClueError

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]  # top-left, top-right, bottom-right, bottom-left
Coefficients = tuple[float, float, float, float, float, float, float, float]
Colour = tuple[float, float, float]

VOID, HALLWAY = "#", "."
ROOM_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Two squares are one colour within this RGB distance. In the drawing
# (companion.rules.drawing.room_colours) the closest room colours of a board with up
# to 11 rooms are 13 apart (with 12 or more, 9.4: such rooms are told apart only
# where they do not touch), a room is at least 20 from the hallway and 32 from the
# void; a square's colour read from a photo with mild noise and JPEG is good to about 3.
SAME_COLOUR = 10.0
PATCH = 0.6  # the central share of a cell that is sampled: clear of walls, door bars and a misplaced corner
MIN_ROOM = 4  # squares: a smaller area is a square misread (under a label), not a room
SAMPLES = 12  # points per side of a cell's patch (point samples: no text blended into the colour)
MODE_RADIUS = 16.0  # a patch's colour: pixels this close to a guess support it (photo noise is ~5 a channel)
STARTS = 4  # guesses of a patch's colour, from its busiest coarse colour bins


class PhotoError(ClueError, ValueError):
    """A photo, its corners or the grid size cannot be used; the message says which and why."""

    code = "bad_photo"


# ---- the perspective ----------------------------------------------------------------------------

def homography(source: Sequence[Point], target: Sequence[Point]) -> Coefficients:
    """The projective map taking the 4 ``source`` points onto the 4 ``target`` points.

    ``(a, b, c, d, e, f, g, h)`` with ``u = (a x + b y + c) / (g x + h y + 1)`` and
    ``v = (d x + e y + f) / (g x + h y + 1)``. Pillow's PERSPECTIVE transform wants
    the map from OUTPUT pixels to INPUT pixels ("for each pixel (x, y) in the output
    image, the new value is taken from a position ... in the input image":
    pillow.readthedocs.io, ImageTransform.PerspectiveTransform), in continuous
    coordinates where pixel ``(i, j)`` covers ``[i, i+1) x [j, j+1)``; so to rectify
    a photo pass ``homography(grid_corners, photo_corners)``.
    """
    if len(source) != 4 or len(target) != 4:
        raise PhotoError("A perspective needs exactly 4 corners.")
    rows: list[list[float]] = []
    for (x, y), (u, v) in zip(source, target):
        rows.append([x, y, 1.0, 0.0, 0.0, 0.0, -x * u, -y * u, u])
        rows.append([0.0, 0.0, 0.0, x, y, 1.0, -x * v, -y * v, v])
    a, b, c, d, e, f, g, h = _solve(rows)
    return a, b, c, d, e, f, g, h


def _solve(rows: list[list[float]]) -> list[float]:
    """Gauss-Jordan elimination with partial pivoting of an augmented n x (n+1) system."""
    size = len(rows)
    scale = max(abs(value) for row in rows for value in row[:-1]) or 1.0
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12 * scale:
            raise PhotoError("The corners are degenerate: no three of them may lie on one line.")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [value / lead for value in rows[col]]
        for r in range(size):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [value - factor * top for value, top in zip(rows[r], rows[col])]
    return [row[-1] for row in rows]


def project(coefficients: Coefficients, point: Point) -> Point:
    """Where ``point`` lands under the map."""
    a, b, c, d, e, f, g, h = coefficients
    x, y = point
    w = g * x + h * y + 1.0
    return (a * x + b * y + c) / w, (d * x + e * y + f) / w


def inverse(coefficients: Coefficients) -> Coefficients:
    """The map undoing ``coefficients`` (the 3 x 3 matrix's adjugate, scaled so its last entry is 1)."""
    a, b, c, d, e, f, g, h = coefficients
    adjugate = (e - f * h, c * h - b, b * f - c * e,
                f * g - d, a - c * g, c * d - a * f,
                d * h - e * g, b * g - a * h, a * e - b * d)
    last = adjugate[8]
    if abs(last) < 1e-12:
        raise PhotoError("The perspective sends a corner to infinity.")
    p, q, r, s, t, u, v, w, _ = (value / last for value in adjugate)
    return p, q, r, s, t, u, v, w


def grid_corners(width: float, height: float) -> Quad:
    """The corners of a ``width`` x ``height`` rectangle at the origin, in corner order."""
    return (0.0, 0.0), (width, 0.0), (width, height), (0.0, height)


def check_corners(corners: Sequence[Sequence[float]], size: tuple[int, int]) -> Quad:
    """The corners as a quad, if they are 4 points inside an image of ``size`` going round a convex shape.

    >>> check_corners([[0, 0], [9, 0], [9, 9], [0, 9]], (10, 10))[2]
    (9.0, 9.0)
    >>> check_corners([[0, 0], [9, 0], [0, 9], [9, 9]], (10, 10))
    Traceback (most recent call last):
    ...
    web.board_photo.PhotoError: The corners must go top-left, top-right, bottom-right, bottom-left round the board.
    """
    if len(corners) != 4 or any(len(corner) != 2 for corner in corners):
        raise PhotoError("Give 4 corners, each [x, y].")
    names = ("top-left", "top-right", "bottom-right", "bottom-left")
    points: list[Point] = []
    for name, (x, y) in zip(names, corners):
        if not (math.isfinite(x) and math.isfinite(y)) or not (0 <= x <= size[0] and 0 <= y <= size[1]):
            raise PhotoError("The {corner} corner ({x}, {y}) is outside the photo ({width} x {height} pixels).",
                             corner=name, x=f"{x:g}", y=f"{y:g}", width=size[0], height=size[1])
        points.append((float(x), float(y)))
    # With y pointing down, going round clockwise turns right at every corner: every cross product > 0.
    for n in range(4):
        (x0, y0), (x1, y1), (x2, y2) = points[n], points[(n + 1) % 4], points[(n + 2) % 4]
        if (x1 - x0) * (y2 - y1) - (y1 - y0) * (x2 - x1) <= 0:
            raise PhotoError("The corners must go top-left, top-right, bottom-right, bottom-left round the board.")
    return points[0], points[1], points[2], points[3]


def dewarp(image: Image.Image, corners: Quad, width: int, height: int, cell_px: int) -> Image.Image:
    """The photo's quadrilateral ``corners`` rectified to ``width`` x ``height`` cells of ``cell_px`` pixels."""
    size = (width * cell_px, height * cell_px)
    coefficients = homography(grid_corners(*size), corners)  # output pixel -> photo pixel, as Pillow wants
    rgb = image if image.mode == "RGB" else image.convert("RGB")  # no copy of a photo already RGB
    return rgb.transform(size, Image.Transform.PERSPECTIVE, coefficients, Image.Resampling.BILINEAR)


# ---- reading the squares -------------------------------------------------------------------------

def cell_colours(rectified: Image.Image, width: int, height: int) -> list[list[Colour]]:
    """Each cell's background colour: the dominant colour of its central patch, so labels do not count."""
    image = rectified.convert("RGB")
    cell_w, cell_h = image.width / width, image.height / height
    margin = (1 - PATCH) / 2
    colours = []
    for row in range(height):
        line = []
        for col in range(width):
            box = (round((col + margin) * cell_w), round((row + margin) * cell_h),
                   max(round((col + 1 - margin) * cell_w), round((col + margin) * cell_w) + 1),
                   max(round((row + 1 - margin) * cell_h), round((row + margin) * cell_h) + 1))
            patch = image.crop(box).resize((SAMPLES, SAMPLES), Image.Resampling.NEAREST)
            line.append(dominant_colour(patch.tobytes()))
        colours.append(line)
    return colours


def dominant_colour(rgb: bytes) -> Colour:
    """The colour most pixels share (not their average), so a label or a door mark does not tint it.

    Starting from the busiest coarse colour bins, each guess moves to the median of the
    pixels near it; the guess with the most pixels near it wins.

    >>> dominant_colour(bytes([200, 10, 10] * 6 + [0, 0, 0] * 3 + [255, 255, 255] * 2))
    (200.0, 10.0, 10.0)
    """
    pixels = [(rgb[n], rgb[n + 1], rgb[n + 2]) for n in range(0, len(rgb) - 2, 3)]
    bins = Counter((r >> 4, g >> 4, b >> 4) for r, g, b in pixels)
    best: tuple[int, Colour] = (0, (0.0, 0.0, 0.0))
    for (r, g, b), _ in bins.most_common(STARTS):
        estimate: Colour = ((r << 4) + 8.0, (g << 4) + 8.0, (b << 4) + 8.0)
        close = pixels
        for _ in range(3):
            close = [pixel for pixel in pixels if math.dist(pixel, estimate) <= MODE_RADIUS]
            if not close:
                break
            estimate = (_median([p[0] for p in close]), _median([p[1] for p in close]), _median([p[2] for p in close]))
        if len(close) > best[0]:
            best = (len(close), estimate)
    return best[1]


def _median(values: list[int]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return float(ordered[middle]) if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _mean(colours: Sequence[Sequence[float]]) -> Colour:
    count = len(colours)
    return (sum(c[0] for c in colours) / count, sum(c[1] for c in colours) / count,
            sum(c[2] for c in colours) / count)


# ---- from colours to a map -----------------------------------------------------------------------

class _Regions:
    """Connected areas of one colour: orthogonal neighbours within SAME_COLOUR share an area (union-find)."""

    def __init__(self, colours: list[list[Colour]]) -> None:
        self.height, self.width = len(colours), len(colours[0])
        self.parent = list(range(self.height * self.width))
        for row in range(self.height):
            for col in range(self.width):
                here = colours[row][col]
                if col + 1 < self.width and math.dist(here, colours[row][col + 1]) <= SAME_COLOUR:
                    self._join(row * self.width + col, row * self.width + col + 1)
                if row + 1 < self.height and math.dist(here, colours[row + 1][col]) <= SAME_COLOUR:
                    self._join(row * self.width + col, (row + 1) * self.width + col)
        self.cells: dict[int, list[int]] = {}  # region (its first cell in reading order) -> its cells
        for cell in range(self.height * self.width):
            self.cells.setdefault(self._root(cell), []).append(cell)
        self.colour = {region: _mean([colours[c // self.width][c % self.width] for c in cells])
                       for region, cells in self.cells.items()}

    def _root(self, cell: int) -> int:
        while self.parent[cell] != cell:
            self.parent[cell] = self.parent[self.parent[cell]]
            cell = self.parent[cell]
        return cell

    def _join(self, one: int, other: int) -> None:
        low, high = sorted((self._root(one), self._root(other)))
        self.parent[high] = low  # the root is always the region's first cell in reading order

    def region_of(self, cell: int) -> int:
        return self._root(cell)

    def neighbours(self, region: int) -> set[int]:
        """The areas orthogonally next to ``region``."""
        found = set()
        for cell in self.cells[region]:
            row, col = divmod(cell, self.width)
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if 0 <= r < self.height and 0 <= c < self.width:
                    found.add(self._root(r * self.width + c))
        found.discard(region)
        return found

    def edge_cells(self, region: int) -> int:
        return sum(1 for cell in self.cells[region] if self._on_edge(cell))

    def _on_edge(self, cell: int) -> bool:
        row, col = divmod(cell, self.width)
        return row in (0, self.height - 1) or col in (0, self.width - 1)


def trace(rectified: Image.Image, width: int, height: int) -> list[str]:
    """Map rows guessed from a rectified photo: ``#`` void, ``.`` hallway, ``A``, ``B``... one per room.

    The hallway is the colour of the largest connected area. The void is the other
    colour found in the most separate places along the board's edge (the notches of
    an out-of-play border), and only when it is found in two or more. Every other
    connected area of one colour is a room, lettered in reading order, except areas
    of fewer than MIN_ROOM squares (a square under a room's name or a door mark),
    which join the neighbouring area nearest their colour; past 26 rooms, the rest
    take the nearest colour's character.
    """
    if not (width > 0 and height > 0):
        raise PhotoError("The grid needs at least one row and one column.")
    regions = _Regions(cell_colours(rectified, width, height))
    characters = _characters(regions)
    return ["".join(characters[regions.region_of(row * width + col)] for col in range(width))
            for row in range(height)]


def _characters(regions: _Regions) -> dict[int, str]:
    by_size = sorted(regions.cells, key=lambda region: (-len(regions.cells[region]), region))
    hallway = regions.colour[by_size[0]]
    characters = {region: HALLWAY for region in by_size if math.dist(regions.colour[region], hallway) <= SAME_COLOUR}
    void = _void_colour(regions, [region for region in by_size if region not in characters])
    if void is not None:
        characters.update({region: VOID for region in by_size
                           if region not in characters and math.dist(regions.colour[region], void) <= SAME_COLOUR})
    specks = _specks(regions, characters)
    rooms = sorted(region for region in regions.cells if region not in characters and region not in specks)
    characters.update(zip(rooms, ROOM_LETTERS))
    for region in rooms[len(ROOM_LETTERS):]:
        nearest = min(characters, key=lambda known: math.dist(regions.colour[known], regions.colour[region]))
        characters[region] = characters[nearest]
    for speck, into in specks.items():
        characters[speck] = characters[into]
    return characters


def _specks(regions: _Regions, known: dict[int, str]) -> dict[int, int]:
    """Areas too small to be a room (a square under a label or a door mark): each -> the neighbour it joins.

    It joins the adjacent hallway, void or room area nearest its colour.
    """
    small = {region for region in regions.cells if region not in known and len(regions.cells[region]) < MIN_ROOM}
    joins = {}
    for speck in sorted(small):
        around = [region for region in regions.neighbours(speck) if region not in small]
        if around:
            joins[speck] = min(around, key=lambda region: math.dist(regions.colour[region], regions.colour[speck]))
    return joins


def _void_colour(regions: _Regions, candidates: list[int]) -> Colour | None:
    """The colour (of a group of candidate areas) seen in the most places along the edge, if in two or more."""
    groups: list[list[int]] = []  # areas of one colour, grouped by their first (largest) area's colour
    for region in candidates:
        for group in groups:
            if math.dist(regions.colour[group[0]], regions.colour[region]) <= SAME_COLOUR:
                group.append(region)
                break
        else:
            groups.append([region])

    def score(group: list[int]) -> tuple[int, int]:
        edges = [regions.edge_cells(region) for region in group]
        return sum(1 for count in edges if count), sum(edges)

    best = max(groups, key=score, default=None)
    if best is None or score(best)[0] < 2:
        return None
    return regions.colour[best[0]]

"""A board drawn from a map, photographed at an angle, rectified and traced back into the same map.

The "photo" is made here: the board's PNG (companion.rules.drawing) warped by a
known perspective onto a larger table-coloured canvas, with noise, a little blur
and a JPEG round trip. Tracing it must give back every square's kind (void,
hallway, room) and the rooms as the same areas, whatever letters they get.
"""

from __future__ import annotations

import math
import random
import tomllib
from importlib import resources
from io import BytesIO

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from companion.rules.board import Board, Legend, bundled_map_text, read_map
from companion.rules.drawing import Layout, board_drawing, to_png_bytes
from companion.rules.edition import bundled_ids, load_edition
from web.board_photo import (ROOM_LETTERS, VOID, PhotoError, check_corners, dewarp, dominant_colour, grid_corners,
                             homography, inverse, project, trace)

# A small board with what tracing must tell apart: void notches along the edge and a void
# block inside, one connected hallway, four rooms (B and D touching), doors and a start.
SMALL_LEGEND = Legend(rooms={"A": "Attic", "B": "Bar", "C": "Cellar", "D": "Den"}, starts={"1": "Miss Scarlet"})
SMALL_MAP = """\
###....#####
#AAA...BBBB#
#AAa...bBBB.
#AAA...BBBB.
.......DDDD.
..##...dDDD.
..##........
CCCc........
CCCC..1.....
CCCC###..###
"""
PHOTO_SIZE = (1400, 1150)
# Where the drawing's corners land in the photo: a camera above and a little to the side.
PHOTO_QUAD = ((210.0, 130.0), (1180.0, 80.0), (1290.0, 1060.0), (120.0, 1000.0))


def small_board() -> Board:
    return read_map("small.txt", SMALL_LEGEND, text=SMALL_MAP)


def map_rows(board_map: str) -> list[str]:
    return [line for line in board_map.splitlines() if line.strip() and line != "#" and not line.startswith("# ")]


def bundled_map(edition_id: str) -> tuple[list[str], Legend]:
    """A bundled edition's map rows and legend (void characters and room letters), as its files declare them."""
    folder = resources.files("companion.rules.editions")
    board = tomllib.loads(folder.joinpath(f"{edition_id}.toml").read_text(encoding="utf-8"))["board"]
    legend = Legend(hallway=board["hallway"], void=board["void"], rooms=board["rooms"])
    return map_rows(bundled_map_text(board["map"])), legend


def kinds_of(rows: list[str], legend: Legend) -> list[list[str]]:
    """Each square as "#" (void), "." (walkable) or its room's name (doors are room squares)."""
    def kind(char: str) -> str:
        if char in legend.void:
            return VOID
        if char.isalpha() and char.upper() in legend.rooms:
            return legend.rooms[char.upper()]
        return "."
    return [[kind(char) for char in row] for row in rows]


def same_map(traced: list[str], rows: list[str], legend: Legend) -> bool:
    """Void and hallway where the map has them, and the rooms as the same areas up to their letters."""
    expected = kinds_of(rows, legend)
    if [len(row) for row in traced] != [len(row) for row in rows]:
        return False
    renaming: dict[str, str] = {}
    for got_row, want_row in zip(traced, expected):
        for got, want in zip(got_row, want_row):
            if (got in "#.") != (want in "#.") or (got in "#." and got != want):
                return False
            if got not in "#." and renaming.setdefault(got, want) != want:
                return False
    return len(set(renaming.values())) == len(renaming)  # no room split into two letters


def photograph(drawing_png: bytes, seed: int, quality: int = 80) -> tuple[Image.Image, Image.Image]:
    """The drawing seen at an angle on a noisy table, as a re-read JPEG; also returns the drawing."""
    drawing = Image.open(BytesIO(drawing_png)).convert("RGB")
    to_drawing = homography(PHOTO_QUAD, grid_corners(*drawing.size))  # photo pixel -> drawing pixel
    warped = drawing.transform(PHOTO_SIZE, Image.Transform.PERSPECTIVE, to_drawing, Image.Resampling.BICUBIC)
    inside = Image.new("L", drawing.size, 255).transform(PHOTO_SIZE, Image.Transform.PERSPECTIVE, to_drawing)
    rng = random.Random(seed)
    table = Image.new("RGB", PHOTO_SIZE, (118, 84, 52))
    photo = Image.composite(warped, table, inside)
    # Seeded noise, uniform within +-10 a channel (Image.effect_noise would differ from run to run).
    noise = Image.frombytes("RGB", PHOTO_SIZE, rng.randbytes(PHOTO_SIZE[0] * PHOTO_SIZE[1] * 3))
    photo = ImageChops.add(photo, noise.point(lambda v: 118 + v * 21 // 256), scale=1.0, offset=-128)
    photo = photo.filter(ImageFilter.GaussianBlur(0.7))
    out = BytesIO()
    photo.save(out, format="JPEG", quality=quality)
    return Image.open(BytesIO(out.getvalue())), drawing


def grid_in_photo(board: Board, drawing_size: tuple[int, int], layout: Layout = Layout()) -> list[tuple[float, float]]:
    """Where the map's grid corners are in the photo (what the host drags the corners onto)."""
    to_photo = homography(grid_corners(*drawing_size), PHOTO_QUAD)
    left, top = layout.left, layout.top
    right, bottom = left + board.width * layout.cell, top + board.height * layout.cell
    return [project(to_photo, point) for point in ((left, top), (right, top), (right, bottom), (left, bottom))]


def traced_from_photo(board: Board, seed: int, cell_px: int = 24) -> list[str]:
    photo, drawing = photograph(to_png_bytes(board_drawing("Photo test", board)), seed)
    corners = check_corners(grid_in_photo(board, drawing.size), photo.size)
    return trace(dewarp(photo, corners, board.width, board.height, cell_px), board.width, board.height)


# ---- the round trip ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [1, 2])
def test_a_photo_of_a_small_board_traces_back_to_its_map(seed: int) -> None:
    traced = traced_from_photo(small_board(), seed)
    assert same_map(traced, map_rows(SMALL_MAP), SMALL_LEGEND), "\n".join(traced)


@pytest.mark.parametrize("edition_id", bundled_ids())
def test_a_photo_of_every_bundled_board_traces_back_to_its_map(edition_id: str) -> None:
    board = load_edition(edition_id).require_board()
    rows, legend = bundled_map(edition_id)
    traced = traced_from_photo(board, 3, cell_px=32)
    assert same_map(traced, rows, legend), "\n".join(traced)


def test_the_comparison_notices_a_wrong_square() -> None:
    rows = map_rows(SMALL_MAP)
    as_traced = [row.upper().replace("1", ".") for row in rows]
    assert same_map(as_traced, rows, SMALL_LEGEND)
    one_off = [as_traced[0].replace("####", "#.##", 1), *as_traced[1:]]
    merged = [row.replace("D", "B") for row in as_traced]
    split = [*as_traced[:3], as_traced[3].replace("BBBB", "BBEE"), *as_traced[4:]]
    assert not any(same_map(wrong, rows, SMALL_LEGEND) for wrong in (one_off, merged, split))


# ---- the perspective -----------------------------------------------------------------------------

QUAD = ((210.5, 130.0), (1180.0, 80.25), (1290.0, 1060.0), (120.0, 1000.0))


def close_to(one: tuple[float, ...], other: tuple[float, ...], within: float = 1e-6) -> bool:
    return all(math.isclose(a, b, rel_tol=within, abs_tol=within) for a, b in zip(one, other, strict=True))


def test_the_homography_takes_each_corner_exactly_onto_its_partner() -> None:
    source = grid_corners(600, 450)
    coefficients = homography(source, QUAD)
    for corner, partner in zip(source, QUAD):
        assert close_to(project(coefficients, corner), partner)
    assert not close_to(project(coefficients, (300, 225)), (705.0, 567.5), 1e-3)  # a perspective, not an affine map


def test_the_inverse_undoes_the_homography() -> None:
    coefficients = homography(grid_corners(600, 450), QUAD)
    back = inverse(coefficients)
    assert close_to(back, homography(QUAD, grid_corners(600, 450)))
    assert close_to(inverse(back), coefficients)
    rng = random.Random(4)
    for _ in range(20):
        point = (rng.uniform(0, 600), rng.uniform(0, 450))
        assert close_to(project(back, project(coefficients, point)), point)


def test_corners_with_three_on_a_line_have_no_homography() -> None:
    with pytest.raises(PhotoError, match="three"):
        homography(((0, 0), (5, 0), (10, 0), (0, 10)), grid_corners(10, 10))


def test_dewarp_gives_pillow_the_map_from_grid_to_photo() -> None:
    """Four coloured quarters drawn straight into the photo (ImageDraw, not a transform) come back as the 2 x 2 grid."""
    colours = [[(200, 30, 30), (30, 160, 30)], [(30, 30, 200), (230, 200, 40)]]
    photo = Image.new("RGB", (1400, 1150), (118, 84, 52))
    to_photo = homography(grid_corners(2, 2), QUAD)
    draw = ImageDraw.Draw(photo)
    for row in range(2):
        for col in range(2):
            cell = [(col, row), (col + 1, row), (col + 1, row + 1), (col, row + 1)]
            draw.polygon([project(to_photo, point) for point in cell], fill=colours[row][col])
    rectified = dewarp(photo, QUAD, 2, 2, 50)
    assert rectified.size == (100, 100)
    for row in range(2):
        for col in range(2):
            for x, y in ((col * 50 + 3, row * 50 + 3), (col * 50 + 46, row * 50 + 46), (col * 50 + 25, row * 50 + 25)):
                assert rectified.getpixel((x, y)) == colours[row][col], (row, col, x, y)


@pytest.mark.parametrize("corners, problem", [
    ([(0, 0), (10, 0), (10, 10)], "4 corners"),
    ([(0, 0), (10, 0), (10, 10.5), (0, 10)], "bottom-right corner (10, 10.5) is outside the photo (10 x 10 pixels)"),
    ([(0, 0), (10, 0), (10, 10), (math.nan, 10)], "bottom-left"),
    ([(0, 0), (0, 10), (10, 10), (10, 0)], "top-left, top-right"),  # anticlockwise: a mirrored board
    ([(0, 0), (10, 0), (0, 10), (10, 10)], "top-left, top-right"),  # crossed
    ([(0, 0), (5, 5), (10, 10), (0, 10)], "top-left, top-right"),  # three on a line
])
def test_corners_must_go_round_the_board_inside_the_photo(corners: list[tuple[float, float]], problem: str) -> None:
    with pytest.raises(PhotoError) as raised:
        check_corners(corners, (10, 10))
    assert problem in str(raised.value)


# ---- reading squares -----------------------------------------------------------------------------

def test_a_squares_colour_is_its_background_not_its_label() -> None:
    patch = Image.new("RGB", (30, 30), (223, 238, 200))
    draw = ImageDraw.Draw(patch)
    draw.rectangle((0, 8, 29, 20), fill=(255, 255, 255))  # a label's white halo across 43 % of the square
    draw.text((2, 9), "Cons", fill=(34, 34, 34))
    red, green, blue = dominant_colour(patch.tobytes())
    assert abs(red - 223) <= 2 and abs(green - 238) <= 2 and abs(blue - 200) <= 2


def painted(rows: list[str], colours: dict[str, tuple[int, int, int]], cell: int = 10) -> Image.Image:
    """A rectified 'photo' with one flat colour per map character."""
    image = Image.new("RGB", (len(rows[0]) * cell, len(rows) * cell))
    draw = ImageDraw.Draw(image)
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            draw.rectangle((c * cell, r * cell, c * cell + cell - 1, r * cell + cell - 1), fill=colours[char])
    return image


PAINT = {".": (251, 243, 213), "#": (207, 207, 207), "K": (239, 200, 200), "B": (200, 211, 239),
         "L": (239, 200, 234), "k": (236, 210, 205)}


def test_rooms_are_lettered_by_area_in_reading_order() -> None:
    rows = ["#..BB#", "KK.BB.", "KK.LL.", "#..LL#"]
    assert trace(painted(rows, PAINT), 6, 4) == ["#..AA#", "BB.AA.", "BB.CC.", "#..CC#"]


def test_a_colour_found_in_only_one_place_on_the_edge_is_not_the_void() -> None:
    rows = ["###...", "#.KK..", "..KK..", "......"]
    assert trace(painted(rows, PAINT), 6, 4) == ["AAA...", "A.BB..", "..BB..", "......"]


def test_one_colour_in_two_places_on_the_edge_is_the_void_also_inside() -> None:
    rows = ["##....#", "#.KK...", "..KK.#.", "......#"]
    assert trace(painted(rows, PAINT), 7, 4) == ["##....#", "#.AA...", "..AA.#.", "......#"]


def test_a_square_too_small_for_a_room_joins_its_nearest_coloured_neighbour() -> None:
    rows = ["#.KKK.#", "..KkK..", "..KKK..", "#.....#"]  # k: a room square tinted by its label
    assert trace(painted(rows, PAINT), 7, 4) == ["#.AAA.#", "..AAA..", "..AAA..", "#.....#"]


def test_past_26_rooms_the_rest_take_the_nearest_colours_letter() -> None:
    names = [chr(0x100 + n) for n in range(29)]  # 29 rooms of 2 x 2 squares in a row
    band = "." + "".join(name * 2 + "." for name in names)
    rows = ["." * len(band), band, band, "." * len(band)]
    colours = {".": PAINT["."], **{name: (40 + 6 * n, 240 - 6 * n, 60 + (n % 2) * 120) for n, name in enumerate(names)}}
    traced = trace(painted(rows, colours), len(band), 4)
    assert traced[1] == traced[2] and traced[0] == traced[3] == "." * len(band)
    rooms = traced[1][1::3]
    assert rooms[:26] == ROOM_LETTERS
    assert rooms[26:] == "YZY"  # the nearest colours: two rooms back along the row

"""Screens: a :class:`companion.table.prompts.Screen` drawn on a 128x64 one-bit OLED.

Only drawing happens here: :func:`layout` places every string, box, arrow and
QR code, and :func:`render` draws that layout on whatever ``ImageDraw`` it is
given (luma's ``canvas`` on a device, or an image for tests and PNGs). The
font is Pillow's built-in 6x11 bitmap font, so frames are the same on every
machine.

The frame: an inverted title bar, four body rows of 20 characters (long
lines and names wrap; the list scrolls around the cursor, with an arrow at the
right when there is more), and a footer with the buttons' meaning. A screen
with a QR code has it on the left and its words beside it.

>>> from companion.table.prompts import Screen
>>> image = render_image(Screen("shown", "Card shown", ("Mrs. Peacock showed you:",), ("Candlestick",)))
>>> image.size, image.mode
((128, 64), '1')
>>> [label.text for label in layout(Screen("shown", "Card shown", ("Mrs. Peacock showed you:",), ("Candlestick",))).labels]
['Card shown', 'Mrs. Peacock showed', 'you:', 'Candlestick']
"""

from __future__ import annotations

import textwrap
import unicodedata
from dataclasses import dataclass
from functools import cache

import segno
from PIL import Image, ImageDraw, ImageFont

from companion.table.prompts import Screen

WIDTH, HEIGHT = 128, 64
CELL_W, CELL_H = 6, 11  # the bitmap font's character cell; its ink sits in rows 1-10
ROW = 10  # body row pitch: descenders of one row end where the next row's tallest glyphs begin
ROWS = 4  # body rows between the title bar and the footer
BODY_Y = 11  # y of the first body row's cell (its ink starts one pixel lower)
FOOTER_Y = 53
COLUMNS = 20  # body characters per row: the last 8 pixels hold the scroll arrows
ARROW_X = 123
QR_SIZE = 64  # the QR code's square, left of its words
SIDE_COLUMNS = (WIDTH - QR_SIZE - 2) // CELL_W  # words beside a QR code: 10 characters


@dataclass(frozen=True)
class Label:
    """One string at (x, y) (the top of its 6x11 cell); ``cut``: ends in a drawn ellipsis."""

    x: int
    y: int
    text: str
    inverted: bool = False
    cut: bool = False


@dataclass(frozen=True)
class Layout:
    """Everything a screen draws, placed: tests check it all lies inside the 128x64 frame."""

    boxes: tuple[tuple[int, int, int, int], ...]  # lit rectangles (x0, y0, x1, y1), inclusive
    labels: tuple[Label, ...]
    arrows: tuple[tuple[int, int, str], ...]  # (x, y, "up" | "down"): more above or below
    qr: tuple[int, int, int, str] | None = None  # (x, y, scale, text)


@cache
def font() -> ImageFont.ImageFont:
    """Pillow's built-in bitmap font: 6x11 cells, Latin-1, identical on every machine."""
    return ImageFont.load_default_imagefont()


def layout(screen: Screen) -> Layout:
    """Where each part of ``screen`` goes on the 128x64 frame."""
    if screen.qr is not None:
        qr = _qr_layout(screen, screen.qr)
        if qr is not None:
            return qr
    boxes = [(0, 0, WIDTH - 1, CELL_H - 1)]
    labels = [_fitted(1, -1, screen.title, COLUMNS + 1, inverted=True)]
    rows, arrows = _body(screen)
    boxes += [(0, row.y + 1, ARROW_X - 2, row.y + ROW) for row in rows if row.inverted]
    labels += rows
    if screen.footer:
        labels.append(_fitted(1, FOOTER_Y, screen.footer, COLUMNS + 1))
    return Layout(tuple(boxes), tuple(label for label in labels if label.text or label.cut), tuple(arrows))


def render(screen: Screen, draw: ImageDraw.ImageDraw) -> None:
    """Draw ``screen`` with ``draw`` (a 128x64 one-bit canvas, e.g. luma's ``canvas(device)``)."""
    placed = layout(screen)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), fill="black")
    for box in placed.boxes:
        draw.rectangle(box, fill="white")
    for label in placed.labels:
        ink = "black" if label.inverted else "white"
        draw.text((label.x, label.y), label.text, font=font(), fill=ink)
        if label.cut:
            x = label.x + len(label.text) * CELL_W
            draw.point([(x, label.y + 9), (x + 2, label.y + 9), (x + 4, label.y + 9)], fill=ink)
    for x, y, way in placed.arrows:
        tip, base = (y + 3, y + 6) if way == "up" else (y + 7, y + 4)
        draw.polygon([(x, base), (x + 4, base), (x + 2, tip)], fill="white")
    if placed.qr is not None:
        _draw_qr(draw, *placed.qr)


def render_image(screen: Screen, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    """``screen`` as a one-bit image (mode "1"), for tests, the console and PNG files."""
    image = Image.new("1", size)
    render(screen, ImageDraw.Draw(image))
    return image


def printable(text: str) -> str:
    """``text`` in the font's Latin-1: accents kept where Latin-1 has them, curly quotes made plain.

    >>> printable("Strax’s Gun … Führer")
    "Strax's Gun ... Führer"
    """
    plain = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u2026", "...")
    plain = plain.replace("\u201c", '"').replace("\u201d", '"').replace("\u2013", "-").replace("\u2014", "-")
    return "".join(_latin1(char) for char in plain)


def _latin1(char: str) -> str:
    """``char``, or its letter without the accent, or "?"."""
    if ord(char) < 256:
        return char
    base = "".join(part for part in unicodedata.normalize("NFKD", char) if ord(part) < 256)
    return base or "?"


def wrap(text: str, columns: int = COLUMNS) -> list[str]:
    """``text`` in rows of at most ``columns`` characters, broken between words where it can.

    >>> wrap("Living Room (Sheldon & Leonard)")
    ['Living Room (Sheldon', '& Leonard)']
    """
    return textwrap.wrap(printable(text), columns, break_on_hyphens=False) or [""]


def _fitted(x: int, y: int, text: str, columns: int, inverted: bool = False) -> Label:
    """One row of text, shortened with an ellipsis when longer than ``columns``."""
    text = printable(text)
    if len(text) <= columns:
        return Label(x, y, text, inverted)
    return Label(x, y, text[: columns - 1].rstrip(), inverted, cut=True)


def _body(screen: Screen) -> tuple[list[Label], list[tuple[int, int, str]]]:
    """The body rows and scroll arrows: lines on top, then the list scrolled to the cursor.

    Items wrap onto as many rows as they need when all fit; otherwise only the
    cursor's does, and the others keep to one row each, shortened with an
    ellipsis. Lines that do not fit end in one.
    """
    line_rows = [row for line in screen.lines for row in wrap(line)]
    item_rows = [(row, i, False) for i, item in enumerate(screen.items) for row in wrap(item)]
    if len(line_rows) + len(item_rows) > ROWS:  # no room for every item whole: one row each but the cursor's
        item_rows = []
        for i, item in enumerate(screen.items):
            one = _fitted(0, 0, item, COLUMNS)
            item_rows += [(row, i, False) for row in wrap(item)] if i == screen.cursor else [(one.text, i, one.cut)]
    selected = [n for n, (_, i, _) in enumerate(item_rows) if i == screen.cursor]
    need = 0 if not item_rows else min(ROWS, max(len(selected), 2 if len(screen.items) > 1 else 1))
    shown = min(len(line_rows), ROWS - need)
    rows = [(text, False, False) for text in line_rows[:shown]]
    if shown < len(line_rows) and rows:
        rows[-1] = (rows[-1][0][: COLUMNS - 1].rstrip(), False, True)
    space = ROWS - shown
    top = _window(len(item_rows), selected[0] if selected else 0, len(selected), space)
    rows += [(text, i == screen.cursor, cut) for text, i, cut in item_rows[top: top + space]]
    labels = [Label(1, BODY_Y + n * ROW, text, selected, cut) for n, (text, selected, cut) in enumerate(rows)]
    arrows: list[tuple[int, int, str]] = []
    if top > 0:
        arrows.append((ARROW_X, BODY_Y + shown * ROW, "up"))
    if top + space < len(item_rows):
        arrows.append((ARROW_X, BODY_Y + (ROWS - 1) * ROW, "down"))
    return labels, arrows


def _window(total: int, start: int, height: int, space: int) -> int:
    """The first list row shown: one row of the item above the cursor's, when there is room."""
    if total <= space:
        return 0
    top = max(start - 1, 0)
    if start + height - top > space:
        top = start if height >= space else start + height - space
    return max(min(top, total - space), 0)


def _qr_layout(screen: Screen, text: str) -> Layout | None:
    """The QR code at the largest whole scale that fits 64 pixels with a quiet zone; words beside it."""
    code = segno.make(text, error="l", micro=False)
    modules = int(code.symbol_size(scale=1, border=0)[0])
    scale = QR_SIZE // (modules + 2)
    if scale < 1:
        return None
    offset = (QR_SIZE - modules * scale) // 2
    x = QR_SIZE + 2
    labels = [_fitted(x + 1, -1, screen.title, SIDE_COLUMNS, inverted=True)]
    rows = [row for line in screen.lines for row in wrap(line, SIDE_COLUMNS)]
    for i, row in enumerate(rows[: HEIGHT // ROW - 1]):
        labels.append(Label(x, CELL_H + i * ROW, row))
    boxes = ((0, 0, QR_SIZE - 1, QR_SIZE - 1), (x, 0, WIDTH - 1, CELL_H - 1))
    return Layout(boxes, tuple(labels), (), (offset, offset, scale, text))


def _draw_qr(draw: ImageDraw.ImageDraw, x: int, y: int, scale: int, text: str) -> None:
    """Dark modules on the lit square: phone cameras expect a dark code on a light ground."""
    code = segno.make(text, error="l", micro=False)
    for row, bits in enumerate(code.matrix):
        for column, bit in enumerate(bits):
            if bit:
                left, top = x + column * scale, y + row * scale
                draw.rectangle((left, top, left + scale - 1, top + scale - 1), fill="black")

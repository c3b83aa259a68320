"""The printable sheet of markers: SVG (in mm) or PDF, 1:1 on A4 and on Letter.

API:

- ``sheet(layout_dict, names=None, title=None) -> Sheet``: where each sticker goes on the page;
  ``names`` maps a piece's identity to its name in the sheet's locale;
- ``Sheet.svg() -> str`` and ``Sheet.pdf() -> bytes`` (Pillow at 600 dpi, so no new dependency).

Everything is laid out in the area A4 and Letter share (210 x 279.4 mm, less 10 mm margins),
so one sheet prints at 100 % on either paper; the page itself is A4 or Letter. Each sticker is
the marker (its side as the layout says, black border included) inside a white quiet zone one
cell wide, then a grey cut line; its name is printed under the cut line. A 50 mm bar lets the
printer's scale be checked with a ruler.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from io import BytesIO
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import cv2
import numpy as np
from numpy.typing import NDArray

from .layout import CORNER_NAMES

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_MM = 10.0
AREA_MM = (210.0 - 2 * MARGIN_MM, 279.4 - 2 * MARGIN_MM)  # fits both papers
GAP_MM, LABEL_MM, TEXT_MM = 6.0, 7.0, 2.6
HEADER_MM = 22.0
DPI = 600
CELLS = 6  # a 4x4 marker's side in cells, its black border included


class SheetError(ValueError):
    """The markers do not fit one page."""


@dataclass(frozen=True)
class Sticker:
    """One sticker: the marker's id, its side (mm, black border included) and where its cut line's corner is."""

    marker_id: int
    side_mm: float
    x_mm: float  # the cut line's top-left corner on the page
    y_mm: float
    label: str

    @property
    def cut_mm(self) -> float:
        return self.side_mm * (CELLS + 2) / CELLS


@dataclass(frozen=True)
class Sheet:
    title: str
    dictionary: str
    stickers: tuple[Sticker, ...]
    paper: str = "a4"

    def svg(self) -> str:
        width, height = PAPERS[self.paper]
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height}mm" '
                 f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
                 f"<title>{escape(self.title)}</title>", f'<rect width="{width}" height="{height}" fill="#fff"/>',
                 _svg_text(MARGIN_MM, MARGIN_MM + 4, self.title, 4.2, bold=True),
                 _svg_text(MARGIN_MM, MARGIN_MM + 10, "Print at 100 % (actual size, no fit to page). "
                           "This bar must measure 50 mm:", 3.0),
                 f'<rect x="{MARGIN_MM}" y="{MARGIN_MM + 13}" width="50" height="2" fill="#000"/>']
        for sticker in self.stickers:
            parts.append(_svg_sticker(sticker, _bits(self.dictionary, sticker.marker_id)))
        parts.append("</svg>")
        return "\n".join(parts) + "\n"

    def pdf(self) -> bytes:
        from PIL import Image

        out = BytesIO()
        # Black and white, no dithering: exact cell edges and a small, losslessly compressed page (not JPEG)
        self.page().convert("1", dither=Image.Dither.NONE).save(out, format="PDF", resolution=float(DPI))
        return out.getvalue()

    def page(self) -> Any:
        """The page as a Pillow greyscale image at 600 dpi (what the PDF holds)."""
        from PIL import Image, ImageDraw, ImageFont

        width, height = PAPERS[self.paper]
        px = DPI / 25.4
        page = Image.new("L", (round(width * px), round(height * px)), 255)
        draw = ImageDraw.Draw(page)
        font = ImageFont.load_default(size=round(3.0 * px))
        bold = ImageFont.load_default(size=round(4.2 * px))
        draw.text((MARGIN_MM * px, (MARGIN_MM + 4) * px), self.title, fill=0, font=bold, anchor="lm")
        draw.text((MARGIN_MM * px, (MARGIN_MM + 10) * px), "Print at 100 % (actual size, no fit to page). "
                  "This bar must measure 50 mm:", fill=0, font=font, anchor="lm")
        draw.rectangle((MARGIN_MM * px, (MARGIN_MM + 13) * px, (MARGIN_MM + 50) * px - 1, (MARGIN_MM + 15) * px - 1),
                       fill=0)
        small = ImageFont.load_default(size=round(TEXT_MM * px))
        for sticker in self.stickers:
            _pdf_sticker(draw, sticker, _bits(self.dictionary, sticker.marker_id), px, small)
        return page


def sheet(layout: Mapping[str, Any], names: Mapping[str, str] | None = None, title: str | None = None,
          paper: str = "a4") -> Sheet:
    """Every corner and piece sticker of a layout, laid out in rows (corners first, then movers, then weapons)."""
    shown = names or {}
    items = [(int(c["id"]), float(c["size_mm"]), f"corner {c['id']}: {CORNER_NAMES[n]}")
             for n, c in enumerate(layout["corners"])]
    for kind in ("mover", "weapon"):
        items += [(int(p["id"]), float(p["size_mm"]), f"{shown.get(p['name'], p['name'])} ({p['id']})")
                  for p in layout["pieces"] if p["kind"] == kind]
    stickers = _flow(items)
    return Sheet(title or f"{layout['edition']}: camera markers ({layout['dictionary']})", str(layout["dictionary"]),
                 tuple(stickers), paper)


def _flow(items: list[tuple[int, float, str]]) -> list[Sticker]:
    """Left to right, a new row when a row is full or the size changes (corners, movers and weapons apart)."""
    stickers: list[Sticker] = []
    x, y, row_height, last_side = MARGIN_MM, MARGIN_MM + HEADER_MM, 0.0, None
    for marker_id, side, label in items:
        cut = side * (CELLS + 2) / CELLS
        cell_width = max(cut, 30.0)  # room for the label
        if last_side is not None and (x + cell_width > MARGIN_MM + AREA_MM[0] or side != last_side):
            x, y, row_height = MARGIN_MM, y + row_height + GAP_MM, 0.0
        if y + cut + LABEL_MM > MARGIN_MM + AREA_MM[1]:
            raise SheetError(f"{len(items)} markers do not fit one page")
        stickers.append(Sticker(marker_id, side, x + (cell_width - cut) / 2, y, label))
        x += cell_width + GAP_MM
        row_height, last_side = max(row_height, cut + LABEL_MM), side
    return stickers


def _bits(dictionary: str, marker_id: int) -> NDArray[np.uint8]:
    """The marker's cells, 1 for black, black border included (6 x 6)."""
    chosen = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    image = cv2.aruco.generateImageMarker(chosen, marker_id, CELLS, borderBits=1)
    return np.asarray(image < 128, np.uint8)


def _svg_text(x: float, y: float, text: str, size: float, bold: bool = False, anchor: str = "start") -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.3f}" y="{y:.3f}" font-size="{size}"{weight} text-anchor="{anchor}" '
            f'dominant-baseline="central">{escape(text)}</text>')


def _svg_sticker(sticker: Sticker, bits: NDArray[np.uint8]) -> str:
    cell = sticker.side_mm / CELLS
    left, top = sticker.x_mm + cell, sticker.y_mm + cell
    rects = [f'<rect x="{left + c * cell:.4f}" y="{top + r * cell:.4f}" width="{cell:.4f}" height="{cell:.4f}"/>'
             for r in range(CELLS) for c in range(CELLS) if bits[r, c]]
    cut = sticker.cut_mm
    return "\n".join([
        f'<g class="sticker" data-id="{sticker.marker_id}">',
        f'<rect x="{sticker.x_mm:.4f}" y="{sticker.y_mm:.4f}" width="{cut:.4f}" height="{cut:.4f}" fill="#fff" '
        'stroke="#999" stroke-width="0.2"/>',
        # Cells drawn edge to edge with no anti-aliasing seams: crispEdges
        '<g fill="#000" shape-rendering="crispEdges">', *rects, "</g>",
        _svg_text(sticker.x_mm + cut / 2, sticker.y_mm + cut + LABEL_MM / 2, sticker.label, TEXT_MM,
                  anchor="middle").replace("<text ", f"<text data-label={quoteattr(sticker.label)} ", 1),
        "</g>"])


def _pdf_sticker(draw: Any, sticker: Sticker, bits: NDArray[np.uint8], px: float, font: Any) -> None:
    cell = sticker.side_mm / CELLS
    cut = sticker.cut_mm
    x0, y0 = sticker.x_mm * px, sticker.y_mm * px
    draw.rectangle((x0, y0, x0 + cut * px, y0 + cut * px), outline=150, width=max(1, round(0.2 * px)))
    for r in range(CELLS):
        for c in range(CELLS):
            if bits[r, c]:
                left = math.floor((sticker.x_mm + (c + 1) * cell) * px)
                top = math.floor((sticker.y_mm + (r + 1) * cell) * px)
                right = math.floor((sticker.x_mm + (c + 2) * cell) * px) - 1
                bottom = math.floor((sticker.y_mm + (r + 2) * cell) * px) - 1
                draw.rectangle((left, top, right, bottom), fill=0)
    draw.text((x0 + cut * px / 2, y0 + (cut + LABEL_MM / 2) * px), sticker.label, fill=0, font=font, anchor="mm")

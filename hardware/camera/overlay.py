"""What the live panel shows over a frame: the board's outline as found, each piece's label, and advice.

API (for the host page's camera panel, issue 29 item 5):

- ``draw(image_bgr, reading, names=None) -> image``: a copy with the outline and labels drawn;
- ``advice(reading, size, corner_names=None) -> list[str]``: what to do about each missing
  corner marker: out of the picture ("move the camera toward the top left corner, or raise it")
  or in it but unseen ("the top left corner marker is covered"); with
  ``corner_names=layout.corner_names(edition)`` a corner is named by its room ("the Study corner").

Where a missing corner would be comes from the pose the other three give (``Reading.outline``).
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np
from numpy.typing import NDArray

from .layout import CORNER_NAMES
from .read import Reading

Image = NDArray[np.uint8]
OUTLINE, LABEL, MISSING = (60, 200, 60), (255, 255, 255), (40, 40, 230)


def draw(image_bgr: Image, reading: Reading, names: Mapping[str, str] | None = None) -> Image:
    """The frame with the board's outline (green), each seen piece's name and place, and missing corners (red)."""
    out = image_bgr.copy()
    scale = max(1.0, out.shape[1] / 1280)
    if reading.outline:
        points = np.array(reading.outline, np.int32).reshape(-1, 1, 2)
        cv2.polylines(out, [points], True, OUTLINE, max(2, round(2 * scale)), cv2.LINE_AA)
        for corner in reading.missing_corners:
            cv2.circle(out, _int(reading.outline[corner]), round(18 * scale), MISSING, max(2, round(3 * scale)))
    for piece, (x, y) in reading.seen.items():
        text = f"{(names or {}).get(piece, piece)}: {reading.pieces.get(piece, '?')}"
        _label(out, text, (int(x), int(y)), scale)
    return out


def advice(reading: Reading, size: tuple[int, int], corner_names: Mapping[int, str] | None = None) -> list[str]:
    """A sentence for each missing corner marker; for no board at all, one sentence."""
    if not reading.board_found:
        return ["The board is not in view: at least three of its four corner markers must be seen."]
    width, height = size
    told = []
    for corner in reading.missing_corners:
        name = (corner_names or {}).get(corner, CORNER_NAMES[corner])
        x, y = reading.outline[corner]
        if 0 <= x < width and 0 <= y < height:
            told.append(f"The {name} corner marker is covered: clear it.")
        else:
            told.append(f"The {name} corner is out of the picture: move the camera toward it, or raise it.")
    return told


def _label(image: Image, text: str, at: tuple[int, int], scale: float) -> None:
    font, size = cv2.FONT_HERSHEY_SIMPLEX, 0.45 * scale
    thickness = max(1, round(scale))
    (w, h), _ = cv2.getTextSize(text, font, size, thickness)
    x, y = at[0] + round(8 * scale), at[1] - round(8 * scale)
    cv2.rectangle(image, (x - 2, y - h - 3), (x + w + 2, y + 4), (30, 30, 30), -1)
    cv2.putText(image, text, (x, y), font, size, LABEL, thickness, cv2.LINE_AA)


def _int(point: tuple[float, float]) -> tuple[int, int]:
    return int(round(point[0])), int(round(point[1]))

"""A camera's calibration from a TOML file's ``[camera]`` table (``camera read --config FILE``).

    [camera]
    focal_px = 1450.0              # the focal length in pixels, at the photo's resolution
    centre_px = [960.0, 540.0]     # optional: the principal point (default: the image's centre)
    distortion = [-0.08, 0.01, 0, 0, 0]   # optional: OpenCV's k1 k2 p1 p2 k3
    square_mm = 21.0               # optional: one square of your board

A file without a ``[camera]`` table (an ordinary companion config) means no calibration.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import Any

from companion.rules.errors import ClueError

from .layout import SQUARE_MM
from .pose import Lens


class CalibrationError(ClueError, ValueError):
    code = "bad_config"


@dataclass(frozen=True)
class Calibration:
    focal_px: float | None = None
    centre_px: tuple[float, float] | None = None
    distortion: tuple[float, ...] = ()
    square_mm: float = SQUARE_MM

    def lens(self, width: int, height: int) -> Lens | None:
        """The lens for a photo of this size; None when no focal length is known (it is then estimated)."""
        if self.focal_px is None:
            return None
        return Lens(self.focal_px, self.centre_px or (width / 2, height / 2), self.distortion)


def load_calibration(path: str) -> Calibration:
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as err:
        raise CalibrationError(f"cannot read {path}: {err.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise CalibrationError(f"{path} is not TOML: {err}") from None
    table = data.get("camera", {})
    if not isinstance(table, dict):
        raise CalibrationError(f"{path}: [camera] must be a table")
    try:
        return _parse(table)
    except (TypeError, ValueError) as err:
        raise CalibrationError(f"{path}: [camera]: {err}") from None


def _parse(table: dict[str, Any]) -> Calibration:
    focal = table.get("focal_px")
    centre = table.get("centre_px")
    distortion = tuple(float(v) for v in table.get("distortion", ()))
    square = float(table.get("square_mm", SQUARE_MM))
    if focal is not None and not 50 <= float(focal) <= 100_000:
        raise ValueError(f"focal_px {focal} is not a focal length in pixels")
    if distortion and len(distortion) not in (4, 5, 8):
        raise ValueError(f"distortion has {len(distortion)} values; OpenCV takes 4, 5 or 8")
    if not 5 <= square <= 60:
        raise ValueError(f"square_mm {square}: expected 5 to 60 mm")
    return Calibration(None if focal is None else float(focal),
                       None if centre is None else (float(centre[0]), float(centre[1])), distortion, square)

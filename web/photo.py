"""The photo underlay (host only): a photo of the board, its four grid corners -> the map traced, the photo rectified.

``POST /api/host/editor/photo/trace`` with ``{"image": "data:image/jpeg;base64,...",
"corners": [[x, y] top-left, top-right, bottom-right, bottom-left], "width": W,
"height": H}`` answers ``{"rows": [...], "warped": "data:image/png;base64,..."}``:
the guessed map rows (:func:`web.board_photo.trace`) and the photo rectified to
the grid, for the editor to draw under the squares. A bad photo or corners is a
400 with one plain sentence; the body is at most 8 MiB.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import warnings
from io import BytesIO
from typing import Any

from flask import Blueprint, Response, jsonify, request
from PIL import Image, ImageOps, UnidentifiedImageError

from .board_photo import PhotoError, check_corners, dewarp, trace
from .guard import ApiError
from .host import require_host
from .language import told

blueprint = Blueprint("photo", __name__)
MAX_PHOTO_BODY = 8 * 1024 * 1024  # the JSON body, base64 photo included
MAX_SIDE = 4000  # pixels: a 12-megapixel phone photo fits; a bigger one is scaled down by the page first
MAX_GRID = 40  # squares a side, as for any map the editor makes
UNDERLAY_SIDE = 1000  # pixels: the longer side of the rectified photo sent back
FORMATS = ("JPEG", "PNG", "WEBP")  # only these decoders ever see an uploaded file
DATA_URL = re.compile(r"data:image/[a-z0-9.+-]+;base64,", re.IGNORECASE)


@blueprint.post("/api/host/editor/photo/trace")
def trace_photo() -> Response:
    require_host()
    request.max_content_length = MAX_PHOTO_BODY  # before anything reads the body; larger is a 413
    body = _body()
    width, height = _grid_size(body, "width"), _grid_size(body, "height")
    try:
        photo = read_photo(body["image"])
        corners = check_corners(_corners(body["corners"]), photo.size)
        cell = underlay_cell(width, height)
        rectified = dewarp(photo, corners, width, height, cell)
        rows = trace(rectified, width, height)
    except PhotoError as err:
        raise ApiError(400, err.code, told(err)) from None
    return jsonify({"rows": rows, "warped": png_data_url(rectified)})


def _body() -> dict[str, Any]:
    if not request.is_json:
        raise ApiError(400, "bad_json", "Send a JSON object (Content-Type: application/json).")
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise ApiError(400, "bad_json", "The body must be a JSON object.")
    fields = ("image", "corners", "width", "height")
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise ApiError(400, "bad_field", "Unknown field {name!r}; expected {expected}.", name=unknown[0][:30],
                       expected=", ".join(fields))
    missing = [name for name in fields if data.get(name) is None]
    if missing:
        raise ApiError(400, "bad_field", "The field {name!r} is missing.", name=missing[0])
    if not isinstance(data["image"], str):
        raise ApiError(400, "bad_field", "The field 'image' must be a data URL (data:image/jpeg;base64,...).")
    return data


def _grid_size(body: dict[str, Any], name: str) -> int:
    value = body[name]
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_GRID:
        raise ApiError(400, "bad_field", "The field {name!r} must be a whole number of squares from 1 to {most}.",
                       name=name, most=MAX_GRID)
    return value


def _corners(value: Any) -> list[tuple[float, float]]:
    """Four [x, y] pairs of numbers (JSON numbers only: no booleans, no strings)."""
    message = "The field 'corners' must be 4 [x, y] points: top-left, top-right, bottom-right, bottom-left."
    if not isinstance(value, list) or len(value) != 4:
        raise PhotoError(message)
    points = []
    for point in value:
        if not (isinstance(point, list) and len(point) == 2
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in point)):
            raise PhotoError(message)
        x, y = float(point[0]), float(point[1])
        if not (math.isfinite(x) and math.isfinite(y)):
            raise PhotoError(message)
        points.append((x, y))
    return points


def read_photo(data_url: str) -> Image.Image:
    """The photo in a data URL, upright as the browser showed it, as RGB; PhotoError if it cannot be used."""
    found = DATA_URL.match(data_url)
    if not found:
        raise PhotoError("The image must be a data URL (data:image/jpeg;base64,...).")
    try:
        data = base64.b64decode(data_url[found.end():], validate=True)
    except (binascii.Error, ValueError):
        raise PhotoError("The image is not valid base64.") from None
    try:
        with warnings.catch_warnings():
            # Pillow's decompression-bomb guard stays on; its warning is a refusal here, not a log line.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(BytesIO(data), formats=FORMATS)
            if image.width > MAX_SIDE or image.height > MAX_SIDE:
                raise PhotoError("The photo is {width} x {height} pixels; at most {most} x {most}.",
                                 width=image.width, height=image.height, most=MAX_SIDE)
            image.load()
            # The page showed the photo turned as its EXIF says, so the corners are in that frame.
            upright = ImageOps.exif_transpose(image)
            return upright.convert("RGB")
    except PhotoError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoError("The image is not a photo the companion can read (send a JPEG, PNG or WebP).") from None
    except Exception:  # noqa: BLE001 - a malformed file can make a decoder raise almost anything; none is a 500
        raise PhotoError("The photo is damaged or cut short; take or send it again.") from None


def underlay_cell(width: int, height: int) -> int:
    """Pixels per square of the rectified photo: about UNDERLAY_SIDE on the longer side, 12 to 48 a square."""
    return max(12, min(48, UNDERLAY_SIDE // max(width, height)))


def png_data_url(image: Image.Image) -> str:
    out = BytesIO()
    image.save(out, format="PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")

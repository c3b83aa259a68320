"""The photo underlay (host only): a photo of the board, its four grid corners -> the map traced, the photo rectified.

``POST /api/host/editor/photo/trace`` with ``{"image": "data:image/jpeg;base64,...",
"corners": [[x, y] top-left, top-right, bottom-right, bottom-left], "width": W,
"height": H}`` answers ``{"rows": [...], "warped": "data:image/png;base64,..."}``:
the guessed map rows (:func:`web.board_photo.trace`) and the photo rectified to
the grid, for the editor to draw under the squares. A bad photo or corners is a
400 with one plain sentence; the body is at most 8 MiB.

Memory, on a Pi with a few hundred MB to spare:

- **One trace at a time** per server (:class:`TraceSlot`): the next waits up to
  SLOT_WAIT seconds, then gets 503 ``busy`` with Retry-After. The slot is taken
  before the body is parsed, so the body's copies (its bytes, the JSON string,
  the decoded file) exist for one trace only.
- **Decoded at the size tracing needs.** The size is read from the file's head
  before anything is decoded. A JPEG is decoded by libjpeg's DCT scaling
  (``Image.draft``: 1/2, 1/4, 1/8) at most DECODE_SIDE pixels a side, and smaller
  still while the board's quadrilateral keeps at least as many pixels as the
  rectified grid samples; the corners, sent in the whole photo's frame, are
  scaled to the decoded one. PNG and WebP cannot be decoded smaller, and a
  progressive JPEG holds all its coefficients while it decodes: they may have
  at most MAX_FULL_PIXELS. So a 4000 x 4000 JPEG is held at 2000 x 2000
  (16 MB) at most, where it used to take 64 MB and three copies.
- **Memory handed back**, in this process. glibc gives each waitress thread a
  malloc arena of its own and, once a block of some size has been freed, serves
  blocks up to that size (32 MiB at most) from the arena instead of mmap, and
  keeps them: 16 threads once kept 60-170 MB each. :func:`limit_malloc_retention`
  (when the blueprint is registered: it is process-wide) fixes glibc's mmap
  threshold at MMAP_THRESHOLD, so every large block (a body, a decoded image, the
  PNG answer, waitress's buffers) is mapped on its own and unmapped when freed;
  and releasing the slot calls ``malloc_trim(0)`` for what smaller blocks leave.
  Measured through waitress (benchmarks/abuse_photos.py: 100 traces of a 6 MiB
  4000 x 4000 JPEG, 16 phones at once, retried when busy): 56 MB peak above
  idle, 8 MB above idle after, where old main's functions peaked 3.2 GB above
  idle and kept 2.6 GB. With the trim alone (threshold left to glibc): 135 MB
  peak, 84 MB kept after 24 traces. A child process per trace
  (multiprocessing ``forkserver``, measured the same way: 132 MB peak, 35 MB
  kept, slower) was not chosen: the body is still received, parsed and answered
  in the server, which needs the fixed threshold either way; the child only
  moves a decode already bounded to 16 MB, and costs a resident forkserver, a
  fork and a 6 MiB pipe per trace.
  Without glibc (musl, macOS) both calls are skipped; the bounds above still hold.
"""

from __future__ import annotations

import base64
import binascii
import ctypes
import functools
import math
import re
import threading
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from io import BytesIO
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from flask.blueprints import BlueprintSetupState
from PIL import ExifTags, Image, ImageOps, UnidentifiedImageError

from .board_photo import PhotoError, Point, Quad, check_corners, dewarp, trace
from .guard import ApiError
from .host import require_host
from .language import told

blueprint = Blueprint("photo", __name__)
MAX_PHOTO_BODY = 8 * 1024 * 1024  # the JSON body, base64 photo included
MAX_SIDE = 4000  # pixels: a 12-megapixel phone photo fits; a bigger one is scaled down by the page first
MAX_GRID = 40  # squares a side, as for any map the editor makes
UNDERLAY_SIDE = 1000  # pixels: the longer side of the rectified photo sent back
# A JPEG is decoded at most this many pixels a side (libjpeg scales by 1/2, 1/4, 1/8 as it
# decodes): twice the underlay, so the rectified grid never samples coarser than the photo.
DECODE_SIDE = 2 * UNDERLAY_SIDE
MAX_FULL_PIXELS = DECODE_SIDE * DECODE_SIDE  # a photo decoded whole (PNG, WebP, progressive JPEG): 16 MB
JPEG_SCALES = (8, 4, 2, 1)  # the reductions libjpeg can decode at
SLOT_WAIT = 10.0  # seconds a trace waits for the one before it (a trace takes well under 1 s on a PC)
BUSY_RETRY = 5  # seconds, the Retry-After of a busy refusal
FORMATS = ("JPEG", "PNG", "WEBP")  # only these decoders ever see an uploaded file
DATA_URL = re.compile(r"data:image/[a-z0-9.+-]+;base64,", re.IGNORECASE)
# Blocks this large or larger are mapped on their own and unmapped when freed (glibc would
# raise its threshold up to 32 MiB as large blocks are freed, and keep them in thread arenas).
MMAP_THRESHOLD = 256 * 1024
M_MMAP_THRESHOLD = -3  # mallopt's parameter number (malloc.h)
TURNED = (5, 6, 7, 8)  # EXIF orientations that swap width and height
EXTENSION = "photo_trace_slot"  # the app's TraceSlot, in app.extensions


class TraceSlot:
    """One trace at a time: the next waits up to ``wait`` seconds, then is refused with 503 busy.

    Releasing the slot hands the memory the trace freed back to the system (:func:`return_memory`).
    """

    def __init__(self, wait: float = SLOT_WAIT) -> None:
        self.wait = wait
        self.lock = threading.Lock()

    @contextmanager
    def held(self) -> Iterator[None]:
        if not self.lock.acquire(timeout=self.wait):
            raise ApiError(503, "busy", "The companion is tracing another photo; try again in a few seconds.",
                           BUSY_RETRY)
        try:
            yield
        finally:
            try:
                return_memory()
            finally:
                self.lock.release()


def _install_slot(state: BlueprintSetupState) -> None:
    state.app.extensions.setdefault(EXTENSION, TraceSlot())
    limit_malloc_retention()


blueprint.record_once(_install_slot)


def trace_slot() -> TraceSlot:
    """This app's slot (made when the blueprint was registered)."""
    slot: TraceSlot = current_app.extensions[EXTENSION]
    return slot


@blueprint.post("/api/host/editor/photo/trace")
def trace_photo() -> Response:
    require_host()
    request.max_content_length = MAX_PHOTO_BODY  # before anything reads the body; larger is a 413
    with trace_slot().held():  # before the body is read: its copies exist for one trace at a time
        body = _body()
        width, height = _grid_size(body, "width"), _grid_size(body, "height")
        try:
            photo = decode_photo(body.pop("image"), _corners(body["corners"]), width, height)
            rectified = dewarp(photo.image, photo.corners, width, height, underlay_cell(width, height))
            rows = trace(rectified, width, height)
        except PhotoError as err:
            raise ApiError(400, err.code, told(err)) from None
        return jsonify({"rows": rows, "warped": png_data_url(rectified)})


def _body() -> dict[str, Any]:
    if not request.is_json:
        raise ApiError(400, "bad_json", "Send a JSON object (Content-Type: application/json).")
    try:
        # Not cached on the request: the 8 MiB of bytes and text go as soon as the image is decoded.
        data = request.get_json(silent=True, cache=False)
    except RecursionError:  # nested deeper than the parser can go: not a body we would ever want
        data = None
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


# ---- decoding no more than tracing needs ---------------------------------------------------------

@dataclass(frozen=True)
class Decoded:
    """A photo decoded upright as RGB, ``scale`` times smaller than sent, and the grid's corners in it."""

    image: Image.Image
    corners: Quad
    scale: int


def decode_photo(data_url: str, corners: list[tuple[float, float]], width: int, height: int) -> Decoded:
    """The photo in a data URL, decoded as small as a ``width`` x ``height`` grid's tracing allows.

    ``corners`` are in the photo's own pixels as the browser shows it (EXIF orientation
    applied), at full size; PhotoError if the photo or the corners cannot be used.
    """
    with _readable():
        image = open_photo(photo_bytes(data_url))
        quad = check_corners(corners, upright_size(image))
        cell = underlay_cell(width, height)
        upright, scale = decode(image, decode_scale(image, quad, (width * cell, height * cell)))
    return Decoded(upright, scaled(quad, scale), scale)


def photo_bytes(data_url: str) -> bytes:
    found = DATA_URL.match(data_url)
    if not found:
        raise PhotoError("The image must be a data URL (data:image/jpeg;base64,...).")
    try:
        return base64.b64decode(data_url[found.end():], validate=True)
    except (binascii.Error, ValueError):
        raise PhotoError("The image is not valid base64.") from None


def open_photo(data: bytes) -> Image.Image:
    """The photo opened from its head only (nothing decoded yet), if its format and size may be decoded."""
    image = Image.open(BytesIO(data), formats=FORMATS)
    if image.width > MAX_SIDE or image.height > MAX_SIDE:
        raise PhotoError("The photo is {width} x {height} pixels; at most {most} x {most}.",
                         width=image.width, height=image.height, most=MAX_SIDE)
    if _decoded_whole(image) and image.width * image.height > MAX_FULL_PIXELS:
        raise PhotoError("The photo is {width} x {height} pixels; a PNG, WebP or progressive JPEG may have at most "
                         "{most} million pixels (send a smaller one, or a plain JPEG).", width=image.width,
                         height=image.height, most=f"{MAX_FULL_PIXELS / 1e6:g}")
    return image


def _decoded_whole(image: Image.Image) -> bool:
    """Whether decoding takes memory for the photo's every pixel, at any scale.

    PNG and WebP cannot be decoded smaller; libjpeg holds a progressive JPEG's every
    DCT coefficient while it decodes (a 4000 x 4000 one: 96 MB, drafted or not).
    """
    return image.format != "JPEG" or bool(image.info.get("progressive") or image.info.get("progression"))


def upright_size(image: Image.Image) -> tuple[int, int]:
    """The photo's size as the browser shows it: turned as its EXIF orientation says (read from the head)."""
    turned = image.getexif().get(ExifTags.Base.Orientation) in TURNED
    return (image.height, image.width) if turned else (image.width, image.height)


def decode_scale(image: Image.Image, corners: Quad, grid_pixels: tuple[int, int]) -> int:
    """How many times smaller than the photo to decode it (1, 2, 4 or 8; always 1 but for a JPEG).

    As small as keeps the board's shortest edge at least as long as the rectified
    grid's side it becomes (no square sampled coarser than the photo has it), and
    small enough that the longer side is at most DECODE_SIDE.
    """
    if image.format != "JPEG":
        return 1
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = corners
    across = min(math.dist((x0, y0), (x1, y1)), math.dist((x3, y3), (x2, y2))) / grid_pixels[0]
    down = min(math.dist((x0, y0), (x3, y3)), math.dist((x1, y1), (x2, y2))) / grid_pixels[1]
    allowed = min(across, down)  # the grid may shrink this many times and keep every sampled pixel
    longest = max(image.size)
    needed = next(scale for scale in reversed(JPEG_SCALES) if longest <= DECODE_SIDE * scale or scale == 8)
    chosen = max(needed, next((scale for scale in JPEG_SCALES if scale <= allowed), 1))
    while chosen > min(image.size):  # a strip of a photo: no pixel row may vanish
        chosen //= 2
    return chosen


def decode(image: Image.Image, scale: int) -> tuple[Image.Image, int]:
    """The opened photo decoded ``scale`` times smaller (JPEG only), turned upright, as RGB; and the scale got."""
    got = 1
    if scale > 1:
        # draft picks the largest of libjpeg's reductions that keeps at least the size asked for:
        # asking for size // scale gets exactly ``scale`` (or None: this file cannot be scaled).
        whole = image.width
        drafted = image.draft("RGB", (whole // scale, image.height // scale))
        if drafted is not None:
            got = round(whole / drafted[1][2])  # the box is the whole photo in the decoded frame
    image.load()
    # The page showed the photo turned as its EXIF says, so the corners are in that frame.
    ImageOps.exif_transpose(image, in_place=True)
    return (image if image.mode == "RGB" else image.convert("RGB")), got


def scaled(corners: Quad, scale: int) -> Quad:
    """The corners in a photo decoded ``scale`` times smaller (pixel edges stay on pixel edges)."""
    def point(corner: Point) -> Point:
        return corner[0] / scale, corner[1] / scale
    return point(corners[0]), point(corners[1]), point(corners[2]), point(corners[3])


@contextmanager
def _readable() -> Iterator[None]:
    """Every failure to read the uploaded file as a PhotoError with one plain sentence."""
    try:
        with warnings.catch_warnings():
            # Pillow's decompression-bomb guard stays on; its warning is a refusal here, not a log line.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            yield
    except PhotoError:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoError("The image is not a photo the companion can read (send a JPEG, PNG or WebP).") from None
    except Exception:  # noqa: BLE001 - a malformed file can make a decoder raise almost anything; none is a 500
        raise PhotoError("The photo is damaged or cut short; take or send it again.") from None


# ---- memory and the answer -----------------------------------------------------------------------

@functools.cache
def _libc_call(name: str) -> Callable[..., int] | None:
    """A glibc function by name (``malloc_trim``, ``mallopt``), or None where the C library has none."""
    try:
        found: Callable[..., int] | None = getattr(ctypes.CDLL(None), name, None)
    except OSError:
        return None
    return found


def return_memory() -> None:
    """Give the system back the free pages of every malloc arena (each thread has its own)."""
    trim = _libc_call("malloc_trim")
    if trim is not None:
        trim(0)


@functools.cache
def limit_malloc_retention() -> bool:
    """Fix glibc's mmap threshold at MMAP_THRESHOLD for the whole process (once); True if set."""
    mallopt = _libc_call("mallopt")
    return mallopt is not None and mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1


def underlay_cell(width: int, height: int) -> int:
    """Pixels per square of the rectified photo: about UNDERLAY_SIDE on the longer side, 12 to 48 a square."""
    return max(12, min(48, UNDERLAY_SIDE // max(width, height)))


def png_data_url(image: Image.Image) -> str:
    out = BytesIO()
    image.save(out, format="PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")

"""A photo of the board in, each piece's place out.

API (the live adapter calls ``read`` once per frame):

- ``read(image_bgr, layout, calibration=None, finder=None) -> Reading``: ``layout`` is
  :func:`hardware.camera.layout.layout`'s dictionary (or a :class:`Plan`), ``calibration`` a
  :class:`hardware.camera.pose.Lens` (None: the focal length is estimated from the corners),
  ``finder`` a :func:`detector` to reuse from frame to frame;
- ``Reading``: ``board_found``; ``pieces`` {piece: square id or room name}; ``unseen`` (every
  other piece of the edition, hidden or off the board); and for the live panel ``outline`` (the
  board's four corners in pixels, clockwise from top-left), ``seen`` {piece: marker centre in
  pixels}, ``missing_corners`` (corner ids not found, or found clipped and left out: 0 top left,
  1 top right, 2 bottom right, 3 bottom left; ``layout.corner_names`` names their rooms), ``foreign`` (ids in view that are not this edition's) and ``duplicates``
  (ids seen twice);
- ``load_image(path) -> image``: a photo file, checked (ReadError with a code otherwise);
- ``Reading.check()``: ReadError for a reading the CLI must refuse (no board, foreign or doubled
  markers); the live adapter may ignore those instead.

How: OpenCV's ArUco detector finds every marker (small blurred ones get a second look, enlarged);
the corner markers (three suffice, and must agree) give the camera's pose
(:mod:`hardware.camera.pose`); each piece's marker centre is taken back along its ray to the
marker's own height above the board, and the board point under it names the place: the room
whose cell it is in, else the hallway square. A marker of the wrong apparent size for its
place is not taken: it is safer unseen than misplaced.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.rules.errors import ClueError

from .layout import Plan
from .pose import Lens, Pose, solve

MAX_PIXELS = 40_000_000
MIN_CORNERS = 3  # of 4: a hand may cover one
MAX_CORNER_ERROR = 0.18  # of a marker's side: how far a corner marker's corner may miss the pose
SIZE_RATIO = (0.7, 1.4)  # a piece marker's side against the side the pose expects there (a turn changes little)
SECOND_LOOKS = 40  # dark rejected candidates read again at most (each a few tenths of a millisecond)
MIN_SECOND_SIDE, MAX_SECOND_SIDE = 10.0, 40.0  # px: the small markers a second look can save
Image = NDArray[np.uint8]


class ReadError(ClueError, ValueError):
    """A photo that cannot be read; ``code`` says why (not_an_image, too_large, no_board, ...)."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Reading:
    """What one photo shows (see the module's note)."""

    board_found: bool
    pieces: Mapping[str, str]
    unseen: tuple[str, ...]
    outline: tuple[tuple[float, float], ...] = ()
    seen: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    missing_corners: tuple[int, ...] = ()
    foreign: tuple[int, ...] = ()
    duplicates: tuple[int, ...] = ()

    def check(self) -> Reading:
        """This reading, or ReadError when the photo has no board or markers that do not belong."""
        if self.duplicates:
            raise ReadError(f"two markers with one id in view: {list(self.duplicates)}", "duplicate_marker")
        if self.foreign:
            raise ReadError(f"markers of another edition in view: ids {list(self.foreign)}", "foreign_marker")
        if not self.board_found:
            raise ReadError(f"no board in view: corner markers {list(self.missing_corners)} not found "
                            f"(at least {MIN_CORNERS} of 4 are needed)", "no_board")
        return self

    def to_json(self, ms: float) -> dict[str, Any]:
        return {"board_found": self.board_found, "pieces": dict(self.pieces), "unseen": list(self.unseen),
                "ms": round(ms, 1)}


def load_image(path: str) -> Image:
    """A photo file as a BGR image; ReadError ``not_an_image``, ``too_large`` or ``unreadable``."""
    from PIL import Image as Pillow
    from PIL import UnidentifiedImageError

    try:
        with warnings.catch_warnings():  # Pillow's own bomb warning: the size is checked below
            warnings.simplefilter("ignore", Pillow.DecompressionBombWarning)
            with Pillow.open(path) as probe:  # reads the header only: a huge image is refused before decoding
                width, height = probe.size
    except Pillow.DecompressionBombError:
        raise ReadError(f"{path} is over {MAX_PIXELS // 1_000_000} megapixels", "too_large") from None
    except UnidentifiedImageError:
        raise ReadError(f"{path} is not an image", "not_an_image") from None
    except OSError as err:
        raise ReadError(f"cannot read {path}: {err.strerror or err}", "unreadable") from None
    if width * height > MAX_PIXELS:
        raise ReadError(f"{path} is {width} x {height}: over {MAX_PIXELS // 1_000_000} megapixels", "too_large")
    data = np.fromfile(path, dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if image is None:
        raise ReadError(f"{path}: OpenCV cannot decode it", "not_an_image")
    return np.asarray(image, dtype=np.uint8)


def detector(dictionary: str) -> cv2.aruco.ArucoDetector:
    """ArUco's detector for a layout's dictionary, tuned for markers some 20 px across."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.minMarkerPerimeterRate = 0.02  # a 14 mm marker on a far board edge is some 15 px across
    # Two threshold windows (5 and 15 px) find markers of 15 to 60 px; a third (25) found none more
    params.adaptiveThreshWinSizeMin = 5
    params.adaptiveThreshWinSizeMax = 15
    params.adaptiveThreshWinSizeStep = 10
    # Each cell read from 8 x 8 samples, less 30% at its edges: a blurred 2.5 px cell still reads
    # (measured on the benchmark's misses: 32 of 755 markers missed with OpenCV's 4 and 13%, 1 with these)
    params.perspectiveRemovePixelPerCell = 8
    params.perspectiveRemoveIgnoredMarginPerCell = 0.3
    params.errorCorrectionRate = 0.3  # no bit corrected: a wrong id would misplace a piece, a miss only hides it
    chosen = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    return cv2.aruco.ArucoDetector(chosen, params)


def read(image_bgr: Image, layout: Mapping[str, Any] | Plan, calibration: Lens | None = None,
         finder: cv2.aruco.ArucoDetector | None = None) -> Reading:
    """Each piece's place in one photo (``finder``: a detector to reuse across frames)."""
    plan = layout if isinstance(layout, Plan) else Plan.of(layout)
    gray = image_bgr if image_bgr.ndim == 2 else np.asarray(cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY), np.uint8)
    finder = finder or detector(plan.dictionary)
    corners, ids, rejected = finder.detectMarkers(gray)
    found = _by_id(corners, ids)
    for marker_id, quad in _second_look(gray, rejected, finder):
        if marker_id not in found:
            found[marker_id] = [quad]
    known = {m.id for m in (*plan.corners, *plan.pieces)}
    foreign = tuple(sorted(i for i in found if i not in known))
    duplicates = tuple(sorted(i for i, quads in found.items() if len(quads) > 1 and i in known))
    names = tuple(m.name for m in plan.pieces)
    missing = tuple(c.id for c in plan.corners if c.id not in found)
    if len(plan.corners) - len(missing) < MIN_CORNERS:
        return Reading(False, {}, names, missing_corners=missing, foreign=foreign, duplicates=duplicates)
    height, width = gray.shape[:2]
    pose, unsure = _pose(plan, found, (width, height), calibration)
    missing = tuple(sorted({*missing, *unsure}))
    if pose is None:
        return Reading(False, {}, names, missing_corners=missing, foreign=foreign, duplicates=duplicates)
    pieces, seen = _place_pieces(plan, found, pose)
    outline = tuple((float(x), float(y)) for x, y in pose.to_image(_board_outline(plan)))
    return Reading(True, pieces, tuple(n for n in names if n not in pieces), outline, seen, missing, foreign,
                   duplicates)


def _by_id(corners: Any, ids: Any) -> dict[int, list[NDArray[np.float64]]]:
    found: dict[int, list[NDArray[np.float64]]] = {}
    if ids is None:
        return found
    for quad, marker_id in zip(corners, np.asarray(ids).reshape(-1)):
        found.setdefault(int(marker_id), []).append(np.asarray(quad, dtype=np.float64).reshape(4, 2))
    return found


def _second_look(gray: Image, rejected: Any, finder: cv2.aruco.ArucoDetector) -> list[tuple[int, NDArray[np.float64]]]:
    """Markers among the rejected candidates, read again from a crop enlarged twice.

    A marker some 18 px across, blurred, can lose a bit to the sampling grid; enlarged, it reads.
    Only dark candidates are tried (a marker is mostly black inside; a hallway square is pale).
    """
    height, width = gray.shape[:2]
    again: list[tuple[int, NDArray[np.float64]]] = []
    tried = 0
    for candidate in rejected:
        quad = np.asarray(candidate, np.float64).reshape(4, 2)
        low, high = quad.min(axis=0), quad.max(axis=0)
        side = float(max(high - low))
        if not MIN_SECOND_SIDE <= side <= MAX_SECOND_SIDE:
            continue
        x0, y0 = (np.maximum(low - side * 0.6, 0)).astype(int)
        x1, y1 = np.minimum(high + side * 0.6, (width, height)).astype(int)
        crop = gray[y0:y1, x0:x1]
        inner = gray[int(low[1]):int(high[1]) + 1, int(low[0]):int(high[0]) + 1]
        if inner.size == 0 or float(inner.mean()) > 0.8 * float(crop.mean()):
            continue
        tried += 1
        if tried > SECOND_LOOKS:
            break
        big = cv2.resize(crop, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        corners, ids, _ = finder.detectMarkers(big)
        if ids is None:  # a blurred marker's bits, sharpened (an unsharp mask)
            sharp = cv2.addWeighted(big, 2.0, cv2.GaussianBlur(big, (0, 0), 2.0), -1.0, 0)
            corners, ids, _ = finder.detectMarkers(sharp)
        for found_quad, marker_id in zip(corners, np.asarray(ids if ids is not None else []).reshape(-1)):
            again.append((int(marker_id), np.asarray(found_quad, np.float64).reshape(4, 2) / 2 + (x0, y0)))
    return again


def _pose(plan: Plan, found: Mapping[int, list[NDArray[np.float64]]], size: tuple[int, int],
          calibration: Lens | None) -> tuple[Pose | None, tuple[int, ...]]:
    """The pose from the corner markers that agree with each other, and the ids of those left out.

    A sticker half under a sleeve can still be found, with a clipped outline: it pulls the pose a
    square off. Its corners then miss the pose the others give by far more than a lens's mild
    distortion does (at most a tenth of a marker's side, measured over the benchmark's scenes), so
    with four corners the one that disagrees is left out; with three, none can be trusted.
    """
    seen = [c for c in plan.corners if c.id in found and c.center_mm is not None]
    quads = [found[c.id][0] for c in seen]
    squares = [_square(c.center_mm, c.size_mm) for c in seen if c.center_mm is not None]
    if len(quads) == 4:
        quads = _upright(quads, squares)
    pose, error = _fit(quads, squares, size, calibration)
    if error <= MAX_CORNER_ERROR:
        return pose, ()
    if len(quads) > MIN_CORNERS:
        fits = [(_fit(quads[:n] + quads[n + 1:], squares[:n] + squares[n + 1:], size, calibration), n)
                for n in range(len(quads))]
        (pose, error), left_out = min(fits, key=lambda fit: fit[0][1])
        if error <= MAX_CORNER_ERROR:
            return pose, (seen[left_out].id,)
    return None, tuple(c.id for c in seen)


def _fit(quads: list[NDArray[np.float64]], squares: list[NDArray[np.float64]], size: tuple[int, int],
         calibration: Lens | None) -> tuple[Pose, float]:
    """The pose from these markers, and its worst corner's miss as a share of the markers' mean side."""
    image_points, board_points = np.vstack(quads), np.vstack(squares)
    pose = solve(image_points, board_points, size, calibration)
    missed = np.linalg.norm(pose.to_image(np.column_stack((board_points, np.zeros(len(board_points)))))
                            - image_points, axis=1)
    side = float(np.mean([np.linalg.norm(quad[1] - quad[0]) for quad in quads]))
    return pose, float(missed.max()) / max(side, 1.0)


def _upright(quads: list[NDArray[np.float64]], squares: list[NDArray[np.float64]]) -> list[NDArray[np.float64]]:
    """Each corner marker's corners in the board's order, whichever way its sticker was turned.

    The four markers' centres alone fix a homography; each marker's corners are then turned to
    the order that homography predicts (a sticker put on a quarter turn off still gives the pose).
    """
    centres = np.array([_centre(quad) for quad in quads])
    middles = np.array([square.mean(axis=0) for square in squares])
    homography, _ = cv2.findHomography(middles, centres, 0)
    if homography is None:
        return quads
    turned = []
    for quad, square in zip(quads, squares):
        expected = cv2.perspectiveTransform(square.reshape(-1, 1, 2), homography).reshape(4, 2)
        shifts = [np.roll(quad, -k, axis=0) for k in range(4)]
        turned.append(min(shifts, key=lambda q: float(np.sum((q - expected) ** 2))))
    return turned


def _square(centre: tuple[float, float], side: float) -> NDArray[np.float64]:
    """A marker's four corners in ArUco's order (top-left, clockwise), printed upright on the board."""
    x, y, h = centre[0], centre[1], side / 2
    return np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]])


def _place_pieces(plan: Plan, found: Mapping[int, list[NDArray[np.float64]]],
                  pose: Pose) -> tuple[dict[str, str], dict[str, tuple[float, float]]]:
    pieces: dict[str, str] = {}
    seen: dict[str, tuple[float, float]] = {}
    for marker in plan.pieces:
        quads = found.get(marker.id)
        if not quads or len(quads) > 1:  # a doubled id cannot say which is the piece
            continue
        centre = _centre(quads[0])
        x, y = pose.to_board(centre.reshape(1, 2), marker.height_mm)[0]
        if not _sized_right(quads[0], pose, float(x), float(y), marker.height_mm, marker.size_mm):
            continue  # not this marker: a pattern of another size that decodes to its id
        seen[marker.name] = (float(centre[0]), float(centre[1]))
        place = plan.place_at(float(x), float(y))
        if place is not None:
            pieces[marker.name] = place
    return pieces, seen


def _sized_right(quad: NDArray[np.float64], pose: Pose, x: float, y: float, height: float, side: float) -> bool:
    """Whether the quad has the area the pose gives a marker of this size at that point and height."""
    h = side / 2
    square = np.array([[x - h, y - h, -height], [x + h, y - h, -height], [x + h, y + h, -height],
                       [x - h, y + h, -height]])
    expected = abs(cv2.contourArea(pose.to_image(square).astype(np.float32)))
    found = abs(cv2.contourArea(quad.astype(np.float32)))
    return bool(expected > 0 and SIZE_RATIO[0] <= (found / expected) ** 0.5 <= SIZE_RATIO[1])


def _centre(quad: NDArray[np.float64]) -> NDArray[np.float64]:
    """Where a quadrilateral's diagonals cross: its centre under perspective, unlike the corners' mean."""
    p1, p2, p3, p4 = quad
    d1, d2 = p3 - p1, p4 - p2
    denominator = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denominator) < 1e-9:
        return np.asarray(quad.mean(axis=0), dtype=np.float64)
    s = ((p2[0] - p1[0]) * d2[1] - (p2[1] - p1[1]) * d2[0]) / denominator
    return np.asarray(p1 + s * d1, dtype=np.float64)


def _board_outline(plan: Plan) -> NDArray[np.float64]:
    w, h = plan.width_mm, plan.height_mm
    return np.array([[0.0, 0.0, 0.0], [w, 0.0, 0.0], [w, h, 0.0], [0.0, h, 0.0]])


def timed_read(image_bgr: Image, layout: Mapping[str, Any] | Plan,
               calibration: Lens | None = None) -> tuple[Reading, float]:
    """``read`` and the milliseconds it took."""
    start = time.perf_counter()
    reading = read(image_bgr, layout, calibration)
    return reading, (time.perf_counter() - start) * 1000

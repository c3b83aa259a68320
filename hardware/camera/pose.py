"""The camera's pose over the board, from the corner markers alone, and the height correction.

API:

- ``Lens(focal_px, centre_px, distortion)``: a calibration (``Lens.guess(w, h)`` for none);
- ``solve(image_points, board_points, size, lens=None) -> Pose``: the pose from matching points
  (pixels, mm on the board); with no lens the focal length is estimated (below);
- ``Pose.to_board(pixels, height_mm)``: where on the board lies the point under each pixel's ray
  at that height: a marker 38 mm up, seen near the frame's edge, maps to the square under it,
  not to the one its ray meets on the board.

The focal length without a calibration: the homography from the board to the image is
``K [r1 r2 t]`` up to scale, and ``r1``, ``r2`` must be orthogonal and of one length (Zhang's
constraints with the principal point at the image centre and square pixels). A search over
``f`` minimises their violation, with a weak pull toward a usual lens (a 66° horizontal field,
a Pi Camera Module 3 or a webcam): a camera looking straight down constrains ``f`` little, but
then the height correction hardly depends on it either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Points = NDArray[np.float64]  # N x 2
USUAL_FIELD_DEG = 66.0  # horizontal field of a Camera Module 3 or a common webcam
PRIOR_WEIGHT = 0.002  # the pull toward the usual lens, against the (squared) constraint violation


@dataclass(frozen=True)
class Lens:
    """A camera's intrinsics: focal length and principal point in pixels, OpenCV's distortion (k1 k2 p1 p2 k3)."""

    focal_px: float
    centre_px: tuple[float, float]
    distortion: tuple[float, ...] = ()

    @classmethod
    def guess(cls, width: int, height: int, focal_px: float | None = None) -> Lens:
        """A lens of a usual field (or of ``focal_px``) centred on the image, without distortion."""
        focal = focal_px or (width / 2) / math.tan(math.radians(USUAL_FIELD_DEG / 2))
        return cls(focal, (width / 2, height / 2))

    def matrix(self) -> NDArray[np.float64]:
        (cx, cy), f = self.centre_px, self.focal_px
        return np.array([[f, 0.0, cx], [0.0, f, cy], [0.0, 0.0, 1.0]])

    def coefficients(self) -> NDArray[np.float64]:
        return np.array(self.distortion or (0.0, 0.0, 0.0, 0.0), dtype=np.float64)


@dataclass(frozen=True)
class Pose:
    """Where the camera is: the lens, and the board-to-camera rotation and translation (mm)."""

    lens: Lens
    rotation: NDArray[np.float64]  # 3 x 3: board axes (x right, y down, z into the table) in camera axes
    translation: NDArray[np.float64]  # 3: the board's origin in camera coordinates, mm

    def to_board(self, pixels: Points, height_mm: float) -> Points:
        """Board points (mm) under each pixel's ray where it crosses ``height_mm`` above the board."""
        if len(pixels) == 0:
            return np.zeros((0, 2))
        rays = cv2.undistortPoints(pixels.reshape(-1, 1, 2).astype(np.float64), self.lens.matrix(),
                                   self.lens.coefficients()).reshape(-1, 2)
        r = self.rotation
        # The plane z = -h (up is -z): x r1 + y r2 + (t - h r3) ~ ray, an ordinary homography.
        plane = np.column_stack((r[:, 0], r[:, 1], self.translation - height_mm * r[:, 2]))
        found = np.linalg.solve(plane, np.vstack((rays.T, np.ones(len(rays)))))
        return np.asarray((found[:2] / found[2]).T, np.float64)

    def to_image(self, board_points: NDArray[np.float64]) -> Points:
        """Pixels of board points (N x 3 in mm, z into the table: a height h is z = -h)."""
        rvec, _ = cv2.Rodrigues(self.rotation)
        found, _ = cv2.projectPoints(board_points.reshape(-1, 1, 3).astype(np.float64), rvec, self.translation,
                                     self.lens.matrix(), self.lens.coefficients())
        return np.asarray(found, np.float64).reshape(-1, 2)


def solve(image_points: Points, board_points: Points, size: tuple[int, int], lens: Lens | None = None) -> Pose:
    """The pose from at least 4 matching points on the board's plane; the focal length estimated without ``lens``."""
    if lens is None:
        lens = Lens.guess(*size, focal_px=estimate_focal(image_points, board_points, size))
    flat = np.column_stack((board_points, np.zeros(len(board_points))))
    ok, rvec, tvec = cv2.solvePnP(flat.reshape(-1, 1, 3), image_points.reshape(-1, 1, 2).astype(np.float64),
                                  lens.matrix(), lens.coefficients(), flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        raise ValueError("no pose fits the corner markers")
    rotation, _ = cv2.Rodrigues(rvec)
    return Pose(lens, np.asarray(rotation, np.float64), np.asarray(tvec, np.float64).reshape(3))


def estimate_focal(image_points: Points, board_points: Points, size: tuple[int, int]) -> float:
    """The focal length (px) that best makes the board's homography a rotation (see the module's note)."""
    homography, _ = cv2.findHomography(board_points.astype(np.float64), image_points.astype(np.float64), 0)
    width, height = size
    shift = np.array([[1.0, 0.0, -width / 2], [0.0, 1.0, -height / 2], [0.0, 0.0, 1.0]])
    centred = shift @ homography
    prior = math.log(Lens.guess(width, height).focal_px)
    low, high = math.log(0.25 * width), math.log(4.0 * width)
    for _ in range(60):  # golden-section search over log f
        a, b = high - (high - low) / 1.618034, low + (high - low) / 1.618034
        if _violation(centred, a, prior) < _violation(centred, b, prior):
            high = b
        else:
            low = a
    return math.exp((low + high) / 2)


def _violation(centred: NDArray[np.float64], log_focal: float, prior: float) -> float:
    f = math.exp(log_focal)
    m = np.diag([1 / f, 1 / f, 1.0]) @ centred
    one, two = m[:, 0], m[:, 1]
    n1, n2 = float(np.linalg.norm(one)), float(np.linalg.norm(two))
    skew = float(one @ two) / (n1 * n2)
    stretch = (n1 - n2) / (n1 + n2)
    return skew ** 2 + stretch ** 2 + PRIOR_WEIGHT * (log_focal - prior) ** 2

"""The parts of a synthetic photo (:mod:`hardware.camera.scene`): the shot, the position, hands, light, lens.

``Conditions`` are ranges; ``random_shot`` draws one ``Shot`` from them with a seeded generator,
so a benchmark's condition is a ``Conditions`` and a scene is reproduced from its seed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.rules.edition import Edition

from .layout import Plan
from .pose import Lens, Pose

Image = NDArray[np.uint8]
Range = tuple[float, float]
SKIN = ((150, 180, 225), (120, 150, 205), (90, 120, 170), (60, 80, 120), (45, 60, 90))  # BGR
SLEEVES = ((40, 40, 40), (150, 60, 30), (30, 30, 140), (200, 200, 200), (60, 110, 60))


@dataclass(frozen=True)
class Conditions:
    """The ranges a random shot is drawn from; the defaults are item 7's: tilt to 30°, the board filling ≥ 45%."""

    name: str = "default"
    tilt_deg: Range = (0.0, 30.0)
    fill: Range = (0.45, 0.62)  # share of the frame the board's outline covers
    turn_jitter_deg: float = 8.0  # the board's turn in the frame, about a quarter turn
    field_deg: Range = (60.0, 78.0)  # horizontal field of view
    k1: Range = (-0.10, 0.02)  # mild radial distortion
    hands: tuple[int, int] = (0, 0)
    light: Range = (0.0, 0.35)  # the strength of the uneven light (a gradient and vignetting)
    glare: Range = (0.0, 0.0)  # a bright spot's added brightness, 0-255
    blur: Range = (0.0, 0.6)  # Gaussian sigma, pixels
    noise: Range = (0.0, 3.0)  # Gaussian sigma, grey levels
    jpeg: tuple[int, int] = (85, 95)
    size: tuple[int, int] = (1920, 1080)


@dataclass(frozen=True)
class Shot:
    """One camera and its conditions, fully determined (``seed`` drives hands, glare and noise)."""

    seed: int
    width: int = 1920
    height: int = 1080
    focal_px: float = 1400.0
    k1: float = 0.0
    k2: float = 0.0
    tilt_deg: float = 0.0
    tilt_towards_deg: float = 90.0  # the direction, on the board, the camera leans away from
    turn_deg: float = 0.0  # the board's turn in the frame
    fill: float = 0.5
    hands: int = 0
    hand_scale: float = 1.0
    light: float = 0.0
    glare: float = 0.0
    blur: float = 0.0
    noise: float = 0.0
    jpeg: int = 95

    def lens(self) -> Lens:
        return Lens(self.focal_px, (self.width / 2, self.height / 2), (self.k1, self.k2, 0.0, 0.0))

    def pose(self, plan: Plan) -> Pose:
        """The camera leaning ``tilt_deg`` from vertical, aimed and at the distance where the board fills ``fill``."""
        target = np.array([plan.width_mm / 2, plan.height_mm / 2, 0.0])
        distance = 2.0 * max(plan.width_mm, plan.height_mm)
        pose = self._pose_at(target, distance)
        for _ in range(4):  # the board's share falls as the square of the distance; recentre each time
            outline = _outline(pose, plan)
            share = abs(cv2.contourArea(outline.astype(np.float32))) / (self.width * self.height)
            distance *= math.sqrt(share / self.fill) * max(1.0, _overflow(outline, self.width, self.height))
            target = _recentred(pose, outline, target, self.width, self.height)
            pose = self._pose_at(target, distance)
        while _overflow(_outline(pose, plan), self.width, self.height) > 1.0:
            distance *= 1.02
            pose = self._pose_at(target, distance)
        return pose

    def _pose_at(self, target: NDArray[np.float64], distance: float) -> Pose:
        tilt, lean = math.radians(self.tilt_deg), math.radians(self.tilt_towards_deg)
        # Board axes: x right, y down, z into the table; the camera is above (negative z).
        centre = target + distance * np.array([math.sin(tilt) * math.cos(lean), math.sin(tilt) * math.sin(lean),
                                               -math.cos(tilt)])
        forward = (target - centre) / distance
        turn = math.radians(self.turn_deg)
        reference = np.array([math.cos(turn), math.sin(turn), 0.0])
        right = reference - (reference @ forward) * forward
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        rotation = np.vstack((right, down, forward))
        return Pose(self.lens(), rotation, -rotation @ centre)


def _outline(pose: Pose, plan: Plan) -> NDArray[np.float64]:
    ideal = Pose(Lens(pose.lens.focal_px, pose.lens.centre_px), pose.rotation, pose.translation)
    w, h = plan.width_mm, plan.height_mm
    return ideal.to_image(np.array([[0, 0, 0], [w, 0, 0], [w, h, 0], [0, h, 0]], np.float64))


def _overflow(outline: NDArray[np.float64], width: int, height: int) -> float:
    """How many times too big the outline's box is for the frame (with a 2% margin); at most 1 when it fits."""
    span = outline.max(axis=0) - outline.min(axis=0)
    return float(max(span[0] / (0.96 * width), span[1] / (0.96 * height)))


def _recentred(pose: Pose, outline: NDArray[np.float64], target: NDArray[np.float64], width: int,
               height: int) -> NDArray[np.float64]:
    """The aim moved so that the board's box is centred in the frame."""
    middle = (outline.max(axis=0) + outline.min(axis=0)) / 2
    ideal = Pose(Lens(pose.lens.focal_px, pose.lens.centre_px), pose.rotation, pose.translation)
    points = ideal.to_board(np.array([middle, [width / 2, height / 2]]), 0.0)
    shifted = target.copy()
    shifted[:2] += points[0] - points[1]
    return shifted


def random_shot(plan: Plan, rng: np.random.Generator, conditions: Conditions) -> Shot:
    width, height = conditions.size
    field = math.radians(rng.uniform(*conditions.field_deg))
    return Shot(
        seed=int(rng.integers(0, 2**31)), width=width, height=height,
        focal_px=(width / 2) / math.tan(field / 2), k1=float(rng.uniform(*conditions.k1)),
        k2=float(rng.uniform(-0.01, 0.01)) if conditions.k1 != (0.0, 0.0) else 0.0,
        tilt_deg=float(rng.uniform(*conditions.tilt_deg)), tilt_towards_deg=float(rng.uniform(0, 360)),
        turn_deg=float(90 * rng.integers(0, 4) + rng.uniform(-1, 1) * conditions.turn_jitter_deg),
        fill=float(rng.uniform(*conditions.fill)),
        hands=int(rng.integers(conditions.hands[0], conditions.hands[1] + 1)),
        hand_scale=float(rng.uniform(0.8, 1.2)), light=float(rng.uniform(*conditions.light)),
        glare=float(rng.uniform(*conditions.glare)), blur=float(rng.uniform(*conditions.blur)),
        noise=float(rng.uniform(*conditions.noise)), jpeg=int(rng.integers(conditions.jpeg[0], conditions.jpeg[1] + 1)),
    )


# The position


def random_position(plan: Plan, edition: Edition, rng: np.random.Generator
                    ) -> tuple[dict[str, str], dict[str, tuple[float, float]]]:
    """Every mover on a free hallway square or in a room, every weapon in a room, spread within rooms."""
    board = edition.require_board()
    spots: dict[str, list[tuple[float, float]]] = {}
    for name, x, y in plan.centres:
        if name in board.rooms:
            spots.setdefault(name, []).append((x, y))
    rooms = sorted(spots)
    squares = list(board.squares)
    taken: set[tuple[float, float]] = set()
    placements: dict[str, str] = {}
    points: dict[str, tuple[float, float]] = {}
    jitter = plan.square_mm * 0.12
    for name in (*edition.deck.suspects, *edition.deck.weapons):
        mover = name in edition.deck.suspects
        if mover and rng.random() < 0.6:
            square = squares.pop(int(rng.integers(len(squares))))
            placements[name], centre = square, plan.centre_of(square)
        else:
            room = rooms[int(rng.integers(len(rooms)))]
            placements[name], centre = room, _free_spot(spots[room], taken, plan.square_mm, rng)
        taken.add(centre)
        points[name] = (centre[0] + rng.uniform(-jitter, jitter), centre[1] + rng.uniform(-jitter, jitter))
    return placements, points


def _free_spot(spots: list[tuple[float, float]], taken: set[tuple[float, float]], square: float,
               rng: np.random.Generator) -> tuple[float, float]:
    """A room's spot with no piece within a square of it if there is one, else any spot not taken."""
    apart = [s for s in spots if all(math.dist(s, t) > 1.5 * square for t in taken)]
    free = apart or [s for s in spots if s not in taken] or spots
    return free[int(rng.integers(len(free)))]


# Markers


def marker_patch(dictionary: str, marker_id: int, side_px: int, quiet: bool) -> NDArray[np.uint8]:
    """A marker as printed (black border included), with a white quiet zone of one cell when ``quiet``."""
    chosen = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    cells = 6  # 4 x 4 bits and a one-cell black border
    cell = max(1, round(side_px / (cells + 2 if quiet else cells)))
    image = cv2.aruco.generateImageMarker(chosen, marker_id, cell * cells, borderBits=1)
    if quiet:
        image = cv2.copyMakeBorder(image, cell, cell, cell, cell, cv2.BORDER_CONSTANT, value=255)
    return np.asarray(image, np.uint8)


# Hands


def draw_hand(frame: Image, mask: NDArray[np.uint8], rng: np.random.Generator, board: NDArray[np.float64],
              scale: float) -> None:
    """A hand reaching over the board from the nearest frame edge: arm, palm, four fingers and a thumb."""
    height, width = frame.shape[:2]
    px_per_mm = math.dist(board[0], board[1]) / 530.0 * scale * 1.15  # a hand is nearer the camera than the board
    t = rng.uniform(0.1, 0.9, size=2)
    palm = board[0] + t[0] * (board[1] - board[0]) + t[1] * (board[3] - board[0])
    edges = [(palm[0], 0.0), (palm[0], float(height)), (0.0, palm[1]), (float(width), palm[1])]
    shoulder = np.array(min(edges, key=lambda e: math.dist(e, palm)))
    reach = (palm - shoulder) / max(1.0, float(np.linalg.norm(palm - shoulder)))
    skin = tuple(int(c + rng.integers(-12, 13)) for c in SKIN[int(rng.integers(len(SKIN)))])
    sleeve = SLEEVES[int(rng.integers(len(SLEEVES)))]
    paint = (frame, mask)
    _stroke(paint, shoulder - reach * 80, palm - reach * 70 * px_per_mm, 75 * px_per_mm, sleeve)
    _stroke(paint, palm - reach * 80 * px_per_mm, palm - reach * 20 * px_per_mm, 55 * px_per_mm, skin)
    angle = math.degrees(math.atan2(reach[1], reach[0]))
    for target in (frame, mask):
        cv2.ellipse(target, _int(palm), (int(50 * px_per_mm), int(42 * px_per_mm)), angle, 0, 360,
                    skin if target is frame else 255, -1, cv2.LINE_AA)
    side = np.array([-reach[1], reach[0]])
    spread = rng.uniform(-0.25, 0.25)
    for n, offset in enumerate((-27, -9, 9, 27)):
        base = palm + reach * 35 * px_per_mm + side * offset * px_per_mm
        length = (55 + 12 * (n in (1, 2))) * px_per_mm
        direction = reach + side * (spread + offset / 90)
        _stroke(paint, base, base + direction / np.linalg.norm(direction) * length, 16 * px_per_mm, skin)
    thumb = palm + side * 40 * px_per_mm
    _stroke(paint, thumb, thumb + (side + reach * 0.6) * 40 * px_per_mm, 19 * px_per_mm, skin)


def _stroke(paint: tuple[Image, NDArray[np.uint8]], start: NDArray[np.float64], end: NDArray[np.float64],
            thickness: float, colour: tuple[int, ...]) -> None:
    frame, mask = paint
    cv2.line(frame, _int(start), _int(end), colour, max(1, int(thickness)), cv2.LINE_AA)
    cv2.line(mask, _int(start), _int(end), 255, max(1, int(thickness)))


def _int(point: NDArray[np.float64]) -> tuple[int, int]:
    return int(round(float(point[0]))), int(round(float(point[1])))


# Light and lens


def light_and_lens_effects(frame: Image, shot: Shot, rng: np.random.Generator) -> Image:
    """Lens distortion, uneven light, glare, blur, sensor noise and JPEG, in the order a camera adds them."""
    image = _distort(frame, shot) if (shot.k1 or shot.k2) else frame
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height:8, 0:width:8].astype(np.float32)  # coarse fields, enlarged: light is smooth
    xs, ys = (xs - width / 2) / width, (ys - height / 2) / width
    direction = rng.uniform(0, 2 * math.pi)
    gain = 1.0 + shot.light * (math.cos(direction) * xs + math.sin(direction) * ys) - shot.light * 1.2 * (xs**2 + ys**2)
    glare = np.zeros((1, 1), np.float32)
    if shot.glare > 0:
        gx, gy = rng.uniform(-0.4, 0.4), rng.uniform(-0.2, 0.2)
        glare = shot.glare * np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * rng.uniform(0.03, 0.08) ** 2))
    gain = cv2.resize(gain.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
    lit = cv2.multiply(image, cv2.merge([gain, gain, gain]), dtype=cv2.CV_32F)
    if shot.glare > 0:  # a reflection adds light, washing black ink out too
        shine = cv2.resize(glare.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)
        lit = cv2.add(lit, cv2.merge([shine, shine, shine]))
    if shot.blur > 0.05:
        lit = cv2.GaussianBlur(lit, (0, 0), shot.blur)
    if shot.noise > 0:  # one noise plane for the three channels: a sensor's grain, at a third of the cost
        grain = rng.standard_normal((height, width), dtype=np.float32) * np.float32(shot.noise)
        lit = cv2.add(lit, cv2.merge([grain, grain, grain]))
    out = np.asarray(cv2.convertScaleAbs(lit), np.uint8)
    ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, shot.jpeg])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8) if ok else out


def _distort(frame: Image, shot: Shot) -> Image:
    """Each output pixel takes the ideal image's pixel its distorted ray came from (radial k1, k2)."""
    height, width = frame.shape[:2]
    step = 4  # the map is smooth: computed on a coarse grid and enlarged
    ys, xs = np.mgrid[0:height + step:step, 0:width + step:step].astype(np.float64)
    f, cx, cy = shot.focal_px, width / 2, height / 2
    xd, yd = (xs - cx) / f, (ys - cy) / f
    xu, yu = xd.copy(), yd.copy()
    for _ in range(6):  # fixed point: undistorted = distorted / (1 + k1 r^2 + k2 r^4), r of the undistorted
        r2 = xu**2 + yu**2
        factor = 1 + shot.k1 * r2 + shot.k2 * r2**2
        xu, yu = xd / factor, yd / factor
    full = (width + step, height + step)
    map_x = cv2.resize((xu * f + cx).astype(np.float32), full, interpolation=cv2.INTER_LINEAR)[:height, :width]
    map_y = cv2.resize((yu * f + cy).astype(np.float32), full, interpolation=cv2.INTER_LINEAR)[:height, :width]
    return np.asarray(cv2.remap(frame, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.uint8)

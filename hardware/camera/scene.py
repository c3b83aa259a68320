"""Synthetic photos of a board: the edition's own drawing, the printed markers at their true heights.

API (tests, the benchmark, and a mock camera for ``run --mock --camera``):

- ``Renderer(edition)``: holds the board's texture (``board EDITION --png`` with the corner
  markers stuck on) and the layout; reuse it for many frames;
- ``Renderer.render(scene) -> Photo``: ``Photo.image`` (BGR, uint8), ``Photo.truth`` {piece:
  place}, ``Photo.hidden`` (pieces whose marker is covered, wholly or partly, by a hand or
  another piece), ``Photo.pose`` (the true camera, for checks);
- ``Scene``: what to draw: ``placements`` {piece: place}, a ``Shot`` (camera and conditions);
- ``random_scene(renderer, rng, conditions)``: a seeded random game position and shot;
- ``Conditions``: the ranges a random shot draws from (tilt, distortion, light, blur, hands...).

The camera is a pinhole with radial distortion (OpenCV's k1, k2) placed at a tilt from
vertical, turned about the vertical, at the distance where the board fills a chosen share of
the frame. Pieces are drawn far to near: a mover is a tapered cylinder with its sticker on
top, a weapon a low block. Then hands (palm, fingers, arm from the frame's edge), uneven
light and glare, blur, noise and JPEG. Everything comes from the seed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.rules.drawing import board_png_bytes
from companion.rules.edition import Edition

from .layout import Plan, layout
from .pose import Pose
from .scene_parts import Conditions, Shot, draw_hand, light_and_lens_effects, marker_patch, random_shot

Image = NDArray[np.uint8]
TEXTURE_PX_PER_MM = 4.0
MOVER_BASE_MM, MOVER_TOP_MM = 12.0, 9.5  # the pawn's radii
COLOURS = ((40, 40, 200), (40, 200, 230), (235, 235, 235), (60, 150, 50), (200, 90, 40), (140, 50, 120),
           (120, 120, 120), (150, 120, 230), (40, 70, 110), (140, 190, 250))

__all__ = ["Conditions", "Photo", "Renderer", "Scene", "Shot", "move", "random_scene"]


@dataclass(frozen=True)
class Scene:
    """A position and a shot: each piece's place, and where each stands within a room or square."""

    placements: Mapping[str, str]
    shot: Shot
    points: Mapping[str, tuple[float, float]] = field(default_factory=dict)  # piece -> board mm (from placements)
    turns: Mapping[str, float] = field(default_factory=dict)  # piece -> marker's turn, degrees


@dataclass(frozen=True)
class Photo:
    image: Image
    truth: Mapping[str, str]
    hidden: tuple[str, ...]
    pose: Pose
    hand_share: float  # of the board's area under hands


class Renderer:
    """Draws scenes of one edition (the board texture is made once)."""

    def __init__(self, edition: Edition, square_mm: float = 21.0) -> None:
        self.edition = edition
        self.layout = layout(edition, square_mm)
        self.plan = Plan.of(self.layout)
        self.texture = self._texture()
        # Halved copies, so a far board is sampled from a texture near its own scale (no aliasing, no resize per frame)
        self.textures = [self.texture]
        while self.textures[-1].shape[1] > 600:
            self.textures.append(np.asarray(cv2.pyrDown(self.textures[-1]), np.uint8))

    def _texture(self) -> Image:
        scale = TEXTURE_PX_PER_MM * self.plan.square_mm / 32.0  # drawing units (32 a square) to texture px
        png = board_png_bytes(self.edition, scale)
        image = np.asarray(cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), np.uint8)
        for corner in self.plan.corners:
            if corner.center_mm is None:  # a corner always has one; the type allows a piece's None
                continue
            # The sticker's white quiet zone covers the grid's outer wall line, which would join the black border
            patch = marker_patch(self.plan.dictionary, corner.id, round(corner.size_mm * 8 / 6 * TEXTURE_PX_PER_MM),
                                 quiet=True)
            x, y = (round(v * TEXTURE_PX_PER_MM - patch.shape[0] / 2) for v in corner.center_mm)
            image[y:y + patch.shape[0], x:x + patch.shape[1]] = patch[..., None]
        return np.asarray(image, dtype=np.uint8)

    def render(self, scene: Scene) -> Photo:
        shot = scene.shot
        pose = shot.pose(self.plan)
        frame = self._board(pose, shot)
        labels = np.zeros(frame.shape[:2], np.int16)
        order = self._far_to_near(scene, pose)
        for index, name in order:
            self._piece(frame, labels, pose, scene, index, name)
        rng = np.random.default_rng(shot.seed)
        hand = np.zeros(frame.shape[:2], np.uint8)
        for _ in range(shot.hands):
            draw_hand(frame, hand, rng, self._board_polygon(pose), shot.hand_scale)
        labels[hand > 0] = -2
        hidden = self._hidden(scene, labels, order, pose)
        board_mask = np.zeros_like(hand)
        cv2.fillConvexPoly(board_mask, self._board_polygon(pose).astype(np.int32), 1)
        share = float((hand & board_mask).sum()) / max(1.0, float(board_mask.sum()))
        image = light_and_lens_effects(frame, shot, rng)
        return Photo(image, dict(scene.placements), hidden, pose, share)

    # The board

    def _board(self, pose: Pose, shot: Shot) -> Image:
        """The board seen by a distortion-free camera, then bent by the lens's distortion."""
        size = (shot.width, shot.height)
        ideal = replace(pose.lens, distortion=())
        corners = np.array([[0, 0, 0], [self.plan.width_mm, 0, 0], [self.plan.width_mm, self.plan.height_mm, 0],
                            [0, self.plan.height_mm, 0]], np.float64)
        image_corners = Pose(ideal, pose.rotation, pose.translation).to_image(corners)
        px_per_mm = _largest_scale(image_corners, self.plan)
        texture, tex_scale = self._texture_at(px_per_mm)
        source = (corners[:, :2] * tex_scale).astype(np.float32)
        warp = cv2.getPerspectiveTransform(source, image_corners.astype(np.float32))
        return np.asarray(cv2.warpPerspective(texture, warp, size, flags=cv2.INTER_LINEAR,
                                              borderMode=cv2.BORDER_CONSTANT, borderValue=(70, 85, 110)), np.uint8)

    def _texture_at(self, px_per_mm: float) -> tuple[Image, float]:
        chosen = self.textures[0]
        for texture in self.textures:
            if TEXTURE_PX_PER_MM * texture.shape[1] / self.texture.shape[1] >= px_per_mm:
                chosen = texture
        return chosen, TEXTURE_PX_PER_MM * chosen.shape[1] / self.texture.shape[1]

    def _board_polygon(self, pose: Pose) -> NDArray[np.float64]:
        w, h = self.plan.width_mm, self.plan.height_mm
        return _ideal(pose).to_image(np.array([[0, 0, 0], [w, 0, 0], [w, h, 0], [0, h, 0]], np.float64))

    # The pieces

    def _far_to_near(self, scene: Scene, pose: Pose) -> list[tuple[int, str]]:
        markers = {m.name: m for m in self.plan.pieces}
        depth = {}
        for name in scene.placements:
            x, y = scene.points[name]
            camera = pose.rotation @ np.array([x, y, -markers[name].height_mm]) + pose.translation
            depth[name] = float(np.linalg.norm(camera))
        ordered = sorted(scene.placements, key=lambda n: -depth[n])
        return [(1 + [m.name for m in self.plan.pieces].index(n), n) for n in ordered]

    def _piece(self, frame: Image, labels: NDArray[np.int16], pose: Pose, scene: Scene, index: int,
               name: str) -> None:
        marker = next(m for m in self.plan.pieces if m.name == name)
        x, y = scene.points[name]
        ideal = _ideal(pose)
        colour = COLOURS[(index - 1) % len(COLOURS)]
        body = _body(ideal, x, y, marker.height_mm, marker.kind, marker.size_mm)
        cv2.fillConvexPoly(frame, body, colour, lineType=cv2.LINE_AA)
        cv2.fillConvexPoly(labels, body, -1)
        patch = marker_patch(self.plan.dictionary, marker.id, 96, quiet=True)
        side = marker.size_mm * patch.shape[0] / (96 * 6 / 8)  # the sticker: marker plus a one-cell white border
        turn = math.radians(scene.turns.get(name, 0.0))
        square = _turned_square(x, y, -marker.height_mm, side, turn)
        where = ideal.to_image(square).astype(np.float32)
        _paste(frame, labels, patch, where, index)

    def _hidden(self, scene: Scene, labels: NDArray[np.int16], order: list[tuple[int, str]],
                pose: Pose) -> tuple[str, ...]:
        """Pieces whose sticker is not wholly in view (covered by a hand or a nearer piece, or off the frame)."""
        counts = np.bincount((labels.ravel().astype(np.int32) + 2), minlength=len(self.plan.pieces) + 3)
        hidden = []
        for index, name in order:
            marker = next(m for m in self.plan.pieces if m.name == name)
            x, y = scene.points[name]
            side = marker.size_mm * 8 / 6
            area = abs(cv2.contourArea(_ideal(pose).to_image(
                _turned_square(x, y, -marker.height_mm, side, math.radians(scene.turns.get(name, 0.0))))
                .astype(np.float32)))
            if counts[index + 2] < 0.97 * area:
                hidden.append(name)
        return tuple(hidden)


def _ideal(pose: Pose) -> Pose:
    return Pose(replace(pose.lens, distortion=()), pose.rotation, pose.translation)


def _largest_scale(corners: NDArray[np.float64], plan: Plan) -> float:
    """The most pixels per mm along any board edge (the texture needs no finer detail)."""
    sides = [np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]
    return float(max(sides[0] / plan.width_mm, sides[2] / plan.width_mm, sides[1] / plan.height_mm,
                     sides[3] / plan.height_mm))


def _turned_square(x: float, y: float, z: float, side: float, turn: float) -> NDArray[np.float64]:
    h = side / 2
    c, s = math.cos(turn), math.sin(turn)
    offsets = ((-h, -h), (h, -h), (h, h), (-h, h))
    return np.array([[x + c * dx - s * dy, y + s * dx + c * dy, z] for dx, dy in offsets], np.float64)


def _body(pose: Pose, x: float, y: float, height: float, kind: str, size: float) -> NDArray[np.int32]:
    """The outline of a piece's body: the hull of its base and top (a pawn's circles, a weapon's block)."""
    if kind == "mover":
        rings = [(MOVER_BASE_MM, 0.0), (MOVER_TOP_MM, -height)]
    else:
        rings = [(size * 0.6, 0.0), (size * 0.6, -height)]
    points = [(x + r * math.cos(a), y + r * math.sin(a), z) for r, z in rings
              for a in np.linspace(0, 2 * math.pi, 24, endpoint=False)]
    pixels = pose.to_image(np.array(points, np.float64))
    return np.asarray(cv2.convexHull(pixels.astype(np.float32)).reshape(-1, 2).round(), np.int32)


def _paste(frame: Image, labels: NDArray[np.int16], patch: NDArray[np.uint8], where: NDArray[np.float32],
           index: int) -> None:
    """Warp a sticker onto the frame where its corners fall (only the small box around it is touched)."""
    height, width = frame.shape[:2]
    x0, y0 = np.floor(where.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(where.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 <= x0 or y1 <= y0:
        return
    n = patch.shape[0]
    source = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
    warp = cv2.getPerspectiveTransform(source, where - np.array([x0, y0], np.float32))
    box = (x1 - x0, y1 - y0)
    ink = cv2.warpPerspective(patch, warp, box, flags=cv2.INTER_AREA)
    cover = cv2.warpPerspective(np.full_like(patch, 255), warp, box, flags=cv2.INTER_LINEAR)
    alpha = cover.astype(np.float32)[..., None] / 255.0
    region = frame[y0:y1, x0:x1].astype(np.float32)
    frame[y0:y1, x0:x1] = (region * (1 - alpha) + ink.astype(np.float32)[..., None] * alpha).round().astype(np.uint8)
    labels[y0:y1, x0:x1][cover > 128] = index


def random_scene(renderer: Renderer, rng: np.random.Generator, conditions: Conditions) -> Scene:
    """A random position (every mover and weapon somewhere it may stand) and a random shot."""
    from .scene_parts import random_position

    placements, points = random_position(renderer.plan, renderer.edition, rng)
    turns = {name: float(rng.uniform(0, 360)) for name in placements}
    return Scene(placements, random_shot(renderer.plan, rng, conditions), points, turns)


def move(scene: Scene, plan: Plan, piece: str, place: str, rng: np.random.Generator) -> Scene:
    """The scene with one piece moved to a place: a square's centre, or a free spot of a room (a game's step).

    With ``dataclasses.replace(scene, shot=replace(scene.shot, hands=1, seed=n))`` a sequence of
    scenes is a game filmed frame by frame, hands and all (the live watcher's benchmark).
    """
    others = {point for name, point in scene.points.items() if name != piece}
    spots = [(x, y) for name, x, y in plan.centres if name == place]
    if not spots:
        raise KeyError(f"{place!r} is no place of {plan.edition}")
    free = [spot for spot in spots if all(math.dist(spot, other) > plan.square_mm for other in others)] or spots
    point = free[int(rng.integers(len(free)))]
    return replace(scene, placements={**scene.placements, piece: place}, points={**scene.points, piece: point})


"""The height correction: a mover's marker is 38 mm above its square, and is read back onto that square."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hardware.camera.read import _centre, detector, read
from hardware.camera.scene import Renderer, Scene, Shot


def edge_squares(renderer: Renderer) -> list[str]:
    """Hallway squares farthest from the board's middle: where a tall piece leans most in a photo."""
    plan = renderer.plan
    middle = (plan.width_mm / 2, plan.height_mm / 2)
    squares = [(name, x, y) for name, x, y in plan.centres if name in renderer.edition.require_board().index]
    squares.sort(key=lambda c: -math.dist(middle, c[1:]))
    return [name for name, _, _ in squares[:6]]


@pytest.mark.parametrize("tilt", [0.0, 25.0])
def test_a_tall_mover_near_the_frames_edge_lands_on_its_own_square(renderers: dict[str, Renderer], tilt: float) -> None:
    renderer = renderers["classic"]
    # A wide lens close over the board: the rays to the edge squares are steep.
    shot = Shot(seed=5, focal_px=(1920 / 2) / math.tan(math.radians(39)), tilt_deg=tilt, tilt_towards_deg=200.0,
                fill=0.6)
    movers = renderer.edition.deck.suspects
    squares = edge_squares(renderer)
    placements = dict(zip(movers, squares))
    points = {name: renderer.plan.centre_of(square) for name, square in placements.items()}
    photo = renderer.render(Scene(placements, shot, points))
    reading = read(photo.image, renderer.layout)
    assert reading.board_found
    assert {name: reading.pieces.get(name) for name in placements} == placements
    # Without the correction the same markers land elsewhere: the test would catch its loss.
    corners, ids, _ = detector(renderer.plan.dictionary).detectMarkers(photo.image)
    by_id = {int(i): np.asarray(q, np.float64).reshape(4, 2) for q, i in zip(corners, np.asarray(ids).ravel())}
    misread = 0
    for marker in renderer.plan.pieces:
        if marker.name in placements:
            flat = photo.pose.to_board(_centre(by_id[marker.id]).reshape(1, 2), 0.0)[0]
            misread += renderer.plan.place_at(*flat) != placements[marker.name]
    assert misread >= 3

"""A covered corner marker: the board is still found from three, and the panel's advice says which is covered."""

from __future__ import annotations

import cv2
import numpy as np

from hardware.camera.overlay import advice, draw
from hardware.camera.read import Reading, read
from hardware.camera.scene import Renderer, Scene, Shot, random_scene
from hardware.camera.scene_parts import Conditions

PLAIN = Conditions(k1=(0.0, 0.0), light=(0.0, 0.0), blur=(0.0, 0.0), noise=(0.0, 0.0))


def test_three_corners_find_the_board_and_the_fourth_is_said_to_be_covered(renderers: dict[str, Renderer]) -> None:
    renderer = renderers["classic"]
    position = random_scene(renderer, np.random.default_rng(8), PLAIN)
    photo = renderer.render(Scene(position.placements, Shot(seed=2, tilt_deg=20, fill=0.55), position.points,
                                  position.turns))
    corner = renderer.plan.corners[1]
    assert corner.center_mm is not None
    x, y = photo.pose.to_image(np.array([[*corner.center_mm, 0.0]]))[0].astype(int)
    image = photo.image.copy()
    cv2.circle(image, (int(x), int(y)), 45, (120, 140, 190), -1)  # a thumb over the top-right sticker
    reading = read(image, renderer.layout)
    assert reading.board_found and reading.missing_corners == (1,)
    assert dict(reading.pieces) == dict(photo.truth)
    assert advice(reading, (image.shape[1], image.shape[0])) == ["The top right corner marker is covered: clear it."]
    assert draw(image, reading).shape == image.shape


def test_a_corner_out_of_the_picture_asks_to_move_the_camera() -> None:
    reading = Reading(True, {}, (), outline=((10.0, 10.0), (2100.0, 20.0), (1800.0, 1000.0), (100.0, 1000.0)),
                      missing_corners=(1,))
    assert advice(reading, (1920, 1080)) == [
        "The top right corner is out of the picture: move the camera toward it, or raise it."]
    assert advice(Reading(False, {}, ("Knife",)), (1920, 1080))[0].startswith("The board is not in view")
